/**
 * The shape of a Black & White data file: the numbers the rulebook does not
 * print (RULES.md §20, D1–D11), which an owner of the game types in from the
 * physical cards, board and scenario cards. Herald never ships the real
 * values: a server is told where its data file lives by configuration, and
 * the file that comes with Herald is invented and says so (`invented: true`,
 * and every scenario title says "invented").
 *
 * Everything the rules fix (which kinds exist, their types and special
 * abilities, the commanders' orders, the families' victory conditions) is in
 * the rules code, not here; the data file only gives numbers and layouts, and
 * the loader checks it against these types and against the rules' lists.
 */

/** The two armies, which are also the two seats (roles) of a game. */
export type Army = 'Thargaton' | 'Vesania';
export const ARMIES: readonly Army[] = ['Thargaton', 'Vesania'];
/** Thargaton plays black, Vesania white (RULES.md §1). */
export const COLOUR: Readonly<Record<Army, 'black' | 'white'>> = { Thargaton: 'black', Vesania: 'white' };

export type UnitType = 'infantry' | 'cavalry' | 'artillery';

/** The nine kinds of each army (RULES.md §4.2, §4.3), with the type the rules give each. */
export const KINDS = {
  Thargaton: {
    'regular-infantry': 'infantry',
    'line-infantry': 'infantry',
    sharpshooters: 'infantry',
    sappers: 'infantry',
    'regular-cavalry': 'cavalry',
    'light-cavalry': 'cavalry',
    'heavy-cavalry': 'cavalry',
    'regular-artillery': 'artillery',
    'special-artillery': 'artillery',
  },
  Vesania: {
    'order-of-aquarius': 'infantry',
    'brotherhood-of-the-sword': 'infantry',
    'order-of-virgo': 'infantry',
    'lions-of-vesania': 'infantry',
    'sirens-of-vesania': 'cavalry',
    'guardians-of-surculus': 'cavalry',
    'iron-order': 'cavalry',
    'order-of-capricorn': 'artillery',
    'order-of-the-scorpion': 'artillery',
  },
} as const satisfies Record<Army, Record<string, UnitType>>;

export type KindId = keyof (typeof KINDS)['Thargaton'] | keyof (typeof KINDS)['Vesania'];

/** The three commanders of each army (RULES.md §4.4; the assignment is inferred, A38, so the data file states it). */
export const COMMANDERS = [
  'baron-maximilian',
  'lord-alexandrus',
  'vlad-kristofferson',
  'inquisitor-dominic',
  'cardinal-rafael',
  'sister-anastasia',
] as const;
export type CommanderId = (typeof COMMANDERS)[number];

/** One unit card (D1), its sticker (D2) and how many blocks carry it (D3). */
export interface KindCard {
  /** One of KINDS[army]. */
  id: KindId;
  army: Army;
  /** Must be the type the rules give the kind (KINDS); stated so that a typo is caught. */
  type: UnitType;
  /** Command tests pass on 2d6 ≤ Discipline (§14). */
  discipline: number;
  /** Melee attack; null where the card shows none (artillery, A10). */
  melee: number | null;
  /** Ranged attack (artillery attack on artillery cards); null where the card shows none. */
  ranged: number | null;
  defence: number;
  /** Purchase cost in points (budget 20, §7). */
  cost: number;
  /** Victory points the opponent scores for eliminating it (D6); the cost when left out (A49). */
  value?: number;
  /** Starting and maximum strength, 1–4 steps (D2). */
  strength: number;
  /** How many blocks of the army carry this kind: the most that can be bought (D3). */
  blocks: number;
  /** Lions of Vesania only: Defence bonus against enemy cavalry (D1, A5); 1 when left out. */
  defenceVsCavalry?: number;
}

/**
 * The board (D7). Hexes are named "column,row", both counted from 1 at the
 * top left as an owner reads them off the board. `layout` says how the hexes
 * sit: flat-topped hexes stand in columns, and either the even columns
 * (2, 4, 6…) or the odd ones (1, 3, 5…) sit half a hex lower than their
 * neighbours ("flat-even-down", "flat-odd-down"); pointy-topped hexes lie in
 * rows, and the even or the odd rows sit half a hex to the right
 * ("pointy-even-right", "pointy-odd-right").
 */
export interface BoardData {
  columns: number;
  rows: number;
  layout: BoardLayout;
  /** Half hexes at the board's edge that are not playable (A21), if any. */
  excluded?: string[];
}
export type BoardLayout = 'flat-even-down' | 'flat-odd-down' | 'pointy-even-right' | 'pointy-odd-right';
export const BOARD_LAYOUTS: readonly BoardLayout[] = ['flat-even-down', 'flat-odd-down', 'pointy-even-right', 'pointy-odd-right'];

/** Printed terrain of a hex (§11); a hex a scenario does not list is open ground. */
export type Terrain = 'open' | 'swamp' | 'stream' | 'river' | 'fort' | 'forest' | 'hills' | 'mountains' | 'bunker' | 'bridge';
export const TERRAINS: readonly Terrain[] = ['open', 'swamp', 'stream', 'river', 'fort', 'forest', 'hills', 'mountains', 'bunker', 'bridge'];

/** Markers laid during play (§12): by Sappers (trench, wire) and by Special Artillery (fire, smoke). */
export type Feature = 'trench' | 'wire' | 'fire' | 'smoke';
export const FEATURES: readonly Feature[] = ['trench', 'wire', 'fire', 'smoke'];

export type Family = 'skirmish' | 'defence' | 'domination' | 'behind-enemy-lines' | 'training';

/** One scenario card (D8). */
export interface ScenarioData {
  /** The id a game is created with, e.g. "s01". */
  id: string;
  /** The number printed on the card, 1–22. */
  number: number;
  /** The invented data's titles say "invented". */
  title: string;
  family: Family;
  /** Terrain by hex; unlisted hexes are open. */
  terrain: Record<string, Terrain>;
  /** Features printed on the scenario's map at the start, if any. */
  features?: Record<string, Feature[]>;
  /** Each army's first (deployment) row (§7, A56). */
  firstRows: Record<Army, string[]>;
  /** Defence: the army that attacks the fort; Behind Enemy Lines: the army that breaks through. */
  attacker?: Army;
  /** Defence: the attacker's turn limit, 10 or 12 (D8, A50). */
  turnLimit?: number;
  /** Domination: how many forts win (2 of 3 on the summary, A52). */
  fortsToWin?: number;
  /** Behind Enemy Lines: the arrow hexes (A51). */
  arrows?: string[];
  /** Behind Enemy Lines: how many units on arrow hexes win; 3 when left out. */
  unitsToBreakThrough?: number;
  /** Special markers per army; the family's numbers (§6) when left out. */
  markers?: Partial<Record<Army, number>>;
  /** Any special rule printed on the card, shown to players as text. */
  notes?: string;
}

/** A whole data file. */
export interface BlackAndWhiteData {
  /** Always "herald.black-and-white.data/1". */
  format: 'herald.black-and-white.data/1';
  /** What this file is (e.g. "Typed in from my copy, 2nd printing"). */
  title: string;
  /** True for values made up for testing; shown in every view and in /games/types. */
  invented: boolean;
  board: BoardData;
  /** The least die roll that aims at each distance (D5): a roll ≥ this value aims. */
  aiming: { '2': number; '3': number; '4': number };
  /** All 18 unit cards, 9 per army. */
  kinds: KindCard[];
  /** Each army's three commanders (D4, A38). */
  commanders: Record<Army, CommanderId[]>;
  /** How many of each marker exist (D9, D11): 9 special markers; the features' counts cap how many can be laid. */
  markers: { special: number; trench: number; wire: number; fire: number; smoke: number };
  /** Army budget in points; 20 when left out (§7). */
  budget?: number;
  scenarios: ScenarioData[];
}
