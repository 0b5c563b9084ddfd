/**
 * The Action Phase (1.2, 5.0–5.4 and the event cards): Player 1 acts, then
 * Player 2, then the Battle Phase begins.
 *
 * The played card (s.played[side]) gives the AP. An action card's AP buy group
 * moves (movement.ts), sea moves (sea-move.ts) and recruits (recruit.ts), one AP
 * each. An event card's AP serve only its event (5.1):
 *   Force March — one group, up to 3 areas, no sea move, no recruit;
 *   Surprise    — one group with every border limit +1, or one normal sea move
 *                 (with its port-to-port follower, 5.31); no recruit;
 *   Treason     — one group (no sea move: the card says "move one group" and only
 *                 Surprise names a sea alternative), and s.treason = side for the
 *                 Battle Phase's one treason roll;
 *   Piracy      — its AP only as sea moves, which may attack (sea-move.ts);
 *   Muster      — muster.ts; Plague — plague.ts.
 *
 * Flow (INTERPRETATIONS §L1): action_phase — pick a block ({"type":"select"}) or a
 * pool block to recruit ({"type":"recruit"}), or {"type":"end"} →
 * move_to ({"type":"step","area"} / {"type":"sea","zone"} / "stop" / "cancel") →
 * sea_move_to ({"type":"land","area"}) ; recruit_where ({"type":"place","area"}).
 * {"type":"end"} is offered in every state of the phase (a block in mid-move
 * stays where it is), except halfway through a two-area Muster move, which must
 * end in the muster area. Moves, sea moves, recruits and muster choices are
 * undoable; picking and cancelling need no snapshot (they change nothing); Plague
 * is not undoable. The undo stack is cleared when each player's phase starts and ends.
 *
 * Other modules: action-frames.ts (frame shapes, what each card allows),
 * occupancy.ts (per-call area status index), movement.ts (land moves, pinning,
 * battle entries), sea-move.ts, recruit.ts, muster.ts, plague.ts.
 */
import { BLOCK_INDEX, BLOCKS, CARD, NUM_BLOCKS, other, type Side } from './data.ts';
import { addLog, type Frame, type R3State } from './state.ts';
import { msg, sideRef, sub } from './msg.ts';
import { clearUndo, type Action, type HandlerTable, type StateHandler } from './flow.ts';
import { NUM_AREA_IX, blockSideIx, occupancy, zeros } from './occupancy.ts';
import {
  allowsRecruit, allowsSea, type EventKind, type MoveFrame, type PhaseFrame, type RecruitFrame, type SeaFrame,
} from './action-frames.ts';
import { areaName, canStartLand, moveToActions, moveToApply } from './movement.ts';
import { canSeaMoveFrom, seaMoveToActions, seaMoveToApply } from './sea-move.ts';
import { canRecruit, recruitWhereActions, recruitWhereApply } from './recruit.ts';
import {
  musterEventActions, musterEventApply, musterMoveActions, musterMoveApply, musterWhoActions, musterWhoApply,
  type MusterEventFrame, type MusterMoveFrame, type MusterWhoFrame,
} from './muster.ts';
import { plagueActions, plagueApply, type PlagueFrame } from './plague.ts';
import { startBattlePhase } from './battle.ts';

const EVENT_NAME: Record<EventKind, string> = {
  'force-march': 'Force March', muster: 'Muster', piracy: 'Piracy', plague: 'Plague', surprise: 'Surprise', treason: 'Treason',
};

/** Starts `side`'s Action Phase with the card it played this game turn. */
export function startActionPhase(s: R3State, side: Side): void {
  clearUndo(s);
  if (s.p1 === null) s.p1 = side;
  const id = s.played[side];
  const card = id ? CARD[id] : undefined;
  const ev: EventKind | null = card?.kind === 'event' ? card.event! : null;
  const ap = card?.ap ?? 0;
  const role = s.p1 === side ? 'Player 1' : 'Player 2';
  addLog(s, `${side} (${role}) acts: ${ev ? EVENT_NAME[ev] : 'action card'}, ${ap} AP.`, msg('log.actionPhase', {
    side: sideRef(side), player: s.p1 === side ? 1 : 2, card: ev ? { ref: 'card', id: ev } : sub(msg('card.action')), ap,
  }));
  if (ev === 'treason') s.treason = side;
  if (ev === 'muster') {
    s.flow.push({ s: 'muster_event', side, phase: true });
  } else if (ev === 'plague') {
    s.flow.push({ s: 'plague_event', side, phase: true });
  } else {
    const f: PhaseFrame = { s: 'action_phase', side, phase: true, ev, ap, active: [], ports: {} };
    s.flow.push(f as unknown as Frame);
  }
}

/** Ends `side`'s Action Phase: pops its frames, then Player 2's phase or the Battle Phase. */
export function endActionPhase(s: R3State, side: Side): void {
  while (s.flow.length > 0) {
    const f = s.flow.pop()!;
    if (f['phase'] === true) break;
  }
  clearUndo(s);
  addLog(s, `${side} ends its action phase.`, msg('log.endActionPhase', { side: sideRef(side) }));
  if (s.p1 === side) startActionPhase(s, other(side));
  else startBattlePhase(s);
}

/* ------------------------------------------------------ action_phase */

function phaseActions(s: R3State, p: PhaseFrame, side: Side): Action[] {
  const out: Action[] = [];
  const o = occupancy(s);
  const me = side === 'York' ? 0 : 1;
  const recruiting = allowsRecruit(p) && p.ap > 0;
  const seaOK = allowsSea(p);
  // Per-area answers, computed once per listing (0 unknown, 1 no, 2 yes): may its blocks
  // start a land move (land[ai]) / a sea move (land[NUM_AREA_IX + ai])?
  const land: number[] = zeros();
  let recruits: Action[] | null = null;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.down[b] || blockSideIx(s, b) !== me) continue;
    const ai = o.at[b]!;
    if (ai < 0) {
      if (recruiting && s.loc[b] === 'pool' && canRecruit(s, o, side, b)) {
        (recruits ??= []).push({ type: 'recruit', block: BLOCKS[b]!.id });
      }
      continue;
    }
    if (s.acted[b] !== 0) continue;
    const at = s.loc[b]!;
    if (land[ai] === 0) land[ai] = canStartLand(s, o, p, side, at) ? 2 : 1;
    let ok = land[ai] === 2;
    if (!ok && seaOK && BLOCKS[b]!.canSeaMove) {
      const k = NUM_AREA_IX + ai;
      if (land[k] === 0) land[k] = canSeaMoveFrom(s, o, p, side, at) ? 2 : 1;
      ok = land[k] === 2;
    }
    if (ok) out.push({ type: 'select', block: BLOCKS[b]!.id });
  }
  if (recruits) out.push(...recruits);
  out.push({ type: 'end' });
  return out;
}

function phaseApply(s: R3State, _p: PhaseFrame, side: Side, a: Action): void {
  switch (a.type) {
    case 'end':
      endActionPhase(s, side);
      return;
    case 'select': {
      const id = a['block'] as string;
      const f: MoveFrame = { s: 'move_to', side, block: id, path: [s.loc[BLOCK_INDEX[id]!]!] };
      s.flow.push(f as unknown as Frame);
      return;
    }
    case 'recruit': {
      const f: RecruitFrame = { s: 'recruit_where', side, block: a['block'] as string };
      s.flow.push(f as unknown as Frame);
      return;
    }
  }
  throw new Error(`action_phase: unexpected action ${a.type}`);
}

/* ----------------------------------------------------------- prompts */

const blockName = (id: string): string => BLOCKS[BLOCK_INDEX[id]!]!.name;

function phasePrompt(_s: R3State, p: PhaseFrame, seat: Side | null): unknown {
  const pub = { state: 'action_phase', side: p.side, event: p.ev, ap: p.ap, activated: [...p.active] };
  if (seat !== p.side) return { ...pub, text: `${p.side} is taking actions.` };
  const what = p.ev === 'piracy' ? 'a block to sea-move' : allowsRecruit(p) ? 'a block to move, or one to recruit' : 'a block to move';
  return { ...pub, ports: { ...p.ports }, text: `Choose ${what} (${p.ap} AP left), or end the action phase.` };
}

function movePrompt(_s: R3State, f: MoveFrame, seat: Side | null): unknown {
  const at = f.path[f.path.length - 1]!;
  // The opponent learns only that a block is being moved (the block's identity stays hidden).
  if (seat !== f.side) return { state: 'move_to', side: f.side, text: `${f.side} is moving a block.` };
  const text = f.path.length === 1
    ? `${blockName(f.block)} in ${areaName(at)}: choose the area to move to or a sea zone to cross, or cancel.`
    : `${blockName(f.block)} is in ${areaName(at)}: choose the next area, or stop here.`;
  return { state: 'move_to', side: f.side, block: f.block, path: [...f.path], text };
}

function seaPrompt(_s: R3State, f: SeaFrame, seat: Side | null): unknown {
  if (seat !== f.side) return { state: 'sea_move_to', side: f.side, text: `${f.side} is sea-moving a block.` };
  return {
    state: 'sea_move_to', side: f.side, block: f.block, from: f.from, zone: f.zone,
    text: `${blockName(f.block)} crosses the ${areaName(f.zone)}: choose where it lands.`,
  };
}

function recruitPrompt(_s: R3State, f: RecruitFrame, seat: Side | null): unknown {
  if (seat !== f.side) return { state: 'recruit_where', side: f.side, text: `${f.side} is recruiting.` };
  return { state: 'recruit_where', side: f.side, block: f.block, text: `Choose where to place ${blockName(f.block)}.` };
}

/* ---------------------------------------------------------- handlers */

const isType = (...types: string[]) => (_s: R3State, _f: Frame, a: Action): boolean => types.includes(a.type);

// Each entry calls functions (hoisted declarations), never module-level values of the
// modules it imports, so import cycles among the phase modules are harmless.
export const handlers: HandlerTable = {
  action_phase: {
    actions: (s, f, side) => phaseActions(s, f as unknown as PhaseFrame, side),
    apply: (s, f, side, a) => phaseApply(s, f as unknown as PhaseFrame, side, a),
    undoable: () => false,
    prompt: (s, f, seat) => phasePrompt(s, f as unknown as PhaseFrame, seat),
  },
  move_to: {
    actions: (s, f, side) => moveToActions(s, f as unknown as MoveFrame, side),
    apply: (s, f, side, a) => moveToApply(s, f as unknown as MoveFrame, side, a),
    undoable: isType('step', 'stop'),
    prompt: (s, f, seat) => movePrompt(s, f as unknown as MoveFrame, seat),
  },
  sea_move_to: {
    actions: (s, f, side) => seaMoveToActions(s, f as unknown as SeaFrame, side),
    apply: (s, f, side, a) => seaMoveToApply(s, f as unknown as SeaFrame, side, a),
    undoable: isType('land'),
    prompt: (s, f, seat) => seaPrompt(s, f as unknown as SeaFrame, seat),
  },
  recruit_where: {
    actions: (s, f, side) => recruitWhereActions(s, f as unknown as RecruitFrame, side),
    apply: (s, f, side, a) => recruitWhereApply(s, f as unknown as RecruitFrame, side, a),
    undoable: isType('place'),
    prompt: (s, f, seat) => recruitPrompt(s, f as unknown as RecruitFrame, seat),
  },
  muster_event: {
    actions: (s, f, side) => musterEventActions(s, f as unknown as MusterEventFrame, side),
    apply: (s, f, side, a) => musterEventApply(s, f as unknown as MusterEventFrame, side, a),
    undoable: isType('muster'),
    prompt: (_s, f, seat) => ({
      state: 'muster_event', side: f.side,
      text: seat === f.side ? 'Muster: choose the muster area, or end the action phase.' : `${f.side} is choosing a muster area.`,
    }),
  },
  muster_who: {
    actions: (s, f, side) => musterWhoActions(s, f as unknown as MusterWhoFrame, side),
    apply: (s, f, side, a) => musterWhoApply(s, f as unknown as MusterWhoFrame, side, a),
    undoable: () => false,
    prompt: (_s, f, seat) => ({
      state: 'muster_who', side: f.side, area: f['area'],
      text: seat === f.side
        ? `Muster at ${areaName(f['area'] as string)}: choose a block to move there, or end the action phase.`
        : `${f.side} is mustering at ${areaName(f['area'] as string)}.`,
    }),
  },
  muster_move: {
    actions: (s, f, side) => musterMoveActions(s, f as unknown as MusterMoveFrame, side),
    apply: (s, f, side, a) => musterMoveApply(s, f as unknown as MusterMoveFrame, side, a),
    undoable: isType('step'),
    prompt: (_s, f, seat) => {
      const m = f as unknown as MusterMoveFrame;
      return seat === m.side
        ? { state: 'muster_move', side: m.side, block: m.block, area: m.area, path: [...m.path], text: `Move ${blockName(m.block)} towards ${areaName(m.area)}.` }
        : { state: 'muster_move', side: m.side, area: m.area, text: `${m.side} is mustering a block.` };
    },
  },
  plague_event: {
    actions: (s, f, side) => plagueActions(s, f as unknown as PlagueFrame, side),
    apply: (s, f, side, a) => plagueApply(s, f as unknown as PlagueFrame, side, a),
    undoable: () => false,
    prompt: (_s, f, seat) => ({
      state: 'plague_event', side: f.side,
      text: seat === f.side ? 'Plague: choose an Enemy area containing a city, or end without using it.' : `${f.side} is choosing where Plague strikes.`,
    }),
  },
} satisfies Record<string, StateHandler>;
