// Rounds on a schedule (settings.schedule; the due times are src/leagues/calendar.ts): the round
// sweep (src/jobs/round-sweep.ts) finds the running leagues whose next round is due and starts
// it, each in one league change (league-tx.ts) that holds the league row's lock and decides again
// under it — so however many instances sweep at once, a round is published once: the second
// finds the round published and its next one not due, and rolls back without a trace.
//
// What "starting the next round" does, in order:
// 1. The previous round's boards without a result: with unfinished 'wait' the round waits (the
//    sweep leaves it alone; the last result publishes it through advance); with 'draw' or
//    'double-forfeit' each is adjudicated so, in the audit log (kind adjudication, by nobody),
//    and its game ends after the commit (abandoned, as for every result the league decides).
// 2. The organiser's draft of the next round, if there is one, is published as it is (their
//    edits kept). Otherwise, with autoPair, advance pairs and publishes it; without autoPair the
//    round waits for the organiser's draft (League.nextRoundAt stays in the past).
// Publishing is league-rounds.ts publishTx: the games, their clocks and the `seated` events.
//
// The last round has a due time after it too (the slot a next round would have): with 'draw' or
// 'double-forfeit' its unfinished boards are adjudicated then, so the league ends on the
// calendar. A board an organiser reopens (result null) after its round's time is adjudicated
// again by the next sweep: to change such a result, set the result instead of reopening it.
import { boardEvents } from './webhooks.ts';
import { enqueueTx } from '../store/webhooks.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { nextRoundDue, type PublishedRound, type RoundSchedule } from '../leagues/calendar.ts';
import type { LeagueRow } from '../store/leagues.ts';
import type { PairingResult } from './api.ts';
import type { Ctx } from './context.ts';
import { advance, publishTx } from './league-rounds.ts';
import { changeLeague, type AfterCommit } from './league-tx.ts';
import { shapeOf } from './league-views.ts';
import { endLeagueGame } from './lifecycle.ts';

/** Rolls a league change back when, under the lock, nothing turned out to be due. */
class NothingDue extends Error {}

interface Candidate {
  id: string;
  schedule: RoundSchedule;
  autoPair: boolean;
  last: (PublishedRound & { complete: boolean }) | null;
  draft: boolean;
}

/** Whether the sweep has something to do for this league now (also decided again under the lock). */
function actionable(c: Candidate, now: number): boolean {
  if (now < nextRoundDue(c.schedule, c.last)) return false;
  const open = c.last !== null && !c.last.complete;
  if (open && c.schedule.unfinished === 'wait') return false;
  // The round can start: the previous one is over or is adjudicated now. A draft is published;
  // without one, autoPair pairs the round — or, off, adjudication alone is left to do.
  return c.draft || c.autoPair || open;
}

/**
 * One query for every running league with a schedule: its last published round and whether a
 * draft exists. Running leagues are few (an organiser's events, not games), so this reads them
 * all rather than keeping a due-time column up to date on every change.
 */
async function candidates(ctx: Ctx): Promise<Candidate[]> {
  const rows = await ctx.db.$queryRaw<Array<{ id: string; settings: { schedule: RoundSchedule; autoPair: boolean }; number: number | null; published_at: Date | null; status: string | null; draft: boolean }>>`
    SELECT l.id::text AS id, l.settings, p.number, p.published_at, p.status,
           EXISTS (SELECT 1 FROM league_rounds d WHERE d.league_id = l.id AND d.status = 'draft') AS draft
    FROM leagues l
    LEFT JOIN LATERAL (
      SELECT r.number, r.published_at, r.status FROM league_rounds r
      WHERE r.league_id = l.id AND r.status <> 'draft' ORDER BY r.number DESC LIMIT 1
    ) p ON true
    WHERE l.status = 'running' AND jsonb_typeof(l.settings -> 'schedule') = 'object'`;
  return rows.map((r) => ({
    id: r.id,
    schedule: r.settings.schedule,
    autoPair: r.settings.autoPair,
    last: r.number === null ? null : { number: r.number, publishedAt: (r.published_at ?? new Date(0)).getTime(), complete: r.status === 'complete' },
    draft: r.draft,
  }));
}

/** Adjudicates the open boards of a published round per the schedule's policy; how many. */
async function adjudicate(ctx: Ctx, tx: Prisma.TransactionClient, row: LeagueRow, round: number, policy: 'draw' | 'double-forfeit', after: AfterCommit): Promise<number> {
  const open = await tx.leaguePairing.findMany({ where: { leagueId: row.id, round, result: null }, orderBy: { board: 'asc' } });
  const reason = `round ${round}'s time ran out on the league's schedule: unfinished boards are adjudicated as ${policy === 'draw' ? 'draws' : 'double forfeits'}`;
  for (const p of open) {
    // A bye always has its result from the pairing; an open board is a game between two players.
    const result: PairingResult = p.secondId === null ? 'bye-zero' : policy;
    await tx.leaguePairing.update({ where: { id: p.id }, data: { result, source: 'adjudication' } });
    await tx.leagueResultChange.create({ data: { leagueId: row.id, pairingId: p.id, byId: null, kind: 'adjudication', before: null, after: result, reason } });
    await enqueueTx(tx, boardEvents('league_result_recorded', p, new Date(ctx.now()), { result, previous: null, kind: 'adjudication' }));
    if (p.gameId) {
      const gameId = p.gameId;
      after.push(() => endLeagueGame(ctx, gameId, `league: ${reason}`));
    }
  }
  return open.length;
}

/**
 * Starts the league's next round if it is due (under the league's lock); true when this call did
 * something. Rolled back, version and all, when another instance was first.
 */
export async function startDueRound(ctx: Ctx, leagueId: string): Promise<boolean> {
  try {
    return await changeLeague(ctx, leagueId, async (tx, row, after) => {
      const { schedule, autoPair } = shapeOf(row).settings;
      if (row.status !== 'running' || schedule === null) throw new NothingDue();
      const last = await tx.leagueRound.findFirst({ where: { leagueId, status: { not: 'draft' } }, orderBy: { number: 'desc' } });
      const draft = await tx.leagueRound.findFirst({ where: { leagueId, status: 'draft' } });
      const c: Candidate = {
        id: leagueId,
        schedule,
        autoPair,
        last: last ? { number: last.number, publishedAt: (last.publishedAt ?? new Date(0)).getTime(), complete: last.status === 'complete' } : null,
        draft: draft !== null,
      };
      if (!actionable(c, ctx.now())) throw new NothingDue();
      const before = await fingerprint(tx, leagueId);
      if (last && last.status === 'published' && schedule.unfinished !== 'wait') {
        await adjudicate(ctx, tx, row, last.number, schedule.unfinished, after);
        // Completes the round (and with autoPair and no draft pairs and publishes the next).
        await advance(ctx, tx, leagueId, after);
      }
      // A draft exists only once the round before it is complete (generateRound refuses sooner).
      if (draft) await publishTx(ctx, tx, row, draft.number, after);
      await advance(ctx, tx, leagueId, after);
      if ((await fingerprint(tx, leagueId)) === before) throw new NothingDue();
      return true;
    });
  } catch (err) {
    if (err instanceof NothingDue) return false;
    throw err;
  }
}

/** What a sweep step can change: the rounds' states, the boards' results, the league's status. */
async function fingerprint(tx: Prisma.TransactionClient, leagueId: string): Promise<string> {
  const [league, rounds, decided] = await Promise.all([
    tx.league.findUnique({ where: { id: leagueId }, select: { status: true } }),
    tx.leagueRound.findMany({ where: { leagueId }, select: { number: true, status: true }, orderBy: { number: 'asc' } }),
    tx.leaguePairing.count({ where: { leagueId, result: { not: null } } }),
  ]);
  return JSON.stringify([league?.status, rounds, decided]);
}

/** Starts every round that is due now (jobs/round-sweep.ts); how many leagues it moved on. */
export async function sweepScheduledRounds(ctx: Ctx): Promise<number> {
  const now = ctx.now();
  let moved = 0;
  for (const c of await candidates(ctx)) {
    if (!actionable(c, now)) continue;
    try {
      if (await startDueRound(ctx, c.id)) moved++;
    } catch (err) {
      // One league's failure (e.g. a pairing that cannot be made) does not hold up the others.
      ctx.log.warn({ leagueId: c.id, err: err instanceof Error ? err.message : String(err) }, 'league: the scheduled round could not be started; the sweep tries again');
    }
  }
  return moved;
}
