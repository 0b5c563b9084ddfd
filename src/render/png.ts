// SVG → PNG through resvg (@resvg/resvg-js: a maintained Rust rasteriser
// shipped as prebuilt Node binaries, no system libraries). Text is drawn with
// the font bundled in ./fonts (Noto Sans, SIL Open Font License, cut down to
// Latin, Latin Extended and Cyrillic by scripts/subset-font.sh), never the
// system's fonts, so a picture looks the same on every machine, offline.
//
// Why a board picture is drawn in two layers (measured for issue 16; figures
// in the README, `npm run bench:render`): resvg spends most of a picture on
// text — ~0.2 ms per <text> to shape and outline, and the map alone has ~60 —
// and its own PNG encoder (RGBA, level 6) on 800 × 1130 pixels cost as much
// again.
//
// The map's part that is the same in every picture of a language (the base)
// is rasterised once and kept as pixels; each picture rasterises only its
// overlay (blocks, arrows, title, the legend's game column) on a transparent
// canvas, lays it over a copy of the base, and encodes RGB at zlib level 3
// (Node's zlib): half the time, and smaller files. Why not pngjs: measured
// at ~120 ms for the same encoding (its JS filters).
import { Resvg, renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import path from 'node:path';
import { crc32, deflate, deflateSync } from 'node:zlib';
import { promisify } from 'node:util';
import { projectRoot } from '../paths.ts';
import { svgDocument, type BoardLayers } from './svg.ts';

const FONT_DIR = path.join(projectRoot, 'src/render/fonts');
export const FONT_FILES = [path.join(FONT_DIR, 'NotoSans-Regular.ttf'), path.join(FONT_DIR, 'NotoSans-Bold.ttf')];

const OPTIONS: ResvgRenderOptions = {
  font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: 'Noto Sans' },
};

/** Any SVG document, as a PNG (resvg's encoder). */
export function svgToPng(svg: string): Buffer {
  return new Resvg(svg, OPTIONS).render().asPng();
}

/** Rasterised pixels: RGBA, premultiplied by alpha (tiny-skia's pixmap). */
interface Pixels {
  width: number;
  height: number;
  rgba: Buffer;
}

function rasterise(svg: string): Pixels {
  const img = new Resvg(svg, OPTIONS).render();
  return { width: img.width, height: img.height, rgba: img.pixels };
}

/** The same, rasterised on libuv's thread pool (the server's event loop keeps answering meanwhile). */
async function rasteriseAsync(svg: string): Promise<Pixels> {
  const img = await renderAsync(svg, OPTIONS);
  return { width: img.width, height: img.height, rgba: img.pixels };
}

// Base layers as scanlines, by their markup (one per game type and
// language: a handful, 2.7 MB each); a base that changed simply misses.
const BASE_LIMIT = 16;
const bases = new Map<string, Buffer | Promise<Buffer>>();

function remember(key: string, entry: Buffer | Promise<Buffer>): void {
  if (!bases.has(key) && bases.size >= BASE_LIMIT) bases.delete(bases.keys().next().value!);
  bases.set(key, entry);
}

function baseSync(layers: BoardLayers): Buffer {
  const cached = bases.get(layers.base);
  if (cached !== undefined && !(cached instanceof Promise)) return cached;
  const lines = scanlines(rasterise(svgDocument(layers.width, layers.height, [layers.base])));
  remember(layers.base, lines);
  return lines;
}

function baseAsync(layers: BoardLayers): Buffer | Promise<Buffer> {
  const cached = bases.get(layers.base);
  if (cached !== undefined) return cached;
  const pending: Promise<Buffer> = rasteriseAsync(svgDocument(layers.width, layers.height, [layers.base])).then(
    (pixels) => {
      const lines = scanlines(pixels);
      if (bases.get(layers.base) === pending) bases.set(layers.base, lines);
      return lines;
    },
    (err: unknown) => {
      if (bases.get(layers.base) === pending) bases.delete(layers.base);
      throw err;
    },
  );
  remember(layers.base, pending);
  return pending;
}

/** Opaque pixels as PNG scanlines: a filter byte (0, none), then RGB per pixel. */
export function scanlines({ width, height, rgba }: Pixels): Buffer {
  const stride = width * 3 + 1;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    let d = y * stride + 1;
    for (let s = y * width * 4, end = s + width * 4; s < end; s += 4) {
      out[d++] = rgba[s]!;
      out[d++] = rgba[s + 1]!;
      out[d++] = rgba[s + 2]!;
    }
  }
  return out;
}

/**
 * The overlay laid over the base's scanlines ("source over"; the overlay is
 * premultiplied and the base opaque, so the result is opaque): a copy of
 * the base, with only the overlay's non-transparent pixels visited.
 */
export function layOver(base: Buffer, overlay: Pixels): Buffer {
  const { width, height, rgba: o } = overlay;
  const stride = width * 3 + 1;
  if (base.length !== stride * height) throw new Error(`layers differ in size: ${base.length} bytes of scanlines for ${width}×${height}`);
  const out = Buffer.allocUnsafe(base.length);
  base.copy(out);
  const words = new Uint32Array(o.buffer, o.byteOffset, o.length >> 2);
  for (let i = 0, y = 0, x = 0; i < words.length; i++) {
    if (words[i] !== 0) {
      const s = i << 2;
      const d = y * stride + 1 + x * 3;
      const a = o[s + 3]!;
      if (a === 255) {
        out[d] = o[s]!;
        out[d + 1] = o[s + 1]!;
        out[d + 2] = o[s + 2]!;
      } else {
        const k = 255 - a;
        out[d] = (o[s]! + (out[d]! * k + 127) / 255) | 0;
        out[d + 1] = (o[s + 1]! + (out[d + 1]! * k + 127) / 255) | 0;
        out[d + 2] = (o[s + 2]! + (out[d + 2]! * k + 127) / 255) | 0;
      }
    }
    if (++x === width) {
      x = 0;
      y++;
    }
  }
  return out;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG file (8-bit RGB, no interlace) from deflated scanlines (PNG spec §11.2). */
function pngFile(width: number, height: number, idat: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

// Level 3: measured against 1 and 6 on board pictures, ~11 ms and ~117 kB
// against 11 ms / 124 kB and 25 ms / 99 kB.
const ZLIB = { level: 3 };
const deflateAsync = promisify(deflate);

/** A board picture as PNG, on this thread (benchmarks, tests). */
export function boardPng(layers: BoardLayers): Buffer {
  const base = baseSync(layers);
  const overlay = rasterise(svgDocument(layers.width, layers.height, [layers.overlay]));
  return pngFile(layers.width, layers.height, deflateSync(layOver(base, overlay), ZLIB));
}

/** The same for the server: rasterising and deflating run on libuv's thread pool; only laying the layers together runs here. */
export async function boardPngAsync(layers: BoardLayers): Promise<Buffer> {
  const [base, overlay] = await Promise.all([baseAsync(layers), rasteriseAsync(svgDocument(layers.width, layers.height, [layers.overlay]))]);
  return pngFile(layers.width, layers.height, await deflateAsync(layOver(base, overlay), ZLIB));
}
