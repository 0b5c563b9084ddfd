// SVG → PNG through resvg (@resvg/resvg-js: a maintained Rust rasteriser
// shipped as prebuilt Node binaries, no system libraries). Text is drawn with
// the font bundled in ./fonts (Noto Sans, SIL Open Font License, cut down to
// Latin, Latin Extended and Cyrillic by scripts/subset-font.sh), never the
// system's fonts, so a picture looks the same on every machine, offline.
import { Resvg, renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import path from 'node:path';
import { projectRoot } from '../paths.ts';

const FONT_DIR = path.join(projectRoot, 'src/render/fonts');
export const FONT_FILES = [path.join(FONT_DIR, 'NotoSans-Regular.ttf'), path.join(FONT_DIR, 'NotoSans-Bold.ttf')];

const OPTIONS: ResvgRenderOptions = {
  font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: 'Noto Sans' },
};

export function svgToPng(svg: string): Buffer {
  return new Resvg(svg, OPTIONS).render().asPng();
}

/** The same, rasterised on libuv's thread pool (the server's event loop keeps answering meanwhile); only the PNG encoding runs here. */
export async function svgToPngAsync(svg: string): Promise<Buffer> {
  return (await renderAsync(svg, OPTIONS)).asPng();
}
