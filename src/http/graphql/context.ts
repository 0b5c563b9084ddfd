// Who is calling, for GraphQL over HTTP and over WebSocket: the same
// `Authorization: Bearer <key>` (and `X-Act-As: <playerId>`) as REST, checked
// by the service's authenticate(). Over WebSocket the credentials come from the
// connection_init payload (browsers cannot set headers on a WebSocket), else
// from the upgrade request's headers.
//
// Over HTTP the auth plugin (herald-auth) has already authenticated the
// request (request.caller; a bad key is refused before GraphQL runs). Over
// WebSocket authentication is memoised, one key lookup per connection (made at
// connection_init, to count the connection against its key: ws-connections.ts);
// a wrong key fails every subscription with unauthorized instead of silently
// becoming anonymous.
import type { Caller, GameServiceApi } from '../../service/api.ts';
import { ServiceError } from '../../service/api.ts';
import { ADMIN_CALLER } from '../plugins/auth.ts';
import type { SubscriptionStarts } from './ws-connections.ts';

export interface Credentials {
  authorization?: string;
  actAs?: string;
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
  /** Over WebSocket: registers what to run when the socket closes (ws-guard.ts); returns its removal. */
  socketClosed?: (fn: () => void) => () => void;
  /** Over WebSocket: the connection's subscription starts under way (ws-connections.ts). */
  starts?: SubscriptionStarts;
  /** Over WebSocket, set by Mercurius: the id of the subscription being started. */
  id?: unknown;
}

function header(value: unknown): string | undefined {
  if (Array.isArray(value)) return header(value[0]);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** From HTTP headers (any object with lower-case header names). */
export function credentialsFromHeaders(headers: Record<string, unknown>): Credentials {
  return { authorization: header(headers.authorization), actAs: header(headers['x-act-as']) };
}

/**
 * From a connection_init payload: `{ Authorization, "X-Act-As" }` in any
 * letter case, either at the top level or under `headers`. Null when the
 * payload carries no credentials.
 */
export function credentialsFromPayload(payload: unknown): Credentials | null {
  if (payload === null || typeof payload !== 'object') return null;
  const record = payload as Record<string, unknown>;
  const source = record.headers !== null && typeof record.headers === 'object' ? (record.headers as Record<string, unknown>) : record;
  const lower: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(source)) lower[k.toLowerCase()] = v;
  const creds = credentialsFromHeaders(lower);
  return creds.authorization === undefined && creds.actAs === undefined ? null : creds;
}

export function createAuth(service: Pick<GameServiceApi, 'authenticate' | 'isAdminToken'>, creds: Credentials): Auth {
  let memo: Promise<Caller | null> | undefined;
  const optional = (): Promise<Caller | null> => {
    memo ??= (async () => {
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
