// An application's feed: the notices of the per-player feed (turn-feed.ts) for
// every player the application created, each naming the player it is for.
//
// It works as the per-player feed does, over the union of the app's players'
// games: per game in progress, the version up to which its log was examined
// (turn-cursor.ts, AppCursor; that map is each event's id). The log of a game
// is read once for all the app's players seated in it, and each version
// yields a your_turn for each of them holding an active role, in player-id
// order. Messages on `player:<id>` of every app player (one bus subscription
// per channel and instance, shared by all listeners: fanout.ts), and the
// periodic re-read of the app's players and games, make it examine the logs
// after the cursor; so lost or repeated messages cause neither gaps nor
// duplicates, for players created while the stream is open too (their games
// are found at the next re-read, and their logs replayed from the start of the
// game).
//
// The payloads are the per-player feed's, to the same player: a your_turn
// says which of the player's own roles may act and the public clock; seated,
// reminder and claimable notices are passed on as they arrive (live only, with
// the current cursor as id). Nothing of another seat's hidden information is
// in any of them.
import type { Json } from '../bus/bus.ts';
import { playerChannel, type AppGame, type AppPlayer, type ClaimableEvent, type GameEvent, type ReminderEvent, type SeatedEvent, type YourTurnEvent } from '../service/api.ts';
import type { Fanout } from './fanout.ts';
import { dueRoles, liveNotice, NoticeFeed, walkLog } from './notice-feed.ts';
import { encodeAppCursor, type AppCursor } from './turn-cursor.ts';

export interface AppFeedSource {
  /** The players the application created. */
  appPlayers(): Promise<AppPlayer[]>;
  /** The games not over where they hold seats. */
  appGames(): Promise<AppGame[]>;
  /** Every event of the game after `version`, oldest first. */
  eventsSince(gameId: string, version: number): Promise<GameEvent[]>;
}

/** A notice of the per-player feed and the app's player it is for. */
export type AppNotice = (YourTurnEvent | SeatedEvent | ReminderEvent | ClaimableEvent) & { player: AppPlayer };

export interface AppFeedOptions {
  source: AppFeedSource;
  fanout: Fanout;
  /** Resume from this cursor (a Last-Event-ID); null: start from the present. */
  cursor: AppCursor | null;
  pollMs: number;
  /** `id` is the cursor after this notice (the SSE event id); seated, reminder and claimable: the cursor then. */
  deliver(notice: AppNotice, id: string): void;
  error(err: unknown, fatal: boolean): void;
}

export class AppFeed extends NoticeFeed {
  private readonly cursor: AppCursor;
  private readonly players = new Map<string, AppPlayer>();
  private readonly unlisten = new Map<string, () => void>();
  /** Per game in progress: the roles each of the app's players holds. */
  private readonly seats = new Map<string, Map<string, string[]>>();
  private readonly fromPresent: boolean;
  private started = false;

  private readonly o: AppFeedOptions;
  constructor(o: AppFeedOptions) {
    super(o.pollMs, (err, fatal) => o.error(err, fatal));
    this.o = o;
    this.cursor = new Map([...(o.cursor ?? [])].map(([gameId, e]) => [gameId, { ...e }]));
    this.fromPresent = o.cursor === null;
  }

  /** Learns the app's players and subscribes to them, then delivers what was missed (or the present turns); resolves once done. */
  start(): Promise<void> {
    return this.run();
  }

  protected stopListening(): void {
    for (const stop of this.unlisten.values()) stop();
    this.unlisten.clear();
  }

  /** The current cursor as an event id. */
  get id(): string {
    return encodeAppCursor(this.cursor);
  }

  private onMessage(playerId: string, message: Json): void {
    const player = this.players.get(playerId);
    if (this.closed || !player) return;
    const notice = liveNotice(message);
    if (notice) {
      this.o.deliver({ ...notice, player }, this.id);
      if (notice.type === 'seated') this.relearn(); // a new game: learn its seats, examine its log
      return;
    }
    this.onTurn(
      message,
      (gameId, version) => {
        const seen = this.cursor.get(gameId);
        return seen !== undefined && seen.sent === undefined && version <= seen.version;
      },
      (gameId) => !this.seats.get(gameId)?.has(playerId),
    );
  }
  /** Subscribes to players not listened to yet (before their games are read, so no message in between is missed). */
  private async listenToPlayers(): Promise<void> {
    const players = await this.o.source.appPlayers();
    const fresh: AppPlayer[] = [];
    for (const p of players) {
      if (!this.players.has(p.id)) fresh.push(p);
      this.players.set(p.id, p);
    }
    await Promise.all(
      fresh.map(async (p) => {
        const stop = await this.o.fanout.listen(playerChannel(p.id), (m) => this.onMessage(p.id, m));
        if (this.closed || this.unlisten.has(p.id)) stop();
        else this.unlisten.set(p.id, stop);
      }),
    );
  }

  /** Learns the app's players and their games; marks the games that moved past the cursor. */
  protected async load(): Promise<void> {
    await this.listenToPlayers();
    if (this.closed) return;
    let games = await this.o.source.appGames();
    // A player created between the two reads: listen to it too, and read the games again.
    if (games.some((g) => g.seats.some((s) => !this.players.has(s.playerId)))) {
      await this.listenToPlayers();
      games = await this.o.source.appGames();
    }
    const inProgress = new Set(games.map((g) => g.gameId));
    for (const gameId of [...this.cursor.keys()]) if (!inProgress.has(gameId)) this.forget(gameId);
    for (const g of games) {
      this.seats.set(g.gameId, new Map(g.seats.filter((s) => this.players.has(s.playerId)).map((s) => [s.playerId, s.roles])));
      this.learnClock(g.gameId, g.version, g.clock);
    }
    if (this.fromPresent && !this.started) {
      this.started = true;
      this.snapshot(games);
      return;
    }
    this.started = true;
    for (const g of games) {
      const c = this.cursor.get(g.gameId);
      // A cursor ahead of its game (never one this server gave) would hold back every
      // your_turn of that game for ever in practice: resume that game from the present.
      if (c && c.version > g.version) {
        this.cursor.set(g.gameId, { version: g.version });
        if (g.status !== 'active') continue;
        for (const [player, roles] of this.due(g.gameId, g.activeRoles)) {
          this.o.deliver({ type: 'your_turn', gameId: g.gameId, version: g.version, roles, clock: g.clock, player }, this.id);
        }
      } else if (!c || g.version > c.version || c.sent !== undefined) this.pending.add(g.gameId);
    }
  }

  /** First connection: every game is known up to now; a your_turn for each of the app's players whose turn it is now. */
  private snapshot(games: AppGame[]): void {
    for (const g of games) this.cursor.set(g.gameId, { version: g.version });
    for (const g of games) {
      if (g.status !== 'active') continue;
      for (const [player, roles] of this.due(g.gameId, g.activeRoles)) {
        this.o.deliver({ type: 'your_turn', gameId: g.gameId, version: g.version, roles, clock: g.clock, player }, this.id);
      }
    }
  }

  /** The app's players holding active roles in the game, in player-id order (the order the cursor's `~n` counts in). */
  private due(gameId: string, activeRoles: string[]): Array<[AppPlayer, string[]]> {
    const seated = this.seats.get(gameId);
    if (!seated) return [];
    const out: Array<[AppPlayer, string[]]> = [];
    for (const playerId of [...seated.keys()].sort()) {
      const player = this.players.get(playerId);
      const roles = activeRoles.filter((r) => seated.get(playerId)!.includes(r));
      if (player && roles.length > 0) out.push([player, roles]);
    }
    return out;
  }

  private forget(gameId: string): void {
    this.cursor.delete(gameId);
    this.seats.delete(gameId);
    this.forgetClock(gameId);
  }

  protected async examine(gameId: string): Promise<void> {
    if (!this.seats.has(gameId)) return; // over, or no player of the app's (any more)
    const at = this.cursor.get(gameId);
    // A partly delivered version is read again; its first `sent` notices are skipped.
    const from = at === undefined ? 0 : at.sent === undefined ? at.version : at.version - 1;
    const events = await this.o.source.eventsSince(gameId, from);
    if (this.closed) return;
    const walked = walkLog(events, from, (e) => {
      const due = e.status === 'active' ? this.due(gameId, e.activeRoles) : [];
      const skip = at?.sent !== undefined && e.version === at.version ? at.sent : 0;
      const clock = this.clockAt(gameId, e.version);
      for (let i = skip; i < due.length; i++) {
        const [player, roles] = due[i]!;
        this.cursor.set(gameId, i + 1 < due.length ? { version: e.version, sent: i + 1 } : { version: e.version });
        this.o.deliver({ type: 'your_turn', gameId, version: e.version, roles, clock, player }, this.id);
        if (this.closed) return false;
      }
    });
    if (walked.stopped) return;
    if (walked.over) this.forget(gameId);
    // (A partly delivered version is always in the log: nothing read leaves its entry as it was.)
    else if (walked.last > from || at === undefined) this.cursor.set(gameId, { version: walked.last });
  }
}
