// Computer players in games (issue 20). Herald's AI plays a seat as a player:
// one bot player per level (players.ai_level, made on first use, holding no
// key) takes the seat, so rules, log, events, clocks, ratings and webhooks
// treat it as any player. Its moves come from the AI job (jobs/ai-moves.ts):
// playAiTurn reads the seat's view and legal actions exactly as a client of
// that seat gets them, asks the worker pool (ai-pool.ts) and submits the answer
// through the one write path with expectedVersion.
import { AI_LEVELS, isAiLevel, levelAvailable as aiLevelAvailable, onlyWaiting, searchActions, type AiLevel, type AnyGameModule } from '../ai/index.ts';
import type { Json } from '../bus/bus.ts';
import type { GameModule } from '../engine/types.ts';
import { aiTurnGames } from '../store/games.ts';
import { ensureAiPlayers, findAiPlayers } from '../store/players.ts';
import { playerChannel, type Caller } from './api.ts';
import { currentGame, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { isPlainObject } from './json.ts';
import { submitAction } from './actions.ts';
import { getLegalActions, getView } from './reads.ts';

/** The name every AI player goes by (shown in game summaries, standings, leaderboards). */
export const aiPlayerName = (level: AiLevel): string => `Herald AI (${level})`;

/** A level the module can be played at: random always; the search levels need the module to sample states consistent with a view. */
export function levelAvailable(m: GameModule, level: AiLevel): boolean {
  return aiLevelAvailable(m as AnyGameModule, level);
}

/** The levels a game type offers (GET /game-types lists them). */
export function aiLevelsOf(m: GameModule): AiLevel[] {
  return AI_LEVELS.filter((l) => levelAvailable(m, l));
}

const players = new WeakMap<Ctx, Promise<Map<string, string>>>();

/** The AI players' ids by level (made on first use, then kept). */
export function aiPlayers(ctx: Ctx): Promise<Map<string, string>> {
  let p = players.get(ctx);
  if (!p) {
    p = ensureAiPlayers(ctx.sql, AI_LEVELS.map((level) => ({ level, name: aiPlayerName(level) })));
    p.catch(() => players.delete(ctx));
    players.set(ctx, p);
  }
  return p;
}

/**
 * The `ai` field of a new game: role → level, each role one of the module's and not
 * one the creator takes, each level one of AI_LEVELS (else 400 invalid_request with
 * `field`) and available for this game type (else 422 ai_level_unavailable). Nothing
 * is stored before this passes.
 */
export function parseAiSeats(m: GameModule, raw: unknown, creatorRoles: readonly string[]): Map<string, AiLevel> {
  const out = new Map<string, AiLevel>();
  if (raw === undefined || raw === null) return out;
  if (!isPlainObject(raw)) {
    throw new ServiceError('invalid_request', `ai must be an object of role → level, e.g. {"${m.roles[m.roles.length - 1]}": "random"}.`, { field: 'ai' });
  }
  for (const [role, level] of Object.entries(raw)) {
    if (!m.roles.includes(role)) throw new ServiceError('invalid_request', `ai: ${JSON.stringify(role)} is not a role; roles are ${m.roles.join(', ')}.`, { field: 'ai', roles: [...m.roles] });
    if (creatorRoles.includes(role)) throw new ServiceError('invalid_request', `ai: you take the ${role} seat yourself (roles), so the AI cannot.`, { field: 'ai', role });
    if (!isAiLevel(level)) {
      throw new ServiceError('invalid_request', `ai.${role} must be one of ${AI_LEVELS.join(', ')}.`, { field: `ai.${role}`, levels: [...AI_LEVELS] });
    }
    if (!levelAvailable(m, level)) {
      throw new ServiceError('ai_level_unavailable', `The AI plays ${m.title} only at ${aiLevelsOf(m).join(', ')}: the ${level} level searches over states sampled from its view, which this game type cannot make.`, {
        field: `ai.${role}`, role, level, gameType: m.id, levels: aiLevelsOf(m),
      });
    }
    out.set(role, level);
  }
  return out;
}

export type AiTurnOutcome = 'moved' | 'idle';

/*
 * The AI never takes back (take_back of a card played while the other seat has not played
 * yet, an undo): it decided with all it could see, and a seat whose only choice is a
 * take-back would otherwise play and take back for ever while it waits for the other seat.
 * It waits instead (as examples/rest-bot.ts). src/ai says which actions are take-backs.
 */
const MAX_ATTEMPTS = 5;

/**
 * One move of an AI seat of the game, if one must act: its view and legal actions
 * as its client gets them (the same reads as GET /view and GET /actions), the pool's
 * decision (seed: game id, version and role), then submitAction with expectedVersion.
 * Another commit in between (a human's move, another server's AI): read again.
 * 'idle': no AI seat is to act (the game is over, not started, or a human's turn).
 */
export async function playAiTurn(ctx: Ctx, gameId: string): Promise<AiTurnOutcome> {
  const pool = ctx.aiPool;
  if (!pool) throw new Error('no AI pool on this instance');
  attempts: for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const game = await currentGame(ctx, gameId);
    if (!game || game.status !== 'active') return 'idle';
    // Both seats may be the AI's and both active (Richard III's card play): the first with something to do acts.
    for (const seat of game.seats) {
      const level = seat.player?.aiLevel;
      if (!isAiLevel(level) || seat.playerId === null || !game.activeRoles.includes(seat.role)) continue;
      const role = seat.role;
      const caller: Caller = { playerId: seat.playerId, keyId: `ai:${level}`, kind: 'player' };
      const seen = await getView(ctx, caller, gameId, { role });
      const legal = await getLegalActions(ctx, caller, gameId, { role });
      if (seen.version !== game.version || legal.version !== game.version) continue attempts;
      if (!legal.active || legal.actions.length === 0 || onlyWaiting(legal.actions)) continue;
      const choices = searchActions(legal.actions);
      const decision = await pool.choose({
        gameType: game.gameType, role, view: seen.view, legalActions: choices, level, seed: `${gameId}:${legal.version}:${role}`,
      });
      if (decision.hardStopped) {
        ctx.log.warn({ gameId, role, level, version: legal.version }, 'an AI decision overran its time cap: its thread was stopped and a random legal action is played instead');
      }
      try {
        await submitAction(ctx, caller, gameId, { role, action: decision.action as Json, expectedVersion: legal.version });
        return 'moved';
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        // Another commit in between; or the seat changed hands while the AI thought (a league
        // organiser changed or ended a stand-in): read again, the seat's new holder decides.
        if (err.code === 'version_conflict' || err.code === 'forbidden') continue attempts;
        // Over meanwhile (a resignation, a timeout), or no longer this seat's turn: nothing to do.
        if (err.code === 'game_over' || err.code === 'not_your_turn' || err.code === 'deadline_passed' || err.code === 'invalid_state') return 'idle';
        throw err;
      }
    }
    return 'idle';
  }
  // Kept changing: the next event or sweep tries again.
  return 'idle';
}

/** Active games in which an AI seat must act now, least recently changed first (the sweep of jobs/ai-moves.ts). */
export function pendingAiGames(ctx: Ctx, limit = 500): Promise<string[]> {
  // Only game types this server can play: a game of one it cannot (Black & White without its
  // data file) would fail its move at every sweep, a warning each time, and, never moving on,
  // keep its place among the oldest `limit` games that every sweep picks.
  return aiTurnGames(ctx.sql, limit, Object.keys(ctx.games));
}

/**
 * Calls `onTurn(gameId)` for every "your turn" of an AI player on the bus (from any
 * instance); resolves to an unsubscribe, or to null while no AI player exists yet (they
 * are made by the first game with an AI seat, on any instance: the job asks again later).
 */
export async function onAiTurn(ctx: Ctx, onTurn: (gameId: string) => void): Promise<(() => Promise<void>) | null> {
  const found = await findAiPlayers(ctx.sql);
  if (found.size < AI_LEVELS.length) return null;
  const ids = [...found.values()];
  const subs = await Promise.all(ids.map((id) => ctx.bus.subscribe(playerChannel(id), (msg) => {
    if (isPlainObject(msg) && msg.type === 'your_turn' && typeof msg.gameId === 'string') onTurn(msg.gameId);
  })));
  return async () => {
    await Promise.all(subs.map((u) => u().catch(() => {})));
  };
}
