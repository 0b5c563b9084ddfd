// League rounds: pairing the next round (a draft), the organiser's edits, publishing (the
// games are created with both seats taken and started, in the same transaction), and the
// advance from one round to the next when the last result comes in.
import { boardEvents, gameEvents } from './webhooks.ts';
import { enqueueTx } from '../store/webhooks.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { findGame, type GameRow, type LogEntryInput } from '../store/games.ts';
import { findLeague, listEntrantRows, listPairingRows, listRoundRows, type LeagueRow, type PairingRow } from '../store/leagues.ts';
import { isRoundNumber, playerChannel, ROUND_RULE, type Caller, type PairingEdit, type PairingResult, type Round } from './api.ts';
import { moduleOf, orderSeats, requirePlayer, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { publishCommitted } from './events.ts';
import { resolveOptions } from './game-types.ts';
import { isPlainObject } from './json.ts';
import { planNextRound, type PlannedBoard } from './league-schedule.ts';
import { changeLeague, type AfterCommit } from './league-tx.ts';
import { isOrganiser, loadLeague, requireOrganiser, rolesOf, roundsOf, shapeOf, storedEntrant, storedPairing, storedRound } from './league-views.ts';
import { endLeagueGame } from './lifecycle.ts';
import { seatHolders } from './league-stand-in.ts';
import { newSeed } from './secrets.ts';
import { pauseOnStart } from './vacation.ts';
import { start as startClocks, deadlines, type TimeControl } from '../clocks/index.ts';
import { firstReminder } from './clocks.ts';
import { nextRoundDue } from '../leagues/calendar.ts';

const MAX_EDITS = 500;

function parseRound(n: unknown): number {
  if (!isRoundNumber(n)) throw new ServiceError('invalid_request', `The round number must be ${ROUND_RULE}.`);
  return n;
}

/** A draft's pairings are the organisers' working copy: players see a round once it is published. */
export async function listRounds(ctx: Ctx, caller: Caller | null, leagueId: string): Promise<Round[]> {
  const row = await loadLeague(ctx.db, leagueId);
  const rounds = await roundsOf(ctx.db, leagueId);
  return isOrganiser(row, caller) ? rounds : rounds.filter((r) => r.status !== 'draft');
}

export async function getRound(ctx: Ctx, caller: Caller | null, leagueId: string, round: number): Promise<Round> {
  const row = await loadLeague(ctx.db, leagueId);
  const [r] = await roundsOf(ctx.db, leagueId, parseRound(round));
  if (!r || (r.status === 'draft' && !isOrganiser(row, caller))) throw new ServiceError('not_found', `The league has no published round ${round}.`);
  return r;
}

/** The bye result a pairing gives in this format (round robins: sitting out scores nothing). */
function byeResult(row: Pick<LeagueRow, 'format'>): PairingResult {
  return row.format === 'round-robin' || row.format === 'double-round-robin' || (row.format === 'pools') ? 'bye-zero' : 'bye-full';
}

async function insertBoards(tx: Prisma.TransactionClient, leagueId: string, round: number, boards: PlannedBoard[]): Promise<void> {
  await tx.leaguePairing.createMany({
    data: boards.map((b, i) => ({
      leagueId,
      round,
      board: b.board ?? i + 1,
      pool: b.pool,
      firstId: b.first,
      secondId: b.second,
      result: b.result,
      source: b.result === null ? null : b.source,
    })),
  });
}

/** Plans and stores the next round as a draft; false when the format has no more rounds (the league is then finished). */
async function createNextRound(ctx: Ctx, tx: Prisma.TransactionClient, row: LeagueRow): Promise<number | null> {
  const [entrants, rounds, pairings] = await Promise.all([listEntrantRows(tx, row.id), listRoundRows(tx, row.id), listPairingRows(tx, row.id)]);
  const plan = planNextRound(shapeOf(row), rolesOf(ctx, row.gameType), entrants.map(storedEntrant), rounds.map(storedRound), pairings.map(storedPairing));
  if (plan === 'finished') {
    await tx.league.update({ where: { id: row.id }, data: { status: 'finished' } });
    return null;
  }
  await tx.leagueRound.create({ data: { leagueId: row.id, number: plan.number, stage: plan.stage, status: 'draft' } });
  await insertBoards(tx, row.id, plan.number, plan.boards);
  return plan.number;
}

/**
 * Publishes a draft round: every board between two players gets its game, created started
 * with both seats taken (the one write path's start entry, version 1); boards decided without
 * a game (byes, forfeits) are final at once. After the commit both players hear of the game.
 */
export async function publishTx(ctx: Ctx, tx: Prisma.TransactionClient, row: LeagueRow, number: number, after: AfterCommit): Promise<void> {
  const s = shapeOf(row).settings;
  const m = moduleOf(ctx, row.gameType);
  const [firstRole, secondRole] = m.roles as [string, string];
  const scenario = s.scenarios[(number - 1) % s.scenarios.length]!;
  const options = resolveOptions(m, scenario, s.options, 'invalid_options');
  const boards = await tx.leaguePairing.findMany({ where: { leagueId: row.id, round: number }, orderBy: { board: 'asc' } });
  const now = ctx.now();
  const at = new Date(now);
  const control = (s.timeControl ?? null) as TimeControl | null;
  const started: Array<{ game: Pick<GameRow, 'id' | 'seats'>; entry: LogEntryInput; board: PairingRow }> = [];
  if (s.play === 'herald') {
    // An entrant with a stand-in is seated as the AI player of its level (league-stand-in.ts).
    const holder = await seatHolders(ctx, tx, row.id);
    for (const b of boards) {
      if (b.secondId === null || b.result !== null) continue;
      const seed = newSeed();
      const state = m.setup({ scenario, seed, options });
      const activeRoles = m.activeRoles(state);
      const entry: LogEntryInput = { kind: 'start', role: null, playerId: null, status: 'active', activeRoles, log: m.logChange(state) as unknown as Prisma.InputJsonValue };
      // The clocks start with the game, at publishing.
      const clocks = control === null ? null : startClocks(control, m.roles, activeRoles, now);
      const earliest = clocks === null ? null : deadlines(clocks).earliest;
      const game = await tx.game.create({
        data: {
          gameType: m.id,
          scenario,
          options: options as Prisma.InputJsonValue,
          seed,
          visibility: row.visibility === 'public' ? 'public' : 'private',
          autoStart: true,
          rated: s.rated,
          ...(control !== null && clocks !== null
            ? { timeControl: control as unknown as Prisma.InputJsonValue, clocks: clocks as unknown as Prisma.InputJsonValue, deadlineAt: earliest === null ? null : new Date(earliest.deadline), remindAt: firstReminder(clocks, control, ctx.reminders) }
            : {}),
          createdById: row.createdById,
          status: 'active',
          version: 1,
          state: state as Prisma.InputJsonValue,
          activeRoles,
          seats: { create: [{ role: firstRole, playerId: holder(b.firstId) }, { role: secondRole, playerId: holder(b.secondId) }] },
          actions: { create: [{ seq: 1, kind: 'start', role: null, playerId: null, status: 'active', activeRoles, log: entry.log ?? undefined, createdAt: at }] },
        },
        select: { id: true },
      });
      await tx.leaguePairing.update({ where: { id: b.id }, data: { gameId: game.id } });
      started.push({
        game: { id: game.id, seats: [{ role: firstRole, playerId: holder(b.firstId) }, { role: secondRole, playerId: holder(b.secondId) }] as GameRow['seats'] },
        entry,
        board: b,
      });
    }
  }
  // A forfeit decided at pairing time (a player who left) is a result change; a bye is part of
  // the pairing itself and is shown by the round.
  for (const b of boards) {
    if (b.result !== null && b.secondId !== null) {
      await tx.leagueResultChange.create({ data: { leagueId: row.id, pairingId: b.id, byId: null, kind: 'withdrawal', before: null, after: b.result, reason: 'a player had left the league' } });
    }
  }
  await tx.leagueRound.update({ where: { leagueId_number: { leagueId: row.id, number } }, data: { status: 'published', publishedAt: at } });
  // Webhooks, in this transaction: the round to every player of it; each new game's start and first turns.
  const gameOf = new Map(started.map((x) => [x.board.id, x.game.id]));
  const events = boards.flatMap((b) => boardEvents('league_round_published', { ...b, gameId: gameOf.get(b.id) ?? b.gameId }, at));
  for (const x of started) {
    const g = { id: x.game.id, gameType: m.id, status: 'setup', activeRoles: [], visibility: row.visibility === 'public' ? 'public' : 'private' } as unknown as GameRow;
    events.push(...gameEvents(g, { status: 'active', activeRoles: x.entry.activeRoles, version: 1, result: null, seats: x.game.seats }, [x.entry], at));
  }
  await enqueueTx(tx, events.map((e, i) => ({ ...e, ord: i })));
  after.push(async () => {
    for (const s0 of started) {
      // Seats of players on vacation stop at once, as in their other games.
      if (control !== null) await pauseOnStart(ctx, s0.game.id, s0.game.seats.map((x) => x.playerId), now);
      // The event carries the game's clock (started, or paused just now): publish from the stored row.
      const stored = await findGame(ctx.sql, s0.game.id);
      await publishCommitted(ctx, stored ? orderSeats(ctx, stored) : (s0.game as GameRow), 1, [s0.entry], at);
      for (const seat of s0.game.seats) {
        await ctx.bus
          .publish(playerChannel(seat.playerId!), { type: 'seated', gameId: s0.game.id, role: seat.role, leagueId: row.id, round: number, board: s0.board.board })
          .catch((err: unknown) => ctx.log.warn({ err: String(err) }, 'bus publish failed (the round is published)'));
      }
    }
  });
}

/** Whether the format has no round after the last complete one (cheap for a Swiss: no pairing is run). */
async function noMoreRounds(ctx: Ctx, tx: Prisma.TransactionClient, row: LeagueRow): Promise<boolean> {
  const shape = shapeOf(row);
  const rounds = await listRoundRows(tx, row.id);
  if (row.format === 'swiss') return rounds.length >= shape.settings.rounds!;
  const [entrants, pairings] = await Promise.all([listEntrantRows(tx, row.id), listPairingRows(tx, row.id)]);
  try {
    return planNextRound(shape, rolesOf(ctx, row.gameType), entrants.map(storedEntrant), rounds.map(storedRound), pairings.map(storedPairing)) === 'finished';
  } catch {
    return false;
  }
}

function isComplete(pairings: readonly { result: string | null }[]): boolean {
  return pairings.every((p) => p.result !== null);
}

/**
 * After any result or entrant change: completes the open round when its last board has a
 * result, and with autoPair pairs and publishes the next one — or finishes the league.
 */
export async function advance(ctx: Ctx, tx: Prisma.TransactionClient, leagueId: string, after: AfterCommit): Promise<void> {
  for (let guard = 0; guard < 1000; guard++) {
    const row = (await findLeague(tx, leagueId))!;
    if (row.status !== 'running') return;
    const last = await tx.leagueRound.findFirst({ where: { leagueId }, orderBy: { number: 'desc' } });
    if (last && last.status === 'draft') return;
    if (last && last.status === 'published') {
      const boards = await tx.leaguePairing.findMany({ where: { leagueId, round: last.number }, select: { result: true } });
      if (!isComplete(boards)) return;
      await tx.leagueRound.update({ where: { leagueId_number: { leagueId, number: last.number } }, data: { status: 'complete', completedAt: new Date(ctx.now()) } });
    }
    const { autoPair, schedule } = shapeOf(row).settings;
    // On a schedule the next round waits for its time: the round sweep (league-calendar.ts) calls
    // this again then.
    const notYet = schedule !== null && ctx.now() < nextRoundDue(schedule, last ? { number: last.number, publishedAt: (last.publishedAt ?? new Date(0)).getTime() } : null);
    if (!autoPair || notYet) {
      // Without autoPair the organiser pairs each round; the league still ends by itself.
      if (last && (await noMoreRounds(ctx, tx, row))) await tx.league.update({ where: { id: leagueId }, data: { status: 'finished' } });
      return;
    }
    let n: number | null;
    try {
      n = await createNextRound(ctx, tx, row);
    } catch (err) {
      // The result (or withdrawal) that completed the round stands even when the next round has
      // no pairing: failing here would refuse every result that completes such a round, and a
      // league game's settlement would fail and be retried forever. The round stays complete;
      // the organiser's generateRound answers no_pairing with the reason (as without autoPair).
      if (last && err instanceof ServiceError && err.code === 'no_pairing') {
        // A Swiss that no one can join any more and whose remaining players have all met ends
        // here: no later result can make a pairing possible. (Pools short of qualifiers wait
        // for the organiser, who can still change results of the pool stage.)
        const s = shapeOf(row).settings;
        if (row.format === 'swiss' && s.lateEntry === 'closed') {
          ctx.log.warn({ leagueId, err: err.message }, 'league: no pairing is possible for the next round; the Swiss ends early');
          await tx.league.update({ where: { id: leagueId }, data: { status: 'finished' } });
          return;
        }
        ctx.log.warn({ leagueId, err: err.message }, 'league: the next round cannot be paired');
        return;
      }
      throw err;
    }
    if (n === null) return;
    await publishTx(ctx, tx, row, n, after);
    // A round decided entirely without games (all byes or forfeits) is complete at once: loop.
  }
}

export async function generateRound(ctx: Ctx, callerIn: Caller, leagueId: string): Promise<Round> {
  const caller = requirePlayer(callerIn);
  const n = await changeLeague(ctx, leagueId, async (tx, row) => {
    requireOrganiser(row, caller);
    if (row.status !== 'running') throw new ServiceError('invalid_state', row.status === 'registration' ? 'Start the league first.' : 'The league is finished.');
    const last = await tx.leagueRound.findFirst({ where: { leagueId }, orderBy: { number: 'desc' } });
    if (last && last.status !== 'complete') {
      throw new ServiceError('round_in_progress', `Round ${last.number} is ${last.status === 'draft' ? 'a draft (publish or delete it)' : 'still being played'}.`, { round: last.number });
    }
    const number = await createNextRound(ctx, tx, row);
    if (number === null) throw new ServiceError('invalid_state', 'The league has no more rounds: it is finished now.');
    return number;
  });
  return getRound(ctx, caller, leagueId, n);
}

export async function publishRound(ctx: Ctx, callerIn: Caller, leagueId: string, round: number): Promise<Round> {
  const caller = requirePlayer(callerIn);
  const n = parseRound(round);
  await changeLeague(ctx, leagueId, async (tx, row, after) => {
    requireOrganiser(row, caller);
    const r = await tx.leagueRound.findUnique({ where: { leagueId_number: { leagueId, number: n } } });
    if (!r) throw new ServiceError('not_found', `The league has no round ${n}.`);
    if (r.status !== 'draft') throw new ServiceError('round_published', `Round ${n} is published already.`, { round: n });
    await publishTx(ctx, tx, row, n, after);
    await advance(ctx, tx, leagueId, after);
  });
  return getRound(ctx, caller, leagueId, n);
}

export async function deleteDraftRound(ctx: Ctx, callerIn: Caller, leagueId: string, round: number): Promise<void> {
  const caller = requirePlayer(callerIn);
  const n = parseRound(round);
  await changeLeague(ctx, leagueId, async (tx, row) => {
    requireOrganiser(row, caller);
    const r = await tx.leagueRound.findUnique({ where: { leagueId_number: { leagueId, number: n } } });
    if (!r) throw new ServiceError('not_found', `The league has no round ${n}.`);
    if (r.status !== 'draft') throw new ServiceError('round_published', `Round ${n} is published: it cannot be deleted.`, { round: n });
    await tx.leaguePairing.deleteMany({ where: { leagueId, round: n } });
    await tx.leagueRound.delete({ where: { leagueId_number: { leagueId, number: n } } });
  });
}

interface Board {
  first: string;
  second: string | null;
  pool: number | null;
}

/** Applies the organiser's edits to a draft's boards (in memory). */
function applyEdits(boards: Board[], edits: PairingEdit[], eligible: Set<string>): Board[] {
  const out = boards.map((b) => ({ ...b }));
  const where = (id: string) => {
    for (const [i, b] of out.entries()) {
      if (b.first === id) return { i, side: 'first' as const };
      if (b.second === id) return { i, side: 'second' as const };
    }
    return null;
  };
  const need = (id: unknown, field: string): string => {
    if (typeof id !== 'string' || !eligible.has(id)) {
      // Only a string is echoed back: a deep array would overflow the stack when stringified (a 500).
      const echo = typeof id === 'string' ? id.slice(0, 100) : null;
      throw new ServiceError('invalid_pairing', `${field}: ${echo === null ? 'not a player id' : JSON.stringify(echo)} is not an active entrant of this round (withdrawn, disqualified, not yet entered, or not in the league).`, { player: echo });
    }
    if (!where(id)) throw new ServiceError('invalid_pairing', `${field}: that player is not on any board of the draft.`, { player: id });
    return id;
  };
  for (const [k, e] of edits.entries()) {
    if (!isPlainObject(e)) throw new ServiceError('invalid_request', `edits[${k}] must be an object.`);
    const keys = Object.keys(e);
    if (e.op === 'swap') {
      if (keys.some((x) => !['op', 'a', 'b'].includes(x))) throw new ServiceError('invalid_request', `edits[${k}]: swap takes a and b.`);
      const a = need(e.a, `edits[${k}].a`);
      const b = need(e.b, `edits[${k}].b`);
      if (a === b) throw new ServiceError('invalid_pairing', `edits[${k}]: a and b are the same player.`);
      const pa = where(a)!;
      const pb = where(b)!;
      out[pa.i]![pa.side] = b;
      out[pb.i]![pb.side] = a;
    } else if (e.op === 'bye') {
      if (keys.some((x) => !['op', 'player'].includes(x))) throw new ServiceError('invalid_request', `edits[${k}]: bye takes player.`);
      const p = need(e.player, `edits[${k}].player`);
      const at = where(p)!;
      const board = out[at.i]!;
      if (board.second === null) continue;
      const opponent = at.side === 'first' ? board.second : board.first;
      const byeBoard = out.findIndex((b) => b.second === null);
      out.splice(at.i, 1);
      if (byeBoard >= 0) {
        const prev = out.find((b) => b.second === null)!;
        const other = prev.first;
        prev.first = p;
        out.unshift({ first: opponent, second: other, pool: board.pool });
      } else {
        out.push({ first: p, second: null, pool: board.pool }, { first: opponent, second: null, pool: board.pool });
      }
    } else if (e.op === 'pair') {
      if (keys.some((x) => !['op', 'first', 'second'].includes(x))) throw new ServiceError('invalid_request', `edits[${k}]: pair takes first and second.`);
      const a = need(e.first, `edits[${k}].first`);
      const b = need(e.second, `edits[${k}].second`);
      if (a === b) throw new ServiceError('invalid_pairing', `edits[${k}]: a player cannot play themselves.`);
      const ba = out[where(a)!.i]!;
      const bb = out[where(b)!.i]!;
      const partner = (board: Board, id: string) => (board.first === id ? board.second : board.first);
      const x = partner(ba, a);
      const y = ba === bb ? null : partner(bb, b);
      const pool = ba.pool;
      const rest = out.filter((bd) => bd !== ba && bd !== bb);
      rest.unshift({ first: a, second: b, pool });
      const left = [x, y].filter((v): v is string => v !== null && v !== a && v !== b);
      if (left.length === 2) rest.push({ first: left[0]!, second: left[1]!, pool });
      else if (left.length === 1) rest.push({ first: left[0]!, second: null, pool });
      out.length = 0;
      out.push(...rest);
    } else {
      throw new ServiceError('invalid_request', `edits[${k}].op must be swap, bye or pair.`);
    }
  }
  return out;
}

export async function editPairings(ctx: Ctx, callerIn: Caller, leagueId: string, round: number, edits: PairingEdit[]): Promise<Round> {
  const caller = requirePlayer(callerIn);
  const n = parseRound(round);
  if (!Array.isArray(edits) || edits.length === 0 || edits.length > MAX_EDITS) throw new ServiceError('invalid_request', `edits must be a list of 1 to ${MAX_EDITS} edits.`);
  await changeLeague(ctx, leagueId, async (tx, row) => {
    requireOrganiser(row, caller);
    const r = await tx.leagueRound.findUnique({ where: { leagueId_number: { leagueId, number: n } } });
    if (!r) throw new ServiceError('not_found', `The league has no round ${n}.`);
    if (r.status !== 'draft') throw new ServiceError('round_published', `Round ${n} is published: its pairings can no longer be edited.`, { round: n });
    if (r.stage === 'knockout') throw new ServiceError('invalid_pairing', 'Knockout brackets follow the seeds and results; change seeds before the start, or results, instead.');
    const current = await tx.leaguePairing.findMany({ where: { leagueId, round: n }, orderBy: { board: 'asc' } });
    const entrants = await listEntrantRows(tx, leagueId);
    const eligible = new Set(entrants.filter((e) => e.status === 'active' && e.firstRound <= n).map((e) => e.playerId));
    // Boards already decided without a game (forfeits of players who left) are not edited.
    const fixed = current.filter((p) => p.source === 'withdrawal');
    const editable = current.filter((p) => p.source !== 'withdrawal').map((p) => ({ first: p.firstId, second: p.secondId, pool: p.pool }));
    const boards = applyEdits(editable, edits, eligible);
    // A round robin's rounds follow its Berger table: later rounds are read from the table, not
    // from what was played, so changing who meets whom here would make some pairs meet twice and
    // others never. Only the sides of a board may change.
    if (r.stage === 'round-robin' || r.stage === 'pool') {
      const meetings = (bs: Board[]) => bs.map((b) => (b.second === null ? `-${b.first}` : [b.first, b.second].sort().join())).sort().join();
      if (meetings(boards) !== meetings(editable)) {
        throw new ServiceError('invalid_pairing', "A round robin's pairings follow its schedule: only the two sides of a board can be swapped.");
      }
    }
    if (row.format === 'pools') {
      const poolOf = new Map<string, number | null>();
      for (const p of current) {
        poolOf.set(p.firstId, p.pool);
        if (p.secondId) poolOf.set(p.secondId, p.pool);
      }
      for (const b of boards) {
        if (b.second !== null && poolOf.get(b.first) !== poolOf.get(b.second)) throw new ServiceError('invalid_pairing', 'Pool games pair two players of the same pool.');
      }
    }
    await tx.leaguePairing.deleteMany({ where: { leagueId, round: n } });
    const planned: PlannedBoard[] = [
      ...boards.filter((b) => b.second !== null).map((b) => ({ ...b, result: null, source: null })),
      ...fixed.map((p) => ({ first: p.firstId, second: p.secondId, pool: p.pool, result: p.result as PairingResult, source: 'withdrawal' as const })),
      ...boards.filter((b) => b.second === null).map((b) => ({ ...b, result: byeResult(row), source: 'pairing' as const })),
    ];
    await insertBoards(tx, leagueId, n, planned);
  });
  return getRound(ctx, caller, leagueId, n);
}

/**
 * A player leaves a running league: each of their boards still open in a published round
 * becomes a forfeit (a double forfeit if the opponent has left too), per the league's
 * withdrawal policy — with 'annul' the board is simply closed as a double forfeit, which
 * the standings then leave out with everything else of that player. Their games end.
 */
export async function forfeitOpenBoards(ctx: Ctx, tx: Prisma.TransactionClient, row: LeagueRow, playerId: string, by: string, reason: string, after: AfterCommit): Promise<void> {
  const open = await tx.leaguePairing.findMany({ where: { leagueId: row.id, result: null, OR: [{ firstId: playerId }, { secondId: playerId }] } });
  for (const p of open) {
    const result: PairingResult = p.secondId === null ? 'bye-zero' : p.firstId === playerId ? 'forfeit-second' : 'forfeit-first';
    await tx.leaguePairing.update({ where: { id: p.id }, data: { result, source: 'withdrawal', report: Prisma.DbNull } });
    await tx.leagueResultChange.create({ data: { leagueId: row.id, pairingId: p.id, byId: by, kind: 'withdrawal', before: null, after: result, reason } });
    await enqueueTx(tx, boardEvents('league_result_recorded', p, new Date(ctx.now()), { result, previous: null, kind: 'withdrawal' }));
    if (p.gameId) {
      const gameId = p.gameId;
      after.push(() => endLeagueGame(ctx, gameId, `league: ${reason}`));
    }
  }
}
