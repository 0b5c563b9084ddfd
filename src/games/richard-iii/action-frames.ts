/**
 * The frames of the Action Phase (INTERPRETATIONS §L1) and what they carry.
 * Kept apart from the handlers so that every action-phase module can read the
 * phase's AP and activations without importing the handler table.
 */
import type { CardData, Side } from './data.ts';
import type { R3State } from './state.ts';

export type EventKind = NonNullable<CardData['event']>;

/**
 * The base frame of one player's Action Phase for an action card or for
 * Force March, Surprise, Treason or Piracy. (Muster and Plague have their own
 * base frames, muster.ts / plague.ts.)
 */
export interface PhaseFrame {
  s: 'action_phase';
  side: Side;
  /** Marks the frame that 'end' pops down to. */
  phase: true;
  /** The event of the played card, or null for an action card (5.1). */
  ev: EventKind | null;
  /** AP left (5.0). */
  ap: number;
  /** Areas activated for a group move this phase (5.2): their blocks move without further AP. */
  active: string[];
  /** Port-to-port followers (5.31): free sea moves left per "from|to" major-port pair. */
  ports: Record<string, number>;
  [k: string]: unknown;
}

/** A block chosen for a land or sea move; it moves one area per 'step' (5.2). */
export interface MoveFrame {
  s: 'move_to';
  side: Side;
  block: string;
  /**
   * The areas it has stood in this move, starting area first; its current area is
   * the last. path.length - 1 steps taken; path[length - 2] is the area it just left
   * (no stepping straight back, INTERPRETATIONS 6).
   */
  path: string[];
  [k: string]: unknown;
}

/** A block crossing a sea zone: choose where it lands (5.3). */
export interface SeaFrame {
  s: 'sea_move_to';
  side: Side;
  block: string;
  from: string;
  zone: string;
  [k: string]: unknown;
}

/** A pool block being recruited: choose where it is placed (5.4). */
export interface RecruitFrame {
  s: 'recruit_where';
  side: Side;
  block: string;
  [k: string]: unknown;
}

/** The innermost Action Phase base frame (action_phase), or null under Muster/Plague. */
export function phaseOf(s: R3State): PhaseFrame | null {
  for (let i = s.flow.length - 1; i >= 0; i--) {
    const f = s.flow[i]!;
    if (f.s === 'action_phase') return f as unknown as PhaseFrame;
    if (f['phase'] === true) return null;
  }
  return null;
}

/** Land group moves are allowed by action cards and the "move one group" events. */
export const allowsGroup = (p: PhaseFrame): boolean => p.ev !== 'piracy';
/** Sea moves: action cards, Surprise (one normal sea move) and Piracy (only sea moves). */
export const allowsSea = (p: PhaseFrame): boolean => p.ev === null || p.ev === 'surprise' || p.ev === 'piracy';
/** Recruiting: only an action card's AP (the event cards' AP serve only their event, 5.1). */
export const allowsRecruit = (p: PhaseFrame): boolean => p.ev === null;
/** Areas a block may move by land: 3 with Force March, else 2 (5.2). */
export const maxSteps = (p: PhaseFrame): number => (p.ev === 'force-march' ? 3 : 2);
/** Surprise raises every border limit by one for its group (card text). */
export const borderBonus = (p: PhaseFrame): number => (p.ev === 'surprise' ? 1 : 0);
