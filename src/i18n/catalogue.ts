/**
 * Message catalogues: one folder per language, each holding `<area>.json`
 * files (actions, log, names, picture, …) of flat keys → ICU MessageFormat
 * strings. Every file of a language folder is loaded, whoever wrote it; a key
 * defined in two files of one language is an error (one would silently win).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES, type Language } from './languages.ts';

export type Catalogue = Readonly<Record<string, string>>;
export type Catalogues = Readonly<Record<Language, Catalogue>>;

export function loadCatalogues(dir: string): Catalogues {
  const out = {} as Record<Language, Record<string, string>>;
  for (const lang of LANGUAGES) {
    const cat: Record<string, string> = {};
    const folder = path.join(dir, lang);
    const files = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')).sort() : [];
    for (const f of files) {
      const data = JSON.parse(readFileSync(path.join(folder, f), 'utf8')) as unknown;
      if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error(`${lang}/${f}: not a JSON object`);
      for (const [k, v] of Object.entries(data)) {
        if (typeof v !== 'string') throw new Error(`${lang}/${f}: "${k}" is not a string`);
        if (k in cat) throw new Error(`${lang}/${f}: "${k}" is defined twice`);
        cat[k] = v;
      }
    }
    out[lang] = cat;
  }
  return out;
}
