// One player's feed of "your turn" notifications across its games.
//
// A your_turn is due for every version of a game after which the player holds
// an active seat (the game's log records the active roles after each entry).
// The feed keeps, per game in progress, the version up to which it has
// examined the log (turn-cursor.ts; that map is each event's id). A message on
// `player:<id>`, or the periodic check of the player's games, makes it read
// the log after that version and deliver the your_turn events found, in order;
// so lost or repeated messages cause neither gaps nor duplicates. (The catch-up
// loop, the log walk and the live notices are shared with the application
// feed: notice-feed.ts.)
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
import { playerChannel, type ClaimableEvent, type GameEvent, type PlayerGame, type ReminderEvent, type SeatedEvent, type YourTurnEvent } from '../service/api.ts';
import type { Fanout } from './fanout.ts';
import { dueRoles, liveNotice, NoticeFeed, walkLog } from './notice-feed.ts';
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

export class TurnFeed extends NoticeFeed {
  private readonly cursor: TurnCursor;
  /** The player's roles per game in progress. */
  private readonly roles = new Map<string, string[]>();
  private readonly fromPresent: boolean;
  /** The player's games were loaded once (the snapshot happens then). */
  private started = false;
  private unlisten: (() => void) | null = null;

  private readonly o: TurnFeedOptions;
  constructor(o: TurnFeedOptions) {
    super(o.pollMs, (err, fatal) => o.error(err, fatal));
    this.o = o;
    this.cursor = new Map(o.cursor ?? []);
    this.fromPresent = o.cursor === null;
  }

  /** Subscribes, then delivers what was missed (or the present turns); resolves once done. */
  async start(): Promise<void> {
    this.unlisten = await this.o.fanout.listen(playerChannel(this.o.playerId), (m) => this.onMessage(m));
    if (this.closed) return this.unlisten();
    await this.run();
  }

  protected stopListening(): void {
    this.unlisten?.();
  }

  /** The current cursor as an event id. */
  get id(): string {
    return encodeTurnCursor(this.cursor);
  }

  private onMessage(message: Json): void {
    const notice = liveNotice(message);
    if (notice?.type === 'reminder') this.o.reminder?.(notice, this.id);
    else if (notice?.type === 'claimable') this.o.claimable?.(notice, this.id);
    else if (notice?.type === 'seated') {
      this.o.seated?.(notice, this.id);
      this.relearn(); // a new game: learn its roles, examine its log
    } else {
      this.onTurn(
        message,
        (gameId, version) => version <= (this.cursor.get(gameId) ?? -1),
        (gameId) => !this.roles.has(gameId),
      );
    }
  }

  /** Learns the player's games; marks those that moved past the cursor. */
  protected async load(): Promise<void> {
    const games = await this.o.source.playerGames();
    const inProgress = new Set(games.map((g) => g.gameId));
    for (const gameId of [...this.cursor.keys()]) if (!inProgress.has(gameId)) this.forget(gameId);
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
    for (const g of games) {
      const at = this.cursor.get(g.gameId);
      // A cursor ahead of its game (never one this server gave: edited, or of another
      // database) would hold back every your_turn of that game until it passed that version,
      // for ever in practice: resume that game from the present instead, as a first connection.
      if (at !== undefined && at > g.version) {
        this.cursor.set(g.gameId, g.version);
        const roles = dueRoles(g, g.roles);
        if (roles.length > 0) this.o.deliver({ type: 'your_turn', gameId: g.gameId, version: g.version, roles, clock: g.clock }, this.id);
      } else if (g.version > (at ?? 0)) this.pending.add(g.gameId);
    }
  }

  /** First connection: every game is known up to now; a your_turn for each where it is the player's turn. */
  private snapshot(games: PlayerGame[]): void {
    for (const g of games) this.cursor.set(g.gameId, g.version);
    for (const g of games) {
      const roles = dueRoles(g, g.roles);
      if (roles.length > 0) this.o.deliver({ type: 'your_turn', gameId: g.gameId, version: g.version, roles, clock: g.clock }, this.id);
    }
  }

  private forget(gameId: string): void {
    this.cursor.delete(gameId);
    this.roles.delete(gameId);
    this.forgetClock(gameId);
  }

  protected async examine(gameId: string): Promise<void> {
    const mine = this.roles.get(gameId);
    if (!mine) return; // over, or not the player's (any more)
    const from = this.cursor.get(gameId) ?? 0;
    const events = await this.o.source.eventsSince(gameId, from);
    if (this.closed) return;
    const walked = walkLog(events, from, (e) => {
      const roles = dueRoles(e, mine);
      if (roles.length === 0) return;
      this.cursor.set(gameId, e.version);
      this.o.deliver({ type: 'your_turn', gameId, version: e.version, roles, clock: this.clockAt(gameId, e.version) }, this.id);
    });
    if (walked.over) this.forget(gameId);
    else this.cursor.set(gameId, walked.last);
  }
}
