// Board pictures: how long one takes to draw and how big it is. Plays random
// Richard III games (the fuzz's playouts), then draws sampled versions from
// York's, Lancaster's and the spectator's seat: SVG (src/render) and PNG
// (on this thread): the server's way (a cached base layer, the overlay
// rasterised and laid over it, encoded by Node's zlib) and, alternately with
// it, the whole SVG through resvg and resvg's encoder (the way before; a
// ratio measured in one run). Prints CPU time per picture (process.cpuUsage,
// so other work on the machine does not count), wall time, and sizes, as
// medians and ranges. Aim (issue 16): a full-board PNG under 50 ms, 200 kB.
//
//   npx tsx scripts/bench-render.ts [--games N] [--samples K] [--lang en|pl|cs|ru] [--write docs/board.png]
//
// --write also saves the York picture of a battle from the first game (the
// README's picture).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { playout } from '../test/games/richard-iii/playout-helpers.ts';
import { viewFor, type R3View } from '../src/games/richard-iii/view.ts';
import type { R3State } from '../src/games/richard-iii/state.ts';
import { BOARD_RENDERERS, boardPng, svgToPng, type Lang } from '../src/render/index.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '3' },
    samples: { type: 'string', default: '20' },
    lang: { type: 'string', default: 'en' },
    write: { type: 'string' },
  },
});
const renderer = BOARD_RENDERERS['richard-iii']!;
const lang = values.lang as Lang;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `median ${q(0.5).toFixed(1)}, p90 ${q(0.9).toFixed(1)}, range ${s[0]!.toFixed(1)}–${s[s.length - 1]!.toFixed(1)}`;
};

const svgCpu: number[] = [];
const pngCpu: number[] = [];
const pngWall: number[] = [];
const svgBytes: number[] = [];
const pngBytes: number[] = [];
const wholeCpu: number[] = [];
const wholeBytes: number[] = [];
const ratio: number[] = [];
// A baseline drawn alternately with the pictures: a blank page of the same size (what rasterising and encoding 800 × H pixels cost at all).
const blankCpu: number[] = [];
const blank = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1130"><rect width="800" height="1130" fill="#fbf8f0"/></svg>`;
// One warm-up picture: module loading and the first font parse are not per-picture costs.
const warm = viewFor(playout({ scenario: 'richard-iii', seed: 'warm', check: false, maxDecisions: 5 }).final, 'York');
svgToPng(renderer.svg(warm, 1, [], lang));
boardPng(renderer.layers(warm, 1, [], lang));

for (let g = 0; g < Number(values.games); g++) {
  const states: R3State[] = [];
  playout({ scenario: ['wars-of-the-roses', 'kingmaker', 'richard-iii'][g % 3]!, seed: `bench-render-${g}`, endWeight: 0.1, check: false, onState: (s) => states.push(structuredClone(s)) });
  const samples = Number(values.samples);
  for (let k = 0; k < samples; k++) {
    const v = Math.floor(((k + 0.5) / samples) * states.length);
    for (const seat of ['York', 'Lancaster', null] as const) {
      const views: R3View[] = states.slice(Math.max(0, v - 200), v + 1).map((s) => viewFor(s, seat));
      const view = views.pop()!;
      const c0 = cpu();
      const svg = renderer.svg(view, v, views, lang);
      const c1 = cpu();
      const w1 = performance.now();
      const png = boardPng(renderer.layers(view, v, views, lang));
      const c2 = cpu();
      pngWall.push(performance.now() - w1);
      const w0 = cpu();
      wholeBytes.push(svgToPng(svg).length / 1024);
      wholeCpu.push(cpu() - w0);
      ratio.push(wholeCpu[wholeCpu.length - 1]! / (c2 - c1));
      const c3 = cpu();
      svgToPng(blank);
      blankCpu.push(cpu() - c3);
      svgCpu.push(c1 - c0);
      pngCpu.push(c2 - c1);
      svgBytes.push(Buffer.byteLength(svg) / 1024);
      pngBytes.push(png.length / 1024);
    }
  }
  if (g === 0 && values.write) {
    const at = states.findIndex((s, i) => i > states.length / 4 && s.flow.length > 0 && s.flow[s.flow.length - 1]!.s === 'battle');
    const v = at >= 0 ? at : Math.floor(states.length / 3);
    const views = states.slice(Math.max(0, v - 200), v + 1).map((s) => viewFor(s, 'York'));
    const view = views.pop()!;
    writeFileSync(values.write, boardPng(renderer.layers(view, v, views, lang)));
    console.log(`wrote ${values.write} (York's view, version ${v} of a random game)`);
  }
}
console.log(`${svgCpu.length} pictures (${values.games} random games, 3 seats, language ${lang}); CPU ms per picture (process.cpuUsage):`);
console.log(`  SVG (render from the view, arrows from up to 200 earlier views): ${stats(svgCpu)}`);
console.log(`  PNG (layers from the view, overlay raster, lay over base, encode): ${stats(pngCpu)}`);
console.log(`  PNG the whole SVG through resvg and its encoder, alternately:     ${stats(wholeCpu)}`);
console.log(`  ratio whole / layered, per picture:                              ${stats(ratio)}`);
console.log(`  blank page PNG, same size (baseline):                           ${stats(blankCpu)}`);
console.log(`  PNG wall ms:                                                     ${stats(pngWall)}`);
console.log(`  SVG kB: ${stats(svgBytes)}; PNG kB: ${stats(pngBytes)} (resvg's encoder: ${stats(wholeBytes)})`);
