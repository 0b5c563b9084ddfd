/**
 * TEMPORARY (issue 19): a stand-in for the Black & White rules, which another
 * branch is writing and which will replace this whole file at merge with the
 * real `createBlackAndWhite(data: BlackAndWhiteData): GameModule`.
 *
 * It exists so that the data file's loading, listing and refusals (the service
 * and API side) can be built and tested before the rules arrive: the module it
 * returns carries the game's id, title, seats and the data file's scenarios,
 * and every rules function throws "the rules are being merged".
 */
import type { GameModule } from '../../engine/types.ts';
import { ARMIES, type BlackAndWhiteData } from './data-format.ts';

const notYet = (): never => {
  throw new Error('Black & White: the rules are being merged (temporary src/games/black-and-white/index.ts)');
};

export function createBlackAndWhite(data: BlackAndWhiteData): GameModule {
  return {
    id: 'black-and-white',
    title: 'Black & White',
    roles: [...ARMIES],
    scenarios: data.scenarios.map((s) => ({ id: s.id, name: s.title, description: `Scenario ${s.number} (${s.family}).`, options: [] })),
    setup: notYet,
    activeRoles: notYet,
    legalActions: notYet,
    apply: notYet,
    view: notYet,
    logChange: notYet,
    logLine: notYet,
    status: notYet,
  };
}
