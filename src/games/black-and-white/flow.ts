/**
 * The flow of a game as a table of steps: which step a state is in, and for
 * each step who acts, what they may do and what doing it changes. index.ts
 * dispatches over the table; the phase modules hold the handlers.
 */
import type { Army } from './data-format.ts';
import type { BWState } from './state.ts';

export type Ammo = 'normal' | 'incendiary' | 'smoke';
export type SpecialAction = 'group-move' | 'trench' | 'wire' | 'remove-wire';

/** Every action is a small JSON object; legalActions lists them all. */
export type Action =
  // Secret purchase (§7, A55)
  | { type: 'buy'; kind: string }
  | { type: 'return'; kind: string }
  // Hidden deployment (A56): `index` is the bought unit's place in the seat's own purchase list
  | { type: 'place'; index: number; hex: string }
  | { type: 'lift'; index: number }
  | { type: 'done' }
  // A turn (§8, §9)
  | { type: 'activate'; units: string[] }
  | { type: 'charge'; unit: string; to: string }
  | { type: 'special'; unit: string; what: SpecialAction }
  | { type: 'end-turn' }
  // Within an activation
  | { type: 'move'; to: string }
  | { type: 'move-unit'; unit: string; to: string }
  // A14 'leave-on-the-way': a detachment leaves one of its units where it stands; the others move on
  | { type: 'leave'; unit: string }
  | { type: 'melee'; unit: string; target: string }
  | { type: 'fire'; unit: string; target: string }
  // `target`: only with the rule option a29ArtilleryStack 'chosen-unit' (A29), the one enemy unit of the hex it may hit
  | { type: 'bombard'; unit: string; hex: string; ammo: Ammo; target?: string }
  | { type: 'end-activation' }
  // The other seat's decisions (§16.2–§16.4, §12.3)
  | { type: 'retreat'; to: string }
  | { type: 'stand' }
  // `target`: only with the rule option a28CounterTarget 'any-unit' (A28), a unit of the attacking hex
  | { type: 'counterattack'; target?: string }
  | { type: 'no-counterattack' }
  | { type: 'stay' }
  // Commanders (§7.7, §18): the choice behind the screen, an order, going on without one
  | { type: 'commander'; commander: string }
  | { type: 'order'; order: string; unit?: string; target?: string; to?: string; what?: SpecialAction }
  | { type: 'go-on' }
  | { type: 'undo' };

export type Step = 'purchase' | 'deploy' | 'turn' | 'activation' | 'order' | 'decision' | 'over';

export interface StepHandler {
  /** The armies that may act in this step. */
  actors(s: BWState): Army[];
  /** The legal actions of one of them (undo is added by index.ts). */
  actions(s: BWState, army: Army): Action[];
  /** Applies a legal action to a fresh copy of the state. */
  apply(s: BWState, army: Army, a: Action): void;
  /** Why an action that is not legal is refused, where the step can say more than "not legal" (optional). */
  refusal?(s: BWState, army: Army, a: Action): string | null;
  /** Whether the action may be undone (no roll, no reveal). */
  undoable?(s: BWState, a: Action): boolean;
}

export type HandlerTable = Record<Step, StepHandler>;

export function stepOf(s: BWState): Step {
  if (s.result || s.phase === 'over') return 'over';
  if (s.phase === 'purchase') return 'purchase';
  if (s.phase === 'deploy') return 'deploy';
  // An order window (§18) comes before the decisions waiting behind it.
  if (s.orders.window) return 'order';
  if (s.pending.length > 0) return 'decision';
  return s.act ? 'activation' : 'turn';
}
