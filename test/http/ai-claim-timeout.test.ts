// A game against Herald's AI whose time control says onTimeout claim: when the human runs out
// of time with the AI to claim, the AI claims at once (the clock sweep ends the game, Lancaster
// the AI winning on time), as a player would. It never calls claim-timeout itself, so before,
// the game stayed active for ever with the human flagged (clock.claimable naming the AI), a
// probe found. When the AI runs out, the human claims as in any game. Time is the app's
// injected clock; the AI moves by the app's own job on its worker pool.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { HOUR } from '../../src/clocks/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup, type Client } from './rest-helpers.ts';

const clock = { now: Date.UTC(2027, 5, 1, 9) };
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, jobs: true, ai: { workers: 1, queue: 16, timeCapMs: 5_000 } }), {
  store, now: () => clock.now, clockSweepMs: 100, aiSweepMs: 200,
});
t.teardown(() => app.close());
const ada = await signup(app, 'Ada');

interface Game {
  id: string; status: string; version: number; activeRoles: string[];
  result: { winner: string | null; reason: string } | null;
  clock: { claimable: { flagged: string; claimants: string[] } | null; seats: { role: string; deadline: string | null }[] };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const get = async (c: Client, id: string) => (await c.req('GET', `/games/${id}`)).json() as Game;

/** York (Ada) against the AI's Lancaster, played until York alone must act after both seats have moved twice. */
async function opened(): Promise<Game> {
  const res = await ada.req('POST', '/games', {
    gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], ai: { Lancaster: 'random' },
    timeControl: { kind: 'fischer', initialMs: 2 * HOUR, incrementMs: 0, onTimeout: 'claim' },
  });
  t.equal(res.statusCode, 201);
  const id = (res.json() as Game).id;
  let yorkMoves = 0;
  for (let i = 0; i < 3_000; i++) {
    const g = await get(ada, id);
    if (g.status !== 'active') throw new Error(`the game ended in its opening: ${JSON.stringify(g.result)}`);
    const lancasterMoved = g.version >= 4;
    if (yorkMoves >= 2 && lancasterMoved && g.activeRoles.length === 1 && g.activeRoles[0] === 'York') return g;
    if (g.activeRoles.includes('York') && yorkMoves < 2) {
      const legal = (await ada.req('GET', `/games/${id}/actions`)).json() as { version: number; actions: unknown[] };
      if (legal.actions.length > 0) {
        clock.now += 60_000;
        const moved = await ada.req('POST', `/games/${id}/actions`, { action: legal.actions[0], expectedVersion: legal.version });
        if (moved.statusCode === 200) yorkMoves++;
        continue;
      }
    }
    await sleep(20);
  }
  throw new Error('York never came to act alone');
}

t.test('the human runs out against the AI under onTimeout claim: the AI claims, the game ends on time', async (t) => {
  const g = await opened();
  const deadline = g.clock.seats.find((s) => s.role === 'York')!.deadline!;
  t.ok(deadline, 'York\'s clock runs');
  clock.now = Date.parse(deadline) + 1;
  let after = g;
  for (let i = 0; i < 200 && after.status === 'active'; i++) {
    await sleep(50);
    after = await get(ada, g.id);
  }
  t.equal(after.status, 'finished', 'the game is over, not left active with York flagged');
  t.same(after.result, { winner: 'Lancaster', reason: 'timeout' });
  const log = (await ada.req('GET', `/games/${g.id}/log`)).json() as { entries: { kind: string; role: string | null }[] };
  t.match(log.entries.at(-1), { kind: 'timeout', role: 'York' }, 'the log says York ran out');
  const late = await ada.req('POST', `/games/${g.id}/resign`, {});
  t.equal(late.statusCode, 409, 'York can no longer act');
});
