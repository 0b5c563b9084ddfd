/**
 * Webhooks benchmark on real Postgres and Redis:
 *
 *   npm run bench:webhooks [-- --endpoints 100 --slow 10 --slow-ms 1000 --messages 50 --runs 3 --seconds 15 --games 8]
 *
 * 1. Fan-out. Starts the server as its own process (`src/main.ts`, as `npm start` does) on a
 *    fresh database (dropped at the end); this process runs `--endpoints` receivers (one HTTP
 *    server, a path each), `--slow` of which answer after `--slow-ms`, the others at once (204).
 *    Each receiver is a player's endpoint (your_turn). A burst of events is committed to the
 *    outbox in one transaction — `--messages` per endpoint, spread over 5 games each (so the
 *    per-game order applies), as a league round or a busy minute would — and the server's
 *    delivery job sends them. Prints deliveries per second (all; the answering endpoints'),
 *    delivery latency p50/p95/p99 from the commit (answering and slow endpoints apart), and the
 *    CPU time the server and Postgres used per delivery (from /proc) from the commit until the
 *    last delivery.
 * 2. The write path with webhooks on vs off: runs `bench:service --webhooks 1` and `--webhooks 0`
 *    alternately (`--runs` each, `--seconds` long, `--games` bots, no SSE watchers, no pgbench)
 *    and prints the server's and Postgres's CPU per persisted action, medians and ranges, and the
 *    ratio of the medians. With webhooks on, every player has an endpoint (a receiver in the bench
 *    process): the server's CPU then includes writing the outbox and signing and sending every
 *    delivery. Other work on the machine adds noise: compare the ratios, not the absolutes.
 *
 * Addresses: BENCH_DATABASE_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres),
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { admin, cpuSeconds, dbUrl, freePort, median, percentile, postgresCpu, serverEnv } from './bench-common.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const ENDPOINTS = arg('endpoints', 100);
const SLOW = arg('slow', 10);
const SLOW_MS = arg('slow-ms', 1000);
const MESSAGES = arg('messages', 50);
const RUNS = arg('runs', 3);
const SECONDS = arg('seconds', 15);
const GAMES = arg('games', 8);
const FANOUT = arg('fanout', 1) !== 0;
const WRITE_PATH = arg('write-path', 1) !== 0;

function spread(name: string, values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  return `${name}: p50 ${percentile(s, 50).toFixed(0)} ms, p95 ${percentile(s, 95).toFixed(0)} ms, p99 ${percentile(s, 99).toFixed(0)} ms, max ${(s[s.length - 1] ?? NaN).toFixed(0)} ms (n=${s.length})`;
}

function postgresCpuSince(before: Map<number, number>): number {
  const now = postgresCpu();
  if (now.size === 0) return NaN;
  let total = 0;
  for (const [pid, s] of now) total += s - (before.get(pid) ?? 0);
  return total;
}

// ─── 1. Fan-out ─────────────────────────────────────────────────────────────

async function fanout(): Promise<void> {
  const dbName = `herald_bench_wh_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${dbName}`);
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: serverEnv(dbName, port, { HERALD_WEBHOOK_ALLOW_PRIVATE: '1' }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const serverExited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const call = (method: string, path: string, key: string | null, body?: unknown): Promise<{ status: number; json: any }> => {
    const payload = body === undefined ? null : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1', port, method, path, agent,
          headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(payload !== null ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, json: text && String(res.headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : text || null });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload !== null) req.write(payload);
      req.end();
    });
  };

  // The receivers: /hook/<i>; the first SLOW answer after SLOW_MS. First arrival of each webhook-id counts.
  let committedAt = 0;
  const seen = new Set<string>();
  const fastLatency: number[] = [];
  const slowLatency: number[] = [];
  let lastFast = 0;
  let lastAny = 0;
  let duplicates = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const i = Number(/\/hook\/(\d+)/.exec(req.url ?? '')?.[1] ?? -1);
      const slow = i < SLOW;
      const answer = () => {
        const id = String(req.headers['webhook-id']);
        if (seen.has(id)) duplicates++;
        else if (committedAt > 0) {
          seen.add(id);
          // Counted when the answer goes: that is when the server can record the delivery.
          const at = performance.now();
          (slow ? slowLatency : fastLatency).push(at - committedAt);
          lastAny = at;
          if (!slow) lastFast = at;
        }
        res.writeHead(204).end();
      };
      if (slow) setTimeout(answer, SLOW_MS);
      else answer();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;

  try {
    for (let i = 0; ; i++) {
      const code = await Promise.race([serverExited, new Promise<'wait'>((r) => setTimeout(() => r('wait'), 100))]);
      if (code !== 'wait') throw new Error(`the server exited (${code}) before it was ready`);
      if (await call('GET', '/readyz', null).then((r) => r.status === 200, () => false)) break;
      if (i > 600) throw new Error('the server was not ready after 60 s');
    }
    const endpoints: { endpointId: string }[] = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      const p = (await call('POST', '/players', null, { name: `hook-${i}`, isBot: true })).json;
      const r = await call('POST', '/webhooks', p.key.key, { url: `${base}/${i}`, events: ['your_turn'] });
      if (r.status !== 201) throw new Error(`webhook registration: ${r.status} ${JSON.stringify(r.json)}`);
      endpoints.push({ endpointId: r.json.webhook.id });
    }
    const total = ENDPOINTS * MESSAGES;
    const db = new pg.Client({ connectionString: dbUrl(dbName) });
    await db.connect();
    const cpu0 = { server: cpuSeconds(server.pid!), pg: postgresCpu() };
    const t0 = performance.now();
    // The burst: one transaction, MESSAGES per endpoint over 5 games each.
    await db.query(
      `INSERT INTO webhook_messages (id, endpoint_id, event_type, payload, game_id)
       SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, 'your_turn',
         jsonb_build_object('type', 'your_turn', 'timestamp', now(), 'data', jsonb_build_object('gameId', g.game, 'version', n, 'role', 'York', 'status', 'active',
           'links', jsonb_build_object('game', '/games/' || g.game), 'player', jsonb_build_object('id', e.owner_id, 'name', 'hook'))),
         g.game
       FROM unnest($1::uuid[]) AS e0(id) JOIN webhook_endpoints e ON e.id = e0.id
       CROSS JOIN generate_series(1, $2::int) AS n
       CROSS JOIN LATERAL (SELECT md5(e.id::text || (n % 5)::text)::uuid AS game) g
       ORDER BY n, e.id`,
      [endpoints.map((e) => e.endpointId), MESSAGES],
    );
    committedAt = performance.now();
    const commitMs = committedAt - t0;
    const until = Date.now() + 600_000;
    while (seen.size < total && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    // Wait for the last outcomes to be recorded (what the server's and Postgres's CPU includes).
    for (let i = 0; i < 100; i++) {
      const left = Number((await db.query(`SELECT count(*)::int AS n FROM webhook_messages WHERE status <> 'delivered'`)).rows[0].n);
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const cpu = { server: cpuSeconds(server.pid!) - cpu0.server, pg: postgresCpuSince(cpu0.pg) };
    await db.end();
    const fast = (ENDPOINTS - Math.min(SLOW, ENDPOINTS)) * MESSAGES;
    const allS = (lastAny - committedAt) / 1000;
    const fastS = (lastFast - committedAt) / 1000;
    console.log(`bench:webhooks fan-out — ${ENDPOINTS} endpoints (${SLOW} answer after ${SLOW_MS} ms), a burst of ${total} messages (${MESSAGES} per endpoint over 5 games each) committed in ${commitMs.toFixed(0)} ms, ${os.cpus().length} CPUs`);
    console.log(`  delivered ${seen.size}/${total} in ${allS.toFixed(1)} s: ${(seen.size / allS).toFixed(0)} deliveries/s overall; the ${ENDPOINTS - SLOW} answering endpoints' ${fastLatency.length}/${fast} in ${fastS.toFixed(1)} s: ${(fastLatency.length / fastS).toFixed(0)} deliveries/s; duplicates ${duplicates}`);
    console.log(`  ${spread('commit → answering endpoint', fastLatency)}`);
    if (SLOW > 0) console.log(`  ${spread(`commit → slow endpoint (${SLOW_MS} ms)`, slowLatency)}`);
    const per = (s: number) => `${((s / seen.size) * 1e6).toFixed(0)} µs/delivery`;
    console.log(`  CPU from the commit to the last record: server ${cpu.server.toFixed(2)} s (${per(cpu.server)}), postgres ${cpu.pg.toFixed(2)} s (${per(cpu.pg)})`);
  } finally {
    agent.destroy();
    receiver.closeAllConnections();
    receiver.close();
    server.kill('SIGTERM');
    await Promise.race([serverExited, new Promise((r) => setTimeout(r, 10_000))]);
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

// ─── 2. The write path, webhooks on vs off ─────────────────────────────────

interface ServiceRun {
  server: number;
  pg: number;
  actions: number;
  hooksPerAction: number;
}

function serviceRun(webhooks: boolean): ServiceRun {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/bench-service.ts', '--webhooks', webhooks ? '1' : '0', '--seconds', String(SECONDS), '--games', String(GAMES), '--watch', '0', '--pgbench-seconds', '0'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const cpu = /server [\d.]+ s \((\d+) µs\/action\).*postgres [\d.]+ s \((\d+) µs\/action\)/.exec(out);
  const actions = /persisted actions: (\d+)/.exec(out);
  const hooks = /\(([\d.]+) per action\)/.exec(out);
  if (!cpu || !actions) throw new Error(`bench:service printed no CPU figures:\n${out}`);
  const latency = /commit → webhook receiver: (.*)/.exec(out)?.[1];
  console.log(`  webhooks ${webhooks ? 'on ' : 'off'}: ${actions[1]} actions, server ${cpu[1]} µs/action, postgres ${cpu[2]} µs/action${hooks ? `, ${hooks[1]} deliveries/action` : ''}${latency ? `, commit → receiver ${latency}` : ''}`);
  return { server: Number(cpu[1]), pg: Number(cpu[2]), actions: Number(actions[1]), hooksPerAction: hooks ? Number(hooks[1]) : 0 };
}

function writePath(): void {
  console.log(`bench:webhooks write path — bench:service ${GAMES} bot games, ${SECONDS} s per run, webhooks on and off alternated, ${RUNS} runs each`);
  const on: ServiceRun[] = [];
  const off: ServiceRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    on.push(serviceRun(true));
    off.push(serviceRun(false));
  }
  const show = (name: string, f: (r: ServiceRun) => number): void => {
    const a = on.map(f);
    const b = off.map(f);
    const ratio = median(a) / median(b);
    console.log(`  ${name}: on median ${median(a).toFixed(0)} (${Math.min(...a)}–${Math.max(...a)}), off median ${median(b).toFixed(0)} (${Math.min(...b)}–${Math.max(...b)}) µs/action: ${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}% with webhooks`);
  };
  show('server CPU', (r) => r.server);
  show('postgres CPU', (r) => r.pg);
}

if (FANOUT) await fanout();
if (WRITE_PATH) writePath();
