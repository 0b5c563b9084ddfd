// Who is calling, for GraphQL over HTTP and over WebSocket: the same
// `Authorization: Bearer <key>` (and `X-Act-As: <playerId>`) as REST, checked
// by the service's authenticate(). Over WebSocket the credentials come from the
// connection_init payload (browsers cannot set headers on a WebSocket), else
// from the upgrade request's headers.
//
// Over HTTP the auth plugin (herald-auth) has already authenticated the
// request (request.caller; a bad key is refused before GraphQL runs). Over
// WebSocket authentication is memoised, one key lookup per connection (made at
// connection_init, to count the connection against its key: ws-sockets.ts);
// a wrong key fails every subscription with unauthorized instead of silently
// becoming anonymous. So do credentials in connection_init that cannot be read
// (a non-string Authorization or X-Act-As, the same name twice in different
// letter case or both at the top level and under `headers`, `headers` not an
// object, an empty Authorization): they used to be dropped silently, and the
// connection ran anonymous or as the key itself instead of the player acted for.
import type { Caller, GameServiceApi } from '../../service/api.ts';
import { ServiceError } from '../../service/api.ts';
import { ADMIN_CALLER } from '../plugins/auth.ts';
import type { SubscriptionStarts } from './ws-sockets.ts';

export interface Credentials {
  authorization?: string;
  actAs?: string;
  /** Credentials were given but cannot be read: every operation fails with this error. */
  refused?: ServiceError;
}

export interface Auth {
  /** The caller, or null without credentials; rejects for bad credentials. */
  optional(): Promise<Caller | null>;
  /** The caller; unauthorized without credentials. */
  required(): Promise<Caller>;
}

export interface HeraldContext {
  auth: Auth;
  /** The request's Accept-Language header (a `lang` argument overrides it). */
  acceptLanguage?: string;
  /** Over WebSocket: the client's address (the upgrade request's), whom an anonymous subscription counts against. */
  ip?: string;
  /** Over WebSocket: registers what to run when the socket closes (ws-sockets.ts); returns its removal. */
  socketClosed?: (fn: () => void) => () => void;
  /** Over WebSocket: the connection's subscription starts under way (ws-sockets.ts). */
  starts?: SubscriptionStarts;
  /** Over WebSocket, set by Mercurius: the id of the subscription being started. */
  id?: unknown;
}

const CREDENTIAL_NAMES: Record<string, 'authorization' | 'actAs'> = { authorization: 'authorization', 'x-act-as': 'actAs' };

/**
 * From a connection_init payload: `{ Authorization, "X-Act-As" }` in any
 * letter case, at the top level or under `headers` (an object). Null when the
 * payload carries no credentials; with `refused` when it carries some that
 * cannot be read.
 */
export function credentialsFromPayload(payload: unknown): Credentials | null {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const record = payload as Record<string, unknown>;
  const found: Partial<Record<'authorization' | 'actAs', unknown>> = {};
  const refused = (detail: string, code: 'unauthorized' | 'invalid_request' = 'invalid_request'): Credentials => ({ refused: new ServiceError(code, `connection_init payload: ${detail}`) });
  const sources: Array<[Record<string, unknown>, string]> = [[record, '']];
  const headers = record.headers;
  if (headers !== undefined && headers !== null) {
    if (typeof headers !== 'object' || Array.isArray(headers)) return refused('headers must be an object of header names and values.');
    sources.push([headers as Record<string, unknown>, 'headers.']);
  }
  for (const [source, prefix] of sources) {
    for (const [k, v] of Object.entries(source)) {
      const name = CREDENTIAL_NAMES[k.toLowerCase()];
      if (name === undefined) continue;
      const label = name === 'authorization' ? 'Authorization' : 'X-Act-As';
      if (name in found) return refused(`${label} is given more than once (${prefix}${k} and another spelling or place): give it once.`);
      if (typeof v !== 'string') return refused(`${prefix}${k} must be a string${name === 'authorization' ? ' ("Bearer <key>")' : ' (a player id)'}, not ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}.`, name === 'authorization' ? 'unauthorized' : 'invalid_request');
      found[name] = v;
    }
  }
  const authorization = found.authorization as string | undefined;
  const actAs = (found.actAs as string | undefined)?.trim();
  if (authorization !== undefined && authorization.trim() === '') return refused('Authorization is empty: it must be "Bearer <key>".', 'unauthorized');
  const creds: Credentials = {};
  if (authorization !== undefined) creds.authorization = authorization.trim();
  if (actAs !== undefined && actAs !== '') creds.actAs = actAs;
  return creds.authorization === undefined && creds.actAs === undefined ? null : creds;
}

export function createAuth(service: Pick<GameServiceApi, 'authenticate' | 'isAdminToken'>, creds: Credentials): Auth {
  let memo: Promise<Caller | null> | undefined;
  const optional = (): Promise<Caller | null> => {
    memo ??= (async () => {
      if (creds.refused) throw creds.refused;
      if (creds.authorization === undefined) {
        if (creds.actAs !== undefined) throw new ServiceError('unauthorized', 'X-Act-As needs an application key in Authorization');
        return null;
      }
      const m = /^Bearer\s+(\S+)$/i.exec(creds.authorization);
      if (!m) throw new ServiceError('unauthorized', 'Authorization must be "Bearer <key>".');
      if (service.isAdminToken(m[1]!)) {
        if (creds.actAs !== undefined) throw new ServiceError('invalid_request', 'X-Act-As is for application keys, not the operator token.');
        return ADMIN_CALLER;
      }
      return service.authenticate(m[1]!, creds.actAs);
    })();
    return memo;
  };
  return withRequired(optional);
}

/** A caller already established (HTTP: request.caller from the auth plugin). */
export function fixedAuth(caller: Caller | null): Auth {
  return withRequired(async () => caller);
}

function withRequired(optional: () => Promise<Caller | null>): Auth {
  return {
    optional,
    async required() {
      const caller = await optional();
      if (!caller) throw new ServiceError('unauthorized', 'This needs an API key (Authorization: Bearer <key>).');
      return caller;
    },
  };
}
