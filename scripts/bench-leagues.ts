/**
 * Benchmark of the pure leagues core (printed figures, not a test): pairing a Swiss round of
 * 256 and 1,024 players, standings of a 1,024-player 10-round league, Glicko-2 updates per
 * second. Results are random but seeded, so runs are comparable.
 *
 *   npm run bench:leagues [-- --runs 5]
 */
import { pairSwissRound, swissPlayers, type SwissOptions } from '../src/leagues/swiss.ts';
import { computeStandings } from '../src/leagues/standings.ts';
import { newRating, rateGame, type Rating } from '../src/leagues/ratings.ts';
import type { Entrant, RoundRecord } from '../src/leagues/results.ts';
import { nextUint32, seedRng } from '../src/engine/rng.ts';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;

/** A float in [0, 1) from the engine's seeded RNG, so failures reproduce. */
function rng(seed: number): () => number {
  const state = seedRng(`leagues-${seed}`);
  return () => nextUint32(state) / 4294967296;
}

/** Wall and CPU milliseconds of `fn`, over `runs` runs. */
function measure(runs: number, fn: () => void): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall, cpu };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (range ${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

/** A league of n players after `rounds` Swiss rounds with random results. */
function league(n: number, rounds: number, seed: number, options: SwissOptions = {}) {
  const rand = rng(seed);
  const entrants: Entrant[] = Array.from({ length: n }, (_, i) => ({ id: `p${i + 1}`, seed: i + 1 }));
  const records: RoundRecord[] = [];
  for (let round = 1; round <= rounds; round++) {
    const r = pairSwissRound(swissPlayers(entrants, records), options);
    for (const x of r.pairings) {
      const u = rand();
      records.push({ kind: 'game', round, first: x.first, second: x.second, result: u < 0.45 ? 'first' : u < 0.9 ? 'second' : 'draw' });
    }
    if (r.bye) records.push({ kind: 'bye', round, player: r.bye, points: 'full', allocated: true });
  }
  return { entrants, records };
}

function benchPairing(n: number, before: number, options: SwissOptions, label: string, runs = RUNS) {
  const { entrants, records } = league(n, before, n, options);
  const players = swissPlayers(entrants, records);
  let pairs = 0;
  const m = measure(runs, () => {
    pairs = pairSwissRound(players, options).pairings.length;
  });
  console.log(`Swiss ${n} players, round ${before + 1}, ${label}: wall ${fmt(m.wall)}, CPU ${fmt(m.cpu)} [${pairs} pairings]`);
}

console.log(`Node ${process.version}, ${RUNS} runs each\n`);

for (const before of [0, 3, 6]) benchPairing(256, before, { mode: 'brackets' }, 'score-group brackets');
benchPairing(256, 3, { mode: 'global' }, 'one global matching', Math.min(RUNS, 3));
for (const before of [0, 3, 6, 9]) benchPairing(1024, before, { mode: 'brackets' }, 'score-group brackets');

{
  const { entrants, records } = league(1024, 10, 7);
  let top = '';
  const m = measure(RUNS, () => {
    top = computeStandings(entrants, records, {
      tieBreaks: ['direct-encounter', 'buchholz-cut1', 'buchholz', 'median-buchholz', 'sonneborn-berger', 'wins', 'harder-side-wins', 'progressive'],
    }).standings[0].id;
  });
  console.log(`\nStandings, 1,024 players × 10 rounds (${records.length} results, 8 tie-breaks): wall ${fmt(m.wall)}, CPU ${fmt(m.cpu)} [leader ${top}]`);
}

{
  const rand = rng(3);
  const T0 = Date.UTC(2026, 0, 1);
  const pool: Rating[] = Array.from({ length: 1000 }, () => newRating(T0));
  const GAMES = 200_000;
  const m = measure(Math.min(RUNS, 3), () => {
    for (let i = 0; i < GAMES; i++) {
      const a = Math.floor(rand() * pool.length);
      let b = Math.floor(rand() * (pool.length - 1));
      if (b >= a) b++;
      const u = rand();
      const at = T0 + i * 60_000;
      [pool[a], pool[b]] = rateGame(pool[a], pool[b], u < 0.45 ? 1 : u < 0.9 ? 0 : 0.5, at);
    }
  });
  const perSec = (GAMES * 2) / (median(m.cpu) / 1000);
  console.log(`\nGlicko-2: ${GAMES.toLocaleString('en')} rated games (${(GAMES * 2).toLocaleString('en')} player updates): wall ${fmt(m.wall)}, CPU ${fmt(m.cpu)} → ${Math.round(perSec).toLocaleString('en')} player updates/s of CPU`);
}
