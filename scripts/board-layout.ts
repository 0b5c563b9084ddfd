// Writes src/games/richard-iii/data/board-layout.json: the board picture's
// geometry (src/render). Each area's box starts at its printed-board centre
// (map.json `layout`), scaled into the picture, then boxes that overlap are
// pushed apart until none does; hand corrections go in NUDGE. The output is
// data, committed and checked by test/render/board-layout.test.ts; run this
// only to start the layout afresh (`npx tsx scripts/board-layout.ts`).
import { writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../src/paths.ts';

const DATA = path.join(projectRoot, 'src/games/richard-iii/data');
const map = JSON.parse(readFileSync(path.join(DATA, 'map.json'), 'utf8')) as {
  areas: { id: string; kind: string; layout: { x: number; y: number } }[];
};

const WIDTH = 800;
const BOX = { w: 98, h: 71 };
const GAP = { x: 8, y: 10 };
const MAP_TOP = 30;
const MAP_BOTTOM = 930;
/** Board frame → picture (x, y) before relaxation. */
const SCALE_X = (WIDTH - BOX.w - 16) / (1505 - 120);
const SCALE_Y = (MAP_BOTTOM - MAP_TOP - BOX.h - 10) / (1820 - 160);
/** Hand corrections in picture pixels, applied before relaxation. */
const NUDGE: Record<string, [number, number]> = {
  france: [0, 0],
  calais: [-20, 0],
};

const boxes = map.areas
  .filter((a) => a.kind !== 'sea')
  .map((a) => {
    const [dx, dy] = NUDGE[a.id] ?? [0, 0];
    return { id: a.id, x: 8 + BOX.w / 2 + (a.layout.x - 120) * SCALE_X + dx, y: MAP_TOP + BOX.h / 2 + 5 + (a.layout.y - 160) * SCALE_Y + dy };
  });

const minX = BOX.w / 2 + 4;
const maxX = WIDTH - BOX.w / 2 - 4;
const minY = MAP_TOP + BOX.h / 2;
const maxY = MAP_BOTTOM - BOX.h / 2;
for (let iter = 0; iter < 2000; iter++) {
  let moved = false;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      const ox = BOX.w + GAP.x - Math.abs(a.x - b.x);
      const oy = BOX.h + GAP.y - Math.abs(a.y - b.y);
      if (ox <= 0 || oy <= 0) continue;
      moved = true;
      // Push along the axis that needs the smaller move (boxes keep their geography).
      if (ox / BOX.w < oy / BOX.h) {
        const s = a.x < b.x ? -1 : 1;
        a.x += (s * ox) / 2 + s * 0.5;
        b.x -= (s * ox) / 2 + s * 0.5;
      } else {
        const s = a.y < b.y ? -1 : 1;
        a.y += (s * oy) / 2 + s * 0.5;
        b.y -= (s * oy) / 2 + s * 0.5;
      }
    }
  }
  for (const b of boxes) {
    b.x = Math.min(maxX, Math.max(minX, b.x));
    b.y = Math.min(maxY, Math.max(minY, b.y));
  }
  if (!moved) break;
}

const out: Record<string, { x: number; y: number }> = {};
for (const b of boxes) out[b.id] = { x: Math.round(b.x), y: Math.round(b.y) };
console.log(JSON.stringify(out));
const file = path.join(DATA, 'board-layout.json');
const current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
current.areas = out;
writeFileSync(file, JSON.stringify(current, null, 1) + '\n');
