// The store's connection pool on real Postgres: a connection given back inside
// a transaction is closed, not handed to the next request; the readiness ping
// runs the key lookup (a named prepared statement on a pooled connection), so
// a connection that cannot serve it makes /readyz fail (issue 13).
import t from 'tap';
import pg from 'pg';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';

const { store, databaseUrl } = await openTestStore(t);

async function countPlayers(name: string): Promise<number> {
  const other = new pg.Client({ connectionString: databaseUrl });
  await other.connect();
  try {
    return (await other.query<{ n: number }>('SELECT count(*)::int AS n FROM players WHERE name = $1', [name])).rows[0]!.n;
  } finally {
    await other.end();
  }
}

t.test('a connection released inside a transaction is closed, not reused', async (t) => {
  const leaked = await store.pool.connect();
  await leaked.query('BEGIN');
  await leaked.query(`INSERT INTO players (id, name) VALUES (gen_random_uuid(), 'in-left-transaction')`);
  leaked.release(); // as Prisma's adapter does after a ROLLBACK that failed
  // The pool hands out its most recently released connection first.
  await store.pool.query(`INSERT INTO players (id, name) VALUES (gen_random_uuid(), 'after')`);
  t.equal(await countPlayers('after'), 1, 'the next statement ran outside that transaction and is committed');
  t.equal(await countPlayers('in-left-transaction'), 0, 'the left transaction was rolled back');
});

t.test('/readyz fails while a pooled connection cannot serve the key lookup, then recovers', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl }), { store });
  t.teardown(() => app.close());
  // A statement of that name the pg client does not know of (the connection
  // has not run the lookup yet): its PREPARE fails with 42P05, as on the
  // embedded database before issue 13 was fixed.
  const poisoned = await store.pool.connect();
  try {
    await poisoned.query(`PREPARE "herald-find-key" AS SELECT 1`);
  } finally {
    poisoned.release();
  }
  const res = await app.inject('/readyz');
  t.equal(res.statusCode, 503, 'not ready');
  t.match(res.json().checks.database, { status: 'fail', error: /herald-find-key/ });
  const again = await app.inject('/readyz');
  t.equal(again.statusCode, 200, 'the failed connection was closed; a new one serves the lookup');
});
