// Leagues: creating and changing them, their organisers and entrants, and the start.
// Rounds are in league-rounds.ts, results and standings in league-results.ts.
import { aiLevelsOf, aiPlayers, levelAvailable } from './ai-seats.ts';
import { AI_LEVELS, isAiLevel } from '../ai/index.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { findLeague, listEntrantRows, queryLeagues, type LeagueRow } from '../store/leagues.ts';
import type { Caller, Entrant, League, LeagueFilter, LeagueSettingsInput, LeagueUpdateInput, Page } from './api.ts';
import { isUuid, requirePlayer, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { isPlainObject } from './json.ts';
import { resolveNewLeague, resolveUpdate, bad } from './league-settings.ts';
import { changeLeague, type AfterCommit } from './league-tx.ts';
import { currentRatings, entrantsOf, isOrganiser, loadLeague, requireOrganiser, shapeOf, toEntrant, toLeague } from './league-views.ts';
import { advance, forfeitOpenBoards } from './league-rounds.ts';
import { newSeed } from './secrets.ts';
import { listEntrantRows as entrantRows } from '../store/leagues.ts';
import { isStorableTime } from './times.ts';

const MAX_ORGANISERS = 20;
const MAX_REASON = 500;

function notApp(caller: Caller, what: string): void {
  if (caller.kind === 'app' && !caller.appId) {
    throw new ServiceError('forbidden', `An application ${what} for its players with X-Act-As: <player id>, not as itself.`);
  }
}

export async function createLeague(ctx: Ctx, callerIn: Caller, input: LeagueSettingsInput): Promise<League> {
  const caller = requirePlayer(callerIn);
  const v = resolveNewLeague(ctx, input);
  const row = await ctx.db.league.create({
    data: {
      name: v.name,
      description: v.description,
      visibility: v.visibility,
      gameType: v.gameType,
      format: v.format,
      settings: v.settings as unknown as Prisma.InputJsonValue,
      seed: newSeed(),
      createdById: caller.playerId,
      organisers: { create: [{ playerId: caller.playerId, role: 'owner' }] },
    },
    select: { id: true },
  });
  return toLeague(ctx, (await findLeague(ctx.db, row.id))!);
}

export async function updateLeague(ctx: Ctx, callerIn: Caller, leagueId: string, input: LeagueUpdateInput): Promise<League> {
  const caller = requirePlayer(callerIn);
  await changeLeague(ctx, leagueId, async (tx, row, after) => {
    requireOrganiser(row, caller);
    if (row.status === 'finished') throw new ServiceError('invalid_state', 'The league is finished.');
    const shape = shapeOf(row);
    const v = resolveUpdate(ctx, { gameType: row.gameType, format: shape.format, settings: shape.settings, name: row.name, description: row.description, visibility: row.visibility as 'public' | 'unlisted' }, input, row.status !== 'registration');
    // The missed rounds of late entrants are scored from the current lateEntry (league-schedule.ts
    // recordsOf): changing it under entrants who joined late would rescore rounds already paired
    // on it ('half' → 'closed' takes their half points away). Closing entry is registrationClosesAt.
    if (row.status !== 'registration' && v.settings.lateEntry !== shape.settings.lateEntry) {
      const late = await tx.leagueEntrant.count({ where: { leagueId, firstRound: { gt: 1 } } });
      if (late > 0) {
        throw new ServiceError('invalid_state', `${late} player(s) entered late under lateEntry ${shape.settings.lateEntry}: it can no longer change (set registrationClosesAt to close entry).`, { setting: 'lateEntry' });
      }
    }
    if (v.settings.maxEntrants !== null && row.status === 'registration') {
      const active = await tx.leagueEntrant.count({ where: { leagueId, status: 'active' } });
      if (active > v.settings.maxEntrants) throw bad('maxEntrants', `${active} players have entered already: maxEntrants cannot be below that.`);
    }
    await tx.league.update({ where: { id: leagueId }, data: { name: v.name, description: v.description, visibility: v.visibility, settings: v.settings as unknown as Prisma.InputJsonValue } });
    // Turning autoPair on, or a schedule off, lets a league whose round is complete go on now
    // (a schedule moved to an earlier date is the round sweep's, within seconds).
    if (row.status === 'running') await advance(ctx, tx, leagueId, after);
  });
  return getLeague(ctx, caller, leagueId);
}

export async function getLeague(ctx: Ctx, _caller: Caller | null, leagueId: string): Promise<League> {
  return toLeague(ctx, await loadLeague(ctx.db, leagueId));
}

const MAX_PAGE = 100;

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [t, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(t);
    if (!isStorableTime(createdAt) || !isUuid(id)) throw new Error('bad');
    return { createdAt, id };
  } catch {
    throw new ServiceError('invalid_request', 'cursor is not one this server gave out.');
  }
}

export async function listLeagues(ctx: Ctx, caller: Caller | null, filterIn: LeagueFilter, page: { cursor?: string; limit?: number } = {}): Promise<Page<League>> {
  if (!isPlainObject(filterIn)) throw new ServiceError('invalid_request', 'filter must be an object.');
  const filter = filterIn as LeagueFilter;
  const limit = page.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new ServiceError('invalid_request', `limit must be an integer from 1 to ${MAX_PAGE}.`);
  for (const k of ['playerId', 'organiserId'] as const) {
    if (filter[k] !== undefined && !isUuid(filter[k])) return { items: [], nextCursor: null };
  }
  // Only a string reaches Prisma: an object would be read as a Prisma filter ({contains: …}), a number fails as a 500.
  if (filter.gameType !== undefined && typeof filter.gameType !== 'string') throw new ServiceError('invalid_request', 'gameType must be a string.');
  if (filter.status !== undefined && !['registration', 'running', 'finished'].includes(filter.status)) {
    throw new ServiceError('invalid_request', 'status must be registration, running or finished.');
  }
  // Unlisted leagues are listed only to the player they concern (their own entries or organising).
  const self = caller && caller.kind !== 'admin' ? caller.playerId : null;
  const includeUnlisted = self !== null && (filter.playerId === self || filter.organiserId === self);
  const rows = await queryLeagues(ctx.db, {
    ...(filter.gameType !== undefined ? { gameType: filter.gameType } : {}),
    ...(filter.status !== undefined ? { status: filter.status } : {}),
    ...(filter.playerId !== undefined ? { playerId: filter.playerId } : {}),
    ...(filter.organiserId !== undefined ? { organiserId: filter.organiserId } : {}),
    includeUnlisted,
    ...(page.cursor !== undefined ? { after: decodeCursor(page.cursor) } : {}),
    limit: limit + 1,
  });
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const nextCursor = rows.length > limit && last ? Buffer.from(JSON.stringify([last.createdAt.toISOString(), last.id])).toString('base64url') : null;
  return { items: items.map((r) => toLeague(ctx, r)), nextCursor };
}

async function requireKnownPlayer(tx: Prisma.TransactionClient, playerId: unknown): Promise<string> {
  if (!isUuid(playerId)) throw new ServiceError('invalid_request', 'playerId must be a player id (UUID).');
  const p = await tx.player.findUnique({ where: { id: playerId }, select: { kind: true } });
  if (!p) throw new ServiceError('not_found', 'No such player.', { playerId });
  if (p.kind !== 'player') throw new ServiceError('invalid_request', 'An application account cannot take part in a league; its players can.');
  return playerId;
}

export async function addOrganiser(ctx: Ctx, callerIn: Caller, leagueId: string, playerId: string): Promise<League> {
  const caller = requirePlayer(callerIn);
  await changeLeague(ctx, leagueId, async (tx, row) => {
    requireOrganiser(row, caller);
    const id = await requireKnownPlayer(tx, playerId);
    if (row.organisers.some((o) => o.playerId === id)) throw new ServiceError('invalid_state', 'That player is an organiser already.');
    if (row.organisers.length >= MAX_ORGANISERS) throw new ServiceError('invalid_state', `A league has at most ${MAX_ORGANISERS} organisers.`);
    await tx.leagueOrganiser.create({ data: { leagueId, playerId: id, role: 'co' } });
  });
  return getLeague(ctx, caller, leagueId);
}

export async function removeOrganiser(ctx: Ctx, callerIn: Caller, leagueId: string, playerId: string): Promise<League> {
  const caller = requirePlayer(callerIn);
  await changeLeague(ctx, leagueId, async (tx, row) => {
    requireOrganiser(row, caller);
    const o = row.organisers.find((x) => x.playerId === playerId);
    if (!o) throw new ServiceError('not_found', 'That player is not an organiser of this league.');
    if (o.role === 'owner') throw new ServiceError('invalid_state', "The league's owner cannot be removed.");
    await tx.leagueOrganiser.delete({ where: { leagueId_playerId: { leagueId, playerId } } });
  });
  return getLeague(ctx, caller, leagueId);
}

export async function listEntrants(ctx: Ctx, _caller: Caller | null, leagueId: string): Promise<Entrant[]> {
  const row = await loadLeague(ctx.db, leagueId);
  return entrantsOf(ctx.db, row);
}

/** Whether a player may enter now, and in which round they would start; throws registration_closed. */
async function entryRound(tx: Prisma.TransactionClient, row: LeagueRow, byOrganiser: boolean): Promise<number> {
  const s = shapeOf(row).settings;
  const now = new Date().toISOString();
  const closed = (reason: string, detail: string) => new ServiceError('registration_closed', detail, { reason });
  if (row.status === 'finished') throw closed('finished', 'The league is finished.');
  if (!byOrganiser) {
    if (s.registrationOpensAt && now < s.registrationOpensAt) throw closed('not_open', `Registration opens at ${s.registrationOpensAt}.`);
    if (s.registrationClosesAt && now >= s.registrationClosesAt) throw closed('closed', `Registration closed at ${s.registrationClosesAt}.`);
  }
  if (s.maxEntrants !== null) {
    const active = await tx.leagueEntrant.count({ where: { leagueId: row.id, status: 'active' } });
    if (active >= s.maxEntrants) throw closed('full', `The league is full (${s.maxEntrants} players).`);
  }
  if (row.status === 'registration') return 1;
  // Running: only a Swiss with late entry open takes new players, from the next round on.
  if (row.format !== 'swiss' || s.lateEntry === 'closed') throw closed('started', 'The league has started.');
  const rounds = await tx.leagueRound.count({ where: { leagueId: row.id } });
  if (rounds >= s.rounds!) throw closed('started', 'Every round of the league has been paired.');
  return rounds + 1;
}

async function enter(ctx: Ctx, tx: Prisma.TransactionClient, row: LeagueRow, playerId: string, byOrganiser: boolean, seed: number | null): Promise<Entrant> {
  const existing = await tx.leagueEntrant.findUnique({ where: { leagueId_playerId: { leagueId: row.id, playerId } } });
  if (existing) {
    throw new ServiceError('invalid_state', existing.status === 'active' ? 'That player has entered already.' : `That player is ${existing.status} and cannot enter again.`, { entrantStatus: existing.status });
  }
  const firstRound = await entryRound(tx, row, byOrganiser);
  // A late entrant into a running league gets the next free seed number.
  if (row.status === 'running' && seed === null) {
    const max = await tx.leagueEntrant.aggregate({ where: { leagueId: row.id }, _max: { seed: true } });
    seed = (max._max.seed ?? 0) + 1;
  }
  const e = await tx.leagueEntrant.create({ data: { leagueId: row.id, playerId, firstRound, seed }, include: { player: { select: { id: true, name: true, isBot: true } } } });
  const ratings = await currentRatings(tx, row.gameType, [playerId]);
  return toEntrant(e, ratings.get(playerId) ?? null);
}

export async function joinLeague(ctx: Ctx, callerIn: Caller, leagueId: string): Promise<Entrant> {
  const caller = requirePlayer(callerIn);
  notApp(caller, 'enters leagues');
  return changeLeague(ctx, leagueId, async (tx, row) => enter(ctx, tx, row, caller.playerId, false, null));
}

export async function addEntrant(ctx: Ctx, callerIn: Caller, leagueId: string, input: { playerId?: string; ai?: unknown; seed?: number }): Promise<Entrant> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  if (input.seed !== undefined && (!Number.isInteger(input.seed) || input.seed < 1 || input.seed > 100_000)) {
    throw new ServiceError('invalid_request', 'seed must be a positive integer.');
  }
  // Herald's AI as an entrant: its player of that level (made on first use, outside the league's transaction).
  const ai = input.ai === undefined ? null : isAiLevel(input.ai) ? input.ai : null;
  if (input.ai !== undefined && ai === null) throw new ServiceError('invalid_request', `ai must be one of ${AI_LEVELS.join(', ')}.`, { field: 'ai', levels: [...AI_LEVELS] });
  if (ai !== null && input.playerId !== undefined) throw new ServiceError('invalid_request', 'Give either playerId or ai, not both.', { field: 'ai' });
  const aiPlayer = ai === null ? null : (await aiPlayers(ctx)).get(ai)!;
  return changeLeague(ctx, leagueId, async (tx, row) => {
    requireOrganiser(row, caller);
    if (ai !== null) {
      const m = ctx.games[row.gameType];
      if (m && !levelAvailable(m, ai)) {
        throw new ServiceError('ai_level_unavailable', `The AI plays ${m.title} only at ${aiLevelsOf(m).join(', ')}.`, { field: 'ai', level: ai, gameType: m.id, levels: aiLevelsOf(m) });
      }
    }
    const id = aiPlayer ?? (await requireKnownPlayer(tx, input.playerId));
    if (input.seed !== undefined && row.status !== 'registration') throw new ServiceError('invalid_state', 'Seeds are fixed once the league has started.');
    return enter(ctx, tx, row, id, true, input.seed ?? null);
  });
}

/** The last round a leaving player belongs to: every round published so far. */
async function lastPublishedRound(tx: Prisma.TransactionClient, leagueId: string): Promise<number> {
  const r = await tx.leagueRound.aggregate({ where: { leagueId, status: { in: ['published', 'complete'] } }, _max: { number: true } });
  return r._max.number ?? 0;
}

/** Withdraw or disqualify a running league's entrant: never paired again; their open boards become forfeits. */
async function leave(ctx: Ctx, tx: Prisma.TransactionClient, row: LeagueRow, playerId: string, status: 'withdrawn' | 'disqualified', reason: string | null, by: string, after: AfterCommit) {
  const last = await lastPublishedRound(tx, row.id);
  // A stand-in ends with the entrant: their open boards are decided below (the games end), and they are never seated again.
  await tx.leagueEntrant.update({
    where: { leagueId_playerId: { leagueId: row.id, playerId } },
    data: { status, leftAfterRound: last, reason, standInLevel: null, standInFromRound: null, standInReason: null, standInAt: null },
  });
  // A draft round that pairs them is thrown away (the organiser pairs again without them).
  const draft = await tx.leagueRound.findFirst({ where: { leagueId: row.id, status: 'draft' } });
  const inDraft = draft ? await tx.leaguePairing.count({ where: { leagueId: row.id, round: draft.number, OR: [{ firstId: playerId }, { secondId: playerId }] } }) : 0;
  if (draft && inDraft > 0) {
    await tx.leaguePairing.deleteMany({ where: { leagueId: row.id, round: draft.number } });
    await tx.leagueRound.delete({ where: { leagueId_number: { leagueId: row.id, number: draft.number } } });
  }
  await forfeitOpenBoards(ctx, tx, row, playerId, by, status === 'disqualified' ? `disqualified${reason ? `: ${reason}` : ''}` : 'withdrew', after);
  await advance(ctx, tx, row.id, after);
}

export async function withdrawFromLeague(ctx: Ctx, callerIn: Caller, leagueId: string): Promise<Entrant | null> {
  const caller = requirePlayer(callerIn);
  return changeLeague(ctx, leagueId, async (tx, row, after) => {
    const e = await tx.leagueEntrant.findUnique({ where: { leagueId_playerId: { leagueId, playerId: caller.playerId } } });
    if (!e) throw new ServiceError('not_found', 'You have not entered this league.');
    if (e.status !== 'active') throw new ServiceError('invalid_state', `You are ${e.status} already.`);
    if (row.status === 'registration') {
      await tx.leagueEntrant.delete({ where: { leagueId_playerId: { leagueId, playerId: caller.playerId } } });
      return null;
    }
    if (row.status === 'finished') throw new ServiceError('invalid_state', 'The league is finished.');
    await leave(ctx, tx, row, caller.playerId, 'withdrawn', null, caller.playerId, after);
    return (await entrantsOf(tx, row)).find((x) => x.player.id === caller.playerId)!;
  });
}

export async function updateEntrant(
  ctx: Ctx,
  callerIn: Caller,
  leagueId: string,
  playerId: string,
  input: { seed?: number | null; status?: 'withdrawn' | 'disqualified'; reason?: string },
): Promise<Entrant> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const unknown = Object.keys(input).filter((k) => !['seed', 'status', 'reason'].includes(k));
  if (unknown.length > 0) throw new ServiceError('invalid_request', `Unknown field(s): ${unknown.join(', ')}.`, { fields: unknown });
  if (input.seed !== undefined && input.seed !== null && (!Number.isInteger(input.seed) || input.seed < 1 || input.seed > 100_000)) {
    throw new ServiceError('invalid_request', 'seed must be a positive integer or null.');
  }
  if (input.status !== undefined && input.status !== 'withdrawn' && input.status !== 'disqualified') {
    throw new ServiceError('invalid_request', 'status must be withdrawn or disqualified.');
  }
  if (input.reason !== undefined && (typeof input.reason !== 'string' || input.reason.length > MAX_REASON)) {
    throw new ServiceError('invalid_request', `reason must be a string of at most ${MAX_REASON} characters.`);
  }
  return changeLeague(ctx, leagueId, async (tx, row, after) => {
    requireOrganiser(row, caller);
    if (!isUuid(playerId)) throw new ServiceError('not_found', 'That player has not entered this league.');
    const e = await tx.leagueEntrant.findUnique({ where: { leagueId_playerId: { leagueId, playerId } } });
    if (!e) throw new ServiceError('not_found', 'That player has not entered this league.');
    if (input.seed !== undefined) {
      if (row.status !== 'registration') throw new ServiceError('invalid_state', 'Seeds are fixed once the league has started.');
      await tx.leagueEntrant.update({ where: { leagueId_playerId: { leagueId, playerId } }, data: { seed: input.seed } });
    }
    if (input.status !== undefined) {
      if (e.status !== 'active') throw new ServiceError('invalid_state', `That player is ${e.status} already.`);
      if (row.status === 'registration') throw new ServiceError('invalid_state', 'The league has not started: remove the entrant instead.');
      if (row.status === 'finished') throw new ServiceError('invalid_state', 'The league is finished.');
      if (input.status === 'disqualified' && !input.reason) throw new ServiceError('invalid_request', 'A disqualification needs a reason.');
      await leave(ctx, tx, row, playerId, input.status, input.reason ?? null, caller.playerId, after);
    }
    return (await entrantsOf(tx, row)).find((x) => x.player.id === playerId)!;
  });
}

export async function removeEntrant(ctx: Ctx, callerIn: Caller, leagueId: string, playerId: string): Promise<void> {
  const caller = requirePlayer(callerIn);
  await changeLeague(ctx, leagueId, async (tx, row) => {
    requireOrganiser(row, caller);
    if (row.status !== 'registration') throw new ServiceError('invalid_state', 'The league has started: withdraw or disqualify the player instead (their results stay).');
    const gone = isUuid(playerId) ? await tx.leagueEntrant.deleteMany({ where: { leagueId, playerId } }) : { count: 0 };
    if (gone.count === 0) throw new ServiceError('not_found', 'That player has not entered this league.');
  });
}

/** Minimum entrants each format needs to start. */
function checkStartable(row: LeagueRow, active: number): void {
  const s = shapeOf(row).settings;
  if (active < 2) throw new ServiceError('invalid_state', `A league needs at least 2 players to start; it has ${active}.`);
  if (row.format === 'swiss' && s.rounds! > active - 1 + (active % 2)) {
    throw bad('rounds', `${s.rounds} Swiss rounds need at least ${s.rounds! + 1} players (no one may meet an opponent twice); the league has ${active}.`);
  }
  if (row.format === 'pools') {
    const p = s.pools!;
    if (active < 2 * p.count) throw bad('pools', `${p.count} pools need at least ${2 * p.count} players; the league has ${active}.`);
    if (p.qualifiers > Math.floor(active / p.count)) throw bad('pools', `Each pool would have ${Math.floor(active / p.count)} player(s): fewer than ${p.qualifiers} qualifiers.`);
  }
}

export async function startLeague(ctx: Ctx, callerIn: Caller, leagueId: string): Promise<League> {
  const caller = requirePlayer(callerIn);
  await changeLeague(ctx, leagueId, async (tx, row, after) => {
    requireOrganiser(row, caller);
    if (row.status !== 'registration') throw new ServiceError('invalid_state', `The league is ${row.status} already.`);
    const entrants = await entrantRows(tx, leagueId);
    checkStartable(row, entrants.length);
    // Seeds: the organiser's first (in their order), then by current rating (unrated last), then by entry.
    const ratings = await currentRatings(tx, row.gameType, entrants.map((e) => e.playerId));
    const order = [...entrants].sort(
      (a, b) =>
        (a.seed ?? Infinity) - (b.seed ?? Infinity) ||
        (ratings.get(b.playerId) ?? -Infinity) - (ratings.get(a.playerId) ?? -Infinity) ||
        a.joinedAt.getTime() - b.joinedAt.getTime() ||
        (a.playerId < b.playerId ? -1 : 1),
    );
    for (const [i, e] of order.entries()) {
      await tx.leagueEntrant.update({ where: { leagueId_playerId: { leagueId, playerId: e.playerId } }, data: { seed: i + 1 } });
    }
    await tx.league.update({ where: { id: leagueId }, data: { status: 'running' } });
    await advance(ctx, tx, leagueId, after);
  });
  return getLeague(ctx, caller, leagueId);
}

export { isOrganiser, listEntrantRows };
