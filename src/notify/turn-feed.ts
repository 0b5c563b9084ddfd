// One player's feed of "your turn" notifications across its games.
//
// A your_turn is due for every version of a game after which the player holds
// an active seat (the game's log records the active roles after each entry).
// The feed keeps, per game in progress, the version up to which it has
// examined the log (turn-cursor.ts; that map is each event's id). A message on
// `player:<id>`, or the periodic check of the player's games, makes it read
// the log after that version and deliver the your_turn events found, in order;
// so lost or repeated messages cause neither gaps nor duplicates.
//
// Without a cursor (a first connection) the feed starts from the present: a
// your_turn for each game where it is the player's turn now.
//
// `seated` messages (a published league round gave the player a seat) are
// passed on as they arrive, with the current cursor as their id: no log holds
// them, so they are live notices only. Each also makes the feed learn the
// player's games again, so the new game's turns are found in its log (and a
// feed resuming later finds them too: the game is not in its cursor yet).
import type { Json } from '../bus/bus.ts';
import { isClaimableEvent, isReminderEvent, isSeatedEvent, playerChannel, type ClaimableEvent, type GameClock, type GameEvent, type PlayerGame, type ReminderEvent, type SeatedEvent, type YourTurnEvent } from '../service/api.ts';
import type { Fanout } from './fanout.ts';
import { isFatal, isOverStatus } from './game-feed.ts';
import { SerialJob } from './serial.ts';
import { encodeTurnCursor, type TurnCursor } from './turn-cursor.ts';

export interface TurnFeedSource {
  /** The player's games that are not over. */
  playerGames(): Promise<PlayerGame[]>;
  /** Every event of the game after `version`, oldest first. */
  eventsSince(gameId: string, version: number): Promise<GameEvent[]>;
}

export interface TurnFeedOptions {
  playerId: string;
  source: TurnFeedSource;
  fanout: Fanout;
  /** Resume from this cursor (a Last-Event-ID); null: start from the present. */
  cursor: TurnCursor | null;
  pollMs: number;
  /** `id` is the cursor after this event (the SSE event id). */
  deliver(event: YourTurnEvent, id: string): void;
  /** A `seated` message as it arrived (`id`: the cursor then); left out: ignored (the game's turns are still found). */
  seated?(event: SeatedEvent, id: string): void;
  /** A `reminder` message as it arrived (`id`: the cursor then); left out: ignored. */
  reminder?(event: ReminderEvent, id: string): void;
  /** A `claimable` message (a win on time may be claimed) as it arrived (`id`: the cursor then); left out: ignored. */
  claimable?(event: ClaimableEvent, id: string): void;
  error(err: unknown, fatal: boolean): void;
}

export class TurnFeed {
  private readonly cursor: TurnCursor;
  /** The player's roles per game in progress. */
  private readonly roles = new Map<string, string[]>();
  /** Games with news to examine, in the order they were heard of. */
  private readonly pending = new Set<string>();
  /** The newest clock known per game (from a message or the player's games) and its version: a your_turn of that version carries it. */
  private readonly clocks = new Map<string, { version: number; clock: GameClock | null }>();
  private refresh = true;
  private readonly fromPresent: boolean;
  /** The player's games were loaded once (the snapshot happens then). */
  private started = false;
  private readonly job: SerialJob;
  private unlisten: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly o: TurnFeedOptions) {
    this.cursor = new Map(o.cursor ?? []);
    this.fromPresent = o.cursor === null;
    this.job = new SerialJob(
      () => this.catchUp(),
      (err) => this.o.error(err, isFatal(err)),
    );
  }

  /** Subscribes, then delivers what was missed (or the present turns); resolves once done. */
  async start(): Promise<void> {
    this.unlisten = await this.o.fanout.listen(playerChannel(this.o.playerId), (m) => this.onMessage(m));
    if (this.closed) return this.unlisten();
    this.timer = setInterval(() => {
      this.refresh = true;
      void this.job.request();
    }, this.o.pollMs);
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

  /** The current cursor as an event id. */
  get id(): string {
    return encodeTurnCursor(this.cursor);
  }

  private onMessage(message: Json): void {
    if (isReminderEvent(message)) {
      const { type, gameId, role, kind, remainingMs, deadline } = message;
      this.o.reminder?.({ type, gameId, role, kind, remainingMs, deadline }, this.id);
      return;
    }
    if (isClaimableEvent(message)) {
      const { type, gameId, role, flagged, ranOutAt } = message;
      this.o.claimable?.({ type, gameId, role, flagged, ranOutAt }, this.id);
      return;
    }
    if (isSeatedEvent(message)) {
      const { type, gameId, role, leagueId, round, board } = message;
      this.o.seated?.({ type, gameId, role, leagueId, round, board }, this.id);
      this.refresh = true; // a new game: learn its roles, examine its log
      void this.job.request();
      return;
    }
    const m = message as unknown as YourTurnEvent;
    if (typeof m?.gameId !== 'string' || typeof m.version !== 'number') return;
    if (m.clock !== undefined) this.learnClock(m.gameId, m.version, m.clock);
    const seen = this.cursor.get(m.gameId);
    if (seen !== undefined && m.version <= seen) return;
    this.pending.add(m.gameId);
    if (!this.roles.has(m.gameId)) this.refresh = true; // a game joined since: learn its roles
    void this.job.request();
  }

  private async catchUp(): Promise<void> {
    if (this.closed) return;
    if (this.refresh) {
      this.refresh = false;
      try {
        await this.loadGames();
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

  /** Learns the player's games; marks those that moved past the cursor. */
  private async loadGames(): Promise<void> {
    const games = await this.o.source.playerGames();
    const inProgress = new Set(games.map((g) => g.gameId));
    for (const gameId of [...this.cursor.keys()]) {
      if (!inProgress.has(gameId)) {
        this.cursor.delete(gameId);
        this.roles.delete(gameId);
        this.clocks.delete(gameId);
      }
    }
    for (const g of games) {
      this.roles.set(g.gameId, g.roles);
      this.learnClock(g.gameId, g.version, g.clock);
    }
    if (this.fromPresent && !this.started) {
      this.started = true;
      this.snapshot(games);
      return;
    }
    this.started = true;
    for (const g of games) if (g.version > (this.cursor.get(g.gameId) ?? 0)) this.pending.add(g.gameId);
  }

  /** First connection: every game is known up to now; a your_turn for each where it is the player's turn. */
  private snapshot(games: PlayerGame[]): void {
    for (const g of games) this.cursor.set(g.gameId, g.version);
    for (const g of games) {
      const roles = g.status === 'active' ? g.activeRoles.filter((r) => g.roles.includes(r)) : [];
      if (roles.length > 0) this.o.deliver({ type: 'your_turn', gameId: g.gameId, version: g.version, roles, clock: g.clock }, this.id);
    }
  }

  private learnClock(gameId: string, version: number, clock: GameClock | null): void {
    const had = this.clocks.get(gameId);
    if (!had || had.version <= version) this.clocks.set(gameId, { version, clock });
  }

  private async examine(gameId: string): Promise<void> {
    const mine = this.roles.get(gameId);
    if (!mine) return; // over, or not the player's (any more)
    const from = this.cursor.get(gameId) ?? 0;
    const events = await this.o.source.eventsSince(gameId, from);
    if (this.closed) return;
    let last = from;
    for (const e of events) {
      if (e.version <= last) continue;
      last = e.version;
      const roles = e.status === 'active' ? e.activeRoles.filter((r) => mine.includes(r)) : [];
      if (roles.length > 0) {
        this.cursor.set(gameId, e.version);
        const known = this.clocks.get(gameId);
        this.o.deliver({ type: 'your_turn', gameId, version: e.version, roles, clock: known?.version === e.version ? known.clock : null }, this.id);
      }
      if (isOverStatus(e.status)) {
        this.cursor.delete(gameId);
        this.roles.delete(gameId);
        this.clocks.delete(gameId);
        return;
      }
    }
    this.cursor.set(gameId, last);
  }
}
