// TO BE WRITTEN (issue 14).
import type * as A from './api.ts';
import type { Ctx } from './context.ts';
type Caller = A.Caller;

export async function listRounds(_ctx: Ctx, _caller: Caller | null, _leagueId: string): Promise<A.Round[]> {
  throw new Error('not written yet');
}
export async function getRound(_ctx: Ctx, _caller: Caller | null, _leagueId: string, _round: number): Promise<A.Round> {
  throw new Error('not written yet');
}
export async function generateRound(_ctx: Ctx, _caller: Caller, _leagueId: string): Promise<A.Round> {
  throw new Error('not written yet');
}
export async function editPairings(_ctx: Ctx, _caller: Caller, _leagueId: string, _round: number, _edits: A.PairingEdit[]): Promise<A.Round> {
  throw new Error('not written yet');
}
export async function publishRound(_ctx: Ctx, _caller: Caller, _leagueId: string, _round: number): Promise<A.Round> {
  throw new Error('not written yet');
}
export async function deleteDraftRound(_ctx: Ctx, _caller: Caller, _leagueId: string, _round: number): Promise<void> {
  throw new Error('not written yet');
}
