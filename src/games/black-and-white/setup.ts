/**
 * A new game: the data it needs copied in (so a stored game never depends on
 * the server's data file), the options read, both seats buying.
 */
import { seedRng } from '../../engine/rng.ts';
import type { Army, BlackAndWhiteData, Family, ScenarioData } from './data-format.ts';
import { readOptions } from './options.ts';
import type { BWState } from './state.ts';
import { copyJson } from './state.ts';
import { newOrdersState } from './orders-state.ts';

/** Special markers by family (§6, A57); the scenario card may say otherwise. */
export function markersOf(sc: ScenarioData): Record<Army, number> {
  const attacker = sc.attacker;
  const byFamily = (family: Family, army: Army): number => {
    if (family === 'defence' || family === 'behind-enemy-lines') return army === attacker ? 4 : 3;
    return 3;
  };
  return {
    Thargaton: sc.markers?.Thargaton ?? byFamily(sc.family, 'Thargaton'),
    Vesania: sc.markers?.Vesania ?? byFamily(sc.family, 'Vesania'),
  };
}

export function setupState(data: BlackAndWhiteData, scenario: string, seed: string, given?: Record<string, unknown>): BWState {
  const sc = data.scenarios.find((x) => x.id === scenario);
  if (!sc) throw new Error(`unknown scenario "${scenario}"`);
  const options = readOptions(given ?? {});
  return {
    game: 'black-and-white',
    dataTitle: data.title,
    invented: data.invented,
    scenario: copyJson(sc),
    board: copyJson(data.board),
    kinds: copyJson(data.kinds),
    aiming: copyJson(data.aiming),
    markerCaps: copyJson(data.markers),
    budget: data.budget ?? 20,
    options,
    rng: seedRng(seed),
    phase: 'purchase',
    bought: { Thargaton: [], Vesania: [] },
    placed: { Thargaton: [], Vesania: [] },
    done: { Thargaton: false, Vesania: false },
    units: [],
    cardsShown: { Thargaton: [], Vesania: [] },
    features: copyJson(sc.features ?? {}),
    aimingMarkers: [],
    player: null,
    turn: 0,
    markers: markersOf(sc),
    markersLeft: 0,
    activated: [],
    unseen: [],
    artilleryUsed: false,
    act: null,
    pending: [],
    orders: newOrdersState(data.commanders),
    vp: { Thargaton: 0, Vesania: 0 },
    attackerTurns: 0,
    brokeThrough: [],
    result: null,
    log: [],
    logFrom: 0,
    undo: [],
  };
}
