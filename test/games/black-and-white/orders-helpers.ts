/** Positions with commanders (§18) for the order tests. */
import type { Army, CommanderId } from '../../../src/games/black-and-white/data-format.ts';
import type { Action } from '../../../src/games/black-and-white/flow.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { game, position, type Placing } from './fixture-helpers.ts';

/** A game in play on the open board with commanders on and these commanders chosen. */
export function withCommanders(units: Placing[], player: Army, commanders: Partial<Record<Army, CommanderId>>, options: Record<string, unknown> = {}): BWState {
  const s = position('open', units, player, { commanders: true, ...options });
  for (const [a, c] of Object.entries(commanders)) s.orders.commander[a as Army] = c;
  s.orders.shown = { Thargaton: true, Vesania: true };
  return s;
}

/** The order actions `army` may take now. */
export const ordersOf = (s: BWState, army: Army): Action[] => game.legalActions(s, army).filter((a) => a.type === 'order');
export const orderNames = (s: BWState, army: Army): string[] => ordersOf(s, army).map((a) => (a.type === 'order' ? a.order : ''));
