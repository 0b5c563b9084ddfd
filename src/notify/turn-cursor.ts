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
