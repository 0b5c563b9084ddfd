// Importing game records: every field of a record is tampered with in turn.
// Each change is either refused (422 invalid_record naming the field, nothing
// stored) or, where the field is legitimately free, accepted — and then the
// imported game says what the replay says.
import t, { type Test } from 'tap';
import { createMemoryBus, type Json } from '../../src/bus/index.ts';
import { richardIII } from '../../src/games/richard-iii/index.ts';
import { playout } from '../games/richard-iii/playout-helpers.ts';
import { createGameService, type Caller, type GameRecord } from '../../src/service/api.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const bus = createMemoryBus();
t.teardown(() => bus.close());
const svc = createGameService({ store, bus });
const caller: Caller = await svc.authenticate((await svc.createPlayer(null, { name: 'archivist' })).key!.key);

// A game the rules ended: Wars of the Roses cut to one campaign (short to replay), played by the engine's random player.
const seed = 'import-record';
const options = { endCampaign: 1 };
const played = playout({ scenario: 'wars-of-the-roses', seed, start: richardIII.setup({ scenario: 'wars-of-the-roses', seed, options }), playSeed: 'import-play', purityEvery: 0, viewEvery: 0 });
if (!played.finished) throw new Error(`the playout did not finish: ${played.failure?.message}`);
const ended: GameRecord = {
  format: 'herald-game-record',
  formatVersion: 1,
  gameType: 'richard-iii',
  scenario: 'wars-of-the-roses',
  options,
  seed,
  status: 'finished',
  result: { winner: played.result!.winner, reason: played.result!.reason },
  version: played.trail.length + 3, // two joins, the start, the actions
  actions: played.trail.map((s) => ({ role: s.role, action: s.action as unknown as Json })),
};
const loser = ended.result!.winner === 'York' ? 'Lancaster' : 'York';

// A resignation, recorded and exported by the service itself.
const resigner = await svc.createGame(caller, { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'resign-record', roles: ['York', 'Lancaster'] });
for (let i = 0; i < 3; i++) {
  const g = await svc.getGame(caller, resigner.id);
  const role = g.activeRoles[0]!;
  const legal = await svc.getLegalActions(caller, resigner.id, { role });
  await svc.submitAction(caller, resigner.id, { role, action: legal.actions[0]! });
}
await svc.resign(caller, resigner.id, { role: 'York' });
const resigned = await svc.exportGame(caller, resigner.id);

// An abandoned game.
const aborted = await svc.createGame(caller, { gameType: 'richard-iii', scenario: 'kingmaker', roles: ['York', 'Lancaster'] });
await svc.abort(caller, aborted.id);
const abandoned = await svc.exportGame(caller, aborted.id);

type Tamper = (r: Record<string, any>) => void;
const counts = async () => [await store.prisma.game.count(), await store.prisma.action.count()];

async function refused(t: Test, base: GameRecord, what: string, tamper: Tamper, field: string | RegExp, extra: Record<string, unknown> = {}): Promise<void> {
  const r = structuredClone(base) as unknown as Record<string, any>;
  tamper(r);
  const before = await counts();
  const err = await svc.importGame(caller, { record: r as GameRecord }).then(() => null, (e: unknown) => e);
  t.match(err, { code: 'invalid_record', extensions: { field, ...extra } }, what);
  t.same(await counts(), before, `${what}: nothing stored`);
}

async function accepted(t: Test, base: GameRecord, what: string, tamper: Tamper): Promise<void> {
  const r = structuredClone(base) as unknown as Record<string, any>;
  tamper(r);
  const g = await svc.importGame(caller, { record: r as GameRecord });
  t.match(g, { status: r.status, result: r.result, scenario: r.scenario }, what);
}

t.test('the untouched records import', async (t) => {
  for (const [name, r] of [['ended', ended], ['resigned', resigned], ['abandoned', abandoned]] as const) {
    const g = await svc.importGame(caller, { record: r });
    t.match(g, { status: r.status, result: r.result }, name);
    t.same(g.options, { endCampaign: r === ended ? 1 : r.scenario === 'kingmaker' ? 2 : 3 }, `${name}: options with defaults`);
  }
  t.match(resigned, { status: 'finished', result: { winner: 'Lancaster', reason: 'York resigned' } });
  t.match(abandoned, { status: 'abandoned', result: null, actions: [] });
});

t.test('the frame: format, formatVersion, gameType, scenario, unknown fields', async (t) => {
  await refused(t, ended, 'another format', (r) => (r.format = 'pgn'), 'format');
  await refused(t, ended, 'no format', (r) => delete r.format, 'format');
  await refused(t, ended, 'format version 2', (r) => (r.formatVersion = 2), 'formatVersion');
  await refused(t, ended, 'format version "1"', (r) => (r.formatVersion = '1'), 'formatVersion');
  await refused(t, ended, 'unknown game', (r) => (r.gameType = 'chess'), 'gameType');
  await refused(t, ended, 'no game type', (r) => delete r.gameType, 'gameType');
  await refused(t, ended, 'unknown scenario', (r) => (r.scenario = 'bosworth'), 'scenario');
  await refused(t, ended, 'no scenario', (r) => delete r.scenario, 'scenario');
  await refused(t, ended, 'another scenario (with its options): the actions do not replay', (r) => ((r.scenario = 'richard-iii'), (r.options = {})), /^actions\[\d+\]/);
  await refused(t, ended, 'a field the format does not have', (r) => (r.title = 'My best game'), 'title');
  await refused(t, ended, 'a second result', (r) => (r.winner = 'York'), 'winner');
});

t.test('options and seed', async (t) => {
  await refused(t, ended, 'unknown option', (r) => (r.options.bogus = true), 'options', { option: 'bogus', problem: 'unknown' });
  await refused(t, ended, 'out of range', (r) => (r.options.endCampaign = 99), 'options', { option: 'endCampaign', problem: 'range' });
  await refused(t, ended, 'wrong type', (r) => (r.options.endCampaign = '1'), 'options', { option: 'endCampaign', problem: 'type' });
  await refused(t, ended, 'options not an object', (r) => (r.options = [1]), 'options');
  // The default (3 campaigns): the replay is not over after the same actions, and the claimed result is no resignation.
  await refused(t, ended, 'another valid value changes the game', (r) => (r.options = {}), 'result.reason');
  await refused(t, ended, 'no seed', (r) => delete r.seed, 'seed');
  await refused(t, ended, 'empty seed', (r) => (r.seed = ''), 'seed');
  await refused(t, ended, 'seed not a string', (r) => (r.seed = 42), 'seed');
  await refused(t, ended, 'seed too long', (r) => (r.seed = 'x'.repeat(201)), 'seed');
  await refused(t, ended, 'another seed deals other cards', (r) => (r.seed = 'not-the-seed'), /^actions\[\d+\]/);
});

t.test('status, result, version', async (t) => {
  await refused(t, ended, 'status active', (r) => (r.status = 'active'), 'status');
  await refused(t, ended, 'status abandoned with a result', (r) => (r.status = 'abandoned'), 'result');
  await refused(t, ended, 'status abandoned, no result, but the replay ends the game', (r) => ((r.status = 'abandoned'), (r.result = null)), 'status');
  await refused(t, ended, 'no status', (r) => delete r.status, 'status');
  await refused(t, ended, 'another winner', (r) => (r.result.winner = loser), 'result.winner', { replayed: played.result });
  await refused(t, ended, 'no winner', (r) => (r.result.winner = null), 'result.winner');
  await refused(t, ended, 'winner not a role name', (r) => (r.result.winner = 7), 'result.winner');
  await refused(t, ended, 'another reason', (r) => (r.result.reason = 'York is the better player'), 'result.reason');
  await refused(t, ended, 'a resignation where the rules ended the game', (r) => (r.result = { winner: r.result.winner, reason: `${loser} resigned` }), 'result.reason');
  await refused(t, ended, 'no result', (r) => (r.result = null), 'result');
  await refused(t, ended, 'result not an object', (r) => (r.result = 'York'), 'result');
  await refused(t, ended, 'an extra result field', (r) => (r.result.score = 3), 'result.score');
  await refused(t, ended, 'version below the changes shown', (r) => (r.version = r.actions.length), 'version');
  await refused(t, ended, 'negative version', (r) => (r.version = -1), 'version');
  await refused(t, ended, 'version not an integer', (r) => (r.version = 12.5), 'version');
  await refused(t, ended, 'no version', (r) => delete r.version, 'version');
  // Free within bounds: seat changes (joins, leaves) counted too and are not in a record.
  await accepted(t, ended, 'a version with more seat changes', (r) => (r.version += 10));
  await accepted(t, ended, 'the least version: start and actions', (r) => (r.version = r.actions.length + 1));
});

t.test('actions and the seats named in them', async (t) => {
  const mid = Math.floor(ended.actions.length / 2);
  await refused(t, ended, 'no actions field', (r) => delete r.actions, 'actions');
  await refused(t, ended, 'actions not an array', (r) => (r.actions = {}), 'actions');
  await refused(t, ended, 'an action changed', (r) => (r.actions[mid].action = { type: 'no-such-action' }), `actions[${mid}].action`);
  await refused(t, ended, 'an action dropped', (r) => r.actions.splice(mid, 1), /^actions\[\d+\]/);
  await refused(t, ended, 'the last action dropped: not over, and no resignation', (r) => r.actions.pop(), 'result.reason');
  await refused(t, ended, 'an action after the end', (r) => r.actions.push(r.actions[r.actions.length - 1]), `actions[${ended.actions.length}].role`);
  await refused(t, ended, 'an unknown seat', (r) => (r.actions[mid].role = 'Tudor'), `actions[${mid}].role`);
  await refused(t, ended, "the other seat's turn", (r) => (r.actions[0].role = r.actions[0].role === 'York' ? 'Lancaster' : 'York'), /^actions\[[01]\]\./);
  await refused(t, ended, 'a step without its action', (r) => delete r.actions[mid].action, `actions[${mid}]`);
  await refused(t, ended, 'a step with more fields', (r) => (r.actions[mid].player = 'someone'), `actions[${mid}].player`);
  await refused(t, ended, 'a step that is not an object', (r) => (r.actions[mid] = 'pass'), `actions[${mid}]`);
});

t.test('resignations: the claim must be one the service records', async (t) => {
  await refused(t, resigned, 'the resigner wins', (r) => (r.result.winner = 'York'), 'result.winner');
  await refused(t, resigned, 'nobody wins', (r) => (r.result.winner = null), 'result.winner');
  await refused(t, resigned, 'an unknown seat resigns', (r) => (r.result.reason = 'Tudor resigned'), 'result.reason');
  await refused(t, resigned, 'a seat name in another case', (r) => (r.result.reason = 'york resigned'), 'result.reason');
  await refused(t, resigned, 'a malformed claim', (r) => (r.result.reason = 'York resigned.'), 'result.reason');
  await refused(t, resigned, 'nobody resigns', (r) => (r.result.reason = 'resigned'), 'result.reason');
  await refused(t, resigned, 'no reason', (r) => delete r.result.reason, 'result.reason');
  await refused(t, resigned, 'status abandoned', (r) => (r.status = 'abandoned'), 'result');
  await refused(t, resigned, 'an illegal action before the resignation', (r) => (r.actions[1].action = { type: 'pass' }), 'actions[1].action');
  // Either seat may resign at any time in an active game: the other resignation is as valid.
  await accepted(t, resigned, 'Lancaster resigned instead', (r) => (r.result = { winner: 'York', reason: 'Lancaster resigned' }));
  await accepted(t, resigned, 'fewer actions before the resignation', (r) => r.actions.pop());
});

t.test('abandoned records', async (t) => {
  await refused(t, abandoned, 'a result', (r) => (r.result = { winner: 'York', reason: 'Lancaster resigned' }), 'result');
  await refused(t, abandoned, 'no result field', (r) => delete r.result, 'result');
  // Aborted after the first action: by its creator when every seat was Herald's AI (lifecycle.ts), or by its league.
  await accepted(t, ended, 'actions that replay and leave the game running', (r) => ((r.status = 'abandoned'), (r.result = null), (r.actions = r.actions.slice(0, 5))));
  await refused(t, ended, 'actions, but a version below the changes they show', (r) => ((r.status = 'abandoned'), (r.result = null), (r.actions = r.actions.slice(0, 5)), (r.version = 1)), 'version');
  await refused(t, ended, 'an action that does not replay', (r) => ((r.status = 'abandoned'), (r.result = null), (r.actions = r.actions.slice(0, 5)), (r.actions[3].action = { type: 'no-such-action' })), 'actions[3].action');
  await refused(t, abandoned, 'status finished without a result', (r) => (r.status = 'finished'), 'result');
  await refused(t, abandoned, 'options out of range for the scenario', (r) => (r.options = { endCampaign: 1 }), 'options', { option: 'endCampaign' });
  await accepted(t, abandoned, 'another seed', (r) => (r.seed = 'any'));
});

t.test('timeouts: only a record with a clock ends on time', async (t) => {
  const clock = { kind: 'fischer', initialMs: 600_000, incrementMs: 5_000 };
  const base = structuredClone(resigned) as unknown as Record<string, any>;
  // A seat to act at the start (only a seat to act can run out of time).
  const g = await svc.createGame(caller, { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'resign-record', roles: ['York', 'Lancaster'] });
  const first = (await svc.getGame(caller, g.id)).activeRoles;
  // No actions: the seats to act at the start are the ones that may run out.
  const onTime = (r: Record<string, any>, loserRole: string) => {
    r.actions = [];
    r.version = 2;
    r.result = { winner: loserRole === 'York' ? 'Lancaster' : 'York', reason: 'timeout' };
  };
  const flagged = first[0]!;
  await refused(t, base as unknown as GameRecord, 'a timeout without a clock', (r) => onTime(r, flagged), 'result.reason');
  await refused(t, base as unknown as GameRecord, 'a timeout, timeControl null', (r) => ((r.timeControl = null), onTime(r, flagged)), 'result.reason');
  await refused(t, base as unknown as GameRecord, 'a timeout, timeControl not one', (r) => ((r.timeControl = { kind: 'sundial' }), onTime(r, flagged)), 'timeControl');
  await refused(t, abandoned, 'abandoned on time without a clock', (r) => (r.result = { winner: null, reason: 'timeout' }), 'result.reason');
  await accepted(t, base as unknown as GameRecord, 'a timeout with a clock', (r) => ((r.timeControl = clock), onTime(r, flagged)));
  await accepted(t, abandoned, 'abandoned on time with a clock', (r) => ((r.timeControl = clock), (r.result = { winner: null, reason: 'timeout' })));
  // The clock is kept: an imported game exports it again, and that record imports.
  const kept = await svc.importGame(caller, { record: { ...(structuredClone(base) as any), timeControl: clock, actions: [], version: 2, result: { winner: flagged === 'York' ? 'Lancaster' : 'York', reason: 'timeout' } } });
  const again = await svc.exportGame(caller, kept.id);
  t.same(again.timeControl, clock, 'exported with its clock');
  t.match(await svc.importGame(caller, { record: again }), { status: 'finished', result: { reason: 'timeout' } }, 're-imported');
  t.equal((await svc.exportGame(caller, resigner.id)).timeControl, null, 'a game without a clock exports timeControl null');
});
