import t from 'tap';
import { chooseRandom } from '../../src/ai/index.ts';
import { richardIII } from '../../src/games/richard-iii/index.ts';

t.test('the random level picks a legal action, the same one for the same seed', async (t) => {
  const s = richardIII.setup({ scenario: richardIII.scenarios[0]!.id, seed: 'ai-random' });
  const role = richardIII.activeRoles(s)[0]!;
  const legalActions = richardIII.legalActions(s, role);
  const seen = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const d = chooseRandom({ legalActions, seed: `s${i}` });
    t.ok(legalActions.some((a) => JSON.stringify(a) === JSON.stringify(d.action)));
    t.same(chooseRandom({ legalActions, seed: `s${i}` }), d, 'deterministic');
    seen.add(JSON.stringify(d.action));
  }
  if (legalActions.length > 1) t.ok(seen.size > 1, 'different seeds reach different actions');
  t.throws(() => chooseRandom({ legalActions: [], seed: 'x' }), RangeError);
});
