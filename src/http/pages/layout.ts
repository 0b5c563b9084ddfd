// The frame of every server-rendered page (the league page now; the
// spectator and player pages next): one document with the shared style sheet
// inline, no fonts, scripts or pictures from anywhere else, readable on a
// phone (nothing wider than the screen: wide tables scroll inside their box).
// Sent with a Content-Security-Policy that allows exactly that, so even a
// mistake in escaping could not run a script.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { html, raw, type Html, type Part } from './html.ts';

export const SHARED_CSS = `
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fff; --muted: #5f6368; --line: #d6d6d6; --soft: #f3f3f3;
  --accent: #8a1c1c; --win: #1d6b2f; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e8e8; --bg: #161616; --muted: #a0a0a0; --line: #3a3a3a; --soft: #232323; --accent: #f08a80; --win: #7fd08f; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main, header.site, footer.site { max-width: 60rem; margin: 0 auto; padding: 0 1rem; }
header.site { padding-top: .75rem; font-size: .9rem; color: var(--muted); }
header.site a { color: inherit; }
footer.site { margin: 2rem auto 1.5rem; font-size: .85rem; color: var(--muted); }
h1 { font-size: 1.6rem; line-height: 1.2; margin: .5rem 0 .25rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 1.75rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .4rem; }
p, li { overflow-wrap: anywhere; }
a { color: var(--accent); }
.muted { color: var(--muted); }
.facts { display: flex; flex-wrap: wrap; gap: .25rem .9rem; margin: .25rem 0 0; padding: 0; list-style: none; font-size: .95rem; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: .3rem .45rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { font-size: .8rem; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.name { overflow-wrap: anywhere; min-width: 6rem; }
tbody tr:nth-child(even) { background: var(--soft); }
.tag { display: inline-block; font-size: .75rem; padding: 0 .35rem; border: 1px solid var(--line); border-radius: .25rem; color: var(--muted); white-space: nowrap; }
.win { font-weight: 700; color: var(--win); }
dl.legend { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .6rem; font-size: .85rem; color: var(--muted); }
dl.legend dt { font-weight: 600; }
dl.legend dd { margin: 0; }
@media (max-width: 30rem) {
  body { font-size: 15px; }
  th, td { padding: .25rem .3rem; }
  table { font-size: .9rem; }
  td.name { min-width: 4.5rem; }
  .wide-only { display: none; }
}
`;

export interface PageOptions {
  title: string;
  body: Html;
  /** Style sheets of this page, after the shared one. */
  css?: string;
  lang?: string;
  /**
   * The page's one inline script (a constant: it reads its inputs from data-
   * attributes, so its hash never changes). With it the policy allows exactly
   * that script, and fetch/EventSource to this server (connect-src 'self').
   */
  script?: string;
}

export interface Page {
  html: string;
  /** The Content-Security-Policy: the page's inline style by hash, nothing else from anywhere. */
  csp: string;
}

const cspHashes = new Map<string, string>();

/** The CSP source of an inline style or script by its hash. */
function styleHash(css: string): string {
  let h = cspHashes.get(css);
  if (h === undefined) {
    h = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    if (cspHashes.size < 64) cspHashes.set(css, h); // the sheets and scripts are constants: a handful at most
  }
  return h;
}

export function layout(o: PageOptions): Page {
  const css = SHARED_CSS + (o.css ?? '');
  const doc = html`<!DOCTYPE html>
<html lang="${o.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title}</title>
<link rel="icon" href="data:,">
<style>${raw(css)}</style>
</head>
<body>
<header class="site"><a href="/">Herald</a></header>
<main>
${o.body}
</main>
${o.script === undefined ? '' : html`<script>${raw(o.script)}</script>`}
</body>
</html>
`;
  return {
    html: doc.text,
    csp: o.script === undefined
      ? `default-src 'none'; style-src ${styleHash(css)}; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`
      // blob: for pictures the script fetched with the player's key (an <img> cannot send a header).
      : `default-src 'none'; style-src ${styleHash(css)}; script-src ${styleHash(o.script)}; connect-src 'self'; img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}

/** Sends a page with its security headers. */
export function sendPage(reply: FastifyReply, page: Page, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', page.csp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .send(page.html);
}

/** A short page for a problem (404, 429…) met on the way to a page. */
export function problemPage(status: number, title: string, detail: string, more: Part = null): Page {
  return layout({
    title: `${status} ${title} – Herald`,
    body: html`<h1>${title}</h1>
<p>${detail}</p>
${more}`,
  });
}
