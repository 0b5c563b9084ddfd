// The per-game playout adapters (test/helpers/games) that scripts/fuzz.ts and
// scripts/bench-engine.ts use: every registered game type (one that needs a data
// file on its invented one) plays complete random
// games through the GameModule contract alone and passes the contract's checks;
// a game type without an adapter (the test-only Tally) is played uniformly; and
// the contract checks do catch a module that breaks the contract.
import t from 'tap';
import { games } from '../../src/games/index.ts';
import type { GameModule } from '../../src/engine/types.ts';
import { allGameModules, DEFAULT_ADAPTER, fuzzGame, playoutAdapter } from '../helpers/games/index.ts';
import { contractPlayout, timedGame } from '../helpers/games/playout.ts';
import { tallyModule, type TallyState } from '../helpers/games/tally.ts';

const tally = tallyModule() as unknown as GameModule;

t.test('every registered game type plays to the end under the contract checks', async (t) => {
  // Those that need a data file on the invented one they ship.
  for (const m of Object.values(allGameModules())) {
    const a = playoutAdapter(m.id);
    const sc = m.scenarios[m.scenarios.length - 1]!.id;
    const deadEnd = a.deadEnd ? { deadEnd: a.deadEnd } : {};
    const r = contractPlayout(m, a.weight, { scenario: sc, seed: `adapters-${m.id}`, endWeight: 1, maxDecisions: a.maxDecisions, ...deadEnd });
    t.equal(r.failure, null, `${m.id} ${sc}`);
    t.ok(r.decisions > 0 && r.trail.length === r.decisions, `${m.id}: ${r.decisions} decisions`);
    const timed = timedGame(m, a.weight, { scenario: sc, seed: `adapters-${m.id}`, endWeight: 1, maxDecisions: a.maxDecisions, ...deadEnd });
    t.equal(timed.decisions, r.decisions, `${m.id}: the bench plays the same game as the checked playout`);
  }
});

t.test("Richard III's adapter runs its own checks, and its extra set", async (t) => {
  const m = games['richard-iii']!;
  const r = fuzzGame(m, { scenario: 'kingmaker', seed: 'adapters-r3', endWeight: 0.05 });
  t.equal(r.failure, null);
  t.ok(r.decisions > 0);
  const extra = playoutAdapter('richard-iii').extraFuzz!.political!('adapters-political', 1);
  t.equal(extra.failure, null);
});

t.test('a game type without an adapter: uniform play, contract checks', async (t) => {
  t.equal(playoutAdapter('tally'), DEFAULT_ADAPTER);
  const r = fuzzGame(tally, { scenario: 'plain', seed: 'adapters-tally', endWeight: 1 });
  t.same(r, { decisions: 5, failure: null, winner: null, trail: r.trail });
});

t.test('the contract checks catch a module that breaks the contract', async (t) => {
  const mutating = { ...tally, apply: (s: TallyState, _role: string, a: { n?: number }) => (s.moves.push(a.n ?? 0), { ...s, moves: [...s.moves] }) } as unknown as GameModule;
  t.match(fuzzGame(mutating, { scenario: 'plain', seed: 'x', endWeight: 1 }).failure, /apply\(\) changed its input/);
  const stuck = { ...tally, status: () => ({ over: false, winner: null }) } as unknown as GameModule;
  t.match(fuzzGame(stuck, { scenario: 'plain', seed: 'x', endWeight: 1 }).failure, /status\(\)\.over is false with active roles \[\]/);
  const silent = { ...tally, legalActions: () => [] } as unknown as GameModule;
  t.match(fuzzGame(silent, { scenario: 'plain', seed: 'x', endWeight: 1 }).failure, /A active with no legal action/);
  const random = { ...tally, setup: () => ({ options: { salt: Math.random() }, moves: [] }) } as unknown as GameModule;
  t.match(fuzzGame(random, { scenario: 'plain', seed: 'x', endWeight: 1 }).failure, /replaying the trail/);
});
