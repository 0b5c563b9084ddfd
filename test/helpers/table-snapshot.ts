// A fingerprint of every table's content (row count and an md5 of the rows in
// a fixed order): two equal snapshots mean a request changed nothing. Shared by
// the malformed-input fuzzers, so a new table is added in one place.
import type pg from 'pg';

const TABLES = [
  ['players', 'id'],
  ['api_keys', 'id'],
  ['games', 'id'],
  ['seats', 'game_id, role'],
  ['actions', 'game_id, seq'],
  ['idempotency_records', 'game_id, player_id, key'],
  ['ratings', 'player_id, game_type'],
  ['rating_changes', 'game_id, player_id'],
  ['leagues', 'id'],
  ['league_organisers', 'league_id, player_id'],
  ['league_entrants', 'league_id, player_id'],
  ['league_rounds', 'league_id, number'],
  ['league_pairings', 'id'],
  ['league_result_changes', 'id'],
  ['vacations', 'id'],
] as const;

export async function tableSnapshot(db: pg.Pool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [table, order] of TABLES) {
    const r = await db.query(`SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY ${order}), '')) AS h FROM ${table} x`);
    out[table] = `${r.rows[0].n}:${r.rows[0].h}`;
  }
  return out;
}
