// Fog of war on board pictures: what a Richard III picture drawn for a seat
// (or a spectator) shows that the seat may not know. The picture is read as
// text — every character of it, attributes, ids and titles included — against
// the truth (the engine state) and what the seat's view at that version
// shows:
//  - no hidden block's id (an enemy block not in the view: not the seat's own,
//    not revealed in the battle being fought, not dead, minor, off-map, King,
//    Pretender or prisoner) appears anywhere;
//  - every block chip that carries a name and a strength matches, as a pair,
//    a block the view shows on the map (one chip per such block);
//  - no hidden block's name or short label appears in any text, unless the
//    same words also name something public (an area, a city, a side, a shown
//    block);
//  - no card the seat may not see (the enemy's hand, the enemy's face-down
//    card) appears by its name, unless the view shows a card of that name.
import { AREAS, BLOCKS, BLOCK, CARDS, SCENARIOS, type Side } from '../../src/games/richard-iii/data.ts';
import type { R3State } from '../../src/games/richard-iii/state.ts';
import type { R3View } from '../../src/games/richard-iii/view.ts';
import { LAYOUT } from '../../src/render/richard-iii.ts';
import type { Translate } from '../../src/render/messages.ts';

const OWNER = (s: R3State, id: string): Side | 'Rebel' => {
  const side = BLOCK[id]!.side;
  if (side !== 'Rebel') return side;
  return s.king === 'York' ? 'Lancaster' : 'York';
};

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The text content of every <text> element, in order. */
export function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => unescape(m[1]!));
}

function tokenIn(text: string, id: string): boolean {
  const re = new RegExp(`(?<![A-Za-z0-9_-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_-])`);
  return re.test(text);
}

function wordIn(texts: readonly string[], word: string): boolean {
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u');
  return texts.some((t) => re.test(t));
}

/** Block ids the view shows by name. */
export function shownBlocks(view: R3View): Set<string> {
  const out = new Set<string>();
  for (const b of view.blocks ?? []) out.add(b.id);
  for (const b of view.battle?.blocks ?? []) out.add(b.id);
  for (const id of [...view.dead, ...view.off, ...view.minors.York, ...view.minors.Lancaster]) out.add(id);
  if (view.crown.York) out.add(view.crown.York);
  if (view.crown.Lancaster) out.add(view.crown.Lancaster);
  if (view.prisoner) out.add(view.prisoner);
  return out;
}

/**
 * What `svg` (drawn for `view.seat` from `view`, in the language of `t`)
 * shows that it may not; empty when nothing.
 */
export function pictureLeaks(svg: string, view: R3View, state: R3State, t: Translate): string[] {
  const found: string[] = [];
  const seat = view.seat;
  const shown = shownBlocks(view);
  const hidden = BLOCKS.map((b) => b.id).filter((id) => OWNER(state, id) !== seat && !shown.has(id));
  const texts = svgTexts(svg);

  for (const id of hidden) if (tokenIn(svg, id)) found.push(`hidden block id ${id}`);

  // Chips with a name and a strength: each must be a block the view shows on the map, with that strength.
  const allowed = new Map<string, number>();
  const add = (id: string, steps: number) => {
    const k = `${LAYOUT.blockLabels[id] ?? BLOCK[id]!.name}|${steps}`;
    allowed.set(k, (allowed.get(k) ?? 0) + 1);
  };
  for (const b of view.blocks ?? []) if (AREAS.some((a) => a.id === b.loc)) add(b.id, b.steps);
  for (const b of view.battle?.blocks ?? []) if (b.side !== seat) add(b.id, b.steps);
  for (const m of svg.matchAll(/<g class="chip"[^>]*>(.*?)<\/g>/g)) {
    const inner = svgTexts(m[1]!);
    if (inner.length === 0) continue;
    const k = inner.join('|');
    const left = allowed.get(k) ?? 0;
    if (left <= 0) found.push(`chip "${k}" is no block the view shows`);
    else allowed.set(k, left - 1);
  }

  // Cards by the name the picture gives them.
  const cardName = (card: string) => {
    const ap = /^ap(\d)/.exec(card);
    return ap ? t('card', { card: 'action', ap: Number(ap[1]) }) : t('card', { card: card.replace(/-(.)/g, (_, ch: string) => ch.toUpperCase()), ap: 0 });
  };
  // Names and labels of hidden blocks, unless the same words name something public.
  const publicWords = new Set<string>(['York', 'Lancaster', 'Rebel']);
  for (const a of AREAS) for (const w of [a.name, a.city, a.cathedral]) if (w) publicWords.add(w);
  for (const sc of SCENARIOS) publicWords.add(sc.name);
  // Card names ("Force March" is no Earl of March).
  for (const c of CARDS) publicWords.add(cardName(c.id));
  for (const id of shown) {
    publicWords.add(BLOCK[id]!.name);
    if (LAYOUT.blockLabels[id]) publicWords.add(LAYOUT.blockLabels[id]!);
  }
  // Public phrases are taken out first ("Irish" of the Irish Sea is not the Irish mercenary).
  const phrases = [...publicWords].sort((a, b) => b.length - a.length);
  const rest = texts.map((x) => phrases.reduce((acc, p) => acc.split(p).join(' '), x));
  for (const id of hidden) {
    for (const w of new Set([BLOCK[id]!.name, LAYOUT.blockLabels[id] ?? ''])) {
      if (w && !publicWords.has(w) && wordIn(rest, w)) found.push(`hidden block name "${w}" (${id})`);
    }
  }

  // Cards the seat may not see.
  const seen = new Set<string>();
  for (const c of [view.cards.played.York, view.cards.played.Lancaster, ...(view.hand ?? [])]) if (c && c !== 'hidden') seen.add(cardName(c));
  const secret: string[] = [];
  for (const side of ['York', 'Lancaster'] as const) {
    if (side === seat) continue;
    secret.push(...state.hands[side]);
    if (view.cards.played[side] === 'hidden' && state.played[side]) secret.push(state.played[side]!);
  }
  for (const c of secret) {
    const name = cardName(c);
    if (!seen.has(name) && texts.some((x) => x.includes(name))) found.push(`secret card ${c} ("${name}")`);
    if (tokenIn(svg, c)) found.push(`secret card id ${c}`);
  }
  return found;
}
