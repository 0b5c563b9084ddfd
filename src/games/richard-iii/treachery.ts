/**
 * Treason rolls (6.9, 6.91, 9.1, the Treason card [R-17]).
 *
 * Sources, each once per battle: the King or Pretender block of a side
 * (s.crown; key `crown-<side>`), Warwick of either version (key `warwick`: a
 * Warwick who changed sides in this battle cannot roll again, INTERPRETATIONS 29),
 * and the Treason card (one roll per card, before round 1 of one battle of the
 * Game Turn; King/Pretender/Warwick need not be present).
 *
 * Target: an enemy block in the battle proper (not a Reserve, not a defector
 * waiting for the next round) with a loyalty number — rose nobles, heirs other
 * than Clarence/Exeter, levies, Bombards, mercenaries and the Rebel have none —
 * that is not the enemy King/Pretender (9.1: Clarence/Exeter cannot defect while
 * they are), has not changed sides in this battle (no winning back), and has
 * received fewer than three rolls in this battle [R-26].
 * Warwick may not roll on Northumberland or Westmoreland; Kent and Salisbury
 * have loyalty 1 against Warwick, 2 otherwise [R-27]; the card uses the printed
 * numbers.
 *
 * Dice = loyalty; every die even → the block defects (defection.ts): its other
 * version, same strength, goes to the roller's Reserves and sits out the rest of
 * the round (G-3), joining at the start of the next.
 */
import { BLOCKS, BLOCK_INDEX, other, type Side } from './data.ts';
import { defect } from './defection.ts';
import { addLog, ownerOf, type R3State } from './state.ts';
import { blockRef, msg, sideRef, withStrength } from './msg.ts';
import { activeBlocks, drop, label, nameOf, type BattleFrame } from './battle-state.ts';
import { rollDice } from './hits.ts';

export type TreasonSource = 'card' | 'crown' | 'warwick';

const ix = (id: string): number => BLOCK_INDEX[id]!;
export const WARWICKS: readonly number[] = [ix('warwick-y'), ix('warwick-l')];
const WARWICK_IMMUNE: readonly number[] = ['northumberland-y', 'northumberland-l', 'westmoreland-y', 'westmoreland-l'].map(ix);
const NEVILLE_KIN: readonly number[] = ['kent-y', 'kent-l', 'salisbury-y', 'salisbury-l'].map(ix);

/** Dice rolled against b by this source, or null when b cannot be targeted by it. */
export function loyaltyAgainst(b: number, source: TreasonSource): number | null {
  const l = BLOCKS[b]!.loyalty;
  if (typeof l !== 'number') return null;
  if (source === 'warwick') {
    if (WARWICK_IMMUNE.includes(b)) return null;
    if (NEVILLE_KIN.includes(b)) return 1;
  }
  return l;
}

/** Legal targets for a roll by `side` from `source` in this battle. */
export function treasonTargets(s: R3State, bf: BattleFrame, side: Side, source: TreasonSource): number[] {
  const enemy = other(side);
  return activeBlocks(s, bf, enemy).filter(
    (b) =>
      loyaltyAgainst(b, source) !== null &&
      s.crown[enemy] !== b &&
      !bf.turned.includes(b) &&
      (bf.rolls[BLOCKS[b]!.id] ?? 0) < 3,
  );
}

/** The roll b may make in its battle turn ('crown' or 'warwick'), or null. */
export function rollerSource(s: R3State, bf: BattleFrame, b: number): 'crown' | 'warwick' | null {
  const side = ownerOf(s, b);
  if (s.crown[side] === b && !bf.used.includes(`crown-${side}`)) return 'crown';
  if (WARWICKS.includes(b) && !bf.used.includes('warwick')) return 'warwick';
  return null;
}

/**
 * Makes the roll and applies a defection. `who` names the roller in the log
 * ("Henry VI (4)"; unused for the card). Callers check s.result afterwards.
 */
export function treasonRoll(s: R3State, bf: BattleFrame, side: Side, target: number, source: TreasonSource, who: string, roller: number | null): void {
  const n = loyaltyAgainst(target, source)!;
  const id = BLOCKS[target]!.id;
  bf.rolls[id] = (bf.rolls[id] ?? 0) + 1;
  if (source === 'crown') bf.used.push(`crown-${side}`);
  if (source === 'warwick') bf.used.push('warwick');
  const dice = rollDice(s, n);
  const ok = dice.every((d) => d % 2 === 0);
  const name = nameOf(target);
  const rollerText = source === 'card' ? `${side} uses the Treason card:` : `${side}: ${who} makes a`;
  addLog(
    s,
    `${rollerText} treason roll on ${label(s, target)}: ${dice.join(' ')} — ${ok ? `${name} defects to ${side}` : `${name} stays loyal`}.`,
    msg(source === 'card' || roller === null ? 'log.treasonCard' : 'log.treasonRoll', {
      side: sideRef(side), ...(roller === null ? {} : { roller: withStrength(s, roller) }), target: withStrength(s, target),
      name: blockRef(target), dice: dice.join(' '), ok: ok ? 'yes' : 'no',
    }),
  );
  if (!ok) return;
  const nb = defect(s, target);
  if (!bf.members.includes(nb)) bf.members.push(nb);
  const i = bf.revealed.indexOf(target);
  if (i >= 0) bf.revealed[i] = nb;
  else bf.revealed.push(nb);
  drop(bf.acted, target);
  drop(bf.pirates, target); // the defector did not attack by sea for his new side
  drop(bf.reserves, target);
  bf.reserves.push(nb);
  bf.defectedNow.push(nb);
  bf.turned.push(nb);
  bf.fromReserve.push(nb);
}
