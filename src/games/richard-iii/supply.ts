/**
 * Supply Phase (7.0), in the fixed order of [G-10]:
 *
 *   stage 0  Pretender side's minor heirs enter (6.82)        `enter_heir`
 *   stage 1  King side's minor heirs enter (6.82 [G-11])             `enter_heir`
 *   stage 2  succession: a vacant King/Pretender block is filled (6.81, G-5) — automatic
 *   stage 3  Lancaster may execute a defected Clarence (9.1)  `execute_defector`
 *   stage 4  York may execute a defected Exeter (9.1)               `execute_defector`
 *   stage 5  Pretender side's supply and exile limits (7.1, 7.2)     `supply_limits`
 *   stage 6  King side's supply and exile limits                    `supply_limits`
 *   then the next Game Turn (turn < 7) or the Political Turn.
 *
 * Minors enter before succession so that a minor who is the senior heir becomes
 * King there (6.81, 4.5; see succession.ts). The rules make the limits
 * simultaneous; choices of one side cannot affect the other's, so we ask the
 * Pretender first and then the King, as INTERPRETATIONS L3 does. Each frame
 * carries its stage; when it is done it pops itself and runs the next stage.
 * Steps with a single possible outcome are applied without asking.
 *
 * Actions:
 *   enter_heir       {"type":"enter_heir","heir":id,"area":id}
 *   execute_defector {"type":"execute","block":"clarence-l"|"exeter-y"}, {"type":"pass"}
 *   supply_limits    {"type":"reduce","block":id} for every block that may take an
 *                    excess step loss; once no area is over its limit and the side
 *                    has undoable reductions, {"type":"end_supply_limits"} (with
 *                    index.ts's undo) confirms them. Reductions that do not eliminate
 *                    are undoable (INTERPRETATIONS 54); eliminations are public and
 *                    clear the undo stack (elimination.ts).
 */
import { AREA, AREAS, BLOCK_INDEX, BLOCKS, NUM_BLOCKS, other, type AreaData, type Side } from './data.ts';
import { clearUndo, type Action, type HandlerTable } from './flow.ts';
import { addLog, ownerOf, type Frame, type R3State } from './state.ts';
import { areaRef, blockIdRef, blockRef, msg, sideRef } from './msg.ts';
import { eliminate } from './elimination.ts';
import { ensureCrownHeirEnters, enterHeir, heirEntryAreas, nextEntrant, succeed } from './succession.ts';
import { startGameTurn } from './cards.ts';
import { startPoliticalTurn } from './political-turn.ts';

const CLARENCE_L = BLOCK_INDEX['clarence-l']!;
const EXETER_Y = BLOCK_INDEX['exeter-y']!;

/* ------------------------------------------------------------ supply limits */

/** Land and exile areas, numbered for counting arrays. */
const LIMIT_AREAS = AREAS.filter((a) => a.kind !== 'sea');
const AREA_NO: Readonly<Record<string, number>> = Object.fromEntries(LIMIT_AREAS.map((a, i) => [a.id, i]));
/**
 * The limit of 7.1 (land) or 7.2 (exile, non-mercenary blocks) as map.json
 * gives it; every land and exile area must give its own (no guessed default).
 */
export function limitOf(a: AreaData): number {
  const key = a.kind === 'exile' ? 'exileLimitNonMercenary' : 'supplyLimit';
  const limit = a[key];
  if (typeof limit !== 'number') throw new Error(`map.json: area ${a.id} has no ${key}`);
  return limit;
}
/** Per area number: its limit (fails at load when the map lacks one). */
const LIMIT: readonly number[] = LIMIT_AREAS.map(limitOf);
/**
 * Per block: the exile area where it is not counted, or null.: only an
 * exile area's own home mercenaries are free there; any other block counts.
 */
const FREE_IN: readonly (string | null)[] = BLOCKS.map((b) =>
  LIMIT_AREAS.find((a) => a.kind === 'exile' && (a.homeMercenaries ?? []).includes(b.id))?.id ?? null);

export interface Excess {
  area: string;
  /** How many more blocks must lose a step here. */
  over: number;
  /** Blocks that may take one of those losses (counted and not yet reduced this phase). */
  blocks: number[];
}

/** Is block b counted against the limit of the area it stands in, for `side`? */
function counts(s: R3State, b: number, side: Side): boolean {
  return !s.down[b] && FREE_IN[b] !== s.loc[b] && ownerOf(s, b) === side;
}

/**
 * Areas where `side` has more counted blocks than the limit, after the blocks in
 * `reduced` (already reduced this phase: each excess block loses one step, 7.1)
 * are taken out of the choice. Face-down blocks (eliminated this campaign, the
 * Kingmaker prisoner) are not counted (7.2, G-9, INTERPRETATIONS 40).
 */
export function excessAreas(s: R3State, side: Side, reduced: readonly number[] = []): Excess[] {
  const n = new Array<number>(LIMIT_AREAS.length).fill(0);
  let anyOver = false;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const i = AREA_NO[s.loc[b]!];
    if (i === undefined || !counts(s, b, side)) continue;
    if (++n[i]! > LIMIT[i]!) anyOver = true;
  }
  if (!anyOver) return [];
  const out: Excess[] = [];
  for (let i = 0; i < LIMIT_AREAS.length; i++) {
    if (n[i]! <= LIMIT[i]!) continue;
    const area = LIMIT_AREAS[i]!.id;
    const open: number[] = [];
    for (let b = 0; b < NUM_BLOCKS; b++) {
      if (s.loc[b] === area && counts(s, b, side) && !reduced.includes(b)) open.push(b);
    }
    const left = n[i]! - LIMIT[i]! - (n[i]! - open.length);
    if (left > 0) out.push({ area, over: left, blocks: open });
  }
  return out;
}

/* ------------------------------------------------------------------- driver */

const pretender = (s: R3State): Side => other(s.king);

/** Starts the Supply Phase (called by battle.ts when no battle remains). */
export function startSupplyPhase(s: R3State): void {
  clearUndo(s);
  addLog(s, `Supply Phase (Game Turn ${s.turn}).`, msg('log.supplyPhase', { turn: s.turn }));
  ensureCrownHeirEnters(s, pretender(s));
  ensureCrownHeirEnters(s, s.king);
  runSupply(s, 0);
}

/** Runs the phase from `stage`, pushing the next frame that needs a decision. */
function runSupply(s: R3State, stage: number): void {
  for (; ; stage++) {
    switch (stage) {
      case 0:
      case 1: {
        const side = stage === 0 ? pretender(s) : s.king;
        for (let b = nextEntrant(s, side); b !== null; b = nextEntrant(s, side)) {
          const areas = heirEntryAreas(s, side);
          if (areas.length > 1) {
            s.flow.push({ s: 'enter_heir', side, stage, heir: BLOCKS[b]!.id, areas });
            return;
          }
          enterHeir(s, side, b, areas[0]!);
        }
        break;
      }
      case 2:
        succeed(s, pretender(s));
        succeed(s, s.king);
        break;
      case 3:
      case 4: {
        const b = stage === 3 ? CLARENCE_L : EXETER_Y;
        if (heldDefector(s, b)) {
          s.flow.push({ s: 'execute_defector', side: BLOCKS[b]!.side as Side, stage, block: BLOCKS[b]!.id });
          return;
        }
        break;
      }
      case 5:
      case 6: {
        const side = stage === 5 ? pretender(s) : s.king;
        if (excessAreas(s, side).length > 0) {
          s.flow.push({ s: 'supply_limits', side, stage, reduced: [] });
          return;
        }
        break;
      }
      default:
        clearUndo(s);
        if (s.turn < 7) startGameTurn(s);
        else startPoliticalTurn(s);
        return;
    }
  }
}

/**
 * A defected Clarence (clarence-l) or Exeter (exeter-y) held by the side he
 * serves — on the map, in exile or in that side's pool (9.1: "the side holding
 * him may execute him during any Supply Phase").
 */
function heldDefector(s: R3State, b: number): boolean {
  const where = s.loc[b]!;
  return !s.down[b] && (AREA[where] !== undefined || where === 'pool');
}

/* ----------------------------------------------------------------- handlers */

interface EnterFrame extends Frame { stage: number; heir: string; areas: string[] }
interface ExecuteFrame extends Frame { stage: number; block: string }
interface LimitsFrame extends Frame { stage: number; reduced: number[] }

const PASS: Action = { type: 'pass' };
const END_LIMITS: Action = { type: 'end_supply_limits' };

function roleOf(s: R3State, side: Side): string {
  return side === s.king ? 'King' : 'Pretender';
}

export const handlers: HandlerTable = {
  enter_heir: {
    actions(_s, f, side) {
      const fr = f as EnterFrame;
      if (fr.side !== side) return [];
      return fr.areas.map((area) => ({ type: 'enter_heir', heir: fr.heir, area }));
    },
    apply(s, f, side, a) {
      const fr = f as EnterFrame;
      s.flow.pop();
      enterHeir(s, side, BLOCK_INDEX[fr.heir]!, a.area as string);
      runSupply(s, fr.stage);
    },
    prompt(s, f, seat) {
      const fr = f as EnterFrame;
      const name = BLOCKS[BLOCK_INDEX[fr.heir]!]!.name;
      return seat === fr.side
        ? { text: `The minor heir ${name} comes of age: choose where he enters play.`, heir: fr.heir, areas: fr.areas }
        : { text: `${fr.side} (${roleOf(s, fr.side as Side)}) places the minor heir ${name}.`, heir: fr.heir };
    },
  },

  execute_defector: {
    actions(_s, f, side) {
      const fr = f as ExecuteFrame;
      return fr.side === side ? [{ type: 'execute', block: fr.block }, PASS] : [];
    },
    apply(s, f, side, a) {
      const fr = f as ExecuteFrame;
      s.flow.pop();
      if (a.type === 'execute') {
        addLog(s, `${side} executes ${BLOCKS[BLOCK_INDEX[fr.block]!]!.fullName} (9.1).`, msg('log.execute', { side: sideRef(side), block: blockIdRef(fr.block) }));
        eliminate(s, BLOCK_INDEX[fr.block]!, { text: 'by execution', m: msg('log.cause.execution') });
        if (s.result) return;
      }
      runSupply(s, fr.stage + 1);
    },
    prompt(_s, f, seat) {
      const fr = f as ExecuteFrame;
      const name = BLOCKS[BLOCK_INDEX[fr.block]!]!.name;
      return seat === fr.side
        ? { text: `You may execute ${name}, who defected to you, so that he can never return (9.1), or pass.`, block: fr.block }
        : { text: `${fr.side} decides whether to execute ${name}.` };
    },
  },

  supply_limits: {
    actions(s, f, side) {
      const fr = f as LimitsFrame;
      if (fr.side !== side) return [];
      const ex = excessAreas(s, side, fr.reduced);
      if (ex.length === 0) return [END_LIMITS];
      const out: Action[] = [];
      for (const e of ex) for (const b of e.blocks) out.push({ type: 'reduce', block: BLOCKS[b]!.id });
      return out;
    },
    undoable(s, _f, a) {
      return a.type === 'reduce' && s.steps[BLOCK_INDEX[a.block as string]!]! > 1;
    },
    apply(s, f, side, a) {
      const fr = f as LimitsFrame;
      if (a.type === 'end_supply_limits') {
        s.flow.pop();
        clearUndo(s);
        runSupply(s, fr.stage + 1);
        return;
      }
      const b = BLOCK_INDEX[a.block as string]!;
      const area = s.loc[b]!;
      const limit = AREA[area]!.kind === 'exile' ? 'exile limit' : 'supply limit';
      const why = `${limit}, ${AREA[area]!.kind === 'exile' ? '7.2' : '7.1'}`;
      const exile = AREA[area]!.kind === 'exile' ? 'yes' : 'no';
      addLog(s, `${side} loses a step in ${AREA[area]!.name} (${why}).`, msg('log.supplyStep', { side: sideRef(side), area: areaRef(area), exile }),
        { side, text: `${BLOCKS[b]!.name} loses a step in ${AREA[area]!.name} (${why}).`, m: msg('log.supplyStepOwn', { block: blockRef(b), area: areaRef(area), exile }) });
      fr.reduced.push(b);
      s.steps[b] -= 1;
      if (s.steps[b]! <= 0) {
        eliminate(s, b, { text: `by the ${limit}`, m: msg(limit === 'exile limit' ? 'log.cause.exileLimit' : 'log.cause.supplyLimit') });
        if (s.result) return;
      }
      // Done, and nothing left to undo: go on without a confirmation.
      if (excessAreas(s, side, fr.reduced).length === 0 && s.undo.length === 0) {
        s.flow.pop();
        runSupply(s, fr.stage + 1);
      }
    },
    prompt(s, f, seat) {
      const fr = f as LimitsFrame;
      if (seat === null || seat !== fr.side) {
        return { text: `${fr.side} (${roleOf(s, fr.side as Side)}) applies supply and exile limits.` };
      }
      const ex = excessAreas(s, seat, fr.reduced);
      return ex.length === 0
        ? { text: 'All limits are met: confirm, or undo a reduction.' }
        : {
            text: 'Too many blocks: in each area listed, choose blocks to lose one step each (7.1, 7.2).',
            areas: ex.map((e) => ({ area: e.area, losses: e.over, blocks: e.blocks.map((b) => BLOCKS[b]!.id) })),
          };
    },
  },
};
