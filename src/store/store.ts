// The Store: a Prisma client on the configured Postgres (or the embedded one),
// after checking the connection and applying migrations.
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import type { Config } from '../config.ts';
import { redactUrl } from '../config.ts';
import { StartupError, errorMessage } from '../errors.ts';
import { createMissingDatabase } from './create-database.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.ts';
import { applyNewMigrations, pendingMigrations, runMigrations } from './migrate.ts';
import { findKeyByHash } from './players.ts';
import { SessionPool } from './pool.ts';

export interface Store {
  readonly prisma: PrismaClient;
  /**
   * The connection pool under Prisma, for the few hot statements that run on
   * every request (see games.ts, players.ts): sharing it keeps the embedded
   * database's one-connection limit and the configured pool size true.
   */
  readonly pool: pg.Pool;
  readonly kind: 'postgres' | 'embedded';
  /** How large values (game states) are compressed: lz4 where the server has it. */
  readonly toastCompression: 'lz4' | 'pglz';
  /**
   * A round trip to the database the way authenticated requests make one (the
   * key lookup: a named prepared statement on a pooled connection); rejects
   * when it is unreachable or cannot serve that statement.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreLogger {
  info(obj: object, msg: string): void;
}

/**
 * One connection attempt with a clear, single-line error (no stack). Returns
 * whether the server can compress with lz4 (a build option; PGlite cannot).
 */
async function checkConnection(url: string): Promise<{ lz4: boolean }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {}); // reported through connect()'s rejection
  try {
    await client.connect();
    const { rows } = await client.query<{ lz4: boolean | null }>(
      `SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
    );
    return { lz4: rows[0]?.lz4 === true };
  } catch (err) {
    throw new StartupError(`cannot connect to the database at ${redactUrl(url)}: ${errorMessage(err)}`, { cause: err });
  } finally {
    await client.end().catch(() => {});
  }
}

export async function openStore(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databaseQueryTimeoutMs' | 'databaseIdleTimeoutMs' | 'databasePooler' | 'databaseDirectUrl'>>,
  log: StoreLogger,
): Promise<Store> {
  let embedded: EmbeddedPostgres | null = null;
  let url: string;
  // What needs a session of its own (creating the database, migrations) goes around a pooler.
  let direct: string;
  let lz4 = false;
  const pooled = config.databaseUrl !== null && config.databasePooler === 'transaction';
  if (config.databaseUrl === null) {
    const t0 = performance.now();
    embedded = await startEmbeddedPostgres(config.dataDir);
    url = embedded.url;
    direct = url;
    log.info({ dataDir: config.dataDir, ms: Math.round(performance.now() - t0) }, 'embedded database started');
  } else {
    url = config.databaseUrl;
    direct = config.databaseDirectUrl ?? url;
    // A fresh server lacks the named database: create it, then connect again.
    ({ lz4 } = await checkConnection(direct).catch(async (err: unknown) => {
      if (!(await createMissingDatabase(direct, err, log))) throw err;
      return checkConnection(direct);
    }));
    if (pooled && direct !== url) await checkConnection(url); // the pooler answers too
  }

  try {
    const t0 = performance.now();
    const pending = await pendingMigrations(direct).catch((err: unknown) => {
      throw new StartupError(`cannot read the migration state of ${redactUrl(direct)}: ${errorMessage(err)}`, { cause: err });
    });
    if (pending.length > 0) {
      // The embedded database: new migrations in-process (see applyNewMigrations), anything else by the CLI.
      const applied = embedded ? await applyNewMigrations(direct) : null;
      const outcome = applied ? 'migrations applied' : await runMigrations(direct);
      log.info({ ms: Math.round(performance.now() - t0), migrations: pending, by: applied ? 'herald' : 'prisma migrate deploy' }, outcome);
    } else {
      log.info({ ms: Math.round(performance.now() - t0) }, 'no pending migrations');
    }

    const pool = new SessionPool({
      connectionString: url,
      max: embedded ? 1 : 10,
      connectionTimeoutMillis: 5000,
      // The embedded server is in this process: nothing is saved by closing its
      // one idle connection, so it is kept (0: never closed). Each new
      // connection gets a reset session anyway (embedded.ts).
      idleTimeoutMillis: config.databaseIdleTimeoutMs ?? (embedded ? 0 : 10_000),
      // A server that stops answering (hung, or packets dropped) fails the query
      // instead of holding the request; the pool then drops that connection.
      query_timeout: config.databaseQueryTimeoutMs ?? 10_000,
      // Notices a peer that vanished without closing the connection.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // Every action rewrites the game's state (a few kB of jsonb, compressed
      // when the row outgrows 2 kB): lz4 compresses it with about an eighth
      // less Postgres CPU per action than the default pglz (bench:service).
      // A transaction-mode pooler refuses startup options: there, the database's
      // own setting applies (ALTER DATABASE … SET default_toast_compression = lz4).
      ...(lz4 && !pooled ? { options: '-c default_toast_compression=lz4' } : {}),
      unnamedStatements: pooled,
    });
    // An idle connection dropped by the server (restart, outage) is replaced on
    // the next checkout; the error must not crash the process.
    pool.on('error', () => {});
    // Through a pooler, the server connections' own setting is what compresses.
    const toast = !pooled ? (lz4 ? 'lz4' : 'pglz') : (await pool.query<{ c: string }>(`SELECT current_setting('default_toast_compression') AS c`)).rows[0]?.c === 'lz4' ? 'lz4' : 'pglz';
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const emb = embedded;
    let closed = false;
    return {
      prisma,
      pool,
      kind: emb ? 'embedded' : 'postgres',
      toastCompression: toast,
      async ping() {
        // Prisma would silently reconnect after $disconnect(): a closed store stays closed.
        if (closed) throw new Error('store is closed');
        // No key has an empty hash: the statement runs and finds nothing.
        await findKeyByHash(pool, '');
      },
      async close() {
        if (closed) return;
        closed = true;
        await prisma.$disconnect();
        await pool.end().catch(() => {});
        if (emb) await emb.close();
      },
    };
  } catch (err) {
    if (embedded) await embedded.close().catch(() => {});
    throw err;
  }
}
