/**
 * Richard III's game options (the scenario's declaration) and the map's
 * supply/exile limits: what a scenario declares is what setup() honours.
 */
import t from 'tap';
import { checkOptions } from '../../../src/engine/options.ts';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { AREAS, SCENARIO } from '../../../src/games/richard-iii/data.ts';
import { playout } from './playout-helpers.ts';
import { limitOf } from '../../../src/games/richard-iii/supply.ts';

t.test('each scenario declares endCampaign from its first campaign to its last, default the last', async (t) => {
  for (const sc of richardIII.scenarios) {
    const data = SCENARIO[sc.id]!;
    t.same(sc.options.map((o) => o.name), ['endCampaign'], sc.id);
    t.match(sc.options[0], { type: 'integer', min: data.startCampaign, max: data.endCampaign, default: data.endCampaign }, sc.id);
    t.equal(richardIII.setup({ scenario: sc.id, seed: 'o' }).endCampaign, data.endCampaign, `${sc.id}: left out, the default`);
  }
});

t.test('setup() honours endCampaign and refuses what the declaration refuses', async (t) => {
  const s = richardIII.setup({ scenario: 'wars-of-the-roses', seed: 'short', options: { endCampaign: 1 } });
  t.equal(s.endCampaign, 1);
  t.equal((richardIII.view(s, 'York') as { endCampaign: number }).endCampaign, 1, 'the seats see it');
  for (const options of [{ endCampaign: 0 }, { endCampaign: 4 }, { endCampaign: '2' }, { endCampaign: 1.5 }, { bogus: true }]) {
    t.throws(() => richardIII.setup({ scenario: 'wars-of-the-roses', seed: 'x', options }), JSON.stringify(options));
  }
  t.throws(() => richardIII.setup({ scenario: 'kingmaker', seed: 'x', options: { endCampaign: 1 } }), 'kingmaker starts in campaign 2');
});

t.test('a Wars of the Roses game with endCampaign 1 ends after the first campaign', async (t) => {
  const start = richardIII.setup({ scenario: 'wars-of-the-roses', seed: 'short-game', options: { endCampaign: 1 } });
  const r = playout({ scenario: 'wars-of-the-roses', seed: 'short-game', start, playSeed: 'short-play', purityEvery: 0, viewEvery: 0 });
  t.equal(r.failure, null, r.failure?.message ?? '');
  t.ok(r.finished, 'the game has a result');
  t.equal(r.final.campaign, 1, 'still in campaign 1');
  t.match(r.final.result!.reason, /Usurpation step of the last campaign/, 'the King after the Political Turn of campaign 1 wins');
  // The same seed and the same random player without the option: the games are the same up to that
  // point (the same choices from the same states), and the full game goes on into campaign 2.
  const full = playout({ scenario: 'wars-of-the-roses', seed: 'short-game', playSeed: 'short-play', purityEvery: 0, viewEvery: 0 });
  t.equal(full.failure, null, full.failure?.message ?? '');
  t.same(full.trail.slice(0, r.trail.length - 1), r.trail.slice(0, -1), 'same play until the short game ends');
  t.ok(full.final.campaign > 1, `the full game reached campaign ${full.final.campaign}`);
});

t.test('checkOptions: one check for every type, naming the option', async (t) => {
  const decl = [
    { name: 'fast', type: 'boolean', default: false, description: '' },
    { name: 'n', type: 'integer', min: 1, max: 3, default: 2, description: '' },
    { name: 'colour', type: 'string', values: ['red', 'blue'], default: 'red', description: '' },
  ] as const;
  t.same(checkOptions(decl, {}), { ok: true, options: { fast: false, n: 2, colour: 'red' } });
  t.same(checkOptions(decl, { n: 3, colour: 'blue', fast: true }), { ok: true, options: { fast: true, n: 3, colour: 'blue' } });
  t.match(checkOptions(decl, { bogus: 1 }), { ok: false, problem: 'unknown', option: 'bogus' });
  t.match(checkOptions(decl, { fast: 'yes' }), { ok: false, problem: 'type', option: 'fast' });
  t.match(checkOptions(decl, { n: 4 }), { ok: false, problem: 'range', option: 'n', detail: /from 1 to 3, not 4/ });
  t.match(checkOptions(decl, { n: 2.5 }), { ok: false, problem: 'type', option: 'n' });
  t.match(checkOptions(decl, { n: null }), { ok: false, problem: 'type', option: 'n' });
  t.match(checkOptions(decl, { colour: 'green' }), { ok: false, problem: 'range', option: 'colour' });
  t.match(checkOptions(decl, { colour: 1 }), { ok: false, problem: 'type', option: 'colour' });
  t.match(checkOptions([], { any: 1 }), { ok: false, problem: 'unknown', detail: /takes no options/ });
});

t.test('every land and exile area gives its own limit; an area without one fails loudly', async (t) => {
  for (const a of AREAS.filter((x) => x.kind !== 'sea')) t.type(limitOf(a), 'number', a.id);
  const middlesex = AREAS.find((a) => a.id === 'middlesex')!;
  t.equal(limitOf(middlesex), 5);
  t.throws(() => limitOf({ ...middlesex, supplyLimit: undefined }), /middlesex has no supplyLimit/);
  const calais = AREAS.find((a) => a.id === 'calais')!;
  t.equal(limitOf(calais), 4);
  t.throws(() => limitOf({ ...calais, exileLimitNonMercenary: undefined }), /calais has no exileLimitNonMercenary/);
});
