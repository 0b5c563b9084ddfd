/**
 * CPU cost of Richard III's sampleState (determinization for computer players)
 * against the cost of what a search does with each sample, a random playout to
 * the end of the game.
 *
 *   npx tsx scripts/bench-sample-state.ts [--games 3] [--rounds 7] [--every 10]
 *
 * Positions: every `every`-th state of `games` random games per scenario, both
 * seats. Each round times (process CPU time, user + system, from the kernel via
 * process.cpuUsage) one sampleState per position and seat, then one random
 * playout from each of a tenth of those samples; the two alternate, and the
 * rounds' per-call costs are reported as median and range (other work on the
 * machine moves wall-clock times, CPU times much less). A first round warms the
 * JIT up and is not counted.
 */
import { seedRng } from '../src/engine/rng.ts';
import { richardIII } from '../src/games/richard-iii/index.ts';
import { SCENARIOS, SIDES } from '../src/games/richard-iii/data.ts';
import { pickAction, pickRole } from '../test/helpers/games/playout.ts';
import { richardIIIPlayout } from '../test/helpers/games/richard-iii.ts';
import { median } from './bench-common.ts';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const GAMES = arg('games', 3), ROUNDS = arg('rounds', 7), EVERY = arg('every', 10);
const m = richardIII;

function randomPlay(s: unknown, seed: string, keep?: (s: unknown) => void): number {
  const rng = seedRng(seed);
  let n = 0;
  for (let roles = m.activeRoles(s as never); roles.length > 0 && n < 100_000; roles = m.activeRoles(s as never)) {
    const role = pickRole(rng, roles);
    const a = pickAction(rng, m.legalActions(s as never, role), richardIIIPlayout.weight, 1);
    s = m.apply(s as never, role, a as never);
    n++;
    keep?.(s);
  }
  return n;
}

const positions: { view: unknown; seat: string }[] = [];
for (const sc of SCENARIOS) {
  for (let g = 0; g < GAMES; g++) {
    let i = 0;
    randomPlay(m.setup({ scenario: sc.id, seed: `bench-${sc.id}-${g}` }), `bench-play-${g}`, (s) => {
      if (i++ % EVERY !== 0 || m.status(s as never).over) return;
      for (const seat of SIDES) positions.push({ view: m.view(s as never, seat), seat });
    });
  }
}

const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

const sampleUs: number[] = [], playoutUs: number[] = [], decisions: number[] = [];
// Round 0 warms the JIT up and is not counted.
for (let r = -1; r < ROUNDS; r++) {
  const rng = seedRng(`bench-round-${r}`);
  const samples: unknown[] = [];
  let t0 = cpuUs();
  for (const p of positions) samples.push(m.sampleState!(p.view, p.seat, rng));
  const us = (cpuUs() - t0) / positions.length;
  t0 = cpuUs();
  let n = 0, d = 0;
  for (let i = (r + 10) % 10; i < samples.length; i += 10) {
    d += randomPlay(samples[i], `bench-playout-${r}-${i}`);
    n++;
  }
  if (r < 0) continue;
  sampleUs.push(us);
  playoutUs.push((cpuUs() - t0) / n);
  decisions.push(d / n);
}

const fmt = (xs: number[]): string => `median ${median(xs).toFixed(0)} µs (range ${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(`${positions.length} positions × seat, ${ROUNDS} rounds`);
console.log(`sampleState:    ${fmt(sampleUs)} CPU per call`);
console.log(`random playout: ${fmt(playoutUs)} CPU per playout from a sample (${median(decisions).toFixed(0)} decisions)`);
console.log(`ratio: a sample costs ${(median(sampleUs) / median(playoutUs) * 100).toFixed(1)}% of a playout`);
