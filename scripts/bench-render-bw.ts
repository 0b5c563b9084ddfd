// Black & White board pictures: how long one takes to draw and how big it is
// (scripts/bench-render.ts's method, for Richard III). Plays random games on
// the invented data file (its scenarios in turn), then draws sampled versions
// from Thargaton's, Vesania's and the spectator's seat, with the earlier views
// of the turn and the one before (as the service passes them): SVG, and PNG
// the server's way (a cached base layer per scenario and language, the
// overlay rasterised and laid over it, encoded by Node's zlib) and,
// alternately with it, the whole SVG through resvg and its encoder. Prints CPU
// time per picture (process.cpuUsage: other work on the machine does not
// count), wall time and sizes, as medians and ranges.
//
//   npx tsx scripts/bench-render-bw.ts [--games N] [--samples K] [--write docs/black-and-white-board.png]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { INVENTED, bw, randomGame } from '../test/render/black-and-white-helpers.ts';
import type { Army } from '../src/games/black-and-white/data-format.ts';
import type { BWState } from '../src/games/black-and-white/state.ts';
import { turnKey, type BWPictureView } from '../src/render/black-and-white.ts';
import { BOARD_RENDERERS, boardPng, svgToPng } from '../src/render/index.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '5' },
    samples: { type: 'string', default: '8' },
    write: { type: 'string' },
  },
});
const renderer = BOARD_RENDERERS['black-and-white']!;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `median ${q(0.5).toFixed(1)}, p90 ${q(0.9).toFixed(1)}, range ${s[0]!.toFixed(1)}–${s[s.length - 1]!.toFixed(1)}`;
};
const view = (s: BWState, seat: Army | null) => bw.view(s, seat) as BWPictureView;

/** The seat's views at v and before it, back to the start of the turn before (oldest first), as the service builds them. */
function viewsUpTo(states: readonly BWState[], v: number, seat: Army | null): BWPictureView[] {
  const out: BWPictureView[] = [];
  const turns = new Set<string>();
  for (let i = v; i >= Math.max(0, v - renderer.maxEarlier); i--) {
    const e = view(states[i]!, seat);
    turns.add(turnKey(e));
    if (turns.size > 2) break;
    out.push(e);
  }
  return out.reverse();
}

const svgCpu: number[] = [];
const pngCpu: number[] = [];
const pngWall: number[] = [];
const wholeCpu: number[] = [];
const svgBytes: number[] = [];
const pngBytes: number[] = [];
const earlierCounts: number[] = [];
// One warm-up picture per scenario: module loading, the font and each scenario's base are not per-picture costs.
for (const sc of INVENTED.scenarios) {
  const s = bw.setup({ scenario: sc.id, seed: 'warm', options: {} });
  boardPng(renderer.layers(view(s, null), 1, [], 'en'));
}
svgToPng(renderer.svg(view(bw.setup({ scenario: INVENTED.scenarios[0]!.id, seed: 'warm', options: {} }), null), 1, [], 'en'));

for (let g = 0; g < Number(values.games); g++) {
  const scenario = INVENTED.scenarios[g % INVENTED.scenarios.length]!.id;
  const states = randomGame(scenario, `bench-render-bw-${g}`, 1200);
  const samples = Number(values.samples);
  for (let k = 0; k < samples; k++) {
    // Sampled in play (after deployment), where the blocks are.
    const firstPlay = Math.max(0, states.findIndex((s) => s.phase === 'play'));
    const v = firstPlay + Math.floor(((k + 0.5) / samples) * (states.length - firstPlay));
    for (const seat of ['Thargaton', 'Vesania', null] as const) {
      const views = viewsUpTo(states, v, seat);
      const vw = views.pop()!;
      earlierCounts.push(views.length);
      const c0 = cpu();
      const svg = renderer.svg(vw, v, views, 'en');
      const c1 = cpu();
      const w1 = performance.now();
      const png = boardPng(renderer.layers(vw, v, views, 'en'));
      const c2 = cpu();
      pngWall.push(performance.now() - w1);
      const w0 = cpu();
      svgToPng(svg);
      wholeCpu.push(cpu() - w0);
      svgCpu.push(c1 - c0);
      pngCpu.push(c2 - c1);
      svgBytes.push(Buffer.byteLength(svg) / 1024);
      pngBytes.push(png.length / 1024);
    }
  }
  if (g === 0 && values.write) {
    const v = Math.floor(states.length / 2);
    const views = viewsUpTo(states, v, 'Thargaton');
    const vw = views.pop()!;
    writeFileSync(values.write, boardPng(renderer.layers(vw, v, views, 'en')));
    console.log(`wrote ${values.write} (Thargaton's view, version ${v} of a random game of ${scenario})`);
  }
}
console.log(`${svgCpu.length} pictures (${values.games} random games, 3 seats); CPU ms per picture (process.cpuUsage):`);
console.log(`  SVG (render from the view, arrows from ${stats(earlierCounts).replace(/\.0/g, '')} earlier views): ${stats(svgCpu)}`);
console.log(`  PNG (layers, overlay raster, lay over the cached base, encode): ${stats(pngCpu)}`);
console.log(`  PNG the whole SVG through resvg and its encoder, alternately:  ${stats(wholeCpu)}`);
console.log(`  PNG wall ms:                                                  ${stats(pngWall)}`);
console.log(`  SVG kB: ${stats(svgBytes)}; PNG kB: ${stats(pngBytes)}`);
