/**
 * Defection (6.9, 9.1): a block that fails its loyalty is replaced by its other
 * version at the same strength in the same place; the old version goes 'off'.
 *
 * Heir status follows from which version is in play (heirs.ts): Clarence/Exeter
 * defecting become nobles of the new side and heirs of neither;
 * defecting back puts the heir version in play again, so he regains heir status
 * (9.1). No minor heir enters for a defection: eliminate() counts the heir
 * death only when the defector is killed or executed.
 *
 * The caller (battle / Treason card) logs the defection and puts the new block
 * in the roller's Reserves (the battle bookkeeping in s.attacks is its own).
 */
import { BLOCKS, BLOCK_INDEX, type Side } from './data.ts';
import { checkInstantVictory } from './elimination.ts';
import type { R3State } from './state.ts';

/** The index of b's other version, or null for a block that cannot change sides. */
export function otherVersion(b: number): number | null {
  const id = BLOCKS[b]!.enemyVersionId;
  return id === null ? null : BLOCK_INDEX[id]!;
}

/**
 * Replaces b by its other version (same loc, steps, face-down flag and acted
 * mark); returns the new block index. Throws for a block without another version.
 *
 * if the defector was the last living heir of his side (possible only
 * while that side's crown is vacant, 9.1 forbids the King/Pretender to defect),
 * that side has no heir left and loses at once — callers check s.result.
 */
export function defect(s: R3State, b: number): number {
  const nb = otherVersion(b);
  if (nb === null) throw new Error(`block ${BLOCKS[b]!.id} cannot change sides`);
  s.loc[nb] = s.loc[b]!;
  s.steps[nb] = s.steps[b]!;
  s.down[nb] = s.down[b]!;
  s.acted[nb] = s.acted[b]!;
  s.loc[b] = 'off';
  s.steps[b] = BLOCKS[b]!.maxSteps; // as setup leaves the unused version

  s.down[b] = false;
  s.acted[b] = 0;
  const d = BLOCKS[b]!;
  if (d.type === 'heir') {
    const side = d.side as Side;
    if (s.crown[side] === b) s.crown[side] = null; // never by the rules (9.1); keeps crown consistent
    checkInstantVictory(s);
  }
  return nb;
}
