// Every game's message catalogues (src/games/<game>/messages/<lang>/*.json)
// against its English ones: each language has the same files with exactly the
// same keys, every string compiles as ICU MessageFormat, names the same
// parameters as the English one (plural and select variables included; a
// language may make a plain `{n}` a plural, not drop or rename it), offers the
// same select cases, and is empty only where English is. A game folder added
// later is checked without being named here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LANGUAGE, LANGUAGES, loadCatalogues } from '../../src/i18n/index.ts';
import { projectRoot } from '../../src/paths.ts';

const GAMES_DIR = path.join(projectRoot, 'src/games');
const games = readdirSync(GAMES_DIR).filter((g) => existsSync(path.join(GAMES_DIR, g, 'messages', DEFAULT_LANGUAGE)));

interface Shape {
  params: Set<string>;
  /** Select variable → its cases (plural cases differ by language and are not compared). */
  selects: Map<string, Set<string>>;
}

// intl-messageformat's AST element types (TYPE in @formatjs/icu-messageformat-parser).
const ARGUMENT = 1, NUMBER = 2, DATE = 3, TIME = 4, SELECT = 5, PLURAL = 6, TAG = 8;
interface El { type: number; value?: string; options?: Record<string, { value: El[] }>; children?: El[] }

function shapeOf(text: string, lang: string): Shape {
  const out: Shape = { params: new Set(), selects: new Map() };
  const walk = (els: El[]): void => {
    for (const el of els) {
      if ([ARGUMENT, NUMBER, DATE, TIME, SELECT, PLURAL].includes(el.type)) out.params.add(el.value!);
      if (el.type === SELECT) {
        const cases = out.selects.get(el.value!) ?? new Set<string>();
        for (const k of Object.keys(el.options!)) cases.add(k);
        out.selects.set(el.value!, cases);
      }
      if (el.options) for (const o of Object.values(el.options)) walk(o.value);
      if (el.type === TAG) walk(el.children ?? []);
    }
  };
  walk(new IntlMessageFormat(text, lang, undefined, { ignoreTag: true }).getAst() as unknown as El[]);
  return out;
}

const sorted = (s: Iterable<string>) => [...s].sort();

t.ok(games.includes('richard-iii') && games.includes('black-and-white'), `games with messages: ${games.join(', ')}`);

for (const game of games) {
  t.test(game, async (t) => {
    const dir = path.join(GAMES_DIR, game, 'messages');
    const filesOf = (lang: string) => (existsSync(path.join(dir, lang)) ? readdirSync(path.join(dir, lang)).filter((f) => f.endsWith('.json')).sort() : []);
    const keysOf = (lang: string, f: string) => Object.keys(JSON.parse(readFileSync(path.join(dir, lang, f), 'utf8')) as object).sort();
    const cats = loadCatalogues(dir);
    const en = cats[DEFAULT_LANGUAGE];
    t.ok(Object.keys(en).length > 50, `${Object.keys(en).length} English keys`);
    for (const lang of LANGUAGES) {
      if (lang === DEFAULT_LANGUAGE) continue;
      t.same(filesOf(lang), filesOf(DEFAULT_LANGUAGE), `${lang}: the English files`);
      for (const f of filesOf(DEFAULT_LANGUAGE)) {
        if (filesOf(lang).includes(f)) t.same(keysOf(lang, f), keysOf(DEFAULT_LANGUAGE, f), `${lang}/${f}: exactly the English keys`);
      }
      const problems: string[] = [];
      for (const [key, english] of Object.entries(en)) {
        const text = cats[lang][key];
        if (text === undefined) continue;
        let mine: Shape;
        try {
          mine = shapeOf(text, lang);
        } catch (e) {
          problems.push(`${key}: does not compile (${(e as Error).message})`);
          continue;
        }
        const theirs = shapeOf(english, DEFAULT_LANGUAGE);
        if (sorted(mine.params).join() !== sorted(theirs.params).join()) problems.push(`${key}: parameters {${sorted(mine.params).join(', ')}}, English {${sorted(theirs.params).join(', ')}}`);
        for (const [v, cases] of theirs.selects) {
          if (sorted(mine.selects.get(v) ?? []).join() !== sorted(cases).join()) problems.push(`${key}: select ${v} cases ${sorted(mine.selects.get(v) ?? []).join('|')}, English ${sorted(cases).join('|')}`);
        }
        if ((text.trim() === '') !== (english.trim() === '')) problems.push(`${key}: empty in one language only`);
      }
      t.same(problems, [], `${lang}: every message compiles, with the English parameters and select cases`);
    }
  });
}

t.test('a parameter renamed, dropped or a select case missing is caught', async (t) => {
  const en = shapeOf('{army} wins ({reason}) {x, select, a {A} other {}}', 'en');
  t.same(sorted(shapeOf('{armia} wygrywa ({reason}) {x, select, a {A} other {}}', 'pl').params), ['armia', 'reason', 'x'], 'a renamed parameter shows');
  t.not(sorted(shapeOf('wygrywa ({reason}) {x, select, a {A} other {}}', 'pl').params).join(), sorted(en.params).join(), 'a dropped one too');
  t.same(sorted(shapeOf('{army} {reason} {x, select, other {}}', 'pl').selects.get('x')!), ['other'], 'select cases are read');
  t.same(sorted(shapeOf('{n, plural, one {# punkt} few {# punkty} many {# punktów} other {# punktu}}', 'pl').params), ['n'], 'a plural counts as its parameter');
});
