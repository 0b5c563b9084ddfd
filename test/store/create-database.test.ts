// A real Postgres without the database DATABASE_URL names: openStore creates
// it (3D000 only), logs it, and starts; a role that may not create databases
// gets one clear StartupError; other connection errors are left alone.
import t from 'tap';
import pg from 'pg';
import { openStore } from '../../src/store/store.ts';
import { createMissingDatabase, databaseName } from '../../src/store/create-database.ts';
import { StartupError } from '../../src/errors.ts';
import { PG_ADMIN_URL, uniqueId } from '../helpers/services.ts';

async function admin(sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  return (await admin(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)).rowCount === 1;
}

function urlFor(name: string, user?: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  if (user) url.username = user;
  return url.toString();
}

function recorder() {
  const lines: Array<{ obj: object; msg: string }> = [];
  return { lines, log: { info: (obj: object, msg: string) => lines.push({ obj, msg }) } };
}

t.test('a database that does not exist is created, logged, migrated and used', async (t) => {
  // Mixed case and a dash: the name must be quoted as an identifier, not folded.
  const name = `herald_test_Fresh-${uniqueId()}`;
  t.teardown(() => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  t.equal(await databaseExists(name), false);
  const { lines, log } = recorder();
  const store = await openStore({ databaseUrl: urlFor(name), dataDir: '/nonexistent' }, log);
  t.teardown(() => store.close());
  t.equal(await databaseExists(name), true, 'created with the exact name');
  await store.ping();
  t.equal(await store.prisma.game.count(), 0, 'migrated: the tables are there');
  t.match(lines, [{ msg: 'database did not exist: created it', obj: { database: name } }]);
  t.equal(lines.filter((l) => /created it/.test(l.msg)).length, 1);

  // The next start finds it: nothing is created or logged as created.
  await store.close();
  const again = recorder();
  const second = await openStore({ databaseUrl: urlFor(name), dataDir: '/nonexistent' }, again.log);
  t.teardown(() => second.close());
  t.notOk(again.lines.some((l) => /created it/.test(l.msg)));
});

t.test('a role without CREATEDB gets one start-up error naming the database', async (t) => {
  const role = `herald_test_role_${uniqueId()}`;
  const name = `herald_test_nocreate_${uniqueId()}`;
  await admin(`CREATE ROLE ${role} LOGIN NOCREATEDB`);
  t.teardown(async () => {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin(`DROP ROLE IF EXISTS ${role}`);
  });
  const err = await openStore({ databaseUrl: urlFor(name, role), dataDir: '/nonexistent' }, { info: () => {} }).catch((e: unknown) => e);
  t.ok(err instanceof StartupError, String(err));
  t.match((err as Error).message, new RegExp(`the database ${name} does not exist at .*creating it failed: permission denied to create database`));
  t.equal(await databaseExists(name), false);
});

t.test('only "database does not exist" leads to a CREATE DATABASE', async (t) => {
  const name = `herald_test_never_${uniqueId()}`;
  const { lines, log } = recorder();
  const refused = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
  const badPassword = new StartupError('cannot connect', { cause: Object.assign(new Error('password authentication failed'), { code: '28P01' }) });
  t.equal(await createMissingDatabase(urlFor(name), refused, log), false);
  t.equal(await createMissingDatabase(urlFor(name), badPassword, log), false);
  t.equal(await createMissingDatabase(urlFor(name), new Error('no code'), log), false);
  const missing = new StartupError('cannot connect', { cause: Object.assign(new Error('missing'), { code: '3D000' }) });
  t.equal(await createMissingDatabase(urlFor('postgres'), missing, log), false, 'never the maintenance database itself');
  t.same(lines, []);
  t.equal(await databaseExists(name), false);
  t.equal(databaseName('postgresql://u@h:5432/a%20b?sslmode=disable'), 'a b');
  t.equal(databaseName('postgresql://u@h:5432'), null);
});
