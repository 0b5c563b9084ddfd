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

  constructor(private readonly capacity: number) {}

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
