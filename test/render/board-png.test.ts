// The board PNG is drawn in two layers (src/render/png.ts): a base shared by
// every picture in one language, rasterised once, and an overlay per picture
// laid over it, encoded by our own PNG writer. Checked here: the result is
// the picture the whole SVG gives through resvg (within 4 of 255 per channel:
// rounding, compounded where translucent shapes overlap), read back by an independent decoder (resvg's, from a data: URI);
// the file is well formed (signature, chunks, CRCs, scanlines); and the base
// holds nothing from the view, so sharing it across seats and games cannot
// leak.
import t, { type Test } from 'tap';
import { Resvg } from '@resvg/resvg-js';
import { crc32, inflateSync } from 'node:zlib';
import { viewFor } from '../../src/games/richard-iii/view.ts';
import type { R3State } from '../../src/games/richard-iii/state.ts';
import { BOARD_RENDERERS, LANGUAGES, boardPng, type Lang } from '../../src/render/index.ts';
import { FONT_FILES, layOver, scanlines } from '../../src/render/png.ts';
import { playout } from '../games/richard-iii/playout-helpers.ts';

const renderer = BOARD_RENDERERS['richard-iii']!;
const OPTIONS = { font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: 'Noto Sans' } };
const SEATS = ['York', 'Lancaster', null] as const;

function statesOf(scenario: string, seed: string): R3State[] {
  const states: R3State[] = [];
  playout({ scenario, seed, endWeight: 0.1, check: false, onState: (s) => states.push(structuredClone(s)) });
  return states;
}

/** The PNG's pixels as resvg's decoder reads them (RGBA). */
function decoded(png: Buffer, width: number, height: number): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image href="data:image/png;base64,${png.toString('base64')}" width="${width}" height="${height}"/></svg>`;
  return new Resvg(svg, OPTIONS).render().pixels;
}

/** Chunks of a PNG file, checking the signature and every CRC. */
function chunks(t: Test, png: Buffer): { type: string; data: Buffer }[] {
  t.same([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  const out: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (png.readUInt32BE(at + 8 + length) !== crc32(png.subarray(at + 4, at + 8 + length))) t.fail(`${type}: bad CRC`);
    out.push({ type, data });
    at += 12 + length;
  }
  return out;
}

t.test('the layered PNG is the whole SVG drawn by resvg, within rounding', async (t) => {
  let pictures = 0;
  let worst = 0;
  const games = [statesOf('wars-of-the-roses', 'png-a'), statesOf('richard-iii', 'png-b')];
  for (const [g, states] of games.entries()) {
    for (let k = 0; k < 4; k++) {
      const v = Math.floor(((k + 0.5) / 4) * states.length);
      const seat = SEATS[(g + k) % 3]!;
      const lang = LANGUAGES[(g * 4 + k) % LANGUAGES.length] as Lang;
      const earlier = states.slice(Math.max(0, v - 120), v).map((s) => viewFor(s, seat));
      const view = viewFor(states[v]!, seat);
      const layers = renderer.layers(view, v, earlier, lang);
      t.equal(renderer.svg(view, v, earlier, lang).length > layers.base.length + layers.overlay.length, true, 'the SVG holds both layers');
      const whole = new Resvg(renderer.svg(view, v, earlier, lang), OPTIONS).render().pixels;
      const png = boardPng(layers);
      const back = decoded(png, layers.width, layers.height);
      t.equal(back.length, whole.length, 'same size');
      let max = 0;
      let differ = 0;
      for (let i = 0; i < whole.length; i++) {
        const d = Math.abs(whole[i]! - back[i]!);
        if (d > max) max = d;
        if (d > 0) differ++;
      }
      worst = Math.max(worst, max);
      if (max > 4) t.fail(`${seat ?? 'spectator'} ${lang} version ${v}: a channel differs by ${max}`);
      t.ok(differ < whole.length * 0.02, `${seat ?? 'spectator'} ${lang} version ${v}: ${differ} of ${whole.length} channels differ by rounding`);
      pictures++;
    }
  }
  t.equal(pictures, 8);
  t.comment(`worst channel difference: ${worst}`);
});

t.test('the file: 8-bit RGB, one IDAT of unfiltered scanlines that inflate to the picture', async (t) => {
  const states = statesOf('kingmaker', 'png-c');
  const view = viewFor(states[Math.floor(states.length / 2)]!, 'York');
  const layers = renderer.layers(view, 7, [], 'en');
  const png = boardPng(layers);
  const cs = chunks(t, png);
  t.same(cs.map((c) => c.type), ['IHDR', 'IDAT', 'IEND']);
  const ihdr = cs[0]!.data;
  t.same([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9], ihdr[10], ihdr[11], ihdr[12]], [layers.width, layers.height, 8, 2, 0, 0, 0], 'width, height, depth 8, RGB, deflate, no filter method, no interlace');
  const raw = inflateSync(cs[1]!.data);
  const stride = layers.width * 3 + 1;
  t.equal(raw.length, stride * layers.height, 'one scanline per row');
  let filters = 0;
  for (let y = 0; y < layers.height; y++) filters += raw[y * stride]!;
  t.equal(filters, 0, 'every row unfiltered');
  t.ok(png.length < 200 * 1024, `${Math.round(png.length / 1024)} kB, under 200 kB`);
});

t.test('laying over: transparent keeps the base, opaque replaces it, partial blends (premultiplied)', async (t) => {
  const base = scanlines({ width: 2, height: 2, rgba: Buffer.from([200, 100, 50, 255, 200, 100, 50, 255, 10, 20, 30, 255, 10, 20, 30, 255]) });
  t.same([...base], [0, 200, 100, 50, 200, 100, 50, 0, 10, 20, 30, 10, 20, 30]);
  // Transparent; opaque red; half-transparent black (premultiplied: 0,0,0,128); half-transparent white (premultiplied 128,128,128,128).
  const overlay = { width: 2, height: 2, rgba: Buffer.from([0, 0, 0, 0, 255, 0, 0, 255, 0, 0, 0, 128, 128, 128, 128, 128]) };
  t.same([...layOver(base, overlay)], [0, 200, 100, 50, 255, 0, 0, 0, 5, 10, 15, 133, 138, 143]);
  t.same([...base], [0, 200, 100, 50, 200, 100, 50, 0, 10, 20, 30, 10, 20, 30], 'the base is not changed');
  t.throws(() => layOver(base, { width: 3, height: 2, rgba: Buffer.alloc(24) }), /differ in size/);
});

t.test('the base layer holds nothing from the view: one per language', async (t) => {
  const a = statesOf('wars-of-the-roses', 'png-d');
  const b = statesOf('kingmaker', 'png-e');
  for (const lang of LANGUAGES as readonly Lang[]) {
    const bases = new Set<string>();
    for (const states of [a, b]) {
      for (const at of [1, Math.floor(states.length / 2), states.length - 1]) {
        for (const seat of SEATS) bases.add(renderer.layers(viewFor(states[at]!, seat), at, [], lang).base);
      }
    }
    t.equal(bases.size, 1, `${lang}: one base for 18 pictures of two games from three seats`);
  }
  const en = renderer.layers(viewFor(a[1]!, 'York'), 1, [], 'en').base;
  const pl = renderer.layers(viewFor(a[1]!, 'York'), 1, [], 'pl').base;
  t.not(en, pl, 'each language has its own (the key is translated)');
});
