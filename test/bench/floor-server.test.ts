// The floor server of bench:service (scripts/bench-floor-server.ts) does the checks Herald does
// on the write path: the key, the seat, the turn, expectedVersion against the game, the action
// against the engine's legal list; a refused action commits nothing; SSE delivers each version
// with the seat's view. A floor that skipped a check would make Herald look slow for doing it.
import t from 'tap';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import http from 'node:http';
import pg from 'pg';
import { projectRoot } from '../../src/paths.ts';
import { createTestDatabase, TEST_REDIS_URL, uniquePrefix } from '../helpers/services.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

t.test('the floor server refuses what Herald refuses and commits what Herald commits', async (t) => {
  const databaseUrl = await createTestDatabase(t);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: TEST_REDIS_URL, PORT: String(port), HOST: '127.0.0.1', BUS_PREFIX: uniquePrefix() };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-floor-server.ts'], { cwd: projectRoot, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((r) => child.on('close', r));
  t.teardown(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 1200) throw new Error('the floor server was not ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  const call = async (method: string, path: string, key: string | null, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, json: (await res.json()) as any };
  };
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  const actionRows = async () => Number((await db.query(`SELECT count(*)::int AS n FROM actions WHERE kind = 'action'`)).rows[0].n);

  const york = (await call('POST', '/players', null, { name: 'york', isBot: true })).json.key.key as string;
  const lancaster = (await call('POST', '/players', null, { name: 'lancaster', isBot: true })).json.key.key as string;
  const created = await call('POST', '/games', york, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] });
  t.equal(created.status, 201);
  const id = created.json.id as string;
  const joined = await call('POST', `/games/${id}/join`, lancaster, {});
  t.equal(joined.json.status, 'active');
  t.equal(joined.json.version, 2, 'join and start: two versions');

  // The York seat's stream: the current version first, then every new one with York's view.
  const events: any[] = [];
  const stream = http.get({ host: '127.0.0.1', port, path: `/games/${id}/events`, headers: { authorization: `Bearer ${york}` } }, (res) => {
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => {
      buf += c;
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (data && block.includes('event: version')) events.push(JSON.parse(data.slice(6)));
      }
    });
  });
  t.teardown(() => void stream.destroy());
  while (events.length < 1) await new Promise((r) => setTimeout(r, 20));
  t.equal(events[0].version, 2);
  t.equal(events[0].seat, 'York');

  t.equal((await call('POST', `/games/${id}/actions`, null, { action: {}, expectedVersion: 2 })).status, 401, 'no key');
  t.equal((await call('POST', `/games/${id}/actions`, 'hk_nobody', { action: {}, expectedVersion: 2 })).status, 401, 'an unknown key');
  const role = joined.json.activeRoles[0] as string;
  const key = role === 'York' ? york : lancaster;
  const legal = await call('GET', `/games/${id}/actions`, key);
  t.equal(legal.status, 200);
  t.ok(legal.json.actions.length > 0);
  t.equal(legal.json.choices.length, legal.json.actions.length, 'each legal action with its id and label');

  const illegal = await call('POST', `/games/${id}/actions`, key, { action: { type: 'no-such-action' }, expectedVersion: 2 });
  t.equal(illegal.status, 422, 'an action outside the legal list');
  const stale = await call('POST', `/games/${id}/actions`, key, { action: legal.json.actions[0], expectedVersion: 1 });
  t.equal(stale.status, 409, 'a stale expectedVersion');
  t.equal(stale.json.currentVersion, 2);
  t.equal(await actionRows(), 0, 'nothing refused was committed');

  const done = await call('POST', `/games/${id}/actions`, key, { action: legal.json.actions[0], expectedVersion: 2 });
  t.equal(done.status, 200);
  t.equal(done.json.version, 3);
  t.equal(done.json.role, role);
  t.ok(done.json.view, 'the seat view');
  t.ok(Array.isArray(done.json.legalActions));
  t.equal(done.json.game.version, 3);
  t.equal(await actionRows(), 1);
  const row = (await db.query(`SELECT g.version, a.seq, a.role, a.action FROM games g JOIN actions a ON a.game_id = g.id AND a.kind = 'action' WHERE g.id = $1`, [id])).rows[0];
  t.same(row, { version: 3, seq: 3, role, action: legal.json.actions[0] }, 'the game row and its log entry, one commit');

  const again = await call('POST', `/games/${id}/actions`, key, { action: legal.json.actions[0], expectedVersion: 2 });
  t.equal(again.status, 409, 'the same version twice: the second is a conflict');
  t.equal(await actionRows(), 1);

  while (events.length < 2) await new Promise((r) => setTimeout(r, 20));
  t.equal(events[1].version, 3);
  t.equal(events[1].role, role);
  t.ok(events[1].view, "York's view of version 3");
  t.ok(Date.parse(events[1].at) > 0, 'the commit time');
});
