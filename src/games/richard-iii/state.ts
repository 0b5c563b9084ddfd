/**
 * The Richard III game state: plain JSON, documented field by field in README.md.
 *
 * Blocks are stored as parallel arrays indexed by BLOCK_INDEX (the order of
 * data/blocks.json) so that copying a state for apply() is three slices, not 63
 * object copies. Everything the flow needs lives in `flow`, a stack of named
 * states (the rules as a flow chart, see INTERPRETATIONS.md §L): the top frame
 * says who must act and what they may do.
 */
import type { RngState } from '../../engine/rng.ts';
import type { LogChange as EngineLogChange, Message } from '../../engine/types.ts';
import { cloneJson } from '../../engine/json.ts';
import { AREA, BLOCK, BLOCKS, NUM_BLOCKS, type Side } from './data.ts';
import type { Whereabouts } from './whereabouts.ts';

/** Where a block is: an area id, or one of these off-map places. */
export type OffMap = 'pool' | 'minor' | 'off' | 'dead';
// 'pool'  — owner's pool (for the Rebel: the current Pretender's pool). `down` marks face-down.
// 'minor' — a minor heir not yet in play.
// 'off'   — the off-map version of a two-version block (the other version is in play,
//           in a pool, a minor, or dead), or a disbanded Rebel awaiting campaign reset.
// 'dead'  — permanently eliminated.

/** What a block did this game turn (it may act only once, 5.2/5.3/5.4). */
export const Acted = { None: 0, Moved: 1, SeaMoved: 2, Recruited: 3 } as const;

export interface LogEntry {
  /** Text every seat (and spectators) may see (English; the engine's own record). */
  pub: string;
  /** The same line as a message, for any language (absent in logs written before messages existed). */
  m?: Message;
  /** Fuller text for one side only (e.g. which block was recruited), and its message. */
  own?: { side: Side; text: string; m?: Message };
}

/** Movement bookkeeping for an area where a battle is pending (6.3, 5.22). */
export interface Attack {
  attacker: Side;
  /** Where the Main Attack came from: a land area id or a sea zone id (Piracy, G-8). */
  main: string | null;
  /** Distinct entry points (land area ids or sea zone ids) each side used to enter this area this turn. */
  entries: { York: string[]; Lancaster: string[] };
  /** Block indexes that entered as Reserves (6.3). */
  reserves: number[];
  /** Block indexes that arrived by Piracy sea move (retreat/regroup only by sea). */
  pirates: number[];
}

/** One frame of the flow stack. `s` is the named state (INTERPRETATIONS.md §L). */
export interface Frame {
  s: string;
  /** Who acts in this frame; 'both' for simultaneous hidden choices (card play, redeal offer). */
  side: Side | 'both' | null;
  [k: string]: unknown;
}

export type UndoSnapshot = Omit<R3State, 'undo' | 'log'> & { undo: []; log: []; logLength: number };

/**
 * An undo entry after the first: the snapshot it stands for, as what differs
 * from the entry before it (undo.ts). `set` holds whole fields; `at` holds
 * changed elements of block arrays as [index, value] pairs.
 */
export interface UndoDiff {
  set: Partial<UndoSnapshot>;
  at: Partial<Record<keyof UndoSnapshot, [number, unknown][]>>;
  logLength: number;
}

export type UndoEntry = UndoSnapshot | UndoDiff;

/** The log's length after the change that made s. */
export const logLength = (s: R3State): number => s.logFrom + s.log.length;

export interface R3State {
  game: 'richard-iii';
  v: 1;
  scenario: string;
  rng: RngState;

  campaign: number;
  endCampaign: number;
  /** Game turn within the campaign, 1..7 (= 8 − cards in hand before the card is played). */
  turn: number;
  /** Side holding the throne. */
  king: Side;
  /** Current King / Pretender block index per side; null from a death until the next succession (6.81). */
  crown: { York: number | null; Lancaster: number | null };
  /**
   * Kingmaker scenario: Henry VI held in the Tower (block index), or null. A prisoner is
   * face-down (s.down), cannot move or fight, does not count for control, but counts for
   * usurpation; he is freed when Lancaster alone occupies Middlesex.
   */
  prisoner: number | null;
  /** Heir deaths (per side) whose minor replacement enters at the next Supply Phase (6.82). */
  heirsToEnter: { York: number; Lancaster: number };

  /** Block arrays, indexed by BLOCK_INDEX. */
  loc: string[];
  steps: number[];
  /** Face-down: eliminated this campaign (pool or home exile), or the Kingmaker prisoner. */
  down: boolean[];
  /** What each block did this game turn (Acted). */
  acted: number[];

  /** Cards not dealt this campaign (secret: nobody sees them). */
  deck: string[];
  hands: { York: string[]; Lancaster: string[] };
  /** Card played face-down this turn; visible to its owner, to the opponent only once both are revealed. */
  played: { York: string | null; Lancaster: string | null };
  revealed: boolean;
  /** Redeal demanded this campaign (5.1). */
  mulligan: { York: boolean; Lancaster: boolean };
  /** Player 1 of this game turn, once cards are revealed. */
  p1: Side | null;

  /** Border crossings this game turn, keyed `${borderId}|${side}` (5.21). */
  borderUse: Record<string, number>;
  /** Pending battles by area id (set by movement, consumed by the battle phase). */
  attacks: Record<string, Attack>;
  /** Side holding an unused Treason-card roll this game turn. */
  treason: Side | null;

  flow: Frame[];
  /**
   * The log lines the change that made this state wrote (apply() starts each
   * change with an empty list). The state does not keep the whole log, which
   * would make every state grow with the game: the log is the fold of these
   * changes, each replacing the lines from `logFrom` on (see logChange).
   */
  log: LogEntry[];
  /**
   * Where `log` starts: the log's length before the change, except after an
   * undo, which takes back the lines written since its snapshot (logFrom is
   * then the snapshot's length and `log` is empty).
   */
  logFrom: number;
  /**
   * Snapshots for undo, one per undoable action (never shown to anyone); cleared when dice
   * roll or information is revealed. Each stands for the earlier state with an empty undo
   * stack and its log replaced by the log's length then (restoring keeps the first
   * logLength lines); the first is stored whole, the others as what differs from the one
   * before (undo.ts).
   */
  undo: UndoEntry[];
  result: { winner: Side | null; reason: string } | null;
  /**
   * What each seat may know of where the other's blocks stand, from public facts
   * (whereabouts.ts); absent in games stored before it existed (nothing tracked).
   */
  whereabouts?: Whereabouts;
}

/* ----------------------------------------------------------------- helpers */

/** The side a block fights for now (the Rebel serves the Pretender). */
export function ownerOf(s: R3State, b: number): Side {
  const side = BLOCKS[b]!.side;
  if (side === 'Rebel') return s.king === 'York' ? 'Lancaster' : 'York';
  return side;
}

export const isOnMap = (s: R3State, b: number): boolean => AREA[s.loc[b]!] !== undefined;

/** Blocks standing in an area (face-down blocks included; filter with s.down when needed). */
export function blocksIn(s: R3State, area: string): number[] {
  const out: number[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) if (s.loc[b] === area) out.push(b);
  return out;
}

export type AreaStatus = 'friendly' | 'enemy' | 'vacant' | 'contested';

/** Area status from one side's point of view (2.1); face-down blocks are ignored (INTERPRETATIONS 57). */
export function areaStatus(s: R3State, area: string, side: Side): AreaStatus {
  let mine = false, theirs = false;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.loc[b] !== area || s.down[b]) continue;
    if (ownerOf(s, b) === side) mine = true; else theirs = true;
  }
  return mine ? (theirs ? 'contested' : 'friendly') : theirs ? 'enemy' : 'vacant';
}

export const top = (s: R3State): Frame => s.flow[s.flow.length - 1]!;

/** Deep copy of a JSON value (engine/json.ts: several times faster than structuredClone or a JSON round trip for small values). */
export const copyJson = cloneJson;

export { sameJson } from '../../engine/json.ts';

/**
 * A copy of the state that apply() may mutate freely. Arrays of primitives are
 * sliced, small nested records copied. The log and the undo stack are only ever
 * appended to or truncated, and their entries are never mutated, so they are
 * copied shallowly.
 */
export function cloneState(s: R3State): R3State {
  // An explicit literal in the field order of setup: about 3x faster than a spread,
  // and the type checker flags a field that is added to R3State but not copied here.
  const out: R3State = {
    game: s.game,
    v: s.v,
    scenario: s.scenario,
    rng: [s.rng[0], s.rng[1], s.rng[2], s.rng[3]],
    campaign: s.campaign,
    endCampaign: s.endCampaign,
    turn: s.turn,
    king: s.king,
    crown: { York: s.crown.York, Lancaster: s.crown.Lancaster },
    prisoner: s.prisoner,
    heirsToEnter: { York: s.heirsToEnter.York, Lancaster: s.heirsToEnter.Lancaster },
    loc: s.loc.slice(),
    steps: s.steps.slice(),
    down: s.down.slice(),
    acted: s.acted.slice(),
    deck: s.deck.slice(),
    hands: { York: s.hands.York.slice(), Lancaster: s.hands.Lancaster.slice() },
    played: { York: s.played.York, Lancaster: s.played.Lancaster },
    revealed: s.revealed,
    mulligan: { York: s.mulligan.York, Lancaster: s.mulligan.Lancaster },
    p1: s.p1,
    borderUse: { ...s.borderUse },
    attacks: copyJson(s.attacks),
    treason: s.treason,
    flow: copyJson(s.flow),
    log: s.log.slice(),
    logFrom: s.logFrom,
    undo: s.undo.slice(),
    result: s.result ? { ...s.result } : null,
  };
  // Replaced whole by each update (whereabouts.ts), never mutated: shared.
  if (s.whereabouts) out.whereabouts = s.whereabouts;
  return out;
}

/** One change to the log: cut it to `from` lines, then append `entries`. */
export type LogChange = EngineLogChange<LogEntry>;

/** What the change that made s did to the log. */
export function logChange(s: R3State): LogChange {
  return { from: s.logFrom, entries: s.log };
}

export const blockId = (b: number): string => BLOCKS[b]!.id;
export const blockData = (id: string) => BLOCK[id]!;

/** Appends a log line: its English text and its message, and optionally a fuller line for one side only. */
export function addLog(s: R3State, pub: string, m: Message, own?: { side: Side; text: string; m: Message }): void {
  s.log.push(own ? { pub, m, own } : { pub, m });
}
