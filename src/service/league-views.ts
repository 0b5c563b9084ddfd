// League rows as the contract's answers (league-api.ts), and the loading they need.
import { ageRating, type Rating as CoreRating } from '../leagues/ratings.ts';
import { nextRoundDue, type PublishedRound } from '../leagues/calendar.ts';
import type { EntrantRow, LeagueRow, PairingRow, RoundRow, Db } from '../store/leagues.ts';
import { findLeague, listEntrantRows, listPairingRows, listRoundRows, playerRefs } from '../store/leagues.ts';
import type {
  Caller, Entrant, EntrantStatus, League, LeagueFormat, LeagueSettings, LeagueStatus, LeagueVisibility, Pairing, PairingReport,
  PairingResult, PlayerRef, Round, RoundStage, RoundStatus,
} from './api.ts';
import { isUuid, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { plannedRounds, type LeagueShape, type StoredEntrant, type StoredPairing, type StoredRound } from './league-schedule.ts';

export function notFound(): ServiceError {
  return new ServiceError('not_found', 'No such league.');
}

export function rolesOf(ctx: Ctx, gameType: string): { first: string; second: string } {
  const m = ctx.games[gameType];
  const [first, second] = m?.roles ?? ['first', 'second'];
  return { first: first ?? 'first', second: second ?? 'second' };
}

export function shapeOf(row: Pick<LeagueRow, 'format' | 'settings' | 'seed'>): LeagueShape {
  // Leagues stored before the vacation settings existed read with their defaults.
  // Leagues stored before round schedules existed read with none.
  return { format: row.format as LeagueFormat, settings: { vacationDays: null, noVacationInLastRound: false, schedule: null, ...(row.settings as object) } as LeagueSettings, seed: row.seed };
}

export function isOrganiser(row: LeagueRow, caller: Caller | null): boolean {
  return !!caller && caller.kind !== 'admin' && row.organisers.some((o) => o.playerId === caller.playerId);
}

export function requireOrganiser(row: LeagueRow, caller: Caller): void {
  if (!isOrganiser(row, caller)) throw new ServiceError('forbidden', "Only the league's organisers may do this.");
}

/** The league (any visibility: unlisted leagues are read by id), or not_found. */
export async function loadLeague(db: Db, id: string): Promise<LeagueRow> {
  if (!isUuid(id)) throw notFound();
  const row = await findLeague(db, id);
  if (!row) throw notFound();
  return row;
}

/** The last published round of the league (null before round 1), as the calendar reads it. */
export function lastPublished(row: Pick<LeagueRow, 'rounds'>): PublishedRound | null {
  const r = row.rounds[0];
  return r ? { number: r.number, publishedAt: (r.publishedAt ?? new Date(0)).getTime() } : null;
}

function nextRoundAtOf(row: LeagueRow, shape: LeagueShape, planned: number | null): string | null {
  const schedule = shape.settings.schedule;
  if (!schedule || row.status === 'finished') return null;
  const last = lastPublished(row);
  if (planned !== null && (last?.number ?? 0) >= planned) return null;
  return new Date(nextRoundDue(schedule, last)).toISOString();
}

export function toLeague(ctx: Ctx, row: LeagueRow, entrantCount?: number): League {
  const shape = shapeOf(row);
  const n = entrantCount ?? row._count.entrants;
  const planned = plannedRounds(shape, n);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    visibility: row.visibility as LeagueVisibility,
    gameType: row.gameType,
    format: row.format as LeagueFormat,
    status: row.status as LeagueStatus,
    roles: rolesOf(ctx, row.gameType),
    settings: shape.settings,
    organisers: row.organisers.map((o) => ({ player: o.player, role: o.role as 'owner' | 'co' })),
    entrantCount: row._count.entrants,
    roundCount: row._count.rounds,
    plannedRounds: planned,
    nextRoundAt: nextRoundAtOf(row, shape, planned),
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function storedEntrant(e: Pick<EntrantRow, 'playerId' | 'seed' | 'status' | 'firstRound' | 'leftAfterRound'>): StoredEntrant {
  return { playerId: e.playerId, seed: e.seed, status: e.status as EntrantStatus, firstRound: e.firstRound, leftAfterRound: e.leftAfterRound };
}

export function storedPairing(p: PairingRow): StoredPairing {
  return { round: p.round, board: p.board, pool: p.pool, firstId: p.firstId, secondId: p.secondId, result: p.result as PairingResult | null, source: p.source };
}

export function storedRound(r: RoundRow): StoredRound {
  return { number: r.number, stage: r.stage as RoundStage, status: r.status as RoundStatus };
}

/** Current ratings (RD aged to now) of the players in one game type, rounded to one decimal. */
export async function currentRatings(db: Db, gameType: string, ids: string[], now = Date.now()): Promise<Map<string, number>> {
  const rows = await db.rating.findMany({ where: { gameType, playerId: { in: ids } } });
  const out = new Map<string, number>();
  for (const r of rows) {
    const core: CoreRating = { rating: r.rating, rd: r.rd, vol: r.vol, games: r.games, updatedAt: r.updatedAt.getTime() };
    out.set(r.playerId, Math.round(ageRating(core, now).rating * 10) / 10);
  }
  return out;
}

export function toEntrant(e: EntrantRow, rating: number | null): Entrant {
  return {
    player: e.player,
    seed: e.seed,
    rating,
    status: e.status as EntrantStatus,
    firstRound: e.firstRound,
    leftAfterRound: e.leftAfterRound,
    reason: e.reason,
    joinedAt: e.joinedAt.toISOString(),
    standIn: e.standInLevel === null ? null : { ai: e.standInLevel, fromRound: e.standInFromRound ?? 1, reason: e.standInReason, at: (e.standInAt ?? e.joinedAt).toISOString() },
  };
}

export async function entrantsOf(db: Db, league: Pick<LeagueRow, 'id' | 'gameType'>): Promise<Entrant[]> {
  const rows = await listEntrantRows(db, league.id);
  const ratings = await currentRatings(db, league.gameType, rows.map((r) => r.playerId));
  return rows.map((r) => toEntrant(r, ratings.get(r.playerId) ?? null));
}

const unknownPlayer = (id: string): PlayerRef => ({ id, name: '(unknown)', isBot: false });

export function toPairing(p: PairingRow, refs: Map<string, PlayerRef>): Pairing {
  return {
    id: p.id,
    round: p.round,
    board: p.board,
    pool: p.pool,
    first: refs.get(p.firstId) ?? unknownPlayer(p.firstId),
    second: p.secondId === null ? null : (refs.get(p.secondId) ?? unknownPlayer(p.secondId)),
    gameId: p.gameId,
    result: p.result as PairingResult | null,
    source: p.source as Pairing['source'],
    report: (p.report ?? null) as PairingReport | null,
  };
}

export async function refsFor(db: Db, pairings: PairingRow[]): Promise<Map<string, PlayerRef>> {
  const ids = new Set<string>();
  for (const p of pairings) {
    ids.add(p.firstId);
    if (p.secondId) ids.add(p.secondId);
  }
  const rows = await playerRefs(db, [...ids]);
  return new Map(rows.map((r) => [r.id, r]));
}

export async function roundsOf(db: Db, leagueId: string, only?: number): Promise<Round[]> {
  const rounds = (await listRoundRows(db, leagueId)).filter((r) => only === undefined || r.number === only);
  const pairings = await listPairingRows(db, leagueId, only);
  const refs = await refsFor(db, pairings);
  return rounds.map((r) => ({
    leagueId,
    number: r.number,
    stage: r.stage as RoundStage,
    status: r.status as RoundStatus,
    pairings: pairings.filter((p) => p.round === r.number).map((p) => toPairing(p, refs)),
    createdAt: r.createdAt.toISOString(),
    publishedAt: r.publishedAt?.toISOString() ?? null,
    completedAt: r.completedAt?.toISOString() ?? null,
  }));
}
