// One change of a league: a transaction that locks the league row, reads it, lets the caller
// decide and write, bumps the league's version, commits — and only then runs what must follow
// a commit (bus messages, ending games through the game write path). Callbacks never fail the
// request: the change is committed; a failure is logged.
import type { Prisma } from '../generated/prisma/client.ts';
import { findLeague, lockLeague, bumpLeague, type LeagueRow } from '../store/leagues.ts';
import { isUuid, type Ctx } from './context.ts';
import { notFound } from './league-views.ts';

export type AfterCommit = Array<() => void | Promise<void>>;

/** Long enough to create the games of a large round in one transaction. */
const TX_TIMEOUT_MS = 120_000;

export async function runAfterCommit(ctx: Ctx, after: AfterCommit): Promise<void> {
  for (const f of after) {
    try {
      await f();
    } catch (err) {
      ctx.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'league: a step after commit failed (the change is committed)');
    }
  }
}

export async function changeLeague<T>(
  ctx: Ctx,
  leagueId: string,
  fn: (tx: Prisma.TransactionClient, row: LeagueRow, after: AfterCommit) => Promise<T>,
): Promise<T> {
  if (!isUuid(leagueId)) throw notFound();
  const after: AfterCommit = [];
  const out = await ctx.db.$transaction(
    async (tx) => {
      if (!(await lockLeague(tx, leagueId))) throw notFound();
      const row = (await findLeague(tx, leagueId))!;
      const r = await fn(tx, row, after);
      await bumpLeague(tx, leagueId);
      return r;
    },
    { timeout: TX_TIMEOUT_MS, maxWait: 30_000 },
  );
  await runAfterCommit(ctx, after);
  return out;
}
