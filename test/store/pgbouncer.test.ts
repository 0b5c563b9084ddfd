// Herald through PgBouncer in transaction mode (DATABASE_POOLER=transaction):
// N Herald instances share one Postgres through a pooler, and in transaction
// mode each transaction may run on another server connection.
//
// 1. The pooler really multiplexes (a control, so the rest cannot pass by
//    accident): through a pool_size=1 database entry, a statement prepared
//    under a name by one client is seen by another client, which then fails
//    to prepare it ("already exists"). Herald's SessionPool with
//    unnamedStatements runs the same sequence cleanly.
// 2. A Herald app whose DATABASE_URL is the pooler (2 server connections for
//    its 10 client ones) and whose DATABASE_DIRECT_URL is Postgres: it
//    migrates through the direct URL, then plays concurrent games through the
//    pooler (actions with version checks, idempotent replays, conflicts,
//    reads, GraphQL), and the pooler's own statistics show the traffic.
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../src/http/app.ts';
import { SessionPool } from '../../src/store/pool.ts';
import { createTestDatabase, tempDir, testConfig } from '../helpers/services.ts';
import { ADMIN_TOKEN, prng, signup, type Client } from '../http/rest-helpers.ts';

const PGBOUNCER = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer';
// CI installs it (.ci/run) and fails without it; a developer machine without it skips, and says so.
if (!existsSync(PGBOUNCER) && !process.env.CI) t.plan(0, `PgBouncer is not installed at ${PGBOUNCER} (apt-get install pgbouncer)`);
else await main();

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function main(): Promise<void> {
  const directUrl = await createTestDatabase(t);
  const dbName = new URL(directUrl).pathname.slice(1);
  const dir = await tempDir(t, 'herald-pgbouncer-');
  await chmod(dir, 0o777); // PgBouncer runs as postgres when started by root
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  await writeFile(path.join(dir, 'users.txt'), '"postgres" ""\n');
  await writeFile(
    ini,
    `[databases]
  herald = host=127.0.0.1 port=5432 dbname=${dbName} pool_size=2
  single = host=127.0.0.1 port=5432 dbname=${dbName} pool_size=1
  [pgbouncer]
  listen_addr = 127.0.0.1
  listen_port = ${port}
  unix_socket_dir =
  auth_type = trust
  auth_file = ${path.join(dir, 'users.txt')}
  pool_mode = transaction
  max_client_conn = 100
  admin_users = postgres
  ignore_startup_parameters = extra_float_digits
  `,
  );
  const asRoot = process.getuid?.() === 0;
  const bouncer = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let bouncerLog = '';
  bouncer.stderr.on('data', (d: Buffer) => (bouncerLog += d.toString()));
  t.teardown(() => {
    bouncer.kill('SIGTERM');
  });

  const pooledUrl = (db: string) => `postgresql://postgres@127.0.0.1:${port}/${db}`;
  for (let i = 0; ; i++) {
    const c = new pg.Client({ connectionString: pooledUrl('herald') });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.query('SELECT 1');
      await c.end();
      break;
    } catch (err) {
      await c.end().catch(() => {});
      if (i > 100 || bouncer.exitCode !== null) throw new Error(`PgBouncer did not start: ${String(err)}\n${bouncerLog}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  t.test('the pooler multiplexes: a named statement leaks across clients, unnamed ones do not', async (t) => {
    const runSequence = async (pool: pg.Pool): Promise<string | null> => {
      const a = await pool.connect();
      const b = await pool.connect();
      try {
        await a.query({ name: 'herald-probe', text: 'SELECT $1::int AS n', values: [1] });
        await b.query({ name: 'herald-probe', text: 'SELECT $1::int AS n', values: [2] });
        const r = await a.query({ name: 'herald-probe', text: 'SELECT $1::int AS n', values: [3] });
        return r.rows[0].n === 3 ? null : 'wrong answer';
      } catch (err) {
        return (err as Error).message;
      } finally {
        a.release(true);
        b.release(true);
      }
    };
    const plain = new pg.Pool({ connectionString: pooledUrl('single'), max: 2 });
    plain.on('error', () => {});
    const failure = await runSequence(plain);
    await plain.end();
    t.match(failure, /prepared statement "herald-probe" (already exists|does not exist)/, 'named statements break behind a transaction-mode pooler');

    const unnamed = new SessionPool({ connectionString: pooledUrl('single'), max: 2, unnamedStatements: true });
    unnamed.on('error', () => {});
    t.equal(await runSequence(unnamed), null, 'the same sequence, unnamed, runs');
    await unnamed.end();
  });

  t.test('Herald plays through the pooler', async (t) => {
    const app = await buildApp(
      testConfig({ databaseUrl: pooledUrl('herald'), databaseDirectUrl: directUrl, databasePooler: 'transaction', adminToken: ADMIN_TOKEN }),
    );
    t.teardown(() => app.close());
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    t.equal(ready.statusCode, 200, 'ready (its check is a statement the store used to name)');

    const players: Client[] = await Promise.all(['Ada', 'Bob', 'Cat', 'Dan'].map((n) => signup(app, n)));
    const games: string[] = [];
    for (let i = 0; i < 2; i++) {
      const [y, l] = [players[2 * i]!, players[2 * i + 1]!];
      const created = await y.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], seed: `pgb-${i}` });
      t.equal(created.statusCode, 201);
      const id = created.json().id as string;
      t.equal((await l.req('POST', `/games/${id}/join`, {})).statusCode, 200);
      games.push(id);
    }

    // Both games at once, each seat's moves as soon as it may move: many client connections, 2 server ones.
    const pick = prng(7);
    let actions = 0;
    let replays = 0;
    const play = async (i: number) => {
      const byRole: Record<string, Client> = { York: players[2 * i]!, Lancaster: players[2 * i + 1]! };
      for (let step = 0; step < 25; step++) {
        const g = (await byRole.York!.req('GET', `/games/${games[i]}`)).json();
        if (g.status !== 'active') break;
        const moves = await Promise.all(
          g.activeRoles.map(async (role: string) => {
            const legal = (await byRole[role]!.req('GET', `/games/${games[i]}/actions?role=${role}`)).json();
            const choice = legal.choices[pick(legal.choices.length)];
            const key = `pgb-${i}-${step}-${role}`;
            const body = { role, actionId: choice.id, expectedVersion: legal.version };
            const res = await byRole[role]!.req('POST', `/games/${games[i]}/actions`, body, { 'idempotency-key': key });
            if (res.statusCode === 200) {
              actions++;
              // The same request again: the stored answer, nothing committed twice.
              const again = await byRole[role]!.req('POST', `/games/${games[i]}/actions`, body, { 'idempotency-key': key });
              t.equal(again.statusCode, 200);
              t.equal(again.headers['idempotent-replayed'], 'true');
              t.same(again.json(), res.json(), 'the stored answer');
              replays++;
            } else {
              // Two seats acting at once: one of them may find the version moved on.
              t.equal(res.statusCode, 409, `${res.statusCode} ${res.body}`);
              t.equal(res.json().code, 'version_conflict');
            }
          }),
        );
        t.ok(moves.length > 0);
      }
    };
    await Promise.all([play(0), play(1)]);
    t.ok(actions >= 30, `${actions} actions committed through the pooler`);
    t.equal(replays, actions);

    // What was committed is what a fresh direct connection reads: versions and log agree.
    const direct = new pg.Client({ connectionString: directUrl });
    await direct.connect();
    t.teardown(() => direct.end());
    for (const id of games) {
      const { rows } = await direct.query(`SELECT g.version, (SELECT count(*)::int FROM actions a WHERE a.game_id = g.id) AS entries FROM games g WHERE g.id = $1`, [id]);
      const view = (await players[0]!.req('GET', `/games/${id}`)).json();
      t.equal(view.version, rows[0].version, 'the API reads the committed version');
      t.equal(rows[0].entries, rows[0].version, 'one entry in the action log per version');
    }

    const stale = (await players[0]!.req('POST', `/games/${games[0]}/actions`, { role: 'York', action: { type: 'nothing' }, expectedVersion: 0 })).json();
    t.equal(stale.code, 'version_conflict', 'a stale version is refused through the pooler too');

    const gql = await players[0]!.req('POST', '/graphql', { query: `{ game(id: "${games[0]}") { id version status } }` });
    t.equal(gql.json().data.game.id, games[0]);

    // The pooler's own count: the statements went through it, on at most 2 server connections.
    const admin = new pg.Client({ connectionString: pooledUrl('pgbouncer') });
    await admin.connect();
    const stats = (await admin.query('SHOW STATS')).rows.find((r) => r.database === 'herald');
    const pools = (await admin.query('SHOW POOLS')).rows.find((r) => r.database === 'herald');
    await admin.end();
    t.ok(Number(stats.total_xact_count) > actions * 3, `${stats.total_xact_count} transactions through PgBouncer`);
    t.ok(Number(pools.sv_active) + Number(pools.sv_idle) + Number(pools.sv_used) <= 2, 'on at most 2 server connections');
  });
}
