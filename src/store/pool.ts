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

/** What the watchdog saw running on a connection, and since when. */
interface Seen {
  /** Weak: the watchdog must not keep a finished query (and what it holds) alive. */
  query: WeakRef<object>;
  since: number;
}

type WatchedClient = pg.Client & { _activeQuery?: unknown; _queryQueue?: unknown[]; connection?: { stream?: { destroy(err?: Error): void } } };

export class SessionPool extends pg.Pool {
  readonly #unnamed: boolean;
  readonly #timeoutMs: number;
  readonly #seen = new Map<pg.Client, Seen>();
  #watchdog: NodeJS.Timeout | null = null;

  constructor(config: SessionPoolConfig = {}) {
    // query_timeout is kept here, not passed to pg: pg arms a timer per query whose closure holds
    // the query (its parameters, and through its callback the request waiting for it), and those
    // survived V8's young generation (bench:service: the commit statements' parameters and the
    // views of the answers, several MB per scavenge; without the per-query timers the scavenges
    // of a 15 s window found 9.9 MB alive instead of 44.9). One watchdog per pool instead: a
    // query still running after the timeout (a server that stopped answering, or packets
    // dropped) gets its connection closed, which fails the query ("Connection terminated") and
    // drops the connection from the pool, as pg's read timeout did.
    const { unnamedStatements, query_timeout: timeoutMs, ...rest } = config;
    super(rest);
    this.#unnamed = unnamedStatements === true;
    this.#timeoutMs = timeoutMs ?? 0;
    if (this.#timeoutMs > 0) {
      // The watchdog reads pg-pool's and pg's private fields (pinned versions): fail at start,
      // not in a timer, if an upgrade renamed them.
      if (!Array.isArray((this as unknown as { _clients?: unknown })._clients)) {
        throw new Error('SessionPool: this pg-pool has no _clients list; the query timeout watchdog cannot run');
      }
      // A query is closed between the timeout and 1.1 times it (the watchdog first sees it up to
      // one period after it started).
      this.#watchdog = setInterval(() => this.#watch(), Math.max(50, Math.floor(this.#timeoutMs / 10)));
      this.#watchdog.unref();
    }
  }

  /** Closes the connections whose current query has run longer than the timeout. */
  #watch(): void {
    try {
      this.#check();
    } catch {
      // Never an uncaught exception from a timer: without the watchdog a query waits for the
      // server (as with no timeout), which is better than a crashed process.
    }
  }

  #check(): void {
    const now = performance.now();
    const clients = (this as unknown as { _clients: WatchedClient[] })._clients;
    for (const client of this.#seen.keys()) if (!clients.includes(client)) this.#seen.delete(client);
    for (const client of clients) {
      const query = (client._activeQuery ?? client._queryQueue?.[0] ?? null) as object | null;
      const seen = this.#seen.get(client);
      if (query === null) {
        if (seen) this.#seen.delete(client);
      } else if (!seen || seen.query.deref() !== query) {
        this.#seen.set(client, { query: new WeakRef(query), since: now });
      } else if (now - seen.since >= this.#timeoutMs) {
        this.#seen.delete(client);
        client.connection?.stream?.destroy(new Error('Query read timeout'));
      }
    }
  }

  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(callback?: () => void): Promise<void> | void {
    // The watchdog runs until the pool has ended: pg-pool's end waits for every checked-out
    // client, and a query stuck on a silent server is only ended by the watchdog.
    const stop = (): void => {
      if (this.#watchdog) clearInterval(this.#watchdog);
      this.#watchdog = null;
      this.#seen.clear();
    };
    if (callback) {
      super.end(() => {
        stop();
        callback();
      });
      return;
    }
    return super.end().finally(stop);
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
