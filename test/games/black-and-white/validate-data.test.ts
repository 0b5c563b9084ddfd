// The check of a Black & White data file: the invented file passes; each
// wrong file is refused with a problem at the right JSON pointer and a message
// saying what is wrong. data.schema.json (the documented format) agrees: it
// refuses every file of the wrong shape and accepts the files only the second
// pass (the rules' checks) refuses, and its lists are the code's.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { BOARD_LAYOUTS, COMMANDERS, FEATURES, KINDS, TERRAINS, type BlackAndWhiteData } from '../../../src/games/black-and-white/data-format.ts';
import { FAMILIES, validateBlackAndWhiteData, type DataProblem } from '../../../src/games/black-and-white/validate-data.ts';

const DIR = new URL('../../../src/games/black-and-white/', import.meta.url);
const invented = JSON.parse(readFileSync(new URL('data/invented-data.json', DIR), 'utf8')) as BlackAndWhiteData;
const schema = JSON.parse(readFileSync(new URL('data.schema.json', DIR), 'utf8')) as Record<string, any>;
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const schemaValid = ajv.compile(schema);

type Edit = (d: any) => void;
const edited = (edit: Edit): unknown => {
  const d = structuredClone(invented) as any;
  edit(d);
  return d;
};
const scenario = (d: any, id: string) => d.scenarios.find((s: any) => s.id === id);
const index = (id: string) => invented.scenarios.findIndex((s) => s.id === id);
const kindIndex = (id: string) => invented.kinds.findIndex((k) => k.id === id);

t.test('the invented file is valid, says it is invented, and covers every family, terrain and a printed feature', async (t) => {
  const r = validateBlackAndWhiteData(invented, 'invented-data.json');
  t.same(r.ok ? [] : r.problems, []);
  t.ok(schemaValid(invented), JSON.stringify(schemaValid.errors));
  t.equal(invented.invented, true);
  t.match(invented.title, /invented/i);
  for (const s of invented.scenarios) t.match(s.title, /\(invented\)/, s.id);
  t.same(new Set(invented.scenarios.map((s) => s.family)), new Set(FAMILIES));
  t.same(new Set(invented.scenarios.flatMap((s) => Object.values(s.terrain))), new Set(TERRAINS));
  t.ok(invented.scenarios.some((s) => Object.keys(s.features ?? {}).length > 0), 'a printed feature');
  t.ok(invented.board.columns * invented.board.rows <= 100, 'a small board');
});

t.test('the schema lists what the code lists', async (t) => {
  const d = schema.$defs;
  t.same(d.kind.properties.id.enum, [...Object.keys(KINDS.Thargaton), ...Object.keys(KINDS.Vesania)]);
  t.same(d.commander.enum, COMMANDERS);
  t.same(d.terrain.enum, TERRAINS);
  t.same(d.feature.enum, FEATURES);
  t.same(d.board.properties.layout.enum, BOARD_LAYOUTS);
  t.same(d.scenario.properties.family.enum, FAMILIES);
  t.same(schema.properties.format.const, invented.format);
});

/** [what is wrong, the edit, the problems expected (path, message pattern), whether the schema alone refuses it]. */
const CASES: [string, Edit | { file: unknown }, [string, RegExp][], boolean][] = [
  // ── Shape (the schema refuses these too) ──
  ['not an object', { file: [1, 2] }, [['', /must be an object \(a Black & White data file\), not a list/]], true],
  ['wrong format', (d) => (d.format = 'herald.black-and-white.data/2'), [['/format', /must be one of "herald.black-and-white.data\/1", not the text "herald.black-and-white.data\/2"/]], true],
  ['missing board', (d) => delete d.board, [['/board', /is missing: a Black & White data file needs "board"/]], true],
  ['unknown field', (d) => (d.colour = 'red'), [['/colour', /is not a field of a Black & White data file/]], true],
  ['invented as text', (d) => (d.invented = 'yes'), [['/invented', /must be true or false, not the text "yes"/]], true],
  ['empty title', (d) => (d.title = '  '), [['/title', /non-empty text/]], true],
  ['bad layout', (d) => (d.board.layout = 'square'), [['/board/layout', /must be one of "flat-even-down", .* not the text "square"/]], true],
  ['aiming 7', (d) => (d.aiming['4'] = 7), [['/aiming/4', /whole number from 1 to 6, not the number 7/]], true],
  ['aiming 0', (d) => (d.aiming['2'] = 0), [['/aiming/2', /from 1 to 6, not the number 0/]], true],
  ['strength 5', (d) => (d.kinds[0].strength = 5), [['/kinds/0/strength', /from 1 to 4, not the number 5/]], true],
  ['strength 0', (d) => (d.kinds[3].strength = 0), [['/kinds/3/strength', /from 1 to 4, not the number 0/]], true],
  ['strength 2.5', (d) => (d.kinds[3].strength = 2.5), [['/kinds/3/strength', /whole number/]], true],
  ['melee left out', (d) => delete d.kinds[1].melee, [['/kinds/1/melee', /is missing: a unit card needs "melee"/]], true],
  ['unknown kind', (d) => (d.kinds[2].id = 'dragoons'), [['/kinds/2/id', /must be one of .* not the text "dragoons"/]], true],
  ['hex name', (d) => (scenario(d, 's01').firstRows.Vesania[2] = 'B7'), [[`/scenarios/${index('s01')}/firstRows/Vesania/2`, /must be a hex name "column,row"/]], true],
  ['hex key', (d) => (scenario(d, 's01').terrain['0,3'] = 'forest'), [[`/scenarios/${index('s01')}/terrain/0,3`, /is not a hex name/]], true],
  ['terrain name', (d) => (scenario(d, 's01').terrain['3,4'] = 'jungle'), [[`/scenarios/${index('s01')}/terrain/3,4`, /must be one of "open", .* not the text "jungle"/]], true],
  ['empty first row', (d) => (scenario(d, 's06').firstRows.Thargaton = []), [[`/scenarios/${index('s06')}/firstRows/Thargaton`, /at least 1 item/]], true],
  ['turn limit 11', (d) => (scenario(d, 's06').turnLimit = 11), [[`/scenarios/${index('s06')}/turnLimit`, /must be one of 10, 12, not the number 11/]], true],
  ['feature twice in a hex', (d) => (scenario(d, 's01').features['6,3'] = ['trench', 'trench']), [[`/scenarios/${index('s01')}/features/6,3`, /names a feature twice/]], true],
  ['bad scenario id', (d) => (scenario(d, 's01').id = 'S 01'), [[`/scenarios/${index('s01')}/id`, /lower-case letters/]], true],
  ['no scenarios', (d) => (d.scenarios = []), [['/scenarios', /at least 1 item/]], true],
  ['unknown commander', (d) => (d.commanders.Vesania[1] = 'queen-zuzanna'), [['/commanders/Vesania/1', /must be one of "baron-maximilian"/]], true],
  // ── What the rules require (only the second pass refuses these) ──
  ['aiming easier farther away', (d) => (d.aiming = { '2': 4, '3': 3, '4': 5 }), [['/aiming', /must not get easier farther away .* 4, 3, 5/]], false],
  ['a kind missing', (d) => d.kinds.splice(kindIndex('sappers'), 1), [['/kinds', /Thargaton lacks the kind sappers: each army has exactly these 9 cards/]], false],
  [
    'a kind twice',
    (d) => (d.kinds[kindIndex('sappers')] = { ...d.kinds[kindIndex('regular-infantry')] }),
    [
      [`/kinds/${kindIndex('sappers')}/id`, /Thargaton's regular-infantry is listed twice \(also at \/kinds\/0\)/],
      ['/kinds', /lacks the kind sappers/],
      ['/kinds', /Thargaton's kinds have 25 blocks together; the army has only 24/],
    ],
    false,
  ],
  ['a kind of the other army', (d) => (d.kinds[kindIndex('iron-order')].army = 'Thargaton'), [[`/kinds/${kindIndex('iron-order')}/id`, /"iron-order" is not a kind of Thargaton/], ['/kinds', /Vesania lacks the kind iron-order/]], false],
  ['wrong type', (d) => (d.kinds[kindIndex('light-cavalry')].type = 'infantry'), [[`/kinds/${kindIndex('light-cavalry')}/type`, /light-cavalry is cavalry in the rules \(§4\), not infantry/]], false],
  ['too many blocks', (d) => (d.kinds[kindIndex('order-of-aquarius')].blocks = 9), [['/kinds', /Vesania's kinds have 27 blocks together; the army has only 24/]], false],
  ['cavalry without melee', (d) => (d.kinds[kindIndex('iron-order')].melee = null), [[`/kinds/${kindIndex('iron-order')}/melee`, /iron-order is cavalry: it needs a Melee attack/]], false],
  ['artillery without attack', (d) => (d.kinds[kindIndex('order-of-capricorn')].ranged = null), [[`/kinds/${kindIndex('order-of-capricorn')}/ranged`, /artillery: it needs its artillery attack/]], false],
  ['bonus against cavalry on others', (d) => (d.kinds[kindIndex('iron-order')].defenceVsCavalry = 1), [[`/kinds/${kindIndex('iron-order')}/defenceVsCavalry`, /only the Lions of Vesania/]], false],
  ['cost over the budget', (d) => ((d.budget = 14), (d.kinds[kindIndex('heavy-cavalry')].cost = 15)), [[`/kinds/${kindIndex('heavy-cavalry')}/cost`, /heavy-cavalry costs 15, more than the whole budget of 14/]], false],
  [
    'a commander in both armies',
    (d) => (d.commanders.Vesania[2] = 'baron-maximilian'),
    [
      ['/commanders/Vesania/2', /baron-maximilian is already at \/commanders\/Thargaton\/0/],
      ['/commanders', /sister-anastasia is in no army/],
    ],
    false,
  ],
  ['two commanders', (d) => d.commanders.Thargaton.pop(), [['/commanders/Thargaton', /exactly 3 commanders .* not 2/], ['/commanders', /vlad-kristofferson is in no army/]], false],
  ['hex off the board', (d) => (scenario(d, 's01').terrain['10,3'] = 'forest'), [[`/scenarios/${index('s01')}/terrain/10,3`, /10,3 is not on the board \(9 columns × 7 rows/]], false],
  ['hex excluded', (d) => (scenario(d, 's01').firstRows.Vesania[1] = '2,7'), [[`/scenarios/${index('s01')}/firstRows/Vesania/1`, /2,7 is an excluded half hex/]], false],
  ['excluded off the board', (d) => d.board.excluded.push('1,8'), [['/board/excluded/4', /1,8 is not on a 9×7 board/]], false],
  ['first rows overlap', (d) => scenario(d, 's21').firstRows.Vesania.push('5,1'), [[`/scenarios/${index('s21')}/firstRows/Vesania/9`, /5,1 is in both first rows \(Thargaton's and Vesania's\)/]], false],
  ['hex twice in a first row', (d) => scenario(d, 's21').firstRows.Thargaton.push('5,1'), [[`/scenarios/${index('s21')}/firstRows/Thargaton/9`, /5,1 is listed twice in Thargaton's first row/]], false],
  ['deployment on mountains', (d) => (scenario(d, 's11').terrain['2,1'] = 'mountains'), [[`/scenarios/${index('s11')}/firstRows/Thargaton/1`, /2,1 is mountains: no unit can be deployed there/]], false],
  ['duplicate id', (d) => (d.scenarios[1].id = 's01'), [['/scenarios/1/id', /"s01" is also the id of \/scenarios\/0/]], false],
  ['duplicate number', (d) => (d.scenarios.push({ ...structuredClone(d.scenarios[0]), id: 's01b' })), [['/scenarios/5/number', /1 is also the number of \/scenarios\/0/]], false],
  ['number outside the family', (d) => (scenario(d, 's06').number = 3), [[`/scenarios/${index('s06')}/number`, /defence scenarios are numbered 6–10 \(§6\), not 3/]], false],
  ['defence without attacker', (d) => delete scenario(d, 's06').attacker, [[`/scenarios/${index('s06')}/attacker`, /is missing: a defence scenario needs the attacking army/]], false],
  ['defence without turn limit', (d) => delete scenario(d, 's06').turnLimit, [[`/scenarios/${index('s06')}/turnLimit`, /needs the attacker's turn limit, 10 or 12/]], false],
  ['defence with two forts', (d) => (scenario(d, 's06').terrain['7,5'] = 'fort'), [[`/scenarios/${index('s06')}/terrain`, /exactly one fort .* has 2/]], false],
  ['defence without fort', (d) => delete scenario(d, 's06').terrain['5,2'], [[`/scenarios/${index('s06')}/terrain`, /exactly one fort .* has 0/]], false],
  ['defence fort on the attacker\'s row', (d) => (scenario(d, 's06').attacker = 'Thargaton', scenario(d, 's06').firstRows.Thargaton.push('5,2')), [[`/scenarios/${index('s06')}/terrain`, /the fort 5,2 is on the attacker's \(Thargaton's\) first row/]], false],
  ['domination short of forts', (d) => (scenario(d, 's11').fortsToWin = 4), [[`/scenarios/${index('s11')}/fortsToWin`, /4 forts win, and the map has only 3/]], false],
  ['domination default of 2 with 1 fort', (d) => (delete scenario(d, 's11').fortsToWin, delete scenario(d, 's11').terrain['3,4'], delete scenario(d, 's11').terrain['5,4']), [[`/scenarios/${index('s11')}/terrain`, /2 forts win, and the map has only 1/]], false],
  ['arrows missing', (d) => delete scenario(d, 's16').arrows, [[`/scenarios/${index('s16')}/arrows`, /is missing: a behind-enemy-lines scenario needs the arrow hexes/]], false],
  ['breakthrough without attacker', (d) => delete scenario(d, 's16').attacker, [[`/scenarios/${index('s16')}/attacker`, /needs the breaking-through army/]], false],
  ['arrow on the defender\'s row', (d) => (scenario(d, 's16').arrows[1] = '5,5'), [[`/scenarios/${index('s16')}/arrows/1`, /5,5 is on the defender's \(Vesania's\) first row; the defender may not deploy on arrow hexes/]], false],
  ['arrow off the board', (d) => (scenario(d, 's16').arrows[0] = '3,9'), [[`/scenarios/${index('s16')}/arrows/0`, /3,9 is not on the board/]], false],
  ['too many to break through', (d) => (scenario(d, 's16').unitsToBreakThrough = 10), [[`/scenarios/${index('s16')}/unitsToBreakThrough`, /10 units cannot stand on 3 arrow hexes at once/]], false],
  ['skirmish with an attacker', (d) => (scenario(d, 's01').attacker = 'Vesania'), [[`/scenarios/${index('s01')}/attacker`, /is only for defence and behind-enemy-lines scenarios, and this one is skirmish/]], false],
  ['training with a turn limit', (d) => (scenario(d, 's21').turnLimit = 10), [[`/scenarios/${index('s21')}/turnLimit`, /is only for defence scenarios, and this one is training/]], false],
  ['domination with arrows', (d) => (scenario(d, 's11').arrows = ['5,7']), [[`/scenarios/${index('s11')}/arrows`, /is only for behind-enemy-lines scenarios/]], false],
  ['trench on a river', (d) => (scenario(d, 's11').features = { '4,4': ['trench'] }), [[`/scenarios/${index('s11')}/features/4,4/0`, /a trench is built where infantry stands .* no unit can stand on river \(4,4\)/]], false],
  ['more printed features than markers', (d) => (scenario(d, 's21').features = { '1,3': ['smoke'], '2,3': ['smoke'], '3,3': ['smoke'], '4,3': ['smoke'] }), [[`/scenarios/${index('s21')}/features`, /4 smoke markers are printed, but the game has only 3/]], false],
  ['too few special markers', (d) => (d.markers.special = 6), [[`/scenarios/${index('s06')}`, /the armies take 7 special markers in this scenario, and the game has 6/], [`/scenarios/${index('s16')}`, /take 7 special markers/]], false],
  ['scenario markers over the supply', (d) => (scenario(d, 's01').markers = { Thargaton: 5, Vesania: 5 }), [[`/scenarios/${index('s01')}/markers`, /take 10 special markers .* has 9/]], false],
];

t.test('each wrong file is refused with the problems at their paths', async (t) => {
  for (const [what, edit, expected, schemaRefuses] of CASES) {
    const json = typeof edit === 'function' ? edited(edit) : edit.file;
    const r = validateBlackAndWhiteData(json, 'owner.json');
    if (r.ok) {
      t.fail(`${what}: accepted`);
      continue;
    }
    const problems: DataProblem[] = r.problems;
    t.ok(problems.every((p) => p.file === 'owner.json'), `${what}: the file is named`);
    t.equal(problems.length, expected.length, `${what}: ${JSON.stringify(problems)}`);
    for (const [path, message] of expected) {
      t.ok(
        problems.some((p) => p.path === path && message.test(p.message)),
        `${what}: ${path} ${message} in ${JSON.stringify(problems)}`,
      );
    }
    t.equal(!schemaValid(json), schemaRefuses, `${what}: the schema ${schemaRefuses ? 'refuses' : 'accepts'} it`);
  }
});

t.test('several problems are all reported at once; JSON-pointer escapes', async (t) => {
  const r = validateBlackAndWhiteData(
    edited((d) => {
      d.kinds[0].strength = 7;
      d.scenarios[2].terrain['a/b~c'] = 'forest';
      delete d.markers;
    }),
    'f.json',
  );
  t.notOk(r.ok);
  if (r.ok) return;
  t.same(r.problems.map((p) => p.path).sort(), ['/kinds/0/strength', '/markers', '/scenarios/2/terrain/a~1b~0c']);
});
