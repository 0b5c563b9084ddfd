// The embedded database is one Postgres session shared by every connection to
// it (issue 13): each new connection must start as a new session would, and a
// connection that replaces a closed one at once must be served.
import t from 'tap';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/store/embedded.ts';
import { SessionPool } from '../../src/store/pool.ts';
import { tempDir } from '../helpers/services.ts';

const embedded = await startEmbeddedPostgres(await tempDir(t));
t.teardown(() => embedded.close());

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: embedded.url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  return client;
}

t.test('a connection meets nothing the previous one left in the session', async (t) => {
  const first = await connect();
  await first.query({ name: 'herald-left', text: 'SELECT 1 AS n' });
  await first.query(`SET statement_timeout = 4321`);
  await first.query('CREATE TEMP TABLE left_temp (x int)');
  await first.query('SELECT pg_advisory_lock(7)');
  await first.query('BEGIN');
  await first.query('CREATE TABLE left_in_transaction (x int)');
  await first.end(); // mid-transaction, as a client that dies would

  const next = await connect();
  t.teardown(() => next.end());
  const one = async (sql: string) => (await next.query(sql)).rows[0] as Record<string, unknown>;
  t.same((await next.query({ name: 'herald-left', text: 'SELECT 2 AS n' })).rows, [{ n: 2 }], 'the same statement name can be prepared again');
  t.same(await one('SELECT count(*)::int AS n FROM pg_prepared_statements'), { n: 1 }, 'only its own prepared statement');
  t.same(await one('SHOW statement_timeout'), { statement_timeout: '0' }, 'settings are the defaults');
  t.same(await one(`SELECT to_regclass('left_temp')::text AS t`), { t: null }, 'no temporary table');
  t.same(await one(`SELECT to_regclass('left_in_transaction')::text AS t`), { t: null }, 'the open transaction was rolled back');
  t.same(await one(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`), { n: 0 }, 'no advisory lock');
  t.same(await one('SELECT 1 AS n'), { n: 1 }, 'not inside a transaction: statements run and commit');
});

t.test('a connection replacing a closed one at once is served (no refusal while the old socket closes)', async (t) => {
  const pool = new SessionPool({ connectionString: embedded.url, max: 1, connectionTimeoutMillis: 5000 });
  pool.on('error', () => {});
  t.teardown(() => pool.end());
  for (let i = 0; i < 20; i++) {
    // A failed pool.query closes its connection; the next one connects anew at once.
    await t.rejects(pool.query('SELECT * FROM no_such_table'), { code: '42P01' });
    t.same((await pool.query({ name: 'herald-again', text: 'SELECT $1::int AS i', values: [i] })).rows, [{ i }], `round ${i}`);
  }
});
