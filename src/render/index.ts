// Board pictures (issue 16): per game type, a renderer from one seat's view
// to SVG (pure), and SVG → PNG. The service chooses the view (seat, version)
// and caches the result; this layer never sees the server's state.
import { blackAndWhiteRenderer } from './black-and-white.ts';
import { richardIIIRenderer } from './richard-iii.ts';
import type { BoardRenderer } from './renderer.ts';

export { boardPng, boardPngAsync, svgToPng } from './png.ts';
export { svgDocument, type BoardLayers } from './svg.ts';
export { LANGUAGES, type Lang, type Translate } from './messages.ts';
export type { BoardRenderer } from './renderer.ts';

/**
 * Renderers by game type (one file each); a game type without one has no
 * pictures: its board.svg/png answer 404 with reason no_pictures and its pages
 * show the log alone.
 */
export const BOARD_RENDERERS: Readonly<Record<string, BoardRenderer>> = {
  'richard-iii': richardIIIRenderer,
  'black-and-white': blackAndWhiteRenderer,
};
