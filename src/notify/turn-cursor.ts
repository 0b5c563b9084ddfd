// The event id of GET /me/events: how far the stream has told the player
// about each of its games that are not over. "your turn" events of different
// games have no common sequence (versions are per game, and commits of
// different games are not ordered), so the id is a composite: a list of
// `<gameId>@<version>`, comma-separated, sorted by game id, meaning "every
// your_turn of this game up to this version was delivered". Resuming from it
// replays exactly the your_turn events after those versions, and every one of
// a game the id does not name (joined later). Games that are over drop out.

export type TurnCursor = Map<string, number>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * Ids grow by ~40 bytes per game in progress; Node's 16 KB header limit makes
 * a few hundred games the practical maximum for Last-Event-ID. Longer ids are
 * refused rather than parsed.
 */
export const MAX_CURSOR_GAMES = 1000;

export function encodeTurnCursor(cursor: TurnCursor): string {
  return [...cursor.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([gameId, version]) => `${gameId}@${version}`)
    .join(',');
}

/** Parses an id made by encodeTurnCursor; null when it is not one. */
export function decodeTurnCursor(text: string): TurnCursor | null {
  const cursor: TurnCursor = new Map();
  const trimmed = text.trim();
  if (trimmed === '') return cursor;
  const parts = trimmed.split(',');
  if (parts.length > MAX_CURSOR_GAMES) return null;
  for (const part of parts) {
    const at = part.lastIndexOf('@');
    const gameId = part.slice(0, at);
    const version = part.slice(at + 1);
    if (at < 0 || !UUID.test(gameId) || !/^\d{1,9}$/.test(version)) return null;
    cursor.set(gameId.toLowerCase(), Number(version));
  }
  return cursor;
}

// The event id of GET /apps/me/events (an application's stream over all its
// players): the same per-game list, over the games of all the application's
// players, so one id covers every player however many there are. One log is
// read per game, and a version can be the turn of several of the app's
// players at once (two of its players in one game, or simultaneous turns):
// those notices go out in player-id order, and an id taken between two of
// them says how many were sent, as `<gameId>@<version>~<n>`: "every notice of
// this game before this version, and the first n of this version". So a
// resume between the two notices of one version repeats and skips none.
// A player's own /me/events id is a valid app id (no `~` part).

export interface AppCursorEntry {
  version: number;
  /** Set: only the first `sent` notices of `version` were delivered (the earlier versions all were). */
  sent?: number;
}

export type AppCursor = Map<string, AppCursorEntry>;

export function encodeAppCursor(cursor: AppCursor): string {
  return [...cursor.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([gameId, e]) => `${gameId}@${e.version}${e.sent === undefined ? '' : `~${e.sent}`}`)
    .join(',');
}

/** Parses an id made by encodeAppCursor (or encodeTurnCursor); null when it is not one. */
export function decodeAppCursor(text: string): AppCursor | null {
  const cursor: AppCursor = new Map();
  const trimmed = text.trim();
  if (trimmed === '') return cursor;
  const parts = trimmed.split(',');
  if (parts.length > MAX_CURSOR_GAMES) return null;
  for (const part of parts) {
    const m = /^([0-9a-f-]{36})@(\d{1,9})(?:~(\d{1,4}))?$/i.exec(part.trim());
    if (!m || !UUID.test(m[1]!)) return null;
    const version = Number(m[2]);
    const sent = m[3] === undefined ? undefined : Number(m[3]);
    // A partial version is at least 1, and names at least one notice sent.
    if (sent !== undefined && (version < 1 || sent < 1)) return null;
    cursor.set(m[1]!.toLowerCase(), sent === undefined ? { version } : { version, sent });
  }
  return cursor;
}
