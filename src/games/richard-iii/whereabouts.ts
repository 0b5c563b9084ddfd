/**
 * What each seat may know of where the other side's blocks stand: for every enemy
 * block, the places it may be in, worked out from public facts only. Blocks are
 * face-down to the enemy, but a player who watched the game knows more than the
 * counts per area: every scenario's set-up is printed in the rules (scenarios.json),
 * blocks move in the open (a block leaving Kent for Sussex is seen leaving Kent),
 * battles reveal the blocks that fight (6.1), and an area the enemy has left holds
 * none of its blocks any more. A seat's view carries its own knowledge
 * (R3View.whereabouts), and computer players draw hidden identities within it
 * (sample-state.ts): a uniform draw over every enemy block forgot that Edward IV
 * starts in London.
 *
 * State: `whereabouts[observer][b]`, for each block of the observer's enemy, the
 * indices in PLACES of where it may stand, sorted; [] for a block whose place is
 * public (dead, a minor heir, an off-map version) and for every other block (own
 * ones, the Rebel, whose place is public). Updated after every applied action from
 * the blocks that changed place (updateWhereabouts):
 * - a block that may have stood in a place some enemy block left may now stand in
 *   any place an enemy block entered (which one moved is not public; where from and
 *   where to are);
 * - a block leaving a public place (a minor heir entering, a version changing)
 *   stands in one of the places entered;
 * - a place holding none of the enemy's blocks is struck from every block's places;
 * - a block revealed in the battle being fought is where it fights;
 * - when as many blocks may stand in a place as the enemy has there, they all do.
 * Each rule keeps the true place among a block's places (the sets only grow by
 * moves and shrink by public facts), so the true state always lies within them.
 * Games stored before this existed have no `whereabouts`: nothing is tracked, and
 * computer players draw as before.
 */
import { AREAS, BLOCKS, NUM_BLOCKS, SIDES, other, type Side } from './data.ts';
import type { R3State } from './state.ts';
import { battleReveal } from './view.ts';

/** Places a hidden block may stand in: every area, then the pool. Indices are what the state stores. */
export const PLACES: readonly string[] = [...AREAS.map((a) => a.id), 'pool'];
export const PLACE_INDEX: Readonly<Record<string, number>> = Object.fromEntries(PLACES.map((p, i) => [p, i]));

export type Whereabouts = Partial<Record<Side, number[][]>>;

// Module-level copies: read in loops run after every action.
const N = NUM_BLOCKS;
const SIDE_OF: readonly string[] = BLOCKS.map((b) => b.side);

/** Tracked: blocks of `enemy` other than the Rebel (whose place the view gives). */
const tracked = (enemy: Side, b: number): boolean => SIDE_OF[b] === enemy;


/** Whereabouts of a state whose every block is where its scenario's set-up (public) puts it. */
export function initialWhereabouts(s: R3State): Whereabouts {
  const out: Whereabouts = {};
  for (const observer of SIDES) {
    const enemy = other(observer);
    const w: number[][] = [];
    for (let b = 0; b < N; b++) {
      const p = tracked(enemy, b) ? PLACE_INDEX[s.loc[b]!] : undefined;
      w.push(p === undefined ? [] : [p]);
    }
    out[observer] = w;
  }
  return out;
}

/** `s.whereabouts` after the change from `prev` to `s` (s is the new state, mutable); nothing when prev tracked nothing. */
export function updateWhereabouts(prev: R3State, s: R3State): void {
  const before = prev.whereabouts;
  if (!before) return;
  // Most actions move no block (cards, choices, dice): then only a battle's reveal can teach anything.
  let moved = false;
  for (let b = 0; b < N && !moved; b++) if (prev.loc[b] !== s.loc[b]) moved = true;
  const reveal = battleReveal(s)?.blocks;
  if (!moved && !reveal) return;
  let next: Whereabouts | null = null;
  for (const observer of SIDES) {
    const old = before[observer];
    if (!old) continue;
    const w = updateFor(prev, s, other(observer), old, moved, reveal ?? []);
    if (w !== old) (next ??= { ...before })[observer] = w;
  }
  if (next) s.whereabouts = next;
}

/** The observer's new knowledge of `enemy`'s blocks; `old` itself when nothing changed. */
function updateFor(prev: R3State, s: R3State, enemy: Side, old: number[][], anyMoved: boolean, revealed: readonly number[]): number[][] {
  let out: number[][] = old;
  const set = (b: number, places: number[]): void => {
    if (out === old) out = old.slice();
    out[b] = places;
  };
  if (anyMoved) {
    // Where enemy blocks left from and went to, in this change (public: moves are made in the open).
    const isSource = new Uint8Array(PLACES.length);
    let anySource = false, dests: number[] = [];
    const fromPublic: number[] = [];
    for (let b = 0; b < N; b++) {
      if (SIDE_OF[b] !== enemy || prev.loc[b] === s.loc[b]) continue;
      const from = PLACE_INDEX[prev.loc[b]!];
      const to = PLACE_INDEX[s.loc[b]!];
      if (from !== undefined) {
        isSource[from] = 1;
        anySource = true;
      }
      else fromPublic.push(b);
      if (to !== undefined && !dests.includes(to)) dests.push(to);
    }
    if (anySource || fromPublic.length > 0) {
      const count = countPlaces(s, enemy);
      dests = dests.filter((p) => count[p]! > 0);
      for (let b = 0; b < N; b++) {
        if (SIDE_OF[b] !== enemy) continue;
        const at = PLACE_INDEX[s.loc[b]!];
        const was = old[b]!;
        if (at === undefined) {
          if (was.length > 0) set(b, []); // dead, a minor heir, an off-map version: public by name
          continue;
        }
        // A block that left a public place stands in one of the places entered; one that may have
        // stood in a place left may now stand in any place entered, and no longer in a place emptied.
        if (fromPublic.includes(b)) set(b, dests.slice().sort(byNumber));
        else if (was.some((p) => isSource[p] === 1)) {
          const places = was.filter((p) => count[p]! > 0);
          for (const p of dests) if (!places.includes(p)) places.push(p);
          set(b, places.sort(byNumber));
        }
      }
    }
  }
  for (const b of revealed) {
    const p = PLACE_INDEX[s.loc[b]!];
    if (SIDE_OF[b] !== enemy || p === undefined) continue;
    const places = out[b]!;
    if (places.length !== 1 || places[0] !== p) set(b, [p]);
  }
  if (out !== old) settle(s, enemy, out);
  return out;
}

const byNumber = (x: number, y: number): number => x - y;

/** The enemy's blocks per place (index in PLACES). */
function countPlaces(s: R3State, enemy: Side): number[] {
  const count = new Array<number>(PLACES.length).fill(0);
  for (let b = 0; b < N; b++) {
    if (SIDE_OF[b] !== enemy) continue;
    const p = PLACE_INDEX[s.loc[b]!];
    if (p !== undefined) count[p]!++;
  }
  return count;
}

/**
 * As many blocks that may stand in a place as the enemy has there: they all do (`out`, a
 * fresh array, is changed in place). Repeated, as each such finding can settle another place.
 */
function settle(s: R3State, enemy: Side, out: number[][]): void {
  const count = countPlaces(s, enemy);
  const may = new Array<number>(PLACES.length);
  for (let changed = true; changed; ) {
    changed = false;
    may.fill(0);
    for (let b = 0; b < N; b++) for (const p of out[b]!) may[p]!++;
    for (let b = 0; b < N; b++) {
      const places = out[b]!;
      if (places.length < 2) continue;
      for (const p of places) {
        if (may[p] !== count[p]) continue;
        out[b] = [p];
        changed = true;
        break;
      }
    }
  }
}

/** A seat's knowledge for its view: enemy block id → the place ids it may stand in (blocks at public places left out). */
export function whereaboutsView(s: R3State, seat: Side): Record<string, string[]> | undefined {
  const w = s.whereabouts?.[seat];
  if (!w) return undefined;
  const out: Record<string, string[]> = {};
  for (let b = 0; b < N; b++) if (w[b]!.length > 0) out[BLOCKS[b]!.id] = w[b]!.map((p) => PLACES[p]!);
  return out;
}
