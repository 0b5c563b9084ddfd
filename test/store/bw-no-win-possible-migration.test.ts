// Migration 20261127090000_bw_no_win_possible on a database holding Black &
// White games stored before the rule option noWinPossible existed: they get
// "play-on", the rule they were played under, so a replay from their options
// gives the game that was played; newer games and other game types are left
// as they are.
import t from 'tap';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../../src/store/migrate.ts';
import { createTestDatabase } from '../helpers/services.ts';

const THIS = '20261127090000_bw_no_win_possible';
const sql = (name: string) => readFile(path.join(MIGRATIONS_DIR, name, 'migration.sql'), 'utf8');

t.test('Black & White games stored before noWinPossible play on, as they were played', async (t) => {
  const client = new pg.Client({ connectionString: await createTestDatabase(t) });
  await client.connect();
  t.teardown(() => client.end());
  const before = (await readdir(MIGRATIONS_DIR)).filter((n) => /^\d{14}_/.test(n) && n < THIS).sort();
  for (const name of before) await client.query(await sql(name));

  const insert = (id: string, gameType: string, options: object, state: object | null) =>
    client.query(`INSERT INTO games (id, game_type, scenario, status, version, options, seed, state, updated_at) VALUES ($1, $2, 's01', 'active', 3, $3, 'x', $4, now())`, [id, gameType, JSON.stringify(options), state === null ? null : JSON.stringify(state)]);
  const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
  await insert(id(1), 'black-and-white', { a25MarkersLast: 'later' }, { phase: 'play', options: { a25MarkersLast: 'later' }, units: [] });
  await insert(id(2), 'black-and-white', { a25MarkersLast: 'later' }, null);
  await insert(id(3), 'black-and-white', { noWinPossible: 'draw' }, { options: { noWinPossible: 'draw' } });
  await insert(id(4), 'richard-iii', { endCampaign: 1 }, { options: { endCampaign: 1 } });

  await client.query(await sql(THIS));
  const rows = new Map((await client.query(`SELECT id, options, state FROM games`)).rows.map((r) => [r.id as string, r]));
  t.same(rows.get(id(1)).options, { a25MarkersLast: 'later', noWinPossible: 'play-on' }, 'an old game: play-on in its options');
  t.same(rows.get(id(1)).state, { phase: 'play', options: { a25MarkersLast: 'later', noWinPossible: 'play-on' }, units: [] }, 'and in its engine state, the rest untouched');
  t.same(rows.get(id(2)).options, { a25MarkersLast: 'later', noWinPossible: 'play-on' }, 'a game not started: options only');
  t.equal(rows.get(id(2)).state, null);
  t.same(rows.get(id(3)).options, { noWinPossible: 'draw' }, 'a game created with the option keeps it');
  t.same(rows.get(id(4)).options, { endCampaign: 1 }, 'another game type is left alone');
  t.same(rows.get(id(4)).state, { options: { endCampaign: 1 } });
});
