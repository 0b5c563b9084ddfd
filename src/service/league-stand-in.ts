// A stand-in for a league entrant (issue 20): Herald's AI plays an entrant's games instead of
// them, for a player who has to leave a running league. Withdrawing forfeits the player's
// unplayed games (or annuls them), which hands their remaining opponents free points or takes
// points away from those who already played them; a stand-in plays those games instead, as
// tournament directors let a substitute play (Challonge, Lichess team battles). The entrant
// stays in the league, active: their open games pass to the AI from the current position (the
// seat's clock as it is), and every later board of theirs is seated with the AI. The results
// count for the entrant — standings, tie-breaks, the next Swiss pairing — exactly as their own;
// ratings follow the game's seats, so a game the AI played changes the AI player's rating, not
// the entrant's. The organiser can end the stand-in (later boards are the player's again).
import { AI_LEVELS, isAiLevel } from '../ai/index.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import type { LeagueRow } from '../store/leagues.ts';
import { aiLevelsOf, aiPlayers, levelAvailable } from './ai-seats.ts';
import type { Caller, Entrant } from './api.ts';
import { isUuid, requirePlayer, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { isPlainObject } from './json.ts';
import { changeLeague, type AfterCommit } from './league-tx.ts';
import { entrantsOf, requireOrganiser, shapeOf } from './league-views.ts';
import { takeOverSeat } from './lifecycle.ts';

const MAX_REASON = 500;

async function standInEntrant(tx: Prisma.TransactionClient, row: LeagueRow, playerId: string) {
  if (!isUuid(playerId)) throw new ServiceError('not_found', 'That player has not entered this league.');
  const e = await tx.leagueEntrant.findUnique({ where: { leagueId_playerId: { leagueId: row.id, playerId } }, include: { player: { select: { aiLevel: true } } } });
  if (!e) throw new ServiceError('not_found', 'That player has not entered this league.');
  return e;
}

/**
 * The AI takes over an active entrant's games at `ai` level: PUT /leagues/{id}/entrants/{playerId}/stand-in.
 * A running league played on Herald only (before the start: remove the entrant and enter the AI;
 * a withdrawn entrant's games are forfeit already). Setting it again changes the level for the
 * boards seated from then on, and for open games the entrant still holds, or the reason; a game
 * the AI holds already it plays to the end at its level (as after DELETE): an AI level never
 * changes under a game in progress, whatever the order of concurrent PUTs.
 */
export async function setStandIn(ctx: Ctx, callerIn: Caller, leagueId: string, playerId: string, input: { ai?: unknown; reason?: unknown }): Promise<Entrant> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const unknown = Object.keys(input).filter((k) => !['ai', 'reason'].includes(k));
  if (unknown.length > 0) throw new ServiceError('invalid_request', `Unknown field(s): ${unknown.join(', ')}.`, { fields: unknown });
  if (!isAiLevel(input.ai)) throw new ServiceError('invalid_request', `ai must be one of ${AI_LEVELS.join(', ')}.`, { field: 'ai', levels: [...AI_LEVELS] });
  const level = input.ai;
  if (input.reason !== undefined && input.reason !== null && (typeof input.reason !== 'string' || input.reason.length > MAX_REASON)) {
    throw new ServiceError('invalid_request', `reason must be a string of at most ${MAX_REASON} characters.`, { field: 'reason' });
  }
  const reason = typeof input.reason === 'string' && input.reason !== '' ? input.reason : null;
  // The AI players exist before the league's transaction (made on first use).
  const aiId = (await aiPlayers(ctx)).get(level)!;
  return changeLeague(ctx, leagueId, async (tx, row, after) => {
    requireOrganiser(row, caller);
    if (row.status === 'registration') throw new ServiceError('invalid_state', 'The league has not started: remove the entrant and enter the AI instead (POST /leagues/{id}/entrants {"ai": level}).');
    if (row.status === 'finished') throw new ServiceError('invalid_state', 'The league is finished.');
    if (shapeOf(row).settings.play !== 'herald') throw new ServiceError('invalid_state', 'The league is played elsewhere: the AI can only play games on Herald.', { setting: 'play' });
    const m = ctx.games[row.gameType];
    if (m && !levelAvailable(m, level)) {
      throw new ServiceError('ai_level_unavailable', `The AI plays ${m.title} only at ${aiLevelsOf(m).join(', ')}.`, { field: 'ai', level, gameType: m.id, levels: aiLevelsOf(m) });
    }
    const e = await standInEntrant(tx, row, playerId);
    if (e.status !== 'active') throw new ServiceError('invalid_state', `That player is ${e.status}: their unplayed games were decided when they left.`, { entrantStatus: e.status });
    if (e.player.aiLevel !== null) throw new ServiceError('invalid_state', 'That entrant is Herald\'s AI itself.');
    // The entrant's boards still open in a published round: their games pass to the AI now.
    const open = await tx.leaguePairing.findMany({ where: { leagueId: row.id, result: null, round: { in: await publishedRounds(tx, row.id) }, OR: [{ firstId: playerId }, { secondId: playerId }] } });
    const last = await tx.leagueRound.aggregate({ where: { leagueId: row.id, status: { in: ['published', 'complete'] } }, _max: { number: true } });
    const firstOpen = open.length > 0 ? Math.min(...open.map((p) => p.round)) : (last._max.number ?? 0) + 1;
    const fromRound = e.standInFromRound !== null && e.standInLevel !== null ? Math.min(e.standInFromRound, firstOpen) : firstOpen;
    await tx.leagueEntrant.update({
      where: { leagueId_playerId: { leagueId: row.id, playerId } },
      data: { standInLevel: level, standInFromRound: fromRound, standInReason: reason, standInAt: new Date(ctx.now()) },
    });
    handOver(ctx, row, open, playerId, aiId, after);
    return (await entrantsOf(tx, row)).find((x) => x.player.id === playerId)!;
  });
}

/** Ends an entrant's stand-in: DELETE …/stand-in. Their later boards are theirs again; games the AI has begun it plays to the end. */
export async function removeStandIn(ctx: Ctx, callerIn: Caller, leagueId: string, playerId: string): Promise<Entrant> {
  const caller = requirePlayer(callerIn);
  return changeLeague(ctx, leagueId, async (tx, row) => {
    requireOrganiser(row, caller);
    const e = await standInEntrant(tx, row, playerId);
    if (e.status !== 'active') throw new ServiceError('invalid_state', `That player is ${e.status}: their stand-in ended when they left.`, { entrantStatus: e.status });
    if (e.standInLevel === null) throw new ServiceError('not_found', 'That entrant has no stand-in.');
    if (row.status === 'finished') throw new ServiceError('invalid_state', 'The league is finished.');
    await tx.leagueEntrant.update({ where: { leagueId_playerId: { leagueId: row.id, playerId } }, data: { standInLevel: null, standInFromRound: null, standInReason: null, standInAt: null } });
    return (await entrantsOf(tx, row)).find((x) => x.player.id === playerId)!;
  });
}

async function publishedRounds(tx: Prisma.TransactionClient, leagueId: string): Promise<number[]> {
  const rounds = await tx.leagueRound.findMany({ where: { leagueId, status: 'published' }, select: { number: true } });
  return rounds.map((r) => r.number);
}

/**
 * After the commit: each open game whose seat the entrant still holds passes to the AI player
 * (the write path's seat change, a `join` in the log). A game an AI holds already keeps it: a
 * stand-in's level never changes in a game under way (two PUTs at once: the first takeover
 * wins, the other finds the seat taken).
 */
function handOver(ctx: Ctx, row: LeagueRow, open: Array<{ firstId: string; gameId: string | null }>, playerId: string, aiId: string, after: AfterCommit): void {
  const m = ctx.games[row.gameType];
  if (!m) return;
  const [firstRole, secondRole] = m.roles as [string, string];
  for (const p of open) {
    if (p.gameId === null) continue;
    const gameId = p.gameId;
    const role = p.firstId === playerId ? firstRole : secondRole;
    after.push(() => takeOverSeat(ctx, gameId, role, aiId, playerId));
  }
}

/**
 * The player who sits at an entrant's boards from now on: the AI player of their stand-in's
 * level, else the entrant (league-rounds.ts publishTx seats each new game with it).
 */
export async function seatHolders(ctx: Ctx, tx: Prisma.TransactionClient, leagueId: string): Promise<(playerId: string) => string> {
  const standIns = await tx.leagueEntrant.findMany({ where: { leagueId, standInLevel: { not: null } }, select: { playerId: true, standInLevel: true } });
  if (standIns.length === 0) return (id) => id;
  const ai = await aiPlayers(ctx);
  const by = new Map(standIns.map((s) => [s.playerId, isAiLevel(s.standInLevel) ? (ai.get(s.standInLevel) ?? s.playerId) : s.playerId]));
  return (id) => by.get(id) ?? id;
}
