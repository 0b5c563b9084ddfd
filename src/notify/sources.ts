// The feeds' database side, over the game service (api.ts): what a listener
// missed is read from the game log, never from the bus.
import type { Caller, GameEvent, GameServiceApi } from '../service/api.ts';
import type { GameFeedSource } from './game-feed.ts';
import type { TurnFeedSource } from './turn-feed.ts';
import type { AppFeedSource } from './app-feed.ts';

const PAGE = 500;

/** Every event of the game after `version`, oldest first (read page by page). */
export async function eventsSince(service: GameServiceApi, gameId: string, version: number): Promise<GameEvent[]> {
  const all: GameEvent[] = [];
  let after = version;
  for (;;) {
    const page = await service.listEventsSince(gameId, after, PAGE);
    all.push(...page);
    if (page.length < PAGE) return all;
    after = page[page.length - 1]!.version;
  }
}

/**
 * A game as `caller` may read it: its seat view (`role` names the seat for a
 * player holding several), or the spectator view. Access is checked on every
 * read, so a stream stops when the caller loses access.
 */
export function gameFeedSource(service: GameServiceApi, caller: Caller | null, gameId: string, role?: string): GameFeedSource {
  return {
    currentView: (knownVersion) => service.getView(caller, gameId, { ...(role === undefined ? {} : { role }), ...(knownVersion === undefined ? {} : { knownVersion }) }),
    currentVersion: async () => (await service.getGame(caller, gameId)).version,
    eventsSince: (version) => eventsSince(service, gameId, version),
  };
}

/** A player's games in progress and their logs (only games the player holds a seat in are read). */
export function turnFeedSource(service: GameServiceApi, playerId: string): TurnFeedSource {
  return {
    playerGames: () => service.playerGames(playerId),
    eventsSince: (gameId, version) => eventsSince(service, gameId, version),
  };
}

/** An application's players, their games in progress and those games' logs (requireApp checked the caller). */
export function appFeedSource(service: GameServiceApi, appId: string): AppFeedSource {
  return {
    appPlayers: () => service.appPlayers(appId),
    appGames: () => service.appGames(appId),
    eventsSince: (gameId, version) => eventsSince(service, gameId, version),
  };
}
