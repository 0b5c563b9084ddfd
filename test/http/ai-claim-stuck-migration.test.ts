// Migration 20261127180000_ai_claim_stuck_games: before Herald's AI claimed a win on time at
// once (onTimeout claim), a human who ran out against it left the game active for ever: the
// sweep recorded that the AI could claim (a timeout:<role>:<at> key in reminders_sent) and took
// the game out of the sweep (deadline_at past the flagged seat: null here, the AI's clock not
// running). A game is put in that stored shape; the sweep leaves it alone; after the migration
// the sweep ends it as the AI's claim (York loses on time). Real Postgres, the app's own jobs.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../src/http/app.ts';
import { HOUR } from '../../src/clocks/index.ts';
import { MIGRATIONS_DIR } from '../../src/store/migrate.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { getGame, openUntilYorkActsAlone, sleep, type ClockedGame } from './ai-game-helpers.ts';
import { signup, client } from './rest-helpers.ts';

const THIS = '20261127180000_ai_claim_stuck_games';
const clock = { now: Date.UTC(2027, 5, 1, 9) };
const { store, databaseUrl } = await openTestStore(t);
const config = testConfig({ databaseUrl, jobs: true, ai: { workers: 1, queue: 16, timeCapMs: 5_000 } });
// The clock sweep runs once at the start, then hourly: nothing ends the game while it is put in shape.
const first = await buildApp(config, { store, now: () => clock.now, clockSweepMs: HOUR, aiSweepMs: 200 });
const ada = await signup(first, 'Ada');
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
t.teardown(() => db.end());

t.test('a game stuck with the human flagged against the AI ends as the AI\'s claim after the migration', async (t) => {
  const g = await openUntilYorkActsAlone(ada, clock);
  const deadline = Date.parse(g.clock.seats.find((s) => s.role === 'York')!.deadline!);
  await first.close();
  clock.now = deadline + 1;
  // The stored shape of such a game: the AI told once that it may claim, the game out of the sweep.
  const shaped = await db.query(`UPDATE games SET reminders_sent = ARRAY[$2::text], deadline_at = NULL WHERE id = $1::uuid AND status = 'active' RETURNING 1`, [g.id, `timeout:York:${deadline}`]);
  t.equal(shaped.rowCount, 1);

  const app = await buildApp(config, { store, now: () => clock.now, clockSweepMs: 100, aiSweepMs: 200 });
  t.teardown(() => app.close());
  const me = client(app, ada.key, ada.id);
  await sleep(800);
  t.equal((await getGame(me, g.id)).status, 'active', 'stuck: the sweep does not look at it');

  await db.query(await readFile(path.join(MIGRATIONS_DIR, THIS, 'migration.sql'), 'utf8'));
  let after = await getGame(me, g.id);
  for (let i = 0; i < 200 && after.status === 'active'; i++) {
    await sleep(50);
    after = await getGame(me, g.id);
  }
  t.equal(after.status, 'finished', 'the sweep ends it');
  t.same(after.result, { winner: 'Lancaster', reason: 'timeout' }, 'as the AI\'s claim: York lost on time');
  const log = (await me.req('GET', `/games/${g.id}/log`)).json() as { entries: { kind: string; role: string | null }[] };
  t.match(log.entries.at(-1), { kind: 'timeout', role: 'York' });
});

t.test('the migration leaves games without an AI seat alone', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl, jobs: false }), { store, now: () => clock.now });
  t.teardown(() => app.close());
  const me = client(app, ada.key, ada.id);
  const bob = await signup(app, 'Bob');
  const res = await me.req('POST', '/games', {
    gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'],
    timeControl: { kind: 'fischer', initialMs: 2 * HOUR, incrementMs: 0, onTimeout: 'claim' },
  });
  const id = (res.json() as ClockedGame).id;
  t.equal((await bob.req('POST', `/games/${id}/join`, {})).statusCode, 200);
  // Flagged and its claimant told: the sweep took it out until a clock change, as it should for players.
  await db.query(`UPDATE games SET reminders_sent = ARRAY['timeout:York:1'], deadline_at = NULL WHERE id = $1::uuid`, [id]);
  await db.query(await readFile(path.join(MIGRATIONS_DIR, THIS, 'migration.sql'), 'utf8'));
  const row = await db.query(`SELECT status::text, deadline_at FROM games WHERE id = $1::uuid`, [id]);
  t.same(row.rows[0], { status: 'active', deadline_at: null });
});
