// Applies prisma/migrations with `prisma migrate deploy` (the same command CI
// runs), at start-up, against the configured database or the embedded one.
// Spawning the Prisma CLI costs 1.5 s or more, so start-up first asks the
// database which migrations it has; when every local one is applied with the
// same checksum (as Prisma records it: sha256 of migration.sql) the CLI is
// skipped. On the embedded database, new migrations are applied in-process
// (applyNewMigrations).
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { StartupError, errorMessage } from '../errors.ts';
import { projectRoot } from '../paths.ts';
import { runPrismaCli } from './prisma-cli.ts';

export const MIGRATIONS_DIR = path.join(projectRoot, 'prisma', 'migrations');

/** The lines of Prisma's output that say what went wrong, joined into one. */
function summarize(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  const start = lines.findIndex((l) => /^Error\b/.test(l) || /^P\d{4}/.test(l));
  const relevant = start >= 0 ? lines.slice(start, start + 4) : lines.slice(-3);
  return relevant.join(' ').replace(/\s+/g, ' ').slice(0, 500);
}

async function localMigrations(): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  for (const entry of await readdir(MIGRATIONS_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const sql = await readFile(path.join(MIGRATIONS_DIR, entry.name, 'migration.sql')).catch(() => null);
    if (sql) result.set(entry.name, createHash('sha256').update(sql).digest('hex'));
  }
  return result;
}

/** Names of local migrations the database has not applied (or applied with another checksum). */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const local = await localMigrations();
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
    const applied = new Map<string, string>();
    if (exists.rows[0]?.t) {
      const rows = await client.query<{ migration_name: string; checksum: string }>(
        'SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      for (const r of rows.rows) applied.set(r.migration_name, r.checksum);
    }
    return [...local].filter(([name, sum]) => applied.get(name) !== sum).map(([name]) => name);
  } finally {
    await client.end().catch(() => {});
  }
}

// Prisma's bookkeeping table, as its schema engine creates it for PostgreSQL.
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies the local migrations the database has no record of, in name order,
 * without the Prisma CLI (spawning it is a good part of a first start), and
 * records each as `prisma migrate deploy` does, so the CLI finds nothing to do
 * afterwards. For the embedded database only: one process owns it (its lock
 * file), so there is no concurrent deploy to guard against, which the CLI
 * does with an advisory lock on a shared server.
 *
 * Each migration runs in one transaction with its record: one that fails
 * leaves nothing behind (the error is a StartupError). Returns null, touching
 * nothing, when the database's state is anything but "some migrations are
 * new": a recorded migration that failed, was rolled back, or whose file has
 * changed since. Then the CLI decides, as it always has.
 */
export async function applyNewMigrations(databaseUrl: string): Promise<string[] | null> {
  const local = await localMigrations();
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query(MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; done: boolean }>(
      'SELECT migration_name, checksum, finished_at IS NOT NULL AND rolled_back_at IS NULL AS done FROM _prisma_migrations',
    );
    const recorded = new Map(rows.map((r) => [r.migration_name, r]));
    for (const [name, sum] of local) {
      const r = recorded.get(name);
      if (r && (!r.done || r.checksum !== sum)) return null;
    }
    if (rows.some((r) => !r.done)) return null;
    const fresh = [...local.keys()].filter((name) => !recorded.has(name)).sort();
    for (const name of fresh) {
      const sql = await readFile(path.join(MIGRATIONS_DIR, name, 'migration.sql'), 'utf8');
      try {
        await client.query('BEGIN');
        await client.query(sql);
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), local.get(name), name],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw new StartupError(`database migration ${name} failed: ${errorMessage(err)}`, { cause: err });
      }
    }
    return fresh;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs `prisma migrate deploy`; a failure is a one-line StartupError. */
export async function runMigrations(databaseUrl: string): Promise<string> {
  const { code, output } = await runPrismaCli(['migrate', 'deploy'], databaseUrl);
  if (code !== 0) throw new StartupError(`database migration failed: ${summarize(output)}`);
  return /No pending migrations/.test(output) ? 'no pending migrations' : 'migrations applied';
}
