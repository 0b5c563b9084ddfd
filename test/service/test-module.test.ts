// The service's own checks, on a test-only game module registered in this
// file (real Postgres, memory bus): the write path's legal-action check does
// not rely on the engine repeating it (this module's apply() checks nothing
// and counts its calls), and options of every declared type are checked
// against the scenario's declaration before anything is stored.
import t from 'tap';
import { createMemoryBus, type Json } from '../../src/bus/index.ts';
import type { GameModule } from '../../src/engine/types.ts';
import { tallyModule, type TallyState } from '../helpers/games/tally.ts';
import { createGameService, type Caller, type GameServiceApi } from '../../src/service/api.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const bus = createMemoryBus();
t.teardown(() => bus.close());
const tally = tallyModule();
const svc: GameServiceApi = createGameService({ store, bus, games: { tally: tally as unknown as GameModule } });

async function player(name: string): Promise<Caller> {
  return svc.authenticate((await svc.createPlayer(null, { name })).key!.key);
}
const gameCount = () => store.prisma.game.count();
const fail = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);

const alice = await player('alice');

t.test('the write path refuses an action outside the legal list before the module sees it', async (t) => {
  const g = await svc.createGame(alice, { gameType: 'tally', scenario: 'plain', roles: ['A', 'B'] });
  t.equal(g.status, 'active');
  const calls = tally.applyCalls;
  const illegal: Json[] = [{ type: 'add', n: 3 }, { type: 'add' }, { type: 'add', n: 1, extra: true }, { type: 'cheat' }];
  for (const action of illegal) {
    const err = await fail(svc.submitAction(alice, g.id, { role: 'A', action }));
    t.match(err, { code: 'illegal_action', extensions: { legalActions: [{ type: 'add', n: 1 }, { type: 'add', n: 2 }], currentVersion: g.version } }, JSON.stringify(action));
  }
  t.equal(tally.applyCalls, calls, 'apply() was never called for them');
  const after = await svc.getGame(alice, g.id);
  t.equal(after.version, g.version, 'nothing committed');
  t.same((await svc.getView(alice, g.id, { role: 'A' })).view, { options: { fast: false, rounds: 5, colour: 'red' }, moves: [] });
  t.same(await svc.listEventsSince(g.id, g.version), [], 'no event');

  // The legal action goes through (the check is not simply refusing everything).
  const ok = await svc.submitAction(alice, g.id, { role: 'A', action: { n: 2, type: 'add' } });
  t.equal(ok.version, g.version + 1);
  t.same((ok.view as unknown as TallyState).moves, [2]);
  t.equal(tally.applyCalls, calls + 1);
});

t.test('the published declaration is what createGame enforces, for every option type', async (t) => {
  const [plain, bare] = svc.listGameTypes().find((x) => x.id === 'tally')!.scenarios;
  t.same(plain!.options.map((o) => o.name), ['fast', 'rounds', 'colour']);
  t.same(bare!.options, []);

  const before = await gameCount();
  const refused: [string, Record<string, unknown>, string, string][] = [
    ['plain', { bogus: true }, 'bogus', 'unknown'],
    ['plain', { rounds: 3, bogus: true }, 'bogus', 'unknown'],
    ['bare', { fast: true }, 'fast', 'unknown'],
    ['plain', { fast: 'true' }, 'fast', 'type'],
    ['plain', { fast: 1 }, 'fast', 'type'],
    ['plain', { fast: null }, 'fast', 'type'],
    ['plain', { rounds: 0 }, 'rounds', 'range'],
    ['plain', { rounds: 10 }, 'rounds', 'range'],
    ['plain', { rounds: 2.5 }, 'rounds', 'type'],
    ['plain', { rounds: '3' }, 'rounds', 'type'],
    ['plain', { colour: 'green' }, 'colour', 'range'],
    ['plain', { colour: ['red'] }, 'colour', 'type'],
  ];
  for (const [scenario, options, option, problem] of refused) {
    const err = await fail(svc.createGame(alice, { gameType: 'tally', scenario, options: options as never, roles: ['A', 'B'] }));
    t.match(err, { code: 'invalid_options', detail: new RegExp(`"${option}"`), extensions: { option, problem } }, JSON.stringify(options));
  }
  t.equal(await gameCount(), before, 'nothing stored');

  // Every value the declaration allows is accepted, stored with the defaults, and reaches setup().
  const accepted: Record<string, Json>[] = [{}, { fast: true }, { rounds: 1 }, { rounds: 9 }, { colour: 'blue', rounds: 4, fast: false }];
  for (const options of accepted) {
    const g = await svc.createGame(alice, { gameType: 'tally', scenario: 'plain', options, roles: ['A', 'B'] });
    const full = { fast: false, rounds: 5, colour: 'red', ...options };
    t.same(g.options, full, `${JSON.stringify(options)}: stored with the defaults filled in`);
    t.same(((await svc.getView(alice, g.id, { role: 'A' })).view as unknown as TallyState).options, full, 'setup() got them');
  }
  t.same((await svc.createGame(alice, { gameType: 'tally', scenario: 'bare', roles: ['A'] })).options, {});
});

t.test('a game type is an installed module, not a name every object has', async (t) => {
  for (const gameType of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    t.match(await fail(svc.createGame(alice, { gameType, scenario: 'plain' })), { code: 'invalid_request', detail: /gameType must be one of tally/ }, gameType);
    const record = { format: 'herald-game-record', formatVersion: 1, gameType, scenario: 'plain', options: {}, seed: 's', status: 'abandoned', result: null, version: 1, actions: [] };
    t.match(await fail(svc.importGame(alice, { record: record as never })), { code: 'invalid_record', extensions: { field: 'gameType' } }, gameType);
  }
});
