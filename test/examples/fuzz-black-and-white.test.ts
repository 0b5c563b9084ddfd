// Black & White's random-play fuzz in CI, on the invented data file
// (src/games/black-and-white/data/invented-data.json): BW_FUZZ_GAMES (default
// 300) complete games, the scenarios in turn, the rule options drawn from each
// seed, played through the module alone with the playout adapter
// (test/helpers/games/black-and-white.ts): the GameModule contract checked
// after every action, then every seat's view and log lines at every version
// scanned with Black & White's leak rules (examples/leak-scan/
// black-and-white.ts), which is what the service sends a seat. A game that
// reaches a position no army can win from any more ends there as a draw (the
// engine's rule, option noWinPossible 'draw'); with the seed's options half
// the games have 'play-on' instead, and stop at such a dead end. A game that
// random play has not ended in 3,000 decisions stops there. Each is counted.
// The same games through the service cost ~25 times as much: a few of them
// are in leak-scan-black-and-white.test.ts. `npm run fuzz -- --type
// black-and-white --games N` plays more.
import t from 'tap';
import { allGameModules, fuzzGame, playoutAdapter } from '../helpers/games/index.ts';
import { contractPlayout } from '../helpers/games/playout.ts';
import { optionsFromSeed, viewScanner } from '../helpers/games/black-and-white.ts';

const m = allGameModules()['black-and-white']!;

t.test('fuzz: random games through the module, views and log lines scanned', async (t) => {
  const n = Number(process.env.BW_FUZZ_GAMES ?? 300);
  const adapter = playoutAdapter(m.id);
  const failures: string[] = [];
  let decisions = 0, dead = 0, capped = 0, drawn = 0;
  const wins: Record<string, number> = {};
  for (let g = 0; g < n; g++) {
    const sc = m.scenarios[g % m.scenarios.length]!;
    const r = fuzzGame(m, { scenario: sc.id, seed: `ci-bw-${g}`, endWeight: adapter.fuzzEndWeights[g % adapter.fuzzEndWeights.length]! });
    decisions += r.decisions;
    if (r.failure) failures.push(r.failure);
    else if (r.capped) capped++;
    else if (r.deadEnd) dead++;
    else if (r.winner === null) drawn++;
    else wins[r.winner] = (wins[r.winner] ?? 0) + 1;
  }
  t.same(failures.slice(0, 5), [], `no failure in ${n} games`);
  t.ok(capped + dead <= n / 10, `${dead} of ${n} games stopped at a dead end (play-on), ${capped} at the cap`);
  if (n >= 20) t.ok((wins.Thargaton ?? 0) > 0 && (wins.Vesania ?? 0) > 0, `both armies win some: ${JSON.stringify(wins)}`);
  t.comment(`black-and-white fuzz: ${n} games, ${decisions} decisions, wins ${JSON.stringify(wins)}, ${drawn} drawn (no win possible), ${dead} stopped at a dead end (play-on), ${capped} at the cap`);
});


// A seed of the bench that once crashed: a charge whose unit is eliminated by
// fire on its path gives the other side its 10th VP, and the charge went on
// with no activation left (TypeError). Replayed as the bench plays it.
t.test('bench seed bench-s01-168: a charge through fire that ends the game', async (t) => {
  const a = playoutAdapter(m.id);
  const r = contractPlayout(m, a.weight, { scenario: 's01', seed: 'bench-s01-168', endWeight: 1, maxDecisions: 3000, deadEnd: a.deadEnd! });
  t.equal(r.failure, null);
  t.ok(r.trail.some((x) => (x.action as { type: string }).type === 'charge'), 'it charges');
});

// The fuzz scans the views and log lines contractPlayout made as it played
// (viewScanner's observe): a game whose Thargaton views are Vesania's own is
// found out, and an honest one is not.
t.test("the fuzz's scan sees every version's views: it finds an enemy's view planted in a seat's", async (t) => {
  const a = playoutAdapter(m.id);
  const seed = 'ci-bw-planted';
  const options = optionsFromSeed(seed);
  const play = (plant: boolean) => {
    const scanner = viewScanner(m, { scenario: 's01', seed, options });
    let versions = 0;
    const r = contractPlayout(m, a.weight, {
      scenario: 's01', seed, endWeight: 1, maxDecisions: 3000, options, deadEnd: a.deadEnd!,
      observe: (v, s, seen) => (versions++, scanner.observe(v, s, plant ? seen.map((x) => (x.role === 'Thargaton' ? { ...x, view: m.view(s, 'Vesania') } : x)) : seen)),
    });
    t.equal(r.failure, null);
    t.equal(versions, r.decisions + 1, 'every version observed');
    return scanner.scan(r.trail);
  };
  const honest = play(false);
  t.same(honest.findings, [], `${honest.payloads} payloads, no finding`);
  const planted = play(true);
  t.ok(planted.findings.some((f) => /^Thargaton at version \d+ \(view\): the kind of V\d+/.test(f)), `the planted views are found: ${planted.findings[0]}`);
});
