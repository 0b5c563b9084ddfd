// The games this instance worked with lately, with their parsed engine state.
//
// Reading a game's row costs a round trip that carries the whole state (tens
// of kB of JSON to send, parse and copy); most requests are about a game that
// was just read or written here. An entry is never trusted blindly: versions
// are dense and every change to a game (seats, status, state) bumps its
// version, so an entry is current exactly when its version is the one in the
// database. Reads check that with a one-column query (loadGame); the write path
// uses an entry without checking, because its commit carries `WHERE version =
// entry's version` and so fails, and is decided again from a fresh read, when
// another instance moved the game on (actions.ts).
//
// One change does not bump the version: an invite code set on a seat while the
// game is being set up (store/games.ts setInvite). Games in setup are therefore
// never cached; they are not the busy ones anyway. Another keeps the version but
// bumps the clock revision (clock_rev): a vacation pausing or resuming a game's
// clocks. Reads compare both, and every commit checks both, so a cached row from
// before a pause is never current, whether or not the bus told this instance.
// A third is set once on a game that is over: its rematch (rematch_id); reads
// compare it too.
//
// Rows in the cache are shared: nobody may mutate one (the engine never
// mutates its input; services copy before changing a row).
import type { GameRow } from '../store/games.ts';

export class GameCache {
  private readonly rows = new Map<string, GameRow>();

  private readonly capacity: number;
  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** The cached row, refreshed as most recently used. */
  get(id: string): GameRow | undefined {
    const row = this.rows.get(id);
    if (row) {
      this.rows.delete(id);
      this.rows.set(id, row);
    }
    return row;
  }

  /** Keeps a row read from, or just committed to, the database (an older version or clock revision never replaces a newer one). */
  put(row: GameRow): void {
    if (this.capacity <= 0) return;
    if (row.status === 'setup') {
      this.rows.delete(row.id);
      return;
    }
    const had = this.rows.get(row.id);
    if (had && (had.version > row.version || (had.version === row.version && had.clockRev > row.clockRev))) return;
    this.rows.delete(row.id);
    this.rows.set(row.id, row);
    if (this.rows.size > this.capacity) {
      const oldest = this.rows.keys().next().value;
      if (oldest !== undefined) this.rows.delete(oldest);
    }
  }

  drop(id: string): void {
    this.rows.delete(id);
  }

  get size(): number {
    return this.rows.size;
  }
}

// A seat's view is a pure function of the game's state and the seat, and a cached row never
// changes: so a view built for a row (the action's own answer, or one stream's read) serves every
// later read of that very row object for that seat. Kept beside the row, gone with it: in a
// non-enumerable property of the row (a spread of the row, which makes the next version's row,
// does not copy it; JSON and Object.keys do not see it). Not a WeakMap keyed by the row: a row
// lives for one version of its game, and V8's scavenger copies the values of a long-lived
// WeakMap whose keys are young objects, dead or not, until a full collection clears them — every
// view of every version then survives the young generation (bench:service: 7–10 MB surviving
// each scavenge in Herald against ~2 MB in the floor; a loop of 300,000 such entries took 1.7 s
// of CPU against 0.1 s with the value in a property of the key).
const VIEWS = Symbol('herald.views');

type WithViews = GameRow & { [VIEWS]?: Map<string | null, unknown> };

/** The view of `row` for `role`, built by `build` once per row object and role. */
export function viewOfRow<V>(row: GameRow, role: string | null, build: () => V): V {
  const r = row as WithViews;
  let byRole = r[VIEWS];
  if (byRole === undefined) {
    byRole = new Map();
    Object.defineProperty(r, VIEWS, { value: byRole, enumerable: false, writable: false, configurable: false });
  }
  if (byRole.has(role)) return byRole.get(role) as V;
  const view = build();
  byRole.set(role, view);
  return view;
}

/** Notes a view already built for `row` and `role` (the action's answer), for later reads of that row. */
export function rememberView(row: GameRow, role: string | null, view: unknown): void {
  viewOfRow(row, role, () => view);
}
