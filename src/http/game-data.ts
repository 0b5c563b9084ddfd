// The URLs of a game type's data files (service/game-data.ts), shared by the
// REST routes (routes/game-data.ts) and GraphQL (GameType.data). Paths only:
// the server does not know the address clients reach it by.
import type { GameDataSet } from '../service/api.ts';

export interface GameDataFileLink {
  name: string;
  /** /game-types/{gameType}/data/{hash}/{name}.json: never changes content. */
  url: string;
  hash: string;
  bytes: number;
}

export interface GameDataIndex {
  gameType: string;
  /** This index: /game-types/{gameType}/data. */
  index: string;
  version: string;
  files: GameDataFileLink[];
}

/** A versioned file URL lives for a year in any cache; its content never changes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The index may change with an upgrade: caches keep it a minute, then revalidate (304 when unchanged). */
export const INDEX_MAX_AGE = 'public, max-age=60';

const seg = (s: string) => encodeURIComponent(s);

export function dataIndexUrl(gameType: string): string {
  return `/game-types/${seg(gameType)}/data`;
}

export function dataFileUrl(gameType: string, hash: string, name: string): string {
  return `${dataIndexUrl(gameType)}/${hash}/${name}.json`;
}

export function gameDataIndex(set: GameDataSet): GameDataIndex {
  return {
    gameType: set.gameType,
    index: dataIndexUrl(set.gameType),
    version: set.version,
    files: set.files.map((f) => ({ name: f.name, url: dataFileUrl(set.gameType, f.hash, f.name), hash: f.hash, bytes: f.bytes })),
  };
}
