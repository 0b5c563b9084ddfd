/**
 * The state of one Black & White game: plain JSON, self-contained (the
 * scenario, the 18 kind cards, the aiming table, the board and the marker
 * counts are copied in at setup, so a stored game never depends on the
 * server's data file changing), immutable between actions (apply copies it).
 */
import type { RngState } from '../../engine/rng.ts';
import type { Message } from '../../engine/types.ts';
import { cloneJson } from '../../engine/json.ts';
import type { Army, BoardData, Feature, KindCard, KindId, ScenarioData, UnitType } from './data-format.ts';
import type { RuleOptions } from './options.ts';
import type { ActivationOrders, OrdersState } from './orders-state.ts';

export type { Army };

/** One block on the board (created when deployment ends). */
export interface Unit {
  /** "T01", "V07": numbered from public facts (hex, type) and the seeded RNG, never from purchase order. */
  id: string;
  army: Army;
  kind: KindId;
  type: UnitType;
  /** Hex id "column,row"; null once eliminated. */
  hex: string | null;
  strength: number;
  /** The opponent knows its kind (attack, special action, defence after the roll, a kind-only move; A54). */
  revealed: boolean;
}

/** An aiming marker (§16.6, A25): the hex, whose it is and which artillery unit laid it. */
export interface AimingMarker {
  hex: string;
  army: Army;
  by: string;
  /** The unit aimed at when it was laid (A25 'target-moves' removes it when that unit moves). */
  target: string | null;
  /** The turn it was laid in: only with A25 'next-turn' (a25MarkersLast), which lets it help in its army's next turn alone. */
  turn?: number;
}

/** The activation being made (§9). */
export interface Activation {
  /** The unit, or the detachment's units (A14), that move together. */
  units: string[];
  /** Hexes entered so far this activation. */
  moved: number;
  /** Movement ended (stream, wire, forest, ZOC test failed, attack made). */
  stopped: boolean;
  /** Started in a forest hex: at most one hex (A11). */
  fromForest: boolean;
  /** 'passed' covers the whole activation (A18); 'failed' forbids moving but not attacking. */
  zoc: 'none' | 'passed' | 'failed';
  /** Entered wire this activation: no attack afterwards (§12.2). */
  noAttack: boolean;
  /** A charge: moved in a straight line, the next attack gets the charge bonus (§10.4). */
  charge: boolean;
  /** An attack was made (one per activation, except double shots). */
  attacked: boolean;
  /** Order of Virgo / Guardians of Surculus: the second shot (A3), while it may still be fired. */
  secondShot: { unit: string; target: string } | null;
  /** Hexes the activation's units were in at its start (for A25 markers and ZOC). */
  startHex: string;
  /** Regular Infantry group move (A2): the units that may still move their one hex; null otherwise. */
  groupMove: string[] | null;
  /** What orders gave this activation (§18; orders-state.ts); absent without any. */
  orders?: ActivationOrders;
}

/** Why a unit must decide about retreating, and from where the retreat is measured (A23). */
export type RetreatCause = 'melee' | 'ranged' | 'artillery' | 'fire' | 'counter';

/**
 * A decision the other seat (usually the defender) must take before play goes
 * on (§16.2–§16.5, §12.3). While one is pending, activeRoles is that seat.
 */
export interface PendingDecision {
  /** Who decides. */
  army: Army;
  /** The unit it concerns. */
  unit: string;
  /**
   * 'after-hit': retreat, or stand (then a command test decides, A24);
   * 'must-retreat': choose a retreat hex (command test failed or forced);
   * 'counter': counterattack or not (the test was passed, or A22's missed defender);
   * 'fire-escape': the fire-landing test was passed: move 1 hex out or stay (A32).
   */
  step: 'after-hit' | 'must-retreat' | 'counter' | 'fire-escape';
  cause: RetreatCause;
  /** The attacking unit (melee: its hex's ZOC must be left; ranged: distance grows from it). */
  from: string;
  fromHex: string;
  /** A fort, bunker or trench defender hit without a critical success (A24): the test decides the counter only. */
  fortified: boolean;
  /** Melee: a counterattack may follow a passed test. */
  mayCounter: boolean;
}

/** One entry of the game log: a message for each audience. */
export interface LogEntry {
  /** What both seats (and spectators) may read. */
  pub: Message;
  /** What a seat reads instead (it names that seat's own hidden kinds). */
  by?: Partial<Record<Army, Message>>;
}

export type Phase = 'purchase' | 'deploy' | 'play' | 'over';

/** The state before an undoable action, without what never changes (undo.ts). */
export interface UndoSnapshot {
  state: Omit<BWState, 'undo' | 'log' | 'scenario' | 'board' | 'kinds' | 'aiming' | 'markerCaps'>;
  logLength: number;
  /** The army that acted (only it may undo). */
  by: Army;
}

export interface BWState {
  game: 'black-and-white';
  /** The data file's title and whether its numbers are invented (shown in every view). */
  dataTitle: string;
  invented: boolean;
  scenario: ScenarioData;
  board: BoardData;
  kinds: KindCard[];
  aiming: { '2': number; '3': number; '4': number };
  markerCaps: { special: number; trench: number; wire: number; fire: number; smoke: number };
  budget: number;
  options: RuleOptions;
  rng: RngState;
  phase: Phase;

  /** Secret purchase (§7, A55): kinds bought, in the order bought; `done` once a seat has finished. */
  bought: Record<Army, KindId[]>;
  /** Hidden deployment (A56): each bought unit's hex, by index into `bought`; null = not yet placed. */
  placed: Record<Army, (string | null)[]>;
  done: Record<Army, boolean>;

  units: Unit[];
  /** Kind cards lying face up (A54): kinds the opponent has been shown, even where the block stayed hidden (§16.8.3). */
  cardsShown: Record<Army, KindId[]>;
  /** Features laid during play or printed on the scenario's map (§12). */
  features: Record<string, Feature[]>;
  aimingMarkers: AimingMarker[];

  /** Whose turn, how many turns each army has started, and the turn's limits (§8). */
  player: Army | null;
  turn: number;
  markers: Record<Army, number>;
  markersLeft: number;
  /** Units activated this turn (each once, §8). */
  activated: string[];
  /**
   * Of these, units the opponent has not seen picked out: activated in a hex
   * that holds other friendly units and not yet moved, attacked in melee or
   * revealed (a shot from a stack names only the hex, §16.8.3).
   */
  unseen: string[];
  artilleryUsed: boolean;
  act: Activation | null;
  /** Decisions waiting, first first (several units hit by one artillery shot decide in turn, A26). */
  pending: PendingDecision[];
  /** Commanders and their orders (§18; orders-state.ts). */
  orders: OrdersState;

  vp: Record<Army, number>;
  /** Defence: attacker turns completed (A50). */
  attackerTurns: number;
  /** Behind Enemy Lines, A51 'cumulative': units that ever stood on an arrow hex. */
  brokeThrough: string[];
  result: { winner: Army | null; reason: string } | null;

  /** Log entries this change wrote, and the log's length before them (engine LogChange). */
  log: LogEntry[];
  logFrom: number;
  /** States before each undoable action since the last roll or reveal (§ undo.ts). */
  undo: UndoSnapshot[];
}

export const other = (a: Army): Army => (a === 'Thargaton' ? 'Vesania' : 'Thargaton');

/** A deep copy (engine/json.ts cloneJson: ~1.7× faster games than structuredClone, bench:engine). */
export const copyJson = cloneJson;

/** Equal as JSON values, whatever the order of object keys (a stored action replays): engine/json.ts. */
export { sameJson } from '../../engine/json.ts';

/** A copy apply may change; the undo stack's snapshots are immutable and shared. */
export function cloneState(s: BWState): BWState {
  const { undo, scenario, board, kinds, aiming, markerCaps, ...rest } = s;
  // The copied-in data never changes during a game: shared, not copied.
  return { ...copyJson(rest), undo: undo.slice(), scenario, board, kinds, aiming, markerCaps };
}

export const logLength = (s: BWState): number => s.logFrom + s.log.length;

export function unitById(s: BWState, id: string): Unit {
  const u = s.units.find((x) => x.id === id);
  if (!u) throw new Error(`no unit ${id}`);
  return u;
}

export function kindCard(s: BWState, kind: KindId): KindCard {
  const k = s.kinds.find((c) => c.id === kind);
  if (!k) throw new Error(`no kind ${kind}`);
  return k;
}

/** Units standing on a hex (eliminated ones have no hex). */
export const unitsAt = (s: BWState, hex: string): Unit[] => s.units.filter((u) => u.hex === hex);
