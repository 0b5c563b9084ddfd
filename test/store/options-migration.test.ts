// Migration 20261125130000_game_options on a database holding games stored
// when options were not checked and the engine read none: their options are
// cleared, so a replay from setup() gives the game that was played.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { richardIII as m } from '../../src/games/richard-iii/index.ts';
import { MIGRATIONS_DIR } from '../../src/store/migrate.ts';
import { createTestDatabase } from '../helpers/services.ts';

const sql = (name: string) => readFile(path.join(MIGRATIONS_DIR, name, 'migration.sql'), 'utf8');

t.test('games stored with unchecked options replay as they were played', async (t) => {
  const client = new pg.Client({ connectionString: await createTestDatabase(t) });
  await client.connect();
  t.teardown(() => client.end());
  for (const name of ['20261122030000_create_games', '20261122040000_service', '20261124030000_log_changes']) await client.query(await sql(name));

  // As stored before: the options kept, the state made without them (the defaults).
  const legacy = [
    ['00000000-0000-4000-8000-000000000001', { bogus: true, endCampaign: 99 }],
    ['00000000-0000-4000-8000-000000000002', { endCampaign: 1 }],
    ['00000000-0000-4000-8000-000000000003', {}],
  ] as const;
  const played = m.setup({ scenario: 'wars-of-the-roses', seed: 'legacy' });
  for (const [id, options] of legacy) {
    await client.query(`INSERT INTO games (id, game_type, scenario, status, version, options, seed, state, updated_at) VALUES ($1, 'richard-iii', 'wars-of-the-roses', 'active', 1, $2, 'legacy', $3, now())`, [id, JSON.stringify(options), JSON.stringify(played)]);
  }
  t.throws(() => m.setup({ scenario: 'wars-of-the-roses', seed: 'legacy', options: legacy[0][1] }), 'the engine refuses the first one now');
  t.not(m.setup({ scenario: 'wars-of-the-roses', seed: 'legacy', options: legacy[1][1] }).endCampaign, played.endCampaign, 'and would replay the second as another game');

  await client.query(await sql('20261125130000_game_options'));
  const rows = (await client.query(`SELECT id, options, seed, scenario FROM games ORDER BY id`)).rows;
  for (const row of rows) {
    t.same(row.options, {}, row.id);
    t.same(m.setup({ scenario: row.scenario, seed: row.seed, options: row.options }), played, `${row.id}: the replay starts from the stored game`);
  }
});
