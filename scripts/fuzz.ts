/**
 * Long random-play soak of the game engines (test/helpers/games: each game
 * type's playout adapter; Richard III's checks its invariants with
 * test/games/richard-iii/playout-helpers.ts, a game without an adapter is held
 * to the GameModule contract).
 *
 *   npx tsx scripts/fuzz.ts --games 1000 [--type richard-iii] [--scenario kingmaker] [--seed soak] [--trail] [--end-weight w]
 *                           [--extra political=N] [--political N]
 *
 * Plays N complete games per scenario of each game type (every registered one
 * unless --type; every scenario unless --scenario), checking after every
 * action, and prints games, decisions and each failure with its seeds and last
 * actions (--trail: the whole action trail as JSON; for Richard III replayable
 * with replay() from playout-helpers.ts). --extra name=N: N games of a set the
 * adapter names (Richard III: `political`, crowded Political Turns;
 * --political N is its old spelling). Exit code 1 on any failure.
 */
import { allGameModules, fuzzGame, playoutAdapter, type FuzzGame } from '../test/helpers/games/index.ts';

// Every registered game type, those that need a data file on their invented one.
const installed = allGameModules();

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const games = Number(arg('games') ?? 100);
const onlyType = arg('type');
const only = arg('scenario');
const prefix = arg('seed') ?? 'soak';
const fullTrail = process.argv.includes('--trail');
const endWeightArg = arg('end-weight');
const extras = new Map<string, number>();
if (arg('political') !== undefined) extras.set('political', Number(arg('political')));
for (let i = 0; i < process.argv.length; i++) {
  if (process.argv[i] !== '--extra') continue;
  const [name, n] = (process.argv[i + 1] ?? '').split('=');
  if (!name || !(Number(n) > 0)) {
    console.error('--extra wants name=N');
    process.exit(2);
  }
  extras.set(name, Number(n));
}

const types = Object.values(installed).filter((m) => !onlyType || m.id === onlyType);
if (types.length === 0) {
  console.error(`unknown game type ${onlyType}; expected one of ${Object.keys(installed).join(', ')}`);
  process.exit(2);
}

let totalGames = 0, totalDecisions = 0, failures = 0;
const t0 = performance.now();
const report = (r: FuzzGame) => {
  if (!r.failure) return;
  console.log(`FAIL ${r.failure}`);
  if (fullTrail) console.log(`  trail: ${JSON.stringify(r.trail)}`);
};
for (const m of types) {
  const adapter = playoutAdapter(m.id);
  const scenarios = m.scenarios.filter((s) => !only || s.id === only);
  if (scenarios.length === 0 && only) {
    // Another game type may have it; this one has nothing to play.
    if (types.length === 1) {
      console.error(`unknown scenario ${only}; expected one of ${m.scenarios.map((s) => s.id).join(', ')}`);
      process.exit(2);
    }
    continue;
  }
  const label = types.length > 1 ? `${m.id} ` : '';
  for (const sc of scenarios) {
    let d = 0, f = 0, dead = 0;
    const wins: Record<string, number> = {};
    const t1 = performance.now();
    for (let g = 0; g < games; g++) {
      const endWeight = endWeightArg !== undefined ? Number(endWeightArg) : adapter.fuzzEndWeights[g % adapter.fuzzEndWeights.length]!;
      const r = fuzzGame(m, { scenario: sc.id, seed: `${prefix}-${sc.id}-${g}`, endWeight });
      d += r.decisions;
      if (r.failure) {
        f++;
        report(r);
      } else if (r.deadEnd) {
        dead++;
      } else {
        const w = r.winner ?? 'draw';
        wins[w] = (wins[w] ?? 0) + 1;
      }
    }
    const secs = (performance.now() - t1) / 1000;
    console.log(`${label}${sc.id}: ${games} games, ${d} decisions (${(d / games).toFixed(0)}/game), ${f} failures, ` +
      `wins ${JSON.stringify(wins)}${dead ? `, ${dead} stopped without an end (a dead end, or past the adapter's cap)` : ''}, ${secs.toFixed(1)} s`);
    totalGames += games;
    totalDecisions += d;
    failures += f;
  }
  for (const [name, n] of extras) {
    const play = adapter.extraFuzz?.[name];
    if (!play) {
      if (types.length === 1) {
        console.error(`${m.id} has no extra fuzz set ${name}; it has: ${Object.keys(adapter.extraFuzz ?? {}).join(', ') || 'none'}`);
        process.exit(2);
      }
      continue;
    }
    let d = 0, f = 0;
    const t1 = performance.now();
    for (let g = 0; g < n; g++) {
      const r = play(`${prefix}-${name}-${g}`, adapter.fuzzEndWeights[g % adapter.fuzzEndWeights.length]!);
      d += r.decisions;
      if (r.failure) {
        f++;
        report(r);
      }
    }
    console.log(`${label}${name}: ${n} games, ${d} decisions, ${f} failures, ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    totalGames += n;
    totalDecisions += d;
    failures += f;
  }
}
console.log(`total: ${totalGames} games, ${totalDecisions} decisions, ${failures} failures, ` +
  `${((performance.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failures ? 1 : 0);
