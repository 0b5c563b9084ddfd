// Ratings: Glicko-2 updates when a rated game finishes (called by settle.ts), profiles,
// rating history and leaderboards. TO BE WRITTEN (issue 14, ratings helper).
import type { Caller, LeaderboardEntry, Page, PlayerProfile, RatingHistoryEntry } from './api.ts';
import type { Ctx } from './context.ts';

const todo = (): never => {
  throw new Error('not written yet');
};
export async function getPlayerProfile(_ctx: Ctx, _caller: Caller | null, _playerId: string): Promise<PlayerProfile> {
  return todo();
}
export async function getRatingHistory(_ctx: Ctx, _caller: Caller | null, _playerId: string, _gameType: string, _page?: { cursor?: string; limit?: number }): Promise<Page<RatingHistoryEntry>> {
  return todo();
}
export async function getLeaderboard(_ctx: Ctx, _gameType: string, _opts?: { includeProvisional?: boolean; cursor?: string; limit?: number }): Promise<Page<LeaderboardEntry>> {
  return todo();
}
