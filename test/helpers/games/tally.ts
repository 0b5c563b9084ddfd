// A test-only game module (no renderer, no data files, no message catalogues):
// the smallest thing that honours the GameModule contract, for tests of what the
// service and the HTTP layer do with a game type that is not Richard III.
import type { GameModule } from '../../../src/engine/types.ts';

export interface TallyState {
  options: Record<string, unknown>;
  moves: number[];
}

/** Two players take turns adding 1 or 2; the game is over at 5 moves. */
export type TallyModule = GameModule<TallyState, { type: string; n?: number }> & { applyCalls: number };

export function tallyModule(): TallyModule {
  const m: TallyModule = {
    applyCalls: 0,
    id: 'tally',
    title: 'Tally (test only)',
    roles: ['A', 'B'],
    scenarios: [
      {
        id: 'plain',
        name: 'Plain',
        description: 'Every option type.',
        options: [
          { name: 'fast', type: 'boolean', default: false, description: 'A flag.' },
          { name: 'rounds', type: 'integer', min: 1, max: 9, default: 5, description: 'A number.' },
          { name: 'colour', type: 'string', values: ['red', 'blue'], default: 'red', description: 'A choice.' },
        ],
      },
      { id: 'bare', name: 'Bare', description: 'No options.', options: [] },
    ],
    // Keeps the options it was given: the test reads them back from the view.
    setup: ({ options }) => ({ options: { ...(options ?? {}) }, moves: [] }),
    activeRoles: (s) => (s.moves.length >= 5 ? [] : [s.moves.length % 2 === 0 ? 'A' : 'B']),
    legalActions: (s, role): { type: string; n?: number }[] => (m.activeRoles(s).includes(role) ? [{ type: 'add', n: 1 }, { type: 'add', n: 2 }] : []),
    // Deliberately no check: whatever the service lets through is applied.
    apply: (s, _role, action) => {
      m.applyCalls++;
      return { options: s.options, moves: [...s.moves, typeof action.n === 'number' ? action.n : -1] };
    },
    view: (s) => s,
    logChange: (s) => ({ from: s.moves.length, entries: [] }),
    logLine: () => '',
    status: (s) => ({ over: s.moves.length >= 5, winner: null, reason: 'five moves' }),
  };
  return m;
}

