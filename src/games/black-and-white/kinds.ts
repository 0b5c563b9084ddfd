/**
 * What the rules give each kind beyond its card's numbers (§4.2, §4.3, §10.4):
 * charge bonuses, ranges, double shots, special actions. Fixed by the rules,
 * so here and not in the data file.
 */
import type { KindId, UnitType } from './data-format.ts';

/** §10.4: kinds that may charge, and their Melee bonus. */
export const CHARGE_BONUS: Partial<Record<KindId, number>> = {
  'heavy-cavalry': 2,
  'iron-order': 1,
  'brotherhood-of-the-sword': 1,
};

/** §4.3 Order of Virgo, Guardians of Surculus: two shots when it has not moved (A3). */
export const DOUBLE_SHOT: ReadonlySet<KindId> = new Set(['order-of-virgo', 'guardians-of-surculus']);

/** Base allowance by type (§3); the "moved the maximum" limit of A12. */
export const MAX_MOVE: Readonly<Record<UnitType, number>> = { infantry: 2, cavalry: 3, artillery: 1 };

/** Ranges of a ranged attack (§16.5, A4, A9): exactly 2; Sharpshooters also 3 when stationary (A4 '3-only': 3 only); the Scorpion 1–3. */
export function rangedDistances(kind: KindId, moved: number, a4: '2-or-3' | '3-only' = '2-or-3'): number[] {
  if (kind === 'order-of-the-scorpion') return [1, 2, 3];
  if (kind === 'sharpshooters' && moved === 0) return a4 === '3-only' ? [3] : [2, 3];
  return [2];
}

/** May make a ranged attack while in an enemy ZOC (§16.5 Line Infantry, A9 the Scorpion). */
export const FIRES_IN_ZOC: ReadonlySet<KindId> = new Set(['line-infantry', 'order-of-the-scorpion']);
