// The connection pool under Prisma and the hot statements (store.ts): a pg
// Pool that never gives a connection back to the pool while it is inside a
// transaction.
//
// pool.query() already closes its connection on any error (pg-pool releases
// it with the error), so a session-state error such as 42P05 ("prepared
// statement already exists") or a protocol error never reaches the next
// request on that connection. A checked-out client is another matter: Prisma's
// adapter runs BEGIN … COMMIT/ROLLBACK on one and releases it without an
// error whatever the COMMIT or ROLLBACK did (a timed-out or failed ROLLBACK
// leaves the transaction open or aborted), and the next request would run
// inside that transaction. The last ReadyForQuery tells: anything but idle is
// released with an error, so the pool closes the connection.
//
// Behind a pooler in transaction mode (PgBouncer pool_mode=transaction) each
// transaction may run on another server connection, so a statement prepared
// under a name on one is unknown on the next ("prepared statement … does not
// exist"). With `unnamedStatements` the pool drops the names of the store's
// hot statements: each is then parsed where it runs (unnamed, in the same
// round trip), as the rest already are.
import pg from 'pg';

type Callback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/** The status of the last ReadyForQuery: 'I' idle, 'T' in a transaction, 'E' in a failed one (null: not known). */
function transactionStatus(client: pg.PoolClient): string | null {
  // Client.getTransactionStatus() is in pg 8.23 but not yet in @types/pg.
  return (client as pg.PoolClient & { getTransactionStatus?(): string | null }).getTransactionStatus?.() ?? null;
}

/** A query's config without its statement name (plain configs only: a Submittable keeps its own). */
function unnamed(config: unknown): unknown {
  if (config === null || typeof config !== 'object' || !('name' in config) || typeof (config as { submit?: unknown }).submit === 'function') return config;
  const { name: _name, ...rest } = config as pg.QueryConfig;
  return rest;
}

const UNNAMED = Symbol('herald.unnamedStatements');

function dropStatementNames(client: pg.PoolClient): void {
  const c = client as pg.PoolClient & { [UNNAMED]?: true };
  if (c[UNNAMED]) return; // a pooled client comes back many times
  c[UNNAMED] = true;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => query(unnamed(config), ...rest);
}

function guardRelease(client: pg.PoolClient): pg.PoolClient {
  const release = client.release.bind(client);
  client.release = (err?: Error | boolean) => {
    const status = transactionStatus(client);
    if (!err && status !== null && status !== 'I') err = new Error(`connection released inside a transaction (status ${status}): closed`);
    release(err);
  };
  return client;
}

export interface SessionPoolConfig extends pg.PoolConfig {
  /** Send every statement unnamed (a pooler in transaction mode). */
  unnamedStatements?: boolean;
}

export class SessionPool extends pg.Pool {
  readonly #unnamed: boolean;

  constructor(config: SessionPoolConfig = {}) {
    const { unnamedStatements, ...rest } = config;
    super(rest);
    this.#unnamed = unnamedStatements === true;
  }

  #prepare(client: pg.PoolClient): pg.PoolClient {
    if (this.#unnamed) dropStatementNames(client);
    return guardRelease(client);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: Callback): void;
  override connect(callback?: Callback): Promise<pg.PoolClient> | void {
    // pool.query() comes here with a callback; Prisma's adapter without one.
    if (callback) {
      return super.connect((err, client, done) => {
        if (!client) return callback(err, client, done);
        this.#prepare(client);
        callback(err, client, (e?: unknown) => client.release(e as Error | undefined));
      });
    }
    return super.connect().then((client) => this.#prepare(client));
  }
}
