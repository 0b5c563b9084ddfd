// Group commit: the single-statement commits of concurrent requests (usually
// actions in different games) go to Postgres together, as one statement, when
// they arrive while another commit is on its way.
//
// Why: a commit is one small UPDATE + INSERT, and at a few thousand per second
// most of Postgres's and this process's time per commit is the fixed cost of a
// statement and a transaction (protocol messages, executor start, WAL flush),
// not the rows. A lone commit is sent at once, so a quiet server pays no
// latency for this; under load the batch grows with the load by itself.
//
// Each change in a batch keeps its own version check: a change whose game
// moved on is simply not updated (VersionConflict for it alone). A batch fails
// as a whole only on an error (a unique violation, say an Idempotency-Key
// stored meanwhile, or a connection lost); its changes are then sent one by
// one, so each gets its own answer; on any other error (the server gone or
// timing out) every change of the batch gets that error. At most one batch is
// in flight at a time, so two batches can never wait on each other's rows (a
// deadlock). A change that has waited `maxWaitMs` (the statements in flight
// are slow: a hung or overloaded server) goes alone, as without grouping, so
// waiting behind them never adds more than that to its own query timeout.
import type { Change, Sql } from './games.ts';

/** Sends one change alone; rejects with VersionConflict when its game moved on. */
export type CommitOne = (sql: Sql, c: Change) => Promise<number>;
/** Sends several changes as one statement; resolves to the indexes of those committed. */
export type CommitMany = (sql: Sql, cs: Change[]) => Promise<Set<number>>;

export interface GroupCommitOptions {
  one: CommitOne;
  many: CommitMany;
  /** The error for a change whose game moved on. */
  conflict: () => Error;
  /** True for an error of one change, not of the batch (a unique violation, a deadlock): the batch's changes are then sent one by one. */
  perChange: (err: unknown) => boolean;
  /** Told of each statement sent and how many changes it carries. */
  onStatement?: (changes: number) => void;
  /** Statements in flight at once, one of them at most a batch (default 2). */
  maxInFlight?: number;
  /** Changes in one statement at most (default 64). */
  maxBatch?: number;
  /** A change waiting longer than this goes alone (default 50 ms). */
  maxWaitMs?: number;
}

interface Pending {
  change: Change;
  since: number;
  resolve(version: number): void;
  reject(err: unknown): void;
}

export class CommitGroup {
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  private batchInFlight = false;
  private timer: NodeJS.Timeout | null = null;
  /** Statements sent and changes they carried (for the bench and tests). */
  readonly stats = { statements: 0, changes: 0, batches: 0 };

  private readonly maxInFlight: number;
  private readonly maxBatch: number;
  private readonly maxWaitMs: number;

  private readonly sql: Sql;
  private readonly o: GroupCommitOptions;
  constructor(
    sql: Sql,
    o: GroupCommitOptions,
  ) {
    this.sql = sql;
    this.o = o;
    this.maxInFlight = o.maxInFlight ?? 2;
    this.maxBatch = o.maxBatch ?? 64;
    this.maxWaitMs = o.maxWaitMs ?? 50;
  }

  commit(change: Change): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ change, since: performance.now(), resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = !this.batchInFlight && this.queue.length > 1 ? this.queue.splice(0, this.maxBatch) : this.queue.splice(0, 1);
      this.start(batch);
    }
    if (this.queue.length > 0) this.watch();
  }

  private start(batch: Pending[]): void {
    this.inFlight++;
    if (batch.length > 1) this.batchInFlight = true;
    void this.send(batch).finally(() => {
      this.inFlight--;
      if (batch.length > 1) this.batchInFlight = false;
      this.pump();
    });
  }

  /** Arms the timer that sends alone what has waited too long. */
  private watch(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.queue[0]!.since + this.maxWaitMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = performance.now();
      while (this.queue.length > 0 && now - this.queue[0]!.since >= this.maxWaitMs) this.start(this.queue.splice(0, 1));
      if (this.queue.length > 0) this.watch();
    }, wait);
    this.timer.unref();
  }

  private async send(batch: Pending[]): Promise<void> {
    this.stats.statements++;
    this.stats.changes += batch.length;
    this.o.onStatement?.(batch.length);
    if (batch.length === 1) return this.alone(batch[0]!);
    this.stats.batches++;
    let committed: Set<number>;
    try {
      committed = await this.o.many(this.sql, batch.map((p) => p.change));
    } catch (err) {
      // One change's error must not become the others': each on its own.
      if (this.o.perChange(err)) await Promise.all(batch.map((p) => (this.o.onStatement?.(1), this.alone(p))));
      else for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => {
      if (committed.has(i)) p.resolve(p.change.expectedVersion + p.change.entries.length);
      else p.reject(this.o.conflict());
    });
  }

  private async alone(p: Pending): Promise<void> {
    try {
      p.resolve(await this.o.one(this.sql, p.change));
    } catch (err) {
      p.reject(err);
    }
  }
}
