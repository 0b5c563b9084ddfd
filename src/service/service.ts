// The game service: one object implementing GameServiceApi over a Store and a
// Bus. The work is done by the modules beside it (accounts, lifecycle, the
// write path in actions.ts, reads, records); this file wires them together.
import * as vacation from './vacation.ts';
import { DAY, DEFAULT_VACATION } from '../clocks/index.ts';
import type { Bus } from '../bus/bus.ts';
import type { GameModule } from '../engine/types.ts';
import { games as installedGames, gamesNeedingData, type GameTypeNeedingData } from '../games/index.ts';
import { installGames } from './installed-games.ts';
import type { Store } from '../store/store.ts';
import { reminderOptions, type ReminderOptions } from '../clocks/reminders.ts';
import { commitGroup } from '../store/games.ts';
import type { Caller, GameServiceApi, ServiceObserver } from './api.ts';
import * as accounts from './accounts.ts';
import * as actions from './actions.ts';
import type { Ctx } from './context.ts';
import { GameCache } from './game-cache.ts';
import * as gameTypes from './game-types.ts';
import * as gameData from './game-data.ts';
import { KEY_TTL_MS, KeyCache } from './key-cache.ts';
import * as lifecycle from './lifecycle.ts';
import * as reads from './reads.ts';
import { getBoardPicture, hasBoardPictures, PictureCache } from './pictures.ts';
import * as records from './records.ts';
import * as leagues from './leagues.ts';
import * as standIns from './league-stand-in.ts';
import * as rounds from './league-rounds.ts';
import * as results from './league-results.ts';
import * as ratings from './ratings.ts';
import * as settle from './settle.ts';
import * as clocks from './clocks.ts';
import * as calendar from './league-calendar.ts';
import * as webhooks from './webhooks.ts';
import * as aiSeats from './ai-seats.ts';
import type { AiPool } from './ai-pool.ts';

export interface GameServiceOptions {
  store: Pick<Store, 'prisma' | 'pool'>;
  /** How many games each instance keeps parsed in memory (game-cache.ts; default 500, 0: none). */
  gameCacheSize?: number;
  /** How many API keys each instance keeps checked (key-cache.ts; default 10,000, 0: none). */
  keyCacheSize?: number;
  /** How long a checked key is kept (default KEY_TTL_MS, 10 s): the longest a revocation lost on the bus goes unnoticed. */
  keyCacheTtlMs?: number;
  bus: Bus;
  /** HERALD_ADMIN_TOKEN; null: operator endpoints refuse everyone. */
  adminToken?: string | null;
  /** HERALD_OPEN_SIGNUP (default true). */
  openSignup?: boolean;
  /** The game modules that need no data, by id (default: every installed one, src/games/index.ts). */
  games?: Record<string, GameModule>;
  /** The game types that need a data file (default: gamesNeedingData of src/games/index.ts). */
  gamesNeedingData?: readonly GameTypeNeedingData[];
  /** Their data files by setting (Config.gameDataFiles); a setting left out is not set. */
  gameDataFiles?: Record<string, string | null>;
  log?: { warn(obj: object, msg: string): void };
  /** The service's clock (ms since the epoch; default Date.now): tests move time forward with it. */
  now?: () => number;
  /** The yearly vacation allowance in days (HERALD_VACATION_DAYS; default 30). */
  vacationDays?: number;
  /** When reminders go out (share used, time left); default DEFAULT_REMINDERS (80%, 24 h / 10%). */
  reminders?: ReminderOptions;
  /** Bytes of board pictures each instance keeps (pictures.ts; default 32 MB, 0: none). */
  pictureCacheBytes?: number;
  /** Webhook delivery settings (webhooks.ts); unset ones take DEFAULT_WEBHOOK_OPTIONS. */
  webhooks?: Partial<webhooks.WebhookOptions>;
  /** The AI's worker pool (ai-pool.ts): set on an instance that runs the AI job. */
  aiPool?: AiPool;
}

export class GameService implements GameServiceApi {
  private readonly ctx: Ctx;
  private readonly pictures: PictureCache;

  constructor(o: GameServiceOptions) {
    this.pictures = new PictureCache(o.pictureCacheBytes ?? 32 * 1024 * 1024);
    const log = o.log ?? { warn: () => {} };
    // Read once: the data files are not watched (a changed file takes a restart).
    const installed = installGames(o.games ?? installedGames, o.gamesNeedingData ?? gamesNeedingData, o.gameDataFiles ?? {}, log);
    this.ctx = {
      db: o.store.prisma,
      sql: o.store.pool,
      commits: commitGroup(o.store.pool, (changes) => {
        for (const obs of this.ctx.observers) {
          try {
            obs.commitStatement?.(changes);
          } catch {
            // observers never break a commit
          }
        }
      }),
      cache: new GameCache(o.gameCacheSize ?? 500),
      keys: new KeyCache(o.bus, o.keyCacheSize ?? 10_000, o.keyCacheTtlMs ?? KEY_TTL_MS, o.now ?? Date.now),
      bus: o.bus,
      adminToken: o.adminToken ?? null,
      openSignup: o.openSignup ?? true,
      games: installed.modules,
      dataGames: installed.dataGames,
      observers: [],
      log,
      now: o.now ?? Date.now,
      vacation: o.vacationDays === undefined ? DEFAULT_VACATION : { allowanceMs: o.vacationDays * DAY, minChargeMs: Math.min(DEFAULT_VACATION.minChargeMs, o.vacationDays * DAY) },
      // Checked here, so bad settings stop the start rather than every action of a clocked game.
      ...(o.reminders !== undefined ? { reminders: reminderOptions(o.reminders) } : {}),
      webhooks: { ...webhooks.DEFAULT_WEBHOOK_OPTIONS, ...o.webhooks },
      deliveries: new webhooks.DeliverySignal(),
      ...(o.aiPool ? { aiPool: o.aiPool } : {}),
    };
    vacation.listenForClockChanges(this.ctx);
  }

  observe(observer: ServiceObserver): void {
    this.ctx.observers.push(observer);
  }

  authenticate = (rawKey: string, actAs?: string) => accounts.authenticate(this.ctx, rawKey, actAs);
  cachedCaller = (rawKey: string, actAs?: string) => accounts.cachedCaller(this.ctx, rawKey, actAs);
  isAdminToken = (raw: string) => accounts.isAdminToken(this.ctx, raw);
  createPlayer: GameServiceApi['createPlayer'] = (caller, input) => accounts.createPlayer(this.ctx, caller, input);
  getPlayer = (caller: Caller) => accounts.getPlayer(this.ctx, caller);
  listKeys = (caller: Caller) => accounts.listKeys(this.ctx, caller);
  createKey = (caller: Caller, label?: string) => accounts.createKey(this.ctx, caller, label);
  revokeKey = (caller: Caller, keyId: string) => accounts.revokeKey(this.ctx, caller, keyId);
  revokedKeys = (keyIds: readonly string[]) => accounts.revokedKeys(this.ctx, keyIds);
  createApp: GameServiceApi['createApp'] = (caller, input) => accounts.createApp(this.ctx, caller, input);

  listGameTypes = () => gameTypes.listGameTypes(this.ctx);
  getGameData = (gameType: string) => gameData.getGameData(this.ctx, gameType);
  getGameDataFile = (gameType: string, hash: string, name: string) => gameData.getGameDataFile(this.ctx, gameType, hash, name);
  createGame: GameServiceApi['createGame'] = (caller, input) => lifecycle.createGame(this.ctx, caller, input);
  join: GameServiceApi['join'] = (caller, gameId, input) => lifecycle.join(this.ctx, caller, gameId, input);
  leave: GameServiceApi['leave'] = (caller, gameId, input) => lifecycle.leave(this.ctx, caller, gameId, input);
  createInvite: GameServiceApi['createInvite'] = (caller, gameId, input) => lifecycle.createInvite(this.ctx, caller, gameId, input);
  start: GameServiceApi['start'] = (caller, gameId) => lifecycle.start(this.ctx, caller, gameId);
  resign: GameServiceApi['resign'] = (caller, gameId, input) => lifecycle.resign(this.ctx, caller, gameId, input);
  rematch: GameServiceApi['rematch'] = (caller, gameId) => lifecycle.rematch(this.ctx, caller, gameId);
  claimTimeout: GameServiceApi['claimTimeout'] = (caller, gameId, input) => clocks.claimTimeout(this.ctx, caller, gameId, input);
  abort: GameServiceApi['abort'] = (caller, gameId) => lifecycle.abort(this.ctx, caller, gameId);

  submitAction: GameServiceApi['submitAction'] = (caller, gameId, input) => actions.submitAction(this.ctx, caller, gameId, input);

  getGame: GameServiceApi['getGame'] = (caller, gameId) => reads.getGame(this.ctx, caller, gameId);
  getView: GameServiceApi['getView'] = (caller, gameId, opts) => reads.getView(this.ctx, caller, gameId, opts);
  getLegalActions: GameServiceApi['getLegalActions'] = (caller, gameId, opts) => reads.getLegalActions(this.ctx, caller, gameId, opts);
  getBoardPicture: GameServiceApi['getBoardPicture'] = (caller, gameId, opts) => getBoardPicture(this.ctx, this.pictures, caller, gameId, opts);
  hasBoardPictures: GameServiceApi['hasBoardPictures'] = (gameType) => hasBoardPictures(gameType);
  getLog: GameServiceApi['getLog'] = (caller, gameId, opts) => reads.getLog(this.ctx, caller, gameId, opts);
  listGames: GameServiceApi['listGames'] = (caller, filter, page) => reads.listGames(this.ctx, caller, filter, page);
  listEventsSince: GameServiceApi['listEventsSince'] = (gameId, version, limit) => reads.listEventsSince(this.ctx, gameId, version, limit);
  playerGames: GameServiceApi['playerGames'] = (playerId) => reads.playerGames(this.ctx, playerId);
  requireApp: GameServiceApi['requireApp'] = (caller) => accounts.requireApp(caller);
  appPlayers: GameServiceApi['appPlayers'] = (appId) => accounts.appPlayers(this.ctx, appId);
  appGames: GameServiceApi['appGames'] = (appId) => reads.appGames(this.ctx, appId);

  exportGame: GameServiceApi['exportGame'] = (caller, gameId) => records.exportGame(this.ctx, caller, gameId);
  importGame: GameServiceApi['importGame'] = (caller, input) => records.importGame(this.ctx, caller, input);

  createLeague: GameServiceApi['createLeague'] = (caller, input) => leagues.createLeague(this.ctx, caller, input);
  updateLeague: GameServiceApi['updateLeague'] = (caller, id, input) => leagues.updateLeague(this.ctx, caller, id, input);
  getLeague: GameServiceApi['getLeague'] = (caller, id) => leagues.getLeague(this.ctx, caller, id);
  listLeagues: GameServiceApi['listLeagues'] = (caller, filter, page) => leagues.listLeagues(this.ctx, caller, filter, page);
  addOrganiser: GameServiceApi['addOrganiser'] = (caller, id, playerId) => leagues.addOrganiser(this.ctx, caller, id, playerId);
  removeOrganiser: GameServiceApi['removeOrganiser'] = (caller, id, playerId) => leagues.removeOrganiser(this.ctx, caller, id, playerId);
  listEntrants: GameServiceApi['listEntrants'] = (caller, id) => leagues.listEntrants(this.ctx, caller, id);
  joinLeague: GameServiceApi['joinLeague'] = (caller, id) => leagues.joinLeague(this.ctx, caller, id);
  withdrawFromLeague: GameServiceApi['withdrawFromLeague'] = (caller, id) => leagues.withdrawFromLeague(this.ctx, caller, id);
  addEntrant: GameServiceApi['addEntrant'] = (caller, id, input) => leagues.addEntrant(this.ctx, caller, id, input);
  updateEntrant: GameServiceApi['updateEntrant'] = (caller, id, playerId, input) => leagues.updateEntrant(this.ctx, caller, id, playerId, input);
  removeEntrant: GameServiceApi['removeEntrant'] = (caller, id, playerId) => leagues.removeEntrant(this.ctx, caller, id, playerId);
  setStandIn: GameServiceApi['setStandIn'] = (caller, id, playerId, input) => standIns.setStandIn(this.ctx, caller, id, playerId, input);
  removeStandIn: GameServiceApi['removeStandIn'] = (caller, id, playerId) => standIns.removeStandIn(this.ctx, caller, id, playerId);
  startLeague: GameServiceApi['startLeague'] = (caller, id) => leagues.startLeague(this.ctx, caller, id);

  listRounds: GameServiceApi['listRounds'] = (caller, id) => rounds.listRounds(this.ctx, caller, id);
  getRound: GameServiceApi['getRound'] = (caller, id, n) => rounds.getRound(this.ctx, caller, id, n);
  generateRound: GameServiceApi['generateRound'] = (caller, id) => rounds.generateRound(this.ctx, caller, id);
  editPairings: GameServiceApi['editPairings'] = (caller, id, n, edits) => rounds.editPairings(this.ctx, caller, id, n, edits);
  publishRound: GameServiceApi['publishRound'] = (caller, id, n) => rounds.publishRound(this.ctx, caller, id, n);
  deleteDraftRound: GameServiceApi['deleteDraftRound'] = (caller, id, n) => rounds.deleteDraftRound(this.ctx, caller, id, n);

  reportResult: GameServiceApi['reportResult'] = (caller, id, pairingId, input) => results.reportResult(this.ctx, caller, id, pairingId, input);
  confirmResult: GameServiceApi['confirmResult'] = (caller, id, pairingId) => results.confirmResult(this.ctx, caller, id, pairingId);
  setResult: GameServiceApi['setResult'] = (caller, id, pairingId, input) => results.setResult(this.ctx, caller, id, pairingId, input);
  listResultChanges: GameServiceApi['listResultChanges'] = (caller, id, opts) => results.listResultChanges(this.ctx, caller, id, opts);
  getStandings: GameServiceApi['getStandings'] = (caller, id, opts) => results.getStandings(this.ctx, caller, id, opts);
  exportStandingsCsv: GameServiceApi['exportStandingsCsv'] = (caller, id, opts) => results.exportStandingsCsv(this.ctx, caller, id, opts);

  getPlayerProfile: GameServiceApi['getPlayerProfile'] = (caller, playerId) => ratings.getPlayerProfile(this.ctx, caller, playerId);
  getRatingHistory: GameServiceApi['getRatingHistory'] = (caller, playerId, gameType, page) => ratings.getRatingHistory(this.ctx, caller, playerId, gameType, page);
  getLeaderboard: GameServiceApi['getLeaderboard'] = (gameType, opts) => ratings.getLeaderboard(this.ctx, gameType, opts);

  // Not requests: for the scheduled sweep (src/jobs/settle-sweep.ts) and tests.
  /** Settles a game that is over, once (settle.ts): true when this call settled it. */
  settleGame = (gameId: string): Promise<boolean> => settle.settleGame(this.ctx, gameId);
  /** Settles every game that is over and not settled yet; how many it settled. */
  sweepUnsettled = (): Promise<number> => settle.sweepUnsettled(this.ctx);
  /** Ends the game by timeout if a seat's time has run out (clocks.ts): true when this call ended it. */
  fireTimeout = (gameId: string): Promise<boolean> => clocks.fireTimeout(this.ctx, gameId);
  /** Fires every timeout that is due (jobs/clock-sweep.ts); how many games it ended. */
  sweepTimeouts = (): Promise<number> => clocks.sweepTimeouts(this.ctx);
  /** Ends the vacations that reached their ends_by (resuming their clocks), then fires due timeouts: what the clock sweep runs. */
  sweepClocks = async (): Promise<number> => {
    await vacation.sweepVacations(this.ctx);
    return clocks.sweepTimeouts(this.ctx);
  };
  getVacation: GameServiceApi['getVacation'] = (caller) => vacation.getVacation(this.ctx, caller);
  startVacation: GameServiceApi['startVacation'] = (caller, input) => vacation.startVacation(this.ctx, caller, input);
  endVacation: GameServiceApi['endVacation'] = (caller) => vacation.endVacation(this.ctx, caller);
  sweepReminders = (): Promise<number> => clocks.sweepReminders(this.ctx);
  /** Starts every league round that is due on its schedule (jobs/round-sweep.ts); how many leagues moved on. */
  sweepRounds = (): Promise<number> => calendar.sweepScheduledRounds(this.ctx);

  createWebhook: GameServiceApi['createWebhook'] = (caller, input) => webhooks.createWebhook(this.ctx, caller, input);
  listWebhooks: GameServiceApi['listWebhooks'] = (caller) => webhooks.listWebhooks(this.ctx, caller);
  getWebhook: GameServiceApi['getWebhook'] = (caller, id) => webhooks.getWebhook(this.ctx, caller, id);
  updateWebhook: GameServiceApi['updateWebhook'] = (caller, id, input) => webhooks.updateWebhook(this.ctx, caller, id, input);
  deleteWebhook: GameServiceApi['deleteWebhook'] = (caller, id) => webhooks.deleteWebhook(this.ctx, caller, id);
  rotateWebhookSecret: GameServiceApi['rotateWebhookSecret'] = (caller, id) => webhooks.rotateWebhookSecret(this.ctx, caller, id);
  listWebhookDeliveries: GameServiceApi['listWebhookDeliveries'] = (caller, id, o) => webhooks.listWebhookDeliveries(this.ctx, caller, id, o);
  redeliverWebhookMessage: GameServiceApi['redeliverWebhookMessage'] = (caller, id, messageId) => webhooks.redeliverMessage(this.ctx, caller, id, messageId);
  redeliverWebhookRange: GameServiceApi['redeliverWebhookRange'] = (caller, id, input) => webhooks.redeliverRange(this.ctx, caller, id, input);
  testWebhook: GameServiceApi['testWebhook'] = (caller, id) => webhooks.testWebhook(this.ctx, caller, id);
  /** Sends the webhook messages that are due (jobs/webhook-deliveries.ts); how many were delivered. */
  deliverWebhooks = (stopping?: () => boolean): Promise<number> => webhooks.deliverDue(this.ctx, stopping);
  /** The delivery job's run (jobs/webhook-deliveries.ts): its finding messages arms the commits' wakes. */
  deliverWebhooksJob = (stopping: () => boolean): Promise<number> => webhooks.deliverDue(this.ctx, stopping, true);
  /** What the delivery job waits on between runs: its interval, or a commit's wake. */
  get webhookSignal(): webhooks.DeliverySignal {
    return this.ctx.deliveries!;
  }
  /** One move of an AI seat of the game if one is to act (ai-seats.ts; the AI job calls it). */
  playAiTurn = (gameId: string): Promise<aiSeats.AiTurnOutcome> => aiSeats.playAiTurn(this.ctx, gameId);
  /** Games where an AI seat is to act (the AI job's sweep). */
  pendingAiGames = (limit?: number): Promise<string[]> => aiSeats.pendingAiGames(this.ctx, limit);
  /** Calls onTurn(gameId) for each "your turn" of an AI player (the AI job's trigger); resolves to an unsubscribe. */
  onAiTurn = (onTurn: (gameId: string) => void): Promise<(() => Promise<void>) | null> => aiSeats.onAiTurn(this.ctx, onTurn);
  /** Deletes finished webhook messages older than the retention (jobs/webhook-deliveries.ts); how many. */
  pruneWebhooks = (): Promise<number> => webhooks.pruneFinished(this.ctx);
}

export function createGameService(o: GameServiceOptions): GameService {
  return new GameService(o);
}
