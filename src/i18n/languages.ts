/**
 * The languages Herald words its messages in (those of Richard III's
 * rulebook editions) and the choice of one for a request: a `lang` parameter
 * first, then the Accept-Language header (RFC 9110 §12.5.4: q-values, ranges,
 * `*`), English when neither names a language Herald has.
 */
export const LANGUAGES = ['en', 'pl', 'cs', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

const isLanguage = (s: string): s is Language => (LANGUAGES as readonly string[]).includes(s);

/** The language of a tag such as `pl-PL` or `RU`, or null when Herald has none for it. */
export function languageOf(tag: string): Language | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isLanguage(primary) ? primary : null;
}

/** The best of LANGUAGES for an Accept-Language header value; null when it names none of them. */
export function fromAcceptLanguage(header: string): Language | null {
  let best: { lang: Language; q: number; i: number } | null = null;
  const ranges = header.split(',');
  for (let i = 0; i < ranges.length && i < 50; i++) {
    const [range = '', ...params] = ranges[i]!.split(';');
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!(q > 0)) continue;
    const tag = range.trim();
    const lang = tag === '*' ? DEFAULT_LANGUAGE : languageOf(tag);
    // Highest q wins; on a tie, the range listed first.
    if (lang && (best === null || q > best.q)) best = { lang, q, i };
  }
  return best?.lang ?? null;
}

/** The language for a request: `lang` if Herald has it, else the header's best, else English. */
export function negotiateLanguage(o: { lang?: string | null; acceptLanguage?: string | null }): Language {
  const fromParam = o.lang ? languageOf(o.lang) : null;
  if (fromParam) return fromParam;
  const fromHeader = o.acceptLanguage ? fromAcceptLanguage(o.acceptLanguage) : null;
  return fromHeader ?? DEFAULT_LANGUAGE;
}
