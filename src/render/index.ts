// Board pictures (issue 16): per game type, a renderer from one seat's view
// to SVG (pure), and SVG → PNG. The service chooses the view (seat, version)
// and caches the result; this layer never sees the server's state.
import type { R3View } from '../games/richard-iii/view.ts';
import { renderBoardLayers } from './richard-iii.ts';
import { svgDocument, type BoardLayers } from './svg.ts';
import { translator, type Lang } from './messages.ts';

export { boardPng, boardPngAsync, svgToPng } from './png.ts';
export { svgDocument, type BoardLayers } from './svg.ts';
export { LANGUAGES, type Lang, type Translate } from './messages.ts';

export interface BoardRenderer {
  /**
   * The SVG of `view` (the seat's view at `version`); `earlier`: the same
   * seat's views at the versions just before, oldest first, for the arrows
   * of the turn's moves.
   */
  svg(view: unknown, version: number, earlier: readonly unknown[], lang: Lang): string;
  /** The same picture as its two layers (for PNG: see BoardLayers). */
  layers(view: unknown, version: number, earlier: readonly unknown[], lang: Lang): BoardLayers;
  /** How many earlier views `svg` may use, at most (the service replays no more). */
  readonly maxEarlier: number;
  /**
   * Which game turn a view is in: `svg` uses the views of the current turn
   * and the one before, so older ones need not be built.
   */
  turnOf(view: unknown): string;
}

/** Renderers by game type; a game type without one has no pictures. */
export const BOARD_RENDERERS: Readonly<Record<string, BoardRenderer>> = {
  'richard-iii': {
    svg(view, version, earlier, lang) {
      const { width, height, base, overlay } = this.layers(view, version, earlier, lang);
      return svgDocument(width, height, [base, overlay]);
    },
    layers: (view, version, earlier, lang) =>
      renderBoardLayers({ view: view as R3View, version, earlier: earlier as R3View[], t: translator('richard-iii', lang) }),
    // Random play takes at most ~110 versions for one game turn; two turns fit with room to spare.
    maxEarlier: 600,
    turnOf: (view) => `${(view as R3View).campaign}:${(view as R3View).turn}`,
  },
};
