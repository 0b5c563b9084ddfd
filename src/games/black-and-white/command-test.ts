/**
 * The command test (§14): 2d6 ≤ Discipline, with the Thargaton infantry
 * army bonus (A1); a detachment tests with its lowest Discipline (A18, A19).
 */
import { rollD6 } from '../../engine/rng.ts';
import type { MessageParam } from '../../engine/types.ts';
import { logLine } from './msg.ts';
import { orderDiscipline } from './orders.ts';
import { kindCard, type BWState, type Unit } from './state.ts';

/** Friendly infantry in the unit's hex that its army bonus counts (A1: itself included, or only the others). */
export function infantryBonus(s: BWState, u: Unit): number {
  if (u.type !== 'infantry' || u.hex === null) return 0;
  const n = s.units.filter((x) => x.hex === u.hex && x.army === u.army && x.type === 'infantry').length;
  return s.options.a1StackBonus === 'self' ? n : n - 1;
}

export function discipline(s: BWState, u: Unit): number {
  return kindCard(s, u.kind).discipline + (u.army === 'Thargaton' ? infantryBonus(s, u) : 0) + orderDiscipline(s, u);
}

/** Rolls a command test for the unit (or the units, with the lowest Discipline) and logs it. */
export function commandTest(s: BWState, units: Unit[], why: string, shown?: MessageParam): boolean {
  const target = Math.min(...units.map((u) => discipline(s, u)));
  const a = rollD6(s.rng);
  const b = rollD6(s.rng);
  const pass = a + b <= target;
  // `shown` names a hidden shooter by its hex (§16.8.3).
  logLine(s, pass ? 'log.testPassed' : 'log.testFailed', { units: shown ?? { list: units.map((u) => u.id) }, a, b, why: { ref: 'why', id: why } });
  return pass;
}
