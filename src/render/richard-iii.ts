// The Richard III board picture as SVG, drawn from one seat's view (the
// allow-listed view a client gets: it cannot show what the view does not
// hold). A schematic map: area outlines are not public data, so each area is
// a box placed near its printed-board centre, borders are links coloured by
// type, sea zones are ovals linked to their coasts. Each box shows the
// area's blocks as chips: the seat's own with name and strength, the enemy's
// blank (its colour only) unless revealed in the battle being fought.
// Geometry, colours and short block labels are data:
// src/games/richard-iii/data/board-layout.json.
import { createRequire } from 'node:module';
import { AREA, AREAS, BLOCK, BORDER, SCENARIO, type Side } from '../games/richard-iii/data.ts';
import type { R3View } from '../games/richard-iii/view.ts';
import { translator, type Translate } from './messages.ts';
import type { BoardRenderer } from './renderer.ts';
import { turnMoves, type Move } from './richard-iii-moves.ts';
import { n, svgDocument, text, type BoardLayers } from './svg.ts';

const require = createRequire(import.meta.url);

export interface BoardLayout {
  width: number;
  height: number;
  title: { x: number; y: number; size: number; maxWidth: number };
  map: { top: number; bottom: number };
  box: { w: number; h: number; radius: number; nameX: number; nameY: number; nameSize: number; nameMaxWidth: number; iconsRight: number; iconSize: number };
  chip: { w: number; h: number; cols: number; rows: number; x: number; y: number; gapX: number; gapY: number; size: number; radius: number };
  arrow: { width: number; head: number; labelSize: number };
  seas: Record<string, { x: number; y: number; rx: number; ry: number }>;
  legend: { x: number; y: number; w: number; h: number; pad: number; lineHeight: number; size: number; columns: number[]; columnWidth: number; rows: number };
  colours: Record<string, string> & Record<'York' | 'Lancaster' | 'Rebel', { fill: string; stroke: string; text: string }>;
  areas: Record<string, { x: number; y: number }>;
  blockLabels: Record<string, string>;
  phases: Record<string, string>;
}

export const LAYOUT: BoardLayout = require('../games/richard-iii/data/board-layout.json');

export interface BoardInput {
  /** The seat's view at the version drawn. */
  view: R3View;
  version: number;
  /** The same seat's views at the versions before, oldest first (for the move arrows; may be empty). */
  earlier: readonly R3View[];
  t: Translate;
}

/** One chip in an area's box. */
interface Chip {
  side: Side | 'Rebel';
  /** Name and strength, when the seat may see them. */
  label?: string;
  steps?: number;
  down?: boolean;
  revealed?: boolean;
  more?: number;
}

/** Top-left corner of slot `i` of the box centred at (cx, cy). */
export function slotAt(cx: number, cy: number, i: number): { x: number; y: number } {
  const { box, chip } = LAYOUT;
  const col = i % chip.cols;
  const row = Math.floor(i / chip.cols);
  return { x: cx - box.w / 2 + chip.x + col * (chip.w + chip.gapX), y: cy - box.h / 2 + chip.y + row * (chip.h + chip.gapY) };
}

export const SLOTS = LAYOUT.chip.cols * LAYOUT.chip.rows;

function sideOrder(view: R3View): Side[] {
  if (view.seat === 'Lancaster') return ['Lancaster', 'York'];
  return ['York', 'Lancaster'];
}

/** The chips of one area, as the seat may see them, own side first. */
function chipsOf(view: R3View, area: string): Chip[] {
  const chips: Chip[] = [];
  const rebelSide: Side = view.pretender;
  for (const side of sideOrder(view)) {
    if (side === view.seat) {
      for (const b of view.blocks ?? []) {
        if (b.loc !== area) continue;
        chips.push({ side: b.id === 'rebel' ? 'Rebel' : side, label: LAYOUT.blockLabels[b.id] ?? BLOCK[b.id]!.name, steps: b.steps, down: b.down });
      }
      continue;
    }
    const count = view.areas[area]?.[side];
    const total = count?.n ?? 0;
    const shown = view.battle && view.battle.area === area ? view.battle.blocks.filter((b) => b.side === side && b.loc === area) : [];
    for (const b of shown) {
      chips.push({ side: b.id === 'rebel' ? 'Rebel' : side, label: LAYOUT.blockLabels[b.id] ?? BLOCK[b.id]!.name, steps: b.steps, revealed: true });
    }
    let hidden = total - shown.length;
    let down = count?.down ?? 0;
    // The Rebel is the only black block: where it stands is public (view.rebel).
    if (view.rebel.loc === area && rebelSide === side && !shown.some((b) => b.id === 'rebel') && hidden > 0) {
      chips.push({ side: 'Rebel', down: view.rebel.down });
      hidden--;
      if (view.rebel.down) down--;
    }
    for (let i = 0; i < hidden; i++) chips.push({ side, down: i < hidden - Math.max(0, down) ? false : true });
  }
  if (chips.length > SLOTS) {
    const more = chips.length - (SLOTS - 1);
    return [...chips.slice(0, SLOTS - 1), { side: 'York', more }];
  }
  return chips;
}

function chipSvg(c: Chip, x: number, y: number, t: Translate): string {
  const { chip, colours } = LAYOUT;
  if (c.more !== undefined) {
    return `<g class="chip more"><rect x="${n(x)}" y="${n(y)}" width="${n(chip.w)}" height="${n(chip.h)}" rx="${chip.radius}" fill="#dddddd" stroke="#777777"/>${text(x + chip.w / 2, y + chip.h - 3, t('more', { count: c.more }), { size: chip.size, maxWidth: chip.w - 4, anchor: 'middle', bold: true, fill: '#333333' })}</g>`;
  }
  const col = colours[c.side];
  const dash = c.revealed ? ' stroke-dasharray="2 1.5"' : '';
  const opacity = c.down ? ' opacity="0.45"' : '';
  let out = `<g class="chip"${opacity}><rect x="${n(x)}" y="${n(y)}" width="${n(chip.w)}" height="${n(chip.h)}" rx="${chip.radius}" fill="${col.fill}" stroke="${c.revealed ? colours.battle : col.stroke}" stroke-width="${c.revealed ? 1.4 : 0.8}"${dash}/>`;
  if (c.label !== undefined && c.steps !== undefined) {
    const digit = 7;
    out += text(x + 2, y + chip.h - 3.2, c.label, { size: chip.size, maxWidth: chip.w - digit - 5, fill: col.text });
    out += text(x + chip.w - 2, y + chip.h - 3.2, String(c.steps), { size: chip.size + 0.5, maxWidth: digit, anchor: 'end', bold: true, fill: col.text });
  }
  return out + '</g>';
}

function crownIcon(x: number, y: number, s: number): string {
  const p = [[0, s], [0, s * 0.3], [s * 0.25, s * 0.6], [s * 0.5, 0], [s * 0.75, s * 0.6], [s, s * 0.3], [s, s]];
  return `<polygon class="icon crown" points="${p.map(([a, b]) => `${n(x + a!)},${n(y + b!)}`).join(' ')}" fill="${LAYOUT.colours.crown}" stroke="#7a5c00" stroke-width="0.6"/>`;
}

function cityIcon(x: number, y: number, s: number, levy: Side | null | undefined): string {
  const fill = levy === 'Lancaster' ? LAYOUT.colours.Lancaster.fill : '#ffffff';
  return `<rect class="icon city" x="${n(x + 0.5)}" y="${n(y + 0.5)}" width="${n(s - 1)}" height="${n(s - 1)}" fill="${fill}" stroke="#333333" stroke-width="1"/>`;
}

function cathedralIcon(x: number, y: number, s: number): string {
  const c = LAYOUT.colours.cathedral;
  return `<g class="icon cathedral" stroke="${c}" stroke-width="2"><line x1="${n(x + s / 2)}" y1="${n(y)}" x2="${n(x + s / 2)}" y2="${n(y + s)}"/><line x1="${n(x + s * 0.15)}" y1="${n(y + s * 0.35)}" x2="${n(x + s * 0.85)}" y2="${n(y + s * 0.35)}"/></g>`;
}

/** The point where the segment from the box centre (cx, cy) towards (tx, ty) leaves the box (plus margin). */
function boxExit(cx: number, cy: number, tx: number, ty: number, margin: number): { x: number; y: number } {
  const dx = tx - cx;
  const dy = ty - cy;
  const hw = LAYOUT.box.w / 2 + margin;
  const hh = LAYOUT.box.h / 2 + margin;
  const k = Math.min(dx === 0 ? Infinity : hw / Math.abs(dx), dy === 0 ? Infinity : hh / Math.abs(dy));
  return { x: cx + dx * Math.min(k, 1), y: cy + dy * Math.min(k, 1) };
}

function arrowSvg(m: Move): string {
  const a = LAYOUT.areas[m.from];
  const b = LAYOUT.areas[m.to];
  if (!a || !b) return '';
  const colour = m.side === 'York' ? LAYOUT.colours.arrowYork! : LAYOUT.colours.arrowLancaster!;
  // The two sides' arrows along one border are drawn side by side, not on top of each other.
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const off = m.side === 'York' ? -4 : 4;
  const ox = (-(b.y - a.y) / len) * off;
  const oy = ((b.x - a.x) / len) * off;
  // From inside the source box (so that an arrow between close boxes is still long enough to see) to the target's edge.
  const p = boxExit(a.x + ox, a.y + oy, b.x + ox, b.y + oy, -16);
  const q = boxExit(b.x + ox, b.y + oy, a.x + ox, a.y + oy, 2);
  const ux = (q.x - p.x) / (Math.hypot(q.x - p.x, q.y - p.y) || 1);
  const uy = (q.y - p.y) / (Math.hypot(q.x - p.x, q.y - p.y) || 1);
  const h = LAYOUT.arrow.head;
  const base = { x: q.x - ux * h, y: q.y - uy * h };
  const head = `${n(q.x)},${n(q.y)} ${n(base.x - uy * h * 0.5)},${n(base.y + ux * h * 0.5)} ${n(base.x + uy * h * 0.5)},${n(base.y - ux * h * 0.5)}`;
  let out = `<g class="arrow"><line x1="${n(p.x)}" y1="${n(p.y)}" x2="${n(base.x)}" y2="${n(base.y)}" stroke="#ffffff" stroke-width="${n(LAYOUT.arrow.width + 2.4)}" stroke-linecap="round"/>`;
  out += `<line x1="${n(p.x)}" y1="${n(p.y)}" x2="${n(base.x)}" y2="${n(base.y)}" stroke="${colour}" stroke-width="${n(LAYOUT.arrow.width)}" stroke-linecap="round"/>`;
  out += `<polygon points="${head}" fill="${colour}" stroke="#ffffff" stroke-width="1"/>`;
  if (m.n > 1) {
    const mx = (p.x + base.x) / 2;
    const my = (p.y + base.y) / 2;
    out += `<circle cx="${n(mx)}" cy="${n(my)}" r="7" fill="${colour}" stroke="#ffffff" stroke-width="1"/>`;
    out += text(mx, my + 3.5, String(m.n), { size: LAYOUT.arrow.labelSize, maxWidth: 12, anchor: 'middle', bold: true, fill: '#ffffff' });
  }
  return out + '</g>';
}

function cardLabel(card: string | null, t: Translate): string {
  if (card === null) return t('card', { card: 'none', ap: 0 });
  if (card === 'hidden') return t('card', { card: 'hidden', ap: 0 });
  const ap = /^ap(\d)/.exec(card);
  // ICU select keys are identifiers: force-march → forceMarch.
  return ap ? t('card', { card: 'action', ap: Number(ap[1]) }) : t('card', { card: card.replace(/-(.)/g, (_, ch: string) => ch.toUpperCase()), ap: 0 });
}

function crownName(id: string | null, t: Translate): string {
  return id === null ? t('nobody') : BLOCK[id]?.name ?? t('nobody');
}

/** Writes one legend line (column, row) into `parts`. */
function legendLine(parts: string[], col: number, row: number, s: string, o: { bold?: boolean; indent?: number; fill?: string } = {}): void {
  const L = LAYOUT.legend;
  const x = L.x + L.pad + L.columns[col]! + (o.indent ?? 0);
  const y = L.y + L.pad + L.size + row * L.lineHeight;
  parts.push(text(x, y, s, { size: L.size, maxWidth: L.columnWidth - (o.indent ?? 0) - 4, bold: o.bold, fill: o.fill ?? LAYOUT.colours.text }));
}

function swatchLine(parts: string[], col: number, r: number, colour: string, label: string): void {
  const L = LAYOUT.legend;
  const x = L.x + L.pad + L.columns[col]!;
  const y = L.y + L.pad + L.size + r * L.lineHeight - L.size * 0.35;
  parts.push(`<line x1="${n(x)}" y1="${n(y)}" x2="${n(x + 18)}" y2="${n(y)}" stroke="${colour}" stroke-width="3"/>`);
  legendLine(parts, col, r, label, { indent: 24 });
}

/** The legend's game column (seat, version, crowns, cards, battle) and the key line whose words change (this or last turn's moves). */
function legendGameSvg(view: R3View, version: number, which: 'this' | 'last', t: Translate): string {
  const c = LAYOUT.colours;
  const parts: string[] = [];
  const line = (col: number, row: number, s: string, o: { bold?: boolean; indent?: number; fill?: string } = {}) => legendLine(parts, col, row, s, o);
  const side = (s: string) => t('side', { side: s });
  // Column 1: the game.
  line(0, 0, t('seat', { seat: view.seat ?? 'spectator' }), { bold: true });
  line(0, 1, t('version', { version }));
  line(0, 2, t('king', { name: crownName(view.crown[view.king], t), side: side(view.king) }));
  line(0, 3, t('pretender', { name: crownName(view.crown[view.pretender], t), side: side(view.pretender) }));
  line(0, 4, t('played', { york: cardLabel(view.cards.played.York, t), lancaster: cardLabel(view.cards.played.Lancaster, t) }));
  let row = 5;
  if (view.cards.p1) line(0, row++, t('player1', { side: side(view.cards.p1) }));
  line(0, row++, t('pools', { york: view.pools.York.n, lancaster: view.pools.Lancaster.n }));
  if (view.battle) line(0, row++, t('battle', { area: AREA[view.battle.area]?.name ?? '' }), { bold: true, fill: '#b35300' });
  const pending = Object.keys(view.attacks).length;
  if (pending > 0) line(0, row++, t('attacks', { count: pending }));
  if (view.result) line(0, row++, t('result', { winner: view.result.winner ?? 'none' }), { bold: true });
  swatchLine(parts, 2, 2, c.arrowYork!, t('key.moves', { which }));
  return `<g class="legend game">${parts.join('')}</g>`;
}

/** The legend's frame and the key (columns 2 and 3): the same in every picture in one language. */
function legendKeySvg(t: Translate): string {
  const L = LAYOUT.legend;
  const c = LAYOUT.colours;
  const parts: string[] = [`<rect x="${L.x}" y="${L.y}" width="${L.w}" height="${L.h}" rx="6" fill="#ffffff" stroke="${c.boxStroke}"/>`];
  const line = (col: number, row: number, s: string, o: { indent?: number } = {}) => legendLine(parts, col, row, s, o);
  const iconLine = (col: number, r: number, icon: string, key: string) => {
    parts.push(icon);
    line(col, r, t(key), { indent: 24 });
  };
  const ix = (col: number) => L.x + L.pad + L.columns[col]! + 4;
  const iy = (r: number) => L.y + L.pad + r * L.lineHeight + 2;
  swatchLine(parts, 1, 0, c.yellow!, t('key.yellow'));
  swatchLine(parts, 1, 1, c.blue!, t('key.blue'));
  swatchLine(parts, 1, 2, c.red!, t('key.red'));
  iconLine(1, 3, crownIcon(ix(1), iy(3), 10), 'key.crown');
  iconLine(1, 4, cityIcon(ix(1), iy(4), 10, 'York'), 'key.city');
  iconLine(1, 5, cathedralIcon(ix(1), iy(5), 10), 'key.cathedral');
  parts.push(`<rect x="${n(ix(2) - 4)}" y="${n(iy(0))}" width="18" height="10" fill="${c.exileLancaster}" stroke="${c.boxStroke}" stroke-dasharray="3 2"/>`);
  line(2, 0, t('key.exile'), { indent: 24 });
  parts.push(`<ellipse cx="${n(ix(2) + 5)}" cy="${n(iy(1) + 5)}" rx="9" ry="5" fill="${c.sea}" stroke="${c.coast}"/>`);
  line(2, 1, t('key.sea'), { indent: 24 });
  parts.push(`<rect x="${n(ix(2) - 4)}" y="${n(iy(3))}" width="18" height="10" rx="2" fill="${c.Lancaster.fill}" stroke="${c.Lancaster.stroke}"/>`);
  line(2, 3, t('key.enemy'), { indent: 24 });
  parts.push(`<rect x="${n(ix(2) - 4)}" y="${n(iy(4))}" width="18" height="10" rx="2" fill="none" stroke="${c.battle}" stroke-width="2"/>`);
  line(2, 4, t('key.battle'), { indent: 24 });
  return `<g class="legend key">${parts.join('')}</g>`;
}

/** The board picture, as an SVG document. */
export function renderBoardSvg(input: BoardInput): string {
  const { width, height, base, overlay } = renderBoardLayers(input);
  return svgDocument(width, height, [base, overlay]);
}

const BASES = new WeakMap<Translate, string>();

/** The base layer, per language (see BoardLayers); built once per translator. */
function baseLayer(t: Translate): string {
  let base = BASES.get(t);
  if (base === undefined) BASES.set(t, (base = buildBaseLayer(t)));
  return base;
}

function buildBaseLayer(t: Translate): string {
  const { width, height, box, colours: c } = LAYOUT;
  const out: string[] = [];
  out.push(`<rect width="${width}" height="${height}" fill="${c.background}"/>`);

  // Seas, their coasts, then land borders: all under the boxes.
  const links: string[] = [];
  for (const [id, s] of Object.entries(LAYOUT.seas)) {
    for (const coast of AREA[id]?.coasts ?? []) {
      const a = LAYOUT.areas[coast];
      if (!a) continue;
      // From the oval's rim, not its centre: a sea with ten coasts stays readable.
      const th = Math.atan2((a.y - s.y) / s.ry, (a.x - s.x) / s.rx);
      const rim = { x: s.x + s.rx * Math.cos(th), y: s.y + s.ry * Math.sin(th) };
      links.push(`<line x1="${n(rim.x)}" y1="${n(rim.y)}" x2="${n(a.x)}" y2="${n(a.y)}" stroke="${c.coast}" stroke-width="1.4"/>`);
    }
  }
  for (const key of Object.keys(BORDER)) {
    const [a, b] = key.split('|') as [string, string];
    if (a > b) continue;
    const pa = LAYOUT.areas[a];
    const pb = LAYOUT.areas[b];
    if (pa && pb) links.push(`<line x1="${n(pa.x)}" y1="${n(pa.y)}" x2="${n(pb.x)}" y2="${n(pb.y)}" stroke="${c[BORDER[key]!]}" stroke-width="3.5"/>`);
  }
  for (const [, s] of Object.entries(LAYOUT.seas)) {
    out.push(`<ellipse cx="${n(s.x)}" cy="${n(s.y)}" rx="${n(s.rx)}" ry="${n(s.ry)}" fill="${c.sea}" stroke="${c.coast}" stroke-width="1"/>`);
  }
  out.push(`<g class="links">${links.join('')}</g>`);
  for (const [id, s] of Object.entries(LAYOUT.seas)) {
    out.push(text(s.x, s.y + 4, AREA[id]?.name ?? id, { size: 11, maxWidth: s.rx * 2 - 8, anchor: 'middle', bold: true, fill: c.seaText }));
  }

  // Area boxes: header with the name at the left, icons at the right (crown, city, cathedral).
  for (const a of AREAS) {
    const p = LAYOUT.areas[a.id];
    if (!p || a.kind === 'sea') continue;
    const x = p.x - box.w / 2;
    const y = p.y - box.h / 2;
    const fill = a.kind === 'exile' ? (a.exileOf === 'Lancaster' ? c.exileLancaster : c.exileYork) : a.wales ? c.wales : c.land;
    const dash = a.kind === 'exile' ? ' stroke-dasharray="5 3"' : '';
    out.push(`<g class="area"><rect x="${n(x)}" y="${n(y)}" width="${box.w}" height="${box.h}" rx="${box.radius}" fill="${fill}" stroke="${c.boxStroke}" stroke-width="1"${dash}/>`);
    const icons: string[] = [];
    let ix = x + box.w - box.iconsRight - box.iconSize;
    const iy = y + 3;
    if (a.cathedral) {
      icons.push(cathedralIcon(ix, iy, box.iconSize));
      ix -= box.iconSize + 2;
    }
    if (a.city) {
      icons.push(cityIcon(ix, iy, box.iconSize, a.cityLevyOf));
      ix -= box.iconSize + 2;
    }
    if (a.crown) {
      icons.push(crownIcon(ix, iy, box.iconSize));
      ix -= box.iconSize + 2;
    }
    const nameRoom = Math.min(box.nameMaxWidth, ix + box.iconSize - x - box.nameX - 2);
    out.push(text(x + box.nameX, y + box.nameY, a.name, { size: box.nameSize, maxWidth: nameRoom, bold: true, fill: c.text }));
    out.push(icons.join(''));
    out.push('</g>');
  }
  out.push(legendKeySvg(t));
  return out.join('\n');
}

/** The board picture's two layers (see BoardLayers). */
export function renderBoardLayers({ view, version, earlier, t }: BoardInput): BoardLayers {
  const { width, height, box, colours: c } = LAYOUT;
  const out: string[] = [];

  // Title: game, scenario, turn and phase.
  // The scenario's name in the picture's language; the scenario named after the game is not named twice.
  const scenarioKey = `scenario.${view.scenario}`;
  const named = t(scenarioKey);
  const scenario = named === scenarioKey ? (SCENARIO[view.scenario]?.name ?? view.scenario) : named;
  const game = t('game');
  const phase = LAYOUT.phases[view.prompt.state] ?? 'setup';
  // Before the first card phase the turn is 0: the title says the campaign and "Setup" only.
  const title = `${scenario === game ? game : t('title', { scenario })} · ${t('turn', { campaign: view.campaign, end: view.endCampaign, turn: view.turn })} · ${t('phase', { phase })}`;
  out.push(text(LAYOUT.title.x, LAYOUT.title.y, title, { size: LAYOUT.title.size, maxWidth: LAYOUT.title.maxWidth, bold: true, fill: c.text }));

  // Areas: the battle's and the attacked areas' outlines over the base's, then the blocks.
  const battleArea = view.battle?.area ?? null;
  for (const a of AREAS) {
    const p = LAYOUT.areas[a.id];
    if (!p || a.kind === 'sea') continue;
    const x = p.x - box.w / 2;
    const y = p.y - box.h / 2;
    const parts: string[] = [];
    if (a.id === battleArea || a.id in view.attacks) {
      const battle = a.id === battleArea;
      const dash = battle ? '' : ' stroke-dasharray="5 3"';
      parts.push(`<rect class="${battle ? 'battle' : 'attack'}" x="${n(x)}" y="${n(y)}" width="${box.w}" height="${box.h}" rx="${box.radius}" fill="none" stroke="${battle ? c.battle : c.attack}" stroke-width="${battle ? 3.5 : 2.5}"${dash}/>`);
    }
    chipsOf(view, a.id).forEach((chip, i) => {
      const s = slotAt(p.x, p.y, i);
      parts.push(chipSvg(chip, s.x, s.y, t));
    });
    // No area id here: some are also block ids (Somerset, Essex, Pembroke), which the leak scans look for.
    if (parts.length > 0) out.push(`<g class="area-blocks">${parts.join('')}</g>`);
  }

  // Move arrows on top.
  const { which, moves } = turnMoves([...earlier, view]);
  out.push(`<g class="moves">${moves.map((m) => arrowSvg(m)).join('')}</g>`);

  out.push(legendGameSvg(view, version, which, t));
  return { width, height, base: baseLayer(t), overlay: out.join('\n') };
}

/** Richard III's entry in BOARD_RENDERERS (./index.ts). */
export const richardIIIRenderer: BoardRenderer = {
  svg(view, version, earlier, lang) {
    const { width, height, base, overlay } = this.layers(view, version, earlier, lang);
    return svgDocument(width, height, [base, overlay]);
  },
  layers: (view, version, earlier, lang) =>
    renderBoardLayers({ view: view as R3View, version, earlier: earlier as R3View[], t: translator('richard-iii', lang) }),
  // Random play takes at most ~110 versions for one game turn; two turns fit with room to spare.
  maxEarlier: 600,
  turnOf: (view) => `${(view as R3View).campaign}:${(view as R3View).turn}`,
};
