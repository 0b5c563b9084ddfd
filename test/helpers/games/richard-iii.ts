// Richard III's playout adapter (./index.ts PlayoutAdapter): undo-like actions
// are rare, end-like ones weigh `endWeight` (the rule of
// test/games/richard-iii/playout-helpers.ts, so the bench and the fuzz play
// the same games as before), and the fuzz checks the game's own invariants
// (playout-helpers.ts), plus crowded Political Turns (`--extra political=N`).
import { crowdedPoliticalTurn, describeFailure, playout, type PlayoutResult } from '../../games/richard-iii/playout-helpers.ts';
import type { FuzzGame, PlayoutAdapter } from './index.ts';

const UNDO = new Set(['undo', 'take_back']);
const END = new Set(['end', 'cancel', 'end_regroup']);

function fuzzGame(r: PlayoutResult): FuzzGame {
  return {
    decisions: r.decisions,
    failure: r.failure ? `(endWeight ${r.endWeight}) ${describeFailure(r)}` : null,
    winner: r.result?.winner ?? null,
    trail: r.trail,
  };
}

export const richardIIIPlayout: PlayoutAdapter = {
  weight: (a, endWeight) => {
    const type = (a as { type: string }).type;
    return UNDO.has(type) ? 0.1 : END.has(type) ? endWeight : 1;
  },
  maxDecisions: 100_000,
  // Half the games uniform, half with players that rarely end a phase early.
  fuzzEndWeights: [1, 0.05],
  fuzz: (_m, o) => fuzzGame(playout(o)),
  extraFuzz: {
    political: (seed, endWeight) =>
      fuzzGame(playout({ scenario: 'wars-of-the-roses', seed, start: crowdedPoliticalTurn(seed), startLabel: `crowdedPoliticalTurn('${seed}')`, endWeight })),
  },
};
