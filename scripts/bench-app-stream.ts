/**
 * An application's stream (GET /apps/me/events) at a size a chat bot reaches: P players of one
 * application, paired in P/2 games, each started and played M random moves, on real Postgres and
 * Redis over real sockets. Prints: the time to open a stream and receive the present turns (one
 * your_turn per player whose turn it is), the time to replay every turn of every game from a
 * cursor that names none of them, the length of the stream's id, and the latency of a live
 * your_turn (a move committed → its notice read by the client), median of 20. Figures, not a test.
 *
 *   npx tsx scripts/bench-app-stream.ts [-- --players 200 --moves 4]
 */
import http from 'node:http';
import { buildApp } from '../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../test/helpers/services.ts';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const PLAYERS = arg('players', 200);
const MOVES = arg('moves', 4);
const ADMIN = 'bench-app-stream-operator-token';

const cleanups: Array<() => unknown> = [];
const { store, databaseUrl } = await openTestStore({ teardown: (fn) => void cleanups.push(fn) });
const app = await buildApp(testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, adminToken: ADMIN }), { store });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;

async function req(key: string, method: string, url: string, payload?: object, actAs?: string) {
  const res = await app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${key}`, ...(actAs ? { 'x-act-as': actAs } : {}) }, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const created = await req(ADMIN, 'POST', '/admin/apps', { name: 'bench-bot' });
const key = created.key.key as string;
const players: string[] = [];
for (let i = 0; i < PLAYERS; i++) players.push((await req(key, 'POST', '/players', { name: `p${i}`, externalId: `bench:${i}` })).player.id);
const games: { id: string; seats: Record<string, string> }[] = [];
let seed = 1;
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
async function move(g: { id: string; seats: Record<string, string> }): Promise<number> {
  const s = await req(key, 'GET', `/games/${g.id}`, undefined, g.seats.York);
  const role = s.activeRoles[rand(s.activeRoles.length)] as string;
  const actions = (await req(key, 'GET', `/games/${g.id}/actions`, undefined, g.seats[role])).actions as unknown[];
  return (await req(key, 'POST', `/games/${g.id}/actions`, { action: actions[rand(actions.length)] }, g.seats[role])).version as number;
}
for (let i = 0; i + 1 < PLAYERS; i += 2) {
  const g = await req(key, 'POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: `bench-${i}`, roles: ['York'] }, players[i]);
  await req(key, 'POST', `/games/${g.id}/join`, {}, players[i + 1]);
  const game = { id: g.id as string, seats: { York: players[i]!, Lancaster: players[i + 1]! } };
  games.push(game);
  for (let m = 0; m < MOVES; m++) await move(game);
}

/** Turns owed after `after` in every game (per version, each seated player holding an active role). */
async function owedCount(after: number): Promise<number> {
  let n = 0;
  for (const g of games) {
    for (const e of await app.gameService.listEventsSince(g.id, after, 1000)) {
      if (e.status === 'active') n += new Set(e.activeRoles.map((r) => g.seats[r])).size;
    }
  }
  return n;
}

interface Stream {
  ids: string[];
  times: number[];
  close(): void;
  until(n: number): Promise<void>;
}
function open(headers: Record<string, string>): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const r = http.get(`http://127.0.0.1:${port}/apps/me/events`, { agent: false, headers: { authorization: `Bearer ${key}`, ...headers } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
      const s: Stream = { ids: [], times: [], close: () => res.destroy(), until: async () => {} };
      let buf = '';
      let wake = () => {};
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          if (block.includes('event: your_turn')) {
            s.ids.push(/^id: (.*)$/m.exec(block)![1]!);
            s.times.push(performance.now());
          }
        }
        wake();
      });
      s.until = async (n) => {
        while (s.ids.length < n) await new Promise<void>((w) => (wake = w));
      };
      resolve(s);
    });
    r.on('error', reject);
  });
}

// The present: one your_turn per player whose turn it is now.
let nowTurns = 0;
for (const g of games) {
  const s = await req(key, 'GET', `/games/${g.id}`, undefined, g.seats.York);
  if (s.status === 'active') nowTurns += new Set((s.activeRoles as string[]).map((r) => g.seats[r])).size;
}
let t0 = performance.now();
const fresh = await open({});
await fresh.until(nowTurns);
const presentMs = performance.now() - t0;
const lastId = fresh.ids.at(-1)!;

// Full replay: a cursor naming one game before its start (so every game is read from its beginning).
const all = await owedCount(0);
t0 = performance.now();
const replay = await open({ 'last-event-id': `${games[0]!.id}@0` });
await replay.until(all);
const replayMs = performance.now() - t0;
replay.close();

// Live latency: a move, then its notice on the open stream.
const lat: number[] = [];
for (let i = 0; i < 20; i++) {
  const g = games[i % games.length]!;
  const before = fresh.ids.length;
  const start = performance.now();
  await move(g);
  const s = await req(key, 'GET', `/games/${g.id}`, undefined, g.seats.York);
  const expect = s.status === 'active' ? new Set((s.activeRoles as string[]).map((r) => g.seats[r])).size : 0;
  if (expect === 0) continue;
  await fresh.until(before + expect);
  lat.push(fresh.times[before + expect - 1]! - start);
}
fresh.close();
lat.sort((x, y) => x - y);

console.log(`players ${PLAYERS}, games ${games.length}, moves per game ${MOVES}`);
console.log(`present turns: ${nowTurns} notices in ${presentMs.toFixed(0)} ms (connect, subscribe to ${PLAYERS} player channels, read players and games)`);
console.log(`full replay: ${all} notices in ${replayMs.toFixed(0)} ms`);
console.log(`id length: ${lastId.length} bytes for ${games.length} games`);
console.log(`live your_turn latency (move request → notice read, includes the move's own requests): median ${lat[Math.floor(lat.length / 2)]?.toFixed(1)} ms, max ${lat.at(-1)?.toFixed(1)} ms over ${lat.length}`);
await app.close();
for (const fn of cleanups.reverse()) await fn();
process.exit(0);
