// The leak scan's checks for a game type without rules of its own (the
// test-only Tally): the seed before the end and a `seed` key are found, the
// seed is allowed once the game is over, and clean payloads give nothing.
import t from 'tap';
import { LEAK_RULES, scanGame, type LogEntry } from '../../examples/leak-scan/index.ts';
import type { GameModule } from '../../src/engine/types.ts';
import { tallyModule } from '../helpers/games/tally.ts';

const tally = tallyModule() as unknown as GameModule;
const modules = { tally };
const entries: LogEntry[] = [
  { seq: 1, kind: 'start', role: null, action: null },
  ...[1, 2, 1, 2, 1].map((n, i) => ({ seq: i + 2, kind: 'action', role: i % 2 === 0 ? 'A' : 'B', action: { type: 'add', n } })),
];
const record = { gameType: 'tally', scenario: 'bare', seed: 'tally-secret-seed', entries };

t.test('generic checks for a game type without rules', async (t) => {
  t.notOk(Object.hasOwn(LEAK_RULES, 'tally'), 'no rules of its own');
  const clean = scanGame(record, [{ role: 'A', version: 2, source: 'view', payload: tally.view(tally.setup({ scenario: 'bare', seed: record.seed }), 'A') }], modules);
  t.same(clean, { findings: [], scanned: 1 });
  const found = scanGame(record, [
    { role: 'A', version: 3, source: 'planted:text', payload: { note: 'tally-secret-seed' } },
    { role: 'B', version: 3, source: 'planted:key', payload: { seed: 'x' } },
    { role: 'A', version: 6, source: 'over', payload: { seed: 'tally-secret-seed' } },
  ], modules).findings;
  t.same(found.map((f) => [f.source, f.problem]), [['planted:text', 'the seed'], ['planted:key', 'engine internals: key "seed"']], 'found before the end; the seed is public after it');
  t.throws(() => scanGame({ ...record, gameType: 'nope' }, [], modules), /unknown game type nope/);
});
