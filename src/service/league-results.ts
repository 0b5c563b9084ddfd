// TO BE WRITTEN (issue 14).
import type { Prisma } from '../generated/prisma/client.ts';
import type * as A from './api.ts';
import type { Ctx } from './context.ts';
type Caller = A.Caller;

export async function reportResult(_ctx: Ctx, _caller: Caller, _leagueId: string, _pairingId: string, _input: { result: A.ReportableResult }): Promise<A.Pairing> {
  throw new Error('not written yet');
}
export async function confirmResult(_ctx: Ctx, _caller: Caller, _leagueId: string, _pairingId: string): Promise<A.Pairing> {
  throw new Error('not written yet');
}
export async function setResult(_ctx: Ctx, _caller: Caller, _leagueId: string, _pairingId: string, _input: { result: A.PairingResult | null; reason: string }): Promise<A.Pairing> {
  throw new Error('not written yet');
}
export async function listResultChanges(_ctx: Ctx, _caller: Caller, _leagueId: string, _opts?: { pairingId?: string }): Promise<A.ResultChange[]> {
  throw new Error('not written yet');
}
export async function getStandings(_ctx: Ctx, _caller: Caller | null, _leagueId: string, _opts?: { round?: number }): Promise<A.LeagueStandings> {
  throw new Error('not written yet');
}
export async function exportStandingsCsv(_ctx: Ctx, _caller: Caller | null, _leagueId: string, _opts?: { round?: number }): Promise<string> {
  throw new Error('not written yet');
}

// written by the coordinator
/**
 * Records a league game's result, inside settleGame's transaction (service/settle.ts), which
 * calls it exactly once per game that is over. Returns what to do after the commit (publish).
 */
export async function settleLeagueGame(_ctx: Ctx, _tx: Prisma.TransactionClient, _game: { id: string; status: string; result: unknown }): Promise<Array<() => void>> {
  return [];
}
