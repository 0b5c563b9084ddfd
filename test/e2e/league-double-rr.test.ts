/**
 * End to end (issue 14, "How to show it works"): a 6-player double round robin with 2/1/0
 * points, played to the end by bots through the public REST and GraphQL API with real
 * Richard III games (four played to the end, the others resigned after a few
 * moves); one game played "elsewhere", reported by one player and confirmed by the other
 * through GraphQL; one result corrected by the organiser to a forfeit with a reason, visible in the audit
 * log to the organiser and the two players involved only. Then the schedule (every pair twice,
 * once on each side), standings and tie-breaks against test/helpers/league-reference.ts.
 *
 * The league is unrated (the Swiss test covers ratings), so the reported and corrected results
 * raise no question of which result a rating was computed from; its players end up unrated.
 */
import t from 'tap';
import { referenceStandings, type RefGame, type RefTieBreak } from '../helpers/league-reference.ts';
import {
  byId, e2eApp, expectOk, gql, nextRound, planner, playBoard, roundComplete, signupMany,
  type LeagueJson, type PairingJson, type PlayedBoard, type RoundJson,
} from './league-helpers.ts';
import { checkStandings } from './league-checks-helpers.ts';
import type { Client } from '../http/rest-helpers.ts';

async function waitForGameStatus(c: Client, gameId: string, done: (status: string) => boolean): Promise<string> {
  let status = '';
  for (let i = 0; i < 100; i++) {
    status = (await expectOk<{ status: string }>(c.req('GET', `/games/${gameId}`), 'game')).status;
    if (done(status)) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return status;
}

const started = performance.now();
const app = await e2eApp(t);
const [organiser] = await signupMany(app, 'DRR organiser', 1);
const players = await signupMany(app, 'DRR player', 6);
const clients = byId(players);
const ROUNDS = 10;
const POINTS = { win: 2, draw: 1, loss: 0 };
// Direct encounter first (FIDE's recommendation for round robins), so that it decides among
// groups of several tied players, where its recursive application matters.
const TIE_BREAKS: RefTieBreak[] = ['direct-encounter', 'sonneborn-berger', 'wins'];
/** The round whose first board is played elsewhere and reported. */
const ELSEWHERE_ROUND = 4;
/** After this round completes, the organiser corrects a result of round 1. */
const CORRECT_AFTER = 2;

const league = await expectOk<LeagueJson>(organiser.req('POST', '/leagues', {
  name: 'E2E double round robin',
  gameType: 'richard-iii',
  format: 'double-round-robin',
  points: POINTS,
  tieBreaks: TIE_BREAKS,
  rated: false,
}), 'create league');
const leagueId = league.id;

t.test('registration and start', async (t) => {
  t.same(league.settings.points, POINTS);
  t.same(league.settings.tieBreaks, TIE_BREAKS);
  t.equal(league.settings.rated, false);
  for (const p of players.slice(0, 4)) await expectOk(p.req('POST', `/leagues/${leagueId}/entrants`), 'join (REST)');
  for (const p of players.slice(4)) {
    const d = await gql(p, 'mutation($id: ID!) { joinLeague(leagueId: $id) { player { id } status } }', { id: leagueId });
    t.same(d.joinLeague, { player: { id: p.id }, status: 'active' }, 'join (GraphQL)');
  }
  const running = await expectOk<LeagueJson>(organiser.req('POST', `/leagues/${leagueId}/start`), 'start');
  t.equal(running.status, 'running');
  t.equal(running.plannedRounds, ROUNDS, 'a double round robin of 6: 2 × 5 rounds');
});

/** Results as this test knows them (from the games, the report, the correction), by pairing id. */
const results = new Map<string, RefGame>();
const rounds: RoundJson[] = [];
const boards: PlayedBoard[] = [];
// One board played to the end in rounds 1, 4, 7 and 10: four complete games.
const plan = planner('e2e-drr', (round) => (round % 3 === 1 ? 1 : 0));
let reported: PairingJson | null = null;
let corrected: { pairing: PairingJson; before: string; after: RefGame['result']; reason: string } | null = null;

t.test('ten rounds: games by the bots, one result from elsewhere, one correction', async (t) => {
  const roles = league.roles;
  for (let n = 1; n <= ROUNDS; n++) {
    const round = await nextRound(organiser, leagueId, n);
    if (!round) throw new Error(`the league finished before round ${n}`);
    t.equal(round.pairings.length, 3, `round ${n}: 3 boards`);
    const elsewhere = n === ELSEWHERE_ROUND ? round.pairings[0] : null;
    const played = await Promise.all(round.pairings.filter((p) => p !== elsewhere).map((p) =>
      playBoard(p, roles, clients, plan(n, p.board, round.pairings.length), `e2e-drr-${n}-${p.board}`)));
    boards.push(...played);
    for (const b of played) results.set(b.pairing.id, { round: n, first: b.pairing.first.id, second: b.pairing.second!.id, result: b.result });

    if (elsewhere) {
      // Played face to face: the second player reports a draw, the first confirms, both via GraphQL.
      const [reporter, confirmer] = [clients.get(elsewhere.second!.id)!, clients.get(elsewhere.first.id)!];
      const vars = { leagueId, pairingId: elsewhere.id };
      const r = await gql(reporter, `mutation($leagueId: ID!, $pairingId: ID!) { reportResult(leagueId: $leagueId, pairingId: $pairingId, result: draw) { id result report { by result } } }`, vars);
      t.same(r.reportResult, { id: elsewhere.id, result: null, report: { by: reporter.id, result: 'draw' } }, 'reported, waiting for the opponent');
      const c = await gql(confirmer, `mutation($leagueId: ID!, $pairingId: ID!) { confirmResult(leagueId: $leagueId, pairingId: $pairingId) { id result source report { by } } }`, vars);
      t.same(c.confirmResult, { id: elsewhere.id, result: 'draw', source: 'reported', report: null }, 'confirmed by the opponent');
      results.set(elsewhere.id, { round: n, first: elsewhere.first.id, second: elsewhere.second!.id, result: 'draw' });
      // The board's Herald game, never played, is closed: abandoned, not a second result.
      const status = await waitForGameStatus(organiser, elsewhere.gameId!, (s) => s !== 'active');
      t.equal(status, 'abandoned', 'the unplayed Herald game of the reported board is abandoned');
      reported = elsewhere;
    }

    const complete = await roundComplete(organiser, leagueId, n);
    for (const p of complete.pairings) {
      t.equal(p.result, results.get(p.id)!.result, `round ${n} board ${p.board}: the league's result`);
    }
    rounds.push(complete);

    if (n === CORRECT_AFTER) {
      // The organiser corrects a round-1 result with a reason: the board's winner is ruled to
      // have broken the rules, and the game is forfeited to the opponent (a result without a
      // game: it counts for points and wins, not for Buchholz, SB or direct encounter).
      const pairing = rounds[0].pairings[0];
      const known = results.get(pairing.id)!;
      const after: RefGame['result'] = known.result === 'first' ? 'forfeit-second' : 'forfeit-first';
      const reason = 'Arbiter: the winner had outside help during the game (rule 4.2); the game is forfeited to the opponent.';
      const res = await expectOk<PairingJson>(organiser.req('PUT', `/leagues/${leagueId}/pairings/${pairing.id}/result`, { result: after, reason }), 'correct');
      t.equal(res.result, after);
      t.equal(res.source, 'organiser');
      corrected = { pairing, before: known.result, after, reason };
      results.set(pairing.id, { ...known, result: after });
    }
  }
  t.equal(await nextRound(organiser, leagueId, ROUNDS + 1), null, 'no eleventh round');
  t.equal((await expectOk<LeagueJson>(organiser.req('GET', `/leagues/${leagueId}`), 'league')).status, 'finished', 'the league is finished');
  const full = boards.filter((b) => b.plan.full);
  t.comment(`${full.length} games to the end (${full.map((b) => `${b.outcome.actions} actions/${b.ms.toFixed(0)} ms`).join(', ')}), ${boards.length - full.length} resigned, 1 reported`);
});

t.test('the schedule: every pair twice, once on each side, one game a round each', async (t) => {
  const ids = players.map((p) => p.id);
  for (const r of rounds) {
    const inRound = r.pairings.flatMap((p) => [p.first.id, p.second!.id]);
    t.same([...inRound].sort(), [...ids].sort(), `round ${r.number}: everyone plays once`);
  }
  for (const a of ids) for (const b of ids) {
    if (a === b) continue;
    const asFirst = rounds.flatMap((r) => r.pairings).filter((p) => p.first.id === a && p.second!.id === b).length;
    t.equal(asFirst, 1, 'each ordered pair (first, second) exactly once');
  }
});

t.test('the audit log: the correction with its reason, for the organiser and the two players only', async (t) => {
  const c = corrected!;
  type Change = { pairingId: string; kind: string; before: string | null; after: string | null; reason: string | null; by: { id: string } | null };
  const changes = async (who: Client) =>
    (await expectOk<{ changes: Change[] }>(who.req('GET', `/leagues/${leagueId}/results/changes`), 'changes')).changes;

  const all = await changes(organiser);
  // An organiser's change that awards a forfeit is logged as kind 'forfeit' (else 'correction').
  const KIND = 'forfeit';
  const correction = all.find((x) => x.pairingId === c.pairing.id && x.kind === KIND);
  t.match(correction, { before: c.before, after: c.after, reason: c.reason, by: { id: organiser.id } }, 'who, before, after, why');
  t.ok(all.some((x) => x.pairingId === reported!.id && x.kind === 'report'), 'the report is logged');
  t.ok(all.some((x) => x.pairingId === reported!.id && x.kind === 'confirm'), 'the confirmation is logged');

  for (const id of [c.pairing.first.id, c.pairing.second!.id]) {
    const mine = await changes(clients.get(id)!);
    t.ok(mine.some((x) => x.pairingId === c.pairing.id && x.kind === KIND && x.reason === c.reason), 'a player involved reads the correction');
  }
  const outsider = players.find((p) => p.id !== c.pairing.first.id && p.id !== c.pairing.second!.id)!;
  const theirs = await changes(outsider);
  t.ok(theirs.length > 0, 'the outsider sees the changes to their own games');
  t.notOk(theirs.some((x) => x.pairingId === c.pairing.id), 'a player not involved cannot read the correction');
  const filtered = await outsider.req('GET', `/leagues/${leagueId}/results/changes?pairingId=${c.pairing.id}`);
  t.ok(filtered.statusCode === 403 || (filtered.statusCode === 200 && filtered.json().changes.length === 0), 'not even by asking for that pairing');
});

t.test('standings and tie-breaks (REST, CSV, GraphQL) equal the reference', async (t) => {
  const games: RefGame[] = [...results.values()];
  t.equal(games.length, 30);
  const ref = referenceStandings(players.map((p) => p.id), games, { points: POINTS, tieBreaks: TIE_BREAKS, rounds: ROUNDS, roundRobin: true });
  t.equal(ref.rows.get(corrected!.pairing.first.id)!.played + ref.rows.get(corrected!.pairing.second!.id)!.played, 18, 'the forfeit is not a game played');
  await checkStandings(t, { app, viewer: players[0], leagueId, ref, tieBreaks: TIE_BREAKS, roles: league.roles, rounds: ROUNDS });
});

t.test('an unrated league rates nobody', async (t) => {
  for (const p of players) {
    const profile = await expectOk<{ ratings: unknown[] }>(organiser.req('GET', `/players/${p.id}`), 'profile');
    t.same(profile.ratings, [], 'no rating');
  }
});

t.teardown(() => {
  console.log(`# e2e double round robin (6 players, 10 rounds, ${boards.length + 1} games): ${((performance.now() - started) / 1000).toFixed(1)} s`);
});
