/**
 * The battle being fought (6.0): its frame on the flow stack and the questions
 * every battle module asks of it ("who is in the battle?", "whose turn is it?").
 *
 * One `battle` frame lives on the stack for the whole battle; short prompts
 * (`battle_hits`, `treason_event`) are pushed on top of it and pop back to it.
 * The frame keeps `area` and `revealed` (block indexes face-up in this battle,
 * 6.1): view.ts allow-lists exactly those blocks while they stand in `area`.
 * Reserves are revealed only when they join (INTERPRETATIONS 53).
 *
 * A block is *active* (in the battle proper: may act, be hit, be targeted) when
 * it stands face-up in the battle area and is not in `reserves`. Reserves are
 * blocks that entered as Reserves (6.3) and have not yet joined, and defectors
 * waiting for the next round (6.9, G-3).
 */
import { BLOCKS, other, type Side } from './data.ts';
import type { Frame, R3State } from './state.ts';

export interface BattleFrame extends Frame {
  s: 'battle';
  /** The side choosing the next battle turn (owner of the current initiative group). */
  side: Side | null;
  area: string;
  /**
   * Every block that has stood in this battle (the blocks there at its start, and
   * defectors' new versions), block order first: a block is in the battle while it
   * stands face-up in `area`. Lets every question scan a dozen blocks, not 63.
   */
  members: number[];
  /** The side attacking now (swaps once the defenders are wiped out in round 1 ). */
  attacker: Side;
  /** Battle round 1..4. */
  round: number;
  /** Blocks face-up in this battle (6.1), for views. */
  revealed: number[];
  /** Blocks in the area not (yet) in the battle: Reserves (6.3) and waiting defectors (G-3). */
  reserves: number[];
  /** Blocks that have had their battle turn this round (or may not act in it). */
  acted: number[];
  /** Blocks that entered from the Reserves: a Bombard among them is never A3. */
  fromReserve: number[];
  /** Defectors of this round: they sit out the rest of it even if their side's reserves deploy (G-3). */
  defectedNow: number[];
  /** Blocks that changed sides in this battle: they may not be won back (6.9). */
  turned: number[];
  /** Once-per-battle treason rolls used: 'crown-York', 'crown-Lancaster', 'warwick' (6.9). */
  used: string[];
  /** Treason rolls received per target block id (at most three, [R-26]). */
  rolls: Record<string, number>;
  /** Retreat border crossings this round, keyed `${borderId}|${side}`. */
  retreatUse: Record<string, number>;
  /** Entry points per side (from s.attacks): borders closed to the other side's retreats. */
  entries: { York: string[]; Lancaster: string[] };
  /** Blocks that attacked by Piracy: retreat and regroup only by sea. */
  pirates: number[];
}

export const defenderOf = (bf: BattleFrame): Side => other(bf.attacker);

/* Module-local copies of block data read on hot paths (legal-action listing). */
const N_BLOCKS = BLOCKS.length;
const PRINTED_SIDE: readonly (Side | 'Rebel')[] = BLOCKS.map((d) => d.side);
const IS_BOMBARD: readonly boolean[] = BLOCKS.map((d) => d.type === 'bombard');
const INITIATIVE: readonly string[] = BLOCKS.map((d) => d.initiative);

/** ownerOf (state.ts) without the data lookups: the Rebel serves the Pretender (3.26). */
export function sideOf(s: R3State, b: number): Side {
  const x = PRINTED_SIDE[b]!;
  return x === 'Rebel' ? other(s.king) : x;
}

/**
 * Areas holding a face-up block hostile to `side` (a Set of loc strings, off-map
 * places included — harmless): "Friendly or Vacant" = not in it (2.1, 6.6, 6.7).
 */
export function hostileAreas(s: R3State, side: Side): Set<string> {
  const out = new Set<string>();
  const rebel = other(s.king);
  const loc = s.loc, down = s.down;
  for (let b = 0; b < N_BLOCKS; b++) {
    if (down[b]) continue;
    const x = PRINTED_SIDE[b]!;
    if ((x === 'Rebel' ? rebel : x) !== side) out.add(loc[b]!);
  }
  return out;
}

/** The battle frame (the innermost one), or null outside a battle. */
export function battleFrame(s: R3State): BattleFrame | null {
  for (let i = s.flow.length - 1; i >= 0; i--) {
    const f = s.flow[i]!;
    if (f.s === 'battle') return f as BattleFrame;
  }
  return null;
}

/** True when b stands face-up in the battle area and is not a Reserve. */
export function isActive(s: R3State, bf: BattleFrame, b: number): boolean {
  return s.loc[b] === bf.area && !s.down[b] && !bf.reserves.includes(b);
}

/** Active blocks of a side. */
export function activeBlocks(s: R3State, bf: BattleFrame, side: Side): number[] {
  const out: number[] = [];
  for (const b of bf.members) {
    if (s.loc[b] === bf.area && !s.down[b] && !bf.reserves.includes(b) && sideOf(s, b) === side) out.push(b);
  }
  return out;
}

/** Every face-up block of a side in the battle area, Reserves included (G-2). */
export function blocksInBattle(s: R3State, bf: BattleFrame, side: Side): number[] {
  const out: number[] = [];
  for (const b of bf.members) {
    if (s.loc[b] === bf.area && !s.down[b] && sideOf(s, b) === side) out.push(b);
  }
  return out;
}

/** Initiative letter of b this round: Bombards A in round 1, D later, never A from the Reserves. */
export function letterOf(bf: BattleFrame, b: number): string {
  if (IS_BOMBARD[b]) return bf.round === 1 && !bf.fromReserve.includes(b) ? 'A' : 'D';
  return INITIATIVE[b]!;
}

/** Printed firepower (Bombards 3 in both ratings). */
export const baseFirepower = (b: number): number => BLOCKS[b]!.firepower;

/** Log names: the printed name, except where it would read as a side ("York: York fires"). */
const NAME: readonly string[] = BLOCKS.map((d) => (d.id === 'duke-of-york' ? 'Duke of York' : d.name));
export const nameOf = (b: number): string => NAME[b]!;

/** "Warwick (3)" — name and current strength, for public battle logs (blocks are revealed). */
export const label = (s: R3State, b: number): string => `${NAME[b]} (${s.steps[b]})`;

/** Removes b from a list in place (the battle lists are short). */
export function drop(list: number[], b: number): void {
  const i = list.indexOf(b);
  if (i >= 0) list.splice(i, 1);
}
