/**
 * A new game (§7): options declared on every scenario and kept in the state
 * and views; the secret purchase (budget, block caps, A55); the hidden
 * deployment (A56, stacking); ids that carry no hidden information; the
 * first-player roll (A58); a self-contained state.
 */
import t from 'tap';
import { checkOptions } from '../../../src/engine/options.ts';
import type { Army } from '../../../src/games/black-and-white/data-format.ts';
import { OPTION_DECLARATIONS } from '../../../src/games/black-and-white/options.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { DATA, fixtureData, game, play } from './fixture-helpers.ts';
import { createBlackAndWhite } from '../../../src/games/black-and-white/index.ts';
import { deployable } from '../../../src/games/black-and-white/army-building.ts';
import { canEnterTerrain, stackingOk } from '../../../src/games/black-and-white/board.ts';
import { randomInt, seedRng } from '../../../src/engine/rng.ts';

t.test('every scenario declares the rule options; defaults are the proposed readings; setup keeps them and views show them', async (t) => {
  t.equal(game.id, 'black-and-white');
  t.same(game.roles, ['Thargaton', 'Vesania']);
  t.same(game.scenarios.map((s) => s.id), DATA.scenarios.map((s) => s.id));
  for (const sc of game.scenarios) t.same(sc.options.map((o) => o.name), OPTION_DECLARATIONS.map((o) => o.name), sc.id);
  const names = OPTION_DECLARATIONS.map((o) => o.name);
  for (const a of ['a1', 'a18', 'a22', 'a24', 'a25', 'a27', 'a51', 'a54']) t.ok(names.some((n) => n.startsWith(a)), `${a} is an option`);
  const s = game.setup({ scenario: 'skirmish', seed: 'o' });
  const defaults = checkOptions(OPTION_DECLARATIONS, {});
  t.ok(defaults.ok);
  t.same(s.options, defaults.ok ? defaults.options : null);
  t.equal(s.options.a1StackBonus, 'self');
  const o = game.setup({ scenario: 'skirmish', seed: 'o', options: { a1StackBonus: 'others', a22CounterAfterMiss: true } });
  t.equal((game.view(o, 'Vesania') as { options: Record<string, unknown> }).options.a1StackBonus, 'others');
  t.equal((game.view(o, null) as { options: Record<string, unknown> }).options.a22CounterAfterMiss, true);
  t.throws(() => game.setup({ scenario: 'skirmish', seed: 'o', options: { a1StackBonus: 'none' } }));
  t.throws(() => game.setup({ scenario: 'skirmish', seed: 'o', options: { bogus: 1 } }));
  t.throws(() => game.setup({ scenario: 'nope', seed: 'o' }));
});

t.test('the state is self-contained: a later change of the data does not reach a stored game', async (t) => {
  const data = fixtureData();
  const g = createBlackAndWhite(data);
  const s = g.setup({ scenario: 'skirmish', seed: 'x' });
  data.kinds[0]!.cost = 99;
  data.scenarios[0]!.terrain['1,1'] = 'mountains';
  data.board.columns = 3;
  t.not(s.kinds[0]!.cost, 99);
  t.equal(s.scenario.terrain['1,1'], undefined);
  t.equal(s.board.columns, 10);
  t.same(JSON.parse(JSON.stringify(s)), s, 'plain JSON');
});

function buyAndDeploy(): BWState {
  // Armies too small to reach 10 VP: 'play-on', else the game is drawn when deployment ends.
  let s = game.setup({ scenario: 'skirmish', seed: 'deal', options: { noWinPossible: 'play-on' } });
  s = play(s,
    ['Thargaton', { type: 'buy', kind: 'heavy-cavalry' }],
    ['Vesania', { type: 'buy', kind: 'iron-order' }],
    ['Thargaton', { type: 'buy', kind: 'sappers' }],
    ['Thargaton', { type: 'buy', kind: 'regular-infantry' }],
  );
  return s;
}

t.test('§7 secret purchase: budget and block caps (A55), hidden from the other seat', async (t) => {
  t.same(game.activeRoles(game.setup({ scenario: 'skirmish', seed: 'deal' })), ['Thargaton', 'Vesania'], 'both buy at once');
  let s = buyAndDeploy();
  const v = game.view(s, 'Vesania') as { armies: Record<Army, { bought?: unknown; units: unknown[]; done?: boolean }> };
  t.equal(v.armies.Thargaton.bought, undefined, "the other seat never sees the purchase");
  t.same((game.view(s, 'Thargaton') as typeof v).armies.Thargaton.bought, ['heavy-cavalry', 'sappers', 'regular-infantry']);
  const log = game.logChange(s);
  t.equal(log.entries.length, 0);
  // Sapper blocks: 2 in the fixture.
  s = play(s, ['Thargaton', { type: 'buy', kind: 'sappers' }]);
  t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'buy' && a.kind === 'sappers'), 'no more sapper blocks');
  // Spent 4 + 2 + 2 + 2 = 10 of 20; heavy cavalry costs 4, 2 blocks.
  s = play(s, ['Thargaton', { type: 'buy', kind: 'heavy-cavalry' }], ['Thargaton', { type: 'buy', kind: 'special-artillery' }]);
  t.equal((game.view(s, 'Thargaton') as { armies: { Thargaton: { budgetLeft: number } } }).armies.Thargaton.budgetLeft, 1);
  t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'buy'), 'nothing costs 1');
  t.notOk(game.legalActions(game.setup({ scenario: 'skirmish', seed: 'x' }), 'Vesania').some((a) => a.type === 'done'), 'at least one unit (A55)');
  s = play(s, ['Thargaton', { type: 'return', kind: 'special-artillery' }], ['Thargaton', { type: 'done' }]);
  t.same(game.activeRoles(s), ['Vesania']);
  const line = game.logLine(game.logChange(s).entries[0], 'Vesania');
  t.notMatch(line, /Sappers|Heavy/, 'the log tells the other seat only that the purchase is done');
  t.match(game.logLine(game.logChange(s).entries[0], 'Thargaton'), /Heavy Cavalry/);
});

t.test('§7/A56 hidden deployment on the first row within the stacking limit; ids from public facts; first player rolled', async (t) => {
  let s = buyAndDeploy();
  s = play(s, ['Thargaton', { type: 'done' }], ['Vesania', { type: 'buy', kind: 'order-of-virgo' }], ['Vesania', { type: 'done' }]);
  t.equal(s.phase, 'deploy');
  const places = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'place');
  t.ok(places.every((a) => a.type === 'place' && a.hex.endsWith(',1')), 'first row only');
  s = play(s,
    ['Thargaton', { type: 'place', index: 0, hex: '3,1' }],
    ['Thargaton', { type: 'place', index: 1, hex: '3,1' }],
  );
  t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'place' && a.hex === '3,1'), 'cavalry + infantry: no third unit');
  t.equal((game.view(s, 'Vesania') as { armies: { Thargaton: { placed?: unknown } } }).armies.Thargaton.placed, undefined);
  s = play(s, ['Thargaton', { type: 'place', index: 2, hex: '7,1' }], ['Thargaton', { type: 'done' }]);
  t.equal(s.units.length, 0, 'no blocks on the board before both have deployed');
  s = play(s, ['Vesania', { type: 'place', index: 0, hex: '2,8' }], ['Vesania', { type: 'place', index: 1, hex: '9,8' }], ['Vesania', { type: 'done' }]);
  t.equal(s.phase, 'play');
  t.same(s.units.filter((u) => u.army === 'Thargaton').map((u) => `${u.id}@${u.hex}:${u.type}`), ['T01@3,1:cavalry', 'T02@3,1:infantry', 'T03@7,1:infantry'], 'numbered by hex and type');
  t.ok(s.player === 'Thargaton' || s.player === 'Vesania');
  t.match(game.logLine(game.logChange(s).entries.find((e) => JSON.stringify(e).includes('firstRoll')), null), /First-player roll/);
  const v = game.view(s, 'Vesania') as { armies: { Thargaton: { units: Record<string, unknown>[] } } };
  t.same(v.armies.Thargaton.units[0], { id: 'T01', army: 'Thargaton', type: 'cavalry', hex: '3,1' }, 'type and hex only');
  const spectator = game.view(s, null) as { armies: { Vesania: { units: Record<string, unknown>[] } } };
  t.notOk('kind' in spectator.armies.Vesania.units[0]!);
});

t.test('A56: a Behind Enemy Lines defender may not deploy on arrow hexes', async (t) => {
  let s = game.setup({ scenario: 'bel', seed: 'b' });
  s = play(s, ['Thargaton', { type: 'buy', kind: 'sappers' }], ['Thargaton', { type: 'done' }], ['Vesania', { type: 'buy', kind: 'order-of-virgo' }], ['Vesania', { type: 'done' }]);
  const hexes = game.legalActions(s, 'Vesania').filter((a) => a.type === 'place').map((a) => (a as { hex: string }).hex);
  t.notOk(hexes.some((h) => ['1,8', '2,8', '3,8'].includes(h)));
  t.ok(hexes.includes('4,8'));
});

/** A game on invented data whose Thargaton first row is cramped: the hexes given, with the terrain given. */
function cramped(row: string[], terrain: Record<string, string>, seed = 'c'): BWState {
  const data = fixtureData();
  const sc = data.scenarios.find((x) => x.id === 'open')!;
  sc.firstRows = { ...sc.firstRows, Thargaton: row };
  sc.terrain = terrain as typeof sc.terrain;
  // Small armies: 'play-on', else a game no army can win is drawn when deployment ends.
  return createBlackAndWhite(data).setup({ scenario: 'open', seed, options: { noWinPossible: 'play-on' } });
}
const buys = (s: BWState): string[] => game.legalActions(s, 'Thargaton').filter((a) => a.type === 'buy').map((a) => (a as { kind: string }).kind);

t.test('§7/A56 with §5.1, §11: an army is bought only if all of it can stand on its first row at once (no deployment stall)', async (t) => {
  // Two first-row hexes: 1,1 open, 2,1 swamp (no cavalry but Light Cavalry, no artillery).
  let s = cramped(['1,1', '2,1'], { '2,1': 'swamp' });
  t.ok(buys(s).includes('regular-artillery'), 'artillery alone fits on 1,1');
  s = play(s, ['Thargaton', { type: 'buy', kind: 'regular-cavalry' }]);
  t.notOk(buys(s).includes('regular-artillery'), 'cavalry needs 1,1, so artillery (never with cavalry, not in swamp) does not fit');
  t.notOk(buys(s).includes('special-artillery'));
  t.ok(buys(s).includes('regular-cavalry'), 'a second cavalry shares 1,1');
  t.ok(buys(s).includes('light-cavalry'), 'Light Cavalry stands in the swamp');
  t.ok(buys(s).includes('sappers'), 'infantry stands in the swamp');
  const err = t.throws(() => play(s, ['Thargaton', { type: 'buy', kind: 'regular-artillery' }])) as Error;
  t.match(err.message, /regular-artillery may not be bought: Thargaton's first row could not hold it/, 'the refusal says why');
  t.match(err.message, /stacking limit/);
  t.equal(game.refusal!(s, 'Thargaton', { type: 'buy', kind: 'regular-artillery' }), err.message.replace(/^.*Thargaton in purchase: /, ''), 'the module hook gives the same reason to the service');
  t.equal(game.refusal!(s, 'Thargaton', { type: 'buy', kind: 'iron-order' }), null, 'another army\'s kind: no special reason');
  // Fill it: two infantry in the swamp with a third, then 1,1 holds cavalry + one infantry at most.
  s = play(s,
    ['Thargaton', { type: 'buy', kind: 'regular-infantry' }],
    ['Thargaton', { type: 'buy', kind: 'regular-infantry' }],
    ['Thargaton', { type: 'buy', kind: 'regular-infantry' }],
    ['Thargaton', { type: 'buy', kind: 'sappers' }],
  );
  // 3 + 2×4 = 11 points: 1,1 cavalry + sappers, 2,1 three Regular Infantry. No room for anything more.
  t.same(buys(s), [], 'the row is full: nothing more for sale, though 9 points are left');
  s = play(s, ['Thargaton', { type: 'done' }], ['Vesania', { type: 'buy', kind: 'order-of-virgo' }], ['Vesania', { type: 'done' }]);
  t.equal(s.phase, 'deploy');
  s = play(s,
    ['Thargaton', { type: 'place', index: 0, hex: '1,1' }],
    ['Thargaton', { type: 'place', index: 1, hex: '2,1' }],
    ['Thargaton', { type: 'place', index: 2, hex: '2,1' }],
    ['Thargaton', { type: 'place', index: 3, hex: '2,1' }],
    ['Thargaton', { type: 'place', index: 4, hex: '1,1' }],
    ['Thargaton', { type: 'done' }],
    ['Vesania', { type: 'place', index: 0, hex: '2,8' }],
    ['Vesania', { type: 'done' }],
  );
  t.equal(s.phase, 'play', 'deployment ends');
});

t.test('the first-row check agrees with trying every placement, and random purchases on cramped rows always deploy', async (t) => {
  const rng = seedRng('cramped');
  const terrains = ['open', 'open', 'swamp', 'forest', 'fort', 'bunker'];
  const typeOf = (k: string) => DATA.kinds.find((x) => x.id === k)!.type;
  let checked = 0;
  const wrong: string[] = [];
  for (let round = 0; round < 150; round++) {
    const width = 1 + randomInt(rng, 3);
    const row = Array.from({ length: width }, (_, i) => `${i + 1},1`);
    const terrain = Object.fromEntries(row.map((h) => [h, terrains[randomInt(rng, terrains.length)]!]));
    let s = cramped(row, terrain, `c${round}`);
    // Random purchases: each offered buy keeps the army deployable; brute force over every placement says so too.
    for (;;) {
      const offer = buys(s);
      const all = s.kinds.filter((k) => k.army === 'Thargaton' && k.cost <= s.budget - s.bought.Thargaton.reduce((n, x) => n + s.kinds.find((c) => c.id === x)!.cost, 0) && s.bought.Thargaton.filter((x) => x === k.id).length < k.blocks);
      for (const k of all) {
        const army = [...s.bought.Thargaton, k.id];
        if (army.length > 6) continue;
        // Every assignment of the units to hexes (width^n, n <= 6).
        let fits = false;
        for (let code = 0; code < width ** army.length && !fits; code++) {
          const at = army.map((_, i) => Math.floor(code / width ** i) % width);
          fits = army.every((kind, i) => canEnterTerrain(s, { type: typeOf(kind), kind }, row[at[i]!]!)) &&
            row.every((_, h) => stackingOk(army.filter((_, i) => at[i] === h).map(typeOf)));
        }
        if (offer.includes(k.id) !== fits) wrong.push(`${row.map((h) => terrain[h]).join('/')}: ${army.join(', ')} ${fits ? 'fits' : 'does not fit'}`);
        checked++;
      }
      if (offer.length === 0 || randomInt(rng, 5) === 0) break;
      s = play(s, ['Thargaton', { type: 'buy', kind: offer[randomInt(rng, offer.length)]! }]);
    }
    if (s.bought.Thargaton.length === 0) continue;
    s = play(s, ['Thargaton', { type: 'done' }], ['Vesania', { type: 'buy', kind: 'order-of-virgo' }], ['Vesania', { type: 'done' }]);
    // The seat's own legal place actions reach `done` (before the check, some purchases here never could).
    if (!deployable(s, 'Thargaton', s.bought.Thargaton) || !deployAll(s)) wrong.push(`${row.map((h) => terrain[h]).join('/')}: ${s.bought.Thargaton.join(', ')} does not deploy`);
  }
  t.same(wrong, [], 'buy offered exactly when some placement fits; every purchase deploys');
  t.ok(checked > 1000, `${checked} purchases compared`);
});

/** Whether the Thargaton seat can reach `done` in deployment through its legal place actions (depth-first, small armies). */
function deployAll(s: BWState, seen = new Set<string>()): boolean {
  const legal = game.legalActions(s, 'Thargaton');
  if (legal.some((a) => a.type === 'done')) return true;
  const key = s.bought.Thargaton.map((k, i) => `${k}@${s.placed.Thargaton[i]}`).sort().join(' ');
  if (seen.has(key)) return false;
  seen.add(key);
  return legal.some((a) => a.type === 'place' && deployAll(game.apply(s, 'Thargaton', a), seen));
}
