/**
 * The Plague event (card text, R-16; INTERPRETATIONS 20). AP0. The card's player
 * chooses one Enemy area containing a city (any of the seven, whatever its colour)
 * or passes ('end'). Contested areas are not Enemy areas (2.1). Every upright
 * block there loses one step; a block reduced to nothing is eliminated (6.8 via
 * eliminate(), which may end the game, 9.0).
 *
 * Order of the losses — decision: the owner is NOT asked. Every block loses
 * exactly one step, so the final strengths do not depend on the order; and the
 * side effects of the eliminations commute: where each block goes depends only
 * on the block, heir deaths only add to s.heirsToEnter / clear s.crown, and
 * instant victory (9.0) depends only on which heirs are left once all the losses
 * are taken — if the last heirs die, the game ends whichever dies first. So the
 * losses are applied at once in block-table order (RtT asks one click per block).
 *
 * The whole event is applied before 9.0 is checked: an elimination that leaves
 * a side heirless does not stop the other losses (eliminateDeferVictory), so
 * the final position and the log hold every loss, then "Game over". Each loss
 * is logged: publicly as "<side> loses a step in <area> (Plague)" (the number
 * of blocks in an area is public), with the block's name for its owner only;
 * an elimination names the block publicly (6.8, elimination.ts).
 *
 * Not undoable: it reveals eliminations (and eliminate() clears the undo stack).
 */
import { LAND_AND_EXILE, NUM_BLOCKS, type Side } from './data.ts';
import { addLog, ownerOf, type R3State } from './state.ts';
import { areaRef, blockRef, msg, sideRef } from './msg.ts';
import { clearUndo, type Action } from './flow.ts';
import { occupancy, statusOf } from './occupancy.ts';
import { areaName } from './movement.ts';
import { blockName, checkInstantVictory, eliminateDeferVictory } from './elimination.ts';
import { endActionPhase } from './action-phase.ts';

export interface PlagueFrame { s: 'plague_event'; side: Side; phase: true; [k: string]: unknown }

const CITY_AREAS = LAND_AND_EXILE.filter((a) => a.city !== null).map((a) => a.id);

/** Enemy areas containing a city, from `side`'s point of view. */
export function plagueTargets(s: R3State, side: Side): string[] {
  const o = occupancy(s);
  return CITY_AREAS.filter((a) => statusOf(o, a, side) === 'enemy');
}

export function plagueActions(s: R3State, _f: PlagueFrame, side: Side): Action[] {
  const out: Action[] = plagueTargets(s, side).map((area) => ({ type: 'plague', area }));
  out.push({ type: 'end' });
  return out;
}

export function plagueApply(s: R3State, _f: PlagueFrame, side: Side, a: Action): void {
  if (a.type === 'plague') {
    const area = a['area'] as string;
    clearUndo(s);
    addLog(s, `${side} strikes ${areaName(area)} with Plague: every block there loses a step.`, msg('log.plague', { side: sideRef(side), area: areaRef(area) }));
    const victims: number[] = [];
    for (let b = 0; b < NUM_BLOCKS; b++) if (s.loc[b] === area && !s.down[b]) victims.push(b);
    let heirDied = false;
    for (const b of victims) {
      const owner = ownerOf(s, b);
      addLog(s, `${owner} loses a step in ${areaName(area)} (Plague).`, msg('log.plagueStep', { side: sideRef(owner), area: areaRef(area) }),
        { side: owner, text: `${blockName(b)} loses a step in ${areaName(area)} (Plague).`, m: msg('log.plagueStepOwn', { block: blockRef(b), area: areaRef(area) }) });
      s.steps[b]!--;
      if (s.steps[b]! <= 0 && eliminateDeferVictory(s, b, { text: 'by Plague', m: msg('log.cause.plague') })) heirDied = true;
    }
    if (heirDied && checkInstantVictory(s)) return;
  } else if (a.type !== 'end') {
    throw new Error(`plague_event: unexpected action ${a.type}`);
  }
  endActionPhase(s, side);
}
