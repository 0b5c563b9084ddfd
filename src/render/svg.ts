// Small helpers for writing SVG as text: escaping, number formatting, and
// text that never runs past its box (an estimated width; when the estimate
// is over the room given, textLength squeezes the glyphs into it, so a long
// translation stays inside the picture whatever the font does).

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A number for an attribute: at most two decimals, no trailing zeros. */
export function n(x: number): string {
  return String(Math.round(x * 100) / 100);
}

/**
 * An estimate of the advance width of `text` in Noto Sans at `size` px, a
 * little on the wide side (per-character classes measured on the bundled
 * font: narrow punctuation, digits, capitals, the rest).
 */
export function textWidth(text: string, size: number, bold = false): number {
  let em = 0;
  for (const ch of text) {
    if (' .,:;\'!|ilIjtf()[]'.includes(ch)) em += 0.3;
    else if (/[0-9]/.test(ch)) em += 0.58;
    else if (/[MWmwЖШЩЮМДФЫжшщюмдфы]/.test(ch)) em += 0.88;
    else if (/[A-ZÀ-ÞА-ЯЁ]/.test(ch)) em += 0.68;
    else em += 0.56;
  }
  return em * size * (bold ? 1.08 : 1);
}

export interface TextOptions {
  size: number;
  /** The widest the text may be; squeezed with textLength beyond it. */
  maxWidth: number;
  anchor?: 'start' | 'middle' | 'end';
  bold?: boolean;
  fill?: string;
  cls?: string;
}

/** A <text> element that stays within maxWidth (data-w carries the width it may take, for the layout test). */
export function text(x: number, y: number, content: string, o: TextOptions): string {
  const w = textWidth(content, o.size, o.bold);
  const attrs = [
    `x="${n(x)}"`,
    `y="${n(y)}"`,
    `font-size="${n(o.size)}"`,
    o.anchor && o.anchor !== 'start' ? `text-anchor="${o.anchor}"` : '',
    o.bold ? 'font-weight="700"' : '',
    o.fill ? `fill="${o.fill}"` : '',
    o.cls ? `class="${o.cls}"` : '',
    w > o.maxWidth ? `textLength="${n(o.maxWidth)}" lengthAdjust="spacingAndGlyphs"` : '',
    `data-w="${n(Math.min(w, o.maxWidth))}"`,
  ].filter(Boolean);
  return `<text ${attrs.join(' ')}>${esc(content)}</text>`;
}

/**
 * A board picture in two layers. `base` holds what is the same in every
 * picture of a game type in one language (for Richard III: background, seas,
 * borders, area boxes with names and icons, the legend's frame and key);
 * `overlay` holds the rest (title, battle outlines, blocks, arrows, the
 * legend's game column). Drawn one over the other they are the picture: the
 * PNG path rasterises a base once and only the overlay per picture
 * (src/render/png.ts). So a base must hold nothing from a view but its
 * language: it is shared across games and seats.
 */
export interface BoardLayers {
  width: number;
  height: number;
  /** SVG markup (elements, no <svg> root) of each layer. */
  base: string;
  overlay: string;
}

/** One SVG document of the given layers' markup, drawn in order. */
export function svgDocument(width: number, height: number, bodies: readonly string[]): string {
  return [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="'Noto Sans', sans-serif">`, ...bodies, '</svg>'].join('\n');
}
