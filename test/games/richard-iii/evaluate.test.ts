// GameModule.evaluate for Richard III (src/games/richard-iii/evaluate.ts): a
// win estimate in [0, 1] that the two sides' values complement, that favours
// the side with more nobles on the map, and that is exact once the game is over.
import t from 'tap';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { evaluate } from '../../../src/games/richard-iii/evaluate.ts';
import { AREA, BLOCKS, CARDS, HAND_SIZE, NUM_BLOCKS } from '../../../src/games/richard-iii/data.ts';
import { handAp } from '../../../src/games/richard-iii/cards.ts';
import { chooseAction, type AnyGameModule } from '../../../src/ai/index.ts';
import { ownerOf, type R3State } from '../../../src/games/richard-iii/state.ts';

t.test('estimates complement each other and follow the usurpation margin', async (t) => {
  for (const sc of richardIII.scenarios) {
    const s = richardIII.setup({ scenario: sc.id, seed: 'eval' });
    const y = evaluate(s, 'York'), l = evaluate(s, 'Lancaster');
    t.ok(y > 0 && y < 1, `${sc.id}: York ${y.toFixed(3)}`);
    t.ok(Math.abs(y + l - 1) < 1e-9, `${sc.id}: the two estimates sum to 1`);
    // Take a side's nobles off the map: its estimate falls.
    for (const side of ['York', 'Lancaster'] as const) {
      const weaker: R3State = structuredClone(s);
      let moved = 0;
      for (let b = 0; b < NUM_BLOCKS; b++) {
        if (BLOCKS[b]!.type === 'noble' && ownerOf(weaker, b) === side && AREA[weaker.loc[b]!]?.kind === 'land') { weaker.loc[b] = 'pool'; moved++; }
      }
      if (moved > 0) t.ok(evaluate(weaker, side) < evaluate(s, side), `${sc.id}: ${moved} ${side} nobles off the map, lower ${side} estimate`);
    }
  }
  const s = richardIII.setup({ scenario: richardIII.scenarios[0]!.id, seed: 'eval' });
  const over: R3State = { ...s, result: { winner: 'Lancaster', reason: 'test' } } as R3State;
  t.equal(evaluate(over, 'Lancaster'), 1);
  t.equal(evaluate(over, 'York'), 0);
  t.equal(richardIII.evaluate!(s, 'York'), evaluate(s, 'York'), 'exposed on the module');
});

t.test('a pending battle counts for the stronger side; a recruit being placed counts already', async (t) => {
  const s = richardIII.setup({ scenario: 'richard-iii', seed: 'eval' });
  const idx = (id: string): number => BLOCKS.findIndex((b) => b.id === id);
  // Gloucester stands in Middlesex. Bring Lancaster nobles into his area: with
  // many steps against him the battle is Lancaster's to win, with one weak
  // block it is York's.
  const strong: R3State = structuredClone(s);
  for (const id of ['richmond', 'oxford', 'pembroke']) strong.loc[idx(id)] = 'middlesex';
  const weak: R3State = structuredClone(s);
  weak.loc[idx('oxford')] = 'middlesex';
  weak.steps[idx('oxford')] = 1;
  const landed: R3State = structuredClone(s);
  for (const id of ['richmond', 'oxford', 'pembroke']) landed.loc[idx(id)] = 'kent';
  t.ok(evaluate(strong, 'Lancaster') > evaluate(landed, 'Lancaster'), 'attacking the King with a strong stack beats standing next to him');
  t.ok(evaluate(weak, 'Lancaster') < evaluate(strong, 'Lancaster'), 'a weak attack is worth less');
  const recruiting: R3State = structuredClone(s);
  recruiting.flow = [...recruiting.flow, { s: 'recruit_where', side: 'Lancaster', block: 'shrewsbury-l' } as never];
  t.ok(evaluate(recruiting, 'Lancaster') > evaluate(s, 'Lancaster'), 'a noble being recruited counts before it is placed');
  const levy: R3State = structuredClone(s);
  levy.flow = [...levy.flow, { s: 'recruit_where', side: 'Lancaster', block: 'bristol-levy' } as never];
  t.equal(evaluate(levy, 'Lancaster'), evaluate(s, 'Lancaster'), 'a levy does not count for usurpation');
});

t.test('the same lead is worth more as the game nears its end', async (t) => {
  // Richard III 1483: York leads the count 8 to 2; the margin can still move in
  // seven turns, hardly in the last one.
  const s = richardIII.setup({ scenario: 'richard-iii', seed: 'eval' });
  const at = (turn: number): R3State => ({ ...structuredClone(s), turn });
  const early = evaluate(at(1), 'York'), late = evaluate(at(7), 'York');
  t.ok(early > 0.5 && late > early, `York ${early.toFixed(3)} in turn 1, ${late.toFixed(3)} in turn 7`);
  t.ok(Math.abs(evaluate(at(7), 'Lancaster') + late - 1) < 1e-9, 'still complementary');
});

t.test('far behind in the last turn, an even battle against the last heir is still worth fighting', async (t) => {
  // Lancaster 2 against 8 in turn 7: only Gloucester's death can still win. With
  // the battle's outcomes averaged (not the logistic of their mean) the attack
  // is worth over 3 times standing apart; the logistic of the mean margin (the
  // evaluation before) made it 1.7 times.
  const s = richardIII.setup({ scenario: 'richard-iii', seed: 'eval' });
  const idx = (id: string): number => BLOCKS.findIndex((b) => b.id === id);
  const glo = idx('gloucester');
  const place = (area: string): R3State => {
    const x: R3State = { ...structuredClone(s), turn: 7 };
    x.loc[idx('oxford')] = area;
    x.steps[idx('oxford')] = x.steps[glo]!;
    return x;
  };
  const attack = evaluate(place(s.loc[glo]!), 'Lancaster'), apart = evaluate(place('kent'), 'Lancaster');
  t.ok(attack > 2.5 * apart, `attacking ${attack.toExponential(2)}, apart ${apart.toExponential(2)}`);
});

t.test('London counts only when held by a block that stays for the usurpation', async (t) => {
  // Levies leave the map before the count (8.1, then 8.2): London held by a
  // levy alone is worth no more than the same levy elsewhere; held by a noble,
  // it is a point. (Elsewhere is Oxford: like Middlesex, next to Rivers in
  // Leicester and to no York noble, so the threat term sees the same levy.)
  const s = richardIII.setup({ scenario: 'richard-iii', seed: 'eval' });
  const idx = (id: string): number => BLOCKS.findIndex((b) => b.id === id);
  const at = (who: string, area: string): R3State => {
    const x: R3State = structuredClone(s);
    for (let b = 0; b < NUM_BLOCKS; b++) if (x.loc[b] === 'middlesex') x.loc[b] = 'kent';
    x.loc[idx(who)] = area;
    x.steps[idx(who)] = 2;
    x.down[idx(who)] = false;
    return x;
  };
  t.equal(evaluate(at('london-levy', 'middlesex'), 'York'), evaluate(at('london-levy', 'oxford'), 'York'), 'a levy in London: no point');
  t.ok(evaluate(at('norfolk', 'middlesex'), 'York') > evaluate(at('norfolk', 'essex'), 'York'), 'a noble in London: a point');
});

t.test('in the last turn a tie is the King\'s, however many levies the Pretender has', async (t) => {
  // Richard III 1483, turn 7: Lancaster lands its exiles and recruits
  // Shrewsbury (6), York loses Norfolk and Suffolk to its pool (6): a tie, which
  // York wins. Lancaster's four city levies and the French mercenary (19 steps)
  // disband before the count (8.1). Counted at full weight to the end, those
  // steps made Lancaster the favourite, and it stopped moving.
  const s = richardIII.setup({ scenario: 'richard-iii', seed: 'eval' });
  const idx = (id: string): number => BLOCKS.findIndex((b) => b.id === id);
  // The hands as dealt would count their AP still to come (equal hands: none).
  const x: R3State = { ...structuredClone(s), turn: 7, hands: { York: [], Lancaster: [] } };
  for (const id of ['richmond', 'oxford', 'pembroke']) x.loc[idx(id)] = 'kent';
  x.loc[idx('shrewsbury-l')] = 'south-yorks';
  for (const id of ['norfolk', 'suffolk']) x.loc[idx(id)] = 'pool';
  for (const [id, area] of [['bristol-levy', 'gloucester'], ['coventry-levy', 'warwick'], ['york-levy', 'north-yorks'], ['newcastle-levy', 'east-yorks'], ['french-mercenary', 'dorset']] as const) x.loc[idx(id)] = area;
  const late = evaluate(x, 'Lancaster');
  t.ok(late < 0.5, `Lancaster tied with more steps in turn 7: ${late.toFixed(3)}`);
  t.ok(evaluate({ ...x, turn: 3 }, 'Lancaster') > late, 'the steps still count with turns to play');
});

t.test('with turns to play, a strong stack next to an enemy heir is worth more than the same stack far away', async (t) => {
  // Kingmaker 1470, Lancaster 1 against 11: it must kill York nobles or both
  // York heirs. Warwick, Oxford and Clarence (10 steps) beside Gloucester (3
  // steps, alone in South Yorks) threaten him next turn; in Cornwall they
  // threaten nobody. The count, the heirs and the strength on land are the
  // same in both (without the threat term the two estimates are equal). In the
  // last turn a threat is no longer worth anything: only battles already
  // started are fought before the count.
  const s = richardIII.setup({ scenario: 'kingmaker', seed: 'eval' });
  const idx = (id: string): number => BLOCKS.findIndex((b) => b.id === id);
  const at = (area: string, turn: number): R3State => {
    const x: R3State = { ...structuredClone(s), turn };
    for (const id of ['warwick-l', 'oxford', 'clarence-l']) x.loc[idx(id)] = area;
    return x;
  };
  for (const turn of [1, 4, 6]) {
    const near = evaluate(at('east-yorks', turn), 'Lancaster'), far = evaluate(at('cornwall', turn), 'Lancaster');
    t.ok(near > far + 0.002, `turn ${turn}: beside Gloucester ${near.toFixed(4)}, in Cornwall ${far.toFixed(4)}`);
    t.ok(Math.abs(evaluate(at('east-yorks', turn), 'York') + near - 1) < 1e-9, `turn ${turn}: still complementary`);
  }
  t.equal(evaluate(at('east-yorks', 7), 'Lancaster'), evaluate(at('cornwall', 7), 'Lancaster'), 'turn 7: no threat term');
});

t.test('a noble in exile is worth keeping: sparing a defected Clarence beats executing him', async (t) => {
  // Kingmaker 1470: Clarence (defected to Lancaster) waits in France, where he
  // can land for a point next turn. Executing him (9.1) throws that away; the
  // estimate without a value for exiles was the same either way, and the
  // search executed him in France in 3 of 13 traced games (one lost 7-7 for it). Landing
  // him is still worth more than keeping him in France.
  const s = richardIII.setup({ scenario: 'kingmaker', seed: 'eval' });
  const idx = (id: string): number => BLOCKS.findIndex((b) => b.id === id);
  for (const turn of [1, 4]) {
    const spared: R3State = { ...structuredClone(s), turn };
    const executed: R3State = structuredClone(spared);
    executed.loc[idx('clarence-l')] = 'dead';
    executed.loc[idx('clarence-y')] = 'dead';
    const landed: R3State = structuredClone(spared);
    landed.loc[idx('clarence-l')] = 'cornwall';
    const [sp, ex, la] = [spared, executed, landed].map((x) => evaluate(x, 'Lancaster'));
    t.ok(sp > ex + 0.001, `turn ${turn}: spared ${sp!.toFixed(4)}, executed ${ex!.toFixed(4)}`);
    t.ok(la > sp!, `turn ${turn}: landed ${la!.toFixed(4)}`);
    t.ok(Math.abs(evaluate(executed, 'York') + ex! - 1) < 1e-9, 'still complementary');
  }
});

t.test('a tie is the King\'s, however many heirs the Pretender has left', async (t) => {
  // Kingmaker 1470: Edward IV (March) is dead, Lancaster has landed its exiles
  // and York has lost three nobles: 6 to 6, a tie, which York wins. Lancaster
  // has four living heirs (Prince Edward, Exeter, Henry VI, the minor Richmond)
  // against York's one (Gloucester). Counted at 0.5 each as a standing margin,
  // those heirs made the tie a lead (0.53 in turn 4, 0.56 in turn 6, 0.82 in
  // turn 7), and the Pretender left its AP unspent (traced games kingmaker
  // 312, 407, 411 on main, lost 8-8, 8-8, 9-9). No heir is at stake here (no
  // battle pending or threatened next to Gloucester): the tie is a loss.
  const s = richardIII.setup({ scenario: 'kingmaker', seed: 'eval' });
  const idx = (id: string): number => BLOCKS.findIndex((b) => b.id === id);
  // The hands as dealt would count their AP still to come (equal hands: none).
  const x: R3State = { ...structuredClone(s), hands: { York: [], Lancaster: [] } };
  for (const [id, area] of [['prince-edward', 'cornwall'], ['exeter-l', 'cornwall'], ['warwick-l', 'kent'], ['clarence-l', 'kent'], ['oxford', 'dorset']] as const) x.loc[idx(id)] = area;
  x.loc[idx('march')] = 'dead';
  for (const id of ['norfolk', 'suffolk', 'arundel']) x.loc[idx(id)] = 'pool';
  for (const turn of [4, 6, 7]) {
    const e = evaluate({ ...x, turn }, 'Lancaster');
    t.ok(e < 0.5, `Lancaster tied with more heirs in turn ${turn}: ${e.toFixed(3)}`);
  }
});

t.test('AP still to come count: a weak dealt hand is worth redealing, and playing a card changes nothing', async (t) => {
  // Kingmaker, bench:ai game 562's deal: Lancaster holds 3, 1, 3, 0, 2, 2, 2
  // (13 AP, so it may demand a redeal, 5.1). Keeping it and demanding a redeal
  // leave the board as it was; only the hand's AP tells them apart.
  const s = richardIII.setup({ scenario: 'kingmaker', seed: 'bench-ai:562:kingmaker' });
  t.equal(handAp(s.hands.Lancaster), 13, 'the weak hand of game 562');
  t.ok(richardIII.legalActions(s, 'Lancaster').some((a) => (a as { type: string }).type === 'demand_redeal'), 'a redeal may be demanded');
  const better: R3State = structuredClone(s);
  const strong = CARDS.filter((c) => c.kind === 'action' && c.ap === 4).map((c) => c.id).filter((id) => !s.hands.York.includes(id)).slice(0, 3);
  better.hands.Lancaster = [...strong, ...better.hands.Lancaster.filter((c) => !strong.includes(c))].slice(0, HAND_SIZE);
  t.ok(handAp(better.hands.Lancaster) > 13, `a stronger hand: ${handAp(better.hands.Lancaster)} AP`);
  t.ok(evaluate(better, 'Lancaster') > evaluate(s, 'Lancaster'), 'a stronger hand is worth more');
  t.ok(Math.abs(evaluate(better, 'York') + evaluate(better, 'Lancaster') - 1) < 1e-9, 'still complementary');
  // Keep both hands; then at the card choice every card scores the same.
  let turn1 = s;
  for (const side of ['York', 'Lancaster']) {
    const keep = richardIII.legalActions(turn1, side).find((a) => (a as { type: string }).type === 'keep_hand');
    if (keep) turn1 = richardIII.apply(turn1, side, keep) as R3State;
  }
  const plays = richardIII.legalActions(turn1, 'Lancaster').filter((a) => (a as { type: string }).type === 'play');
  t.equal(plays.length, HAND_SIZE, 'turn 1: seven cards to choose from');
  const scores = plays.map((a) => evaluate(richardIII.apply(turn1, 'Lancaster', a) as R3State, 'Lancaster'));
  t.ok(Math.max(...scores) - Math.min(...scores) < 1e-12, 'the card played face down changes nothing');
  // Once the Action Phase begins its card's AP are gone, whatever is done with them.
  const lp = richardIII.apply(turn1, 'Lancaster', plays[0]!) as R3State;
  const yp = richardIII.legalActions(lp, 'York').find((a) => (a as { type: string }).type === 'play')!;
  const revealed = richardIII.apply(lp, 'York', yp) as R3State;
  t.ok(revealed.p1 !== null, 'cards revealed, Player 1 acting');
  const p1 = revealed.p1 as 'York' | 'Lancaster';
  const p2 = p1 === 'York' ? 'Lancaster' : 'York';
  const end = richardIII.legalActions(revealed, p1).find((a) => (a as { type: string }).type === 'end');
  if (end) {
    const after = richardIII.apply(revealed, p1, end) as R3State;
    const moved = structuredClone(after);
    moved.played[p2] = null; // as if its AP were not there: the estimate already left them out
    t.equal(evaluate(after, p1), evaluate(moved, p1), 'Player 2 acting: its card no longer counts');
  }
});

t.test('the normal search demands a redeal of a 13-AP hand', async (t) => {
  const s = richardIII.setup({ scenario: 'kingmaker', seed: 'bench-ai:562:kingmaker' });
  const M = richardIII as unknown as AnyGameModule;
  for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
    const d = chooseAction(M, { gameType: M.id, role: 'Lancaster', view: M.view(s, 'Lancaster'), legalActions: M.legalActions(s, 'Lancaster'), level: 'normal', seed });
    t.same(d.action, { type: 'demand_redeal' }, `seed ${seed}`);
  }
});
