/**
 * Card Phase (1.1, 5.1): the deal at the start of a campaign with the redeal
 * option [R-12], and the simultaneous face-down play of one card per Game Turn.
 *
 * Named states (see INTERPRETATIONS.md §L1):
 * - `redeal_offer`  (side 'both', or the one side asked): each asked side answers
 *   {"type":"keep_hand"} or, if its hand totals ≤ 13 AP and it has not demanded a
 *   redeal yet this campaign, {"type":"demand_redeal"}. Both sides are asked after
 *   every deal, eligible or not: prompting only eligible hands would tell the
 *   opponent that the hand totals 13 AP or less. Answers stay hidden until both
 *   have answered (tabletop: either player may speak up; we collect both at once).
 * - `redeal_answer` (the opponent of a lone demander): {"type":"keep_hand"} or
 *   {"type":"new_hand"} (5.1: the opponent decides whether to keep his hand).
 *   If both demanded, both get new hands and nobody is asked.
 *   After a redeal, a side that received a new hand and has not yet demanded is
 *   asked again (its new hand may total ≤ 13); a side whose demand is used is not.
 * - `play_card` (side 'both'): a side that has not played lists {"type":"play","card":id}
 *   for each card in hand; a side that has played lists only {"type":"take_back"}
 *   until the other side plays (INTERPRETATIONS 2). We use an explicit take_back
 *   rather than index.ts's {"type":"undo"}: the undo stack is shared, not per side,
 *   and index.ts offers undo only when the top frame's side is the acting side.
 *   When the second card is played both are revealed at once, Player 1 is fixed
 *   per [R-2] and Player 1's Action Phase starts. In Game Turn 7 each player has
 *   one card left and no choice: both are played and revealed automatically.
 */
import { shuffle } from '../../engine/rng.ts';
import { CARD, CARDS, HAND_SIZE, NUM_BLOCKS, REDEAL_THRESHOLD_AP, SIDES, other, type Side } from './data.ts';
import { clearUndo, type Action, type HandlerTable } from './flow.ts';
import { addLog, type Frame, type R3State } from './state.ts';
import { cardRef, list, msg, sideRef } from './msg.ts';
import { startActionPhase } from './action-phase.ts';

/* ------------------------------------------------------------------ helpers */

/** Deck order of each card id, to keep hands sorted (stable legal-action lists). */
const CARD_ORDER: Readonly<Record<string, number>> = Object.fromEntries(CARDS.map((c, i) => [c.id, i]));
const byDeckOrder = (a: string, b: string): number => CARD_ORDER[a]! - CARD_ORDER[b]!;

/** Public name of a card: "AP3 card" or "Surprise (event, AP1)". */
export function cardLabel(id: string): string {
  const c = CARD[id]!;
  return c.kind === 'event' ? `${c.name} (event, AP${c.ap})` : `AP${c.ap} card`;
}

/** Total AP of a hand, event cards at their printed AP (5.1). */
export function handAp(hand: readonly string[]): number {
  let n = 0;
  for (const id of hand) n += CARD[id]!.ap;
  return n;
}

/** May this side demand a redeal now? (5.1: ≤ 13 AP, once per player per campaign.) */
export function mayDemandRedeal(s: R3State, side: Side): boolean {
  return !s.mulligan[side] && handAp(s.hands[side]) <= REDEAL_THRESHOLD_AP;
}

/**
 * Player 1 of a Game Turn from the two played cards: an event beats an
 * action card; otherwise the higher AP; a tie goes to the Pretender.
 */
export function playerOne(yorkCard: string, lancasterCard: string, king: Side): Side {
  const score = (id: string, side: Side): number => {
    const c = CARD[id]!;
    return (c.kind === 'event' ? 100 : 0) + 2 * c.ap + (side !== king ? 1 : 0);
  };
  return score(yorkCard, 'York') > score(lancasterCard, 'Lancaster') ? 'York' : 'Lancaster';
}

/**
 * Shuffles every card not in a kept hand and deals HAND_SIZE to each side in
 * `sides` (King side first), the rest to the deck.
 */
function deal(s: R3State, sides: readonly Side[]): void {
  const kept = new Set<string>();
  for (const side of SIDES) if (!sides.includes(side)) for (const c of s.hands[side]) kept.add(c);
  const cards = shuffle(s.rng, CARDS.map((c) => c.id).filter((id) => !kept.has(id)));
  const order = sides.includes(s.king) ? [s.king, ...sides.filter((x) => x !== s.king)] : [...sides];
  let i = 0;
  for (const side of order) {
    s.hands[side] = cards.slice(i, i + HAND_SIZE).sort(byDeckOrder);
    i += HAND_SIZE;
  }
  s.deck = cards.slice(i);
}

/* ------------------------------------------------------- campaign and turns */

/** New campaign: shuffle all 25 cards, deal 7 each, then the redeal option (5.1, 8.5). */
export function startCampaign(s: R3State): void {
  s.mulligan = { York: false, Lancaster: false };
  s.played = { York: null, Lancaster: null };
  s.revealed = false;
  s.hands = { York: [], Lancaster: [] };
  deal(s, SIDES);
  s.turn = 0;
  clearUndo(s);
  addLog(s, `Campaign ${s.campaign}: the cards are shuffled and 7 are dealt to each player.`, msg('log.deal', { campaign: s.campaign }));
  offerRedeal(s, [...SIDES]);
}

/** Asks `sides` (those with an unused demand) whether they demand a redeal; else starts the turn. */
function offerRedeal(s: R3State, sides: Side[]): void {
  const ask = sides.filter((side) => !s.mulligan[side]);
  if (ask.length === 0) {
    startGameTurn(s);
    return;
  }
  s.flow.push({ s: 'redeal_offer', side: ask.length === 1 ? ask[0]! : 'both', ask, answers: {} });
}

/** A new Game Turn: reset the per-turn bookkeeping and ask both players for a card (1.1). */
export function startGameTurn(s: R3State): void {
  s.acted = new Array<number>(NUM_BLOCKS).fill(0);
  s.borderUse = {};
  s.attacks = {};
  s.treason = null;
  s.played = { York: null, Lancaster: null };
  s.revealed = false;
  s.p1 = null;
  // Game turn = 8 − cards in hand before this turn's card is played (INTERPRETATIONS 4).
  s.turn = HAND_SIZE + 1 - s.hands.York.length;
  clearUndo(s);
  addLog(s, `Game Turn ${s.turn} of campaign ${s.campaign}.`, msg('log.gameTurn', { turn: s.turn, campaign: s.campaign }));
  s.flow.push({ s: 'play_card', side: 'both' });
  // Game Turn 7: each player holds one card and must play it (1.1), so neither
  // choice exists; play both at once (single-option steps resolve automatically).
  if (s.hands.York.length === 1 && s.hands.Lancaster.length === 1) {
    for (const side of SIDES) {
      s.played[side] = s.hands[side][0]!;
      s.hands[side] = [];
    }
    reveal(s);
  }
}

/** Both cards are down: reveal them, fix Player 1 and start his Action Phase. */
function reveal(s: R3State): void {
  const y = s.played.York!, l = s.played.Lancaster!;
  s.revealed = true;
  clearUndo(s);
  const p1 = playerOne(y, l, s.king);
  s.p1 = p1;
  s.flow.pop();
  addLog(s, `Cards revealed: York plays ${cardLabel(y)}, Lancaster plays ${cardLabel(l)}. ${p1} is Player 1.`,
    msg('log.cardsRevealed', { york: cardRef(y), lancaster: cardRef(l), p1: sideRef(p1) }));
  startActionPhase(s, p1);
}

/* ----------------------------------------------------------------- handlers */

interface RedealOfferFrame extends Frame {
  ask: Side[];
  answers: Partial<Record<Side, 'keep' | 'demand'>>;
}
interface RedealAnswerFrame extends Frame {
  demander: Side;
}

const KEEP: Action = { type: 'keep_hand' };
const DEMAND: Action = { type: 'demand_redeal' };
const NEW_HAND: Action = { type: 'new_hand' };
const TAKE_BACK: Action = { type: 'take_back' };

function revealDemand(s: R3State, side: Side): void {
  s.mulligan[side] = true;
  const hand = s.hands[side];
  addLog(s, `${side} reveals its hand (${hand.map(cardLabel).join(', ')}: ${handAp(hand)} AP) and demands a redeal.`,
    msg('log.redealDemand', { side: sideRef(side), cards: list(hand.map(cardRef)), ap: handAp(hand) }));
}

export const handlers: HandlerTable = {
  redeal_offer: {
    actions(s, f, side) {
      const fr = f as RedealOfferFrame;
      if (!fr.ask.includes(side) || fr.answers[side]) return [];
      return mayDemandRedeal(s, side) ? [KEEP, DEMAND] : [KEEP];
    },
    apply(s, f, side, a) {
      const fr = f as RedealOfferFrame;
      fr.answers[side] = a.type === 'demand_redeal' ? 'demand' : 'keep';
      if (fr.ask.some((x) => !fr.answers[x])) return; // wait for the other side's hidden answer
      s.flow.pop();
      const demanders = fr.ask.filter((x) => fr.answers[x] === 'demand');
      clearUndo(s);
      if (demanders.length === 0) {
        startGameTurn(s);
        return;
      }
      for (const x of demanders) revealDemand(s, x);
      if (demanders.length === 2) {
        deal(s, SIDES);
        addLog(s, 'All 25 cards are shuffled and new hands are dealt to both players.', msg('log.redealAll'));
        offerRedeal(s, []);
        return;
      }
      const demander = demanders[0]!;
      s.flow.push({ s: 'redeal_answer', side: other(demander), demander });
    },
    prompt(s, f, seat) {
      const fr = f as RedealOfferFrame;
      if (seat === null || !fr.ask.includes(seat)) return { text: 'Waiting for the redeal decision (5.1).' };
      if (fr.answers[seat]) return { text: 'Waiting for the other player to decide on a redeal.' };
      const ap = handAp(s.hands[seat]);
      return mayDemandRedeal(s, seat)
        ? { text: `Your hand totals ${ap} AP: you may reveal it and demand a redeal (once per campaign), or keep it.`, handAp: ap }
        : { text: `Your hand totals ${ap} AP: a redeal needs 13 AP or less (or your demand is used). Keep your hand.`, handAp: ap };
    },
  },

  redeal_answer: {
    actions(_s, f, side) {
      return f.side === side ? [KEEP, NEW_HAND] : [];
    },
    apply(s, f, side, a) {
      const demander = (f as RedealAnswerFrame).demander;
      s.flow.pop();
      const both = a.type === 'new_hand';
      addLog(s, both ? `${side} takes a new hand too.` : `${side} keeps its hand.`, msg(both ? 'log.newHandToo' : 'log.keepsHand', { side: sideRef(side) }));
      deal(s, both ? SIDES : [demander]);
      addLog(s, both ? 'The cards are shuffled and new hands are dealt to both players.'
        : `The other 18 cards are shuffled and a new hand is dealt to ${demander}.`,
      both ? msg('log.redealBoth') : msg('log.redealOne', { side: sideRef(demander) }));
      // Only a side with a new hand and an unused demand is asked again.
      offerRedeal(s, both ? [side] : []);
    },
    prompt(_s, f, seat) {
      const d = (f as RedealAnswerFrame).demander;
      return seat === f.side
        ? { text: `${d} demands a redeal. Keep your hand, or take a new one as well?` }
        : { text: `${f.side} decides whether to keep its hand or take a new one.` };
    },
  },

  play_card: {
    actions(s, _f, side) {
      if (s.played[side] !== null) return [TAKE_BACK];
      return s.hands[side].map((card) => ({ type: 'play', card }));
    },
    apply(s, _f, side, a) {
      if (a.type === 'take_back') {
        const card = s.played[side]!;
        s.played[side] = null;
        s.hands[side] = [...s.hands[side], card].sort(byDeckOrder);
        return;
      }
      const card = a.card as string;
      s.hands[side] = s.hands[side].filter((c) => c !== card);
      s.played[side] = card;
      if (s.played[other(side)] !== null) reveal(s);
    },
    prompt(s, _f, seat) {
      if (seat === null) return { text: `Game Turn ${s.turn}: both players choose a card.` };
      const mine = s.played[seat];
      const theirs = s.played[other(seat)] !== null;
      return mine === null
        ? { text: `Game Turn ${s.turn}: play a card face-down.`, opponentPlayed: theirs }
        : { text: 'Waiting for the other player; you may take your card back until then.', played: mine, opponentPlayed: theirs };
    },
  },
};
