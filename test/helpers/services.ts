// Shared test helpers: a fresh Postgres database per test file (so files run in
// parallel), Redis on the machine, unique bus prefixes, and test configs.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../../src/config.ts';
import { openStore, type Store } from '../../src/store/store.ts';

/** Admin connection used to create and drop test databases. */
export const PG_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The subset of tap's Test used here (keeps helpers independent of tap's types). */
export interface Teardown {
  teardown(fn: () => unknown): void;
}

export function uniqueId(): string {
  return randomBytes(6).toString('hex');
}

export function uniquePrefix(): string {
  return `herald-test:${uniqueId()}:`;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database herald_test_<random>, dropped at teardown; returns its URL. */
export async function createTestDatabase(t: Teardown): Promise<string> {
  const name = `herald_test_${uniqueId()}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  t.teardown(() =>
    admin(async (c) => {
      // A pool's end() resolves before its clients' sockets have closed; a
      // client still ending that FORCE terminates reports it as an uncaught
      // error (a failed file under load). So let the backends go first, for
      // a bounded time; FORCE then ends only what was really left open.
      for (let i = 0; i < 60; i++) {
        const open = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'", [name]);
        if (open.rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }),
  );
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A temporary folder, removed at teardown. */
export async function tempDir(t: Teardown, label = 'herald-test-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), label));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    databaseUrl: null,
    redisUrl: null,
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    dataDir: path.join(os.tmpdir(), `herald-unused-${uniqueId()}`),
    busPrefix: uniquePrefix(),
    development: true,
    adminToken: null,
    vacationDays: 30,
    openSignup: true,
    // Generous: only the rate-limit tests exercise the limits.
    rateLimit: { max: 1_000_000, anonymousMax: 1_000_000, appMax: 1_000_000, windowMs: 60_000 },
    sseHeartbeatMs: 15_000,
    databaseQueryTimeoutMs: 10_000,
    trustProxy: false,
    webhookAllowPrivate: false,
    webhookRetentionDays: 30,
    publicUrl: null,
    ...overrides,
  };
}

/**
 * A migrated store on a fresh test database, closed (and the database dropped)
 * at teardown. Pass it to buildApp(config, { store }) to skip per-app migrations.
 */
export async function openTestStore(t: Teardown): Promise<{ store: Store; databaseUrl: string }> {
  const databaseUrl = await createTestDatabase(t);
  const store = await openStore({ databaseUrl, dataDir: '/nonexistent' }, { info: () => {} });
  t.teardown(() => store.close()); // teardowns run last-in first-out: before the DROP
  return { store, databaseUrl };
}
