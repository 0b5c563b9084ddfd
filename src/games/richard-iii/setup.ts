/**
 * Builds the initial state of a scenario (scenarios.json) and starts the first
 * campaign. All randomness comes from the seed.
 */
import { seedRng } from '../../engine/rng.ts';
import { BLOCK_INDEX, BLOCKS, SCENARIO } from './data.ts';
import type { R3State } from './state.ts';
import { startCampaign } from './cards.ts';
import { initialWhereabouts } from './whereabouts.ts';

export class UnknownScenarioError extends Error {
  constructor(id: string) {
    super(`unknown scenario "${id}"; expected one of ${Object.keys(SCENARIO).join(', ')}`);
    this.name = 'UnknownScenarioError';
  }
}

/** The position before anything is dealt: blocks placed, roles set. */
export function initialState(scenario: string, seed: string): R3State {
  const sc = SCENARIO[scenario];
  if (!sc) throw new UnknownScenarioError(scenario);
  const loc = BLOCKS.map((b) => {
    const where = sc.locations[b.id];
    if (where === undefined) throw new Error(`scenario ${scenario} does not place block ${b.id}`);
    return where === 'enemy' ? 'off' : where;
  });
  const down = BLOCKS.map(() => false);
  let prisoner: number | null = null;
  for (const id of sc.initialFlags?.prisoner ?? []) {
    prisoner = BLOCK_INDEX[id]!;
    down[prisoner] = true;
  }
  const crown = { York: null, Lancaster: null } as R3State['crown'];
  crown[sc.kingSide] = BLOCK_INDEX[sc.king]!;
  crown[sc.pretenderSide] = BLOCK_INDEX[sc.pretender]!;
  return {
    game: 'richard-iii',
    v: 1,
    scenario,
    rng: seedRng(seed),
    campaign: sc.startCampaign,
    endCampaign: sc.endCampaign,
    turn: 0,
    king: sc.kingSide,
    crown,
    prisoner,
    heirsToEnter: { ...sc.initialHeirDeathsPendingMinorEntry },
    loc,
    steps: BLOCKS.map((b) => b.maxSteps),
    down,
    acted: BLOCKS.map(() => 0),
    deck: [],
    hands: { York: [], Lancaster: [] },
    played: { York: null, Lancaster: null },
    revealed: false,
    mulligan: { York: false, Lancaster: false },
    p1: null,
    borderUse: {},
    attacks: {},
    treason: null,
    flow: [],
    log: [],
    logFrom: 0,
    undo: [],
    result: null,
  };
}

/**
 * A new game: the scenario's position with the first campaign's cards dealt.
 * The game's options are checked and applied by the module's setup (index.ts).
 */
export function setupState(scenario: string, seed: string): R3State {
  const s = initialState(scenario, seed);
  const sc = SCENARIO[scenario]!;
  s.log.push({ pub: `${sc.name} (${sc.year}): ${sc.kingSide} holds the throne.`, m: { key: 'log.setup', params: { scenario: { ref: 'scenario', id: sc.id }, year: String(sc.year), side: { ref: 'side', id: sc.kingSide } } } });
  startCampaign(s);
  // Every block is where the scenario's printed set-up puts it: each seat knows where the other's stand.
  s.whereabouts = initialWhereabouts(s);
  return s;
}
