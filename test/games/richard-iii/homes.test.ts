/**
 * Home shields (2.2–2.6, 3.21–3.25, INTERPRETATIONS §K) and going home (8.3/8.4,
 * [G-6][R-29][R-31]).
 */
import t from 'tap';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { BLOCK_INDEX } from '../../../src/games/richard-iii/data.ts';
import {
  CROWN_AREAS, exileCount, hasShieldIn, homeDestinations, isDead, shieldAreas,
} from '../../../src/games/richard-iii/homes.ts';

const B = (id: string): number => BLOCK_INDEX[id]!;
const sorted = (a: string[]): string[] => [...a].sort();

t.test('2.2/3.22: nobles\' shields come from their printed shields', async (t) => {
  const s = buildPosition({});
  t.same(sorted(shieldAreas(s, B('norfolk'))), ['caernarvon', 'east-anglia', 'glamorgan']);
  t.same(shieldAreas(s, B('stanley-l')), ['isle-of-man', 'lancaster'], '2.82: one of Stanley\'s shields is on the Isle of Man');
  t.same(shieldAreas(s, B('rivers-y')), ['leicester'], 'both versions share the shield');
  t.same(shieldAreas(s, B('warwick-l')), ['glamorgan', 'warwick'], 'a Lancastrian Warwick has no Calais');
});

t.test('2.4/2.5/2.6: church → cathedral, levy → city, Welsh → Wales; Bombard, Rebel, other mercenaries: none', async (t) => {
  const s = buildPosition({});
  t.same(shieldAreas(s, B('york-church-l')), ['south-yorks']);
  t.same(shieldAreas(s, B('canterbury-church-y')), ['kent']);
  t.same(shieldAreas(s, B('bristol-levy')), ['somerset'], 'Bristol is in the Somerset area');
  t.same(sorted(shieldAreas(s, B('welsh-mercenary'))), ['caernarvon', 'glamorgan', 'pembroke', 'powys']);
  t.same(shieldAreas(s, B('bombard-y')), []);
  t.same(shieldAreas(s, B('rebel')), []);
  t.same(shieldAreas(s, B('french-mercenary')), []);
});

t.test('2.2: royal shields — any York heir uses any York shield', async (t) => {
  const s = buildPosition({});
  for (const id of ['duke-of-york', 'gloucester', 'clarence-y']) {
    t.same(sorted(shieldAreas(s, B(id))), ['hereford', 'rutland', 'south-yorks'], id);
  }
});

t.test('2.2: Lancaster heirs — general shields, own shield, a dead heir\'s shield', async (t) => {
  const s = buildPosition({});
  t.same(sorted(shieldAreas(s, B('henry-vi'))), ['lancaster', 'lincoln']);
  t.same(sorted(shieldAreas(s, B('exeter-l'))), ['cornwall', 'lancaster', 'lincoln'], 'W12: Exeter\'s shield is in Cornwall');
  t.same(sorted(shieldAreas(s, B('somerset'))), ['dorset', 'lancaster', 'lincoln'], 'the Somerset shield lies in Dorset');
  t.notOk(hasShieldIn(s, B('henry-vi'), 'dorset'), 'not while Somerset lives');

  s.loc[B('somerset')] = 'dead';
  t.ok(isDead(s, B('somerset')));
  t.ok(hasShieldIn(s, B('henry-vi'), 'dorset'), 'Somerset dead: any Lancaster heir may use his shield');
  t.ok(shieldAreas(s, B('richmond')).includes('dorset'));

  s.loc[B('exeter-l')] = 'off';
  s.loc[B('exeter-y')] = 'cornwall';
  t.notOk(isDead(s, B('exeter-l')), 'a defected Exeter is alive');
  t.notOk(hasShieldIn(s, B('henry-vi'), 'cornwall'), 'so his shield is not free');
  s.loc[B('exeter-y')] = 'dead';
  s.loc[B('exeter-l')] = 'dead';
  t.ok(hasShieldIn(s, B('henry-vi'), 'cornwall'), 'neither Exeter version in play: dead');
});

t.test('6.83/§K: a noble face-down in his pool is not dead', async (t) => {
  const s = buildPosition({ blocks: { 'stanley-l': { loc: 'pool', down: true } } });
  t.notOk(isDead(s, B('stanley-l')));
});

t.test('9.1 [R-31]: defected Clarence and Exeter have fixed homes', async (t) => {
  const s = buildPosition({});
  t.same(shieldAreas(s, B('exeter-y')), ['cornwall']);
  t.same(sorted(shieldAreas(s, B('clarence-l'))), ['hereford', 'rutland', 'south-yorks']);
});

t.test('8.3 note/§K: a dead Neville\'s shields serve the other Nevilles (not Calais)', async (t) => {
  const s = buildPosition({});
  t.same(shieldAreas(s, B('kent-y')), ['east-yorks']);
  s.loc[B('warwick-y')] = 'dead';
  s.loc[B('warwick-l')] = 'dead';
  t.same(sorted(shieldAreas(s, B('kent-y'))), ['east-yorks', 'glamorgan', 'warwick'], 'Warwick dead (both versions)');
  s.loc[B('salisbury-y')] = 'dead';
  s.loc[B('salisbury-l')] = 'dead';
  t.same(sorted(shieldAreas(s, B('kent-y'))), ['east-yorks', 'glamorgan', 'north-yorks', 'warwick']);
  t.ok(hasShieldIn(s, B('kent-l'), 'north-yorks'), 'either version');
});

t.test('8.3: Pretender heirs on the map go to their own exile areas', async (t) => {
  const s = buildPosition({ blocks: { march: { loc: 'kent' } } });
  t.same(homeDestinations(s, B('march')), ['calais', 'ireland']);
});

t.test('8.4: the King and Royal heirs go to an own shield or any crown area not Enemy-occupied', async (t) => {
  const s = buildPosition({ clear: true, blocks: { norfolk: { loc: 'cornwall' }, 'exeter-l': { loc: 'kent' } } });
  const h = homeDestinations(s, B('henry-vi'));
  t.ok(h.includes('lancaster') && h.includes('lincoln'), 'own shields');
  for (const a of CROWN_AREAS) if (a !== 'cornwall') t.ok(h.includes(a), `crown area ${a}`);
  t.notOk(h.includes('cornwall'), 'an Enemy-occupied crown area is closed');
  t.notOk(homeDestinations(s, B('exeter-l')).includes('cornwall'), 'so is his own shield when Enemy-occupied');
});

t.test('8.3 [G-6]: nobles go to an own shield not Enemy-occupied, else ([]) to the pool', async (t) => {
  const s = buildPosition({
    clear: true,
    blocks: { suffolk: { loc: 'kent' }, oxford: { loc: 'east-anglia' }, 'york-church-y': { loc: 'kent' } },
  });
  t.same(homeDestinations(s, B('suffolk')), ['oxford'], 'East Anglia is Enemy-occupied');
  s.loc[B('beaumont')] = 'oxford';
  t.same(homeDestinations(s, B('suffolk')), [], 'no free shield: to the pool');
  t.same(homeDestinations(s, B('york-church-y')), ['south-yorks'], 'church: its cathedral');
  t.same(homeDestinations(s, B('oxford')), ['essex']);
});

t.test('9.1 [R-31]: a Lancastrian Clarence goes to a Vacant York shield; Exeter as York noble to Cornwall', async (t) => {
  const s = buildPosition({
    clear: true,
    blocks: {
      'clarence-y': { loc: 'off' }, 'clarence-l': { loc: 'hereford' },
      'exeter-l': { loc: 'off' }, 'exeter-y': { loc: 'kent' },
      beaumont: { loc: 'rutland' }, devon: { loc: 'cornwall' },
    },
  });
  t.same(sorted(homeDestinations(s, B('clarence-l'))), ['hereford', 'south-yorks'],
    'Vacant only: Rutland holds a friendly block; his own area counts as vacant when he is alone');
  t.same(homeDestinations(s, B('exeter-y')), [], 'Cornwall Enemy-occupied: to the pool');
  s.loc[B('devon')] = 'pool';
  t.same(homeDestinations(s, B('exeter-y')), ['cornwall']);
});

t.test('8.3 [R-29]: a Yorkist Warwick may go to Calais while it has room', async (t) => {
  const s = buildPosition({ blocks: { 'warwick-y': { loc: 'kent' } } });
  // Calais at start: March, Salisbury, Kent + 2 own mercenaries; Warwick moved out → 3 counted.
  t.equal(exileCount(s, 'calais'), 3, 'the Calais and Burgundian mercenaries are not counted [R-28]');
  t.same(sorted(homeDestinations(s, B('warwick-y'))), ['calais', 'glamorgan', 'warwick']);
  s.loc[B('rutland')] = 'calais';
  t.same(sorted(homeDestinations(s, B('warwick-y'))), ['glamorgan', 'warwick'], 'Calais full (7.2)');
});

t.test('8.3 [R-29]: Yorkist Kent/Salisbury may go to Calais only when their shield areas are Enemy-occupied', async (t) => {
  const s = buildPosition({
    clear: true,
    blocks: { 'kent-y': { loc: 'kent' }, 'salisbury-y': { loc: 'kent' }, march: { loc: 'kent' }, clifford: { loc: 'east-yorks' } },
  });
  t.same(homeDestinations(s, B('kent-y')), ['calais'], 'East Yorks Enemy-occupied');
  t.same(homeDestinations(s, B('salisbury-y')), ['north-yorks'], 'North Yorks is free, so no Calais');
  s.loc[B('beaumont')] = 'north-yorks';
  t.same(homeDestinations(s, B('salisbury-y')), ['calais'], 'both his shield areas Enemy-occupied');
});

t.test('8.3 [R-29]: a Lancastrian Warwick may never go to Calais', async (t) => {
  const s = buildPosition({ clear: true, blocks: { 'warwick-l': { loc: 'kent' }, 'warwick-y': { loc: 'off' }, norfolk: { loc: 'glamorgan' }, suffolk: { loc: 'warwick' } } });
  t.same(homeDestinations(s, B('warwick-l')), [], 'both shields Enemy-occupied: pool, never Calais');
});

t.test('8.3 note [R-29]: a Neville may go home to the shield area of another Neville who is dead', async (t) => {
  const s = buildPosition({
    clear: true,
    blocks: {
      'kent-y': { loc: 'kent' }, 'warwick-y': { loc: 'dead' }, 'warwick-l': { loc: 'dead' }, clifford: { loc: 'east-yorks' },
    },
  });
  t.same(sorted(homeDestinations(s, B('kent-y'))), ['calais', 'glamorgan', 'warwick'],
    'Warwick\'s shields (not his Calais shield: Calais comes from the 8.3 note since East Yorks is Enemy-occupied)');
  s.loc[B('clifford')] = 'pool';
  t.same(sorted(homeDestinations(s, B('kent-y'))), ['east-yorks', 'glamorgan', 'warwick'], 'own shield free: no Calais');
});

t.test('8.4 (decision, as G-11): a Royal heir with no free shield or crown area goes to his exile, never the pool (G-7)', async (t) => {
  const s = buildPosition({ clear: true, blocks: { 'exeter-l': { loc: 'kent' } } });
  // Fill every crown area and Exeter's shields with York blocks.
  const york = ['norfolk', 'suffolk', 'arundel', 'essex', 'hastings', 'herbert', 'worcester', 'canterbury-church-y',
    'london-levy', 'norwich-levy', 'salisbury-levy', 'bombard-y', 'calais-mercenary', 'burgundian-mercenary'];
  const targets = [...CROWN_AREAS, 'lancaster', 'lincoln'];
  targets.forEach((a, i) => { s.loc[B(york[i]!)] = a; });
  s.loc[B('henry-vi')] = 'france';
  s.loc[B('somerset')] = 'france';
  t.same(homeDestinations(s, B('exeter-l')), ['france', 'scotland']);
});
