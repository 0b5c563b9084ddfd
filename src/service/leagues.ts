// TO BE WRITTEN (issue 14).
import type * as A from './api.ts';
import type { Ctx } from './context.ts';
type Caller = A.Caller;

export async function createLeague(_ctx: Ctx, _caller: Caller, _input: A.LeagueSettingsInput): Promise<A.League> {
  throw new Error('not written yet');
}
export async function updateLeague(_ctx: Ctx, _caller: Caller, _leagueId: string, _input: A.LeagueUpdateInput): Promise<A.League> {
  throw new Error('not written yet');
}
export async function getLeague(_ctx: Ctx, _caller: Caller | null, _leagueId: string): Promise<A.League> {
  throw new Error('not written yet');
}
export async function listLeagues(_ctx: Ctx, _caller: Caller | null, _filter: A.LeagueFilter, _page?: { cursor?: string; limit?: number }): Promise<A.Page<A.League>> {
  throw new Error('not written yet');
}
export async function addOrganiser(_ctx: Ctx, _caller: Caller, _leagueId: string, _playerId: string): Promise<A.League> {
  throw new Error('not written yet');
}
export async function removeOrganiser(_ctx: Ctx, _caller: Caller, _leagueId: string, _playerId: string): Promise<A.League> {
  throw new Error('not written yet');
}
export async function listEntrants(_ctx: Ctx, _caller: Caller | null, _leagueId: string): Promise<A.Entrant[]> {
  throw new Error('not written yet');
}
export async function joinLeague(_ctx: Ctx, _caller: Caller, _leagueId: string): Promise<A.Entrant> {
  throw new Error('not written yet');
}
export async function withdrawFromLeague(_ctx: Ctx, _caller: Caller, _leagueId: string): Promise<A.Entrant | null> {
  throw new Error('not written yet');
}
export async function addEntrant(_ctx: Ctx, _caller: Caller, _leagueId: string, _input: { playerId: string; seed?: number }): Promise<A.Entrant> {
  throw new Error('not written yet');
}
export async function updateEntrant(_ctx: Ctx, _caller: Caller, _leagueId: string, _playerId: string, _input: { seed?: number | null; status?: 'withdrawn' | 'disqualified'; reason?: string }): Promise<A.Entrant> {
  throw new Error('not written yet');
}
export async function removeEntrant(_ctx: Ctx, _caller: Caller, _leagueId: string, _playerId: string): Promise<void> {
  throw new Error('not written yet');
}
export async function startLeague(_ctx: Ctx, _caller: Caller, _leagueId: string): Promise<A.League> {
  throw new Error('not written yet');
}
