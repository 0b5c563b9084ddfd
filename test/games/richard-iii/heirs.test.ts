/**
 * Heirs (3.21, 4.5), seniority, minors and heir status of Clarence/Exeter when
 * they defect (9.1 [R-30][R-34]); defection itself (6.9).
 */
import t from 'tap';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { BLOCK_INDEX, BLOCKS } from '../../../src/games/richard-iii/data.ts';
import {
  hasLivingHeir, heirsInPlay, isHeirOf, isRoyalHeir, livingHeirCount, minorHeirs, mostSeniorAmong,
  seniorHeir, seniorLivingHeir, seniorMinor,
} from '../../../src/games/richard-iii/heirs.ts';
import { defect, otherVersion } from '../../../src/games/richard-iii/defection.ts';

const B = (id: string): number => BLOCK_INDEX[id]!;
const ids = (bs: readonly number[]): string[] => bs.map((b) => BLOCKS[b]!.id);

t.test('3.21/4.5: heirs in play and minors at the start of Wars of the Roses (1460)', async (t) => {
  const s = buildPosition({});
  t.same(ids(heirsInPlay(s, 'York')), ['duke-of-york', 'march', 'rutland'], 'in exile counts as in play');
  t.same(ids(heirsInPlay(s, 'Lancaster')), ['henry-vi', 'exeter-l', 'somerset']);
  t.same(ids(minorHeirs(s, 'York')), ['clarence-y', 'gloucester'], 'Gloucester is the youngest');
  t.same(ids(minorHeirs(s, 'Lancaster')), ['prince-edward', 'richmond']);
  t.equal(seniorHeir(s, 'York'), B('duke-of-york'), 'the Pretender is York\'s senior heir');
  t.equal(seniorHeir(s, 'Lancaster'), B('henry-vi'), 'the King is Lancaster\'s senior heir');
  t.equal(seniorMinor(s, 'Lancaster'), B('prince-edward'), 'Prince Edward is Lancaster heir no. 2 (4.5)');
  t.ok(isRoyalHeir(s, B('exeter-l')), 'heirs of the King\'s side are Royal heirs');
  t.notOk(isRoyalHeir(s, B('march')), 'heirs of the Pretender are not');
  t.notOk(isHeirOf(s, B('prince-edward'), 'Lancaster'), 'a minor is not in play');
  t.equal(livingHeirCount(s, 'York'), 5);
});

t.test('6.81/4.5: with Henry VI dead and Prince Edward a minor, the senior living heir is Prince Edward', async (t) => {
  const s = buildPosition({ blocks: { 'henry-vi': { loc: 'dead' } }, crown: { Lancaster: null } });
  t.equal(seniorHeir(s, 'Lancaster'), B('exeter-l'), 'senior heir in play');
  t.equal(seniorLivingHeir(s, 'Lancaster'), B('prince-edward'), 'senior living heir, minors included');
});

t.test('2.2/2.3 [R-4]: the most senior heir among blocks in a battle', async (t) => {
  t.equal(mostSeniorAmong([B('somerset'), B('devon'), B('exeter-l')], 'Lancaster'), B('exeter-l'));
  t.equal(mostSeniorAmong([B('devon')], 'Lancaster'), null);
  t.equal(mostSeniorAmong([B('march')], 'Lancaster'), null, 'only heirs of the side asked');
});

t.test('6.9: defection replaces a block by its other version at the same strength and place', async (t) => {
  const s = buildPosition({ blocks: { 'stanley-l': { loc: 'lancaster', steps: 2, acted: 1 } } });
  const nb = defect(s, B('stanley-l'));
  t.equal(nb, B('stanley-y'));
  t.equal(s.loc[nb], 'lancaster');
  t.equal(s.steps[nb], 2, 'current strength, not full');
  t.equal(s.acted[nb], 1);
  t.equal(s.loc[B('stanley-l')], 'off', 'the old version goes off-map');
  t.equal(otherVersion(B('oxford')), null, 'a rose noble has no other version');
  t.throws(() => defect(s, B('oxford')));
});

t.test('9.1 [R-30][R-34]: a defected Clarence is a noble of Lancaster and an heir of neither side', async (t) => {
  const s = buildPosition({ blocks: { 'clarence-y': { loc: 'kent', steps: 2 } } });
  const nb = defect(s, B('clarence-y'));
  t.equal(BLOCKS[nb]!.id, 'clarence-l');
  t.equal(BLOCKS[nb]!.type, 'noble');
  t.notOk(isHeirOf(s, nb, 'Lancaster'));
  t.notOk(isHeirOf(s, nb, 'York'));
  t.notOk(ids(heirsInPlay(s, 'York')).includes('clarence-y'));
  t.equal(livingHeirCount(s, 'York'), 4, 'York counts its heirs without him');
  t.equal(s.heirsToEnter.York, 0, 'R-33: no minor heir enters for a defection');
  t.equal(s.result, null);
  const back = defect(s, nb);
  t.equal(BLOCKS[back]!.id, 'clarence-y');
  t.ok(isHeirOf(s, back, 'York'), 'defecting back, he regains heir status');
  t.equal(s.steps[back], 2);
  t.equal(livingHeirCount(s, 'York'), 5);
});

t.test('9.0/R-30: hasLivingHeir counts map, exile and minors, not heirs defected to the enemy', async (t) => {
  const s = buildPosition({
    blocks: {
      'duke-of-york': { loc: 'dead' }, march: { loc: 'dead' }, rutland: { loc: 'dead' },
      gloucester: { loc: 'minor' }, 'clarence-y': { loc: 'off' }, 'clarence-l': { loc: 'kent' },
    },
  });
  t.ok(hasLivingHeir(s, 'York'), 'a minor is a living heir');
  s.loc[B('gloucester')] = 'dead';
  t.notOk(hasLivingHeir(s, 'York'), 'Clarence, defected to Lancaster, does not count');
});

t.test('Kingmaker: Clarence starts as a Lancastrian noble; York heirs are March and Gloucester', async (t) => {
  const s = buildPosition({ scenario: 'kingmaker' });
  t.same(ids(heirsInPlay(s, 'York')), ['march', 'gloucester']);
  t.same(ids(heirsInPlay(s, 'Lancaster')), ['henry-vi', 'prince-edward', 'exeter-l'], 'the prisoner is in play');
  t.same(ids(minorHeirs(s, 'Lancaster')), ['richmond']);
});
