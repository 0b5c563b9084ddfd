import t from 'tap';
import { openStore } from '../../src/store/store.ts';
import { readdir } from 'node:fs/promises';
import pg from 'pg';
import { MIGRATIONS_DIR, pendingMigrations, runMigrations } from '../../src/store/migrate.ts';
import { StartupError } from '../../src/errors.ts';
import { PG_ADMIN_URL, createTestDatabase, uniqueId } from '../helpers/services.ts';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const log = { info: () => {} };

t.test('real Postgres: migrations are applied, then the games table works', async (t) => {
  const url = await createTestDatabase(t);
  const local = (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  t.ok(local.length >= 1);
  t.same((await pendingMigrations(url)).sort(), local.sort(), 'an empty database has every migration pending');
  const store = await openStore({ databaseUrl: url, dataDir: '/nonexistent' }, log);
  t.teardown(() => store.close());
  t.equal(store.kind, 'postgres');
  await store.ping();
  const game = await store.prisma.game.create({ data: { gameType: 'richard-iii', scenario: 'campaign' } });
  t.match(game, { gameType: 'richard-iii', scenario: 'campaign', status: 'setup', version: 0 });
  t.match(game.id, /^[0-9a-f-]{36}$/);
  t.ok(game.createdAt instanceof Date);
  const bumped = await store.prisma.game.update({ where: { id: game.id }, data: { version: { increment: 1 }, status: 'active' } });
  t.equal(bumped.version, 1);
  t.ok(bumped.updatedAt >= game.updatedAt, 'updatedAt maintained');
  t.same(await pendingMigrations(url), [], 'none pending after start-up');
  t.equal(await runMigrations(url), 'no pending migrations', 'migrate deploy again is a no-op');
  // A migration edited after it was applied no longer counts as applied: the CLI
  // runs at the next start and reports it.
  // Large states are compressed with lz4 where the server has it (this one does).
  t.equal(store.toastCompression, 'lz4');
  const state = { blocks: Array.from({ length: 400 }, (_, i) => ({ id: `block-${i}`, loc: 'pool', steps: i % 4 })) };
  await store.prisma.game.update({ where: { id: game.id }, data: { state } });
  const [{ method }] = await store.pool.query(`SELECT pg_column_compression(state) AS method FROM games WHERE id = $1`, [game.id]).then((r) => r.rows);
  t.equal(method, 'lz4', 'a state written through the store is lz4-compressed');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`UPDATE _prisma_migrations SET checksum = 'edited' WHERE migration_name = $1`, [local[0]]);
  await client.end();
  t.same(await pendingMigrations(url), [local[0]]);
});

t.test('a database that does not exist and cannot be created: one-line StartupError naming it', async (t) => {
  // openStore creates a missing database (test/store/create-database.test.ts);
  // a role without CREATEDB cannot, and is told so in one line.
  const role = `herald_test_role_${uniqueId()}`;
  await admin(`CREATE ROLE ${role} LOGIN NOCREATEDB`);
  t.teardown(() => admin(`DROP ROLE IF EXISTS ${role}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = '/herald_does_not_exist';
  url.username = role;
  url.password = 'hunter2';
  const err = await openStore({ databaseUrl: url.toString(), dataDir: '/nonexistent' }, log).catch((e: unknown) => e);
  t.ok(err instanceof StartupError);
  const message = (err as Error).message;
  t.match(message, new RegExp(`^the database herald_does_not_exist does not exist at postgresql://${role}:\\*\\*\\*@.*herald_does_not_exist, and creating it failed: permission denied`));
  t.notMatch(message, /hunter2/, 'password redacted');
  t.notMatch(message, /\n/);
});

t.test('nothing listening: one-line StartupError', async (t) => {
  const err = await openStore({ databaseUrl: 'postgresql://postgres@127.0.0.1:1/x', dataDir: '/nonexistent' }, log).catch((e: unknown) => e);
  t.ok(err instanceof StartupError);
  t.match((err as Error).message, /^cannot connect to the database at postgresql:\/\/postgres@127\.0\.0\.1:1\/x: .*ECONNREFUSED/);
});
