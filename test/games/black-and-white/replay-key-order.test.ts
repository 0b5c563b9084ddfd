// An action read back from the store has its keys in Postgres jsonb's order,
// not the legal list's: replaying a game's log (board pictures, records) must
// accept it as the same action.
import t from 'tap';
import { DATA, game } from './fixture-helpers.ts';

t.test('an action matches its legal twin whatever the order of its keys', async (t) => {
  const s = game.setup({ scenario: DATA.scenarios[0]!.id, seed: 'key-order', options: {} });
  const role = game.activeRoles(s)[0]!;
  const legal = game.legalActions(s, role).find((a) => Object.keys(a).length > 1)!;
  const reordered = Object.fromEntries(Object.entries(legal).reverse()) as typeof legal;
  t.not(JSON.stringify(reordered), JSON.stringify(legal), 'the keys are in another order');
  t.same(game.apply(s, role, reordered), game.apply(s, role, legal), 'the same state follows');
  t.throws(() => game.apply(s, role, { ...reordered, extra: 1 } as unknown as typeof legal), 'an extra key is still refused');
});
