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
import pg from 'pg';

type Callback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/** The status of the last ReadyForQuery: 'I' idle, 'T' in a transaction, 'E' in a failed one (null: not known). */
function transactionStatus(client: pg.PoolClient): string | null {
  // Client.getTransactionStatus() is in pg 8.23 but not yet in @types/pg.
  return (client as pg.PoolClient & { getTransactionStatus?(): string | null }).getTransactionStatus?.() ?? null;
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

export class SessionPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: Callback): void;
  override connect(callback?: Callback): Promise<pg.PoolClient> | void {
    // pool.query() comes here with a callback; Prisma's adapter without one.
    if (callback) {
      return super.connect((err, client, done) => {
        if (!client) return callback(err, client, done);
        guardRelease(client);
        callback(err, client, (e?: unknown) => client.release(e as Error | undefined));
      });
    }
    return super.connect().then(guardRelease);
  }
}
