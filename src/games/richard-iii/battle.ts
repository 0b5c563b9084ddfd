/**
 * Battle Phase (6.0): Player 1 picks each Contested area in turn; each battle is
 * fought in up to four rounds; the victor regroups; then the next battle, and
 * the Supply Phase once no Contested area remains.
 *
 * Named states (INTERPRETATIONS §L2) and their actions:
 * - `battle_phase` (Player 1): {"type":"battle","area":id} for each Contested
 *   area. Decision: when exactly one Contested area remains it is fought without
 *   asking (a single-option choice, INTERPRETATIONS L "resolved automatically").
 * - `treason_event` (holder of the Treason card, before round 1, only if there is
 *   a legal target): {"type":"treason","target":id} or {"type":"pass"} (keep the
 *   roll for a later battle this Game Turn).
 * - `battle` (owner of the current initiative group): one action names the block
 *   and what it does in its battle turn:
 *     {"type":"fire","block":id} · {"type":"pass","block":id} ·
 *     {"type":"retreat","block":id,"to":area} (rounds 2–4) ·
 *     {"type":"charge","block":id,"target":id} (the senior heir present, 6.5) ·
 *     {"type":"treachery","block":id,"target":id} (King/Pretender/Warwick, 6.9).
 *   In round 4 an attacking block may only retreat (INTERPRETATIONS 24); one that
 *   cannot is eliminated as its group comes up.
 * - `battle_hits` (owner of the hit blocks): {"type":"hit","block":id} among the
 *   tied strongest (6.4).
 * - `regroup` (victor): {"type":"regroup","block":id,"to":area}, {"type":"end_regroup"}.
 *
 * Order within a round (6.2): initiative A, B, C, D; within a letter defenders
 * before attackers; within a letter and side the owner picks [G-1]. This is
 * recomputed after every action, so role swaps, eliminations and early
 * deployments simply change who comes next.
 *
 * Reserves (6.3): they sit out round 1 (cannot act or be hit) and join at the
 * start of round 2, when they are revealed. If all of a side's active blocks are
 * gone (eliminated or defected) its Reserves deploy at once; they cannot act in
 * that round. If it is the Defender whose blocks are gone in round 1 the roles
 * swap for the rest of the battle [R-19] (decision: also when the defender's
 * only remaining blocks are defectors waiting for the next round).
 *
 * End (G-2): the battle ends as soon as one side has no block in the area
 * (Reserves and waiting defectors count as in it); after round 4 the Defender
 * is the victor. Eliminations go through eliminate(); when it ends the game
 * (s.result) everything stops.
 *
 * Decision (contested area without an s.attacks record, e.g. a position built by
 * hand): the attacker is the only side with blocks there that moved this turn;
 * otherwise Player 1. No entry borders, Reserves or pirates.
 *
 * Undo: the battle choice, every battle action and hit choice are final; the
 * stack is cleared when a battle starts (blocks are revealed) and when it ends.
 * Regroup moves are undoable (INTERPRETATIONS 54).
 */
import { AREA, BLOCKS, BLOCK_INDEX, LAND_AND_EXILE, NUM_BLOCKS, SIDES, other, type Side } from './data.ts';
import { clearUndo, type Action, type HandlerTable } from './flow.ts';
import { Acted, addLog, ownerOf, top, type Attack, type R3State } from './state.ts';
import { areaRef, list, msg, sideRef, sub, withStrength } from './msg.ts';
import type { MessageParam } from '../../engine/types.ts';
import { AREA_IX, occupancy } from './occupancy.ts';
import { eliminate } from './elimination.ts';
import { mostSeniorAmong } from './heirs.ts';
import { startSupplyPhase } from './supply.ts';
import {
  activeBlocks,
  battleFrame,
  blocksInBattle,
  defenderOf,
  drop,
  hostileAreas,
  isActive,
  label,
  letterOf,
  type BattleFrame,
} from './battle-state.ts';
import { assignHits, charge, fire, hitBlock, hitsActions, strongest, type HitsFrame } from './hits.ts';
import { landRetreats, retreat, retreatOptions, canRegroup, regroupActions, regroupMove, type RegroupFrame } from './retreat.ts';
import { rollerSource, treasonRoll, treasonTargets } from './treachery.ts';
import { firepowerOf } from './defence.ts';

export { battleFrame, type BattleFrame } from './battle-state.ts';

const areaName = (a: string): string => AREA[a]?.name ?? a;
const idOf = (b: number): string => BLOCKS[b]!.id;

/* --------------------------------------------------------------- the phase */

/** Contested areas (2.1), in map order. */
export function contestedAreas(s: R3State): string[] {
  const o = occupancy(s);
  const out: string[] = [];
  for (const a of LAND_AND_EXILE) {
    const i = AREA_IX[a.id]! * 2;
    if (o.cnt[i]! > 0 && o.cnt[i + 1]! > 0) out.push(a.id);
  }
  return out;
}

const playerOneOf = (s: R3State): Side => s.p1 ?? other(s.king);

/** Entry point of the Battle Phase (after Player 2's Action Phase). */
export function startBattlePhase(s: R3State): void {
  clearUndo(s);
  s.flow.push({ s: 'battle_phase', side: playerOneOf(s) });
  nextBattle(s);
}

/** With the `battle_phase` frame on top: the next battle, or the Supply Phase. */
function nextBattle(s: R3State): void {
  const areas = contestedAreas(s);
  const f = top(s);
  if (areas.length === 0) {
    s.flow.pop();
    clearUndo(s);
    startSupplyPhase(s);
    return;
  }
  f.side = playerOneOf(s);
  if (areas.length === 1) startBattle(s, areas[0]!);
}

/** The s.attacks record of an area, or a sensible stand-in (see the header). */
function attackOf(s: R3State, area: string): Attack {
  const rec = s.attacks[area];
  if (rec) return rec;
  const moved = { York: false, Lancaster: false };
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.loc[b] !== area || s.down[b]) continue;
    if (s.acted[b] === Acted.Moved || s.acted[b] === Acted.SeaMoved) moved[ownerOf(s, b)] = true;
  }
  const attacker: Side = moved.York !== moved.Lancaster ? (moved.York ? 'York' : 'Lancaster') : playerOneOf(s);
  return { attacker, main: null, entries: { York: [], Lancaster: [] }, reserves: [], pirates: [] };
}

function describeSide(s: R3State, bf: BattleFrame, side: Side): string {
  const shown = bf.revealed.filter((b) => ownerOf(s, b) === side).map((b) => label(s, b));
  const waiting = bf.reserves.filter((b) => ownerOf(s, b) === side).length;
  const parts = [shown.length > 0 ? shown.join(', ') : 'no block in the battle line'];
  if (waiting > 0) parts.push(`${waiting} in reserve`);
  return `${side}: ${parts.join('; ')}`;
}

function describeSideMsg(s: R3State, bf: BattleFrame, side: Side): MessageParam {
  const shown = bf.revealed.filter((b) => ownerOf(s, b) === side).map((b) => withStrength(s, b));
  const waiting = bf.reserves.filter((b) => ownerOf(s, b) === side).length;
  return sub(msg('log.battleSide', { side: sideRef(side), blocks: shown.length > 0 ? list(shown) : sub(msg('log.noBattleLine')), reserve: waiting }));
}

export function startBattle(s: R3State, area: string): void {
  const rec = attackOf(s, area);
  const here: number[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) if (s.loc[b] === area && !s.down[b]) here.push(b);
  const reserves = rec.reserves.filter((b) => here.includes(b));
  const bf: BattleFrame = {
    s: 'battle',
    side: null,
    area,
    members: here,
    attacker: rec.attacker,
    round: 1,
    revealed: here.filter((b) => !reserves.includes(b)),
    reserves,
    acted: [],
    fromReserve: [],
    defectedNow: [],
    turned: [],
    used: [],
    rolls: {},
    retreatUse: {},
    entries: { York: [...rec.entries.York], Lancaster: [...rec.entries.Lancaster] },
    pirates: rec.pirates.filter((b) => here.includes(b)),
  };
  clearUndo(s);
  s.flow.push(bf);
  addLog(
    s,
    `Battle of ${areaName(area)}: ${bf.attacker} attacks. ${describeSide(s, bf, bf.attacker)}. ${describeSide(s, bf, other(bf.attacker))}.`,
    msg('log.battleStart', {
      area: areaRef(area), attacker: sideRef(bf.attacker),
      a: describeSideMsg(s, bf, bf.attacker), d: describeSideMsg(s, bf, other(bf.attacker)),
    }),
  );
  if (s.treason !== null && treasonTargets(s, bf, s.treason, 'card').length > 0) {
    s.flow.push({ s: 'treason_event', side: s.treason });
    return;
  }
  proceed(s);
}

/* ------------------------------------------------------------ round flow */

interface Group {
  side: Side;
  blocks: number[];
}

const LETTER_RANK: Readonly<Record<string, number>> = { A: 0, B: 1, C: 2, D: 3 };

/** The blocks whose battle turn comes next: earliest letter, defenders first (6.2). */
export function currentGroup(s: R3State, bf: BattleFrame): Group | null {
  const def = defenderOf(bf);
  let best = Infinity;
  let blocks: number[] = [];
  let side: Side = def;
  for (const b of bf.members) {
    if (!isActive(s, bf, b) || bf.acted.includes(b)) continue;
    const own = ownerOf(s, b);
    const key = LETTER_RANK[letterOf(bf, b)]! * 2 + (own === def ? 0 : 1);
    if (key < best) {
      best = key;
      blocks = [b];
      side = own;
    } else if (key === best) blocks.push(b);
  }
  return blocks.length > 0 ? { side, blocks } : null;
}

function startRound(s: R3State, bf: BattleFrame, round: number): void {
  bf.round = round;
  bf.acted = [];
  bf.defectedNow = [];
  bf.retreatUse = {};
  const joining = bf.reserves.filter((b) => s.loc[b] === bf.area && !s.down[b]);
  bf.reserves = [];
  for (const b of joining) {
    if (!bf.revealed.includes(b)) bf.revealed.push(b);
    if (!bf.fromReserve.includes(b)) bf.fromReserve.push(b);
  }
  const joins = SIDES.map((side) => {
    const names = joining.filter((b) => ownerOf(s, b) === side).map((b) => label(s, b));
    return names.length > 0 ? ` ${side} reserves join: ${names.join(', ')}.` : '';
  }).join('');
  const joinMsgs = SIDES.map((side) => {
    const blocks = joining.filter((b) => ownerOf(s, b) === side).map((b) => withStrength(s, b));
    return blocks.length > 0 ? sub(msg('log.reservesJoin', { side: sideRef(side), blocks: list(blocks) })) : '';
  });
  addLog(s, `Battle of ${areaName(bf.area)}, round ${round}.${joins}`, msg('log.battleRound', { area: areaRef(bf.area), round, j1: joinMsgs[0]!, j2: joinMsgs[1]! }));
}

/**
 * Early deployment and the round-1 role swap (6.3 ): a side left with no
 * active block brings in its Reserves at once (they may not act this round);
 * defectors of this round stay out of it (G-3).
 */
function deployEarly(s: R3State, bf: BattleFrame): void {
  const def = defenderOf(bf);
  let defenderGone = false;
  for (const side of SIDES) {
    if (activeBlocks(s, bf, side).length > 0) continue;
    if (side === def) defenderGone = true;
    const deploy = bf.reserves.filter((b) => ownerOf(s, b) === side && !bf.defectedNow.includes(b));
    if (deploy.length === 0) continue;
    for (const b of deploy) {
      drop(bf.reserves, b);
      if (!bf.revealed.includes(b)) bf.revealed.push(b);
      bf.fromReserve.push(b);
      bf.acted.push(b);
    }
    addLog(s, `${side} reserves enter the battle of ${areaName(bf.area)} at once: ${deploy.map((b) => label(s, b)).join(', ')}.`,
      msg('log.reservesDeploy', { side: sideRef(side), area: areaRef(bf.area), blocks: list(deploy.map((b) => withStrength(s, b))) }));
  }
  if (defenderGone && bf.round === 1) {
    bf.attacker = def;
    addLog(s, `${def} loses control of ${areaName(bf.area)}: ${other(def)} is now the Defender and ${def} the Attacker.`,
      msg('log.roleSwap', { side: sideRef(def), other: sideRef(other(def)), area: areaRef(bf.area) }));
  }
}

/**
 * After every action: end the battle if a side is gone, deploy Reserves, find
 * the next group (starting new rounds as needed) and set the acting side.
 * Expects the `battle` frame on top.
 */
export function proceed(s: R3State): void {
  for (;;) {
    if (s.result) return;
    const bf = top(s) as BattleFrame;
    const y = blocksInBattle(s, bf, 'York').length;
    const l = blocksInBattle(s, bf, 'Lancaster').length;
    if (y === 0 || l === 0) {
      endBattle(s, bf, y > 0 ? 'York' : l > 0 ? 'Lancaster' : null);
      return;
    }
    deployEarly(s, bf);
    const g = currentGroup(s, bf);
    if (!g) {
      if (bf.round >= 4) {
        endBattle(s, bf, defenderOf(bf));
        return;
      }
      startRound(s, bf, bf.round + 1);
      continue;
    }
    if (bf.round === 4 && g.side === bf.attacker) {
      // 6.6: an attacker that must retreat and cannot is eliminated. Retreat
      // options only shrink within a group, so this is decided when it comes up.
      const o = hostileAreas(s, g.side);
      const stuck = g.blocks.filter((b) => retreatOptions(s, bf, b, o).length === 0);
      if (stuck.length > 0) {
        for (const b of stuck) {
          bf.acted.push(b);
          drop(bf.revealed, b);
          eliminate(s, b, { text: `unable to retreat from ${areaName(bf.area)}`, m: msg('log.cause.noRetreat', { area: areaRef(bf.area) }) });
          if (s.result) return;
        }
        continue;
      }
    }
    bf.side = g.side;
    return;
  }
}

function endBattle(s: R3State, bf: BattleFrame, victor: Side | null): void {
  s.flow.pop();
  delete s.attacks[bf.area];
  clearUndo(s);
  addLog(s, victor ? `${victor} wins the battle of ${areaName(bf.area)}.` : `The battle of ${areaName(bf.area)} ends.`,
    victor ? msg('log.battleWon', { side: sideRef(victor), area: areaRef(bf.area) }) : msg('log.battleEnds', { area: areaRef(bf.area) }));
  if (victor) {
    const rf: RegroupFrame = {
      s: 'regroup',
      side: victor,
      area: bf.area,
      pirates: bf.pirates.filter((b) => s.loc[b] === bf.area && ownerOf(s, b) === victor),
      entries: [...bf.entries[victor]],
      use: {},
      seen: [...bf.revealed],
    };
    if (canRegroup(s, rf)) {
      s.flow.push(rf);
      return;
    }
  }
  nextBattle(s);
}

/* --------------------------------------------------------------- handlers */

function battleActions(s: R3State, bf: BattleFrame, side: Side): Action[] {
  if (bf.side !== side) return [];
  const g = currentGroup(s, bf);
  if (!g || g.side !== side) return [];
  const o = bf.round >= 2 ? hostileAreas(s, side) : null;
  let land: string[] | null = null; // the same for every non-pirate block of the side
  const out: Action[] = [];
  const enemyActive = activeBlocks(s, bf, other(side));
  const senior = mostSeniorAmong(activeBlocks(s, bf, side), side);
  const mustRetreat = bf.round === 4 && side === bf.attacker;
  for (const b of g.blocks) {
    const id = idOf(b);
    let retreats: string[] = [];
    if (o) {
      if (bf.pirates.includes(b)) retreats = retreatOptions(s, bf, b, o);
      else retreats = land ??= landRetreats(s, bf, side, o);
    }
    if (mustRetreat) {
      for (const to of retreats) out.push({ type: 'retreat', block: id, to });
      continue;
    }
    out.push({ type: 'fire', block: id });
    for (const to of retreats) out.push({ type: 'retreat', block: id, to });
    if (senior === b) for (const t of enemyActive) out.push({ type: 'charge', block: id, target: idOf(t) });
    const src = rollerSource(s, bf, b);
    if (src) for (const t of treasonTargets(s, bf, side, src)) out.push({ type: 'treachery', block: id, target: idOf(t) });
    out.push({ type: 'pass', block: id });
  }
  return out;
}

function battleApply(s: R3State, bf: BattleFrame, side: Side, a: Action): void {
  const b = BLOCK_INDEX[a.block as string]!;
  bf.acted.push(b);
  switch (a.type) {
    case 'fire':
      if (fire(s, bf, b) || s.result) return;
      break;
    case 'pass':
      addLog(s, `${side}: ${label(s, b)} passes.`, msg('log.pass', { side: sideRef(side), block: withStrength(s, b) }));
      break;
    case 'retreat':
      retreat(s, bf, b, a.to as string);
      break;
    case 'charge':
      charge(s, bf, b, BLOCK_INDEX[a.target as string]!);
      if (s.result) return;
      break;
    case 'treachery': {
      const src = rollerSource(s, bf, b)!;
      treasonRoll(s, bf, side, BLOCK_INDEX[a.target as string]!, src, label(s, b), b);
      if (s.result) return;
      break;
    }
    default:
      throw new Error(`battle: unknown action ${a.type}`);
  }
  proceed(s);
}

function battlePrompt(s: R3State, bf: BattleFrame): unknown {
  const reserves = { York: 0, Lancaster: 0 };
  for (const b of bf.reserves) if (s.loc[b] === bf.area) reserves[ownerOf(s, b)]++;
  const shown = bf.revealed.filter((b) => s.loc[b] === bf.area && !bf.reserves.includes(b));
  return {
    area: bf.area,
    round: bf.round,
    attacker: bf.attacker,
    defender: defenderOf(bf),
    /** Revealed blocks in the battle line with their rating this round (bonus included). */
    line: shown.map((b) => ({
      block: idOf(b),
      side: ownerOf(s, b),
      steps: s.steps[b],
      rating: `${letterOf(bf, b)}${firepowerOf(s, bf, b)}`,
      acted: bf.acted.includes(b),
    })),
    reserves,
    used: [...bf.used],
  };
}

export const handlers: HandlerTable = {
  battle_phase: {
    actions: (s, f, side) => (f.side === side ? contestedAreas(s).map((area) => ({ type: 'battle', area })) : []),
    apply: (s, _f, _side, a) => startBattle(s, a.area as string),
    prompt: (s) => ({ areas: contestedAreas(s) }),
  },
  treason_event: {
    actions: (s, f, side) => {
      if (f.side !== side) return [];
      const bf = battleFrame(s)!;
      const out: Action[] = treasonTargets(s, bf, side, 'card').map((t) => ({ type: 'treason', target: idOf(t) }));
      out.push({ type: 'pass' });
      return out;
    },
    apply: (s, _f, side, a) => {
      s.flow.pop();
      const bf = battleFrame(s)!;
      if (a.type === 'treason') {
        s.treason = null;
        treasonRoll(s, bf, side, BLOCK_INDEX[a.target as string]!, 'card', 'the Treason card', null);
        if (s.result) return;
      } else {
        addLog(s, `${side} does not use the Treason card in the battle of ${areaName(bf.area)}.`,
          msg('log.treasonUnused', { side: sideRef(side), area: areaRef(bf.area) }));
      }
      proceed(s);
    },
    prompt: (s) => ({ area: battleFrame(s)?.area ?? null }),
  },
  battle: {
    actions: (s, f, side) => battleActions(s, f as BattleFrame, side),
    apply: (s, f, side, a) => battleApply(s, f as BattleFrame, side, a),
    prompt: (s, f) => battlePrompt(s, f as BattleFrame),
  },
  battle_hits: {
    actions: (s, f, side) => (f.side === side ? hitsActions(s, battleFrame(s)!, f as HitsFrame) : []),
    apply: (s, f, _side, a) => {
      const hf = f as HitsFrame;
      s.flow.pop();
      const bf = battleFrame(s)!;
      hitBlock(s, bf, BLOCK_INDEX[a.block as string]!);
      if (s.result) return;
      if (assignHits(s, bf, hf.side, hf.hits - 1) || s.result) return;
      proceed(s);
    },
    prompt: (s, f) => {
      const bf = battleFrame(s);
      return { hits: (f as HitsFrame).hits, choices: bf ? strongest(s, bf, (f as HitsFrame).side).map(idOf) : [] };
    },
  },
  regroup: {
    actions: (s, f, side) => (f.side === side ? regroupActions(s, f as RegroupFrame) : []),
    apply: (s, f, _side, a) => {
      if (a.type === 'regroup') {
        regroupMove(s, f as RegroupFrame, BLOCK_INDEX[a.block as string]!, a.to as string);
        return;
      }
      s.flow.pop();
      clearUndo(s);
      nextBattle(s);
    },
    undoable: (_s, _f, a) => a.type === 'regroup',
    prompt: (_s, f) => ({ area: (f as RegroupFrame).area }),
  },
};

/** For views: the blocks face-up in the battle being fought (still in its area). */
export function battleRevealed(s: R3State): number[] {
  const bf = battleFrame(s);
  return bf ? bf.revealed.filter((b) => s.loc[b] === bf.area) : [];
}
