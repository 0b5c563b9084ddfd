/**
 * Eliminated blocks (6.8) and instant victory (9.0, 9.1).
 *
 * eliminate(s, b) sends a block to where 6.81–6.86 put it:
 *   - heirs: permanently dead; the side loses its King/Pretender block if it was
 *     that block (s.crown[side] = null until the next Supply Phase, 6.81/G-5) and
 *     one more minor heir is due to enter (6.82) — counted only while a minor is
 *     left to enter, so the counter never exceeds the minors available;
 *   - rose nobles and the Nevilles: permanently dead (6.83);
 *   - other nobles and church blocks: face-down into the pool of the version's
 *     owner (6.83); nobles never change sides by dying;
 *   - a defected Clarence/Exeter (the enemy-noble version): permanently dead, and
 *     it counts as the death of an heir of his original side (9.1, R-33);
 *   - city levies and Bombards: face-down into the owner's pool (6.84);
 *   - mercenaries: face-down in their home exile area; the Welsh face-down into
 *     the Lancaster pool (6.85, G-9);
 *   - the Rebel: face-down into the (current) Pretender's pool (6.86).
 * Both versions of a permanently dead two-version block are marked 'dead'.
 * An eliminated block has 0 steps; Campaign Reset (8.5) restores pool blocks.
 *
 * Then, if a side has no living heir left (9.0; defected heirs do not count,
 * R-30), the other side wins at once (INTERPRETATIONS 39: end immediately).
 * Callers must check `if (s.result) return;` afterwards. (eliminateDeferVictory
 * leaves that check to the caller, for events that eliminate several blocks.)
 *
 * Logging decision: an elimination is public and names the block, whatever the
 * cause (battle hit, Plague, supply or exile limits, execution). On the board the
 * block is laid down or removed in full view — dead blocks are kept beside the
 * map as a record (6.82) — and INTERPRETATIONS 53 lists "eliminated block names"
 * among public announcements. Because this reveals information, the undo stack
 * is cleared (common brief: clearUndo whenever hidden information is revealed).
 */
import { AREA, BLOCKS, BLOCK_INDEX, other, type Side } from './data.ts';
import { clearUndo, endGame } from './flow.ts';
import { hasLivingHeir, minorHeirs } from './heirs.ts';
import { mercenaryHome } from './homes.ts';
import { addLog, ownerOf, type R3State } from './state.ts';
import { areaRef, blockRef, msg, sideRef, sub } from './msg.ts';
import type { Message } from '../../engine/types.ts';

/**
 * A block's name for log lines: the printed name, except the Duke of York, whose
 * printed name "York" would read as the side (or the city, or the church).
 */
export function blockName(b: number): string {
  const d = BLOCKS[b]!;
  return d.id === 'duke-of-york' ? 'the Duke of York' : d.name;
}

/** Where an eliminated block goes. */
export type Destination = 'dead' | 'pool' | 'home-exile';

/** The original side of a defected Clarence/Exeter (the side he is an heir of), or null. */
export function defectedHeirOrigin(b: number): Side | null {
  const d = BLOCKS[b]!;
  if (d.type !== 'noble' || !d.enemyVersionId) return null;
  const heir = BLOCKS[BLOCK_INDEX[d.enemyVersionId]!]!;
  return heir.type === 'heir' ? (heir.side as Side) : null;
}

/** Where block b goes when eliminated (6.81–6.86), from blocks.json `eliminatedTo`. */
export function destinationOf(b: number): Destination {
  const to = BLOCKS[b]!.eliminatedTo;
  if (to === 'pool-face-down') return 'pool';
  if (to === 'home-exile-face-down') return 'home-exile';
  return 'dead'; // 'permanent', 'permanent-counts-as-<side>-heir-death'
}

/** Face-down pool / home blocks are eliminated for this campaign; the log text per destination. */
function where(dest: Destination, b: number, side: Side): string {
  if (dest === 'dead') return 'out of the game';
  if (dest === 'home-exile') return `face-down in ${AREA[mercenaryHome(b)!]!.name}`;
  return `face-down to the ${side} pool`;
}

/** Counts one heir death of `side`: a minor is due to enter at the next Supply Phase (6.82). */
function heirDied(s: R3State, side: Side): void {
  const minors = minorHeirs(s, side).length;
  if (s.heirsToEnter[side] < minors) s.heirsToEnter[side]++;
}

/**
 * Eliminates block b (6.8). May end the game (9.0): callers check s.result.
 * `cause` only feeds the log ("in battle", "by Plague", "by supply"...).
 */
/** Why a block is eliminated, for the log: English text and message. */
export interface Cause {
  text: string;
  m: Message;
}

export function eliminate(s: R3State, b: number, cause?: Cause): void {
  if (eliminateDeferVictory(s, b, cause)) checkInstantVictory(s);
}

/**
 * eliminate() without the instant-victory check, for an event that eliminates
 * several blocks at once (Plague): the caller applies the whole event, then
 * calls checkInstantVictory() once, so the final position and log are complete
 * when the game ends. Returns true if an heir of some side died (then 9.0 must
 * be checked).
 */
export function eliminateDeferVictory(s: R3State, b: number, cause?: Cause): boolean {
  const d = BLOCKS[b]!;
  const side = ownerOf(s, b);
  const dest = destinationOf(b);
  clearUndo(s);

  if (dest === 'dead') {
    s.loc[b] = 'dead';
    if (d.enemyVersionId) s.loc[BLOCK_INDEX[d.enemyVersionId]!] = 'dead';
  } else if (dest === 'home-exile') {
    s.loc[b] = mercenaryHome(b)!;
  } else {
    s.loc[b] = 'pool';
  }
  s.steps[b] = 0;
  s.down[b] = dest !== 'dead';
  if (s.prisoner === b) s.prisoner = null;

  const name = blockName(b);
  addLog(s, `${side}: ${name} is eliminated${cause ? ` ${cause.text}` : ''} (${where(dest, b, side)}).`, msg('log.eliminated', {
    side: sideRef(side), block: blockRef(b), cause: sub(cause ? cause.m : msg('log.cause.none')),
    where: sub(dest === 'dead' ? msg('log.where.dead') : dest === 'home-exile' ? msg('log.where.home', { area: areaRef(mercenaryHome(b)!) }) : msg('log.where.pool', { side: sideRef(side) })),
  }));

  // Heir deaths (6.81, 6.82) and defected Clarence/Exeter (9.1, R-33).
  let heirSide: Side | null = null;
  if (d.type === 'heir') {
    heirSide = d.side as Side;
    if (s.crown[heirSide] === b) {
      s.crown[heirSide] = null;
      addLog(s, heirSide === s.king ? `The King is dead (${name}).` : `The Pretender is dead (${name}).`,
        msg(heirSide === s.king ? 'log.kingDead' : 'log.pretenderDead', { block: blockRef(b) }));
    }
  } else {
    heirSide = defectedHeirOrigin(b);
  }
  if (heirSide === null) return false;
  heirDied(s, heirSide);
  return true;
}

/**
 * Instant victory (9.0/R-30): a side with no living heir (map, exile, minor;
 * heirs defected to the enemy excluded) loses at once. Returns true if the game ended.
 * If both sides were somehow left heirless at once, the game is drawn (winner null).
 */
export function checkInstantVictory(s: R3State): boolean {
  if (s.result) return true;
  const y = hasLivingHeir(s, 'York');
  const l = hasLivingHeir(s, 'Lancaster');
  if (y && l) return false;
  if (!y && !l) {
    endGame(s, null, 'Neither side has a living heir left (9.0).');
    addLog(s, `Game over: ${s.result!.reason}`, msg('log.gameOverNoHeirs'));
  } else {
    const loser: Side = y ? 'Lancaster' : 'York';
    endGame(s, other(loser), `${loser} has no living heir left (9.0).`);
    addLog(s, `Game over: ${s.result!.reason}`, msg('log.gameOverNoHeir', { side: sideRef(loser) }));
  }
  return true;
}
