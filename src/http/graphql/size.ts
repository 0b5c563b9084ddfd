// Size limits of a GraphQL document, checked before the expensive or recursive
// steps run (the depth and complexity rules of limits.ts run during
// validation, too late for these):
// - nesting: the deepest nesting of { [ ( in the raw text, by a linear scan
//   before parsing — graphql-js's parser recurses once per level, so a document
//   nested 5,000 levels deep could overflow the stack;
// - tokens: counted with graphql-js's lexer (iterative) before parsing, so the
//   parser never sees an oversized document (Mercurius also passes maxTokens to
//   parse() as a backstop);
// - fields and aliases: Field nodes as written in the parsed document, before
//   validation (some validation rules are quadratic in the number of fields).
// Each is refused with extensions.code query_too_complex and measure
// nesting / tokens / fields / aliases, value and limit, as depth and complexity are.
import { Kind, Lexer, Source, TokenKind, visit, type DocumentNode, type GraphQLError } from 'graphql';
import { tooComplex, type QueryLimits } from './limits.ts';

const OPEN = new Set(['{', '[', '(']);
const CLOSE = new Set(['}', ']', ')']);

/** The deepest bracket nesting of a GraphQL source, skipping strings, block strings and comments. */
export function nestingOf(source: string): number {
  let depth = 0;
  let max = 0;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    if (c === '#') {
      while (i < n && source[i] !== '\n' && source[i] !== '\r') i++;
    } else if (c === '"' && source.startsWith('"""', i)) {
      i += 3;
      while (i < n && !source.startsWith('"""', i)) i += source.startsWith('\\"""', i) ? 4 : 1;
      i += 3;
    } else if (c === '"') {
      i++;
      while (i < n && source[i] !== '"' && source[i] !== '\n' && source[i] !== '\r') i += source[i] === '\\' ? 2 : 1;
      i++;
    } else {
      if (OPEN.has(c)) max = Math.max(max, ++depth);
      else if (CLOSE.has(c) && depth > 0) depth--;
      i++;
    }
  }
  return max;
}

/** Tokens the parser would read (comments are not tokens), counting no further than limit + 1. */
export function tokensOf(source: string, limit: number): number {
  const lexer = new Lexer(new Source(source));
  let count = 0;
  try {
    while (count <= limit && lexer.advance().kind !== TokenKind.EOF) count++;
  } catch {
    // A lexical error: the parser reports it, with its location.
  }
  return count;
}

/** The first size limit the raw document exceeds (nesting, then tokens), or null. */
export function checkSource(source: string, limits: QueryLimits): GraphQLError | null {
  const nesting = nestingOf(source);
  if (nesting > limits.maxNesting) {
    return tooComplex(`the document is nested ${nesting} levels deep; the limit is ${limits.maxNesting}`, { measure: 'nesting', value: nesting, limit: limits.maxNesting });
  }
  const tokens = tokensOf(source, limits.maxTokens);
  if (tokens > limits.maxTokens) {
    return tooComplex(`the document has more than ${limits.maxTokens} tokens`, { measure: 'tokens', value: tokens, limit: limits.maxTokens });
  }
  return null;
}

/** The first of the field and alias limits the parsed document exceeds, or null. */
export function checkDocument(document: DocumentNode, limits: QueryLimits): GraphQLError | null {
  let fields = 0;
  let aliases = 0;
  visit(document, {
    [Kind.FIELD](node) {
      fields++;
      if (node.alias) aliases++;
    },
  });
  if (aliases > limits.maxAliases) {
    return tooComplex(`the document has ${aliases} aliases; the limit is ${limits.maxAliases}`, { measure: 'aliases', value: aliases, limit: limits.maxAliases });
  }
  if (fields > limits.maxFields) {
    return tooComplex(`the document selects ${fields} fields; the limit is ${limits.maxFields}`, { measure: 'fields', value: fields, limit: limits.maxFields });
  }
  return null;
}
