// Conditional GET (RFC 9110 §13.1.2): answers 304 Not Modified when the
// client's If-None-Match names the representation's entity tag. Used by the
// game-data routes, whose tags are content hashes.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A strong entity tag from an opaque value (a hash: no quotes or backslashes). */
export const strongEtag = (value: string): string => `"${value}"`;

/**
 * Whether If-None-Match matches `etag`: "*", or any listed tag by the weak
 * comparison the RFC prescribes for If-None-Match (W/ prefixes ignored).
 */
export function noneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return text.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque);
}

export interface Cached {
  etag: string;
  cacheControl: string;
  contentType: string;
  body: string;
}

/** Sends `c` with its validators, or 304 with them (and no body) when the client already holds it. */
export function sendCached(request: FastifyRequest, reply: FastifyReply, c: Cached): FastifyReply {
  reply.header('etag', c.etag).header('cache-control', c.cacheControl);
  if (noneMatch(request.headers['if-none-match'], c.etag)) return reply.code(304).send();
  return reply.type(c.contentType).send(c.body);
}
