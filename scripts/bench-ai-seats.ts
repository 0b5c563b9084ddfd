/**
 * `npx tsx scripts/bench-ai-seats.ts [games per level]`: what an AI seat costs the server.
 * AI-against-AI games of Richard III (scenario richard-iii) through the app in this process
 * (fresh database on BENCH_DATABASE_ADMIN_URL's server, the in-process bus, one AI worker),
 * alternating random-vs-random and easy-vs-random games. Per game, from /proc: the CPU of the
 * main thread (the event loop that answers requests: the AI job's reads, the commit, events)
 * and of the whole process (the rest is mostly the worker thread's search), divided by the
 * AI moves made. Prints medians and ranges per level.
 */
import { readFileSync } from 'node:fs';
import { buildApp } from '../src/http/app.ts';
import { loadConfig } from '../src/config.ts';
import { admin, dbUrl, median } from './bench-common.ts';

const ticks = (path: string): number => {
  const f = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10; // ms (100 Hz ticks)
};
const mainMs = () => ticks(`/proc/self/task/${process.pid}/stat`);
const processMs = () => ticks('/proc/self/stat');

const perLevel = Number(process.argv[2] ?? 3);
const name = `herald_bench_ai_${process.pid}`;
await admin(`CREATE DATABASE ${name}`);
const app = await buildApp({ ...loadConfig({ LOG_LEVEL: 'silent', HERALD_AI_WORKERS: '1', RATE_LIMIT_MAX: '0', RATE_LIMIT_ANONYMOUS_MAX: '0' }), databaseUrl: dbUrl(name) }, { aiSweepMs: 200 });
try {
  const signup = await app.inject({ method: 'POST', url: '/players', payload: { name: 'bench' } });
  const key = signup.json().key.key as string;
  const results: Record<string, { main: number[]; total: number[]; moves: number[] }> = { random: { main: [], total: [], moves: [] }, easy: { main: [], total: [], moves: [] } };
  for (let g = 0; g < perLevel * 2; g++) {
    const level = g % 2 === 0 ? 'random' : 'easy';
    const m0 = mainMs();
    const p0 = processMs();
    const created = await app.inject({
      method: 'POST', url: '/games', headers: { authorization: `Bearer ${key}` },
      payload: { gameType: 'richard-iii', scenario: 'richard-iii', seed: `bench-${g}`, ai: { York: level, Lancaster: 'random' } },
    });
    if (created.statusCode !== 201) throw new Error(created.body);
    const id = created.json().id as string;
    for (;;) {
      const s = (await app.inject({ method: 'GET', url: `/games/${id}` })).json();
      if (s.status !== 'active') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const moves = await app.store.prisma.action.count({ where: { gameId: id, kind: 'action' } });
    const r = results[level]!;
    r.main.push((mainMs() - m0) / moves);
    r.total.push((processMs() - p0) / moves);
    r.moves.push(moves);
    console.log(`game ${g} York ${level}: ${moves} AI moves, main thread ${(mainMs() - m0)} ms, process ${(processMs() - p0)} ms`);
  }
  for (const [level, r] of Object.entries(results)) {
    const range = (xs: number[]) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
    console.log(`York ${level} vs Lancaster random: CPU ms per AI move, main thread ${range(r.main)}, whole process ${range(r.total)}; moves per game ${r.moves.join(', ')}`);
  }
} finally {
  await app.close();
  await admin(`DROP DATABASE ${name} WITH (FORCE)`);
}
