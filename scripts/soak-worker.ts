// One bot process of `npm run soak` (scripts/soak.ts forks it): plays the games
// the parent hands out, SOAK_CONCURRENCY at once, with the REST example bot
// against SOAK_BASE_URL, then scans every payload each seat received against
// the game's stored record, read straight from Postgres (SOAK_DATABASE_URL):
// the scan's reference is what was committed, not what the server says.
import pg from 'pg';
import { playRestGame } from '../examples/rest-bot.ts';
import { scanGame, type Finding } from '../examples/leak-scan/index.ts';
import { collector, seeded } from '../test/examples/harness-helpers.ts';

export type ToWorker =
  | { type: 'game'; slot: number; index: number; gameType: string; scenario: string; seed: string }
  | { type: 'none'; slot: number };

export type FromWorker =
  | { type: 'next'; slot: number }
  | { type: 'result'; index: number; scenario: string; actions: number; payloads: number; findings: Finding[] }
  | { type: 'failed'; index: number; scenario: string; seed: string; error: string }
  | { type: 'cpu'; seconds: number };

const baseUrl = process.env.SOAK_BASE_URL!;
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 4);
const pool = new pg.Pool({ connectionString: process.env.SOAK_DATABASE_URL!, max: 2 });

const send = (m: FromWorker) => process.send!(m);
const waiting = new Map<number, (m: ToWorker) => void>();
process.on('message', (m: ToWorker) => waiting.get(m.slot)?.(m));
const ask = (slot: number) =>
  new Promise<ToWorker>((resolve) => {
    waiting.set(slot, resolve);
    send({ type: 'next', slot });
  });

async function record(gameId: string) {
  const g = await pool.query('SELECT game_type, scenario, seed, options FROM games WHERE id = $1', [gameId]);
  const a = await pool.query('SELECT seq, kind, role, action FROM actions WHERE game_id = $1 ORDER BY seq', [gameId]);
  return { gameType: g.rows[0].game_type as string, scenario: g.rows[0].scenario as string, seed: g.rows[0].seed as string, options: g.rows[0].options as Record<string, unknown>, entries: a.rows };
}

async function slot(n: number): Promise<void> {
  for (;;) {
    const m = await ask(n);
    if (m.type !== 'game') return;
    try {
      const c = collector();
      const r = await playRestGame({ baseUrl, gameType: m.gameType, scenario: m.scenario, seed: m.seed, onPayload: c.hook, random: seeded(m.index + 1) });
      if (r.status !== 'finished') throw new Error(`game ${r.gameId} ended ${r.status}`);
      const s = scanGame(await record(r.gameId), c.received);
      send({ type: 'result', index: m.index, scenario: m.scenario, actions: r.actions, payloads: s.scanned, findings: s.findings.slice(0, 20) });
    } catch (err) {
      send({ type: 'failed', index: m.index, scenario: m.scenario, seed: m.seed, error: String((err as Error)?.stack ?? err) });
    }
  }
}

await Promise.all(Array.from({ length: concurrency }, (_, i) => slot(i)));
await pool.end();
const cpu = process.cpuUsage();
send({ type: 'cpu', seconds: (cpu.user + cpu.system) / 1e6 });
process.disconnect();
