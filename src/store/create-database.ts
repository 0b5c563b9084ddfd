// A fresh Postgres server has no database of the name in DATABASE_URL, so the
// first start failed with "database … does not exist". When that is the error
// (SQLSTATE 3D000, and nothing else), Herald creates it, connecting to the
// `postgres` maintenance database with the same credentials, and logs it. A
// role without CREATEDB still gets one clear start-up error.
import pg from 'pg';
import { redactUrl } from '../config.ts';
import { StartupError, errorMessage } from '../errors.ts';
import type { StoreLogger } from './store.ts';

const UNDEFINED_DATABASE = '3D000';
const DUPLICATE_DATABASE = '42P04';

function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The database a URL names, or null when it names none (the server's default). */
export function databaseName(url: string): string | null {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  return name === '' ? null : name;
}

/**
 * Creates the database `url` names when `err` (a failed connection to it) says
 * it does not exist. Returns true when it was created (or appeared meanwhile:
 * another instance starting at the same time), false when `err` is another
 * error; throws a StartupError when the creation fails.
 */
export async function createMissingDatabase(url: string, err: unknown, log: StoreLogger): Promise<boolean> {
  const name = databaseName(url);
  if (sqlState(err) !== UNDEFINED_DATABASE || name === null || name === 'postgres') return false;
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5000 });
  client.on('error', () => {}); // reported through connect()'s or query()'s rejection
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    log.info({ database: name, url: redactUrl(url) }, 'database did not exist: created it');
  } catch (createErr) {
    if (sqlState(createErr) === DUPLICATE_DATABASE) return true;
    throw new StartupError(
      `the database ${name} does not exist at ${redactUrl(url)}, and creating it failed: ${errorMessage(createErr)}`,
      { cause: createErr },
    );
  } finally {
    await client.end().catch(() => {});
  }
  return true;
}
