// RFC 9457 problem details: every error response of the REST API has this body
// (Content-Type application/problem+json).

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Stable machine-readable code, e.g. not_found. */
  code: string;
  [extension: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problemType(code: string): string {
  return `urn:herald:problem:${code.toLowerCase().replace(/_/g, '-')}`;
}

/** A problem's own members: an extension of the same name is dropped (a `status` extension once turned a 409 into a 500). */
const RESERVED = new Set(['type', 'title', 'status', 'detail', 'code']);

export function problemExtensions(extensions: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(extensions).filter(([k]) => !RESERVED.has(k)));
}

export function problem(status: number, code: string, detail: string, extensions: Record<string, unknown> = {}): Problem {
  return { type: problemType(code), title: TITLES[status] ?? 'Error', status, detail, code, ...problemExtensions(extensions) };
}

/** Throw from a route to answer with a problem document. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly extensions: Record<string, unknown>;
  constructor(status: number, code: string, detail: string, extensions: Record<string, unknown> = {}) {
    super(detail);
    this.name = 'HttpProblem';
    this.status = status;
    this.code = code;
    this.extensions = extensions;
  }
  toProblem(): Problem {
    return problem(this.status, this.code, this.message, this.extensions);
  }
}
