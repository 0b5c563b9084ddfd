/** Every game Herald hosts, by id. */
import type { GameModule } from '../engine/types.ts';
import { richardIII } from './richard-iii/index.ts';

export const games: Record<string, GameModule> = {
  'richard-iii': richardIII as unknown as GameModule,
};
