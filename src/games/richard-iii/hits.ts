/**
 * Firing and hits (6.4) and the heir's Charge (6.5).
 *
 * A firing block rolls one die per step; each die ≤ its firepower is a hit.
 * Hits go one by one to the enemy block with the highest current strength among
 * the blocks in the battle proper (never Reserves); when several share the
 * highest strength their owner chooses (`battle_hits` prompt, one hit per
 * choice); hits beyond the last eligible block are lost. When the hits are
 * enough to eliminate every eligible block the order cannot matter and nobody
 * is asked.
 *
 * Decision: a side's Reserves that deploy early because its last active block
 * fell (6.3) enter after the fire that caused it has been resolved, so its
 * excess hits are lost rather than passed to them (the rule lets them be hit by
 * enemy blocks "that have not yet taken their round-1 turn").
 *
 * Every roll is logged publicly with the block's name (blocks in a battle are
 * revealed, 6.1) and the rolling side.
 */
import { rollD6 } from '../../engine/rng.ts';
import { AREA, BLOCKS, other, type Side } from './data.ts';
import { eliminate } from './elimination.ts';
import type { Action } from './flow.ts';
import { addLog, ownerOf, type Frame, type R3State } from './state.ts';
import { areaRef, blockRef, msg, sideRef, sub, withStrength } from './msg.ts';
import type { Message } from '../../engine/types.ts';
import { activeBlocks, drop, label, letterOf, nameOf, type BattleFrame } from './battle-state.ts';
import { firepowerOf } from './defence.ts';

const areaName = (a: string): string => AREA[a]?.name ?? a;

export interface HitsFrame extends Frame {
  s: 'battle_hits';
  /** Owner of the blocks being hit: he chooses among the tied strongest. */
  side: Side;
  /** Hits still to apply. */
  hits: number;
}

export function rollDice(s: R3State, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(rollD6(s.rng));
  return out;
}

const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;

/**
 * Rolls for b at firepower fp; logs "York: Warwick (4) fires at B3: 1 2 5 6 — 2 hits".
 * `what` is the verb phrase ("fires", "charges Stanley (3)", "fires back at March (2)").
 */
export function rollFor(s: R3State, bf: BattleFrame, b: number, fp: number, what: string, whatMsg: Message): number {
  const dice = rollDice(s, s.steps[b]!);
  const hits = dice.filter((d) => d <= fp).length;
  addLog(
    s,
    `${ownerOf(s, b)}: ${label(s, b)} ${what} at ${letterOf(bf, b)}${fp}: ${dice.join(' ')} — ${plural(hits, 'hit')}.`,
    msg('log.roll', {
      side: sideRef(ownerOf(s, b)), block: withStrength(s, b), what: sub(whatMsg), rating: `${letterOf(bf, b)}${fp}`, dice: dice.join(' '), hits,
    }),
  );
  return hits;
}

/** One hit on b; eliminates it at 0 steps (6.8). Callers check s.result. */
export function hitBlock(s: R3State, bf: BattleFrame, b: number): void {
  s.steps[b] = s.steps[b]! - 1;
  if (s.steps[b]! > 0) {
    addLog(s, `${ownerOf(s, b)}: ${nameOf(b)} takes a hit (strength ${s.steps[b]}).`, msg('log.hit', { side: sideRef(ownerOf(s, b)), block: blockRef(b), steps: s.steps[b]! }));
    return;
  }
  drop(bf.revealed, b);
  drop(bf.reserves, b);
  eliminate(s, b, { text: `in the battle of ${areaName(bf.area)}`, m: msg('log.cause.battle', { area: areaRef(bf.area) }) });
}

/** The tied strongest active blocks of `side` (6.4), or [] when none is left. */
export function strongest(s: R3State, bf: BattleFrame, side: Side): number[] {
  const cands = activeBlocks(s, bf, side);
  let max = 0;
  for (const b of cands) if (s.steps[b]! > max) max = s.steps[b]!;
  return cands.filter((b) => s.steps[b] === max);
}

/**
 * Applies n hits to `side`'s blocks in the battle (6.4). Returns true when it
 * pushed a `battle_hits` prompt (the owner must choose among tied blocks); the
 * prompt's handler carries on. Stops at once if the game ended (s.result).
 */
export function assignHits(s: R3State, bf: BattleFrame, side: Side, n: number): boolean {
  while (n > 0) {
    const cands = activeBlocks(s, bf, side);
    if (cands.length === 0) return false; // excess hits are lost
    let total = 0;
    for (const b of cands) total += s.steps[b]!;
    const tied = strongest(s, bf, side);
    if (tied.length > 1 && n < total) {
      const f: HitsFrame = { s: 'battle_hits', side, hits: n };
      s.flow.push(f);
      return true;
    }
    hitBlock(s, bf, tied[0]!);
    if (s.result) return false;
    n--;
  }
  return false;
}

/** Legal actions of the `battle_hits` prompt: one per tied strongest block. */
export function hitsActions(s: R3State, bf: BattleFrame, f: HitsFrame): Action[] {
  return strongest(s, bf, f.side).map((b) => ({ type: 'hit', block: BLOCKS[b]!.id }));
}

/** Fire (6.4): returns true if a hit prompt is pending. */
export function fire(s: R3State, bf: BattleFrame, b: number): boolean {
  const hits = rollFor(s, bf, b, firepowerOf(s, bf, b), 'fires', msg('log.verb.fires'));
  const enemy = other(ownerOf(s, b));
  return assignHits(s, bf, enemy, hits);
}

/**
 * Heir Charge (6.5, G-4): the heir fires at the named target alone (excess
 * lost); if the target survives it fires back once at the heir alone (current
 * strength in dice, its own firepower with any defensive bonus; excess lost).
 * The target keeps its own battle turn. Callers check s.result.
 */
export function charge(s: R3State, bf: BattleFrame, heir: number, target: number): void {
  const hits = rollFor(s, bf, heir, firepowerOf(s, bf, heir), `charges ${label(s, target)}`, msg('log.verb.charges', { target: withStrength(s, target) }));
  for (let i = 0; i < hits && s.loc[target] === bf.area && s.steps[target]! > 0; i++) {
    hitBlock(s, bf, target);
    if (s.result) return;
  }
  if (s.loc[target] !== bf.area || s.down[target]) return;
  const back = rollFor(s, bf, target, firepowerOf(s, bf, target), `fires back at ${label(s, heir)}`, msg('log.verb.firesBack', { target: withStrength(s, heir) }));
  for (let i = 0; i < back && s.loc[heir] === bf.area && s.steps[heir]! > 0; i++) {
    hitBlock(s, bf, heir);
    if (s.result) return;
  }
}
