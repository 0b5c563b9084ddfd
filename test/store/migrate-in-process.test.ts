// applyNewMigrations (used on the embedded database) against `prisma migrate
// deploy` on real Postgres: the same schema and bookkeeping (the CLI finds
// nothing to do afterwards); it declines, touching nothing, what is not simply
// new; a migration that fails leaves nothing behind.
import t from 'tap';
import pg from 'pg';
import { applyNewMigrations, MIGRATIONS_DIR, pendingMigrations, runMigrations } from '../../src/store/migrate.ts';
import { StartupError } from '../../src/errors.ts';
import { readdir } from 'node:fs/promises';
import { createTestDatabase } from '../helpers/services.ts';

const local = (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** What a migration can make, as text, in a stable order. */
async function schema(url: string): Promise<string[]> {
  const rows = await query<{ line: string }>(
    url,
    `SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(character_maximum_length::text, '') || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
       FROM information_schema.columns WHERE table_schema = 'public'
     UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace
     UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
     UNION ALL SELECT 'enum ' || t.typname || ' ' || e.enumlabel || ' ' || e.enumsortorder
       FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
     ORDER BY 1`,
  );
  return rows.map((r) => r.line);
}

t.test('the same schema and records as prisma migrate deploy; the CLI then has nothing to do', async (t) => {
  const [mine, prismas] = [await createTestDatabase(t), await createTestDatabase(t)];
  t.same(await applyNewMigrations(mine), local, 'every migration applied, in name order');
  t.equal(await runMigrations(prismas), 'migrations applied');
  t.same(await schema(mine), await schema(prismas), 'same tables, columns, constraints, indexes, enums (_prisma_migrations included)');
  const records = (url: string) => query(url, 'SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at, logs, applied_steps_count FROM _prisma_migrations ORDER BY migration_name');
  t.same(await records(mine), await records(prismas), 'same migration records');
  t.same(await pendingMigrations(mine), []);
  t.equal(await runMigrations(mine), 'no pending migrations', 'prisma migrate deploy accepts them as applied');
  t.same(await applyNewMigrations(mine), [], 'a second run applies nothing');
});

t.test('a recorded migration that changed or failed: declined, nothing touched', async (t) => {
  const url = await createTestDatabase(t);
  await applyNewMigrations(url);
  await query(url, `UPDATE _prisma_migrations SET checksum = 'edited' WHERE migration_name = '${local[0]}'`);
  await query(url, `DELETE FROM _prisma_migrations WHERE migration_name = '${local.at(-1)}'`);
  t.equal(await applyNewMigrations(url), null, 'edited file');
  t.same((await query(url, 'SELECT count(*)::int AS n FROM _prisma_migrations'))[0], { n: local.length - 1 }, 'the missing one was not applied');
  const other = await createTestDatabase(t);
  await applyNewMigrations(other);
  await query(other, `UPDATE _prisma_migrations SET finished_at = NULL, logs = 'failed' WHERE migration_name = '${local[0]}'`);
  await query(other, `DELETE FROM _prisma_migrations WHERE migration_name = '${local.at(-1)}'`);
  t.equal(await applyNewMigrations(other), null, 'failed record');
  t.same((await query(other, 'SELECT count(*)::int AS n FROM _prisma_migrations'))[0], { n: local.length - 1 }, 'the missing one was not applied');
});

t.test('a migration that fails leaves nothing behind', async (t) => {
  const url = await createTestDatabase(t);
  await query(url, 'CREATE TABLE games (x int)'); // the first migration creates games
  const err = await applyNewMigrations(url).catch((e: unknown) => e);
  t.ok(err instanceof StartupError);
  t.match((err as Error).message, new RegExp(`migration ${local[0]} failed: .*games`));
  t.same(await query(url, 'SELECT count(*)::int AS n FROM _prisma_migrations'), [{ n: 0 }], 'nothing recorded');
  t.same(await query(url, `SELECT to_regtype('game_status')::text AS t`), [{ t: null }], 'nothing of the migration kept');
});
