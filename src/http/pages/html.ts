// HTML built from tagged templates that escape every interpolated value, so a
// name a user typed ("<script>…") is text on the page, never markup. Only
// values already of type Html (made by `html` or, knowingly, by `raw`) pass
// through unescaped. Pages: src/http/pages/*.
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or as a quoted attribute value (both quote kinds escaped). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Something to interpolate: text (escaped), numbers, Html (as is), lists of those (joined), or nothing. */
export type Part = string | number | Html | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/** html`<td>${name}</td>`: the interpolated values escaped, the template's own text kept. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < parts.length; i++) out += render(parts[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup the caller vouches for (a constant, or text escaped already). Never for what a user typed. */
export function raw(text: string): Html {
  return new Html(text);
}

/**
 * A path for href/src built from segments, each percent-encoded: an id
 * cannot leave its segment (`../`, `?`, `#`) nor become a `javascript:` URL.
 */
export function path(...segments: Array<string | number>): string {
  return segments.map((s) => `/${encodeURIComponent(String(s))}`).join('');
}
