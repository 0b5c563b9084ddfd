// Reminders on the embedded database (PGlite): the claim (a conditional array update) and the
// sweep's indexed remind_at query run there as on a Postgres server.
import t from 'tap';
import path from 'node:path';
import { buildApp } from '../../src/http/app.ts';
import { DAY } from '../../src/clocks/index.ts';
import { isReminderEvent, playerChannel, type GameService, type ReminderEvent } from '../../src/service/api.ts';
import { tempDir, testConfig } from '../helpers/services.ts';
import { signup } from '../http/rest-helpers.ts';

t.test('embedded mode: a reminder goes out once', async (t) => {
  const dataDir = path.join(await tempDir(t), 'data');
  const clock = { now: Date.UTC(2027, 5, 1, 9) };
  // The sweep runs only when the test calls it (an hour apart on the injected clock).
  const app = await buildApp(testConfig({ databaseUrl: null, redisUrl: null, dataDir }), { now: () => clock.now, clockSweepMs: 3_600_000 });
  t.teardown(() => app.close());
  const york = await signup(app, 'York player');
  const lancaster = await signup(app, 'Lancaster player');
  const heard: ReminderEvent[] = [];
  await app.bus.subscribe(playerChannel(york.id), (m) => {
    if (isReminderEvent(m)) heard.push(m);
  });
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 10 } });
  const id = (created.json() as { id: string }).id;
  const joined = (await lancaster.req('POST', `/games/${id}/join`, {})).json() as { clock: { seats: Array<{ role: string; deadline: string | null }> } };
  const deadline = joined.clock.seats.find((s) => s.role === 'York')!.deadline!;
  clock.now = Date.parse(deadline) - 2 * DAY;
  const svc = app.gameService as GameService; // the sweeps are the service's, not the API's
  const sent = (await svc.sweepReminders()) + (await svc.sweepReminders());
  t.ok(sent >= 1, `${sent} sent`);
  t.same(heard.map((e) => [e.gameId, e.role, e.kind]), [[id, 'York', 'share-used']], 'York heard it once');
});
