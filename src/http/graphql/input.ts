// Input checks specific to GraphQL: the shape of a GraphQL-over-HTTP request
// (Mercurius would treat a non-string `query` as an already-parsed document,
// and answered {"query": 123} with a 500), the variables of a GET request
// (JSON inside the query string), and string literals written in the
// document itself (a "\u0000" escape becomes U+0000 only once parsed).
import { GraphQLError, Kind, Location, parse, type ASTVisitor, type DocumentNode, type ValidationContext, type ValidationRule } from 'graphql';
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
    if (!isObject(body)) throw invalid('The body must be a JSON object with a query (batched requests are not supported).');
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
