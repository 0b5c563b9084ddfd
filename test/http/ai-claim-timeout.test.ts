// A game against Herald's AI whose time control says onTimeout claim: when the human runs out
// of time with the AI to claim, the AI claims at once (the clock sweep ends the game, Lancaster
// the AI winning on time), as a player would. It never calls claim-timeout itself, so before,
// the game stayed active for ever with the human flagged (clock.claimable naming the AI), a
// probe found. When the AI runs out, the human claims as in any game. Time is the app's
// injected clock; the AI moves by the app's own job on its worker pool.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { getGame, openUntilYorkActsAlone, sleep } from './ai-game-helpers.ts';
import { signup } from './rest-helpers.ts';

const clock = { now: Date.UTC(2027, 5, 1, 9) };
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, jobs: true, ai: { workers: 1, queue: 16, timeCapMs: 5_000 } }), {
  store, now: () => clock.now, clockSweepMs: 100, aiSweepMs: 200,
});
t.teardown(() => app.close());
const ada = await signup(app, 'Ada');

t.test('the human runs out against the AI under onTimeout claim: the AI claims, the game ends on time', async (t) => {
  const g = await openUntilYorkActsAlone(ada, clock);
  const deadline = g.clock.seats.find((s) => s.role === 'York')!.deadline!;
  t.ok(deadline, 'York\'s clock runs');
  clock.now = Date.parse(deadline) + 1;
  let after = g;
  for (let i = 0; i < 200 && after.status === 'active'; i++) {
    await sleep(50);
    after = await getGame(ada, g.id);
  }
  t.equal(after.status, 'finished', 'the game is over, not left active with York flagged');
  t.same(after.result, { winner: 'Lancaster', reason: 'timeout' });
  const log = (await ada.req('GET', `/games/${g.id}/log`)).json() as { entries: { kind: string; role: string | null }[] };
  t.match(log.entries.at(-1), { kind: 'timeout', role: 'York' }, 'the log says York ran out');
  const late = await ada.req('POST', `/games/${g.id}/resign`, {});
  t.equal(late.statusCode, 409, 'York can no longer act');
});
