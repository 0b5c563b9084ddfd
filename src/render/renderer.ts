// What a game type's board renderer provides (one per game type that has
// pictures, listed in ./index.ts BOARD_RENDERERS): pure functions of one seat's
// views, never of the state.
import type { Lang } from './messages.ts';
import type { BoardLayers } from './svg.ts';

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
