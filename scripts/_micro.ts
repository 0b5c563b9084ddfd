// Temporary: Postgres backend CPU per commit statement, with vs without the outbox CTE (events []).
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openStore } from '../src/store/store.ts';
import { commitGroup } from '../src/store/games.ts';
const admin = new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
await admin.query('DROP DATABASE IF EXISTS fanout_micro WITH (FORCE)');
await admin.query('CREATE DATABASE fanout_micro');
const store = await openStore({ databaseUrl: 'postgresql://postgres@127.0.0.1:5432/fanout_micro', dataDir: '/nonexistent' } as never, { info: () => {} } as never);
const games: string[] = [];
for (let i = 0; i < 50; i++) games.push((await store.prisma.game.create({ data: { gameType: 'richard-iii', scenario: 'richard-iii', status: 'active', activeRoles: ['York'] } })).id);
const player = await store.prisma.player.create({ data: { name: 'p' } });
const versions = new Map(games.map((g) => [g, 0]));
// Capture the two statement texts.
let hooksText = '';
let plainText = '';
const client = await store.pool.connect();
const orig = client.query.bind(client);
(client as any).query = (c: any, v?: any) => {
  if (c?.name === 'herald-commit-hooks') hooksText = c.text;
  if (c?.name === 'herald-commit') plainText = c.text;
  return orig(c, v);
};
const one = { query: (c: any, v?: any) => (client as any).query(c, v) } as never;
const change = (g: string, webhooks: unknown[]) => ({
  gameId: g, expectedVersion: versions.get(g)!, expectedClockRev: 0, at: new Date(),
  game: { status: 'active' as const, state: { n: 1 }, activeRoles: ['York'] },
  entries: [{ kind: 'action', role: 'York', playerId: null, action: { type: 'move' }, log: { from: 0, entries: [] }, status: 'active' as const, activeRoles: ['Lancaster'] }],
  webhooks: webhooks as never,
});
const group = commitGroup(one);
const ev = (g: string) => [{ ord: 0, type: 'your_turn', player_id: player.id, game_id: g, payload: { type: 'your_turn', data: {} } }];
await group.commit(change(games[0]!, ev(games[0]!))); versions.set(games[0]!, 1);
await group.commit(change(games[0]!, [])); versions.set(games[0]!, 2);
const pid = (await orig('SELECT pg_backend_pid() AS p')).rows[0].p as number;
const cpu = () => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
async function run(kind: 'plain' | 'cte-empty' | 'events-no-endpoint', n: number): Promise<number> {
  const c0 = cpu();
  for (let i = 0; i < n; i++) {
    const g = games[i % games.length]!;
    const c = change(g, kind === 'events-no-endpoint' ? ev(g) : []);
    if (kind === 'cte-empty') {
      // The statement as before this change: the outbox CTE with an empty list.
      const text = hooksText;
      const vals = [c.expectedVersion + 1, 'active', true, JSON.stringify(c.game.state), false, null, true, c.game.activeRoles, g, c.expectedVersion,
        JSON.stringify([{ seq: c.expectedVersion + 1, kind: 'action', role: 'York', player_id: null, action: {}, log: {}, idempotency_key: null, status: 'active', active_roles: ['Lancaster'] }]),
        false, null, null, null, null, c.at, false, null, null, null, 0, '[]'];
      const r = await orig({ name: 'old-commit', text, values: vals });
      if (r.rows[0].updated !== 1) throw new Error('conflict');
    } else await group.commit(c);
    versions.set(g, c.expectedVersion + 1);
  }
  return ((cpu() - c0) / n) * 1e6;
}
const N = Number(process.argv[2] ?? 2000);
const res: Record<string, number[]> = { plain: [], 'cte-empty': [], 'events-no-endpoint': [] };
for (let r = 0; r < 5; r++) for (const k of ['plain', 'cte-empty', 'events-no-endpoint'] as const) res[k].push(await run(k, N));
for (const [k, v] of Object.entries(res)) { const s = [...v].sort((a, b) => a - b); console.log(`${k}: median ${s[2]!.toFixed(0)} µs Postgres CPU per commit (${s[0]!.toFixed(0)}–${s[4]!.toFixed(0)})`); }
client.release();
await store.close();
await admin.query('DROP DATABASE IF EXISTS fanout_micro WITH (FORCE)');
await admin.end();
