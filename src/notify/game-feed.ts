// One listener's feed of a game's versions, gapless and without duplicates.
//
// Versions are dense (api.ts): the feed remembers the last version it
// delivered and, whenever it learns that the game moved on — a message on
// `game:<id>`, or the periodic check that covers lost messages and Redis
// outages — loads what it missed from the database and delivers it in order.
// Messages only trigger catch-ups, so a lost, late or repeated message cannot
// cause a gap, a reordering or a duplicate.
//
// Views: the service serves an active game's view at its current version only
// (earlier versions of a game in progress are not replayed), so every version
// is delivered with its event (who did what, who is active now) and the newest
// one also carries the listener's view. A version that the game had already
// moved past when it was delivered has `view: null`; the view of the next
// non-null event covers it. The clock goes with the view (the same read).
//
// A `clock` message (a vacation paused or resumed a seat: the version does not
// move) is passed on as it arrives when it is about the version delivered last;
// a live notice only (the next version event carries the clock anyway).
import type { Json } from '../bus/bus.ts';
import { gameChannel, isClockEvent, type ClockEvent, type GameClock, type GameEvent, type GameStatus, type GameViewResult, type LogEntryKind } from '../service/api.ts';
import type { Fanout } from './fanout.ts';
import { SerialJob } from './serial.ts';

export interface GameFeedSource {
  /**
   * The listener's view now (its seat's or the spectator's). With
   * `knownVersion`, any view of that version or later will do (no need to ask
   * the database whether there is a newer one: its message will come).
   */
  currentView(knownVersion?: number): Promise<GameViewResult>;
  /** The game's version now: the cheap periodic check. */
  currentVersion(): Promise<number>;
  /** Every event after `version`, oldest first. */
  eventsSince(version: number): Promise<GameEvent[]>;
}

/** What a game feed delivers for each version (the data of SSE `version` events). */
export interface VersionEvent {
  gameId: string;
  version: number;
  /** What this version did; 'created' for version 0. */
  type: LogEntryKind | 'created';
  /** The acting role and player (null for lifecycle steps without one). */
  role: string | null;
  playerId: string | null;
  status: GameStatus;
  activeRoles: string[];
  /** Whose view `view` is: the listener's seat, or null for the spectator view. */
  seat: string | null;
  /** The view at this version; null when the game had moved past it already. */
  view: Json | null;
  /** Each seat's clock, with the view (null when `view` is, and without a time control). */
  clock: GameClock | null;
  /** When the version was committed (server clock, ISO 8601); absent for version 0. */
  at?: string;
}

export interface GameFeedOptions {
  gameId: string;
  source: GameFeedSource;
  fanout: Fanout;
  /** Deliver the versions after this one; null: start with the current version. */
  after: number | null;
  /** Periodic database check (covers messages lost on the bus). */
  pollMs: number;
  deliver(event: VersionEvent): void;
  /** A clock change (pause/resume) at the version delivered last; left out: ignored. */
  clock?(event: ClockEvent): void;
  /** The game is over and its last version was delivered. */
  end(status: GameStatus, version: number): void;
  /** A catch-up failed; `fatal` when the game can no longer be read by this listener. */
  error(err: unknown, fatal: boolean): void;
}

export function isOverStatus(status: GameStatus): boolean {
  return status === 'finished' || status === 'abandoned';
}

/** Errors after which retrying is pointless (the game is gone or no longer visible). */
export function isFatal(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'not_found' || code === 'forbidden' || code === 'unauthorized';
}

export class GameFeed {
  /** Last version delivered (-1: none yet). */
  private last: number;
  private readonly job: SerialJob;
  private unlisten: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Set by a message or the poll: a version newer than `last` exists. */
  private behind = true;
  /** The newest version a message or the poll announced. */
  private heard = -1;
  /** Events received on the bus, reused when they are exactly the next version. */
  private readonly received = new Map<number, GameEvent>();
  private closed = false;
  private ended = false;
  private initialView: GameViewResult | null = null;

  constructor(private readonly o: GameFeedOptions) {
    this.last = o.after ?? -1;
    this.job = new SerialJob(
      () => this.catchUp(),
      (err) => this.o.error(err, isFatal(err)),
    );
  }

  /**
   * Subscribes, then delivers what the listener missed (or, without `after`,
   * the current version); resolves once that is delivered.
   */
  async start(): Promise<void> {
    this.unlisten = await this.o.fanout.listen(gameChannel(this.o.gameId), (m) => this.onMessage(m));
    if (this.closed) return this.unlisten();
    if (this.o.after === null) {
      // Read after subscribing: a commit in between is both in it and in a message.
      const view = await this.o.source.currentView();
      this.initialView = view;
      this.last = view.version - 1;
    }
    this.timer = setInterval(() => void this.poll(), this.o.pollMs);
    this.timer.unref();
    await this.job.request();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.job.stop();
    if (this.timer) clearInterval(this.timer);
    this.unlisten?.();
  }

  /** The last version delivered. */
  get lastVersion(): number {
    return this.last;
  }

  private onMessage(message: Json): void {
    if (isClockEvent(message)) {
      if (message.gameId !== this.o.gameId || message.version !== this.last || this.ended || this.closed) return;
      const { type, gameId, version, clock } = message;
      this.o.clock?.({ type, gameId, version, clock });
      return;
    }
    const e = message as unknown as GameEvent;
    if (typeof e?.version !== 'number' || e.version <= this.last) return;
    if (e.gameId === this.o.gameId) {
      this.received.set(e.version, e);
      this.heard = Math.max(this.heard, e.version);
    }
    this.behind = true;
    void this.job.request();
  }

  private async poll(): Promise<void> {
    if (this.closed || this.ended) return;
    try {
      const version = await this.o.source.currentVersion();
      if (version > this.last) {
        this.heard = Math.max(this.heard, version);
        this.behind = true;
        await this.job.request();
      }
    } catch (err) {
      if (!this.closed) this.o.error(err, isFatal(err));
    }
  }

  private async catchUp(): Promise<void> {
    if (this.closed || this.ended || !this.behind) return;
    this.behind = false;
    try {
      await this.deliverMissed();
    } catch (err) {
      this.behind = true; // the next message or poll retries
      throw err;
    }
  }

  private async deliverMissed(): Promise<void> {
    const view = this.initialView ?? (await this.o.source.currentView(this.heard > this.last ? this.heard : undefined));
    this.initialView = null;
    if (this.closed) return;
    if (view.version > this.last) {
      // Usually the one message just received is the whole gap.
      const next = this.received.get(this.last + 1);
      let events: GameEvent[];
      if (next && view.version === this.last + 1) events = [next];
      else if (this.last < 0 && view.version === 0) events = [];
      else events = await this.o.source.eventsSince(Math.max(this.last, 0));
      if (this.closed) return;
      if (this.last < 0) this.deliver(created(this.o.gameId, view), view);
      for (const e of events) {
        if (e.version <= this.last) continue;
        if (e.version > view.version) {
          // Committed after the view was read: one more catch-up delivers it.
          this.behind = true;
          void this.job.request();
          break;
        }
        if (e.version !== this.last + 1) throw new Error(`game ${this.o.gameId}: version ${this.last + 1} missing from the log`);
        this.deliver(e, view);
      }
      for (const v of this.received.keys()) if (v <= this.last) this.received.delete(v);
    }
    if (isOverStatus(view.status) && this.last >= view.version && !this.ended) {
      this.ended = true;
      this.o.end(view.status, this.last);
    }
  }

  private deliver(e: GameEvent | VersionEvent, view: GameViewResult): void {
    const current = e.version === view.version;
    this.last = e.version;
    this.o.deliver({
      gameId: this.o.gameId,
      version: e.version,
      type: e.type,
      role: e.role,
      playerId: e.playerId,
      status: e.status,
      activeRoles: e.activeRoles,
      seat: view.role,
      view: current ? view.view : null,
      clock: current ? view.clock : null,
      ...('at' in e && e.at ? { at: e.at } : {}),
    });
  }
}

/** Version 0 has no log entry: the game as created. */
function created(gameId: string, view: GameViewResult): VersionEvent {
  return {
    gameId,
    version: 0,
    type: 'created',
    role: null,
    playerId: null,
    status: view.version === 0 ? view.status : 'setup',
    activeRoles: view.version === 0 ? view.activeRoles : [],
    seat: view.role,
    view: view.version === 0 ? view.view : null,
    clock: view.version === 0 ? view.clock : null,
  };
}
