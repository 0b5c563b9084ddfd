/**
 * The client's only way to the server: HTTP requests with the API key as a
 * Bearer token. Answers that are not 2xx become CliErrors with the exit code
 * scripts rely on (errors.ts); types.ts holds the answers' shapes.
 */
import { CliError, EXIT, httpError, type Problem } from './errors.ts';
import type { Action, Choice, ChoiceNode, GameSummary } from './types.ts';

export type { Action, Choice, ChoiceNode, GameLog, GameRecord, GameSummary, GameType } from './types.ts';

export interface LegalActions {
  gameId: string;
  version: number;
  role: string;
  active: boolean;
  actions: Action[];
  lang: string;
  choices: Choice[];
  tree?: ChoiceNode;
}

export interface ActionResult {
  version: number;
  role: string;
  game: GameSummary;
  view: { log?: string[]; logFrom?: number; [k: string]: unknown } | null;
  legalActions: Action[];
}

export interface CreatedPlayer {
  created: boolean;
  player: { id: string; name: string };
  key: { id: string; prefix: string; key: string };
}

type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  /** The answer's bytes instead of parsed JSON. */
  binary?: boolean;
  /** A stream (Server-Sent Events): the timeout covers the wait for its headers only. */
  stream?: boolean;
}

/** How long a request may go unanswered by default: --timeout / HERALD_TIMEOUT change it (program.ts). */
export const DEFAULT_TIMEOUT_S = 30;

/** Statuses whose Response may have no body. */
const NULL_BODY = new Set([204, 205, 304]);

/** The longest wait for a rate limit's window to reset before asking again (the server's default window is 60 s). */
const MAX_RETRY_AFTER_S = 60;

export class HeraldClient {
  readonly server: string;
  readonly key: string | null;
  /**
   * How many times a request refused with 429 rate_limited is sent again after
   * the Retry-After the server gives: a few for people's commands, many for the
   * bots, whose games outrun a key's budget (600 requests a minute by default).
   */
  readonly rateLimitRetries: number;

  /**
   * How long one request may take, from sending it to the last byte of its answer (a stream: to
   * its headers), in ms; 0: no limit. A server that accepts and never answers is then exit 3
   * with one line, not a hang. Every client of one command line shares it (program.ts sets it
   * from --timeout / HERALD_TIMEOUT before the command runs).
   */
  static timeoutMs = DEFAULT_TIMEOUT_S * 1000;

  /**
   * 2xx JSON answers read since run() began (run.ts resets it). An error that is not a CliError
   * after one of them came is the answer's shape failing this client's reading of it; before any,
   * it cannot be the server's doing.
   */
  static answers = 0;

  constructor(server: string, key: string | null, rateLimitRetries = 2) {
    this.server = server;
    this.key = key;
    this.rateLimitRetries = rateLimitRetries;
  }

  url(path: string, query: Query = {}): string {
    const url = new URL(path, `${this.server}/`);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
    return url.toString();
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.key ? { authorization: `Bearer ${this.key}` } : {}), ...extra };
  }

  /** Sends one request; throws a CliError (exit 2, 3 or 4) unless the answer is 2xx. */
  async fetch(method: string, path: string, opts: RequestOptions = {}, signal?: AbortSignal): Promise<Response> {
    const headers = this.headers(opts.headers);
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const what = `${method} ${path}`;
    const limit = HeraldClient.timeoutMs;
    // A request that changes something (this client sends no Idempotency-Key) may have been applied
    // although its answer never came: sending it again blindly could do it twice.
    const maybeDone = method === 'GET' || method === 'HEAD' ? '' : '; the server may have applied it already: check (e.g. `herald games show`) before sending it again';
    const timedOut = () => new CliError(`${what}: no answer from ${this.server} within ${limit / 1000} s${maybeDone} (--timeout or HERALD_TIMEOUT sets how long to wait)`, EXIT.unreachable);
    for (let attempt = 0; ; attempt++) {
      const timer = new AbortController();
      const clock = limit > 0 ? setTimeout(() => timer.abort(), limit) : null;
      const both = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
      let res: Response;
      try {
        try {
          res = await fetch(this.url(path, opts.query), { method, headers, ...(body !== undefined ? { body } : {}), signal: both });
          // The whole answer within the limit (a server may send headers and then stall); a stream is read
          // by its caller, but a refusal or failure in its place is read here, within the limit too.
          if (!opts.stream || !res.ok) res = new Response(NULL_BODY.has(res.status) ? null : await res.arrayBuffer(), { status: res.status, statusText: res.statusText, headers: res.headers });
        } finally {
          if (clock) clearTimeout(clock);
        }
      } catch (err) {
        if (timer.signal.aborted) throw timedOut();
        if (signal?.aborted) throw err;
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        throw new CliError(`cannot reach ${this.server} (${cause?.code ?? cause?.message ?? (err as Error).message})`, EXIT.unreachable);
      }
      if (res.ok) return res;
      if (res.status === 429 && attempt < this.rateLimitRetries) {
        // Nothing was done (a refused request changes nothing): wait for the window, then ask again.
        await res.body?.cancel();
        const wait = Number(res.headers.get('retry-after'));
        await sleep(1000 * (Number.isFinite(wait) && wait > 0 ? Math.min(wait, MAX_RETRY_AFTER_S) : 1));
        continue;
      }
      throw httpError(res.status, await problemOf(res), what);
    }
  }

  async json<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.fetch(method, path, opts);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    try {
      const parsed = JSON.parse(text) as T;
      HeraldClient.answers++;
      return parsed;
    } catch {
      throw new CliError(`${method} ${path}: the answer is not JSON (is ${this.server} a Herald server?)`, EXIT.unreachable);
    }
  }

  async bytes(path: string, query: Query = {}): Promise<Buffer> {
    const res = await this.fetch('GET', path, { query });
    return Buffer.from(await res.arrayBuffer());
  }

  get<T>(path: string, query: Query = {}): Promise<T> {
    return this.json<T>('GET', path, { query });
  }

  post<T>(path: string, body: unknown = {}, query: Query = {}): Promise<T> {
    return this.json<T>('POST', path, { body, query });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The answer's problem document, or null when it is not one (a proxy's page, say). */
async function problemOf(res: Response): Promise<Problem | null> {
  const text = await res.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Problem;
  } catch {
    // not JSON: not Herald's answer
  }
  return null;
}

/** A game id as the routes take it: path segments must not smuggle in another route. */
export function gamePath(id: string, tail = ''): string {
  return `/games/${encodeURIComponent(id)}${tail}`;
}
