/**
 * Card Phase (1.1), the deal and the redeal option (5.1 ), Player 1.
 * Worked examples W2 (initiative) and W3 (redeal) of RULES.md.
 */
import t from 'tap';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { setupState } from '../../../src/games/richard-iii/setup.ts';
import { CARDS, type Side } from '../../../src/games/richard-iii/data.ts';
import { top, type R3State } from '../../../src/games/richard-iii/state.ts';
import type { Action } from '../../../src/games/richard-iii/flow.ts';
import { handAp, playerOne, startCampaign, startGameTurn } from '../../../src/games/richard-iii/cards.ts';

const act = (s: R3State, side: Side, a: Action): R3State => richardIII.apply(s, side, a);
const legal = (s: R3State, side: Side): Action[] => richardIII.legalActions(s, side);
const types = (s: R3State, side: Side): string[] => legal(s, side).map((a) => a.type);
const ALL = CARDS.map((c) => c.id);

/** Every card's place (hands, deck, played slots), sorted: must equal all 25 cards, each once. */
function cardsOf(s: R3State): string[] {
  return [...s.hands.York, ...s.hands.Lancaster, ...s.deck,
    ...(s.played.York ? [s.played.York] : []), ...(s.played.Lancaster ? [s.played.Lancaster] : [])].sort();
}
const SORTED = [...ALL].sort();

/** A campaign start with chosen hands (the deal is random; the redeal offer reads the hands). */
function campaignWith(york: string[], lancaster: string[]): R3State {
  const s = buildPosition({});
  startCampaign(s);
  s.hands.York = [...york];
  s.hands.Lancaster = [...lancaster];
  s.deck = ALL.filter((c) => !york.includes(c) && !lancaster.includes(c));
  return s;
}

/** A game turn with chosen hands, ready for card play. */
function turnWith(york: string[], lancaster: string[], king: Side = 'Lancaster'): R3State {
  const s = buildPosition({ king, hands: { York: york, Lancaster: lancaster } });
  s.deck = ALL.filter((c) => !york.includes(c) && !lancaster.includes(c));
  startGameTurn(s);
  return s;
}

const LOW = ['muster', 'plague', 'surprise', 'treason', 'force-march', 'ap2-1', 'ap2-2']; // 7 AP
const HIGH = ['ap4-1', 'ap4-2', 'ap4-3', 'ap4-4', 'ap3-1', 'ap3-2', 'ap3-3']; // 25 AP

t.test('5.1: a campaign deals 7 cards to each player from all 25, 11 unused', async (t) => {
  const s = setupState('wars-of-the-roses', 'deal-1');
  t.equal(s.hands.York.length, 7);
  t.equal(s.hands.Lancaster.length, 7);
  t.equal(s.deck.length, 11);
  t.same(cardsOf(s), SORTED, 'all 25 cards, each once');
  t.same(setupState('wars-of-the-roses', 'deal-1').hands, s.hands, 'same seed, same deal');
  t.notSame(setupState('wars-of-the-roses', 'deal-2').hands, s.hands, 'another seed, another deal');
  t.equal(top(s).s, 'redeal_offer');
  t.same(richardIII.activeRoles(s).sort(), ['Lancaster', 'York'], 'both players are asked at once');
});

t.test('W3: both players are asked about a redeal, eligible or not, so the prompt leaks nothing', async (t) => {
  const s = campaignWith(LOW, HIGH);
  t.same(types(s, 'York').sort(), ['demand_redeal', 'keep_hand'], 'York (7 AP) may demand');
  t.same(types(s, 'Lancaster'), ['keep_hand'], 'Lancaster (25 AP) may only keep');
  t.same(richardIII.activeRoles(s).sort(), ['Lancaster', 'York']);
  // Lancaster answers first: its answer is hidden, York is still asked.
  const s1 = act(s, 'Lancaster', { type: 'keep_hand' });
  t.same(richardIII.activeRoles(s1), ['York']);
  t.same(legal(s1, 'Lancaster'), []);
  const s2 = act(s1, 'York', { type: 'keep_hand' });
  t.equal(top(s2).s, 'play_card', 'nobody demanded: the first Game Turn starts');
  t.equal(s2.turn, 1);
  t.same(s2.hands, s.hands, 'hands unchanged');
});

t.test('W3: 13 AP or less may demand a redeal; 14 may not; seven action cards never can', async (t) => {
  const six2 = ['ap2-1', 'ap2-2', 'ap2-3', 'ap2-4', 'ap2-5', 'ap2-6'];
  const s13 = campaignWith([...six2, 'surprise'], HIGH);
  t.equal(handAp(s13.hands.York), 13);
  t.ok(types(s13, 'York').includes('demand_redeal'), '13 AP: redeal allowed');
  const s14 = campaignWith([...six2, 'piracy'], HIGH);
  t.equal(handAp(s14.hands.York), 14);
  t.same(types(s14, 'York'), ['keep_hand'], '14 AP: no redeal');
  const actions7 = campaignWith([...six2, 'ap3-1'], HIGH);
  t.equal(handAp(actions7.hands.York), 15, 'the lowest all-action hand is 6×AP2 + AP3 = 15');
  t.same(types(actions7, 'York'), ['keep_hand']);
});

t.test('W3 [R-12]: demand then the opponent chooses keep', async (t) => {
  let s = campaignWith(LOW, HIGH);
  s = act(s, 'York', { type: 'demand_redeal' });
  t.equal(top(s).s, 'redeal_offer', 'waiting for Lancaster\'s hidden answer');
  t.same(richardIII.activeRoles(s), ['Lancaster']);
  s = act(s, 'Lancaster', { type: 'keep_hand' });
  t.equal(top(s).s, 'redeal_answer', 'Lancaster now decides keep / new hand');
  t.same(types(s, 'Lancaster').sort(), ['keep_hand', 'new_hand']);
  t.same(richardIII.activeRoles(s), ['Lancaster']);
  t.match(s.log.map((e) => e.pub).join('\n'), /York reveals its hand \(.*Muster.*\) and demands a redeal/, 'the hand is revealed');
  s = act(s, 'Lancaster', { type: 'keep_hand' });
  t.same(s.hands.Lancaster, HIGH, 'Lancaster keeps its hand');
  t.equal(s.hands.York.length, 7);
  t.notOk(s.hands.York.some((c) => HIGH.includes(c)), 'kept cards are not reshuffled');
  t.ok(s.mulligan.York);
  t.notOk(s.mulligan.Lancaster);
  t.same(cardsOf(s), SORTED, 'all 25 cards, each once');
  t.equal(top(s).s, 'play_card', 'York\'s demand is used; Lancaster kept: nobody is asked again');
});

t.test('W3 [R-12]: opponent takes a new hand too, and may then still demand once himself', async (t) => {
  let s = campaignWith(LOW, HIGH);
  s = act(s, 'York', { type: 'demand_redeal' });
  s = act(s, 'Lancaster', { type: 'keep_hand' });
  s = act(s, 'Lancaster', { type: 'new_hand' });
  t.equal(s.hands.Lancaster.length, 7);
  t.equal(s.hands.York.length, 7);
  t.same(cardsOf(s), SORTED, 'all 25 cards, each once');
  t.notOk(s.mulligan.Lancaster, 'taking a new hand is not a demand');
  t.equal(top(s).s, 'redeal_offer', 'Lancaster has a new hand and an unused demand: asked again');
  t.same(richardIII.activeRoles(s), ['Lancaster'], 'York (demand used) is not asked again');
  t.same(legal(s, 'York'), []);
  // Lancaster's new hand is random; give it a low one to check the second demand.
  s.hands.York = HIGH;
  s.hands.Lancaster = LOW;
  s.deck = ALL.filter((c) => !HIGH.includes(c) && !LOW.includes(c));
  t.same(types(s, 'Lancaster').sort(), ['demand_redeal', 'keep_hand']);
  s = act(s, 'Lancaster', { type: 'demand_redeal' });
  t.equal(top(s).s, 'redeal_answer', 'York answers keep / new hand');
  t.same(richardIII.activeRoles(s), ['York']);
  s = act(s, 'York', { type: 'keep_hand' });
  t.same(s.hands.York, HIGH);
  t.ok(s.mulligan.Lancaster);
  t.equal(top(s).s, 'play_card', 'both demands used');
  t.same(cardsOf(s), SORTED, 'all 25 cards, each once');
});

t.test('W3: once per player per campaign; both demanding gives both new hands', async (t) => {
  let s = campaignWith(['muster', 'plague', 'surprise', 'ap2-1', 'ap2-2', 'ap2-3', 'ap3-1'],
    ['treason', 'force-march', 'piracy', 'ap2-4', 'ap2-5', 'ap2-6', 'ap3-2']);
  t.equal(handAp(s.hands.York), 10);
  t.equal(handAp(s.hands.Lancaster), 13);
  s = act(s, 'York', { type: 'demand_redeal' });
  s = act(s, 'Lancaster', { type: 'demand_redeal' });
  t.ok(s.mulligan.York && s.mulligan.Lancaster);
  t.equal(top(s).s, 'play_card', 'both demands used: straight to the Game Turn, whatever the new hands');
  t.same(cardsOf(s), SORTED, 'all 25 cards, each once');
  // Next campaign: the demand is available again.
  startCampaign(s);
  t.notOk(s.mulligan.York || s.mulligan.Lancaster, 'a new campaign resets the redeal option');
  t.equal(top(s).s, 'redeal_offer');
});

t.test('1.1: simultaneous hidden play; a played card can be taken back until the other plays', async (t) => {
  let s = turnWith(['ap3-1', 'surprise', 'ap2-1'], ['ap4-1', 'ap2-2', 'ap3-2']);
  t.equal(s.turn, 5, 'Game Turn = 8 − cards in hand (3)');
  t.same(richardIII.activeRoles(s).sort(), ['Lancaster', 'York']);
  t.same(legal(s, 'York').map((a) => a.card).sort(), ['ap2-1', 'ap3-1', 'surprise']);
  s = act(s, 'York', { type: 'play', card: 'surprise' });
  t.same(legal(s, 'York'), [{ type: 'take_back' }]);
  t.equal(legal(s, 'Lancaster').length, 3, 'Lancaster still chooses');
  const lv = JSON.stringify(richardIII.view(s, 'Lancaster'));
  t.notOk(lv.includes('surprise'), 'Lancaster cannot see York\'s face-down card');
  t.ok(JSON.stringify(richardIII.view(s, 'York')).includes('surprise'), 'York sees its own card');
  s = act(s, 'York', { type: 'take_back' });
  t.same(s.hands.York, ['surprise', 'ap3-1', 'ap2-1'], 'back in hand (deck order)');
  t.equal(s.played.York, null);
  s = act(s, 'York', { type: 'play', card: 'ap2-1' });
  s = act(s, 'Lancaster', { type: 'play', card: 'ap4-1' });
  t.ok(s.revealed);
  t.equal(s.p1, 'Lancaster');
  t.same(s.undo, []);
  t.match(s.log.map((e) => e.pub).join('\n'), /York plays AP2 card, Lancaster plays AP4 card\. Lancaster is Player 1/);
  t.same(s.hands.York, ['surprise', 'ap3-1']);
  t.notOk(top(s).s === 'play_card', 'the Action Phase has started');
});

t.test('W2 [R-2]: Player 1', async (t) => {
  // Lancaster is King, York Pretender (1460).
  t.equal(playerOne('ap3-1', 'ap3-2', 'Lancaster'), 'York', 'AP3 v AP3: tie → Pretender (York)');
  t.equal(playerOne('ap2-1', 'ap4-1', 'Lancaster'), 'Lancaster', 'Lancaster AP4 v York AP2 → Lancaster');
  t.equal(playerOne('muster', 'ap4-1', 'Lancaster'), 'York', 'AP0 event beats AP4 action');
  t.equal(playerOne('ap4-1', 'plague', 'Lancaster'), 'Lancaster', 'the King\'s AP0 event beats AP4 too');
  t.equal(playerOne('surprise', 'piracy', 'Lancaster'), 'Lancaster', 'two events: higher AP (Piracy 2 > Surprise 1)');
  t.equal(playerOne('surprise', 'treason', 'Lancaster'), 'York', 'two events, equal AP → Pretender');
  t.equal(playerOne('surprise', 'treason', 'York'), 'Lancaster', 'after a usurpation the Pretender is Lancaster');
  t.equal(playerOne('ap3-1', 'ap3-2', 'York'), 'Lancaster');

  // Through the engine: both play, reveal, Player 1 set.
  let s = turnWith(['ap3-1', 'ap2-1'], ['ap3-2', 'ap2-2']);
  s = act(s, 'Lancaster', { type: 'play', card: 'ap3-2' });
  s = act(s, 'York', { type: 'play', card: 'ap3-1' });
  t.equal(s.p1, 'York', 'W16 card phase: AP3 v AP3, York (Pretender) is Player 1');
  let e = turnWith(['muster', 'ap2-1'], ['ap4-1', 'ap2-2']);
  e = act(e, 'York', { type: 'play', card: 'muster' });
  e = act(e, 'Lancaster', { type: 'play', card: 'ap4-1' });
  t.equal(e.p1, 'York', 'event player is Player 1');
  t.match(e.log.map((x) => x.pub).join('\n'), /York plays Muster \(event, AP0\)/);
});

t.test('startGameTurn resets the per-turn bookkeeping', async (t) => {
  const s = buildPosition({ hands: { York: HIGH, Lancaster: LOW }, treason: 'York', p1: 'York', revealed: true });
  s.acted[0] = 1;
  s.borderUse = { 'x|y|York': 2 };
  s.played = { York: 'ap2-3', Lancaster: 'ap2-4' };
  startGameTurn(s);
  t.ok(s.acted.every((x) => x === 0));
  t.same(s.borderUse, {});
  t.same(s.attacks, {});
  t.equal(s.treason, null);
  t.equal(s.p1, null);
  t.same(s.played, { York: null, Lancaster: null });
  t.notOk(s.revealed);
  t.equal(s.turn, 1);
  t.equal(top(s).s, 'play_card');
});

t.test('1.1: in Game Turn 7 the last cards are forced: both are played and revealed at once', async (t) => {
  const s = turnWith(['ap2-1'], ['surprise']);
  t.equal(s.turn, 7);
  t.same(s.played, { York: 'ap2-1', Lancaster: 'surprise' });
  t.same(s.hands, { York: [], Lancaster: [] });
  t.ok(s.revealed);
  t.equal(s.p1, 'Lancaster', 'the event card wins');
  t.not(top(s).s, 'play_card');
});

t.test('5.1 fog of war: the opponent cannot tell whether a hand may demand a redeal', async (t) => {
  const others = ALL.filter((c) => !LOW.includes(c) && !HIGH.includes(c));
  const lancaster = others.slice(0, 7);
  const eligible = campaignWith(LOW, lancaster);
  const notEligible = campaignWith(HIGH, lancaster);
  t.ok(types(eligible, 'York').includes('demand_redeal'));
  t.notOk(types(notEligible, 'York').includes('demand_redeal'));
  t.same(richardIII.view(eligible, 'Lancaster'), richardIII.view(notEligible, 'Lancaster'), 'same view for Lancaster');
  t.same(richardIII.view(eligible, null), richardIII.view(notEligible, null), 'same view for spectators');
  // After York answers (hidden), Lancaster still sees the same thing either way.
  const e1 = act(eligible, 'York', { type: 'keep_hand' });
  const n1 = act(notEligible, 'York', { type: 'keep_hand' });
  t.same(richardIII.view(e1, 'Lancaster'), richardIII.view(n1, 'Lancaster'));
});
