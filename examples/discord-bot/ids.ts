// What a Discord component carries (custom_id ≤ 100 characters, select option values ≤ 100):
// everything the bot needs to act on a click, so buttons and menus keep working after a
// restart and a stale one is recognised. Herald checks the version again on submission.
//
//   h:play:<gameId>:<version>           the "Play my turn" button of a board message
//   h:view:<gameId>                     the "My view" button
//   h:rematch:<gameId>                  the "Rematch" button of a finished game
//   h:menu:<gameId>:<version>:<path>    a select menu: the choice tree at <version>, opened at <path>
//                                       (child indexes joined by "."; "" is the root)
//   option values: "a:<actionId>" (a legal action; submitted with expectedVersion = <version>)
//                  "g:<index>"    (a group: open the child <index> of <path>)

export type ComponentId =
  | { kind: 'play'; gameId: string; version: number }
  | { kind: 'view'; gameId: string }
  | { kind: 'rematch'; gameId: string }
  | { kind: 'menu'; gameId: string; version: number; path: number[] };

export const MAX_CUSTOM_ID = 100;

export function encodeId(c: ComponentId): string {
  let s: string;
  switch (c.kind) {
    case 'play': s = `h:play:${c.gameId}:${c.version}`; break;
    case 'view': s = `h:view:${c.gameId}`; break;
    case 'rematch': s = `h:rematch:${c.gameId}`; break;
    case 'menu': s = `h:menu:${c.gameId}:${c.version}:${c.path.join('.')}`; break;
  }
  if (s.length > MAX_CUSTOM_ID) throw new Error(`custom_id too long (${s.length}): ${s}`);
  return s;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const VERSION = /^\d{1,9}$/;

/** The component a custom_id names, or null for anything else (another bot's, a forged one). */
export function decodeId(s: string): ComponentId | null {
  const [h, kind, gameId, version, path, ...rest] = s.split(':');
  if (h !== 'h' || !gameId || !UUID.test(gameId) || rest.length > 0) return null;
  if (kind === 'view' && version === undefined) return { kind, gameId };
  if (kind === 'rematch' && version === undefined) return { kind, gameId };
  if (version === undefined || !VERSION.test(version)) return null;
  if (kind === 'play' && path === undefined) return { kind, gameId, version: Number(version) };
  if (kind === 'menu' && path !== undefined && /^(\d{1,2}(\.\d{1,2})*)?$/.test(path)) {
    return { kind, gameId, version: Number(version), path: path === '' ? [] : path.split('.').map(Number) };
  }
  return null;
}

export type OptionValue = { kind: 'action'; actionId: string } | { kind: 'group'; index: number };

export function encodeOption(v: OptionValue): string {
  return v.kind === 'action' ? `a:${v.actionId}` : `g:${v.index}`;
}

export function decodeOption(s: string): OptionValue | null {
  if (s.startsWith('a:') && s.length > 2) return { kind: 'action', actionId: s.slice(2) };
  if (/^g:\d{1,2}$/.test(s)) return { kind: 'group', index: Number(s.slice(2)) };
  return null;
}
