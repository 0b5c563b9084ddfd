// The game types a server installs at start-up (service/installed-games.ts):
// the games that need nothing always; each game that needs a data file when
// its setting names a file that reads, parses, validates and loads; one log
// line per game type that is not playable, saying why. Any entry of the
// registry is handled alike (a third data game needs no service change).
import t from 'tap';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { games, gamesNeedingData, type GameTypeNeedingData } from '../../src/games/index.ts';
import { projectRoot } from '../../src/paths.ts';
import { installGames } from '../../src/service/installed-games.ts';
import { tempDir } from '../helpers/services.ts';

const INVENTED = path.join(projectRoot, 'src/games/black-and-white/data/invented-data.json');
const bw = gamesNeedingData.find((g) => g.id === 'black-and-white')!;

function logged() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, log: { warn: (obj: object, msg: string) => void lines.push({ obj: obj as Record<string, unknown>, msg }) } };
}

t.test('the registry: Black & White needs HERALD_BLACK_AND_WHITE_DATA', async (t) => {
  t.match(bw, { title: 'Black & White', setting: 'HERALD_BLACK_AND_WHITE_DATA' });
  t.notOk(Object.hasOwn(games, 'black-and-white'), 'not among the games that need nothing');
});

t.test('unset: Richard III only, and one line saying why Black & White is not', async (t) => {
  const { lines, log } = logged();
  const r = installGames(games, gamesNeedingData, {}, log);
  t.same(Object.keys(r.modules), ['richard-iii']);
  t.same(r.dataGames, [
    {
      id: 'black-and-white',
      title: 'Black & White',
      setting: 'HERALD_BLACK_AND_WHITE_DATA',
      invented: false,
      missing: [{ message: 'HERALD_BLACK_AND_WHITE_DATA is not set: it names the data file an owner of the game types in (see src/games/black-and-white/README.md)', file: null, path: null }],
    },
  ]);
  t.equal(lines.length, 1);
  t.equal(lines[0]!.msg, 'game type black-and-white (Black & White) is not playable: HERALD_BLACK_AND_WHITE_DATA is not set: it names the data file an owner of the game types in (see src/games/black-and-white/README.md)');
  t.match(lines[0]!.obj, { gameType: 'black-and-white', setting: 'HERALD_BLACK_AND_WHITE_DATA', problems: 1 });
});

t.test('a file that cannot be read, a directory, bad JSON, many problems: one line each', async (t) => {
  const dir = await tempDir(t, 'herald-installed-');
  const cases: [string, () => void, RegExp][] = [
    [path.join(dir, 'none.json'), () => {}, /names .*none\.json, which does not exist$/],
    [path.join(dir, 'folder'), () => mkdirSync(path.join(dir, 'folder')), /names .*folder, which is a directory, not a file$/],
    [path.join(dir, 'bad.json'), () => writeFileSync(path.join(dir, 'bad.json'), '[1,'), /bad\.json is not JSON: /],
  ];
  for (const [file, make, why] of cases) {
    make();
    const { lines, log } = logged();
    const r = installGames(games, gamesNeedingData, { HERALD_BLACK_AND_WHITE_DATA: file }, log);
    t.same(Object.keys(r.modules), ['richard-iii'], file);
    t.equal(lines.length, 1, file);
    t.match(lines[0]!.msg, why);
    t.match(r.dataGames[0]!.missing, [{ message: why, file }]);
  }
  // Five problems: the line quotes three and says how many more.
  const d = JSON.parse(readFileSync(INVENTED, 'utf8'));
  for (const k of d.kinds.slice(0, 5)) k.strength = 9;
  const file = path.join(dir, 'five.json');
  writeFileSync(file, JSON.stringify(d));
  const { lines, log } = logged();
  const r = installGames(games, gamesNeedingData, { HERALD_BLACK_AND_WHITE_DATA: file }, log);
  t.equal(r.dataGames[0]!.missing.length, 5);
  t.equal(lines.length, 1);
  t.match(lines[0]!.msg, /^game type black-and-white \(Black & White\) is not playable: \/kinds\/0\/strength: must be .*; \/kinds\/1\/strength: .*; \/kinds\/2\/strength: [^;]*; and 2 more \(GET \/game-types lists them all\)$/);
});

t.test('the invented file: playable, invented, nothing logged', async (t) => {
  const { lines, log } = logged();
  const r = installGames(games, gamesNeedingData, { HERALD_BLACK_AND_WHITE_DATA: INVENTED }, log);
  t.same(Object.keys(r.modules), ['richard-iii', 'black-and-white']);
  t.same(r.modules['black-and-white']!.roles, ['Thargaton', 'Vesania']);
  t.match(r.dataGames, [{ id: 'black-and-white', missing: [], invented: true }]);
  t.same(lines, []);
});

t.test('any registry entry is handled alike; rules that fail to load leave the game unplayable', async (t) => {
  const other: GameTypeNeedingData = {
    ...bw,
    id: 'other-game',
    title: 'Other Game',
    setting: 'HERALD_OTHER_GAME_DATA',
    create: () => {
      throw new Error('no rules here');
    },
  };
  const { lines, log } = logged();
  const r = installGames(games, [bw, other], { HERALD_BLACK_AND_WHITE_DATA: INVENTED, HERALD_OTHER_GAME_DATA: INVENTED }, log);
  t.same(Object.keys(r.modules), ['richard-iii', 'black-and-white']);
  t.match(r.dataGames[1], { id: 'other-game', invented: false, missing: [{ message: /^the rules of Other Game could not be loaded with .*invented-data\.json: no rules here$/, file: INVENTED }] });
  t.equal(lines.length, 1);
  t.match(lines[0]!.msg, /^game type other-game \(Other Game\) is not playable: the rules of Other Game could not be loaded/);
});
