/**
 * What the state holds about commanders and orders (§7.7, §18): the armies'
 * choices, the orders issued this turn, paralysed units, what each seat has
 * looked at, and the order window open now (a moment of the flow at which
 * the active player may issue an order before play goes on).
 */
import type { Army, CommanderId } from './data-format.ts';

/** The 24 orders (§18.2); each commander's four, order no. 1 first (COMMANDER_ORDERS). */
export type OrderId =
  | 'discipline'
  | 'motivation'
  | 'finish-them'
  | 'dodge'
  | 'aiming-reroll'
  | 'forced-march'
  | 'defence'
  | 'idle-move'
  | 'reroll'
  | 'for-the-queen'
  | 'reconnaissance'
  | 'surge-of-strength'
  | 'second-activation'
  | 'recovery'
  | 'pursuit'
  | 'withdrawal'
  | 'look'
  | 'battle-frenzy'
  | 'paralysis'
  | 'ranged-reroll'
  | 'until-death'
  | 'take-aim'
  | 'fear';

export const COMMANDER_ORDERS: Readonly<Record<CommanderId, readonly OrderId[]>> = {
  'baron-maximilian': ['discipline', 'motivation', 'finish-them', 'dodge'],
  'lord-alexandrus': ['aiming-reroll', 'forced-march', 'defence', 'idle-move'],
  'vlad-kristofferson': ['reroll', 'for-the-queen', 'reconnaissance', 'surge-of-strength'],
  'inquisitor-dominic': ['second-activation', 'recovery', 'pursuit', 'withdrawal'],
  'cardinal-rafael': ['look', 'battle-frenzy', 'dodge', 'paralysis'],
  'sister-anastasia': ['ranged-reroll', 'until-death', 'take-aim', 'fear'],
};

/** One attack on its way (§16.2, §16.5) while an order may still change it. */
export interface AttackSpec {
  attacker: string;
  target: string;
  kind: 'melee' | 'ranged';
  charge: boolean;
  /** A hidden shooter (§16.8.3): logs name its hex, not its block. */
  hidden: boolean;
  /** Motivation, Take Aim: added to the attack value. */
  bonus: number;
  /** Steps a hit costs (Finish Them: 2). */
  damage: number;
  /** For the Queen!, Until Death: no counterattack may follow. */
  noCounter: boolean;
  /** The declaration's orders were offered already. */
  declared: boolean;
}

export interface Roll {
  a: number;
  b: number;
}

/** A moment at which the active player may issue an order before play goes on. */
export type OrderWindow =
  /** A melee or ranged attack declared, before its roll (Motivation, For the Queen!, Take Aim). */
  | { at: 'declared'; attack: AttackSpec }
  /** The attack rolled, before its result is applied (Finish Them, Vlad's and Anastasia's re-rolls). */
  | { at: 'rolled'; attack: AttackSpec; roll: Roll }
  /** The enemy goes into a counterattack, before its roll (Dodge, Defence). */
  | { at: 'counter-declared'; defender: string; attacker: string }
  /** The counterattack hit (Until Death if it will eliminate the unit, A46; the Baron's Dodge with A40 'after-roll'). */
  | { at: 'counter-hit'; defender: string; attacker: string }
  /** The defender may counterattack next (Withdrawal, A44); the counter decision waits in `pending`. */
  | { at: 'before-counter'; defender: string; attacker: string }
  /** An enemy retreated from the unit's melee attack (Pursuit, A43). */
  | { at: 'retreated'; unit: string; target: string; vacated: string }
  /**
   * Artillery fire's damage roll (resolved like a ranged attack, §16.6): Finish Them, Vlad's and Anastasia's re-rolls (A48).
   * With A26 'per-unit': `target`, the unit this roll is against, and `rest`, the units still to roll for.
   */
  | { at: 'damage-rolled'; unit: string; hex: string; roll: Roll; target?: string; rest?: string[] }
  /** A44 'after-roll': the unit's melee attack rolled and its loss taken, before the defender's retreat or test (Withdrawal). */
  | { at: 'melee-resolved'; attacker: string; defender: string }
  /** The unit's melee attack is over and no counterattack comes (Withdrawal, A44). */
  | { at: 'melee-settled'; attacker: string; defender: string }
  /** An aiming roll missed (Alexandrus's re-roll); `target`: A29 'chosen-unit', the unit the fire was aimed at. */
  | { at: 'aim-missed'; unit: string; hex: string; ammo: 'normal' | 'incendiary' | 'smoke'; die: number; markers: number; target?: string };

/** An order issued this turn (public: the order, the unit, whether it took effect). */
export interface IssuedOrder {
  army: Army;
  order: OrderId;
  /** The unit that received it (null for a hidden shooter's, whose block stays unknown). */
  unit: string | null;
  /** Whether it took effect (its tests passed). */
  ok: boolean;
}

/** What orders gave the current activation. */
export interface ActivationOrders {
  /** Forced March: extra hexes, no attack afterwards. */
  extraMove?: number;
  /** Surge of Strength: melee allowed after a full move. */
  surge?: boolean;
  /** Battle Frenzy: two melee attacks (A31). */
  frenzy?: boolean;
  /** Melee attacks made in this activation. */
  melees?: number;
  /** The melee attack under way (attacker, defender), until it settles: Withdrawal may follow it (A44). */
  melee?: { attacker: string; defender: string } | null;
  /** Dominic's second activation of a unit that used a special ability in its first (A41): none now. */
  second?: boolean;
}

export interface OrdersState {
  /** Each army's three commanders, copied from the data (D4, A38). */
  choices: Record<Army, CommanderId[]>;
  /** Chosen behind the screen (A37). */
  commander: Record<Army, CommanderId | null>;
  /** A37 'first-order': whether the army has issued an order yet. */
  shown: Record<Army, boolean>;
  /** Orders issued this turn, order no. 1 included. */
  issued: IssuedOrder[];
  /** Paralysis: the unit may not be activated in the turn numbered `turn`. */
  paralysed: { unit: string; turn: number }[];
  /** Enemy units whose kind the seat alone has looked at (Reconnaissance, Rafael's look). */
  learned: Record<Army, string[]>;
  window: OrderWindow | null;
  /** Dominic's army: units that used a special ability this turn (charge, special action, second shot, Aquarius move and attack; A41). */
  abilities: string[];
}

export function newOrdersState(choices: Record<Army, CommanderId[]>): OrdersState {
  return {
    choices: { Thargaton: [...choices.Thargaton], Vesania: [...choices.Vesania] },
    commander: { Thargaton: null, Vesania: null },
    shown: { Thargaton: false, Vesania: false },
    issued: [],
    paralysed: [],
    learned: { Thargaton: [], Vesania: [] },
    window: null,
    abilities: [],
  };
}
