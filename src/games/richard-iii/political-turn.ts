/**
 * The Political Turn (8.0), strictly in the order 8.1 → 8.5 (INTERPRETATIONS 42):
 *
 *   1. Levies disband (8.1) — automatic.
 *   2. Usurpation (8.2) — automatic; after the scenario's last campaign the game
 *      ends here and the King wins (9.0 ).
 *   3. Pretender goes home (8.3), then the Pretender's exile limits (7.2 / 8.5).
 *   4. King goes home (8.4), then the King's exile limits.
 *   5. Campaign Reset (8.5) — automatic; then the next campaign's deal (cards.ts).
 * "Pretender"/"King" in steps 3–4 are the roles after Usurpation.
 *
 * Named states (INTERPRETATIONS §L4):
 * - `pretender_goes_home` / `king_goes_home` (side = that role's side):
 *   {"type":"block","block":id} selects a block to send home: every block that
 *   must still go home (an heir, noble or church block on a land area that is not
 *   already in one of its homes) and, optionally, a block already at home that
 *   has another home to go to (8.3: owner's choice of home). {"type":"end"} only
 *   once no block must still go home. A block with one possible home goes there
 *   automatically, a block with none goes to the pool (nobles/church only: heirs
 *   always have a home, G-7) — but only when that move cannot change the options
 *   of another block nor be changed by another move (homes.ts pendingHomes):
 *   otherwise the order is the owner's choice (Calais's room, a Vacant area for
 *   a defected Clarence), and he sends that block like the others. Re-checked
 *   after every move.
 * - `pretender_goes_home_to` / `king_goes_home_to`: {"type":"area","area":id}
 *   for each home of the selected block (not the one it stands in), or
 *   {"type":"pool"} when it has none now; and {"type":"cancel"}.
 * - `exile_limits_pretender` / `exile_limits_king`: {"type":"block","block":id}
 *   sends one non-heir block counted against an over-full exile area of that
 *   side to the pool (7.2 "owner's choice" [G-7]); repeated until no exile area
 *   of that side holds more than its limit (or the excess is heirs only, who are
 *   never sent to the pool, G-7). When the choice is forced (as many candidates
 *   as excess) it is made automatically.
 * Go-home and exile-limit choices are undoable (INTERPRETATIONS 54); "end" is a
 * phase boundary and clears the undo stack.
 *
 * Fog of war: go-home moves and disbands name the block in owner-only text and
 * give only areas in public text (blocks stay hidden, 4.2); usurpation counts and
 * the new King are public.
 */
import { AREA, BLOCK_INDEX, BLOCKS, NUM_BLOCKS, other, type Side } from './data.ts';
import { clearUndo, endGame, type Action, type HandlerTable } from './flow.ts';
import { blockName } from './elimination.ts';
import { seniorHeir } from './heirs.ts';
import {
  EXILE_AREAS,
  exileCount,
  exileCounted,
  exileLimit,
  homeDestinations,
  mercenaryHome,
  pendingHomes,
} from './homes.ts';
import { addLog, areaStatus, blockId, ownerOf, top, type Frame, type R3State } from './state.ts';
import { areaRef, blockRef, list, msg, sideRef, sub } from './msg.ts';
import type { MessageParam } from '../../engine/types.ts';
import { startCampaign } from './cards.ts';

/* -------------------------------------------------------------- 8.1 disband */

const areaName = (a: string): string => AREA[a]?.name ?? a;

/** 8.1: levies, Bombards and the Welsh to their pool; other mercenaries home; the Rebel removed. */
export function disband(s: R3State): void {
  const count: Record<Side, number> = { York: 0, Lancaster: 0 };
  const own: Record<Side, string[]> = { York: [], Lancaster: [] };
  const ownMsgs: Record<Side, MessageParam[]> = { York: [], Lancaster: [] };
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const d = BLOCKS[b]!;
    const loc = s.loc[b]!;
    if (d.type === 'rebel') {
      if (loc !== 'off' && loc !== 'dead') {
        if (AREA[loc]) addLog(s, `The Rebel in ${areaName(loc)} disbands.`, msg('log.rebelDisbands', { area: areaRef(loc) }));
        s.loc[b] = 'off';
        s.down[b] = false;
      }
      continue;
    }
    if (AREA[loc] === undefined) continue; // pools, minors, off-map
    const side = d.side as Side;
    if (d.type === 'levy' || d.type === 'bombard' || (d.type === 'mercenary' && d.home?.kind === 'wales')) {
      s.loc[b] = 'pool';
      count[side]++;
      own[side].push(`${d.name} (${areaName(loc)})`);
      ownMsgs[side].push(sub(msg('log.disbandedToPool', { block: blockRef(b), from: areaRef(loc) })));
    } else if (d.type === 'mercenary') {
      const home = mercenaryHome(b)!;
      if (loc !== home) {
        s.loc[b] = home;
        count[side]++;
        own[side].push(`${d.name} (${areaName(loc)} → ${areaName(home)})`);
        ownMsgs[side].push(sub(msg('log.disbandedBlock', { block: blockRef(b), from: areaRef(loc), to: areaRef(home) })));
      }
    }
  }
  for (const side of ['York', 'Lancaster'] as const) {
    if (count[side] === 0) continue;
    addLog(s, `Levies disband (8.1): ${count[side]} ${side} block(s) return to the pool or their home exile.`,
      msg('log.disband', { n: count[side], side: sideRef(side) }), {
        side,
        text: `Disbanded: ${own[side].join(', ')}.`,
        m: msg('log.disbandOwn', { blocks: list(ownMsgs[side]) }),
      });
  }
}

/* ------------------------------------------------------------ 8.2 usurpation */

const MIDDLESEX = 'middlesex';
const ISLE_OF_MAN = 'isle-of-man';

/**
 * 8.2: a side's nobles, church blocks and heirs on land areas (a defected
 * Clarence/Exeter is a noble of the side holding him), not in exile, not on the
 * Isle of Man, not in pools or minors; +1 if the side alone occupies Middlesex
 * (London). The Kingmaker prisoner counts for Lancaster (he is an heir on the
 * map) but, being face-down, does not occupy Middlesex.
 */
export function usurpationCount(s: R3State, side: Side): number {
  let n = 0;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const t = BLOCKS[b]!.type;
    if (t !== 'heir' && t !== 'noble' && t !== 'church') continue;
    const loc = s.loc[b]!;
    if (AREA[loc]?.kind !== 'land' || loc === ISLE_OF_MAN) continue;
    if (ownerOf(s, b) === side) n++;
  }
  if (areaStatus(s, MIDDLESEX, side) === 'friendly') n++;
  return n;
}

/** 8.2: counts both sides and crowns the Pretender on a strict majority (ties favour the King). */
export function usurpation(s: R3State): void {
  const king = s.king;
  const pretender = other(king);
  const k = usurpationCount(s, king);
  const p = usurpationCount(s, pretender);
  addLog(s, `Usurpation (8.2): ${king} (King) ${k}, ${pretender} (Pretender) ${p}.`,
    msg('log.usurpationCount', { king: sideRef(king), k, pretender: sideRef(pretender), p }));
  if (p <= k) {
    addLog(s, `${king} keeps the throne.`, msg('log.keepsThrone', { side: sideRef(king) }));
    return;
  }
  s.king = pretender;
  // The Pretender's senior heir becomes King; normally that is already his crown block.
  const heir = s.crown[pretender] ?? seniorHeir(s, pretender);
  s.crown[pretender] = heir;
  const who = heir === null ? '' : ` ${blockName(heir)} is King`;
  addLog(s, `Usurpation! ${pretender} takes the throne:${who}; ${king} becomes the Pretender.`,
    msg('log.usurpation', { pretender: sideRef(pretender), king: sideRef(king), heir: heir === null ? '' : sub(msg('log.usurpationHeir', { block: blockRef(heir) })) }));
}

/* ----------------------------------------------------------- 8.3/8.4 go home */

type Role = 'pretender' | 'king';

interface HomeFrame extends Frame {
  side: Side;
  /** Block ids already sent home in this step (not offered again). */
  moved: string[];
}
interface HomeToFrame extends Frame {
  side: Side;
  block: string;
}

const roleOf = (f: Frame): Role => (f.s.startsWith('king') ? 'king' : 'pretender');

function sendHome(s: R3State, b: number, to: string | 'pool'): void {
  const side = ownerOf(s, b);
  const from = s.loc[b]!;
  const name = blockName(b);
  s.loc[b] = to;
  if (to === 'pool') {
    addLog(s, `${side}: a block in ${areaName(from)} has no home free and goes to the pool.`, msg('log.noHome', { side: sideRef(side), from: areaRef(from) }), {
      side,
      text: `${name} (${areaName(from)}) has no home free and goes to the pool.`,
      m: msg('log.noHomeOwn', { block: blockRef(b), from: areaRef(from) }),
    });
  } else if (to !== from) {
    addLog(s, `${side}: a block goes home from ${areaName(from)} to ${areaName(to)}.`, msg('log.goesHome', { side: sideRef(side), from: areaRef(from), to: areaRef(to) }), {
      side,
      text: `${name} goes home from ${areaName(from)} to ${areaName(to)}.`,
      m: msg('log.goesHomeOwn', { block: blockRef(b), from: areaRef(from), to: areaRef(to) }),
    });
  }
}

/**
 * Makes the forced moves that cannot change any other block's options, nor be
 * changed by them (pendingHomes), one at a time: each move changes the position.
 */
function autoHome(s: R3State, f: HomeFrame): void {
  for (let p = pendingHomes(s, f.side, f.moved); p.auto; p = pendingHomes(s, f.side, f.moved)) {
    sendHome(s, p.auto.block, p.auto.to);
    f.moved.push(BLOCKS[p.auto.block]!.id);
  }
}

function startGoHome(s: R3State, role: Role): void {
  const side = role === 'king' ? s.king : other(s.king);
  clearUndo(s);
  addLog(s, role === 'king' ? `The King (${side}) goes home (8.4).` : `The Pretender (${side}) goes home (8.3).`,
    msg(role === 'king' ? 'log.kingHome' : 'log.pretenderHome', { side: sideRef(side) }));
  const f: HomeFrame = { s: `${role}_goes_home`, side, moved: [] };
  s.flow.push(f);
  continueGoHome(s, f);
}

/** After a move: settle forced moves; if nothing is left to decide, close the step. */
function continueGoHome(s: R3State, f: HomeFrame): void {
  autoHome(s, f);
  const { must, may } = pendingHomes(s, f.side, f.moved);
  if (must.length === 0 && may.length === 0) endGoHome(s, f);
}

function endGoHome(s: R3State, f: HomeFrame): void {
  const role = roleOf(f);
  s.flow.pop();
  startExileLimits(s, role);
}

/* --------------------------------------------------- exile limits (7.2, 8.5) */

interface ExileFrame extends Frame {
  side: Side;
}

/** Non-heir blocks that may be sent to the pool from over-full exile areas of `side` [G-7]. */
function exileCandidates(s: R3State, side: Side): number[] {
  const out: number[] = [];
  for (const area of EXILE_AREAS[side]) {
    const excess = exileCount(s, area) - exileLimit(area);
    if (excess <= 0) continue;
    const cand = exileCounted(s, area).filter((b) => BLOCKS[b]!.type !== 'heir');
    out.push(...cand);
  }
  return out;
}

function toPoolForExile(s: R3State, b: number): void {
  const side = ownerOf(s, b);
  const from = s.loc[b]!;
  s.loc[b] = 'pool';
  s.down[b] = false;
  addLog(s, `${side}: a block in ${areaName(from)} exceeds the exile limit and goes to the pool (7.2).`, msg('log.exileLimit', { side: sideRef(side), from: areaRef(from) }), {
    side,
    text: `${blockName(b)} (${areaName(from)}) goes to the pool: exile limit (7.2).`,
    m: msg('log.exileLimitOwn', { block: blockRef(b), from: areaRef(from) }),
  });
}

/** Sends forced excess to the pool; returns true while a real choice is left. */
function autoExile(s: R3State, side: Side): boolean {
  let choice = false;
  for (const area of EXILE_AREAS[side]) {
    const excess = exileCount(s, area) - exileLimit(area);
    if (excess <= 0) continue;
    const cand = exileCounted(s, area).filter((b) => BLOCKS[b]!.type !== 'heir');
    if (cand.length === 0) continue; // heirs only: they stay (G-7)
    if (cand.length <= excess) for (const b of cand) toPoolForExile(s, b);
    else choice = true;
  }
  return choice;
}

function startExileLimits(s: R3State, role: Role): void {
  const side = role === 'king' ? s.king : other(s.king);
  clearUndo(s);
  if (autoExile(s, side)) {
    s.flow.push({ s: `exile_limits_${role}`, side } as ExileFrame);
    return;
  }
  afterExileLimits(s, role);
}

function afterExileLimits(s: R3State, role: Role): void {
  if (role === 'pretender') startGoHome(s, 'king');
  else campaignReset(s);
}

/* ---------------------------------------------------------- 8.5 campaign reset */

/**
 * 8.5: exile excess has gone to the pools in the exile-limit steps (heirs stay,
 * G-7); face-down blocks in pools and home exiles stand up; the Rebel goes to the
 * Pretender's pool; every block on the map and in the pools is at full strength;
 * the next campaign is dealt (cards.ts).
 */
export function campaignReset(s: R3State): void {
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const d = BLOCKS[b]!;
    const loc = s.loc[b]!;
    if (d.type === 'rebel' && loc !== 'dead') {
      s.loc[b] = 'pool';
      s.down[b] = false;
      s.steps[b] = d.maxSteps;
      continue;
    }
    const area = AREA[loc];
    if (loc === 'pool' || area?.kind === 'exile') s.down[b] = false;
    if (loc === 'pool' || area !== undefined) s.steps[b] = d.maxSteps;
  }
  s.campaign++;
  clearUndo(s);
  addLog(s, `Campaign Reset (8.5): all blocks stand up at full strength; the Rebel joins the ${other(s.king)} pool.`,
    msg('log.campaignReset', { side: sideRef(other(s.king)) }));
  startCampaign(s);
}

/* ----------------------------------------------------------- the whole turn */

/** Entered from the Supply Phase after Game Turn 7 (supply.ts). */
export function startPoliticalTurn(s: R3State): void {
  clearUndo(s);
  addLog(s, `Political Turn after campaign ${s.campaign}.`, msg('log.politicalTurn', { campaign: s.campaign }));
  disband(s);
  usurpation(s);
  if (s.campaign >= s.endCampaign) {
    endGame(s, s.king, `${s.king} holds the throne after the Usurpation step of the last campaign (9.0).`);
    addLog(s, `Game over: ${s.king} wins.`, msg('log.gameOverKing', { side: sideRef(s.king) }));
    return;
  }
  startGoHome(s, 'pretender');
}

/* ----------------------------------------------------------------- handlers */

const END: Action = { type: 'end' };
const CANCEL: Action = { type: 'cancel' };
const POOL: Action = { type: 'pool' };

const goHome = {
  actions(s: R3State, f: Frame, side: Side): Action[] {
    const hf = f as HomeFrame;
    if (side !== hf.side) return [];
    const { must, may } = pendingHomes(s, side, hf.moved);
    const out: Action[] = [];
    for (const b of must) out.push({ type: 'block', block: blockId(b) });
    for (const b of may) out.push({ type: 'block', block: blockId(b) });
    if (must.length === 0) out.push(END);
    return out;
  },
  apply(s: R3State, f: Frame, _side: Side, a: Action): void {
    const hf = f as HomeFrame;
    if (a.type === 'end') {
      endGoHome(s, hf);
      return;
    }
    const to: HomeToFrame = { s: `${roleOf(f)}_goes_home_to`, side: hf.side, block: a.block as string };
    s.flow.push(to);
  },
  undoable: (_s: R3State, _f: Frame, a: Action): boolean => a.type !== 'end',
  prompt(s: R3State, f: Frame, seat: Side | null): unknown {
    const hf = f as HomeFrame;
    const king = roleOf(f) === 'king';
    if (seat !== hf.side) {
      return { text: `${hf.side} (${king ? 'King' : 'Pretender'}) sends its blocks home (${king ? '8.4' : '8.3'}).` };
    }
    const { must, may } = pendingHomes(s, hf.side, hf.moved);
    const text = king
      ? 'The King goes home (8.4): the King and Royal heirs to an own shield or any crown area, nobles and church to a free shield or cathedral area (else the pool); blocks in exile stay.'
      : 'The Pretender goes home (8.3): heirs on the map to your exile areas, nobles and church to a free shield or cathedral area (else the pool); blocks in exile stay.';
    return {
      text: must.length > 0 ? `${text} Choose a block to send home.` : `${text} You may move a block to another home, or end.`,
      mustGoHome: must.map(blockId),
      mayMove: may.map(blockId),
    };
  },
};

const goHomeTo = {
  actions(s: R3State, f: Frame, side: Side): Action[] {
    const tf = f as HomeToFrame;
    if (side !== tf.side) return [];
    const b = BLOCK_INDEX[tf.block]!;
    const here = s.loc[b]!;
    const out: Action[] = [];
    for (const a of homeDestinations(s, b)) if (a !== here) out.push({ type: 'area', area: a });
    // No home now (only a block that must go, left to the owner because its options may still change).
    if (out.length === 0) out.push(POOL);
    out.push(CANCEL);
    return out;
  },
  apply(s: R3State, f: Frame, _side: Side, a: Action): void {
    const tf = f as HomeToFrame;
    s.flow.pop();
    if (a.type === 'cancel') return;
    const hf = top(s) as HomeFrame;
    const b = BLOCK_INDEX[tf.block]!;
    sendHome(s, b, a.type === 'pool' ? 'pool' : (a.area as string));
    hf.moved.push(tf.block);
    continueGoHome(s, hf);
  },
  undoable: (): boolean => true,
  prompt(_s: R3State, f: Frame, seat: Side | null): unknown {
    const tf = f as HomeToFrame;
    if (seat !== tf.side) return { text: `${tf.side} sends a block home.` };
    return { text: `Choose where ${blockName(BLOCK_INDEX[tf.block]!)} goes home, or cancel.`, block: tf.block };
  },
};

const exileLimits = {
  actions(s: R3State, f: Frame, side: Side): Action[] {
    if (side !== f.side) return [];
    return exileCandidates(s, side).map((b) => ({ type: 'block', block: blockId(b) }));
  },
  apply(s: R3State, f: Frame, side: Side, a: Action): void {
    toPoolForExile(s, BLOCK_INDEX[a.block as string]!);
    if (autoExile(s, side)) return;
    const role: Role = f.s.endsWith('king') ? 'king' : 'pretender';
    s.flow.pop();
    clearUndo(s);
    afterExileLimits(s, role);
  },
  undoable: (): boolean => true,
  prompt(s: R3State, f: Frame, seat: Side | null): unknown {
    const side = f.side as Side;
    const areas = EXILE_AREAS[side].filter((a) => exileCount(s, a) > exileLimit(a));
    if (seat !== side) return { text: `${side} sends exile excess to the pool (7.2).`, areas };
    return {
      text: 'Too many blocks in exile (7.2): choose a block to send to your pool (heirs stay).',
      areas,
      blocks: exileCandidates(s, side).map(blockId),
    };
  },
};

export const handlers: HandlerTable = {
  pretender_goes_home: goHome,
  king_goes_home: goHome,
  pretender_goes_home_to: goHomeTo,
  king_goes_home_to: goHomeTo,
  exile_limits_pretender: exileLimits,
  exile_limits_king: exileLimits,
};
