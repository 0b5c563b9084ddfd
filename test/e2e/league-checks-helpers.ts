/**
 * The end-to-end leagues' final checks: the league's standings (JSON, CSV and GraphQL) against
 * the reference standings, and every player's rating (profile and leaderboard) against the
 * reference Glicko-2 replay.
 */
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import type { Client } from '../http/rest-helpers.ts';
import type { RefRating, RefStandings, RefTieBreak } from '../helpers/league-reference.ts';
import { expectOk, gql } from './league-helpers.ts';

export type Checker = Test;

interface StandingRowJson {
  rank: number;
  player: { id: string };
  points: number;
  tieBreaks: Record<string, number>;
  played: number;
  won: number;
  drawn: number;
  lost: number;
  forfeitsWon: number;
  forfeitsLost: number;
  byes: number;
  perSide: Record<string, { played: number; won: number; drawn: number; lost: number }>;
  decidedByFinalOrder: boolean;
}

export async function checkStandings(
  t: Checker,
  o: {
    app: FastifyInstance;
    viewer: Client;
    leagueId: string;
    ref: RefStandings;
    tieBreaks: readonly RefTieBreak[];
    roles: { first: string; second: string };
    rounds: number;
  },
): Promise<void> {
  const { ref } = o;
  const body = await expectOk<{ rounds: number; tieBreaks: string[]; standings: StandingRowJson[] }>(
    o.viewer.req('GET', `/leagues/${o.leagueId}/standings`), 'standings');
  t.equal(body.rounds, o.rounds, 'every round counted');
  t.same(body.tieBreaks, o.tieBreaks, 'tie-breaks in the configured order');
  const rows = body.standings;
  t.same(rows.map((r) => r.rank), rows.map((_, i) => i + 1), 'ranks 1…n');
  t.same(rows.map((r) => r.player.id).sort(), [...ref.rows.keys()].sort(), 'one row per entrant');
  for (const row of rows) {
    const want = ref.rows.get(row.player.id)!;
    const who = `rank ${row.rank} (${row.player.id.slice(0, 8)})`;
    t.equal(row.points, want.points, `${who}: points`);
    t.same([row.played, row.won, row.drawn, row.lost], [want.played, want.won, want.drawn, want.lost], `${who}: played, won, drawn, lost`);
    t.same([row.forfeitsWon, row.forfeitsLost, row.byes], [want.forfeitsWon, want.forfeitsLost, 0], `${who}: forfeits won and lost, no byes`);
    t.same(row.perSide, { [o.roles.first]: want.asFirst, [o.roles.second]: want.asSecond }, `${who}: per-side records`);
    for (const tb of o.tieBreaks) {
      // Herald shows DE 0 for a player it never had to compare by DE (alone on their points).
      t.equal(row.tieBreaks[tb], want.tieBreaks[tb] ?? 0, `${who}: ${tb}`);
    }
  }
  // The order: the reference's groups, in order; inside a group (tied on everything) any order,
  // and exactly those players are marked as decided by the final order.
  let at = 0;
  for (const group of ref.groups) {
    const slice = rows.slice(at, at + group.length);
    t.same(slice.map((r) => r.player.id).sort(), [...group].sort(), `ranks ${at + 1}–${at + group.length}: ${group.length > 1 ? 'tied players' : 'one player'} as the reference ranks them`);
    for (const r of slice) t.equal(r.decidedByFinalOrder, group.length > 1, `rank ${r.rank}: decidedByFinalOrder`);
    at += group.length;
  }
  t.comment(`standings: ${ref.groups.length} distinct places for ${rows.length} players; tied groups: ${ref.groups.filter((g) => g.length > 1).map((g) => g.length).join(', ') || 'none'}`);

  // CSV: the same rows in the same order.
  const csv = await o.viewer.req('GET', `/leagues/${o.leagueId}/standings?format=csv`);
  t.equal(csv.statusCode, 200);
  t.match(csv.headers['content-type'], /^text\/csv/);
  const lines = csv.body.trim().split(/\r?\n/).map((l) => l.split(','));
  const header = lines[0];
  t.same(header.slice(0, 4), ['rank', 'id', 'name', 'points'], 'CSV header');
  t.same(lines.slice(1).map((l) => [Number(l[0]), l[1], Number(l[3])]), rows.map((r) => [r.rank, r.player.id, r.points]), 'CSV rows = JSON rows');

  // GraphQL: the same standings, tie-breaks named as its enum does (_ for -).
  const d = await gql(o.viewer, `query($id: ID!) { leagueStandings(leagueId: $id) {
    rounds standings { rank player { id } points won drawn lost decidedByFinalOrder tieBreaks { name value } perSide { role played won } }
  } }`, { id: o.leagueId });
  t.equal(d.leagueStandings.rounds, o.rounds);
  t.same(
    d.leagueStandings.standings,
    rows.map((r) => ({
      rank: r.rank, player: { id: r.player.id }, points: r.points, won: r.won, drawn: r.drawn, lost: r.lost,
      decidedByFinalOrder: r.decidedByFinalOrder,
      tieBreaks: o.tieBreaks.map((tb) => ({ name: tb.replace(/-/g, '_'), value: r.tieBreaks[tb] })),
      perSide: [o.roles.first, o.roles.second].map((role) => ({ role, played: r.perSide[role].played, won: r.perSide[role].won })),
    })),
    'GraphQL standings = REST standings',
  );
}

const close = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol;

export async function checkRatings(
  t: Checker,
  o: { viewer: Client; players: readonly string[]; ref: Map<string, RefRating & { games: number }>; gameType: string; games: number },
): Promise<void> {
  // Answers round rating and RD to one decimal and give the volatility as stored (league-api.ts
  // RatingInfo, service/ratings.ts).
  const TOL = 0.05 + 1e-9;
  for (const id of o.players) {
    const want = o.ref.get(id)!;
    const profile = await expectOk<{ ratings: { gameType: string; rating: number; rd: number; vol: number; games: number }[] }>(
      o.viewer.req('GET', `/players/${id}`), 'profile');
    const r = profile.ratings.find((x) => x.gameType === o.gameType);
    t.ok(r, `${id.slice(0, 8)}: rated in ${o.gameType}`);
    if (!r) continue;
    t.equal(r.games, o.games, `${id.slice(0, 8)}: ${o.games} rated games`);
    t.ok(close(r.rating, want.rating, TOL), `${id.slice(0, 8)}: rating ${r.rating} = reference ${want.rating.toFixed(3)}`);
    t.ok(close(r.rd, want.rd, TOL), `${id.slice(0, 8)}: RD ${r.rd} = reference ${want.rd.toFixed(3)}`);
    t.ok(close(r.vol, want.vol, 1e-9), `${id.slice(0, 8)}: volatility ${r.vol} = reference ${want.vol.toFixed(6)}`);
  }
  // The leaderboard (provisional ratings included: five games leave RD above 110).
  const board = await expectOk<{ items: { rank: number; player: { id: string }; rating: number; rd: number; games: number }[] }>(
    o.viewer.req('GET', `/game-types/${o.gameType}/leaderboard?includeProvisional=true&limit=100`), 'leaderboard');
  const mine = board.items.filter((e) => o.ref.has(e.player.id));
  t.equal(mine.length, o.players.length, 'every player on the leaderboard');
  for (const e of mine) t.ok(close(e.rating, o.ref.get(e.player.id)!.rating, TOL), `leaderboard: ${e.player.id.slice(0, 8)} at ${e.rating}`);
  const ratings = board.items.map((e) => e.rating);
  t.same(ratings, [...ratings].sort((a, b) => b - a), 'leaderboard ordered by rating');
  const top = [...o.ref.entries()].sort((a, b) => b[1].rating - a[1].rating)[0];
  t.comment(`ratings: top ${top[1].rating.toFixed(1)} (RD ${top[1].rd.toFixed(1)}), spread ${Math.min(...[...o.ref.values()].map((r) => r.rating)).toFixed(1)}–${top[1].rating.toFixed(1)}`);
}
