// A feed of a game's versions, gapless and without duplicates for each of its
// listeners. Listeners that read the same thing (same game, caller and seat)
// share one feed (SharedGameFeed, GameFeeds): one bus listener, one periodic
// check, one view read and one event object per version however many they
// are, so serving a thousand watchers of one seat costs one view build.
//
// Versions are dense (api.ts): the feed remembers the last version it
// delivered to each listener and, whenever it learns that the game moved on — a message on
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

/** What a game feed tells one listener. */
export interface GameFeedListener {
  deliver(event: VersionEvent): void;
  /** A clock change (pause/resume) at the version delivered last; left out: ignored. */
  clock?(event: ClockEvent): void;
  /** The game is over and its last version was delivered. */
  end(status: GameStatus, version: number): void;
  /** A catch-up failed; `fatal` when the game can no longer be read by this listener. */
  error(err: unknown, fatal: boolean): void;
}

export interface GameFeedOptions extends GameFeedListener {
  gameId: string;
  source: GameFeedSource;
  fanout: Fanout;
  /** Deliver the versions after this one; null: start with the current version. */
  after: number | null;
  /** Periodic database check (covers messages lost on the bus). */
  pollMs: number;
}

export function isOverStatus(status: GameStatus): boolean {
  return status === 'finished' || status === 'abandoned';
}

/** Errors after which retrying is pointless (the game is gone or no longer visible). */
export function isFatal(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'not_found' || code === 'forbidden' || code === 'unauthorized';
}

export interface SharedGameFeedOptions {
  gameId: string;
  /** Reads the game as every listener of this feed may (one caller, one seat or the spectator view). */
  source: GameFeedSource;
  fanout: Fanout;
  pollMs: number;
  /** The last listener left: the feed closed itself. */
  idle?(): void;
  /** Counts the views read (one per version however many listeners; more only to catch up or start). */
  viewRead?(): void;
}

interface Member {
  readonly l: GameFeedListener;
  /** Last version delivered to this listener (-1: none yet). */
  last: number;
  /** Not placed yet (its start is being read): catch-ups leave it out. */
  pending: boolean;
  ended: boolean;
}

/**
 * One feed shared by every listener that reads the same thing (the same game
 * through the same caller and seat): one bus listener, one periodic check and
 * one view read per version however many listeners there are, and each
 * version's event object is built once and handed to every listener that is
 * due it (so an SSE encoder can serialise it once too). Each listener keeps
 * its own position, so a listener that is behind (a resume) is caught up from
 * the database within the same serial catch-up, without gaps or duplicates.
 */
export class SharedGameFeed {
  private readonly members = new Set<Member>();
  private readonly job: SerialJob;
  private listening: Promise<void> | null = null;
  private unlisten: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Set by a message or the poll: a version newer than `known` may exist. */
  private behind = true;
  /** The newest version a message or the poll announced. */
  private heard = -1;
  /** The newest version read (a view read after subscribing); every newer one will be announced. */
  private known = -1;
  /** Events received on the bus, reused when they are exactly the next version. */
  private readonly received = new Map<number, GameEvent>();
  /** A view read to place a listener, used by the next catch-up. */
  private initialView: GameViewResult | null = null;
  private closed = false;

  private readonly o: SharedGameFeedOptions;
  constructor(o: SharedGameFeedOptions) {
    this.o = o;
    this.job = new SerialJob(
      () => this.catchUp(),
      (err) => this.failed(err),
    );
  }

  /**
   * A failed read: fatal ones end every listener; one that is retried (at the
   * next message or poll) is told to one listener only (it is the same for
   * all: one log line, not one per stream).
   */
  private failed(err: unknown): void {
    if (this.closed) return;
    const fatal = isFatal(err);
    for (const m of [...this.members]) {
      if (m.pending || m.ended) continue;
      m.l.error(err, fatal);
      if (!fatal) return;
    }
  }

  get listenerCount(): number {
    return this.members.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Adds a listener that gets the versions after `after` (null: from the
   * current version), and resolves once they were delivered. Returns the
   * function that removes it (the feed closes with its last listener).
   */
  async add(listener: GameFeedListener, after: number | null): Promise<() => void> {
    if (this.closed) throw new Error('game feed is closed');
    const m: Member = { l: listener, last: after ?? -1, pending: true, ended: false };
    this.members.add(m);
    const remove = () => this.remove(m);
    try {
      await this.listen();
      if (!this.members.has(m)) return remove;
      if (after === null) {
        if (this.known < 0) {
          // Read after subscribing: a commit in between is both in it and in a message.
          const view = await this.readView();
          if (view.version >= this.known) {
            this.initialView = view;
            this.known = view.version;
          }
        }
        m.last = this.known - 1;
      }
      m.pending = false;
      await this.job.request();
    } catch (err) {
      this.remove(m);
      throw err;
    }
    return remove;
  }

  /** Drops every listener (none is told) and the bus subscription. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.members.clear();
    this.job.stop();
    if (this.timer) clearInterval(this.timer);
    this.unlisten?.();
    this.o.idle?.();
  }

  private remove(m: Member): void {
    if (!this.members.delete(m)) return;
    if (this.members.size === 0) this.close();
  }

  private listen(): Promise<void> {
    this.listening ??= this.o.fanout.listen(gameChannel(this.o.gameId), (message) => this.onMessage(message)).then((unlisten) => {
      if (this.closed) return unlisten();
      this.unlisten = unlisten;
      this.timer = setInterval(() => void this.poll(), this.o.pollMs);
      this.timer.unref();
    });
    return this.listening;
  }

  private readView(knownVersion?: number): Promise<GameViewResult> {
    this.o.viewRead?.();
    return this.o.source.currentView(knownVersion);
  }

  private onMessage(message: Json): void {
    if (isClockEvent(message)) {
      if (message.gameId !== this.o.gameId || this.closed) return;
      const { type, gameId, version, clock } = message;
      let event: ClockEvent | null = null;
      for (const m of this.members) {
        if (m.pending || m.ended || m.last !== version || !m.l.clock) continue;
        event ??= { type, gameId, version, clock };
        m.l.clock(event);
      }
      return;
    }
    const e = message as unknown as GameEvent;
    if (typeof e?.version !== 'number' || e.version <= this.known) return;
    if (e.gameId === this.o.gameId) {
      this.received.set(e.version, e);
      this.heard = Math.max(this.heard, e.version);
    }
    this.behind = true;
    void this.job.request();
  }

  private async poll(): Promise<void> {
    if (this.closed) return;
    try {
      const version = await this.o.source.currentVersion();
      if (version > this.known) {
        this.heard = Math.max(this.heard, version);
        this.behind = true;
        await this.job.request();
      }
    } catch (err) {
      this.failed(err);
    }
  }

  /** The live listeners that lack a version up to `version`. */
  private lagging(version: number): Member[] {
    const out: Member[] = [];
    for (const m of this.members) if (!m.pending && !m.ended && m.last < version) out.push(m);
    return out;
  }

  private async catchUp(): Promise<void> {
    if (this.closed) return;
    const announced = this.behind;
    if (!announced && this.lagging(this.known).length === 0) return;
    this.behind = false;
    try {
      await this.deliverMissed(announced);
    } catch (err) {
      this.behind = true; // the next message or poll retries
      throw err;
    }
  }

  private async deliverMissed(announced: boolean): Promise<void> {
    // A version announced and not read yet: a view of it or later will do (no version query).
    const view = this.initialView ?? (await this.readView(announced && this.heard > this.known ? this.heard : undefined));
    this.initialView = null;
    if (this.closed) return;
    this.known = Math.max(this.known, view.version);
    const due = this.lagging(view.version);
    if (due.length > 0) {
      const from = Math.min(...due.map((m) => m.last));
      // Usually the one message just received is the whole gap.
      const next = this.received.get(from + 1);
      let events: GameEvent[];
      if (next && view.version === from + 1) events = [next];
      else if (from < 0 && view.version === 0) events = [];
      else events = await this.o.source.eventsSince(Math.max(from, 0));
      if (this.closed) return;
      if (from < 0) {
        const first = created(this.o.gameId, view);
        for (const m of due) if (m.last < 0 && this.members.has(m)) this.send(m, first);
      }
      for (const e of events) {
        if (e.version <= from) continue;
        if (e.version > view.version) {
          // Committed after the view was read: one more catch-up delivers it.
          this.behind = true;
          void this.job.request();
          break;
        }
        let event: VersionEvent | null = null;
        for (const m of due) {
          if (m.last >= e.version || !this.members.has(m)) continue;
          if (m.last !== e.version - 1) throw new Error(`game ${this.o.gameId}: version ${m.last + 1} missing from the log`);
          event ??= versionEvent(this.o.gameId, e, view);
          this.send(m, event);
        }
      }
      for (const v of this.received.keys()) if (v <= this.known) this.received.delete(v);
    }
    if (isOverStatus(view.status)) {
      for (const m of [...this.members]) {
        if (m.pending || m.ended || m.last < view.version) continue;
        m.ended = true;
        m.l.end(view.status, m.last);
      }
    }
  }

  private send(m: Member, event: VersionEvent): void {
    m.last = event.version;
    m.l.deliver(event);
  }
}

/**
 * One listener's feed (a SharedGameFeed of its own). Several listeners of the
 * same game, caller and seat share one SharedGameFeed instead (GameFeeds).
 */
export class GameFeed {
  private readonly shared: SharedGameFeed;
  private last: number;

  private readonly o: GameFeedOptions;
  constructor(o: GameFeedOptions) {
    this.o = o;
    this.last = o.after ?? -1;
    this.shared = new SharedGameFeed({ gameId: o.gameId, source: o.source, fanout: o.fanout, pollMs: o.pollMs });
  }

  /**
   * Subscribes, then delivers what the listener missed (or, without `after`,
   * the current version); resolves once that is delivered.
   */
  async start(): Promise<void> {
    if (this.shared.isClosed) return;
    await this.shared.add(
      {
        deliver: (e) => {
          this.last = e.version;
          this.o.deliver(e);
        },
        ...(this.o.clock ? { clock: this.o.clock } : {}),
        end: (s, v) => this.o.end(s, v),
        error: (err, fatal) => this.o.error(err, fatal),
      },
      this.o.after,
    );
  }

  close(): void {
    this.shared.close();
  }

  /** The last version delivered. */
  get lastVersion(): number {
    return this.last;
  }
}

/**
 * The shared feeds of one app instance, by key (game, caller and seat asked
 * for: listeners with the same key read exactly the same thing).
 */
export class GameFeeds {
  private readonly feeds = new Map<string, SharedGameFeed>();

  private readonly o: { fanout: Fanout; pollMs: number; viewRead?(): void };
  constructor(o: { fanout: Fanout; pollMs: number; viewRead?(): void }) {
    this.o = o;
  }

  /** Adds a listener to the feed of `key`, made with `source` when there is none. */
  add(key: string, gameId: string, source: () => GameFeedSource, listener: GameFeedListener, after: number | null): Promise<() => void> {
    let feed = this.feeds.get(key);
    if (!feed || feed.isClosed) {
      const made: SharedGameFeed = new SharedGameFeed({
        gameId,
        source: source(),
        fanout: this.o.fanout,
        pollMs: this.o.pollMs,
        idle: () => {
          if (this.feeds.get(key) === made) this.feeds.delete(key);
        },
        ...(this.o.viewRead ? { viewRead: this.o.viewRead } : {}),
      });
      feed = made;
      this.feeds.set(key, feed);
    }
    return feed.add(listener, after);
  }

  /** Shared feeds open (for tests and diagnostics). */
  get size(): number {
    return this.feeds.size;
  }
}

function versionEvent(gameId: string, e: GameEvent, view: GameViewResult): VersionEvent {
  const current = e.version === view.version;
  return {
    gameId,
    version: e.version,
    type: e.type,
    role: e.role,
    playerId: e.playerId,
    status: e.status,
    activeRoles: e.activeRoles,
    seat: view.role,
    view: current ? view.view : null,
    clock: current ? view.clock : null,
    ...(e.at ? { at: e.at } : {}),
  };
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
