// Applies prisma/migrations with `prisma migrate deploy` (the same command CI
// runs), at start-up, against the configured database or the embedded one.
// Spawning the Prisma CLI costs about 1.5 s, so start-up first asks the database
// which migrations it has; when every local one is applied with the same
// checksum (as Prisma records it: sha256 of migration.sql) the CLI is skipped.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { StartupError } from '../errors.ts';
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

/** Runs `prisma migrate deploy`; a failure is a one-line StartupError. */
export async function runMigrations(databaseUrl: string): Promise<string> {
  const { code, output } = await runPrismaCli(['migrate', 'deploy'], databaseUrl);
  if (code !== 0) throw new StartupError(`database migration failed: ${summarize(output)}`);
  return /No pending migrations/.test(output) ? 'no pending migrations' : 'migrations applied';
}
