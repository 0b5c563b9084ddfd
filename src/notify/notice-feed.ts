// What the per-player feed (turn-feed.ts) and the application feed
// (app-feed.ts) share: both keep, per game in progress, the version up to
// which its log was examined; a `player:<id>` message or the periodic re-read
// of the games marks a game to examine, and one serial catch-up (re-read the
// games when asked, then examine each marked game's log after its cursor)
// delivers the your_turn notices found, in order. Live notices (seated,
// reminder, claimable) are passed on as they arrive.
import type { Json } from '../bus/bus.ts';
import {
  isClaimableEvent,
  isReminderEvent,
  isSeatedEvent,
  type ClaimableEvent,
  type GameClock,
  type GameEvent,
  type ReminderEvent,
  type SeatedEvent,
  type YourTurnEvent,
} from '../service/api.ts';
import { isFatal, isOverStatus } from './game-feed.ts';
import { SerialJob } from './serial.ts';

/** A live notice of a player's channel, with only its own fields (whatever else the message carried). */
export type LiveNotice = SeatedEvent | ReminderEvent | ClaimableEvent;

export function liveNotice(message: Json): LiveNotice | null {
  if (isReminderEvent(message)) {
    const { type, gameId, role, kind, remainingMs, deadline } = message;
    return { type, gameId, role, kind, remainingMs, deadline };
  }
  if (isClaimableEvent(message)) {
    const { type, gameId, role, flagged, ranOutAt } = message;
    return { type, gameId, role, flagged, ranOutAt };
  }
  if (isSeatedEvent(message)) {
    const { type, gameId, role, leagueId, round, board } = message;
    return { type, gameId, role, leagueId, round, board };
  }
  return null;
}

/**
 * Walks the log of a game after `from`, each later version once and in order
 * (`visit` returns false to stop there). `over`: the walk reached a version
 * that ended the game.
 */
export function walkLog(events: GameEvent[], from: number, visit: (e: GameEvent) => boolean | void): { last: number; over: boolean; stopped: boolean } {
  let last = from;
  for (const e of events) {
    if (e.version <= last) continue;
    last = e.version;
    if (visit(e) === false) return { last, over: false, stopped: true };
    if (isOverStatus(e.status)) return { last, over: true, stopped: false };
  }
  return { last, over: false, stopped: false };
}

/** The roles of `mine` that may act after `e` (none once the game is not active). */
export function dueRoles(e: { status: string; activeRoles: string[] }, mine: readonly string[]): string[] {
  return e.status === 'active' ? e.activeRoles.filter((r) => mine.includes(r)) : [];
}

export abstract class NoticeFeed {
  /** Games with news to examine, in the order they were heard of. */
  protected readonly pending = new Set<string>();
  /** The newest clock known per game and its version: a your_turn of that version carries it. */
  private readonly clocks = new Map<string, { version: number; clock: GameClock | null }>();
  /** Re-read the games at the next catch-up. */
  protected refresh = true;
  protected closed = false;
  protected readonly job: SerialJob;
  private timer: NodeJS.Timeout | null = null;

  private readonly pollMs: number;
  constructor(
    pollMs: number,
    onError: (err: unknown, fatal: boolean) => void,
  ) {
    this.pollMs = pollMs;
    this.job = new SerialJob(
      () => this.catchUp(),
      (err) => onError(err, isFatal(err)),
    );
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.job.stop();
    if (this.timer) clearInterval(this.timer);
    this.stopListening();
  }

  /** Learns the games (and whatever the feed listens to); marks those that moved past the cursor. */
  protected abstract load(): Promise<void>;
  /** Delivers the your_turn notices of the game's log after its cursor. */
  protected abstract examine(gameId: string): Promise<void>;
  protected abstract stopListening(): void;

  /** Starts the periodic re-read, then runs the first catch-up; resolves once it is done. */
  protected async run(): Promise<void> {
    this.timer = setInterval(() => {
      this.refresh = true;
      void this.job.request();
    }, this.pollMs);
    this.timer.unref();
    await this.job.request();
  }

  /**
   * A your_turn message: its clock is learnt, and its game examined unless
   * `seen` says the cursor is past it; `unknown`: the feed must learn the
   * game's seats first.
   */
  protected onTurn(message: Json, seen: (gameId: string, version: number) => boolean, unknown: (gameId: string) => boolean): void {
    const m = message as unknown as YourTurnEvent;
    if (typeof m?.gameId !== 'string' || typeof m.version !== 'number') return;
    if (m.clock !== undefined) this.learnClock(m.gameId, m.version, m.clock);
    if (seen(m.gameId, m.version)) return;
    this.pending.add(m.gameId);
    if (unknown(m.gameId)) this.refresh = true; // a game joined since: learn its seats
    void this.job.request();
  }

  /** A live notice that may name a new game: re-read the games. */
  protected relearn(): void {
    this.refresh = true;
    void this.job.request();
  }

  protected learnClock(gameId: string, version: number, clock: GameClock | null): void {
    const had = this.clocks.get(gameId);
    if (!had || had.version <= version) this.clocks.set(gameId, { version, clock });
  }

  /** The clock of the game at `version` when known (a your_turn of an older version has none). */
  protected clockAt(gameId: string, version: number): GameClock | null {
    const known = this.clocks.get(gameId);
    return known?.version === version ? known.clock : null;
  }

  protected forgetClock(gameId: string): void {
    this.clocks.delete(gameId);
  }

  private async catchUp(): Promise<void> {
    if (this.closed) return;
    if (this.refresh) {
      this.refresh = false;
      try {
        await this.load();
      } catch (err) {
        this.refresh = true;
        throw err;
      }
    }
    for (const gameId of [...this.pending]) {
      if (this.closed) return;
      await this.examine(gameId);
      this.pending.delete(gameId);
    }
  }
}
