/**
 * The rule options: each ambiguity of RULES.md §22 that changes play and has
 * another playable reading (stated or implied by §22, or left open by the
 * rulebook's text) is a named option,
 * declared on every scenario; the default is the proposed reading. README.md
 * lists which A-n is which option, and why the rest are fixed readings.
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
  /** A3: the double shot's second shot goes at the same target only, or at any legal target. */
  a3SecondShot: 'same' | 'any';
  /** A4: stationary Sharpshooters fire at range 2 or 3, or at 3 only. */
  a4Sharpshooters: '2-or-3' | '3-only';
  /** A6: the Brotherhood of the Sword's −1 Defence also against artillery fire and the Scorpion, or against other ranged attacks only. */
  a6Brotherhood: 'all-ranged' | 'not-artillery';
  /** A7: Line Infantry adds its Ranged attack to its melee attacks and counterattacks, or to its melee attacks only. */
  a7LineInfantry: 'melee-and-counter' | 'melee-only';
  /** A9: the Scorpion may fire from an enemy ZOC ('exempt'), or is barred like other shooters. */
  a9ScorpionZoc: 'exempt' | 'barred';
  /** A10: artillery with a Melee value may counterattack, or artillery never does. */
  a10ArtilleryCounter: 'melee-value' | 'never';
  /** A11: entering a forest ends the move, or only a start in forest limits the move to one hex. */
  a11Forest: 'entering-ends' | 'start-only';
  /** A20: hills between two units on hills do not block LOS, or hills always block. */
  a20Hills: 'see-over' | 'block';
  /** A33: artillery fire and the Scorpion may target a unit in smoke, or may not. */
  a33SmokeArtillery: 'may-target' | 'may-not';
  /** A35: all Defence modifiers add up, or a trench adds nothing where the terrain already gives a Defence bonus. */
  a35Trench: 'cumulative' | 'not-on-terrain';
  /** A1: the Vesanian infantry bonus also on counterattacks, or on melee attacks only. */
  a1VesaniaCounter: 'yes' | 'no';
  /** A5: the Lions' Defence bonus against any cavalry attack, or against cavalry melee attacks and counterattacks only. */
  a5Lions: 'any-attack' | 'melee';
  /** A18: entering an enemy ZOC does not stop movement, or ends the move. */
  a18EnterZoc: 'goes-on' | 'stops';
  /** A20: the −1 melee penalty whenever the defender is on a hill, or not when the attacker is on a hill too. */
  a20HillPenalty: 'always' | 'not-from-hill';
  /** A21: a line along the edge between two hexes is blocked only if both block, or if either does. */
  a21Edge: 'both' | 'either';
  /** A23: a retreat after a ranged or artillery attack must end farther from the attacker, or only not next to it. */
  a23RangedRetreat: 'farther' | 'not-adjacent';
  /** A30: infantry shields artillery of its hex against melee only, or against ranged attacks too. */
  a30Shield: 'melee' | 'melee-and-ranged';
  /** A32: a unit that passes the test when fire lands may leave or stay, or must leave if it can. */
  a32FireEscape: 'may-leave' | 'must-leave';
  /** A52: Domination is checked at the start of each player's own turn, or after every activation. */
  a52Domination: 'turn-start' | 'after-activation';
  /** A32: when fire lands, the firing player's own units in the hex do not test, or test like the enemy's. */
  a32FriendlyTest: 'no' | 'yes';
  /** A34: Sappers build only in a hex where every unit is infantry, or whatever else stands there. */
  a34Building: 'all-infantry' | 'any-hex';
  /** A36: fire or smoke may be placed on a hex holding the firer's own units, or not. */
  a36OwnHex: 'allowed' | 'not';
  /** A13: the hexes a charge passes through may be next to enemies, or must be out of every enemy ZOC. */
  a13ChargeZoc: 'allowed' | 'not';
  /** A24: a unit in a fort, bunker or trench hit without a critical success may still retreat of its own will, or stays. */
  a24Voluntary: 'may-retreat' | 'stays';
  /** A45: the unit sacrificed by For the Queen! scores its VP for the opponent, or scores nothing. */
  a45SacrificeVp: 'scores' | 'none';
  /** A42: Recovery never raises strength above the unit's starting strength, or above 4 (a block's four sides). */
  a42RecoveryCap: 'starting' | 'four';
  /** A17: a player may end the turn with markers unused, or only once no marker is left or no unit can be activated. */
  a17Unused: 'allowed' | 'every-marker';
  /** A2: in the group move each Regular Infantry may move one hex, or every one that can must move. */
  a2GroupMove: 'may' | 'all-must';
  /**
   * A29: artillery fire (normal ammunition) on a hex of several enemy units hits every one of them (§16.6),
   * or only the unit the attacker chooses, as for every other attack on a stack (§16.8 rule 1).
   */
  a29ArtilleryStack: 'whole-hex' | 'chosen-unit';
  /** A14: a detachment moves along one path, or may leave units behind on the way (each stops where it is left). */
  a14Split: 'one-path' | 'leave-on-the-way';
  /** A55: the budget is spent up to its limit, the rest lost; or the purchase goes on while any unit can still be bought. */
  a55Budget: 'up-to' | 'spend-down';
  /** A44: Withdrawal is issued after the defender's retreat or test (before any counterattack), or right after the roll and the loss. */
  a44Withdrawal: 'after-defender' | 'after-roll';
  /** A46: Until Death's melee attack hits the counterattacking unit, or any enemy the unit could attack in melee. */
  a46Target: 'counterattacker' | 'any-adjacent';
  /** A43: Pursuit's move into the vacated hex ignores ZOC tests, or needs one when the unit is in an enemy ZOC. */
  a43PursuitZoc: 'ignores' | 'tests';
  /** A41: Dominic's second activation of a unit may come later in the turn, or only right after its first. */
  a41SecondWhen: 'later' | 'right-after';
  /** A28: the counterattack hits the unit that made the attack, or any unit of the attacking hex the defender chooses. */
  a28CounterTarget: 'attacker' | 'any-unit';
  /** A25: an aiming marker helps in any later turn of its army, or in its army's next turn only (it goes at that turn's end). */
  a25MarkersLast: 'later' | 'next-turn';
  /** A8: Line Infantry's range stays exactly 2 in an enemy ZOC, or it may also shoot an adjacent enemy while in one. */
  a8LineInfantryRange: 'exactly-2' | 'adjacent-in-zoc';
  /** A12: "moved the maximum" is the type's base allowance, or as far as this activation allowed (a start in forest, a forced stop). */
  a12Maximum: 'allowance' | 'as-far-as-allowed';
  /** A19: a detachment receiving an order tests once with its lowest Discipline, or each unit tests and the order works for those that pass. */
  a19OrderTest: 'lowest' | 'each';
  /** A16: Idle Move's hex is not part of the activation's movement, or is its first hex. */
  a16IdleMove: 'apart' | 'first-hex';
  /** A26: artillery fire on a hex of several units makes one damage roll against each unit's Defence, or a roll for each unit. */
  a26Rolls: 'one' | 'per-unit';
  /** A15: the stacking limit holds in every hex entered, or only where a move ends (a full friendly hex may be passed through). */
  a15Stacking: 'every-hex' | 'end-only';
  /** A50: the attacker has taken the fort when one of its units is in it after an activation, or the moment one enters it. */
  a50FortTaken: 'after-activation' | 'on-entering';
  /** §6 (Herald's reading): a game where no army can win any more ends at once as a draw, or plays on (the rulebook has no other end). */
  noWinPossible: 'draw' | 'play-on';
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
  {
    name: 'a3SecondShot',
    type: 'string',
    values: ['same', 'any'],
    default: 'same',
    description: 'A3: the second shot of the Order of Virgo or the Guardians of Surculus goes at the same enemy unit (if still a legal target), or at any legal target.',
  },
  {
    name: 'a4Sharpshooters',
    type: 'string',
    values: ['2-or-3', '3-only'],
    default: '2-or-3',
    description: 'A4: Sharpshooters that have not moved fire at range 2 or 3, or at range 3 only (2 once they have moved).',
  },
  {
    name: 'a6Brotherhood',
    type: 'string',
    values: ['all-ranged', 'not-artillery'],
    default: 'all-ranged',
    description: "A6: the Brotherhood of the Sword's −1 Defence applies against every ranged attack, artillery fire and the Scorpion's included, or only against other ranged attacks.",
  },
  {
    name: 'a7LineInfantry',
    type: 'string',
    values: ['melee-and-counter', 'melee-only'],
    default: 'melee-and-counter',
    description: "A7: Line Infantry adds its Ranged attack (a bunker's +1 included) to its melee attacks and its counterattacks, or to its melee attacks only.",
  },
  {
    name: 'a9ScorpionZoc',
    type: 'string',
    values: ['exempt', 'barred'],
    default: 'exempt',
    description: 'A9: the Order of the Scorpion may fire while in an enemy ZOC (range 1 means adjacency), or is barred like other shooters.',
  },
  {
    name: 'a10ArtilleryCounter',
    type: 'string',
    values: ['melee-value', 'never'],
    default: 'melee-value',
    description: 'A10: artillery whose card has a Melee value may counterattack when attacked in melee, or artillery never counterattacks.',
  },
  {
    name: 'a11Forest',
    type: 'string',
    values: ['entering-ends', 'start-only'],
    default: 'entering-ends',
    description: 'A11: entering a forest hex ends the move (and a start in forest allows one hex), or only a start in forest limits the move to one hex.',
  },
  {
    name: 'a20Hills',
    type: 'string',
    values: ['see-over', 'block'],
    default: 'see-over',
    description: 'A20: hills between two units that both stand on hills do not block their line of sight, or hills between units always block.',
  },
  {
    name: 'a33SmokeArtillery',
    type: 'string',
    values: ['may-target', 'may-not'],
    default: 'may-target',
    description: 'A33: artillery fire and the Scorpion may target units in smoke (the smoke hex being the target), or may not fire at a hex in smoke.',
  },
  {
    name: 'a35Trench',
    type: 'string',
    values: ['cumulative', 'not-on-terrain'],
    default: 'cumulative',
    description: "A35: all Defence modifiers add up (a trench's +1 also in a fort, bunker or forest), or a trench adds nothing where the terrain already gives the unit a Defence bonus.",
  },
  {
    name: 'a1VesaniaCounter',
    type: 'string',
    values: ['yes', 'no'],
    default: 'yes',
    description: 'A1: the Vesanian infantry army bonus to Melee attack also applies to counterattacks, or to melee attacks only.',
  },
  {
    name: 'a5Lions',
    type: 'string',
    values: ['any-attack', 'melee'],
    default: 'any-attack',
    description: 'A5: the Lions of Vesania\'s Defence bonus applies against every attack by enemy cavalry (melee, ranged, counterattack), or against its melee attacks and counterattacks only.',
  },
  {
    name: 'a18EnterZoc',
    type: 'string',
    values: ['goes-on', 'stops'],
    default: 'goes-on',
    description: 'A18: entering an enemy ZOC does not stop movement (only leaving needs the test), or ends the unit\'s move there.',
  },
  {
    name: 'a20HillPenalty',
    type: 'string',
    values: ['always', 'not-from-hill'],
    default: 'always',
    description: 'A20: the −1 melee penalty applies whenever the defender stands on a hill, or not when the attacker stands on a hill too.',
  },
  {
    name: 'a21Edge',
    type: 'string',
    values: ['both', 'either'],
    default: 'both',
    description: 'A21: a line of sight running exactly along the edge between two hexes is blocked only if both hexes block, or if either of them blocks.',
  },
  {
    name: 'a23RangedRetreat',
    type: 'string',
    values: ['farther', 'not-adjacent'],
    default: 'farther',
    description: 'A23: a unit retreating after a ranged, artillery or Scorpion attack must end farther from the attacker, or only not next to it (as after melee).',
  },
  {
    name: 'a30Shield',
    type: 'string',
    values: ['melee', 'melee-and-ranged'],
    default: 'melee',
    description: 'A30: infantry shields the artillery of its hex against melee attacks only, or against ranged attacks too.',
  },
  {
    name: 'a32FireEscape',
    type: 'string',
    values: ['may-leave', 'must-leave'],
    default: 'may-leave',
    description: 'A32: a unit that passes its test when fire lands on its hex may move one hex out or stay, or must move out if it can.',
  },
  {
    name: 'a52Domination',
    type: 'string',
    values: ['turn-start', 'after-activation'],
    default: 'turn-start',
    description: 'A52: an army holding the required forts wins Domination when its own turn starts, or as soon as it holds them after any activation.',
  },
  {
    name: 'a32FriendlyTest',
    type: 'string',
    values: ['no', 'yes'],
    default: 'no',
    description: "A32: when fire lands, the firing player's own units in the hex do not test (they still lose a step at the end of their turn), or test like the enemy's.",
  },
  {
    name: 'a34Building',
    type: 'string',
    values: ['all-infantry', 'any-hex'],
    default: 'all-infantry',
    description: 'A34: Sappers may build a trench or wire only where every unit in the hex is infantry, or whatever other units share the hex.',
  },
  {
    name: 'a36OwnHex',
    type: 'string',
    values: ['allowed', 'not'],
    default: 'allowed',
    description: "A36: Special Artillery may place fire or smoke on a hex that holds the firer's own units, or not.",
  },
  {
    name: 'a13ChargeZoc',
    type: 'string',
    values: ['allowed', 'not'],
    default: 'allowed',
    description: 'A13: the first two hexes of a charge may be next to enemy units, or must lie outside every enemy ZOC.',
  },
  {
    name: 'a24Voluntary',
    type: 'string',
    values: ['may-retreat', 'stays'],
    default: 'may-retreat',
    description: 'A24: a unit in a fort, bunker or trench hit without a critical success is never forced out but may still retreat of its own will, or it stays.',
  },
  {
    name: 'a45SacrificeVp',
    type: 'string',
    values: ['scores', 'none'],
    default: 'scores',
    description: "A45: the unit sacrificed by Vlad's For the Queen! counts as eliminated and the opponent scores its VP, or it is removed without scoring.",
  },
  {
    name: 'a42RecoveryCap',
    type: 'string',
    values: ['starting', 'four'],
    default: 'starting',
    description: "A42: Dominic's Recovery never raises a unit above its starting strength, or above 4 (the block's four sides).",
  },
  {
    name: 'a17Unused',
    type: 'string',
    values: ['allowed', 'every-marker'],
    default: 'allowed',
    description: 'A17: a player may end the turn with activation markers unused, or must use every marker while any unit can still be activated.',
  },
  {
    name: 'a2GroupMove',
    type: 'string',
    values: ['may', 'all-must'],
    default: 'may',
    description: "A2: in the Thargaton Regular Infantry group move each Regular Infantry not yet activated may move one hex, or every one that can move must move.",
  },
  {
    name: 'a43PursuitZoc',
    type: 'string',
    values: ['ignores', 'tests'],
    default: 'ignores',
    description: "A43: Dominic's Pursuit moves into the vacated hex without a ZOC test, or the unit tests first when it stands in an enemy ZOC (a failure stays and does not attack).",
  },
  {
    name: 'a41SecondWhen',
    type: 'string',
    values: ['later', 'right-after'],
    default: 'later',
    description: "A41: Dominic's special order activates the same unit a second time at any later point of the turn, or only right after its first activation.",
  },
  // New options go last: the fuzz draws the options from its seed in this order (optionsFromSeed).
  {
    name: 'a28CounterTarget',
    type: 'string',
    values: ['attacker', 'any-unit'],
    default: 'attacker',
    description: 'A28: a counterattack hits the unit that made the attack, even in a stack, or any unit of the attacking hex the defender chooses (knowing only its type unless revealed; infantry still shields artillery).',
  },
  {
    name: 'a25MarkersLast',
    type: 'string',
    values: ['later', 'next-turn'],
    default: 'later',
    description: "A25: an aiming marker helps its army's artillery firing at the hex in any later turn, or in the army's next turn only (the marker goes at the end of that turn).",
  },
  {
    name: 'a8LineInfantryRange',
    type: 'string',
    values: ['exactly-2', 'adjacent-in-zoc'],
    default: 'exactly-2',
    description: 'A8: Line Infantry in an enemy ZOC still shoots at exactly 2 hexes (an adjacent enemy only in melee), or may also shoot an adjacent enemy while in an enemy ZOC.',
  },
  {
    name: 'a12Maximum',
    type: 'string',
    values: ['allowance', 'as-far-as-allowed'],
    default: 'allowance',
    description: 'A12: a unit that "moved the maximum" (and so may not attack) moved its type\'s base allowance (2 infantry, 3 cavalry, 1 artillery), or as far as this activation allowed it: also one hex out of a forest start, or a move ended early by a stream, wire or forest.',
  },
  {
    name: 'a19OrderTest',
    type: 'string',
    values: ['lowest', 'each'],
    default: 'lowest',
    description: "A19: a detachment receiving an order (Alexandrus's Forced March) tests once with its lowest Discipline, or each unit tests and the order works for those that pass; the others stay where they are (as A18's 'each').",
  },
  {
    name: 'a16IdleMove',
    type: 'string',
    values: ['apart', 'first-hex'],
    default: 'apart',
    description: "A16: the hex of Lord Alexandrus's Idle Move is not part of the activation that follows, or it is that activation's first hex (it counts against the allowance and the \"moved the maximum\" limit; a passed ZOC test covers the activation).",
  },
  {
    name: 'a26Rolls',
    type: 'string',
    values: ['one', 'per-unit'],
    default: 'one',
    description: "A26: artillery fire's damage on a hex of several units is one 2d6 roll compared with each unit's own Defence (a critical hits or misses all), or a roll for each unit in turn (orders after a damage roll then act on that unit's roll).",
  },
  {
    name: 'a15Stacking',
    type: 'string',
    values: ['every-hex', 'end-only'],
    default: 'every-hex',
    description: 'A15: the stacking limit holds in every hex a move enters, or only where it ends: a moving unit or detachment may pass through a full friendly hex when it can surely step on out of it (allowance left, no forced stop there, no ZOC test still to take) and must then do so before anything else.',
  },
  {
    name: 'a50FortTaken',
    type: 'string',
    values: ['after-activation', 'on-entering'],
    default: 'after-activation',
    description: "A50: in Defence the attacker takes the fort when one of its units stands in it after an activation, or (§19's \"as soon as\") the moment one of its units enters it, even one only passing through or that leaves again in the same activation.",
  },
  {
    name: 'noWinPossible',
    type: 'string',
    values: ['draw', 'play-on'],
    default: 'draw',
    description: "§6, Herald's reading: once no army can meet its victory condition any more (Skirmish: neither can reach 10 VP from the enemy units left; Domination: neither has infantry enough to hold the forts; Behind Enemy Lines: the attacker has too few units left to break through and the defender cannot reach 15 VP), the game ends at once as a draw; or it plays on, as the rulebook gives no other end. Defence always ends by its turn limit.",
  },
  {
    name: 'a29ArtilleryStack',
    type: 'string',
    values: ['whole-hex', 'chosen-unit'],
    default: 'whole-hex',
    description: 'A29: artillery fire with normal ammunition hits every enemy unit of the target hex (§16.6, one roll against each, A26), or only the one unit the attacker chooses at the declaration, knowing its type only, as for every other attack on a stack (§16.8 rule 1); a miss lays its aiming marker on the hex as usual.',
  },
  {
    name: 'a46Target',
    type: 'string',
    values: ['counterattacker', 'any-adjacent'],
    default: 'counterattacker',
    description: "A46: Sister Anastasia's Until Death gives the unit about to be eliminated by a counterattack one melee attack on the counterattacking unit, or on any enemy unit it could attack in melee (the card names no target); either way not counterattacked, and then the unit is removed.",
  },
  {
    name: 'a44Withdrawal',
    type: 'string',
    values: ['after-defender', 'after-roll'],
    default: 'after-defender',
    description: "A44: Inquisitor Dominic's Withdrawal (\"right after the unit's melee attack is resolved\") is issued once the defender has taken its loss and retreated or tested, before any counterattack; or right after the attack's roll and loss, before the defender's retreat or test (the defender then retreats or tests as usual, but may not counterattack).",
  },
  {
    name: 'a14Split',
    type: 'string',
    values: ['one-path', 'leave-on-the-way'],
    default: 'one-path',
    description: 'A14: an activated detachment moves together along one path (a stack is split only by activating its units one by one, each with its own marker), or, as §9.3\'s "it may be split" may also be read, it may leave units behind on the way: each unit left stops in the hex where it is left, counts as activated and takes no part in the attack, while the others move on.',
  },
  {
    name: 'a55Budget',
    type: 'string',
    values: ['up-to', 'spend-down'],
    default: 'up-to',
    description: "A55: an army is bought for up to the budget (20 points unless the data says otherwise), unspent points lost; or, as the budget may also be read as points to be spent, the purchase may end only once no unit can be bought any more (every kind left too dear, out of blocks, or without room on the army's first row).",
  },
];

/** The options of a new game, defaults filled in; throws on anything the declaration refuses. */
export function readOptions(given: Record<string, unknown> = {}): RuleOptions {
  const checked = checkOptions(OPTION_DECLARATIONS, given);
  if (!checked.ok) throw new Error(checked.detail);
  return checked.options as unknown as RuleOptions;
}
