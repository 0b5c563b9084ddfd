/**
 * Long random-play soak of the Richard III engine (test/games/richard-iii/playout-helpers.ts).
 *
 *   npx tsx scripts/fuzz.ts --games 1000 [--scenario kingmaker] [--seed soak] [--trail] [--end-weight w] [--political N]
 *
 * Plays N complete games per scenario (all three unless --scenario), checking
 * every invariant after every action, and prints games, decisions and each
 * failure with its seeds and last actions (--trail: the whole action trail as
 * JSON, replayable with replay() from playout-helpers.ts). Exit code 1 on any failure.
 */
import { SCENARIOS } from '../src/games/richard-iii/data.ts';
import { crowdedPoliticalTurn, describeFailure, playout } from '../test/games/richard-iii/playout-helpers.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const games = Number(arg('games') ?? 100);
const only = arg('scenario');
const prefix = arg('seed') ?? 'soak';
const fullTrail = process.argv.includes('--trail');
const endWeightArg = arg('end-weight');
const scenarios = SCENARIOS.filter((s) => !only || s.id === only);
if (scenarios.length === 0) {
  console.error(`unknown scenario ${only}; expected one of ${SCENARIOS.map((s) => s.id).join(', ')}`);
  process.exit(2);
}

let totalGames = 0, totalDecisions = 0, failures = 0;
const t0 = performance.now();
for (const sc of scenarios) {
  let d = 0, f = 0;
  const wins: Record<string, number> = {};
  const t1 = performance.now();
  for (let g = 0; g < games; g++) {
    const endWeight = endWeightArg !== undefined ? Number(endWeightArg) : g % 2 === 0 ? 1 : 0.05;
    const r = playout({ scenario: sc.id, seed: `${prefix}-${sc.id}-${g}`, endWeight });
    d += r.decisions;
    if (r.failure) {
      f++;
      console.log(`FAIL (endWeight ${endWeight}) ${describeFailure(r)}`);
      if (fullTrail) console.log(`  trail: ${JSON.stringify(r.trail)}`);
    } else {
      const w = r.result?.winner ?? 'draw';
      wins[w] = (wins[w] ?? 0) + 1;
    }
  }
  const secs = (performance.now() - t1) / 1000;
  console.log(`${sc.id}: ${games} games, ${d} decisions (${(d / games).toFixed(0)}/game), ${f} failures, ` +
    `wins ${JSON.stringify(wins)}, ${secs.toFixed(1)} s`);
  totalGames += games;
  totalDecisions += d;
  failures += f;
}
const political = Number(arg('political') ?? 0);
if (political > 0) {
  let d = 0, f = 0;
  const t1 = performance.now();
  for (let g = 0; g < political; g++) {
    const seed = `${prefix}-political-${g}`;
    const endWeight = g % 2 === 0 ? 1 : 0.05;
    const r = playout({ scenario: 'wars-of-the-roses', seed, start: crowdedPoliticalTurn(seed), startLabel: `crowdedPoliticalTurn('${seed}')`, endWeight });
    d += r.decisions;
    if (r.failure) {
      f++;
      console.log(`FAIL (endWeight ${endWeight}) ${describeFailure(r)}`);
      if (fullTrail) console.log(`  trail: ${JSON.stringify(r.trail)}`);
    }
  }
  console.log(`political positions: ${political} games, ${d} decisions, ${f} failures, ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  totalGames += political;
  totalDecisions += d;
  failures += f;
}
console.log(`total: ${totalGames} games, ${totalDecisions} decisions, ${failures} failures, ` +
  `${((performance.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failures ? 1 : 0);
