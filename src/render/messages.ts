// The picture's words: ICU MessageFormat strings from
// src/games/<game>/messages/<lang>/picture.json, formatted with
// intl-messageformat. A stop-gap until src/i18n (issue 16, "labels") is
// merged: it does the same for every message file, and this module is then
// replaced by it. Kept small on purpose.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { projectRoot } from '../paths.ts';

export const LANGUAGES = ['en', 'pl', 'cs', 'ru'] as const;
export type Lang = (typeof LANGUAGES)[number];

/** Formats message `key` with `params`; the key itself when no language has it. */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

export function isLang(v: unknown): v is Lang {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}

/**
 * The language for a request: `lang` when it is one we have, else the first
 * Accept-Language entry we have (by quality, then order), else English.
 */
export function pickLanguage(lang?: string | null, acceptLanguage?: string | null): Lang {
  if (lang) {
    const base = lang.trim().toLowerCase().split(/[-_]/)[0];
    return isLang(base) ? base : 'en';
  }
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, i) => {
      const [tag, ...ps] = part.trim().split(';');
      const q = ps.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { base: (tag ?? '').trim().toLowerCase().split('-')[0], q: Number.isFinite(quality) ? quality : 0, i };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranked) if (isLang(r.base)) return r.base;
  return 'en';
}

const compiled = new Map<string, Map<string, IntlMessageFormat>>();

function load(game: string, area: string, lang: Lang): Map<string, IntlMessageFormat> {
  const key = `${game}/${area}/${lang}`;
  let m = compiled.get(key);
  if (!m) {
    const file = path.join(projectRoot, 'src/games', game, 'messages', lang, `${area}.json`);
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    m = new Map(Object.entries(raw).map(([k, text]) => [k, new IntlMessageFormat(text, lang)]));
    compiled.set(key, m);
  }
  return m;
}

/** A translator for one game's message area (e.g. 'picture') in `lang`, falling back to English per key. */
export function translator(game: string, area: string, lang: Lang): Translate {
  const own = load(game, area, lang);
  const en = load(game, area, 'en');
  return (key, params) => {
    const f = own.get(key) ?? en.get(key);
    return f ? String(f.format(params)) : key;
  };
}
