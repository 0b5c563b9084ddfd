/** Every game Herald hosts, by id. */
import { fileURLToPath } from 'node:url';
import type { GameModule } from '../engine/types.ts';
import { richardIII } from './richard-iii/index.ts';
import { createBlackAndWhite } from './black-and-white/index.ts';
import { validateBlackAndWhiteData } from './black-and-white/validate-data.ts';

/** Games whose rules need nothing from the server: always installed. */
export const games: Record<string, GameModule> = {
  'richard-iii': richardIII as unknown as GameModule,
};

/** One problem found in a game's data file; `path` is a JSON pointer into it. */
export interface GameDataProblem {
  file: string;
  path: string;
  message: string;
}

/**
 * A game type whose numbers Herald does not ship (an owner of the game types
 * them into a data file): the server reads the file its setting names at
 * start-up, checks it with `validate` and builds the module with `create`. The
 * service knows only this shape, so another such game is one more entry here
 * (and its setting in src/config.ts's GAME_DATA_SETTINGS).
 */
export interface GameTypeNeedingData<D = unknown> {
  id: string;
  title: string;
  /** The setting (environment variable) that names the data file. */
  setting: string;
  /** Where the data format is documented, for the messages of a missing or bad file. */
  documentation: string;
  validate(json: unknown, file: string): { ok: true; data: D } | { ok: false; problems: GameDataProblem[] };
  create(data: D): GameModule;
  /** The file says its numbers are made up (shown wherever the game type is listed). */
  invented(data: D): boolean;
  /**
   * The data file of made-up numbers shipped with the game, if any (absolute path): what the tests,
   * the fuzz and the benchmarks play on (test/helpers/games inventedDataFiles).
   */
  inventedFile?: string;
}

/** Erases the data type once the entry is type-checked against it. */
const needsData = <D>(entry: GameTypeNeedingData<D>): GameTypeNeedingData => entry as unknown as GameTypeNeedingData;

export const gamesNeedingData: readonly GameTypeNeedingData[] = [
  needsData({
    id: 'black-and-white',
    title: 'Black & White',
    setting: 'HERALD_BLACK_AND_WHITE_DATA',
    documentation: 'src/games/black-and-white/README.md',
    validate: validateBlackAndWhiteData,
    create: createBlackAndWhite,
    invented: (d) => d.invented,
    inventedFile: fileURLToPath(new URL('./black-and-white/data/invented-data.json', import.meta.url)),
  }),
];
