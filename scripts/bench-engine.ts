/**
 * Engine speed in random full games, one block per registered game type
 * (src/games/index.ts), one line per scenario (no invariant checks):
 *
 *   npx tsx scripts/bench-engine.ts [--games 200] [--type richard-iii] [--scenario wars-of-the-roses] [--end-weight 0.05]
 *
 * Prints, per scenario: decisions per game, decisions/s, µs per decision for
 * legalActions + apply alone (the target is ≤ 14 µs, common brief) and for the
 * whole loop (activeRoles, the random choice, setup), games/s on one core;
 * per game type, the same over all its scenarios; and the peak RSS. Play goes
 * through the GameModule contract alone, weighted by the game's playout adapter
 * (test/helpers/games: Richard III's makes undo-like actions rare; without an
 * adapter, uniform). --end-weight 0.05 makes players rarely end their phases
 * early (longer games). The random player is seeded, so runs are comparable.
 */
import { allGameModules, playoutAdapter } from '../test/helpers/games/index.ts';
import { timedGame } from '../test/helpers/games/playout.ts';

// Every registered game type, those that need a data file on their invented one.
const installed = allGameModules();

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const games = Number(arg('games') ?? 200);
const onlyType = arg('type');
const only = arg('scenario');
const endWeight = Number(arg('end-weight') ?? 1);
const types = Object.values(installed).filter((m) => !onlyType || m.id === onlyType);
if (types.length === 0) {
  console.error(`unknown game type ${onlyType}; expected one of ${Object.keys(installed).join(', ')}`);
  process.exit(2);
}

const row = (name: string, n: number, decisions: number, engineNs: bigint, secs: number) =>
  `${name.padEnd(18)} ${String(n).padStart(6)} ${(decisions / n).toFixed(0).padStart(10)} ` +
  `${(decisions / secs).toFixed(0).padStart(13)} ${(Number(engineNs) / 1e3 / decisions).toFixed(2).padStart(22)} ` +
  `${((secs * 1e6) / decisions).toFixed(2).padStart(15)} ${(n / secs).toFixed(1).padStart(9)}`;

console.log(`random play, end weight ${endWeight}`);
for (const m of types) {
  const adapter = playoutAdapter(m.id);
  const scenarios = m.scenarios.filter((s) => !only || s.id === only);
  if (scenarios.length === 0) continue;
  const play = (scenario: string, seed: string) => timedGame(m, adapter.weight, { scenario, seed, endWeight, maxDecisions: adapter.maxDecisions, ...(adapter.deadEnd ? { deadEnd: adapter.deadEnd } : {}) });
  // Warm-up: let the JIT settle before timing.
  for (const sc of scenarios) for (let g = 0; g < 20; g++) play(sc.id, `warm-${g}`);
  console.log(`\n${m.id} (${m.title})`);
  console.log('scenario            games   dec/game   decisions/s   µs/dec (legal+apply)   µs/dec (loop)   games/s');
  let allDecisions = 0, allNs = 0n, allSecs = 0;
  for (const sc of scenarios) {
    let decisions = 0;
    let engineNs = 0n;
    const t0 = process.hrtime.bigint();
    for (let g = 0; g < games; g++) {
      const r = play(sc.id, `bench-${sc.id}-${g}`);
      decisions += r.decisions;
      engineNs += r.engineNs;
    }
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(row(sc.id, games, decisions, engineNs, secs));
    allDecisions += decisions;
    allNs += engineNs;
    allSecs += secs;
  }
  if (scenarios.length > 1) console.log(row('all scenarios', games * scenarios.length, allDecisions, allNs, allSecs));
}
console.log(`\npeak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
