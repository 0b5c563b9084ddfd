// Black & White board pictures (src/render/black-and-white.ts), drawn from
// random games on the invented data file: the SVG is well formed (resvg's XML
// parser takes it, tags balance), the PNG renders (size and time printed),
// the legend keys every terrain and feature, every scenario's terrain is drawn
// hex by hex (the invented scenarios between them use all ten terrains), the
// board sits in each of the four layouts as hex.ts counts neighbours, the base
// layer holds nothing from a view but the scenario; in each of the four
// languages every text stays in the picture and is squeezed (svg.ts) by no more
// than English's longest legend line. Over the HTTP API (real
// Postgres): test/http/black-and-white-pictures.test.ts.
import t from 'tap';
import { Resvg } from '@resvg/resvg-js';
import { TERRAINS, BOARD_LAYOUTS, type Army, type BoardData } from '../../src/games/black-and-white/data-format.ts';
import { HexGrid } from '../../src/games/black-and-white/hex.ts';
import type { BWState } from '../../src/games/black-and-white/state.ts';
import { BOARD_RENDERERS, boardPng } from '../../src/render/index.ts';
import { FONT_FILES } from '../../src/render/png.ts';
import { geometryOf, renderBoardLayers, renderBoardSvg, type BWPictureView } from '../../src/render/black-and-white.ts';
import { LANGUAGES, translator } from '../../src/render/messages.ts';
import { textWidth } from '../../src/render/svg.ts';
import { svgTexts } from '../helpers/picture-leaks.ts';
import { bwPictureLeaks } from '../helpers/bw-picture-leaks.ts';
import { INVENTED, balanced, bw, randomGame } from './black-and-white-helpers.ts';

const SEATS: readonly (Army | null)[] = ['Thargaton', 'Vesania', null];
const OPTIONS = { font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: 'Noto Sans' } };
const tr = translator('black-and-white', 'en');
const view = (s: BWState, seat: Army | null) => bw.view(s, seat) as BWPictureView;
const unesc = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');


const games = INVENTED.scenarios.map((sc, i) => ({ scenario: sc, states: randomGame(sc.id, `board-test-${i}`, 600) }));

t.test('well-formed SVG, PNG, legend', async (t) => {
  t.ok(BOARD_RENDERERS['black-and-white'], 'Black & White has a renderer');
  const times: number[] = [];
  const sizes: number[] = [];
  for (const { scenario, states } of games) {
    for (const v of [1, Math.floor(states.length / 3), states.length - 1]) {
      for (const seat of SEATS) {
        const svg = renderBoardSvg({ view: view(states[v]!, seat), version: v, earlier: [], t: tr });
        t.ok(svg.startsWith('<svg') && svg.endsWith('</svg>') && balanced(svg), `${scenario.id} v${v} ${seat}: tags balance`);
        const img = new Resvg(svg, OPTIONS).render();
        t.equal(img.width, 800, 'resvg parses it');
        const c0 = process.cpuUsage();
        const png = boardPng(BOARD_RENDERERS['black-and-white']!.layers(view(states[v]!, seat), v, [], 'en'));
        const c = process.cpuUsage(c0);
        times.push((c.user + c.system) / 1000);
        sizes.push(png.length);
        t.same([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
        t.equal(png.readUInt32BE(16), 800, '800 pixels wide');
      }
    }
  }
  times.sort((a, b) => a - b);
  sizes.sort((a, b) => a - b);
  t.comment(`PNG: median ${times[times.length >> 1]!.toFixed(1)} ms CPU (first, with its base: ${times[times.length - 1]!.toFixed(1)}), median ${(sizes[sizes.length >> 1]! / 1024).toFixed(0)} kB`);
  const texts = svgTexts(renderBoardSvg({ view: view(games[0]!.states[1]!, 'Thargaton'), version: 1, earlier: [], t: tr }));
  for (const terrain of TERRAINS) t.ok(texts.includes(tr(`terrain.${terrain}`)), `legend: ${terrain}`);
  for (const f of ['trench', 'wire', 'fire', 'smoke']) t.ok(texts.includes(tr(`feature.${f}`)), `legend: ${f}`);
  t.ok(texts.some((x) => x.includes('(invented)')), 'the title says invented');
});

t.test('every terrain of every invented scenario is drawn, hex by hex', async (t) => {
  const drawn = new Set<string>();
  for (const { scenario, states } of games) {
    const svg = renderBoardSvg({ view: view(states[0]!, null), version: 1, earlier: [], t: tr });
    const grid = new HexGrid(INVENTED.board);
    for (const terrain of TERRAINS) {
      const want = grid.hexes.filter((h) => (scenario.terrain[h] ?? 'open') === terrain).length;
      const got = [...svg.matchAll(new RegExp(`<polygon class="hex ${terrain}"`, 'g'))].length;
      t.equal(got, want, `${scenario.id}: ${want} ${terrain} hexes`);
      if (got > 0) drawn.add(terrain);
    }
    t.equal([...svg.matchAll(/<polygon class="excluded"/g)].length, INVENTED.board.excluded?.length ?? 0, `${scenario.id}: the excluded half hexes`);
    for (const h of grid.hexes) t.ok(svgTexts(svg).includes(h), `${scenario.id}: hex ${h} named`) || t.bailout?.();
  }
  t.same([...drawn].sort(), [...TERRAINS].sort(), 'the invented scenarios use all ten terrains');
});

t.test('features, aiming markers and blocks are drawn', async (t) => {
  let features = 0;
  let aims = 0;
  for (const { states } of games) {
    for (const s of states.filter((_, i) => i % 25 === 0)) {
      // The overlay: the legend in the base draws one of each too.
      const svg = renderBoardLayers({ view: view(s, null), version: 1, earlier: [], t: tr }).overlay;
      const want = Object.values(s.features).reduce((k, l) => k + l.length, 0);
      t.equal([...svg.matchAll(/class="feature (trench|wire|fire|smoke)"/g)].length, want, 'one mark per feature');
      t.equal([...svg.matchAll(/<g class="aiming">/g)].length, s.aimingMarkers.length, 'one mark per aiming marker');
      t.equal([...svg.matchAll(/<g class="block enemy"/g)].length, s.units.filter((u) => u.hex !== null).length, 'the spectator sees every block on the board');
      features += want;
      aims += s.aimingMarkers.length;
    }
  }
  t.ok(features > 0, `${features} features drawn`);
  t.comment(`${aims} aiming markers drawn`);
});

t.test('the four layouts: neighbouring hexes one hex apart, others farther', async (t) => {
  for (const layout of BOARD_LAYOUTS) {
    const board: BoardData = { columns: 8, rows: 6, layout, excluded: ['1,1'] };
    const g = geometryOf(board);
    const grid = new HexGrid(board);
    const step = g.s * Math.sqrt(3);
    let bad = 0;
    for (const a of grid.hexes) {
      const [ac, ar] = a.split(',').map(Number) as [number, number];
      const pa = g.centre(ac, ar);
      const near = new Set(grid.neighbours(a));
      for (const b of grid.hexes) {
        if (a === b) continue;
        const [bc, br] = b.split(',').map(Number) as [number, number];
        const pb = g.centre(bc, br);
        const d = Math.hypot(pa.x - pb.x, pa.y - pb.y);
        if (near.has(b) ? Math.abs(d - step) > 0.01 : d < step * 1.5) bad++;
      }
      t.ok(pa.x >= g.clip.x && pa.x <= g.clip.x + g.clip.w && pa.y >= g.clip.y && pa.y <= g.clip.y + g.clip.h, `${layout}: ${a} inside the board`) || bad++;
    }
    t.equal(bad, 0, `${layout}: the picture's hexes are hex.ts's`);
  }
});

t.test('every text stays inside the picture, the side column texts inside its box, in every language, none squeezed much', async (t) => {
  let texts = 0;
  const bad: string[] = [];
  let tightest = { ratio: 1, text: '', lang: '' };
  for (const lang of LANGUAGES) {
    const tl = translator('black-and-white', lang);
    for (const { scenario, states } of games) {
      for (const v of [0, 1, Math.floor(states.length / 2), states.length - 1]) {
        for (const seat of SEATS) {
          const { width, height, base, overlay } = renderBoardLayers({ view: view(states[v]!, seat), version: v, earlier: [], t: tl });
          for (const [layer, markup] of [['base', base], ['overlay', overlay]] as const) {
            for (const m of markup.matchAll(/<text x="([\d.-]+)" y="([\d.-]+)" font-size="([\d.]+)"(?: text-anchor="(\w+)")?([^>]*)data-w="([\d.]+)"[^>]*>([^<]*)</g)) {
              texts++;
              const [x, y, size, w] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[6])];
              const left = m[4] === 'middle' ? x - w / 2 : m[4] === 'end' ? x - w : x;
              if (left < 0 || left + w > width || y - size < 0 || y > height) bad.push(`${lang} ${scenario.id} ${layer}: "${m[7]}" at ${x},${y}`);
              // A text longer than its room is squeezed (svg.ts textLength): by no more than English's longest legend line is.
              const ratio = w / textWidth(unesc(m[7]!), size, m[5]!.includes('font-weight="700"'));
              if (ratio < tightest.ratio) tightest = { ratio, text: m[7]!, lang };
              if (ratio < 0.7) bad.push(`${lang} ${scenario.id} ${layer}: "${m[7]}" squeezed to ${ratio.toFixed(2)} of its width`);
            }
          }
          const side = /<g class="side">(.*?)<\/g>/.exec(overlay)![1]!;
          for (const m of side.matchAll(/<text x="([\d.-]+)"[^>]*data-w="([\d.]+)"[^>]*>([^<]*)</g)) {
            if (Number(m[1]) + Number(m[2]) > 790) bad.push(`${lang} ${scenario.id} side column: "${m[3]}" runs out of its box`);
          }
        }
      }
    }
  }
  t.ok(texts > 4000, `${texts} texts checked; the most squeezed: ${tightest.lang} "${tightest.text}" at ${tightest.ratio.toFixed(2)}`);
  t.same(bad.slice(0, 10), [], 'none outside, none squeezed below 0.7');
});

t.test("the words are the language's: legend, family, whose view", async (t) => {
  const st = games[0]!.states[1]!;
  for (const lang of LANGUAGES) {
    const tl = translator('black-and-white', lang);
    const texts = svgTexts(renderBoardSvg({ view: view(st, 'Thargaton'), version: 1, earlier: [], t: tl }));
    for (const terrain of TERRAINS) t.ok(texts.includes(tl(`terrain.${terrain}`)), `${lang} legend: ${terrain}`);
    t.ok(texts.includes(tl('pic.family', { family: 'skirmish' })), `${lang}: the family`);
    t.ok(texts.includes(tl('pic.seat', { seat: 'Thargaton' })), `${lang}: whose view`);
  }
  const pl = svgTexts(renderBoardSvg({ view: view(st, 'Thargaton'), version: 1, earlier: [], t: translator('black-and-white', 'pl') }));
  t.ok(pl.includes('Potyczka') && pl.includes('Bagno') && pl.includes('Zasieki'), "Polish: the rulebook's words");
  t.notOk(pl.includes('Swamp'), 'no English left');
});

t.test('the base layer holds nothing from a view but the scenario', async (t) => {
  for (const { scenario, states } of games) {
    const bases = new Set<string>();
    for (const v of [0, Math.floor(states.length / 2), states.length - 1]) {
      for (const seat of SEATS) bases.add(renderBoardLayers({ view: view(states[v]!, seat), version: v, earlier: [], t: tr }).base);
    }
    t.equal(bases.size, 1, `${scenario.id}: one base for every seat and version`);
  }
});
