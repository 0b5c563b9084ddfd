// Migration 20261124030000_log_changes on a database holding a game stored
// before it (the whole log inside the engine state): afterwards the fold of the
// log rows is that log, and the engine carries on from the migrated state.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { foldLog } from '../../src/engine/types.ts';
import { richardIII as m } from '../../src/games/richard-iii/index.ts';
import type { R3State } from '../../src/games/richard-iii/state.ts';
import { MIGRATIONS_DIR } from '../../src/store/migrate.ts';
import { createTestDatabase } from '../helpers/services.ts';

const sql = (name: string) => readFile(path.join(MIGRATIONS_DIR, name, 'migration.sql'), 'utf8');

t.test('a game stored with its log in the state keeps its log', async (t) => {
  const client = new pg.Client({ connectionString: await createTestDatabase(t) });
  await client.connect();
  t.teardown(() => client.end());
  await client.query(await sql('20261122030000_create_games'));
  await client.query(await sql('20261122040000_service'));

  // A game 6 actions in, stored as before: the whole log in the state, no logFrom.
  let s = m.setup({ scenario: 'richard-iii', seed: 'legacy' }) as R3State;
  const changes = [m.logChange(s)];
  for (let i = 0; i < 6; i++) {
    const role = m.activeRoles(s)[0]!;
    s = m.apply(s, role, m.legalActions(s, role)[0]!) as R3State;
    changes.push(m.logChange(s));
  }
  const log = foldLog(changes);
  const { logFrom: _, ...legacy } = { ...s, log };
  const id = '00000000-0000-4000-8000-000000000001';
  await client.query(`INSERT INTO games (id, game_type, scenario, status, version, state, updated_at) VALUES ($1, 'richard-iii', 'richard-iii', 'active', 7, $2, now())`, [id, JSON.stringify(legacy)]);
  for (let seq = 1; seq <= 7; seq++) {
    await client.query(`INSERT INTO actions (game_id, seq, kind, status) VALUES ($1, $2, $3, 'active')`, [id, seq, seq === 1 ? 'start' : 'action']);
  }

  await client.query(await sql('20261124030000_log_changes'));
  const rows = (await client.query(`SELECT seq, log FROM actions WHERE game_id = $1 ORDER BY seq`, [id])).rows;
  t.same(foldLog(rows.filter((r) => r.log !== null).map((r) => r.log)), log, 'the fold of the rows is the stored log');
  const state = (await client.query(`SELECT state FROM games WHERE id = $1`, [id])).rows[0].state as R3State;
  t.equal(state.logFrom, 0);
  const role = m.activeRoles(state)[0]!;
  const next = m.apply(state, role, m.legalActions(state, role)[0]!);
  t.equal(m.logChange(next).from, log.length, 'the next change continues the log');
  t.same(foldLog([...rows.map((r) => r.log).filter(Boolean), m.logChange(next)]), foldLog([...changes, m.logChange(m.apply(s, role, m.legalActions(s, role)[0]!))]));
});
