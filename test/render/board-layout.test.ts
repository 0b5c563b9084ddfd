// The board picture's layout (src/games/richard-iii/data/board-layout.json)
// holds for every position: every area is placed, no two area boxes or
// block chips overlap even with every area at its largest stack (more blocks
// than slots fold into a "+N" chip), sea zones and the legend stay clear of
// the boxes, and every text of a crowded picture, in all four languages,
// stays inside the picture (and each chip's and box's text inside its chip
// or box).
import t from 'tap';
import { AREAS, BLOCKS } from '../../src/games/richard-iii/data.ts';
import { HANDLERS } from '../../src/games/richard-iii/index.ts';
import { setupState } from '../../src/games/richard-iii/setup.ts';
import { viewFor, type R3View } from '../../src/games/richard-iii/view.ts';
import { LAYOUT, SLOTS, renderBoardSvg, slotAt } from '../../src/render/richard-iii.ts';
import { LANGUAGES, translator } from '../../src/render/messages.ts';

interface Rect { x: number; y: number; w: number; h: number }
const overlap = (a: Rect, b: Rect, gap = 0) => a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
const inside = (a: Rect, b: Rect) => a.x >= b.x - 0.01 && a.y >= b.y - 0.01 && a.x + a.w <= b.x + b.w + 0.01 && a.y + a.h <= b.y + b.h + 0.01;
const { width, height, box, chip, legend } = LAYOUT;
const canvas: Rect = { x: 0, y: 0, w: width, h: height };
const boxOf = (id: string): Rect => ({ x: LAYOUT.areas[id]!.x - box.w / 2, y: LAYOUT.areas[id]!.y - box.h / 2, w: box.w, h: box.h });
const places = AREAS.filter((a) => a.kind !== 'sea');

t.test('every area is placed, and only areas', async (t) => {
  t.same(Object.keys(LAYOUT.areas).sort(), places.map((a) => a.id).sort(), 'a box per land and exile area');
  t.same(Object.keys(LAYOUT.seas).sort(), AREAS.filter((a) => a.kind === 'sea').map((a) => a.id).sort(), 'an oval per sea zone');
  t.same(BLOCKS.filter((b) => !LAYOUT.blockLabels[b.id]).map((b) => b.id), [], 'a short label per block');
  t.same(Object.keys(HANDLERS).filter((s) => !LAYOUT.phases[s]), [], 'a phase per flow state');
});

t.test('boxes, seas and the legend do not overlap and stay inside', async (t) => {
  const map: Rect = { x: 0, y: LAYOUT.map.top, w: width, h: LAYOUT.map.bottom - LAYOUT.map.top };
  for (const a of places) t.ok(inside(boxOf(a.id), map), `${a.id} inside the map`);
  for (let i = 0; i < places.length; i++) {
    for (let j = i + 1; j < places.length; j++) {
      if (overlap(boxOf(places[i]!.id), boxOf(places[j]!.id), 2)) t.fail(`${places[i]!.id} and ${places[j]!.id} overlap`);
    }
  }
  for (const [id, s] of Object.entries(LAYOUT.seas)) {
    const r = { x: s.x - s.rx, y: s.y - s.ry, w: 2 * s.rx, h: 2 * s.ry };
    t.ok(inside(r, map), `${id} inside the map`);
    // The oval against each box: a box corner or edge point inside the ellipse is an overlap.
    for (const a of places) {
      const b = boxOf(a.id);
      const nx = Math.max(b.x, Math.min(s.x, b.x + b.w));
      const ny = Math.max(b.y, Math.min(s.y, b.y + b.h));
      if (((nx - s.x) / s.rx) ** 2 + ((ny - s.y) / s.ry) ** 2 < 1) t.fail(`${id} covers ${a.id}`);
    }
  }
  t.ok(legend.y >= LAYOUT.map.bottom, 'the legend is below the map');
  t.ok(inside({ x: legend.x, y: legend.y, w: legend.w, h: legend.h }, canvas), 'the legend is inside');
  t.ok(legend.pad + legend.size + (legend.rows - 1) * legend.lineHeight + 4 <= legend.h, 'its rows fit');
  t.ok(legend.columns.every((c) => c + legend.columnWidth <= legend.w - legend.pad), 'its columns fit');
});

t.test('chip slots: inside their box, below its header, never overlapping', async (t) => {
  for (const a of places) {
    const b = boxOf(a.id);
    const slots: Rect[] = [];
    for (let i = 0; i < SLOTS; i++) {
      const p = slotAt(LAYOUT.areas[a.id]!.x, LAYOUT.areas[a.id]!.y, i);
      slots.push({ x: p.x, y: p.y, w: chip.w, h: chip.h });
    }
    for (const s of slots) {
      if (!inside(s, b)) t.fail(`${a.id}: a slot outside the box`);
      if (s.y < b.y + box.nameY + 2) t.fail(`${a.id}: a slot over the header`);
    }
    for (let i = 0; i < slots.length; i++) for (let j = i + 1; j < slots.length; j++) if (overlap(slots[i]!, slots[j]!)) t.fail(`${a.id}: slots ${i} and ${j} overlap`);
  }
  t.pass('checked');
});

/** A crowded position: every area holds more blocks than its slots, a battle, pending battles, every legend line. */
function crowded(seat: 'York' | 'Lancaster' | null): R3View {
  const v = viewFor(setupState('wars-of-the-roses', 'layout'), seat);
  const areas: R3View['areas'] = {};
  for (const a of places) areas[a.id] = { York: { n: 7, down: 1, acted: 0 }, Lancaster: { n: 7, down: 0, acted: 0 } };
  const blocks = (v.blocks ?? []).map((b, i) => ({ ...b, loc: places[i % 3]!.id }));
  return {
    ...v,
    areas,
    ...(v.blocks ? { blocks } : {}),
    battle: { area: 'middlesex', blocks: [{ id: 'northumberland-l', side: 'Lancaster', loc: 'middlesex', steps: 4 }, { id: 'westmoreland-y', side: 'York', loc: 'middlesex', steps: 3 }] },
    attacks: { kent: { attacker: 'York', main: 'sussex', entries: { York: ['sussex'], Lancaster: [] }, reserves: { York: 0, Lancaster: 0 }, pirates: { York: 0, Lancaster: 0 } } },
    cards: { ...v.cards, p1: 'York', played: { York: 'force-march', Lancaster: 'hidden' } },
    result: { winner: 'Lancaster', reason: 'test' },
    prompt: { ...v.prompt, state: 'supply_limits' },
  };
}

t.test('every text stays inside the picture, in every language', async (t) => {
  const earlier = [crowded(null)];
  for (const lang of LANGUAGES) {
    const tr = translator('richard-iii', lang);
    for (const seat of ['York', 'Lancaster', null] as const) {
      const view = crowded(seat);
      const prev = { ...earlier[0]!, areas: { ...view.areas, kent: { York: { n: 3, down: 0, acted: 0 } }, sussex: { York: { n: 7, down: 0, acted: 0 } } } };
      const svg = renderBoardSvg({ view, version: 99, earlier: [prev], t: tr });
      let texts = 0;
      for (const m of svg.matchAll(/<text ([^>]*)>/g)) {
        const attr = (k: string) => new RegExp(`(?:^| )${k}="([^"]*)"`).exec(m[1]!)?.[1];
        const x = Number(attr('x'));
        const y = Number(attr('y'));
        const size = Number(attr('font-size'));
        const w = Number(attr('data-w'));
        const anchor = attr('text-anchor') ?? 'start';
        const left = anchor === 'middle' ? x - w / 2 : anchor === 'end' ? x - w : x;
        const r = { x: left, y: y - size, w, h: size * 1.25 };
        texts++;
        if (!inside(r, canvas)) t.fail(`${lang} ${seat}: text at ${x},${y} (${w} wide) leaves the picture`);
        // A text in an area box stays in that box; one in a chip stays in the chip.
        const home = places.find((a) => inside({ x: x, y: y - 1, w: 0.1, h: 0.1 }, boxOf(a.id)));
        if (home && !inside(r, { ...boxOf(home.id), y: boxOf(home.id).y - 2, h: box.h + 4 })) t.fail(`${lang} ${seat}: text at ${x},${y} leaves the ${home.id} box`);
      }
      // Chips: one per slot at most, the folded one included.
      const chips = [...svg.matchAll(/<g class="chip[^"]*"[^>]*><rect x="([\d.]+)" y="([\d.]+)"/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]), w: chip.w, h: chip.h }));
      t.ok(chips.length >= places.length * SLOTS, `${lang} ${seat}: every slot filled (${chips.length} chips)`);
      let bad = 0;
      for (let i = 0; i < chips.length; i++) for (let j = i + 1; j < chips.length; j++) if (overlap(chips[i]!, chips[j]!)) bad++;
      t.equal(bad, 0, `${lang} ${seat}: no two chips overlap`);
      t.ok(svg.includes('class="chip more"'), 'a full area folds its surplus into a "+N" chip');
      t.ok(texts > 60, `${texts} texts checked`);
    }
  }
});
