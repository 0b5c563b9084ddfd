// Fog of war on Black & White board pictures: what a picture drawn for a seat
// (or a spectator) shows that the seat may not know. The picture is read as
// text, attributes included, against the engine state and the seat's view at
// that version:
//  - every block (<g class="block own|enemy" data-unit="…">) is a unit the
//    view shows on the board (or, while deploying, one of the seat's own
//    placed blocks), drawn as the seat may see it: an own block with its kind's
//    short label and its strength (the view's), an enemy block with no words
//    (its type symbol) or, when the view shows its kind, that kind's label
//    alone — never a number;
//  - no enemy block the state holds unrevealed carries a kind label;
//  - a block is marked as acting (being activated, activated this turn) only
//    when the view says so, never while the state keeps it unseen;
//  - no enemy kind the view does not show (no block of it revealed, no card of
//    it face up) appears by its name or short label in any text, nor its id
//    anywhere in the markup.
import type { Army } from '../../src/games/black-and-white/data-format.ts';
import type { BWState } from '../../src/games/black-and-white/state.ts';
import type { BWPictureView } from '../../src/render/black-and-white.ts';
import type { Translate } from '../../src/render/messages.ts';
import { svgTexts } from './picture-leaks.ts';

const ARMIES: readonly Army[] = ['Thargaton', 'Vesania'];

function wordIn(texts: readonly string[], word: string): boolean {
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u');
  return texts.some((t) => re.test(t));
}

function tokenIn(text: string, id: string): boolean {
  return new RegExp(`(?<![A-Za-z0-9_-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_-])`).test(text);
}

/** The blocks of a picture: class, unit id and the words inside. */
export function pictureBlocks(svg: string): { own: boolean; id: string; texts: string[]; marks: string[] }[] {
  return [...svg.matchAll(/<g class="block (own|enemy)" data-unit="([^"]*)">(.*?)<\/g>/g)].map((m) => ({
    own: m[1] === 'own',
    id: m[2]!,
    texts: svgTexts(m[3]!),
    marks: [...m[3]!.matchAll(/class="mark-([a-z]+)"/g)].map((x) => x[1]!),
  }));
}

/** What `svg` (drawn for `view.seat` from `view`, in the language of `t`) shows that it may not; empty when nothing. */
export function bwPictureLeaks(svg: string, view: BWPictureView, state: BWState, t: Translate): string[] {
  const found: string[] = [];
  const seat = view.seat;
  const enemies = ARMIES.filter((a) => a !== seat);
  const truth = new Map(state.units.map((u) => [u.id, u]));

  // Blocks, one by one.
  const ownUnits = new Map(seat ? view.armies[seat].units.filter((u) => u.hex !== null).map((u) => [u.id, u]) : []);
  const enemyUnits = new Map(enemies.flatMap((a) => view.armies[a].units.filter((u) => u.hex !== null).map((u) => [u.id, u] as const)));
  const seen = new Set<string>();
  for (const b of pictureBlocks(svg)) {
    if (seen.has(b.id)) found.push(`block ${b.id} drawn twice`);
    // Which units act: only those the view names (units picked out of a stack stay unseen by the opponent).
    if (b.marks.includes('active') && !(view.activation?.units ?? []).includes(b.id)) found.push(`block ${b.id} marked active, the view does not say so`);
    if (b.marks.includes('activated') && !view.activated.includes(b.id)) found.push(`block ${b.id} marked activated, the view does not say so`);
    if ((b.marks.includes('active') || b.marks.includes('activated')) && state.player !== seat && state.unseen.includes(b.id)) found.push(`unseen unit ${b.id} marked as acting`);
    seen.add(b.id);
    if (b.own) {
      const placed = /^placed-(\d+)$/.exec(b.id);
      if (placed && seat) {
        const kind = view.armies[seat].bought?.[Number(placed[1])];
        const card = view.kinds.find((k) => k.id === kind);
        if (!card || view.armies[seat].placed?.[Number(placed[1])] == null) found.push(`own placed block ${b.id} is not in the view`);
        else if (b.texts.join('|') !== `${t(`short.${kind}`)}|${card.strength}`) found.push(`own placed block ${b.id} shows "${b.texts.join('|')}"`);
        continue;
      }
      const u = ownUnits.get(b.id);
      if (!u) found.push(`own block ${b.id} is no own unit the view shows`);
      else if (b.texts.join('|') !== `${t(`short.${u.kind}`)}|${u.strength}`) found.push(`own block ${b.id} shows "${b.texts.join('|')}", the view ${u.kind} ${u.strength}`);
      continue;
    }
    const u = enemyUnits.get(b.id);
    if (!u) {
      found.push(`enemy block ${b.id} is no enemy unit the view shows`);
      continue;
    }
    if (b.texts.some((x) => /\d/.test(x))) found.push(`enemy block ${b.id} shows a number: "${b.texts.join('|')}"`);
    const expected = u.kind !== undefined ? [t(`short.${u.kind}`)] : [];
    if (b.texts.join('|') !== expected.join('|')) found.push(`enemy block ${b.id} shows "${b.texts.join('|')}", the view ${u.kind ?? 'its type only'}`);
    const real = truth.get(b.id);
    if (real && !real.revealed && b.texts.length > 0) found.push(`enemy block ${b.id} is unrevealed but labelled "${b.texts.join('|')}"`);
  }

  // Enemy kinds the view does not show, anywhere.
  const texts = svgTexts(svg);
  for (const a of enemies) {
    const shown = new Set<string>([...(view.armies[a].cardsShown ?? [])]);
    for (const u of view.armies[a].units) if (u.kind !== undefined) shown.add(u.kind);
    for (const k of state.kinds) {
      if (k.army !== a || shown.has(k.id)) continue;
      for (const w of [t(`kind.${k.id}`), t(`short.${k.id}`)]) if (wordIn(texts, w)) found.push(`hidden kind ${k.id} named "${w}"`);
      if (tokenIn(svg, k.id)) found.push(`hidden kind id ${k.id}`);
    }
  }
  return found;
}
