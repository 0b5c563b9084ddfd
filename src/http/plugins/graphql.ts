// GraphQL at /graphql (Mercurius): queries and mutations over the game service
// (the same functions as REST), subscriptions over WebSocket on the same path
// (graphql-transport-ws, and the older graphql-ws subprotocol), GraphiQL at
// /graphiql in development (./graphiql.ts: served offline, not Mercurius's
// CDN-loading page). The schema is schema.graphql at the repository
// root — the file is the source, so the published SDL cannot go stale.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import mercurius, { type IResolvers } from 'mercurius';
import { projectRoot } from '../../paths.ts';
import { createAuth, credentialsFromPayload, fixedAuth, type HeraldContext } from '../graphql/context.ts';
import { errorFormatter, formatError } from '../graphql/errors.ts';
import { frameworkErrors } from './errors.ts';
import graphiql from './graphiql.ts';
import { DEFAULT_LIMITS, limitsRule, type QueryLimits } from '../graphql/limits.ts';
import { checkDocument, checkSource } from '../graphql/size.ts';
import { isParsedDocument, operationMissing, storableLiteralsRule, subscriptionOverHttp, subscriptionStartError, syntaxErrorOf } from '../graphql/input.ts';
import { queryResolvers } from '../graphql/resolvers.ts';
import { leagueResolvers } from '../graphql/leagues.ts';
import { WebSocketSockets, type WatchedSocket } from '../graphql/ws-sockets.ts';
import { subscriptionResolvers } from '../graphql/subscriptions.ts';

export const SCHEMA_PATH = path.join(projectRoot, 'schema.graphql');

export function loadSdl(): string {
  return readFileSync(SCHEMA_PATH, 'utf8');
}

export interface GraphqlOptions {
  graphiql: boolean;
  version: string;
  limits?: QueryLimits;
  /** Interval of graphql-ws keep-alive pings, ms (default 30 s). */
  keepAliveMs?: number;
  /** Interval of the subscriptions' periodic database check, ms (default 15 s). */
  pollMs?: number;
  /** How long a new WebSocket may wait before its connection_init, ms (default 10 s; ws-sockets.ts). */
  connectionInitWaitMs?: number;
}

/** The default wait for connection_init on a new WebSocket, ms. */
export const CONNECTION_INIT_WAIT_MS = 10_000;

declare module 'mercurius' {
  // Our context on every resolver (HTTP and WebSocket).
  interface MercuriusContext extends HeraldContext {}
}

/** The part of a ws WebSocket quietClientErrors uses. */
interface ErrorSocket {
  listeners(event: 'error'): Array<(err: Error) => void>;
  off(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'error', listener: (err: Error & { code?: unknown }) => void): unknown;
  terminate(): void;
}

/**
 * @fastify/websocket's default errorHandler logs every error of a socket at error level, a
 * client's protocol violation too (ws's WS_ERR_* errors: a message over maxPayload, invalid
 * UTF-8 in a text frame, a bad opcode…). Those are the client's: logged at info. Others stay
 * errors. Either way the socket is terminated, as before.
 */
function quietClientErrors(socket: ErrorSocket, request: { log: FastifyBaseLogger }): void {
  for (const listener of socket.listeners('error')) socket.off('error', listener);
  socket.on('error', (err) => {
    if (typeof err.code === 'string' && err.code.startsWith('WS_ERR_')) request.log.info({ code: err.code }, `WebSocket closed for a client's protocol error: ${err.message}`);
    else request.log.error(err);
    socket.terminate();
  });
}

export default async function graphql(app: FastifyInstance, opts: GraphqlOptions): Promise<void> {
  const service = app.gameService;
  const limits = opts.limits ?? DEFAULT_LIMITS;
  const rules = [limitsRule(limits), storableLiteralsRule];
  const games = queryResolvers(service, { version: opts.version });
  const leagues = leagueResolvers(service);
  const resolvers = {
    ...games,
    ...leagues,
    Query: { ...games.Query, ...leagues.Query },
    Mutation: { ...games.Mutation, ...leagues.Mutation },
    Subscription: subscriptionResolvers(service, app.bus, app.notify, app.log, { pollMs: opts.pollMs, slots: app.streamSlots, keys: app.keyStreams }),
  } as IResolvers;

  // Each socket of Mercurius's WebSocket route, one state (ws-sockets.ts): its messages are read
  // before Mercurius reads them (Mercurius parses a document before any of its hooks: the raw
  // text is checked first; past the limits, the start message as a whole: input.ts
  // subscriptionStartError, against Mercurius's schema, read when a message comes), its
  // connection_init, its operation ids, its slot among its caller's connections, its key.
  // Watched from the route's handler, which @fastify/websocket calls with the new socket before
  // Mercurius listens to it.
  const sockets = new WebSocketSockets({
    check: (source, payload) => checkSource(source, limits) ?? subscriptionStartError(app.graphql.schema, source, payload),
    slots: app.webSocketSlots,
    initWaitMs: opts.connectionInitWaitMs ?? CONNECTION_INIT_WAIT_MS,
    keys: app.keyStreams,
  });
  app.addHook('onRoute', (route) => {
    const wsRoute = route as typeof route & { wsHandler?: (this: unknown, socket: WatchedSocket, request: unknown) => unknown };
    const handler = wsRoute.wsHandler;
    if (route.url !== '/graphql' || typeof handler !== 'function') return;
    wsRoute.wsHandler = function (socket, request) {
      // A socket that names neither subprotocol (or none: Mercurius has no default) is closed with
      // 1002 as Mercurius closes it, but logged once at info: Mercurius printed "wrong websocket
      // protocol: <the client's text>" with console.log (a line that is not JSON in the log) and
      // again at warn, for a client's mistake.
      const protocol = (socket as { protocol?: string }).protocol ?? '';
      if (protocol !== 'graphql-transport-ws' && protocol !== 'graphql-ws') {
        (request as { log: FastifyBaseLogger }).log.info({ protocol: protocol.slice(0, 100) }, 'GraphQL WebSocket refused: no known subprotocol (graphql-transport-ws or graphql-ws)');
        (socket as unknown as { close(code: number, reason: string): void }).close(1002, 'Unknown subprotocol: use graphql-transport-ws or graphql-ws');
        return;
      }
      sockets.watch(socket);
      quietClientErrors(socket as unknown as ErrorSocket, request as { log: FastifyBaseLogger });
      return handler.call(this, socket, request);
    };
  });

  await app.register(mercurius, {
    schema: loadSdl(),
    resolvers,
    graphiql: false,
    path: '/graphql',
    validationRules: rules,
    // A backstop only: the preParsing hook below refuses a longer document first, with a typed error.
    graphql: { parseOptions: { maxTokens: limits.maxTokens } },
    errorFormatter,
    // Errors raised before execution (herald-auth refusing a key, a malformed
    // body…): GraphQL errors at /graphql, problem documents at /graphiql (a
    // page, not a GraphQL endpoint).
    errorHandler: async (error, request, reply) => {
      if (!request.url.startsWith('/graphql')) {
        frameworkErrors(error, request, reply);
        return;
      }
      const gqlError = error instanceof GraphQLError ? error : new GraphQLError(error.message, { originalError: error });
      const { statusCode, response } = errorFormatter({ errors: [gqlError] }, { reply, app });
      await reply.code(statusCode).send(response);
    },
    // herald-auth authenticated the request already (and refused a bad key).
    context: (request) => ({
      auth: fixedAuth(request.caller),
      ...(typeof request.headers['accept-language'] === 'string' ? { acceptLanguage: request.headers['accept-language'] } : {}),
    }),
    subscription: {
      // At connection_init, before connection_ack: connection_init credentials, else the upgrade
      // request's headers (authenticated by herald-auth). The connection takes its slot among its
      // caller's connections here (or is closed, 4429).
      // socketClosed: each stream also ends with its socket (ws-sockets.ts).
      context: async (socket, request) => {
        const creds = credentialsFromPayload(sockets.initPayload(socket));
        const auth = creds ? createAuth(service, creds) : fixedAuth(request.caller);
        await sockets.admit(socket as unknown as WatchedSocket, auth, request.ip);
        const socketClosed = sockets.closed(socket);
        const starts = sockets.starts(socket);
        return { auth, ip: request.ip, ...(starts ? { starts } : {}), ...(socketClosed ? { socketClosed } : {}) };
      },
      keepAlive: opts.keepAliveMs ?? 30_000,
    },
  });

  // In this context, so the errorHandler above answers its errors with problem documents.
  if (opts.graphiql) await app.register(graphiql, { endpoint: '/graphql' });

  // Size limits (size.ts): the raw text before it is parsed, the document before it is validated.
  // When graphql-js cannot parse the text, Mercurius tries it as JSON of an
  // already-parsed document ("1e308" became the document 1e308, a 500): only
  // documents graphql-js parsed (their loc is a Location) go on, anything else
  // gets the syntax error of its text.
  const sources = new WeakMap<object, string>();
  app.graphql.addHook('preParsing', async (_schema, source, context) => {
    const tooBig = checkSource(source, limits);
    if (tooBig) throw tooBig;
    sources.set(context, source);
  });
  app.graphql.addHook('preValidation', async (_schema, document, context) => {
    if (!isParsedDocument(document)) throw syntaxErrorOf(sources.get(context));
    const tooBig = checkDocument(document, limits);
    if (tooBig) throw tooBig;
  });
  // A subscription over HTTP is refused before it runs, with 400 (its resolver's refusal came
  // during execution, a 200). preExecution, not preValidation: Mercurius skips validation (and
  // its hook) for a text it has cached, which may hold a query and a subscription. It runs for
  // HTTP only (WebSocket starts have the preSubscription* hooks below).
  app.graphql.addHook('preExecution', async (_schema, document, context) => {
    const body = (context as { reply?: { request?: { body?: unknown } } }).reply?.request?.body;
    const name = (body as { operationName?: unknown } | null | undefined)?.operationName;
    const subscription = subscriptionOverHttp(document, typeof name === 'string' ? name : undefined);
    if (subscription) throw subscription;
  });
  // On GET, Mercurius picks the operation (only queries may run) before graphql-js would refuse
  // an operationName the document lacks, and, for a text it has cached, before any of its hooks:
  // a document without the operation to run (none of that name, or several and no name) was a
  // TypeError, a 500. Texts the size limits refuse are left to the preParsing hook.
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'GET' || request.routeOptions.url !== '/graphql') return;
    const q = (request.query ?? {}) as Record<string, unknown>;
    if (typeof q.query !== 'string' || checkSource(q.query, limits)) return;
    let document: DocumentNode;
    try {
      document = parse(q.query, { maxTokens: limits.maxTokens });
    } catch {
      return; // Mercurius answers with the syntax error
    }
    const missing = operationMissing(document, typeof q.operationName === 'string' ? q.operationName : undefined);
    if (missing) throw missing;
  });

  // Over WebSocket, Mercurius takes a non-string query for an already-parsed
  // document: only documents whose text went through preSubscriptionParsing
  // may start. A text the guard refused arrives here as its stand-in, and its
  // refusal is thrown here; any other text is checked again (cheap), so this
  // hook does not depend on the guard to hold the limits.
  // A start refused here is over: its id is no longer tracked (ws-sockets.ts).
  const refuse = (context: HeraldContext, id: unknown, error: GraphQLError): never => {
    context.starts?.settle(id);
    throw error;
  };
  const checkedSources = new WeakSet<object>();
  app.graphql.addHook('preSubscriptionParsing', async (_schema, source, context, id) => {
    const tooBig = sockets.take(source) ?? checkSource(source, limits);
    if (tooBig) refuse(context, id, tooBig);
    checkedSources.add(context);
  });
  // Mercurius does not validate subscription documents (graphql-js subscribe()
  // does not either): apply the same rules and limits before one starts.
  app.graphql.addHook('preSubscriptionExecution', async (schema: GraphQLSchema, document: DocumentNode, context, id) => {
    if (!checkedSources.has(context)) refuse(context, id, new GraphQLError('query must be a string holding a GraphQL document.', { extensions: { code: 'invalid_request' } }));
    const tooBig = checkDocument(document, limits);
    if (tooBig) refuse(context, id, tooBig);
    const errors = validate(schema, document, [...specifiedRules, ...rules]);
    if (errors.length > 0) refuse(context, id, formatError(errors[0] as GraphQLError, app.log));
  });
}
