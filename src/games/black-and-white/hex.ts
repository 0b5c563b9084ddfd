/**
 * Hex geometry of a Black & White board: the owner's "column,row" names,
 * distance, neighbours, straight lines and line of sight (RULES.md §13, §15,
 * A13, A20, A21). Pure and independent of the rules: what blocks a line is the
 * caller's predicate.
 *
 * Inside, a hex is a cube coordinate (x + y + z = 0; q = x, r = z). The
 * geometry of lines between hex centres is the same for flat-topped and
 * pointy-topped boards (one is the other turned by 30°, centres and all), so
 * lines are traced in one fixed pointy-topped plane whatever the layout.
 */
import type { BoardData, BoardLayout } from './data-format.ts';

export interface Cube {
  q: number;
  r: number;
}

/** The six directions, in order round the hex; opposite of d is (d + 3) % 6. */
const DIRECTIONS: readonly Cube[] = [
  { q: 1, r: 0 },
  { q: 1, r: -1 },
  { q: 0, r: -1 },
  { q: -1, r: 0 },
  { q: -1, r: 1 },
  { q: 0, r: 1 },
];

/** The owner's name of a hex: column and row counted from 1. */
export const hexId = (column: number, row: number): string => `${column},${row}`;

/** Column and row of a "column,row" name, or null when it is not one. */
export function parseHexId(id: string): { column: number; row: number } | null {
  const m = /^([1-9][0-9]*),([1-9][0-9]*)$/.exec(id);
  return m ? { column: Number(m[1]), row: Number(m[2]) } : null;
}

function toCube(layout: BoardLayout, column: number, row: number): Cube {
  // Counted from 0 from here on; "even" and "odd" in the layout names count from 1.
  const c = column - 1;
  const r = row - 1;
  switch (layout) {
    case 'flat-even-down': // columns 2, 4… (0-based odd) lower
      return { q: c, r: r - (c - (c & 1)) / 2 };
    case 'flat-odd-down': // columns 1, 3… (0-based even) lower
      return { q: c, r: r - (c + (c & 1)) / 2 };
    case 'pointy-even-right': // rows 2, 4… (0-based odd) to the right
      return { q: c - (r - (r & 1)) / 2, r };
    case 'pointy-odd-right': // rows 1, 3… (0-based even) to the right
      return { q: c - (r + (r & 1)) / 2, r };
  }
}

const cubeKey = (c: Cube): string => `${c.q}:${c.r}`;
const cubeDistance = (a: Cube, b: Cube): number =>
  (Math.abs(a.q - b.q) + Math.abs(a.r - b.r) + Math.abs(a.q + a.r - b.q - b.r)) / 2;

// Centres in a pointy-topped plane of hexes of circumradius 1.
const SQRT3 = Math.sqrt(3);
const centre = (c: Cube): [number, number] => [SQRT3 * (c.q + c.r / 2), 1.5 * c.r];
// Outward unit normals of a pointy-topped hex's six edges, and the distance from centre to edge.
const NORMALS: readonly [number, number][] = [0, 1, 2, 3, 4, 5].map((k) => [Math.cos((k * Math.PI) / 3), Math.sin((k * Math.PI) / 3)]);
const APOTHEM = SQRT3 / 2;
const EPS = 1e-9;

/** What a straight centre-to-centre line meets between two hexes (their own hexes left out). */
export interface LineCrossing {
  /** Hexes whose inside the line crosses, nearest the start first. */
  through: string[];
  /**
   * Pairs of hexes along whose shared edge the line runs (A21); a side that
   * is off the playable board is null.
   */
  alongEdges: [string | null, string | null][];
  /** The line crosses the inside of a place that is not a playable hex (A21: the board edge). */
  offBoard: boolean;
}

export class HexGrid {
  readonly columns: number;
  readonly rows: number;
  readonly layout: BoardLayout;
  /** Every playable hex, column by column. */
  readonly hexes: readonly string[];
  private readonly cube = new Map<string, Cube>();
  private readonly byCube = new Map<string, string>();
  private readonly neighbourCache = new Map<string, readonly string[]>();

  constructor(board: BoardData) {
    this.columns = board.columns;
    this.rows = board.rows;
    this.layout = board.layout;
    const excluded = new Set(board.excluded ?? []);
    const hexes: string[] = [];
    for (let column = 1; column <= board.columns; column++) {
      for (let row = 1; row <= board.rows; row++) {
        const id = hexId(column, row);
        if (excluded.has(id)) continue;
        const c = toCube(board.layout, column, row);
        hexes.push(id);
        this.cube.set(id, c);
        this.byCube.set(cubeKey(c), id);
      }
    }
    this.hexes = hexes;
  }

  /** Whether `id` names a playable hex of this board. */
  has(id: string): boolean {
    return this.cube.has(id);
  }

  private at(id: string): Cube {
    const c = this.cube.get(id);
    if (!c) throw new RangeError(`"${id}" is not a hex of this board`);
    return c;
  }

  distance(a: string, b: string): number {
    return cubeDistance(this.at(a), this.at(b));
  }

  /** The playable hexes next to `id` (up to six), in direction order. */
  neighbours(id: string): readonly string[] {
    let out = this.neighbourCache.get(id);
    if (!out) {
      const c = this.at(id);
      out = DIRECTIONS.map((d) => this.byCube.get(cubeKey({ q: c.q + d.q, r: c.r + d.r }))).filter((h): h is string => h !== undefined);
      this.neighbourCache.set(id, out);
    }
    return out;
  }

  /** The hex one step from `id` in direction d (0–5), or null off the board. */
  step(id: string, direction: number): string | null {
    const c = this.at(id);
    const d = DIRECTIONS[((direction % 6) + 6) % 6]!;
    return this.byCube.get(cubeKey({ q: c.q + d.q, r: c.r + d.r })) ?? null;
  }

  /** The direction (0–5) in which `b` lies in a straight hex row from `a` (A13), or null. */
  direction(a: string, b: string): number | null {
    const ca = this.at(a);
    const cb = this.at(b);
    const n = cubeDistance(ca, cb);
    if (n === 0) return null;
    const dq = (cb.q - ca.q) / n;
    const dr = (cb.r - ca.r) / n;
    const i = DIRECTIONS.findIndex((d) => d.q === dq && d.r === dr);
    return i < 0 ? null : i;
  }

  /** All playable hexes within `range` of `id` (itself included). */
  within(id: string, range: number): string[] {
    const c = this.at(id);
    const out: string[] = [];
    for (let dq = -range; dq <= range; dq++) {
      for (let dr = Math.max(-range, -dq - range); dr <= Math.min(range, -dq + range); dr++) {
        const h = this.byCube.get(cubeKey({ q: c.q + dq, r: c.r + dr }));
        if (h !== undefined) out.push(h);
      }
    }
    return out;
  }

  /**
   * What the line from the centre of `a` to the centre of `b` crosses
   * (§15, A21): hexes whose inside it passes through, pairs of hexes along
   * whose shared edge it runs, and nothing for hexes it touches only at a
   * corner. Exact: each hex near the line is clipped against the segment.
   */
  crossing(a: string, b: string): LineCrossing {
    const ca = this.at(a);
    const cb = this.at(b);
    const [x0, y0] = centre(ca);
    const [x1, y1] = centre(cb);
    const dx = x1 - x0;
    const dy = y1 - y0;
    const n = cubeDistance(ca, cb);
    const through: { t: number; id: string | null }[] = [];
    const edges = new Map<string, { t: number; ids: (string | null)[] }>();
    // Every hex the segment can meet lies within n of both ends.
    for (let dq = -n; dq <= n; dq++) {
      for (let dr = Math.max(-n, -dq - n); dr <= Math.min(n, -dq + n); dr++) {
        const c = { q: ca.q + dq, r: ca.r + dr };
        if (cubeDistance(c, cb) > n) continue;
        const key = cubeKey(c);
        if (key === cubeKey(ca) || key === cubeKey(cb)) continue;
        const [cx, cy] = centre(c);
        // Cyrus–Beck: the part [t0, t1] of the segment inside the hexagon.
        let t0 = 0;
        let t1 = 1;
        let empty = false;
        for (const [nx, ny] of NORMALS) {
          // Inside: nx*(x-cx) + ny*(y-cy) <= APOTHEM.
          const num = APOTHEM - (nx * (x0 - cx) + ny * (y0 - cy));
          const den = nx * dx + ny * dy;
          if (Math.abs(den) < EPS) {
            if (num < -EPS) empty = true;
            continue;
          }
          const t = num / den;
          if (den > 0) t1 = Math.min(t1, t);
          else t0 = Math.max(t0, t);
        }
        if (empty || t1 - t0 <= 1e-7) continue; // missed, or touched at a corner only
        const tm = (t0 + t1) / 2;
        const mx = x0 + dx * tm - cx;
        const my = y0 + dy * tm - cy;
        const inner = Math.min(...NORMALS.map(([nx, ny]) => APOTHEM - (nx * mx + ny * my)));
        const id = this.byCube.get(key) ?? null;
        if (inner > 1e-7) {
          through.push({ t: tm, id });
        } else {
          // Along an edge: its partner is the hex across that edge, found by the same interval.
          const k = `${t0.toFixed(6)}:${t1.toFixed(6)}`;
          const e = edges.get(k) ?? { t: tm, ids: [] };
          e.ids.push(id);
          edges.set(k, e);
        }
      }
    }
    through.sort((p, q) => p.t - q.t);
    const alongEdges = [...edges.values()]
      .sort((p, q) => p.t - q.t)
      .map((e) => [e.ids[0] ?? null, e.ids[1] ?? null] as [string | null, string | null]);
    return {
      through: through.filter((h) => h.id !== null).map((h) => h.id!),
      alongEdges,
      offBoard: through.some((h) => h.id === null),
    };
  }

  /**
   * Line of sight from `a` to `b` (§15): clear unless the line crosses a
   * blocking hex, runs along an edge between two blocking hexes (A21; off the
   * board counts as blocking), or crosses off the playable board. The two
   * hexes' own terrain and units never block.
   */
  lineOfSight(a: string, b: string, blocks: (hex: string) => boolean, edge: 'both' | 'either' = 'both'): boolean {
    const x = this.crossing(a, b);
    if (x.offBoard) return false;
    if (x.through.some(blocks)) return false;
    // 'either' (a rule option): one blocking board hex beside the line is enough; off the board still needs its board partner to block.
    if (edge === 'either') return !x.alongEdges.some(([p, q]) => (p !== null && blocks(p)) || (q !== null && blocks(q)));
    return !x.alongEdges.some(([p, q]) => (p === null || blocks(p)) && (q === null || blocks(q)));
  }
}
