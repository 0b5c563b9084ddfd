/**
 * What the client knows of game types it reads from the server (GET
 * /game-types), never from a built-in list: the default game type (the first
 * the server lists), its seats, its scenarios and the default scenario.
 */
import type { HeraldClient } from './api.ts';
import { usageError } from './errors.ts';
import type { GameType } from './types.ts';

export async function gameTypes(client: HeraldClient): Promise<GameType[]> {
  return client.get<GameType[]>('/game-types');
}

/** The game type `id`, or the server's first when absent; a usage error naming the others when unknown. */
export async function gameType(client: HeraldClient, id: string | undefined): Promise<GameType> {
  const all = await gameTypes(client);
  const found = id === undefined ? all[0] : all.find((g) => g.id === id);
  if (!found) throw usageError(`unknown game type ${id ?? '(the server has none)'}; this server hosts: ${all.map((g) => g.id).join(', ')}`);
  return found;
}

/**
 * The scenario to play when none is given: the one named as its game type if
 * there is one (a game's own scenario, often its shortest full game), else the
 * first listed.
 */
export function defaultScenario(type: GameType): string {
  return (type.scenarios.find((s) => s.id === type.id) ?? type.scenarios[0]!).id;
}

/** `scenario` if the game type has it, else a usage error listing the type's scenarios. */
export function checkScenario(type: GameType, scenario: string | undefined): string {
  if (scenario !== undefined && type.scenarios.some((s) => s.id === scenario)) return scenario;
  const list = type.scenarios.map((s) => s.id).join(', ');
  throw usageError(scenario === undefined ? `--scenario is required; ${type.id} has: ${list}` : `unknown scenario ${scenario}; ${type.id} has: ${list}`);
}
