// Pages answer people and programs at the same URL: a browser (whose Accept
// puts text/html first) gets HTML, also for errors; a client that asks for
// JSON, or sends no Accept or only */*, gets the API's problem+json on error.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { logProblem, PROBLEM_CONTENT_TYPE } from '../plugins/errors.ts';
import { html } from './html.ts';
import { problemPage, sendPage } from './layout.ts';

/** The q of the best-matching range in Accept for each of the two kinds (0: not acceptable). */
export function prefersHtml(accept: string | string[] | undefined): boolean {
  if (accept === undefined) return false;
  let htmlRank = 0;
  let jsonRank = 0;
  for (const [i, part] of (Array.isArray(accept) ? accept.join(',') : accept).split(',').entries()) {
    const [type = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!(q > 0)) continue;
    const rank = q * 1000 - i; // on equal q the type listed first wins
    if (type === 'text/html' || type === 'application/xhtml+xml') htmlRank = Math.max(htmlRank, rank);
    else if (type === 'application/json' || type === 'application/problem+json') jsonRank = Math.max(jsonRank, rank);
  }
  return htmlRank > jsonRank;
}

/** A page route's errorHandler: an HTML error page for browsers, problem+json for everyone else. */
export function pageErrorHandler(err: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const problem = logProblem(err, request, reply);
  reply.header('vary', 'Accept');
  if (!prefersHtml(request.headers.accept)) return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
  const page = problemPage(problem.status, problem.title, problem.detail, html`<p class="muted">Error code <code>${problem.code}</code>.</p>`);
  return sendPage(reply, page, problem.status);
}
