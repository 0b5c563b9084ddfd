// Board pictures: how long one takes to draw and how big it is, for a game
// type with pictures (--type richard-iii, the default, or black-and-white).
// Plays random games (Richard III: the fuzz's playouts, its scenarios in
// turn; Black & White: the invented data file's scenarios in turn), then
// draws sampled versions from each seat's and the spectator's view, with the
// earlier views the service passes for arrows (Richard III: up to 200;
// Black & White: back to the start of the turn before): SVG (src/render) and
// PNG (on this thread) the server's way (a cached base layer, the overlay
// rasterised and laid over it, encoded by Node's zlib) and, alternately with
// it, the whole SVG through resvg and resvg's encoder (the way before; a
// ratio measured in one run), and a blank page of the same size as a
// baseline. Prints CPU time per picture (process.cpuUsage, so other work on
// the machine does not count), wall time, and sizes, as medians and ranges.
// Aim (issue 16): a full-board PNG under 50 ms, 200 kB.
//
//   npm run bench:render -- [--type richard-iii|black-and-white] [--games N] [--samples K] [--lang en|pl|cs|ru] [--write docs/board.png]
//
// --write also saves a picture from the first game (the README's: York's
// view of a battle; Thargaton's view half-way through a Black & White game).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { playout } from '../test/games/richard-iii/playout-helpers.ts';
import { INVENTED, bw, randomGame } from '../test/render/black-and-white-helpers.ts';
import { viewFor } from '../src/games/richard-iii/view.ts';
import type { R3State } from '../src/games/richard-iii/state.ts';
import type { Army } from '../src/games/black-and-white/data-format.ts';
import type { BWState } from '../src/games/black-and-white/state.ts';
import { turnKey, type BWPictureView } from '../src/render/black-and-white.ts';
import { BOARD_RENDERERS, boardPng, svgToPng, type Lang } from '../src/render/index.ts';

/** What the bench needs of a game type: its random games, seats and views. */
interface Source {
  games: number;
  samples: number;
  seats: readonly (string | null)[];
  /** A few pictures drawn before timing: module loading, fonts and each base are not per-picture costs. */
  warmUp(lang: Lang): void;
  /** Game g's states, version by version, and where sampling starts. */
  play(g: number): { states: unknown[]; first: number; label: string };
  /** The seat's views up to version v, oldest first (the last one is v's). */
  views(states: readonly unknown[], v: number, seat: string | null): unknown[];
  /** The picture --write saves: a version of the first game, and whose view. */
  pictureAt(states: readonly unknown[]): { v: number; seat: string };
}

const R3_SCENARIOS = ['wars-of-the-roses', 'kingmaker', 'richard-iii'];
const r3: Source = {
  games: 3,
  samples: 20,
  seats: ['York', 'Lancaster', null],
  warmUp(lang) {
    const warm = viewFor(playout({ scenario: 'richard-iii', seed: 'warm', check: false, maxDecisions: 5 }).final, 'York');
    const renderer = BOARD_RENDERERS['richard-iii']!;
    svgToPng(renderer.svg(warm, 1, [], lang));
    boardPng(renderer.layers(warm, 1, [], lang));
  },
  play(g) {
    const states: R3State[] = [];
    const scenario = R3_SCENARIOS[g % R3_SCENARIOS.length]!;
    playout({ scenario, seed: `bench-render-${g}`, endWeight: 0.1, check: false, onState: (s) => states.push(structuredClone(s)) });
    return { states, first: 0, label: scenario };
  },
  views: (states, v, seat) => (states as R3State[]).slice(Math.max(0, v - 200), v + 1).map((s) => viewFor(s, seat as 'York' | 'Lancaster' | null)),
  pictureAt(states) {
    const at = (states as R3State[]).findIndex((s, i) => i > states.length / 4 && s.flow.length > 0 && s.flow[s.flow.length - 1]!.s === 'battle');
    return { v: at >= 0 ? at : Math.floor(states.length / 3), seat: 'York' };
  },
};

const bwView = (s: BWState, seat: string | null) => bw.view(s, seat as Army | null) as BWPictureView;
const blackAndWhite: Source = {
  games: 5,
  samples: 8,
  seats: ['Thargaton', 'Vesania', null],
  warmUp(lang) {
    const renderer = BOARD_RENDERERS['black-and-white']!;
    for (const sc of INVENTED.scenarios) boardPng(renderer.layers(bwView(bw.setup({ scenario: sc.id, seed: 'warm', options: {} }), null), 1, [], lang));
    svgToPng(renderer.svg(bwView(bw.setup({ scenario: INVENTED.scenarios[0]!.id, seed: 'warm', options: {} }), null), 1, [], lang));
  },
  play(g) {
    const scenario = INVENTED.scenarios[g % INVENTED.scenarios.length]!.id;
    const states = randomGame(scenario, `bench-render-bw-${g}`, 1200);
    // Sampled in play (after deployment), where the blocks are.
    return { states, first: Math.max(0, states.findIndex((s) => s.phase === 'play')), label: scenario };
  },
  // Back to the start of the turn before, at most the renderer's maxEarlier, as the service builds them.
  views(states, v, seat) {
    const out: BWPictureView[] = [];
    const turns = new Set<string>();
    for (let i = v; i >= Math.max(0, v - BOARD_RENDERERS['black-and-white']!.maxEarlier); i--) {
      const e = bwView(states[i] as BWState, seat);
      turns.add(turnKey(e));
      if (turns.size > 2) break;
      out.push(e);
    }
    return out.reverse();
  },
  pictureAt: (states) => ({ v: Math.floor(states.length / 2), seat: 'Thargaton' }),
};

const SOURCES: Record<string, Source> = { 'richard-iii': r3, 'black-and-white': blackAndWhite };

const { values } = parseArgs({
  options: {
    type: { type: 'string', default: 'richard-iii' },
    games: { type: 'string' },
    samples: { type: 'string' },
    lang: { type: 'string', default: 'en' },
    write: { type: 'string' },
  },
});
const source = SOURCES[values.type];
if (!source) throw new Error(`--type: one of ${Object.keys(SOURCES).join(', ')}`);
const renderer = BOARD_RENDERERS[values.type]!;
const lang = values.lang as Lang;
const games = Number(values.games ?? source.games);
const samples = Number(values.samples ?? source.samples);
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
const earlierCounts: number[] = [];
// A baseline drawn alternately with the pictures: a blank page of the same size (what rasterising and encoding 800 × H pixels cost at all).
const blankCpu: number[] = [];
const blank = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1130"><rect width="800" height="1130" fill="#fbf8f0"/></svg>`;
source.warmUp(lang);

for (let g = 0; g < games; g++) {
  const { states, first, label } = source.play(g);
  for (let k = 0; k < samples; k++) {
    const v = first + Math.floor(((k + 0.5) / samples) * (states.length - first));
    for (const seat of source.seats) {
      const views = source.views(states, v, seat);
      const view = views.pop()!;
      earlierCounts.push(views.length);
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
    const { v, seat } = source.pictureAt(states);
    const views = source.views(states, v, seat);
    const view = views.pop()!;
    writeFileSync(values.write, boardPng(renderer.layers(view, v, views, lang)));
    console.log(`wrote ${values.write} (${seat}'s view, version ${v} of a random game of ${label})`);
  }
}
console.log(`${svgCpu.length} pictures of ${values.type} (${games} random games, ${source.seats.length} seats, language ${lang}); CPU ms per picture (process.cpuUsage):`);
console.log(`  SVG (render from the view, arrows from ${stats(earlierCounts).replace(/\.0/g, '')} earlier views): ${stats(svgCpu)}`);
console.log(`  PNG (layers from the view, overlay raster, lay over base, encode): ${stats(pngCpu)}`);
console.log(`  PNG the whole SVG through resvg and its encoder, alternately:     ${stats(wholeCpu)}`);
console.log(`  ratio whole / layered, per picture:                              ${stats(ratio)}`);
console.log(`  blank page PNG, same size (baseline):                           ${stats(blankCpu)}`);
console.log(`  PNG wall ms:                                                     ${stats(pngWall)}`);
console.log(`  SVG kB: ${stats(svgBytes)}; PNG kB: ${stats(pngBytes)} (resvg's encoder: ${stats(wholeBytes)})`);
