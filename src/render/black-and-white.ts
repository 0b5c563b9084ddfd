// The Black & White board picture as SVG, drawn from one seat's view (the
// allow-listed view a client gets, src/games/black-and-white/view.ts: it
// cannot show what the view does not hold). The hex board in the data file's
// layout, terrain per hex, the scenario's first rows, arrow hexes and forts,
// features and aiming markers, and the blocks: the seat's own with kind and
// strength, the enemy's with their type only, plus the kind once the view
// says it is revealed (never a strength). A side column says the game's
// state; a legend below keys the terrain and the marks.
//
// Two layers (src/render/svg.ts BoardLayers): the base is the board of one
// scenario in one language (terrain, hex names, scenario marks, legend) and
// holds nothing from a view but the scenario, the board and the data file's
// "invented" flag, all public; the PNG path caches bases by their markup, so
// a handful of scenarios per language share the cache with Richard III's.
// Colours, sizes and fills: ./black-and-white.json.
import { createRequire } from 'node:module';
import type { Army, BoardData, Feature, ScenarioData, Terrain, UnitType } from '../games/black-and-white/data-format.ts';
import { translator, type Translate } from './messages.ts';
import type { BoardRenderer } from './renderer.ts';
import { n, svgDocument, text, type BoardLayers } from './svg.ts';

const require = createRequire(import.meta.url);

interface Style {
  width: number;
  board: { x: number; y: number; w: number; h: number; nameSize: number; edgeSize: number };
  side: { x: number; w: number; size: number; lineHeight: number };
  legend: { pad: number; size: number; lineHeight: number; columns: number };
  terrain: Record<Terrain, { fill: string; pattern?: string; border?: string; dash?: string }>;
  patterns: Record<string, { size: number; body: string }>;
  armies: Record<Army, { fill: string; stroke: string; text: string; arrow: string; arrowStroke: string; firstRowUnder?: string }>;
  colours: Record<string, string>;
}

export const STYLE: Style = require('./black-and-white.json');

const ARMY_LIST: readonly Army[] = ['Thargaton', 'Vesania'];
const TERRAIN_LIST: readonly Terrain[] = ['open', 'swamp', 'stream', 'river', 'fort', 'forest', 'hills', 'mountains', 'bunker', 'bridge'];
const FEATURE_LIST: readonly Feature[] = ['trench', 'wire', 'fire', 'smoke'];
const SQ3 = Math.sqrt(3);

/** What the picture reads of a view (view.ts viewFor); the rest is ignored. */
export interface BWPictureView {
  game: 'black-and-white';
  seat: Army | null;
  data: { title: string; invented: boolean };
  scenario: ScenarioData;
  board: BoardData;
  kinds: { id: string; army: Army; type: UnitType; strength: number }[];
  phase: 'purchase' | 'deploy' | 'play' | 'over';
  turn: number;
  player: Army | null;
  markersLeft: number;
  activated: string[];
  attackerTurns: number;
  brokeThrough: string[];
  features: Record<string, Feature[]>;
  aimingMarkers: { hex: string; army: Army; by: string; target: string | null }[];
  armies: Record<
    Army,
    {
      markers: number;
      vp: number;
      done?: boolean;
      bought?: string[];
      budgetLeft?: number;
      placed?: (string | null)[];
      /** Kind cards lying face up (A54): kinds the other army has been shown, even of a block still hidden. */
      cardsShown?: string[];
      units: { id: string; type: UnitType; hex: string | null; kind?: string; strength?: number; revealed?: boolean; army?: Army }[];
    }
  >;
  /** `units`: those the seat may see; `count`: all of them, from `startHex` (units picked out of a stack stay unseen by the opponent). */
  activation: { units: string[]; count?: number; startHex?: string } | null;
  pending: { army: Army; unit: string; fromHex: string }[];
  result: { winner: Army | null; reason: string } | null;
}

export interface BoardInput {
  view: BWPictureView;
  version: number;
  /** The same seat's views at the versions before, oldest first (for the move arrows; may be empty). */
  earlier: readonly BWPictureView[];
  t: Translate;
}

// ---------------------------------------------------------------- geometry

/** Where a board's hexes sit in the picture: centres in pixels, hex circumradius `s`. */
export interface Geometry {
  flat: boolean;
  s: number;
  centre(column: number, row: number): { x: number; y: number };
  /** The playable hexes' bounding box (excluded half hexes are cut at it). */
  clip: { x: number; y: number; w: number; h: number };
}

/** Centre of (column, row) with circumradius 1, before placing. */
function unitCentre(board: BoardData, column: number, row: number): { x: number; y: number } {
  const c = column - 1;
  const r = row - 1;
  switch (board.layout) {
    case 'flat-even-down':
      return { x: 1 + 1.5 * c, y: SQ3 * (r + 0.5) + (c % 2 === 1 ? SQ3 / 2 : 0) };
    case 'flat-odd-down':
      return { x: 1 + 1.5 * c, y: SQ3 * (r + 0.5) + (c % 2 === 0 ? SQ3 / 2 : 0) };
    case 'pointy-even-right':
      return { x: SQ3 * (c + 0.5) + (r % 2 === 1 ? SQ3 / 2 : 0), y: 1 + 1.5 * r };
    case 'pointy-odd-right':
      return { x: SQ3 * (c + 0.5) + (r % 2 === 0 ? SQ3 / 2 : 0), y: 1 + 1.5 * r };
  }
}

const geometries = new WeakMap<BoardData, Geometry>();

export function geometryOf(board: BoardData): Geometry {
  const cached = geometries.get(board);
  if (cached) return cached;
  const flat = board.layout.startsWith('flat');
  const hw = flat ? 1 : SQ3 / 2;
  const hh = flat ? SQ3 / 2 : 1;
  const excluded = new Set(board.excluded ?? []);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let c = 1; c <= board.columns; c++) {
    for (let r = 1; r <= board.rows; r++) {
      if (excluded.has(`${c},${r}`)) continue;
      const p = unitCentre(board, c, r);
      x0 = Math.min(x0, p.x - hw);
      x1 = Math.max(x1, p.x + hw);
      y0 = Math.min(y0, p.y - hh);
      y1 = Math.max(y1, p.y + hh);
    }
  }
  const B = STYLE.board;
  const s = Math.min(B.w / (x1 - x0), B.h / (y1 - y0));
  const ox = B.x + (B.w - s * (x1 - x0)) / 2 - s * x0;
  const oy = B.y - s * y0;
  const g: Geometry = {
    flat,
    s,
    centre: (c, r) => {
      const p = unitCentre(board, c, r);
      return { x: ox + s * p.x, y: oy + s * p.y };
    },
    clip: { x: ox + s * x0, y: oy + s * y0, w: s * (x1 - x0), h: s * (y1 - y0) },
  };
  geometries.set(board, g);
  return g;
}

function hexPoints(g: Geometry, cx: number, cy: number, k = 1): string {
  const pts: string[] = [];
  for (let i = 0; i < 6; i++) {
    const a = ((g.flat ? 0 : 30) + 60 * i) * (Math.PI / 180);
    pts.push(`${n(cx + g.s * k * Math.cos(a))},${n(cy + g.s * k * Math.sin(a))}`);
  }
  return pts.join(' ');
}

function parse(id: string): { c: number; r: number } | null {
  const m = /^(\d+),(\d+)$/.exec(id);
  return m ? { c: Number(m[1]), r: Number(m[2]) } : null;
}

function centreOf(g: Geometry, id: string): { x: number; y: number } | null {
  const p = parse(id);
  return p ? g.centre(p.c, p.r) : null;
}

// ---------------------------------------------------------------- base layer

function patternDefs(): string {
  return Object.entries(STYLE.patterns)
    .map(([id, p]) => `<pattern id="bw-${id}" width="${p.size}" height="${p.size}" patternUnits="userSpaceOnUse">${p.body}</pattern>`)
    .join('');
}

/** One terrain's look in a hexagon (or the legend's swatch polygon). */
function terrainShape(points: string, terrain: Terrain, cls = 'hex'): string {
  const look = STYLE.terrain[terrain];
  let out = `<polygon class="${cls} ${terrain}" points="${points}" fill="${look.fill}" stroke="${STYLE.colours.grid}" stroke-width="1"/>`;
  if (look.pattern) out += `<polygon points="${points}" fill="url(#bw-${look.pattern})" stroke="none"/>`;
  return out;
}

function terrainBorder(g: Geometry, x: number, y: number, terrain: Terrain): string {
  const look = STYLE.terrain[terrain];
  if (!look.border) return '';
  const dash = look.dash ? ` stroke-dasharray="${look.dash}"` : '';
  return `<polygon points="${hexPoints(g, x, y, 0.84)}" fill="none" stroke="${look.border}" stroke-width="${n(g.s * 0.09)}"${dash}/>`;
}

function bridgeMark(x: number, y: number, s: number): string {
  const c = STYLE.colours.bridge!;
  const w = s * 0.5;
  return `<g class="bridge-deck"><rect x="${n(x - w)}" y="${n(y - s * 0.22)}" width="${n(2 * w)}" height="${n(s * 0.44)}" fill="${c}" opacity="0.9"/><line x1="${n(x - w)}" y1="${n(y - s * 0.22)}" x2="${n(x + w)}" y2="${n(y - s * 0.22)}" stroke="#4a3520" stroke-width="2"/><line x1="${n(x - w)}" y1="${n(y + s * 0.22)}" x2="${n(x + w)}" y2="${n(y + s * 0.22)}" stroke="#4a3520" stroke-width="2"/></g>`;
}

function star(x: number, y: number, r: number, fill: string): string {
  const pts: string[] = [];
  for (let i = 0; i < 10; i++) {
    const a = (-90 + 36 * i) * (Math.PI / 180);
    const k = i % 2 === 0 ? r : r * 0.45;
    pts.push(`${n(x + k * Math.cos(a))},${n(y + k * Math.sin(a))}`);
  }
  return `<polygon class="objective" points="${pts.join(' ')}" fill="${fill}" stroke="#5a4300" stroke-width="0.8"/>`;
}

/** A chevron pointing down (dir 1) or up (dir -1). */
function chevron(x: number, y: number, size: number, dir: number, colour: string): string {
  const h = size * 0.5 * dir;
  return `<polyline class="arrow-hex" points="${n(x - size * 0.5)},${n(y - h)} ${n(x)},${n(y + h)} ${n(x + size * 0.5)},${n(y - h)}" fill="none" stroke="${colour}" stroke-width="${n(size * 0.22)}" stroke-linejoin="round" stroke-linecap="round"/>`;
}

/** The marks a scenario prints: first rows, arrow hexes, forts that count. */
function scenarioMarks(g: Geometry, sc: ScenarioData, rows: number): string {
  const out: string[] = [];
  for (const army of ARMY_LIST) {
    const col = STYLE.armies[army];
    for (const h of sc.firstRows[army] ?? []) {
      const p = centreOf(g, h);
      if (!p) continue;
      const pts = hexPoints(g, p.x, p.y, 0.93);
      // White dashes on a light board need a grey line under them to be seen.
      if (col.firstRowUnder) out.push(`<polygon points="${pts}" fill="none" stroke="${col.firstRowUnder}" stroke-width="${n(g.s * 0.07 + 1.5)}"/>`);
      out.push(`<polygon class="first-row" points="${pts}" fill="none" stroke="${col.fill}" stroke-width="${n(g.s * 0.07)}" stroke-dasharray="${n(g.s * 0.18)} ${n(g.s * 0.1)}"/>`);
    }
  }
  for (const h of sc.arrows ?? []) {
    const p = centreOf(g, h);
    const at = parse(h);
    if (!p || !at) continue;
    out.push(chevron(p.x, p.y + g.s * 0.45, g.s * 0.4, at.r > rows / 2 ? 1 : -1, STYLE.colours.arrowHex!));
  }
  if (sc.family === 'domination' || sc.family === 'defence') {
    for (const [h, terrain] of Object.entries(sc.terrain)) {
      if (terrain !== 'fort') continue;
      const p = centreOf(g, h);
      if (p) out.push(star(p.x + g.s * 0.5, p.y - g.s * 0.42, g.s * 0.17, STYLE.colours.objective!));
    }
  }
  return `<g class="scenario-marks">${out.join('')}</g>`;
}

function boardBase(view: BWPictureView, t: Translate): string {
  const { board, scenario } = view;
  const g = geometryOf(board);
  const B = STYLE.board;
  const excluded = new Set(board.excluded ?? []);
  const hexes: string[] = [];
  const borders: string[] = [];
  const names: string[] = [];
  const halves: string[] = [];
  for (let c = 1; c <= board.columns; c++) {
    for (let r = 1; r <= board.rows; r++) {
      const id = `${c},${r}`;
      const p = g.centre(c, r);
      if (excluded.has(id)) {
        halves.push(`<polygon class="excluded" points="${hexPoints(g, p.x, p.y)}" fill="${STYLE.colours.excluded}" stroke="${STYLE.colours.grid}" stroke-width="1" stroke-dasharray="3 3"/>`);
        continue;
      }
      const terrain = scenario.terrain[id] ?? 'open';
      hexes.push(terrainShape(hexPoints(g, p.x, p.y), terrain));
      borders.push(terrainBorder(g, p.x, p.y, terrain));
      if (terrain === 'bridge') borders.push(bridgeMark(p.x, p.y, g.s));
      names.push(text(p.x, p.y - g.s * (g.flat ? 0.6 : 0.68), id, { size: B.nameSize, maxWidth: g.s * 0.9, anchor: 'middle', fill: STYLE.colours.hexName, cls: 'hex-name' }));
    }
  }
  const clip = g.clip;
  const out: string[] = [];
  out.push(`<clipPath id="bw-board"><rect x="${n(clip.x)}" y="${n(clip.y)}" width="${n(clip.w)}" height="${n(clip.h)}"/></clipPath>`);
  out.push(`<g class="board" clip-path="url(#bw-board)">${halves.join('')}${hexes.join('')}${borders.join('')}${scenarioMarks(g, scenario, board.rows)}</g>`);
  out.push(`<rect x="${n(clip.x)}" y="${n(clip.y)}" width="${n(clip.w)}" height="${n(clip.h)}" fill="none" stroke="${STYLE.colours.frame}" stroke-width="1.5"/>`);
  // A light halo round each name: readable on forest, river and mountains too.
  out.push(`<g class="hex-names" stroke="${STYLE.colours.halo}" stroke-width="2.4" paint-order="stroke" stroke-linejoin="round">${names.join('')}</g>`);
  // The edge: column numbers above and below, row numbers left and right, so a chat player can name any hex.
  const edge: string[] = [];
  const es = B.edgeSize;
  for (let c = 1; c <= board.columns; c++) {
    const top = g.centre(c, 1);
    const bottom = g.centre(c, board.rows);
    edge.push(text(top.x, clip.y - 5, String(c), { size: es, maxWidth: 20, anchor: 'middle', bold: true, fill: STYLE.colours.edge }));
    edge.push(text(bottom.x, clip.y + clip.h + es + 3, String(c), { size: es, maxWidth: 20, anchor: 'middle', bold: true, fill: STYLE.colours.edge }));
  }
  for (let r = 1; r <= board.rows; r++) {
    const left = g.centre(1, r);
    const right = g.centre(board.columns, r);
    edge.push(text(clip.x - 5, left.y + es * 0.35, String(r), { size: es, maxWidth: 20, anchor: 'end', bold: true, fill: STYLE.colours.edge }));
    edge.push(text(clip.x + clip.w + 5, right.y + es * 0.35, String(r), { size: es, maxWidth: 20, bold: true, fill: STYLE.colours.edge }));
  }
  out.push(`<g class="edge">${edge.join('')}</g>`);
  out.push(text(clip.x, clip.y + clip.h + es * 2 + 8, t('pic.edge'), { size: STYLE.legend.size, maxWidth: clip.w, fill: STYLE.colours.muted }));
  return out.join('\n');
}

/** The scenario's title, saying "(invented)" when the data file's numbers are made up. */
export function scenarioTitle(view: BWPictureView, t: Translate): string {
  const title = view.scenario.title;
  return view.data.invented && !/invented/i.test(title) ? t('pic.invented', { title }) : title;
}

const familyKey = (f: string) => f.replace(/-(.)/g, (_, ch: string) => ch.toUpperCase());

function legendTop(board: BoardData): number {
  const g = geometryOf(board);
  return Math.max(g.clip.y + g.clip.h + STYLE.board.edgeSize * 2 + 22, 470);
}

export function pictureHeight(board: BoardData): number {
  const L = STYLE.legend;
  return Math.ceil(legendTop(board) + L.pad * 2 + L.lineHeight * 11);
}

function blockRect(x: number, y: number, size: number, army: Army, o: { stroke?: string; width?: number; dash?: string; opacity?: number } = {}): string {
  const col = STYLE.armies[army];
  const dash = o.dash ? ` stroke-dasharray="${o.dash}"` : '';
  const opacity = o.opacity !== undefined ? ` opacity="${o.opacity}"` : '';
  return `<rect x="${n(x - size / 2)}" y="${n(y - size / 2)}" width="${n(size)}" height="${n(size)}" rx="${n(size * 0.12)}" fill="${col.fill}" stroke="${o.stroke ?? col.stroke}" stroke-width="${o.width ?? 1}"${dash}${opacity}/>`;
}

/** A type's symbol inside a block (map symbols: crossed for infantry, one slash for cavalry, a dot for artillery). */
function typeSymbol(type: UnitType, x: number, y: number, size: number, colour: string): string {
  // No <g> around it: a block is one <g> without nested groups (the leak scan reads it so).
  const k = size * 0.3;
  const st = `stroke="${colour}" stroke-width="${n(Math.max(1.2, size * 0.08))}"`;
  const line = (x1: number, y1: number, x2: number, y2: number) => `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" ${st}/>`;
  const frame = `<rect class="type ${type}" x="${n(x - k)}" y="${n(y - k * 0.7)}" width="${n(2 * k)}" height="${n(1.4 * k)}" fill="none" ${st}/>`;
  switch (type) {
    case 'infantry':
      return frame + line(x - k, y - k * 0.7, x + k, y + k * 0.7) + line(x - k, y + k * 0.7, x + k, y - k * 0.7);
    case 'cavalry':
      return frame + line(x - k, y + k * 0.7, x + k, y - k * 0.7);
    case 'artillery':
      return frame + `<circle cx="${n(x)}" cy="${n(y)}" r="${n(k * 0.38)}" fill="${colour}"/>`;
  }
}

function aimingMark(x: number, y: number, r: number, army: Army): string {
  const col = STYLE.armies[army];
  const red = STYLE.colours.aim!;
  return `<g class="aiming"><circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${col.fill}" stroke="${red}" stroke-width="2"/><line x1="${n(x - r * 1.4)}" y1="${n(y)}" x2="${n(x + r * 1.4)}" y2="${n(y)}" stroke="${red}" stroke-width="1.5"/><line x1="${n(x)}" y1="${n(y - r * 1.4)}" x2="${n(x)}" y2="${n(y + r * 1.4)}" stroke="${red}" stroke-width="1.5"/></g>`;
}

/** Features drawn in a hex (or a legend swatch) centred at (x, y), hex size s. */
function featureMark(f: Feature, x: number, y: number, s: number): string {
  const c = STYLE.colours;
  switch (f) {
    case 'trench': {
      const pts: string[] = [];
      for (let i = 0; i <= 6; i++) pts.push(`${n(x - s * 0.6 + i * s * 0.2)},${n(y + s * 0.55 + (i % 2 === 0 ? 0 : -s * 0.14))}`);
      return `<polyline class="feature trench" points="${pts.join(' ')}" fill="none" stroke="${c.trench}" stroke-width="${n(Math.max(2, s * 0.08))}" stroke-linejoin="round"/>`;
    }
    case 'wire': {
      const yy = y - s * 0.4;
      let out = `<g class="feature wire" stroke="${c.wire}" stroke-width="1.4"><line x1="${n(x - s * 0.65)}" y1="${n(yy)}" x2="${n(x + s * 0.65)}" y2="${n(yy)}"/>`;
      for (let i = -2; i <= 2; i++) {
        const xx = x + i * s * 0.26;
        const k = s * 0.07;
        out += `<line x1="${n(xx - k)}" y1="${n(yy - k)}" x2="${n(xx + k)}" y2="${n(yy + k)}"/><line x1="${n(xx - k)}" y1="${n(yy + k)}" x2="${n(xx + k)}" y2="${n(yy - k)}"/>`;
      }
      return out + '</g>';
    }
    case 'fire': {
      const k = s * 0.28;
      const xx = x - s * 0.55;
      const yy = y + s * 0.1;
      return `<path class="feature fire" d="M${n(xx)},${n(yy + k)} C${n(xx - k * 0.8)},${n(yy + k * 0.2)} ${n(xx - k * 0.2)},${n(yy - k * 0.3)} ${n(xx)},${n(yy - k)} C${n(xx + k * 0.2)},${n(yy - k * 0.3)} ${n(xx + k * 0.8)},${n(yy + k * 0.2)} ${n(xx)},${n(yy + k)} Z" fill="${c.fire}" stroke="${c.fireStroke}" stroke-width="1"/>`;
    }
    case 'smoke':
      return `<g class="feature smoke" fill="${c.smoke}" opacity="0.6"><circle cx="${n(x - s * 0.3)}" cy="${n(y)}" r="${n(s * 0.38)}"/><circle cx="${n(x + s * 0.3)}" cy="${n(y - s * 0.1)}" r="${n(s * 0.42)}"/><circle cx="${n(x)}" cy="${n(y + s * 0.3)}" r="${n(s * 0.36)}"/></g>`;
  }
}

/** The legend's key: what every picture of the language shows the same. */
function legendBase(view: BWPictureView, t: Translate): string {
  const L = STYLE.legend;
  const top = legendTop(view.board);
  const height = pictureHeight(view.board);
  const W = STYLE.width;
  const colW = (W - 20 - 2 * L.pad) / L.columns;
  const out: string[] = [`<rect x="10" y="${n(top)}" width="${W - 20}" height="${n(height - top - 8)}" rx="6" fill="#ffffff" stroke="${STYLE.colours.frame}"/>`];
  const lx = (col: number) => 10 + L.pad + col * colW;
  const ly = (row: number) => top + L.pad + L.size + row * L.lineHeight;
  const label = (col: number, row: number, s: string, bold = false) =>
    out.push(text(lx(col) + (bold ? 0 : 26), ly(row), s, { size: L.size, maxWidth: colW - (bold ? 4 : 30), bold, fill: STYLE.colours.text }));
  const swatchY = (row: number) => ly(row) - L.size * 0.4;
  // Terrain: two columns of five.
  label(0, 0, t('key.terrain'), true);
  TERRAIN_LIST.forEach((terrain, i) => {
    const col = i < 5 ? 0 : 1;
    const row = 1 + (i % 5);
    const x = lx(col) + 10;
    const y = swatchY(row);
    const pts = [[-10, 0], [-5, -7], [5, -7], [10, 0], [5, 7], [-5, 7]].map(([a, b]) => `${n(x + a!)},${n(y + b!)}`).join(' ');
    out.push(terrainShape(pts, terrain, 'swatch'));
    const look = STYLE.terrain[terrain];
    if (look.border) out.push(`<polygon points="${pts}" fill="none" stroke="${look.border}" stroke-width="2"${look.dash ? ' stroke-dasharray="3 2"' : ''}/>`);
    if (terrain === 'bridge') out.push(`<rect x="${n(x - 6)}" y="${n(y - 3)}" width="12" height="6" fill="${STYLE.colours.bridge}"/>`);
    label(col, row, t(`terrain.${terrain}`));
  });
  // Markers and marked hexes.
  label(2, 0, t('key.markers'), true);
  FEATURE_LIST.forEach((f, i) => {
    const x = lx(2) + 12;
    const y = swatchY(1 + i);
    out.push(`<g>${featureMark(f, x + (f === 'fire' ? 8 : 0), y + (f === 'trench' ? -9 : f === 'wire' ? 8 : 0), 16)}</g>`);
    label(2, 1 + i, t(`feature.${f}`));
  });
  out.push(aimingMark(lx(2) + 12, swatchY(5), 4.5, 'Vesania'));
  label(2, 5, t('key.aiming'));
  out.push(`<rect x="${n(lx(2) + 2)}" y="${n(swatchY(6) - 6)}" width="20" height="12" fill="none" stroke="${STYLE.armies.Thargaton.fill}" stroke-width="2" stroke-dasharray="4 2"/>`);
  label(2, 6, t('key.firstRow'));
  out.push(chevron(lx(2) + 12, swatchY(7), 10, 1, STYLE.colours.arrowHex!));
  label(2, 7, t('key.arrow'));
  out.push(star(lx(2) + 12, swatchY(8), 6, STYLE.colours.objective!));
  label(2, 8, t('key.objective'));
  out.push(`<g class="legend-block">${blockRect(lx(2) + 12, swatchY(9), 14, 'Thargaton')}<polygon points="${n(lx(2) + 5)},${n(swatchY(9) - 7)} ${n(lx(2) + 9)},${n(swatchY(9) - 7)} ${n(lx(2) + 5)},${n(swatchY(9) - 3)}" fill="${STYLE.colours.revealed}"/></g>`);
  label(2, 9, t('key.known'));
  // Blocks and highlights.
  label(3, 0, t('key.blocks'), true);
  const bx = lx(3) + 12;
  out.push(`<g class="legend-block">${blockRect(bx, swatchY(1), 14, 'Thargaton')}</g>`);
  label(3, 1, t('key.own'));
  (['infantry', 'cavalry', 'artillery'] as const).forEach((type, i) => {
    out.push(`<g class="legend-block">${blockRect(bx, swatchY(2 + i), 14, 'Vesania')}${typeSymbol(type, bx, swatchY(2 + i), 14, STYLE.armies.Vesania.text)}</g>`);
    label(3, 2 + i, t(`key.${type}`));
  });
  out.push(`<g class="legend-block">${blockRect(bx, swatchY(5), 14, 'Vesania', { stroke: STYLE.colours.revealed!, width: 1.6, dash: '3 2' })}</g>`);
  label(3, 5, t('key.revealed'));
  out.push(`<rect x="${n(bx - 7)}" y="${n(swatchY(6) - 7)}" width="14" height="14" fill="none" stroke="${STYLE.colours.active}" stroke-width="3"/>`);
  label(3, 6, t('key.active'));
  out.push(`<circle cx="${n(bx)}" cy="${n(swatchY(7))}" r="3.5" fill="${STYLE.colours.activated}" stroke="#ffffff"/>`);
  label(3, 7, t('key.activated'));
  out.push(`<rect x="${n(bx - 7)}" y="${n(swatchY(8) - 7)}" width="14" height="14" fill="none" stroke="${STYLE.colours.pending}" stroke-width="3"/>`);
  label(3, 8, t('key.pending'));
  out.push(`<line x1="${n(bx - 10)}" y1="${n(swatchY(9))}" x2="${n(bx + 6)}" y2="${n(swatchY(9))}" stroke="${STYLE.armies.Thargaton.arrow}" stroke-width="3"/><polygon points="${n(bx + 11)},${n(swatchY(9))} ${n(bx + 4)},${n(swatchY(9) - 4)} ${n(bx + 4)},${n(swatchY(9) + 4)}" fill="${STYLE.armies.Thargaton.arrow}"/>`);
  label(3, 9, t('key.moves'));
  return `<g class="legend">${out.join('')}</g>`;
}

function baseLayer(view: BWPictureView, t: Translate): string {
  const height = pictureHeight(view.board);
  const S = STYLE.side;
  const out: string[] = [`<defs>${patternDefs()}</defs>`, `<rect width="${STYLE.width}" height="${height}" fill="${STYLE.colours.background}"/>`];
  out.push(text(12, 26, t('pic.title', { scenario: scenarioTitle(view, t) }), { size: 17, maxWidth: STYLE.width - 24, bold: true, fill: STYLE.colours.text }));
  out.push(`<rect x="${S.x}" y="${STYLE.board.y - 14}" width="${S.w}" height="${n(legendTop(view.board) - STYLE.board.y + 4)}" rx="6" fill="#ffffff" stroke="${STYLE.colours.frame}"/>`);
  out.push(text(S.x + 8, STYLE.board.y + 4, t('pic.family', { family: familyKey(view.scenario.family) }), { size: S.size + 1, maxWidth: S.w - 16, bold: true, fill: STYLE.colours.text }));
  out.push(boardBase(view, t));
  out.push(legendBase(view, t));
  return out.join('\n');
}

// ---------------------------------------------------------------- overlay

interface Block {
  id: string;
  army: Army;
  type: UnitType;
  own: boolean;
  /** Short kind label, when the seat may know it. */
  label?: string;
  /** Own blocks only. */
  strength?: number;
  /** Own: the enemy knows its kind; enemy: its kind is shown because it is revealed. */
  revealed: boolean;
  /** A bought block placed during deployment (not yet on the board for real). */
  placing?: boolean;
}

/** Blocks per hex as the seat may see them, own army first. */
function blocksByHex(view: BWPictureView, t: Translate): Map<string, Block[]> {
  const out = new Map<string, Block[]>();
  const add = (hex: string, b: Block) => {
    const list = out.get(hex);
    if (list) list.push(b);
    else out.set(hex, [b]);
  };
  const order = view.seat === 'Vesania' ? (['Vesania', 'Thargaton'] as const) : (['Thargaton', 'Vesania'] as const);
  for (const army of order) {
    const a = view.armies[army];
    if (!a) continue;
    const own = army === view.seat;
    for (const u of a.units) {
      if (u.hex === null) continue;
      if (own) add(u.hex, { id: u.id, army, type: u.type, own, label: t(`short.${u.kind}`), strength: u.strength, revealed: !!u.revealed });
      else add(u.hex, { id: u.id, army, type: u.type, own, ...(u.kind !== undefined ? { label: t(`short.${u.kind}`) } : {}), revealed: u.kind !== undefined });
    }
    // The seat's own deployment while it is hidden: bought blocks placed so far.
    if (own && a.placed && a.bought) {
      a.placed.forEach((hex, i) => {
        const kind = a.bought![i]!;
        const card = view.kinds.find((k) => k.id === kind);
        if (hex !== null && card) add(hex, { id: `placed-${i}`, army, type: card.type, own, label: t(`short.${kind}`), strength: card.strength, revealed: false, placing: true });
      });
    }
  }
  return out;
}

/** Centres and size of the blocks of a stack of `k` in a hex of size s. */
function stackSlots(k: number, s: number): { dx: number; dy: number; size: number }[] {
  if (k <= 1) return [{ dx: 0, dy: s * 0.08, size: s * 0.64 }];
  if (k === 2) return [{ dx: -s * 0.3, dy: s * 0.08, size: s * 0.54 }, { dx: s * 0.3, dy: s * 0.08, size: s * 0.54 }];
  if (k === 3) {
    const size = s * 0.48;
    return [{ dx: -s * 0.27, dy: -s * 0.14, size }, { dx: s * 0.27, dy: -s * 0.14, size }, { dx: 0, dy: s * 0.4, size }];
  }
  // More than the stacking limit allows: a grid, smaller.
  const cols = Math.ceil(Math.sqrt(k));
  const size = (s * 1.1) / cols;
  return Array.from({ length: k }, (_, i) => ({ dx: ((i % cols) - (cols - 1) / 2) * size * 1.05, dy: (Math.floor(i / cols) - (Math.ceil(k / cols) - 1) / 2) * size * 1.05 + s * 0.08, size }));
}

function blockSvg(b: Block, x: number, y: number, size: number, marks: { active: boolean; activated: boolean; pending: boolean }): string {
  const col = STYLE.armies[b.army];
  const c = STYLE.colours;
  const look = b.placing ? { dash: '2 2', opacity: 0.8 } : !b.own && b.revealed ? { stroke: c.revealed!, width: 1.6, dash: '3 2' } : {};
  const cls = `block ${b.own ? 'own' : 'enemy'}`;
  let out = `<g class="${cls}" data-unit="${b.id}">${blockRect(x, y, size, b.army, look)}`;
  if (b.label !== undefined) {
    const fs = size * 0.42;
    const ly = b.own ? y + fs * 0.05 : y + fs * 0.35;
    out += text(x, ly, b.label, { size: fs, maxWidth: size - 3, anchor: 'middle', bold: true, fill: col.text });
    if (b.own && b.strength !== undefined) out += text(x + size / 2 - 2, y + size / 2 - 2.5, String(b.strength), { size: size * 0.36, maxWidth: size * 0.4, anchor: 'end', bold: true, fill: col.text });
    if (b.own) out += typeSymbol(b.type, x - size * 0.22, y + size * 0.3, size * 0.42, col.text);
  } else {
    out += typeSymbol(b.type, x, y, size, col.text);
  }
  if (b.own && b.revealed) out += `<polygon class="known" points="${n(x - size / 2)},${n(y - size / 2)} ${n(x - size / 2 + size * 0.28)},${n(y - size / 2)} ${n(x - size / 2)},${n(y - size / 2 + size * 0.28)}" fill="${c.revealed}"/>`;
  if (marks.active) out += `<rect class="mark-active" x="${n(x - size / 2 - 2.5)}" y="${n(y - size / 2 - 2.5)}" width="${n(size + 5)}" height="${n(size + 5)}" rx="3" fill="none" stroke="${c.active}" stroke-width="3"/>`;
  if (marks.pending) out += `<rect class="mark-pending" x="${n(x - size / 2 - 2.5)}" y="${n(y - size / 2 - 2.5)}" width="${n(size + 5)}" height="${n(size + 5)}" rx="3" fill="none" stroke="${c.pending}" stroke-width="3"/>`;
  if (marks.activated) out += `<circle class="mark-activated" cx="${n(x + size / 2)}" cy="${n(y - size / 2)}" r="${n(Math.max(2.5, size * 0.13))}" fill="${c.activated}" stroke="#ffffff" stroke-width="1"/>`;
  return out + '</g>';
}

/** A view's game turn, for the move arrows (turnOf). */
export const turnKey = (v: BWPictureView): string => `${v.phase === 'play' || v.phase === 'over' ? 'play' : v.phase}:${v.turn}:${v.player ?? ''}`;

interface Move {
  army: Army;
  from: string;
  to: string;
}

/** The moves of this turn (first view of the turn against the last), else of the turn before; from hexes, which are public. */
export function turnMoves(views: readonly BWPictureView[]): Move[] {
  if (views.length < 2) return [];
  const hexes = (v: BWPictureView) => {
    const m = new Map<string, { army: Army; hex: string | null }>();
    for (const army of ARMY_LIST) for (const u of v.armies[army]?.units ?? []) m.set(u.id, { army, hex: u.hex });
    return m;
  };
  const diff = (a: BWPictureView, b: BWPictureView): Move[] => {
    const before = hexes(a);
    const out: Move[] = [];
    for (const [id, now] of hexes(b)) {
      const was = before.get(id);
      if (was && was.hex !== null && now.hex !== null && was.hex !== now.hex) out.push({ army: now.army, from: was.hex, to: now.hex });
    }
    return out;
  };
  const last = views[views.length - 1]!;
  const key = turnKey(last);
  let i = views.length - 1;
  while (i > 0 && turnKey(views[i - 1]!) === key) i--;
  // The turn's first view is the one before its first version (the units where the turn found them).
  const thisTurn = diff(views[Math.max(0, i - 1)]!, last);
  if (thisTurn.length > 0 || i === 0) return thisTurn;
  const prevKey = turnKey(views[i - 1]!);
  let j = i - 1;
  while (j > 0 && turnKey(views[j - 1]!) === prevKey) j--;
  return diff(views[Math.max(0, j - 1)]!, views[i - 1]!);
}

function arrowSvg(g: Geometry, m: Move): string {
  const a = centreOf(g, m.from);
  const b = centreOf(g, m.to);
  if (!a || !b) return '';
  const col = STYLE.armies[m.army];
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  const off = m.army === 'Thargaton' ? -3 : 3;
  const p = { x: a.x + ux * g.s * 0.35 - uy * off, y: a.y + uy * g.s * 0.35 + ux * off };
  const q = { x: b.x - ux * g.s * 0.45 - uy * off, y: b.y - uy * g.s * 0.45 + ux * off };
  const h = 9;
  const base = { x: q.x - ux * h, y: q.y - uy * h };
  const head = `${n(q.x)},${n(q.y)} ${n(base.x - uy * h * 0.55)},${n(base.y + ux * h * 0.55)} ${n(base.x + uy * h * 0.55)},${n(base.y - ux * h * 0.55)}`;
  return `<g class="move"><line x1="${n(p.x)}" y1="${n(p.y)}" x2="${n(base.x)}" y2="${n(base.y)}" stroke="${col.arrowStroke}" stroke-width="5.5" stroke-linecap="round"/><line x1="${n(p.x)}" y1="${n(p.y)}" x2="${n(base.x)}" y2="${n(base.y)}" stroke="${col.arrow}" stroke-width="3" stroke-linecap="round"/><polygon points="${head}" fill="${col.arrow}" stroke="${col.arrowStroke}" stroke-width="1.2"/></g>`;
}

/** The side column: who looks, where the game stands. */
function sideColumn(view: BWPictureView, version: number, t: Translate): string {
  const S = STYLE.side;
  const out: string[] = [];
  let row = 0;
  const line = (s: string, o: { bold?: boolean; fill?: string; indent?: number } = {}) => {
    out.push(text(S.x + 8 + (o.indent ?? 0), STYLE.board.y + 24 + row * S.lineHeight, s, { size: S.size, maxWidth: S.w - 16 - (o.indent ?? 0), bold: o.bold, fill: o.fill ?? STYLE.colours.text }));
    row++;
  };
  const armyName = (a: Army) => t(`army.${a}`);
  line(t('pic.seat', { seat: view.seat ?? 'spectator' }), { bold: true });
  line(t('pic.version', { version }));
  row += 0.4;
  if (view.result) line(t('pic.result', { winner: view.result.winner ?? 'none', reason: t(`reason.${view.result.reason}`) }), { bold: true, fill: STYLE.colours.pending });
  else line(t('pic.phase', { phase: view.phase, turn: view.turn, army: view.player ? armyName(view.player) : '' }), { bold: true });
  if (view.phase === 'play') line(t('pic.markersLeft', { n: view.markersLeft }));
  line(t('pic.vp', { t: view.armies.Thargaton.vp, v: view.armies.Vesania.vp }));
  line(t('pic.markers', { t: view.armies.Thargaton.markers, v: view.armies.Vesania.markers }));
  if (view.phase === 'purchase' || view.phase === 'deploy') {
    for (const a of ARMY_LIST) line(t('pic.done', { army: armyName(a), done: String(!!view.armies[a].done) }));
    const own = view.seat ? view.armies[view.seat] : null;
    if (own?.budgetLeft !== undefined) line(t('pic.budget', { n: own.budgetLeft }));
  } else {
    for (const a of ARMY_LIST) {
      const units = view.armies[a].units;
      line(t('pic.units', { army: armyName(a), on: units.filter((u) => u.hex !== null).length, lost: units.filter((u) => u.hex === null).length }));
    }
  }
  const sc = view.scenario;
  if (sc.family === 'defence' && sc.turnLimit) line(t('pic.attackerTurns', { n: view.attackerTurns, limit: sc.turnLimit }));
  if (sc.family === 'behind-enemy-lines') line(t('pic.brokeThrough', { n: view.brokeThrough.length, need: sc.unitsToBreakThrough ?? 3 }));
  const act = view.activation;
  if (act) {
    const unseen = Math.max(0, (act.count ?? act.units.length) - act.units.length);
    if (act.units.length > 0) line(t('pic.activation', { units: act.units.join(', ') }), { fill: '#8a4b00' });
    if (unseen > 0) line(t('pic.activationUnseen', { n: unseen, hex: act.startHex ?? '' }), { fill: '#8a4b00' });
  }
  const p = view.pending[0];
  if (p) line(t('pic.waiting', { army: armyName(p.army), unit: p.unit }), { fill: STYLE.colours.pending });

  // The kinds the picture names: the seat's own army's, enemy kinds of revealed blocks and cards face up.
  const shown = new Set<string>();
  for (const a of ARMY_LIST) {
    for (const u of view.armies[a].units) if (u.kind !== undefined && u.hex !== null) shown.add(u.kind);
    for (const k of view.armies[a].cardsShown ?? []) shown.add(k);
    if (a === view.seat) {
      for (const k of view.kinds) if (k.army === a) shown.add(k.id);
    }
  }
  if (shown.size > 0) {
    row += 0.4;
    line(t('pic.kinds'), { bold: true });
    const order = view.kinds.map((k) => k.id).filter((id) => shown.has(id));
    const room = Math.floor((legendTop(view.board) - STYLE.board.y - 36) / S.lineHeight) - row;
    for (const id of order.slice(0, Math.max(0, room))) line(t('pic.kind', { label: t(`short.${id}`), name: t(`kind.${id}`) }), { indent: 4 });
  }
  return `<g class="side">${out.join('')}</g>`;
}

export function renderBoardLayers({ view, version, earlier, t }: BoardInput): BoardLayers {
  const g = geometryOf(view.board);
  const out: string[] = [];
  // Features under the blocks (smoke too: translucent, the blocks stay readable).
  const feats: string[] = [];
  for (const [hex, list] of Object.entries(view.features ?? {})) {
    const p = centreOf(g, hex);
    if (!p) continue;
    for (const f of list) feats.push(featureMark(f, p.x, p.y, g.s));
  }
  out.push(`<g class="features">${feats.join('')}</g>`);
  // Pending decisions: the attacking hex outlined.
  const pend: string[] = [];
  for (const p of view.pending) {
    const c = centreOf(g, p.fromHex);
    if (c) pend.push(`<polygon class="attack-from" points="${hexPoints(g, c.x, c.y, 0.88)}" fill="none" stroke="${STYLE.colours.pending}" stroke-width="2.5" stroke-dasharray="5 3"/>`);
  }
  // An activation whose units the seat may not all see: the hex it started from.
  const act = view.activation;
  if (act?.startHex && (act.count ?? 0) > act.units.length) {
    const c = centreOf(g, act.startHex);
    if (c) pend.push(`<polygon class="activation-from" points="${hexPoints(g, c.x, c.y, 0.9)}" fill="none" stroke="${STYLE.colours.active}" stroke-width="2.5" stroke-dasharray="5 3"/>`);
  }
  out.push(`<g class="pending">${pend.join('')}</g>`);
  // Blocks.
  const active = new Set(view.activation?.units ?? []);
  const activated = new Set(view.activated);
  const pendingUnits = new Set(view.pending.map((p) => p.unit));
  const blocks: string[] = [];
  for (const [hex, list] of blocksByHex(view, t)) {
    const p = centreOf(g, hex);
    if (!p) continue;
    const slots = stackSlots(list.length, g.s);
    list.forEach((b, i) => {
      const sl = slots[i]!;
      blocks.push(blockSvg(b, p.x + sl.dx, p.y + sl.dy, sl.size, { active: active.has(b.id), activated: activated.has(b.id) && !active.has(b.id), pending: pendingUnits.has(b.id) }));
    });
  }
  out.push(`<g class="blocks">${blocks.join('')}</g>`);
  // Aiming markers at the hex's right, one per marker.
  const aims: string[] = [];
  const perHex = new Map<string, number>();
  for (const m of view.aimingMarkers) {
    const p = centreOf(g, m.hex);
    if (!p) continue;
    const k = perHex.get(m.hex) ?? 0;
    perHex.set(m.hex, k + 1);
    aims.push(aimingMark(p.x + g.s * 0.62, p.y - g.s * 0.2 + k * g.s * 0.3, g.s * 0.11, m.army));
  }
  out.push(`<g class="aiming-markers">${aims.join('')}</g>`);
  out.push(`<g class="moves">${turnMoves([...earlier, view]).map((m) => arrowSvg(g, m)).join('')}</g>`);
  out.push(sideColumn(view, version, t));
  return { width: STYLE.width, height: pictureHeight(view.board), base: baseLayer(view, t), overlay: out.join('\n') };
}

export function renderBoardSvg(input: BoardInput): string {
  const { width, height, base, overlay } = renderBoardLayers(input);
  return svgDocument(width, height, [base, overlay]);
}

/** Black & White's entry in BOARD_RENDERERS (./index.ts). */
export const blackAndWhiteRenderer: BoardRenderer = {
  svg(view, version, earlier, lang) {
    return renderBoardSvg({ view: view as BWPictureView, version, earlier: earlier as BWPictureView[], t: translator('black-and-white', lang) });
  },
  layers: (view, version, earlier, lang) =>
    renderBoardLayers({ view: view as BWPictureView, version, earlier: earlier as BWPictureView[], t: translator('black-and-white', lang) }),
  // One army's turn: a few activations of a few actions each; two turns fit with room to spare.
  maxEarlier: 200,
  turnOf: (view) => turnKey(view as BWPictureView),
};
