// League results: recorded when a league game ends (settleLeagueGame, called by settle.ts in
// the transaction that settles the game), reported by players for games played elsewhere and
// confirmed by the opponent or an organiser, corrected by organisers. Every change is one row
// of the audit log (league_result_changes). And the standings that read them.
import { boardEvents } from './webhooks.ts';
import { enqueueTx } from '../store/webhooks.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { standingsToCsv } from '../leagues/standings.ts';
import { listEntrantRows, listPairingRows, listRoundRows, type LeagueRow, type PairingRow } from '../store/leagues.ts';
import {
  isRoundNumber, PAIRING_RESULTS, ROUND_RULE, type Caller, type EntrantStatus, type GameResult, type LeagueStandings, type Pairing, type PairingResult,
  type ReportableResult, type ResultChange,
} from './api.ts';
import { isUuid, requirePlayer, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { isPlainObject } from './json.ts';
import { advance } from './league-rounds.ts';
import { standingsOf, type StoredEntrant } from './league-schedule.ts';
import { changeLeague, type AfterCommit } from './league-tx.ts';
import { isOrganiser, loadLeague, refsFor, rolesOf, shapeOf, storedEntrant, storedPairing, storedRound, toPairing } from './league-views.ts';
import { endLeagueGame } from './lifecycle.ts';
import type { ClockState } from '../clocks/index.ts';

const MAX_REASON = 500;
const REPORTABLE: readonly ReportableResult[] = ['first', 'second', 'draw'];

async function loadPairing(tx: Prisma.TransactionClient, leagueId: string, pairingId: string): Promise<PairingRow> {
  const p = isUuid(pairingId) ? await tx.leaguePairing.findUnique({ where: { id: pairingId } }) : null;
  if (!p || p.leagueId !== leagueId) throw new ServiceError('not_found', 'No such pairing in this league.');
  return p;
}

async function pairingAnswer(tx: Prisma.TransactionClient, id: string): Promise<Pairing> {
  const p = (await tx.leaguePairing.findUnique({ where: { id } }))!;
  return toPairing(p, await refsFor(tx, [p]));
}

async function roundStatus(tx: Prisma.TransactionClient, leagueId: string, round: number): Promise<string> {
  const r = await tx.leagueRound.findUnique({ where: { leagueId_number: { leagueId, number: round } } });
  return r?.status ?? 'draft';
}

/** Writes a final result and its audit row; ends the board's game if it is still being played. */
async function record(
  ctx: Ctx,
  tx: Prisma.TransactionClient,
  p: PairingRow,
  result: PairingResult | null,
  change: { by: string | null; kind: ResultChange['kind']; reason: string | null; source: Pairing['source'] },
  after: AfterCommit,
): Promise<void> {
  await tx.leaguePairing.update({ where: { id: p.id }, data: { result, source: result === null ? null : change.source, report: Prisma.DbNull } });
  await tx.leagueResultChange.create({ data: { leagueId: p.leagueId, pairingId: p.id, byId: change.by, kind: change.kind, before: p.result, after: result, reason: change.reason } });
  await enqueueTx(tx, boardEvents('league_result_recorded', p, new Date(ctx.now()), { result, previous: p.result, kind: change.kind }));
  if (result !== null && p.gameId && change.kind !== 'game') {
    const gameId = p.gameId;
    after.push(() => endLeagueGame(ctx, gameId, 'league: the result was recorded by the league'));
  }
}

function requireParticipant(p: PairingRow, caller: Caller, row: LeagueRow): 'first' | 'second' | 'organiser' {
  if (p.firstId === caller.playerId) return 'first';
  if (p.secondId === caller.playerId) return 'second';
  if (isOrganiser(row, caller)) return 'organiser';
  throw new ServiceError('forbidden', 'Only the two players of this board or an organiser may report its result.');
}

export async function reportResult(ctx: Ctx, callerIn: Caller, leagueId: string, pairingId: string, input: { result: ReportableResult }): Promise<Pairing> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input) || Object.keys(input).some((k) => k !== 'result')) throw new ServiceError('invalid_request', 'The body must be {"result": "first" | "second" | "draw"}.');
  if (!REPORTABLE.includes(input.result)) throw new ServiceError('invalid_request', 'result must be first, second or draw (the first seat\'s player won, the second\'s, or a draw).');
  return changeLeague(ctx, leagueId, async (tx, row, after) => {
    const p = await loadPairing(tx, leagueId, pairingId);
    const who = requireParticipant(p, caller, row);
    if (p.secondId === null) throw new ServiceError('invalid_pairing', 'A bye has no game to report.');
    if (p.result !== null) throw new ServiceError('result_recorded', `This board's result is recorded already (${p.result}); an organiser can correct it.`, { result: p.result });
    if ((await roundStatus(tx, leagueId, p.round)) === 'draft') throw new ServiceError('invalid_state', 'The round is not published yet.');
    const pending = p.report as { by: string; result: ReportableResult } | null;
    // The organiser's report, or the opponent's matching report, makes the result final.
    if (who === 'organiser' || (pending && pending.by !== caller.playerId && pending.result === input.result)) {
      await record(ctx, tx, p, input.result, { by: caller.playerId, kind: who === 'organiser' ? 'correction' : 'confirm', reason: who === 'organiser' ? 'reported by an organiser' : 'both players reported it', source: 'reported' }, after);
      await advance(ctx, tx, leagueId, after);
    } else {
      await tx.leaguePairing.update({ where: { id: p.id }, data: { report: { by: caller.playerId, result: input.result, at: new Date().toISOString() } } });
      await tx.leagueResultChange.create({ data: { leagueId, pairingId: p.id, byId: caller.playerId, kind: 'report', before: p.result, after: input.result, reason: pending && pending.by !== caller.playerId ? `disputes the report of ${pending.result}` : null } });
    }
    return pairingAnswer(tx, p.id);
  });
}

export async function confirmResult(ctx: Ctx, callerIn: Caller, leagueId: string, pairingId: string): Promise<Pairing> {
  const caller = requirePlayer(callerIn);
  return changeLeague(ctx, leagueId, async (tx, row, after) => {
    const p = await loadPairing(tx, leagueId, pairingId);
    const who = requireParticipant(p, caller, row);
    if (p.result !== null) throw new ServiceError('result_recorded', `This board's result is recorded already (${p.result}).`, { result: p.result });
    const pending = p.report as { by: string; result: ReportableResult } | null;
    if (!pending) throw new ServiceError('invalid_state', 'There is no reported result to confirm.');
    if (pending.by === caller.playerId) throw new ServiceError('forbidden', 'Your own report is confirmed by your opponent or an organiser.');
    await record(ctx, tx, p, pending.result, { by: caller.playerId, kind: 'confirm', reason: who === 'organiser' ? 'confirmed by an organiser' : null, source: 'reported' }, after);
    await advance(ctx, tx, leagueId, after);
    return pairingAnswer(tx, p.id);
  });
}

export async function setResult(ctx: Ctx, callerIn: Caller, leagueId: string, pairingId: string, input: { result: PairingResult | null; reason: string }): Promise<Pairing> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input) || Object.keys(input).some((k) => k !== 'result' && k !== 'reason')) throw new ServiceError('invalid_request', 'The body must be {"result", "reason"}.');
  if (input.result !== null && !PAIRING_RESULTS.includes(input.result)) throw new ServiceError('invalid_request', `result must be one of ${PAIRING_RESULTS.join(', ')}, or null to reopen the board.`);
  if (typeof input.reason !== 'string' || input.reason.trim() === '' || input.reason.length > MAX_REASON) {
    throw new ServiceError('invalid_request', `reason is required: a string of 1 to ${MAX_REASON} characters (it goes into the audit log).`);
  }
  return changeLeague(ctx, leagueId, async (tx, row, after) => {
    if (!isOrganiser(row, caller)) throw new ServiceError('forbidden', "Only the league's organisers may set or correct a result.");
    const p = await loadPairing(tx, leagueId, pairingId);
    // An organiser who also plays may set their own board's result (a club's only organiser
    // must be able to record an opponent's no-show); the audit log shows who did it.
    const r = input.result;
    const isBye = p.secondId === null;
    if (r !== null && isBye !== r.startsWith('bye-')) {
      throw new ServiceError('invalid_pairing', isBye ? 'A bye takes bye-full, bye-half or bye-zero.' : 'A game between two players cannot be given a bye result.');
    }
    if ((await roundStatus(tx, leagueId, p.round)) === 'draft') throw new ServiceError('invalid_state', 'The round is not published yet.');
    const later = await tx.leagueRound.count({ where: { leagueId, number: { gt: p.round } } });
    if (r === null && later > 0) throw new ServiceError('invalid_state', 'Only a board of the last round can be reopened: later rounds were paired on its result.');
    // A knockout round is paired on every result before it: a knockout board's winner, and in
    // pools the pool tables that chose the qualifiers. Once one exists, those results are fixed.
    if (later > 0 && (row.format === 'knockout' || row.format === 'pools')) {
      const koLater = await tx.leagueRound.count({ where: { leagueId, number: { gt: p.round }, stage: 'knockout' } });
      if (koLater > 0) throw new ServiceError('invalid_state', 'A later knockout round was paired on this result: it cannot be changed now.');
    }
    if (r === p.result) return pairingAnswer(tx, p.id);
    const kind = r !== null && (r.startsWith('forfeit') || r === 'double-forfeit') ? 'forfeit' : 'correction';
    await record(ctx, tx, p, r, { by: caller.playerId, kind, reason: input.reason.trim(), source: 'organiser' }, after);
    if (r === null) {
      await tx.leagueRound.update({ where: { leagueId_number: { leagueId, number: p.round } }, data: { status: 'published', completedAt: null } });
      if (row.status === 'finished') await tx.league.update({ where: { id: leagueId }, data: { status: 'running' } });
    }
    await advance(ctx, tx, leagueId, after);
    return pairingAnswer(tx, p.id);
  });
}

export async function listResultChanges(ctx: Ctx, callerIn: Caller, leagueId: string, opts: { pairingId?: string } = {}): Promise<ResultChange[]> {
  const caller = requirePlayer(callerIn);
  const row = await loadLeague(ctx.db, leagueId);
  if (opts.pairingId !== undefined && !isUuid(opts.pairingId)) return [];
  const organiser = isOrganiser(row, caller);
  const changes = await ctx.db.leagueResultChange.findMany({
    where: { leagueId, ...(opts.pairingId !== undefined ? { pairingId: opts.pairingId } : {}) },
    orderBy: [{ at: 'asc' }, { id: 'asc' }],
  });
  const pairings = await ctx.db.leaguePairing.findMany({ where: { id: { in: [...new Set(changes.map((c) => c.pairingId))] } } });
  const byId = new Map(pairings.map((p) => [p.id, p]));
  // A player reads the changes to their own boards only.
  const visible = changes.filter((c) => {
    const p = byId.get(c.pairingId);
    return organiser || (!!p && (p.firstId === caller.playerId || p.secondId === caller.playerId));
  });
  const refs = await refsFor(ctx.db, []);
  const people = await ctx.db.player.findMany({ where: { id: { in: [...new Set(visible.map((c) => c.byId).filter((x): x is string => x !== null))] } }, select: { id: true, name: true, isBot: true } });
  for (const p of people) refs.set(p.id, p);
  return visible.map((c) => ({
    id: c.id,
    pairingId: c.pairingId,
    round: byId.get(c.pairingId)?.round ?? 0,
    by: c.byId === null ? null : (refs.get(c.byId) ?? { id: c.byId, name: '(unknown)', isBot: false }),
    kind: c.kind as ResultChange['kind'],
    before: c.before as PairingResult | null,
    after: c.after as PairingResult | null,
    reason: c.reason,
    at: c.at.toISOString(),
  }));
}

/**
 * Called by settle.ts inside the transaction that settles a finished or abandoned game: a league
 * game's winner becomes its board's result (unless the board was decided otherwise meanwhile),
 * and the league advances. Returns what to run after that transaction commits.
 */
export async function settleLeagueGame(ctx: Ctx, tx: Prisma.TransactionClient, game: { id: string; status: string; result: unknown }): Promise<Array<() => void | Promise<void>>> {
  const after: AfterCommit = [];
  const p = await tx.leaguePairing.findUnique({ where: { gameId: game.id }, select: { id: true, leagueId: true } });
  if (!p) return after;
  // The same lock order as every league change: the league row first.
  await tx.$queryRaw`SELECT id FROM leagues WHERE id = ${p.leagueId}::uuid FOR UPDATE`;
  const board = (await tx.leaguePairing.findUnique({ where: { id: p.id } }))!;
  if (board.result !== null) return after;
  const m = ctx.games[(await tx.game.findUnique({ where: { id: game.id }, select: { gameType: true } }))!.gameType];
  const reason = (game.result as GameResult | null)?.reason ?? null;
  if (game.status === 'finished') {
    const winner = (game.result as GameResult | null)?.winner ?? null;
    const result: PairingResult = winner === null ? 'draw' : winner === m?.roles[0] ? 'first' : 'second';
    await record(ctx, tx, board, result, { by: null, kind: 'game', reason, source: 'game' }, after);
  } else if (reason === 'timeout' && m) {
    // A league game whose clock ran out before a seat had moved is abandoned (unrated, as any
    // game), but the board must not stay open: a no-show forfeits, as league tools score it.
    // Without this a stalled game would hold a round (and a schedule that waits for it) forever.
    await record(ctx, tx, board, await noShowResult(tx, game.id, m.roles as [string, string]), { by: null, kind: 'forfeit', reason: 'ran out of time without playing (no-show)', source: 'game' }, after);
  } else {
    return after;
  }
  await tx.league.update({ where: { id: p.leagueId }, data: { version: { increment: 1 } } });
  await advance(ctx, tx, p.leagueId, after);
  return after;
}

/**
 * The result of a league game abandoned by timeout (some seat had not moved): the seat that ran
 * out forfeits to the other — unless the other had not moved either and its own time had run out
 * too by then (two no-shows): a double forfeit. A seat that never had the move wins.
 */
async function noShowResult(tx: Prisma.TransactionClient, gameId: string, [first, second]: [string, string]): Promise<PairingResult> {
  const timeout = await tx.action.findFirst({ where: { gameId, kind: 'timeout' }, orderBy: { seq: 'desc' }, select: { role: true, createdAt: true } });
  const game = await tx.game.findUnique({ where: { id: gameId }, select: { clocks: true } });
  const other = timeout?.role === first ? second : first;
  const seat = (game?.clocks as ClockState | null)?.seats[other];
  const ranOut = seat ? (seat.ranOutAt ?? seat.deadline) : null;
  const alsoNoShow = !!seat && seat.moves < 1 && ranOut !== null && timeout !== null && ranOut <= timeout.createdAt.getTime();
  if (alsoNoShow) return 'double-forfeit';
  return other === first ? 'forfeit-first' : 'forfeit-second';
}

async function standingsData(ctx: Ctx, leagueId: string, round: number | undefined) {
  if (round !== undefined && !isRoundNumber(round)) throw new ServiceError('invalid_request', `round must be ${ROUND_RULE}.`);
  const row = await loadLeague(ctx.db, leagueId);
  const [entrantRows, rounds, pairings] = await Promise.all([listEntrantRows(ctx.db, leagueId), listRoundRows(ctx.db, leagueId), listPairingRows(ctx.db, leagueId)]);
  const shape = shapeOf(row);
  const roles = rolesOf(ctx, row.gameType);
  const entrants = entrantRows.map(storedEntrant);
  const stored = pairings.map(storedPairing);
  const storedRounds = rounds.map(storedRound);
  const opts = { rounds: storedRounds, ...(round !== undefined ? { upToRound: round } : {}) };
  // Pools: one table per pool over the pool stage; every other format: one table.
  const tables =
    row.format === 'pools' && stored.some((p) => p.pool !== null)
      ? [...new Set(stored.filter((p) => p.pool !== null).map((p) => p.pool!))].sort((a, b) => a - b).map((pool) => {
          const ids = new Set(stored.filter((p) => p.pool === pool).flatMap((p) => [p.firstId, p.secondId]).filter((x): x is string => x !== null));
          return { pool, result: standingsOf(shape, roles, entrants.filter((e) => ids.has(e.playerId)), stored, { ...opts, pool, stage: 'pool' }) };
        })
      : [{ pool: null, result: standingsOf(shape, roles, entrants, stored, opts) }];
  const names = new Map(entrantRows.map((e) => [e.playerId, e.player.name]));
  return { row, entrantRows, entrants, tables, roles, shape, names };
}

export async function getStandings(ctx: Ctx, _caller: Caller | null, leagueId: string, opts: { round?: number } = {}): Promise<LeagueStandings> {
  const d = await standingsData(ctx, leagueId, opts.round);
  const status = new Map<string, EntrantStatus>(d.entrants.map((e: StoredEntrant) => [e.playerId, e.status]));
  const player = new Map(d.entrantRows.map((e) => [e.playerId, e.player]));
  const first = d.tables[0]!.result;
  return {
    leagueId,
    rounds: Math.max(...d.tables.map((t) => t.result.rounds)),
    roles: d.roles,
    points: d.shape.settings.points,
    tieBreaks: first.tieBreaks,
    standings: d.tables.flatMap((t) =>
      t.result.standings.map((s) => ({
        rank: s.rank,
        player: player.get(s.id) ?? { id: s.id, name: '(unknown)', isBot: false },
        status: status.get(s.id) ?? 'active',
        points: s.points,
        tieBreaks: s.tieBreaks,
        played: s.played,
        won: s.won,
        drawn: s.drawn,
        lost: s.lost,
        forfeitsWon: s.forfeitsWon,
        forfeitsLost: s.forfeitsLost,
        byes: s.byes,
        perSide: s.perSide,
        decidedByFinalOrder: s.decidedByFinalOrder,
        pool: t.pool,
      })),
    ),
  };
}

export async function exportStandingsCsv(ctx: Ctx, _caller: Caller | null, leagueId: string, opts: { round?: number } = {}): Promise<string> {
  const d = await standingsData(ctx, leagueId, opts.round);
  if (d.tables.length === 1) return standingsToCsv(d.tables[0]!.result, d.names);
  // Pools: each pool's table with a pool column in front.
  return d.tables
    .map((t, i) => {
      const lines = standingsToCsv(t.result, d.names).trimEnd().split('\r\n');
      const body = lines.slice(1).map((l) => `${t.pool},${l}`);
      return [...(i === 0 ? [`pool,${lines[0]}`] : []), ...body].join('\r\n');
    })
    .join('\r\n') + '\r\n';
}

