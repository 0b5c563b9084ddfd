// Embedded Postgres for zero set-up: PGlite (Postgres compiled to Wasm) keeps
// its files in <dataDir>/pglite and is served over the Postgres wire protocol on
// a loopback port, so migrations and the Prisma client use exactly the code path
// of a real server. PGlite is one session, served to one connection at a time
// (serveFreshSessions below): callers use a pool of size 1.
import fs from 'node:fs/promises';
import type { Socket } from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { StartupError, errorMessage } from '../errors.ts';

export interface EmbeddedPostgres {
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

/** How long a new connection waits for the previous one to be gone before it is refused. */
const ADMIT_TIMEOUT_MS = 5000;
/** Connections open at once, served one at a time. */
const MAX_WAITING = 8;

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
  // One client at a time is served (serveFreshSessions); the server's own
  // limit only bounds how many may wait. At 1, Node refuses a connection that
  // arrives while the previous client's socket is still closing.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: MAX_WAITING });
  serveFreshSessions(server, db);
  await server.start();
  const url = `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`;

  return {
    url,
    dataDir,
    async close() {
      await server.stop();
      await db.close();
      await fs.rm(lock, { force: true });
    },
  };
}

/**
 * PGlite is ONE Postgres session, and the socket server hands that same
 * session to every connection. What a client leaves in it outlives the client:
 * named prepared statements (the next pg client, knowing none, prepares
 * "herald-find-key" again and gets 42P05 on every request, issue 13),
 * settings, temporary tables, advisory locks, an open or failed transaction.
 * So each new connection is admitted only once the previous one is gone, and
 * the session is reset first (ROLLBACK, DISCARD ALL): every connection starts
 * like a new Postgres session.
 *
 * Waiting also replaces the refusal of a connection that arrives while the
 * previous client's socket is still being closed, as happens when the pool
 * replaces a connection at once.
 *
 * The server has no hook for this: its (private) handleConnection is wrapped.
 * Until it runs, the new socket has no data listener, so none of the client's
 * messages can reach the session before the reset.
 */
function serveFreshSessions(server: PGLiteSocketServer, db: PGlite): void {
  const target = server as unknown as { handleConnection?: (socket: Socket) => Promise<void> };
  const accept = target.handleConnection;
  if (typeof accept !== 'function') throw new Error('@electric-sql/pglite-socket has no handleConnection to wrap: check its version');
  let queue: Promise<void> = Promise.resolve();
  const admit = async (socket: Socket): Promise<void> => {
    const deadline = Date.now() + ADMIT_TIMEOUT_MS;
    while (server.getStats().activeConnections > 0 && !socket.destroyed && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 2));
    }
    if (socket.destroyed) return;
    if (server.getStats().activeConnections > 0) {
      // Still taken: refused, and the session stays as its client has it.
      socket.end('Too many connections: the embedded database serves one at a time\n');
      return;
    }
    if (db.isInTransaction()) await db.exec('ROLLBACK');
    await db.exec('DISCARD ALL');
    if (!socket.destroyed) await accept.call(server, socket);
  };
  // One admission at a time, in arrival order.
  target.handleConnection = (socket) => {
    queue = queue.then(() => admit(socket)).catch(() => {
      socket.destroy();
    });
    return queue;
  };
}
