/**
 * Engine speed in random full games, per scenario (no invariant checks):
 *
 *   npx tsx scripts/bench-engine.ts [--games 200] [--scenario wars-of-the-roses] [--end-weight 0.05]
 *
 * Prints, per scenario: decisions per game, decisions/s, µs per decision for
 * legalActions + apply alone (the target is ≤ 14 µs, common brief) and for the
 * whole loop (activeRoles, the random choice, setup), games/s on one core, and
 * the peak RSS. Uniformly random play by default; --end-weight 0.05 makes the
 * players rarely end their phases early (longer games). The random player is
 * seeded, so runs are comparable.
 */
import { nextUint32, randomInt, seedRng, type RngState } from '../src/engine/rng.ts';
import { SCENARIOS } from '../src/games/richard-iii/data.ts';
import type { Action } from '../src/games/richard-iii/flow.ts';
import { applyAction, legalActionsOf, richardIII } from '../src/games/richard-iii/index.ts';
import { setupState } from '../src/games/richard-iii/setup.ts';
import type { R3State } from '../src/games/richard-iii/state.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const games = Number(arg('games') ?? 200);
const only = arg('scenario');
const endWeight = Number(arg('end-weight') ?? 1);
const scenarios = SCENARIOS.filter((s) => !only || s.id === only);
const UNDO = new Set(['undo', 'take_back']);
const END = new Set(['end', 'cancel', 'end_regroup']);

/** Same choice rule as test/games/richard-iii/playout-helpers.ts: undo-like actions weight 0.1, end-like `endWeight`. */
function pick(rng: RngState, list: Action[]): Action {
  if (list.length === 1) return list[0]!;
  const w = (a: Action) => (UNDO.has(a.type) ? 0.1 : END.has(a.type) ? endWeight : 1);
  let total = 0;
  for (const a of list) total += w(a);
  let x = (nextUint32(rng) / 0x100000000) * total;
  for (const a of list) if ((x -= w(a)) < 0) return a;
  return list[list.length - 1]!;
}

/** One game; returns [decisions, ns spent in legalActions + apply]. */
function game(scenario: string, seed: string): [number, bigint] {
  const rng = seedRng(`play:${seed}`);
  let s: R3State = setupState(scenario, seed);
  let n = 0;
  let ns = 0n;
  while (!s.result && n < 100_000) {
    const roles = richardIII.activeRoles(s);
    const role = roles[roles.length === 1 ? 0 : randomInt(rng, roles.length)]!;
    const t0 = process.hrtime.bigint();
    const list = legalActionsOf(s, role);
    const t1 = process.hrtime.bigint();
    const a = pick(rng, list);
    const t2 = process.hrtime.bigint();
    s = applyAction(s, role, a);
    ns += t1 - t0 + (process.hrtime.bigint() - t2);
    n++;
  }
  return [n, ns];
}

// Warm-up: let the JIT settle before timing.
for (const sc of scenarios) for (let g = 0; g < 20; g++) game(sc.id, `warm-${g}`);

console.log(`random play, end weight ${endWeight}`);
console.log('scenario            games   dec/game   decisions/s   µs/dec (legal+apply)   µs/dec (loop)   games/s');
for (const sc of scenarios) {
  let decisions = 0;
  let engineNs = 0n;
  const t0 = process.hrtime.bigint();
  for (let g = 0; g < games; g++) {
    const [n, ns] = game(sc.id, `bench-${sc.id}-${g}`);
    decisions += n;
    engineNs += ns;
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(
    `${sc.id.padEnd(18)} ${String(games).padStart(6)} ${(decisions / games).toFixed(0).padStart(10)} ` +
    `${(decisions / secs).toFixed(0).padStart(13)} ${(Number(engineNs) / 1e3 / decisions).toFixed(2).padStart(22)} ` +
    `${((secs * 1e6) / decisions).toFixed(2).padStart(15)} ${(games / secs).toFixed(1).padStart(9)}`,
  );
}
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
