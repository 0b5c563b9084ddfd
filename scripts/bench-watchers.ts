/**
 * Spectators: what each extra SSE watcher of a game costs the server.
 *
 *   npm run bench:watchers [-- --levels 1,10,100,1000 --actions 60 --rate 15 --runs 3]
 *
 * Starts the server as its own process (`src/main.ts`, as `npm start` does) on a fresh
 * database herald_bench_<random> (dropped at the end) and the machine's Redis. For each mode
 * (`seat`: N streams of York's seat view with York's key; `spectator`: N anonymous streams of
 * the spectator view) and each level N, it creates a game, opens N streams of
 * GET /games/{id}/events, waits until every stream has its first version, then plays
 * `--actions` random legal actions at a steady `--rate` per second and waits until every stream
 * has every version. Measured over that window: the server's CPU (user + system, from
 * /proc/<pid>/stat) per version event, and commit → delivery (each version event carries its
 * commit time `at`; the time a stream read the end of that event) over every stream.
 *
 * The watchers are cheap on this side: the first stream is an ordinary HTTP client that parses
 * every event; the others are raw sockets that only note when an event ends (a blank line),
 * since every stream of the same view receives the same events in the same order (the
 * heartbeat, which would differ, is set to an hour). Runs repeat `--runs` times; the table
 * shows medians and ranges, and the CPU per event per extra watcher is the slope of the server's
 * CPU per event between levels (and the least-squares slope over all levels).
 *
 * Addresses: BENCH_DATABASE_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres),
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { admin, cpuSeconds, freePort, median, percentile as pct, serverEnv } from './bench-common.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const LEVELS = arg('levels', '1,10,100,1000').split(',').map(Number);
const ACTIONS = Number(arg('actions', '60'));
const RATE = Number(arg('rate', '15'));
const RUNS = Number(arg('runs', '3'));
const MODES = arg('modes', 'seat,spectator').split(',') as Array<'seat' | 'spectator'>;


const dbName = `herald_bench_${randomBytes(4).toString('hex')}`;
await admin(`CREATE DATABASE ${dbName}`);
const port = await freePort();
const serverArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const server = spawn(process.execPath, [...serverArgs, '--import', 'tsx', 'src/main.ts'], {
  env: serverEnv(dbName, port, { SSE_HEARTBEAT_SECONDS: '3600' }),
  stdio: ['ignore', 'inherit', 'inherit'],
});
const serverExited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function call(method: string, path: string, key: string | null, body?: unknown): Promise<{ status: number; json: any }> {
  const payload = body === undefined ? null : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1', port, method, path, agent,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(payload !== null ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, json: text && String(res.headers['content-type']).includes('json') ? JSON.parse(text) : text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== null) req.write(payload);
    req.end();
  });
}

/** The fully parsed stream: per event (blank-line terminated block, in order), its kind, version and commit time. */
interface Reader {
  blocks: Array<{ kind: string; version: number | null; at: number | null; t: number }>;
  close(): void;
}

function reader(path: string, key: string | null): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, headers: { accept: 'text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}) } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
      const r: Reader = { blocks: [], close: () => req.destroy() };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const t = Date.now();
        buffer += chunk;
        let i;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const kind = /^event: (.*)$/m.exec(block)?.[1] ?? (block.startsWith('retry') ? 'retry' : 'comment');
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          const parsed = data && kind === 'version' ? (JSON.parse(data.slice(6)) as { version: number; at?: string }) : null;
          r.blocks.push({ kind, version: parsed?.version ?? null, at: parsed?.at ? Date.parse(parsed.at) : null, t });
        }
      });
      res.on('error', () => {});
      resolve(r);
    });
    req.on('error', reject);
  });
}

/** A cheap stream: a raw socket noting the time each blank-line terminated block ended. */
interface Counter {
  ends: number[];
  close(): void;
}

function counter(path: string, key: string | null): Counter {
  const c: Counter = { ends: [], close: () => socket.destroy() };
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\n${key ? `authorization: Bearer ${key}\r\n` : ''}\r\n`);
  let lastNl = false;
  socket.on('data', (b: Buffer) => {
    const t = Date.now();
    // "\n\n" ends an event (HTTP headers end with \r\n\r\n; chunk framing adds \r\n only).
    if (lastNl && b[0] === 10) c.ends.push(t);
    let i = -1;
    while ((i = b.indexOf('\n\n', i + 1)) >= 0) c.ends.push(t);
    lastNl = b[b.length - 1] === 10;
  });
  socket.on('error', () => {});
  return c;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Result {
  mode: string;
  n: number;
  events: number;
  serverUsPerEvent: number;
  clientUsPerEvent: number;
  p50: number;
  p99: number;
}

async function level(mode: 'seat' | 'spectator', n: number, keys: Record<string, string>): Promise<Result> {
  const id = (await call('POST', '/games', keys.York!, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json.id as string;
  const joined = (await call('POST', `/games/${id}/join`, keys.Lancaster!, {})).json;
  const path = `/games/${id}/events`;
  const watchKey = mode === 'seat' ? keys.York! : null;
  const first = await reader(path, watchKey);
  const others: Counter[] = [];
  for (let i = 1; i < n; i++) {
    others.push(counter(path, watchKey));
    if (i % 100 === 0) await sleep(20);
  }
  // Every stream has `retry` and its first version event.
  for (let i = 0; first.blocks.length < 2 || others.some((o) => o.ends.length < 2); i++) {
    if (i > 600) throw new Error(`${mode} ${n}: the streams did not start`);
    await sleep(50);
  }
  const startBlocks = first.blocks.length;
  await sleep(300);
  const cpu0 = cpuSeconds(server.pid!);
  const client0 = process.cpuUsage();
  let version: number = joined.version;
  let active: string[] = joined.activeRoles;
  const legal = new Map<string, { version: number; actions: unknown[] }>();
  const t0 = performance.now();
  let played = 0;
  for (; played < ACTIONS; played++) {
    const due = t0 + (played * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const role = active[Math.floor(Math.random() * active.length)]!;
    let known = legal.get(role);
    if (!known || known.version !== version) {
      const r = (await call('GET', `/games/${id}/actions`, keys[role]!)).json;
      known = { version: r.version, actions: r.actions };
    }
    const action = known.actions[Math.floor(Math.random() * known.actions.length)];
    const r = await call('POST', `/games/${id}/actions`, keys[role]!, { action, expectedVersion: version });
    if (r.status !== 200) throw new Error(`action failed: ${r.status} ${JSON.stringify(r.json)}`);
    version = r.json.version;
    active = r.json.game.activeRoles;
    legal.set(role, { version, actions: r.json.legalActions });
    if (r.json.game.status !== 'active') break;
  }
  // Until every stream has every version (or 20 s).
  const lastBlock = () => {
    for (let k = first.blocks.length - 1; k >= 0; k--) if (first.blocks[k]!.version === version) return k;
    return -1;
  };
  for (let i = 0; lastBlock() < 0 || others.some((o) => o.ends.length <= lastBlock()); i++) {
    if (i > 400) throw new Error(`${mode} ${n}: not every stream got version ${version}`);
    await sleep(50);
  }
  const cpu = cpuSeconds(server.pid!) - cpu0;
  const cu = process.cpuUsage(client0);
  const lat: number[] = [];
  let events = 0;
  for (let k = startBlocks; k <= lastBlock(); k++) {
    const b = first.blocks[k]!;
    if (b.kind !== 'version' || b.at === null) continue;
    events++;
    lat.push(b.t - b.at);
    for (const o of others) lat.push(o.ends[k]! - b.at);
  }
  first.close();
  for (const o of others) o.close();
  await sleep(500 + n); // the server closes the streams outside the window
  lat.sort((a, b) => a - b);
  return { mode, n, events, serverUsPerEvent: (cpu / events) * 1e6, clientUsPerEvent: (((cu.user + cu.system) / 1e6) / events) * 1e6, p50: pct(lat, 50), p99: pct(lat, 99) };
}

try {
  for (let i = 0; ; i++) {
    const code = await Promise.race([serverExited, sleep(100).then(() => 'wait' as const)]);
    if (code !== 'wait') throw new Error(`the server exited (${code}) before it was ready`);
    if (await call('GET', '/readyz', null).then((r) => r.status === 200, () => false)) break;
    if (i > 600) throw new Error('the server was not ready after 60 s');
  }
  const signup = async (name: string) => (await call('POST', '/players', null, { name, isBot: true })).json.key.key as string;
  const keys = { York: await signup('york'), Lancaster: await signup('lancaster') };
  await level('seat', 1, keys); // warm-up (JIT, caches, connections)
  const results: Result[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const mode of MODES) {
      for (const n of run % 2 ? [...LEVELS].reverse() : LEVELS) {
        const r = await level(mode, n, keys);
        results.push(r);
        console.error(`  run ${run + 1} ${mode} N=${n}: ${r.events} events, server ${r.serverUsPerEvent.toFixed(0)} µs/event, client ${r.clientUsPerEvent.toFixed(0)} µs/event, delivery p50 ${r.p50} ms p99 ${r.p99} ms`);
      }
    }
  }
  console.log(`bench:watchers — ${ACTIONS} actions at ${RATE}/s per level, ${RUNS} runs, ${os.cpus().length} CPUs, server in its own process (medians, ranges in brackets)`);
  console.log('');
  console.log('| view | watchers | server CPU per event | bench client CPU per event | delivery p50 | delivery p99 |');
  console.log('|---|---|---|---|---|---|');
  const fmt = (xs: number[], d = 0) => `${median(xs).toFixed(d)} [${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)}]`;
  const slopes: string[] = [];
  for (const mode of MODES) {
    const per = new Map<number, number>();
    for (const n of LEVELS) {
      const rs = results.filter((r) => r.mode === mode && r.n === n);
      per.set(n, median(rs.map((r) => r.serverUsPerEvent)));
      console.log(`| ${mode} | ${n} | ${fmt(rs.map((r) => r.serverUsPerEvent))} µs | ${fmt(rs.map((r) => r.clientUsPerEvent))} µs | ${fmt(rs.map((r) => r.p50))} ms | ${fmt(rs.map((r) => r.p99))} ms |`);
    }
    const pairs: string[] = [];
    for (let i = 1; i < LEVELS.length; i++) {
      const a = LEVELS[i - 1]!;
      const b = LEVELS[i]!;
      pairs.push(`${a}→${b}: ${((per.get(b)! - per.get(a)!) / (b - a)).toFixed(1)} µs`);
    }
    // Least squares over every run's point.
    const pts = results.filter((r) => r.mode === mode).map((r) => [r.n, r.serverUsPerEvent] as const);
    const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
    const my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
    const slope = pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
    slopes.push(`${mode}: server CPU per event per extra watcher ${slope.toFixed(1)} µs (least squares over all runs); between levels ${pairs.join(', ')}`);
  }
  console.log('');
  for (const s of slopes) console.log(s);
} finally {
  agent.destroy();
  server.kill('SIGTERM');
  await Promise.race([serverExited, sleep(10_000)]);
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
}
process.exit(0);
