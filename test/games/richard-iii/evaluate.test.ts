// GameModule.evaluate for Richard III (src/games/richard-iii/evaluate.ts): a
// win estimate in [0, 1] that the two sides' values complement, that favours
// the side with more nobles on the map, and that is exact once the game is over.
import t from 'tap';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { evaluate } from '../../../src/games/richard-iii/evaluate.ts';
import { AREA, BLOCKS, NUM_BLOCKS } from '../../../src/games/richard-iii/data.ts';
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
