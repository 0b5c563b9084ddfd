// Board pictures (issue 16): the board as one seat (or a spectator) sees it,
// at the current version or, once the game is over, any earlier one: SVG, or
// PNG rasterised by resvg. Authorised exactly as the view is (reads.getView:
// the caller's own seat or the spectator's; earlier versions only after the
// end). The renderer (src/render) gets only that seat's views — the one at
// the version drawn and the ones just before it, for the arrows of the
// turn's moves — never the state, so a picture cannot show more than the
// views did.
//
// Pictures are made on request, never on the write path, and kept per
// (game, version, seat, language, format): a version never changes, so a
// kept picture is never stale. Concurrent requests for one picture share
// its rendering.
import type { Caller } from './api.ts';
import { isOver, loadGame, moduleOf, viewingRole, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { listEntries } from '../store/games.ts';
import { BOARD_RENDERERS, boardPngAsync, type BoardRenderer, type Lang } from '../render/index.ts';
import { negotiateLanguage } from '../i18n/index.ts';

export const PICTURE_FORMATS = ['svg', 'png'] as const;
export type PictureFormat = (typeof PICTURE_FORMATS)[number];

export interface BoardPictureOptions {
  /** The seat to draw from, or 'spectator'; default: the caller's seat if it holds one, else the spectator's. */
  role?: string;
  version?: number;
  format: string;
  /** A language tag (`lang` parameter); unknown ones give English. */
  lang?: string;
  /** The Accept-Language header, used when `lang` is absent. */
  acceptLanguage?: string;
}

export interface BoardPicture {
  gameId: string;
  version: number;
  role: string | null;
  lang: Lang;
  format: PictureFormat;
  contentType: string;
  body: string | Buffer;
}

/** Pictures kept by size (PNGs are ~150 kB, SVGs ~35 kB), least recently used out first. */
export class PictureCache {
  private readonly entries = new Map<string, Promise<BoardPicture>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  private readonly maxBytes: number;
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** The picture under `key`, made by `make` once (concurrent callers share it; a failure is not kept). */
  get(key: string, make: () => Promise<BoardPicture>): Promise<BoardPicture> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const p = make();
    if (this.maxBytes <= 0) return p;
    this.entries.set(key, p);
    p.then(
      (pic) => {
        if (this.entries.get(key) !== p) return;
        const size = typeof pic.body === 'string' ? Buffer.byteLength(pic.body) : pic.body.length;
        this.sizes.set(key, size);
        this.bytes += size;
        for (const k of this.entries.keys()) {
          if (this.bytes <= this.maxBytes) break;
          if (k === key) continue;
          this.drop(k);
        }
      },
      () => this.drop(key),
    );
    return p;
  }

  private drop(key: string): void {
    this.entries.delete(key);
    this.bytes -= this.sizes.get(key) ?? 0;
    this.sizes.delete(key);
  }
}

/** Whether games of this type have pictures (a renderer in src/render/index.ts). */
export function hasBoardPictures(gameType: string): boolean {
  return Object.hasOwn(BOARD_RENDERERS, gameType);
}

export async function getBoardPicture(ctx: Ctx, cache: PictureCache, caller: Caller | null, gameId: string, o: BoardPictureOptions): Promise<BoardPicture> {
  if (!(PICTURE_FORMATS as readonly string[]).includes(o.format)) {
    throw new ServiceError('invalid_request', `format must be one of ${PICTURE_FORMATS.join(', ')}.`);
  }
  const format = o.format as PictureFormat;
  const lang = negotiateLanguage({ lang: o.lang ?? null, acceptLanguage: o.acceptLanguage ?? null });
  const game = await loadGame(ctx, caller, gameId);
  const role = o.role === 'spectator' ? null : viewingRole(ctx, game, caller, o.role);
  const renderer = Object.hasOwn(BOARD_RENDERERS, game.gameType) ? BOARD_RENDERERS[game.gameType] : undefined;
  if (!renderer) {
    // A game type may come without a renderer (src/render/index.ts): its games are played from
    // their views and logs alone. Not a server fault, and the same answer for every seat.
    throw new ServiceError('not_found', `This game type (${game.gameType}) has no pictures: read the game's view and log instead.`, { gameType: game.gameType, reason: 'no_pictures' });
  }
  let version = game.version;
  if (o.version !== undefined && o.version !== version) {
    if (!Number.isSafeInteger(o.version) || o.version < 0 || o.version > game.version) {
      throw new ServiceError('invalid_request', `version must be an integer from 0 to ${game.version}.`, { currentVersion: game.version });
    }
    if (!isOver(game.status)) {
      throw new ServiceError('forbidden', 'Earlier versions can be viewed once the game is over.', { gameStatus: game.status });
    }
    version = o.version;
  }
  const key = `${game.id}|${version}|${role ?? ''}|${lang}|${format}`;
  return cache.get(key, async () => {
    const views = await viewsUpTo(ctx, game, version, role, renderer);
    const view = views.pop();
    if (view === undefined) throw new ServiceError('invalid_state', 'The game has not started: there is no board to draw yet.', { gameStatus: game.status });
    const body = format === 'svg' ? renderer.svg(view, version, views, lang) : await boardPngAsync(renderer.layers(view, version, views, lang));
    return { gameId: game.id, version, role, lang, format, contentType: format === 'svg' ? 'image/svg+xml; charset=utf-8' : 'image/png', body };
  });
}

/**
 * The seat's view at `version` and its views at the versions just before it
 * that the renderer uses (the current game turn and the one before, at most
 * `renderer.maxEarlier`), oldest first; none before the game started. Built
 * by replaying the stored log.
 */
async function viewsUpTo(ctx: Ctx, game: Awaited<ReturnType<typeof loadGame>>, version: number, role: string | null, renderer: BoardRenderer): Promise<unknown[]> {
  const m = moduleOf(ctx, game.gameType);
  const entries = await listEntries(ctx.sql, game.id, { upToSeq: version });
  // states[i]: the state at version first + i.
  const first = Math.max(1, version - renderer.maxEarlier);
  const states: unknown[] = [];
  let state: unknown = null;
  let seq = 0;
  const keep = (upTo: number) => {
    for (; seq < upTo; seq++) if (seq + 1 >= first) states.push(state);
  };
  for (const e of entries) {
    keep(e.seq - 1);
    if (e.kind === 'start') state = m.setup({ scenario: game.scenario, seed: game.seed, options: game.options as Record<string, unknown> });
    else if (e.kind === 'action') state = m.apply(state, e.role!, e.action);
  }
  keep(version);
  // Newest first, until a third game turn begins.
  const views: unknown[] = [];
  const turns = new Set<string>();
  for (let i = states.length - 1; i >= 0 && states[i] !== null; i--) {
    const view = m.view(states[i], role);
    turns.add(renderer.turnOf(view));
    if (turns.size > 2) break;
    views.push(view);
  }
  return views.reverse();
}
