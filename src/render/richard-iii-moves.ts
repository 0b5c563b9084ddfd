// The arrows of a board picture: which blocks went where this game turn,
// read from consecutive views of one seat (never from the server's state, so
// an arrow can say no more than the seat's own views said). Moves are made in
// the open (RULES 5.2: blocks are counted per area, enemy ones too), so
// between two versions the per-area counts of a side fall in the areas left
// and rise in the areas entered; when one side of that is a single area the
// move is unambiguous. A block leaving for or coming from the pool, or a
// change that moved blocks from several areas to several others at once, is
// not drawn.
import { SIDES, type Side } from '../games/richard-iii/data.ts';
import type { R3View } from '../games/richard-iii/view.ts';

export interface Move {
  side: Side;
  from: string;
  to: string;
  /** Blocks that went that way. */
  n: number;
}

function counts(v: R3View, side: Side): Map<string, number> {
  const out = new Map<string, number>();
  for (const [area, bySide] of Object.entries(v.areas)) {
    const c = bySide[side];
    if (c && c.n > 0) out.set(area, c.n);
  }
  return out;
}

/** The moves from view `a` to the next version's view `b` of the same seat. */
export function movesBetween(a: R3View, b: R3View): Move[] {
  const out: Move[] = [];
  for (const side of SIDES) {
    const before = counts(a, side);
    const after = counts(b, side);
    const left: [string, number][] = [];
    const entered: [string, number][] = [];
    for (const area of new Set([...before.keys(), ...after.keys()])) {
      const d = (after.get(area) ?? 0) - (before.get(area) ?? 0);
      if (d < 0) left.push([area, -d]);
      else if (d > 0) entered.push([area, d]);
    }
    const outOf = left.reduce((s, [, k]) => s + k, 0);
    const into = entered.reduce((s, [, k]) => s + k, 0);
    if (outOf === 0 || outOf !== into) continue;
    if (left.length === 1) for (const [to, k] of entered) out.push({ side, from: left[0]![0], to, n: k });
    else if (entered.length === 1) for (const [from, k] of left) out.push({ side, from, to: entered[0]![0], n: k });
  }
  return out;
}

const turnOf = (v: R3View): string => `${v.campaign}:${v.turn}`;

/** Sums moves along the same way. */
function merge(moves: Move[]): Move[] {
  const by = new Map<string, Move>();
  for (const m of moves) {
    const k = `${m.side}|${m.from}|${m.to}`;
    const e = by.get(k);
    if (e) e.n += m.n;
    else by.set(k, { ...m });
  }
  return [...by.values()];
}

/**
 * The moves of the current game turn, or of the one before while the
 * current one has none yet. `views`: one seat's views at consecutive
 * versions, oldest first, the current one last.
 */
export function turnMoves(views: readonly R3View[]): { which: 'this' | 'last'; moves: Move[] } {
  const groups: R3View[][] = [];
  for (const v of views) {
    const last = groups[groups.length - 1];
    if (last && turnOf(last[0]!) === turnOf(v)) last.push(v);
    else groups.push([v]);
  }
  const within = (g: R3View[] | undefined): Move[] => {
    const out: Move[] = [];
    if (g) for (let i = 1; i < g.length; i++) out.push(...movesBetween(g[i - 1]!, g[i]!));
    return merge(out);
  };
  const current = within(groups[groups.length - 1]);
  if (current.length > 0 || groups.length < 2) return { which: 'this', moves: current };
  return { which: 'last', moves: within(groups[groups.length - 2]) };
}
