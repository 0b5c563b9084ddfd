// Small parsers for query strings and bodies: bad input is a 400
// invalid_request problem (the same code the service uses), never a 500.
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../../service/api.ts';
import { negotiateLanguage, type Language } from '../../i18n/index.ts';

export type Query = Record<string, string | string[] | undefined>;

export function query(request: FastifyRequest): Query {
  return (request.query ?? {}) as Query;
}

/**
 * A parameter given once, or undefined when absent. An empty value (`?role=`)
 * is refused rather than taken for an absent one: a client that sends it has
 * lost a value on the way, and acting as if it asked for nothing (another
 * seat's view, every game) would hide that.
 */
export function str(q: Query, name: string): string | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new ServiceError('invalid_request', `Give ${name} once.`);
  if (v === '') throw new ServiceError('invalid_request', `${name} is empty: give a value, or leave the parameter out.`);
  return v;
}

export function int(q: Query, name: string): number | undefined {
  const v = str(q, name);
  if (v === undefined) return undefined;
  if (!/^\d{1,9}$/.test(v)) throw new ServiceError('invalid_request', `${name} must be a non-negative integer.`);
  return Number(v);
}

export function bool(q: Query, name: string): boolean | undefined {
  const v = str(q, name);
  if (v === undefined) return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ServiceError('invalid_request', `${name} must be true or false.`);
}

/**
 * The JSON body as an object ({} when there is none). A body that is not a JSON object (null,
 * an array, a string, a number) never gets here: the input guard refuses it before any handler
 * (plugins/input-guard.ts, for every route but /graphql).
 */
export function body<T = Record<string, unknown>>(request: FastifyRequest): T {
  return (request.body ?? {}) as T;
}

/** Refuses fields the route does not know: a misspelt field silently ignored would do the wrong thing. */
export function onlyFields(b: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(b).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    const takes = allowed.length === 0 ? 'this request takes no fields (send {} or no body)' : `this body takes ${allowed.join(', ')}`;
    throw new ServiceError('invalid_request', `Unknown field ${unknown.map((k) => JSON.stringify(k.slice(0, 50))).join(', ')}: ${takes}.`, { fields: unknown.map((k) => k.slice(0, 50)) });
  }
}

/**
 * The language to word labels and log lines in: the `lang` parameter, else the
 * Accept-Language header, else English (an unknown language is not an error:
 * the client gets English, and `lang` in the answer says so).
 */
export function language(request: FastifyRequest, q: Query = query(request)): Language {
  const header = request.headers['accept-language'];
  return negotiateLanguage({ lang: str(q, 'lang') ?? null, acceptLanguage: typeof header === 'string' ? header : null });
}

export interface IdParams {
  gameId: string;
}
