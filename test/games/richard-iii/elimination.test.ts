/**
 * Eliminated blocks (6.81–6.86), defected Clarence/Exeter (9.1) and
 * instant victory (9.0 ).
 */
import t from 'tap';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { BLOCK_INDEX } from '../../../src/games/richard-iii/data.ts';
import { eliminate, checkInstantVictory } from '../../../src/games/richard-iii/elimination.ts';
import { defect } from '../../../src/games/richard-iii/defection.ts';
import { areaStatus, ownerOf, top } from '../../../src/games/richard-iii/state.ts';
import { snapshotOf } from '../../../src/games/richard-iii/undo.ts';

const B = (id: string): number => BLOCK_INDEX[id]!;
const lastPub = (s: { log: { pub: string }[] }): string => s.log.map((l) => l.pub).join('\n');

t.test('6.82: a killed heir is permanently out; one minor heir is due at the next Supply Phase', async (t) => {
  const s = buildPosition({});
  s.undo = [snapshotOf(s)];
  eliminate(s, B('rutland'), { text: 'in the battle of Kent', m: { key: 'log.cause.battle', params: { area: { ref: 'area', id: 'kent' } } } });
  t.equal(s.loc[B('rutland')], 'dead');
  t.equal(s.down[B('rutland')], false, 'dead blocks are shown face-up off-map');
  t.equal(s.heirsToEnter.York, 1);
  t.equal(s.crown.York, B('duke-of-york'), 'the Pretender is unchanged');
  t.match(lastPub(s), /Rutland is eliminated in the battle of Kent/, 'the elimination is public and names the block');
  t.same(s.undo, [], 'revealing the block clears the undo stack');
  t.equal(s.result, null);
});

t.test('6.81: the King is dead — the crown is vacant until the next Supply Phase', async (t) => {
  const s = buildPosition({});
  eliminate(s, B('henry-vi'));
  t.equal(s.crown.Lancaster, null);
  t.equal(s.king, 'Lancaster', 'the throne stays with the side');
  t.equal(s.heirsToEnter.Lancaster, 1, 'Prince Edward will enter (4.5)');
  t.match(lastPub(s), /The King is dead/);
});

t.test('G-5: the Pretender\'s death uses the same timing', async (t) => {
  const s = buildPosition({});
  eliminate(s, B('duke-of-york'));
  t.equal(s.crown.York, null);
  t.equal(s.heirsToEnter.York, 1);
});

t.test('6.82: minor entries are counted only while minors are left to enter', async (t) => {
  const s = buildPosition({});
  eliminate(s, B('rutland'));
  eliminate(s, B('march'));
  eliminate(s, B('duke-of-york'));
  t.equal(s.heirsToEnter.York, 2, 'York has only Clarence and Gloucester as minors');
  t.equal(s.result, null, 'minors are living heirs');
});

t.test('6.83: rose nobles are eliminated permanently', async (t) => {
  const s = buildPosition({ blocks: { oxford: { loc: 'essex', steps: 1 } } });
  eliminate(s, B('oxford'));
  t.equal(s.loc[B('oxford')], 'dead');
  t.equal(s.steps[B('oxford')], 0);
});

t.test('6.83: other nobles go face-down to their owner\'s pool, keeping their version', async (t) => {
  const s = buildPosition({ blocks: { 'stanley-y': { loc: 'lancaster' }, 'stanley-l': { loc: 'off' } } });
  eliminate(s, B('stanley-y'));
  t.equal(s.loc[B('stanley-y')], 'pool');
  t.equal(s.down[B('stanley-y')], true, 'not recruitable again this campaign');
  t.equal(s.loc[B('stanley-l')], 'off', 'nobles never change sides by dying');
  t.equal(ownerOf(s, B('stanley-y')), 'York');
});

t.test('3.23/6.83: church blocks are treated like nobles', async (t) => {
  const s = buildPosition({ blocks: { 'canterbury-church-y': { loc: 'kent' } } });
  eliminate(s, B('canterbury-church-y'));
  t.equal(s.loc[B('canterbury-church-y')], 'pool');
  t.ok(s.down[B('canterbury-church-y')]);
});

t.test('6.83: the Nevilles are eliminated permanently (both versions)', async (t) => {
  const s = buildPosition({ blocks: { 'warwick-y': { loc: 'kent' } } });
  eliminate(s, B('warwick-y'));
  t.equal(s.loc[B('warwick-y')], 'dead');
  t.equal(s.loc[B('warwick-l')], 'dead', 'the off-map Lancastrian version is dead too');
  eliminate(s, B('salisbury-y'));
  t.equal(s.loc[B('salisbury-y')], 'dead');
});

t.test('6.84: city levies and Bombards go face-down to the owner\'s pool', async (t) => {
  const s = buildPosition({ blocks: { 'london-levy': { loc: 'middlesex' }, 'bombard-l': { loc: 'warwick' } } });
  eliminate(s, B('london-levy'));
  eliminate(s, B('bombard-l'));
  for (const id of ['london-levy', 'bombard-l']) {
    t.equal(s.loc[B(id)], 'pool', id);
    t.ok(s.down[B(id)], id);
  }
});

t.test('6.85/G-9: mercenaries go face-down to their home exile; the Welsh to the Lancaster pool', async (t) => {
  const s = buildPosition({
    blocks: { 'burgundian-mercenary': { loc: 'kent' }, 'welsh-mercenary': { loc: 'powys' }, 'scots-mercenary': { loc: 'scotland' } },
  });
  eliminate(s, B('burgundian-mercenary'));
  t.equal(s.loc[B('burgundian-mercenary')], 'calais');
  t.ok(s.down[B('burgundian-mercenary')]);
  eliminate(s, B('welsh-mercenary'));
  t.equal(s.loc[B('welsh-mercenary')], 'pool');
  t.ok(s.down[B('welsh-mercenary')]);
  eliminate(s, B('scots-mercenary'));
  t.equal(s.loc[B('scots-mercenary')], 'scotland', 'eliminated at home (e.g. by the exile limit)');
  t.equal(areaStatus(s, 'scotland', 'York'), 'vacant', 'face-down blocks do not hold an area (INTERPRETATIONS 57)');
});

t.test('6.86: the Rebel goes face-down into the Pretender\'s pool', async (t) => {
  const s = buildPosition({ blocks: { rebel: { loc: 'kent' } } });
  eliminate(s, B('rebel'));
  t.equal(s.loc[B('rebel')], 'pool');
  t.ok(s.down[B('rebel')]);
  t.match(lastPub(s), /York pool/, 'York is the Pretender');
});

t.test('9.1 [R-33]: a killed defected Clarence counts as a York heir death', async (t) => {
  const s = buildPosition({ blocks: { 'clarence-y': { loc: 'kent' } } });
  const c = defect(s, B('clarence-y'));
  t.equal(s.heirsToEnter.York, 0, 'no minor for the defection itself');
  eliminate(s, c, { text: 'by execution', m: { key: 'log.cause.execution' } });
  t.equal(s.loc[B('clarence-l')], 'dead');
  t.equal(s.loc[B('clarence-y')], 'dead', 'he can never return');
  t.equal(s.heirsToEnter.York, 1, 'Gloucester enters at the next Supply Phase');
  t.equal(s.result, null);
});

t.test('9.1: a killed defected Exeter counts as a Lancaster heir death', async (t) => {
  const s = buildPosition({ blocks: { 'exeter-l': { loc: 'off' }, 'exeter-y': { loc: 'cornwall' } } });
  eliminate(s, B('exeter-y'));
  t.equal(s.loc[B('exeter-l')], 'dead');
  t.equal(s.heirsToEnter.Lancaster, 1);
});

t.test('9.0: Richard III — killing the sole enemy heir wins at once', async (t) => {
  const s = buildPosition({ scenario: 'richard-iii' });
  eliminate(s, B('gloucester'), { text: 'in the battle of Leicester', m: { key: 'log.cause.battle', params: { area: { ref: 'area', id: 'leicester' } } } });
  t.same(s.result, { winner: 'Lancaster', reason: 'York has no living heir left (9.0).' });
  t.equal(top(s).s, 'game_over');
});

t.test('9.0/R-30: with Clarence defected to Lancaster, killing the other four York heirs wins', async (t) => {
  const s = buildPosition({ blocks: { 'clarence-y': { loc: 'off' }, 'clarence-l': { loc: 'kent' }, gloucester: { loc: 'minor' } } });
  eliminate(s, B('duke-of-york'));
  eliminate(s, B('march'));
  eliminate(s, B('rutland'));
  t.equal(s.result, null, 'Gloucester, a minor, is still a living heir');
  s.loc[B('gloucester')] = 'hereford'; // he came of age
  eliminate(s, B('gloucester'));
  t.equal(s.result?.winner, 'Lancaster', 'the defected Clarence does not save York');
  t.equal(s.loc[B('clarence-l')], 'kent', 'and need not be killed');
});

t.test('9.0/R-30: a side whose last heir defects loses at once', async (t) => {
  const s = buildPosition({
    crown: { Lancaster: null },
    blocks: {
      'henry-vi': { loc: 'dead' }, somerset: { loc: 'dead' }, 'prince-edward': { loc: 'dead' }, richmond: { loc: 'dead' },
      'exeter-l': { loc: 'cornwall' },
    },
  });
  t.notOk(checkInstantVictory(s));
  defect(s, B('exeter-l'));
  t.equal(s.result?.winner, 'York');
});
