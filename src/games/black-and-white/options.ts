/**
 * The rule options: each ambiguity of RULES.md §22 that changes play and that
 * §22 gives another reading for is a named option, declared on every
 * scenario; the default is the proposed reading. README.md lists which A-n is
 * which option and which are fixed readings.
 */
import { checkOptions } from '../../engine/options.ts';
import type { OptionDeclaration } from '../../engine/types.ts';

export interface RuleOptions {
  /** A1: the infantry army bonus counts the unit itself ('self': +1/+2/+3) or only the others ('others': 0/+1/+2). */
  a1StackBonus: 'self' | 'others';
  /** A18: a detachment leaving an enemy ZOC tests once with its lowest Discipline, or each unit tests and those that fail stay. */
  a18ZocTest: 'lowest' | 'each';
  /** A22: a missed defender may not counterattack ('no'), or may without a test ('yes'). */
  a22CounterAfterMiss: boolean;
  /** A24: a fortified defender hit by a critical success tests as usual ('test'), or must retreat ('forced'). */
  a24Fortified: 'test' | 'forced';
  /** A25: aiming markers go when the artillery that laid them moves, or when the target unit moves. */
  a25MarkersRemoved: 'artillery-moves' | 'target-moves';
  /** A27: aiming markers come from the spare special markers ('spare'), or are unlimited. */
  a27AimingSupply: 'spare' | 'unlimited';
  /** A36: Special Artillery may aim at a hex without enemies only with incendiary or smoke ('special'), or with any ammunition ('any'). */
  a36EmptyHexAmmo: 'special' | 'any';
  /** A49: VP for an elimination: the card's value (its cost when the data gives none), or always the cost. */
  a49Vp: 'value' | 'cost';
  /** A51: three units on arrow hexes at once, or each unit that ever reached one counts. */
  a51Breakthrough: 'simultaneous' | 'cumulative';
  /** A54: a revealed kind stays known, or is hidden again at the end of the turn. */
  a54Revealed: 'keep' | 'hide';
  /** §7.7, §18: play with commanders and their orders (the rulebook recommends without for the first games). */
  commanders: boolean;
  /** A37: the commanders are public once deployment ends, or each stays secret until its first order. */
  a37Commander: 'public' | 'first-order';
  /** A40: the Baron's Dodge is issued after the counterattack is declared, before its roll, or once it has hit. */
  a40BaronDodge: 'before-roll' | 'after-roll';
  /** A47: Fear also moves a unit out of a fort, bunker or trench ('yes'), or not ('no'). */
  a47FearFortified: 'yes' | 'no';
  /** A48: Sister Anastasia's re-roll covers every failed ranged attack incl. the Scorpion's ('any'), or not the Scorpion's ('not-artillery'). */
  a48ReRoll: 'any' | 'not-artillery';
}

export const OPTION_DECLARATIONS: readonly OptionDeclaration[] = [
  {
    name: 'a1StackBonus',
    type: 'string',
    values: ['self', 'others'],
    default: 'self',
    description: 'A1: the infantry army bonus counts every friendly infantry unit in the hex including the unit itself (+1/+2/+3), or only the others (0/+1/+2).',
  },
  {
    name: 'a18ZocTest',
    type: 'string',
    values: ['lowest', 'each'],
    default: 'lowest',
    description: 'A18: a detachment leaving an enemy ZOC tests once with its lowest Discipline, or each unit tests and those that fail stay behind.',
  },
  {
    name: 'a22CounterAfterMiss',
    type: 'boolean',
    default: false,
    description: 'A22: a defender that was missed in melee may counterattack without a command test.',
  },
  {
    name: 'a24Fortified',
    type: 'string',
    values: ['test', 'forced'],
    default: 'test',
    description: 'A24: a unit in a fort, bunker or trench hit by a critical success retreats or tests as usual, or is forced to retreat.',
  },
  {
    name: 'a25MarkersRemoved',
    type: 'string',
    values: ['artillery-moves', 'target-moves'],
    default: 'artillery-moves',
    description: 'A25: aiming markers are removed when the artillery unit that laid them moves, or when the unit aimed at moves.',
  },
  {
    name: 'a27AimingSupply',
    type: 'string',
    values: ['spare', 'unlimited'],
    default: 'spare',
    description: 'A27: aiming markers come from the special markers left after both armies took theirs, or are unlimited.',
  },
  {
    name: 'a36EmptyHexAmmo',
    type: 'string',
    values: ['special', 'any'],
    default: 'special',
    description: 'A36: Special Artillery may aim at a hex without enemy units only with incendiary or smoke ammunition, or with any ammunition.',
  },
  {
    name: 'a49Vp',
    type: 'string',
    values: ['value', 'cost'],
    default: 'value',
    description: "A49: an eliminated unit scores its card's value (its cost where the data gives none), or always its cost.",
  },
  {
    name: 'a51Breakthrough',
    type: 'string',
    values: ['simultaneous', 'cumulative'],
    default: 'simultaneous',
    description: 'A51: the breakthrough needs three units on arrow hexes at the same time, or counts every unit that ever reached one.',
  },
  {
    name: 'a54Revealed',
    type: 'string',
    values: ['keep', 'hide'],
    default: 'keep',
    description: "A54: a revealed unit's kind stays known to the opponent, or is hidden again at the end of the turn.",
  },
  {
    name: 'commanders',
    type: 'boolean',
    default: false,
    description: 'Play with commanders and their orders (§18); the rulebook recommends playing without them in the first games.',
  },
  {
    name: 'a37Commander',
    type: 'string',
    values: ['public', 'first-order'],
    default: 'public',
    description: "A37: each army's commander is chosen behind the screen and is public once deployment ends, or stays secret until it issues its first order.",
  },
  {
    name: 'a40BaronDodge',
    type: 'string',
    values: ['before-roll', 'after-roll'],
    default: 'before-roll',
    description: "A40: Baron Maximilian's Dodge is issued after the enemy declares its counterattack, before the roll (as Rafael's), or right after the counterattack has hit.",
  },
  {
    name: 'a47FearFortified',
    type: 'string',
    values: ['yes', 'no'],
    default: 'yes',
    description: 'A47: Sister Anastasia\'s Fear also drives a unit out of a fort, bunker or trench (it is not an attack), or does not.',
  },
  {
    name: 'a48ReRoll',
    type: 'string',
    values: ['any', 'not-artillery'],
    default: 'any',
    description: "A48: Sister Anastasia's special re-roll covers every failed ranged attack of her army, the Order of the Scorpion's included, or not the artillery's.",
  },
];

/** The options of a new game, defaults filled in; throws on anything the declaration refuses. */
export function readOptions(given: Record<string, unknown> = {}): RuleOptions {
  const checked = checkOptions(OPTION_DECLARATIONS, given);
  if (!checked.ok) throw new Error(checked.detail);
  return checked.options as unknown as RuleOptions;
}
