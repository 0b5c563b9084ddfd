/**
 * Formats engine Messages (src/engine/types.ts) in a language: the key's ICU
 * MessageFormat string from the catalogue (intl-messageformat: plurals and
 * selects by the language's CLDR rules), its parameters resolved first —
 * references to the catalogue's names (`{ref:'area', id:'kent'}` →
 * `area.kent`), lists joined as the language joins lists (Intl.ListFormat),
 * nested messages formatted in turn. A key missing in the language falls
 * back to English, then to the key itself, and is reported to `missing`.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import type { Message, MessageParam } from '../engine/types.ts';
import type { Catalogues } from './catalogue.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages.ts';

export class Formatter {
  private readonly compiled = new Map<string, IntlMessageFormat>();
  private readonly lists = new Map<Language, Intl.ListFormat>();

  readonly catalogues: Catalogues;
  constructor(catalogues: Catalogues) {
    this.catalogues = catalogues;
    // Compile everything once: a malformed string fails here, at start-up, not in a request.
    for (const lang of LANGUAGES) for (const key of Object.keys(catalogues[lang])) this.compile(lang, key);
  }

  has(lang: Language, key: string): boolean {
    return Object.hasOwn(this.catalogues[lang], key);
  }

  private compile(lang: Language, key: string): IntlMessageFormat | null {
    const id = `${lang}\u0000${key}`;
    let f = this.compiled.get(id);
    if (!f) {
      const text = this.catalogues[lang][key];
      if (text === undefined) return null;
      f = new IntlMessageFormat(text, lang, undefined, { ignoreTag: true });
      this.compiled.set(id, f);
    }
    return f;
  }

  private text(lang: Language, key: string, values: Record<string, string | number>, missing?: string[]): string {
    let f = this.compile(lang, key);
    if (!f) {
      missing?.push(`${lang}:${key}`);
      f = lang === DEFAULT_LANGUAGE ? null : this.compile(DEFAULT_LANGUAGE, key);
      if (!f) return key;
    }
    return String(f.format(values));
  }

  private param(lang: Language, p: MessageParam, missing?: string[]): string | number {
    if (typeof p === 'string' || typeof p === 'number') return p;
    if ('ref' in p) return this.text(lang, `${p.ref}.${p.id}`, {}, missing);
    if ('list' in p) {
      let lf = this.lists.get(lang);
      if (!lf) this.lists.set(lang, (lf = new Intl.ListFormat(lang, { type: 'conjunction', style: 'long' })));
      return lf.format(p.list.map((x) => String(this.param(lang, x, missing))));
    }
    return this.format(lang, p.msg, missing);
  }

  /** The message in `lang`; keys it lacks are pushed to `missing` (as "lang:key"). */
  format(lang: Language, m: Message, missing?: string[]): string {
    const values: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(m.params ?? {})) values[k] = this.param(lang, v, missing);
    return this.text(lang, m.key, values, missing);
  }
}

/** Every `{ref, id}` a message names, depth first (for tests and leak checks). */
export function refsOf(m: Message, out: { ref: string; id: string }[] = []): { ref: string; id: string }[] {
  const walk = (p: MessageParam): void => {
    if (typeof p !== 'object') return;
    if ('ref' in p) out.push(p);
    else if ('list' in p) p.list.forEach(walk);
    else refsOf(p.msg, out);
  };
  Object.values(m.params ?? {}).forEach(walk);
  return out;
}
