// Embedded Postgres for zero set-up: PGlite (Postgres compiled to Wasm) keeps
// its files in <dataDir>/pglite and is served over the Postgres wire protocol on
// a loopback port, so migrations and the Prisma client use exactly the code path
// of a real server. PGlite is single-connection: callers use a pool of size 1.
import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { StartupError, errorMessage } from '../errors.ts';

export interface EmbeddedPostgres {
  url: string;
  dataDir: string;
  /** Resolves once no client is connected (the server accepts one at a time). */
  waitIdle(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const LOCK_FILE = 'herald.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Two processes writing the same PGlite folder would corrupt it: refuse. */
async function takeLock(dataDir: string): Promise<string> {
  const lock = path.join(dataDir, LOCK_FILE);
  try {
    const pid = Number((await fs.readFile(lock, 'utf8')).trim());
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
      throw new StartupError(`the embedded database in ${dataDir} is in use by process ${pid}; stop it or set DATA_DIR`);
    }
  } catch (err) {
    if (err instanceof StartupError) throw err;
  }
  await fs.writeFile(lock, `${process.pid}\n`);
  return lock;
}

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  try {
    await fs.mkdir(dataDir, { recursive: true });
  } catch (err) {
    throw new StartupError(`cannot create the data folder ${dataDir}: ${errorMessage(err)}`, { cause: err });
  }
  const lock = await takeLock(dataDir);
  let db: PGlite;
  try {
    db = await PGlite.create(path.join(dataDir, 'pglite'));
  } catch (err) {
    await fs.rm(lock, { force: true });
    throw new StartupError(`cannot open the embedded database in ${dataDir}: ${errorMessage(err)}`, { cause: err });
  }
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  const url = `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`;

  return {
    url,
    dataDir,
    async waitIdle(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (server.getStats().activeConnections > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      await server.stop();
      await db.close();
      await fs.rm(lock, { force: true });
    },
  };
}
