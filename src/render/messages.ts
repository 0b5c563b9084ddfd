// The picture's words: ICU MessageFormat strings from the game's catalogues
// (src/games/<game>/messages/<lang>/*.json; the picture's own keys are in
// picture.json), formatted by src/i18n like every label and log line, so
// there is one loader, one formatter and one fallback rule (the language,
// then English, then the key).
import path from 'node:path';
import { Formatter, loadCatalogues, type Language } from '../i18n/index.ts';
import { projectRoot } from '../paths.ts';

export { LANGUAGES, type Language as Lang } from '../i18n/index.ts';

/** Formats message `key` with `params`; the key itself when no language has it. */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

const formatters = new Map<string, Formatter>();

function formatterFor(game: string): Formatter {
  let f = formatters.get(game);
  if (!f) {
    f = new Formatter(loadCatalogues(path.join(projectRoot, 'src/games', game, 'messages')));
    formatters.set(game, f);
  }
  return f;
}

const translators = new Map<string, Translate>();

/** A translator for one game's messages in `lang`, falling back to English per key; one per (game, language), so what is built per translator (the picture's base layer) is built once. */
export function translator(game: string, lang: Language): Translate {
  const id = `${game}\u0000${lang}`;
  let t = translators.get(id);
  if (!t) {
    const f = formatterFor(game);
    t = (key, params) => f.format(lang, params ? { key, params } : { key });
    translators.set(id, t);
  }
  return t;
}
