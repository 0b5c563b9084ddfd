// Input checks specific to GraphQL: the shape of a GraphQL-over-HTTP request
// (Mercurius would treat a non-string `query` as an already-parsed document,
// and answered {"query": 123} with a 500), the variables of a GET request
// (JSON inside the query string), and string literals written in the
// document itself (a "\u0000" escape becomes U+0000 only once parsed), and
// the start message of a subscription over WebSocket.
import {
  GraphQLError, Kind, Location, getOperationAST, getVariableValues, parse,
  type ASTVisitor, type DocumentNode, type GraphQLSchema, type ValidationContext, type ValidationRule,
} from 'graphql';
import { ServiceError } from '../../service/api.ts';
import { findUnstorable, isStorable, unstorableReason } from '../storable.ts';

function invalid(detail: string): ServiceError {
  return new ServiceError('invalid_request', detail);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** query, operationName and variables of one POST body (an object; batching is off). */
function checkParams(p: Record<string, unknown>, variables: unknown): void {
  if (typeof p.query !== 'string') throw invalid('query must be a string holding a GraphQL document.');
  if (p.operationName !== undefined && p.operationName !== null && typeof p.operationName !== 'string') {
    throw invalid('operationName must be a string or null.');
  }
  if (variables !== undefined && variables !== null && !isObject(variables)) throw invalid('variables must be a JSON object or null.');
  const bad = findUnstorable(variables, 'variables');
  if (bad) throw invalid(`${bad.path} ${bad.reason}, which cannot be stored.`);
}

/**
 * Throws invalid_request for a request to /graphql whose query, operationName
 * or variables are of the wrong type, or whose variables hold unstorable
 * strings. A GET without a query (a WebSocket upgrade, GraphiQL's own probes)
 * is left to Mercurius.
 */
export function checkGraphqlRequest(method: string, body: unknown, query: Record<string, unknown>): void {
  if (method === 'POST') {
    if (!isObject(body)) {
      // Say what came: a text/plain body (a string) was told that batching is not supported.
      if (Array.isArray(body)) throw invalid('Batched requests (a JSON array) are not supported: send one {"query": ...} object per request.');
      const got = body === null ? 'null' : typeof body === 'string' ? 'a string (send JSON with Content-Type: application/json, or the document alone with Content-Type: application/graphql)' : `a ${typeof body}`;
      throw invalid(`The body must be a JSON object with a query, not ${got}.`);
    }
    checkParams(body, body.variables);
    return;
  }
  if (method !== 'GET' || query.query === undefined) return;
  let variables: unknown = undefined;
  if (typeof query.variables === 'string') {
    try {
      variables = JSON.parse(query.variables);
    } catch {
      throw invalid('variables must be JSON text (a JSON object).');
    }
  } else if (query.variables !== undefined) {
    throw invalid('Give variables once, as JSON text.');
  }
  checkParams(query, variables);
}

/**
 * Subscription arguments over WebSocket: their variables never pass the HTTP
 * input guard (they arrive in a graphql-ws message), so check them here.
 */
export function checkArguments(args: unknown): void {
  const bad = findUnstorable(args, 'arguments');
  if (bad) throw invalid(`${bad.path} ${bad.reason}, which cannot be stored.`);
}

/** A validation rule: every string literal of the document must be storable (U+0000 arrives as a "\u0000" escape). */
export const storableLiteralsRule: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  StringValue(node) {
    if (!isStorable(node.value)) {
      context.reportError(
        new GraphQLError(`A string literal ${unstorableReason(node.value)}, which cannot be stored.`, { nodes: [node], extensions: { code: 'invalid_request' } }),
      );
    }
  },
});

/** A document graphql-js parsed (not one Mercurius made with JSON.parse from text that is not GraphQL). */
export function isParsedDocument(document: unknown): document is DocumentNode {
  return typeof document === 'object' && document !== null && (document as DocumentNode).kind === Kind.DOCUMENT && (document as DocumentNode).loc instanceof Location;
}

/** The syntax error graphql-js reports for a text (an invalid_request error however it fails). */
export function syntaxErrorOf(source: string | undefined): GraphQLError {
  try {
    if (source !== undefined) parse(source);
  } catch (err) {
    if (err instanceof GraphQLError) return new GraphQLError(err.message, { source: err.source, positions: err.positions, extensions: { code: 'invalid_request' } });
  }
  return new GraphQLError('query is not a GraphQL document.', { extensions: { code: 'invalid_request' } });
}

function invalidStart(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'invalid_request' } });
}

/** invalid_request when the document has no operation `operationName` picks (none named so, or several and no name); else null. */
export function operationMissing(document: DocumentNode, operationName: string | undefined): GraphQLError | null {
  if (getOperationAST(document, operationName)) return null;
  return invalidStart(operationName !== undefined ? `The document has no operation named "${operationName}".` : 'The document must hold exactly one operation, or operationName must name one of them.');
}

/**
 * invalid_request when the operation a request over HTTP would run is a subscription
 * (served over WebSocket only); else null. Before, the refusal came from the field's
 * resolver, during execution: a 200 whose error said status 400, where a document that can
 * never run over HTTP (as a syntax error) is refused with 400 before it runs.
 */
export function subscriptionOverHttp(document: DocumentNode, operationName: string | undefined): GraphQLError | null {
  if (getOperationAST(document, operationName)?.operation !== 'subscription') return null;
  return invalidStart('Subscriptions are served over WebSocket only (graphql-ws protocol at /graphql); over HTTP send a query or mutation.');
}

/**
 * What a subscription's start message over WebSocket gets wrong before it can
 * run, as an invalid_request error; null when it may start. Mercurius answers
 * these itself, outside the errorFormatter, so the client got untyped errors
 * (a syntax error, a variable of the wrong type) or a TypeError's message (a
 * document whose operation it could not pick). The text has passed the size
 * limits (checkSource), so parsing it is safe.
 */
export function subscriptionStartError(schema: GraphQLSchema, source: string, payload: Record<string, unknown>): GraphQLError | null {
  let document: DocumentNode;
  try {
    document = parse(source);
  } catch {
    return syntaxErrorOf(source);
  }
  const { operationName, variables } = payload;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return invalidStart('operationName must be a string.');
  const missing = operationMissing(document, operationName ?? undefined);
  if (missing) return missing;
  const operation = getOperationAST(document, operationName ?? undefined)!;
  if (operation.operation !== 'subscription') return invalidStart(`Only subscriptions run over WebSocket; send a ${operation.operation} over HTTP (POST /graphql).`);
  if (variables !== undefined && variables !== null && !isObject(variables)) return invalidStart('variables must be an object.');
  // Undeclared variables and the rest of validation are left to the preSubscriptionExecution hook.
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 1 });
  const first = coerced.errors?.[0];
  return first ? new GraphQLError(first.message, { nodes: first.nodes, extensions: { code: 'invalid_request' } }) : null;
}
