/**
 * End to end (issue 14, "How to show it works"): a rated 16-player Swiss of 5 rounds played to
 * the end by bots through the public REST and GraphQL API, with real Richard III games — one
 * board a round played to the end with random legal moves, the others resigned after a few —
 * then its pairings, standings, tie-breaks and Glicko-2 ratings held against the independent
 * computation in test/helpers/league-reference.ts.
 */
import t from 'tap';
import {
  minimalScoreDistance, referenceStandings, replayRatings, scoreDistance, sideAllowed, sideHistory,
  type RefGame, type RefPairing, type RefTieBreak,
} from '../helpers/league-reference.ts';
import {
  byId, e2eApp, expectOk, gql, nextRound, planner, playBoard, roundComplete, signupMany,
  type LeagueJson, type PlayedBoard, type RoundJson,
} from './league-helpers.ts';
import { checkRatings, checkStandings } from './league-checks-helpers.ts';

const started = performance.now();
const app = await e2eApp(t);
const [organiser] = await signupMany(app, 'Organiser', 1);
const players = await signupMany(app, 'Swiss player', 16);
const clients = byId(players);
const ROUNDS = 5;
const TIE_BREAKS: RefTieBreak[] = ['buchholz-cut1', 'buchholz', 'sonneborn-berger', 'wins'];

const league = await expectOk<LeagueJson>(organiser.req('POST', '/leagues', {
  name: 'E2E Swiss',
  gameType: 'richard-iii',
  format: 'swiss',
  rounds: ROUNDS,
  rated: true,
  tieBreaks: TIE_BREAKS,
}), 'create league');
const leagueId = league.id;

t.test('registration: players join through REST and GraphQL, the organiser starts the league', async (t) => {
  t.equal(league.status, 'registration');
  t.same(league.settings.points, { win: 1, draw: 0.5, loss: 0 }, 'default points 1/½/0');
  t.same(league.settings.tieBreaks, TIE_BREAKS);
  for (const p of players.slice(0, 10)) await expectOk(p.req('POST', `/leagues/${leagueId}/entrants`), 'join (REST)');
  for (const p of players.slice(10)) {
    const d = await gql(p, 'mutation($id: ID!) { joinLeague(leagueId: $id) { player { id } status } }', { id: leagueId });
    t.same(d.joinLeague, { player: { id: p.id }, status: 'active' }, 'join (GraphQL)');
  }
  const entrants = await expectOk<{ entrants: { player: { id: string } }[] }>(organiser.req('GET', `/leagues/${leagueId}/entrants`), 'entrants');
  t.same(entrants.entrants.map((e) => e.player.id).sort(), players.map((p) => p.id).sort());
  const refused = await players[0].req('POST', `/leagues/${leagueId}/start`);
  t.equal(refused.statusCode, 403, 'a player cannot start the league');
  const running = await expectOk<LeagueJson>(organiser.req('POST', `/leagues/${leagueId}/start`), 'start');
  t.equal(running.status, 'running');
  t.equal(running.entrantCount, 16);
  t.equal(running.plannedRounds, ROUNDS);
});

const games: RefGame[] = [];
const rounds: RoundJson[] = [];
const boards: PlayedBoard[] = [];
// One board a round played to the end: five complete games.
const plan = planner('e2e-swiss', () => 1);

t.test('five rounds, each published by itself and played by the bots', async (t) => {
  const roles = (await expectOk<LeagueJson>(organiser.req('GET', `/leagues/${leagueId}`), 'league')).roles;
  t.same(roles, { first: 'York', second: 'Lancaster' });
  for (let n = 1; n <= ROUNDS; n++) {
    const round = await nextRound(organiser, leagueId, n);
    if (!round) throw new Error(`the league finished before round ${n}`);
    t.equal(round.status, 'published', `round ${n} published automatically`);
    t.equal(round.pairings.length, 8, `round ${n}: 8 boards, no bye`);
    const seen = round.pairings.flatMap((p) => [p.first.id, p.second!.id]);
    t.same([...seen].sort(), players.map((p) => p.id).sort(), `round ${n}: everyone paired once`);

    const played = await Promise.all(round.pairings.map(async (p) => {
      const board = await playBoard(p, roles, clients, plan(n, p.board, round.pairings.length), `e2e-swiss-${n}-${p.board}`);
      // The game is the pairing's: seats as the pairing says, rated, tied to the league.
      const summary = await expectOk<Record<string, any>>(organiser.req('GET', `/games/${p.gameId}`), 'game');
      const seat = (role: string) => summary.seats.find((s: { role: string }) => s.role === role)?.player?.id;
      if (seat(roles.first) !== p.first.id || seat(roles.second) !== p.second!.id) throw new Error(`board ${n}.${p.board}: seats differ from the pairing`);
      if (summary.rated !== true) throw new Error(`board ${n}.${p.board}: not rated`);
      if (summary.league?.id !== leagueId || summary.league?.round !== n || summary.league?.board !== p.board) {
        throw new Error(`board ${n}.${p.board}: league ${JSON.stringify(summary.league)}`);
      }
      return board;
    }));
    boards.push(...played);
    const complete = await roundComplete(organiser, leagueId, n);
    for (const b of played) {
      const p = complete.pairings.find((x) => x.id === b.pairing.id)!;
      t.equal(p.result, b.result, `round ${n} board ${p.board}: the league recorded the game's result`);
      t.equal(p.source, 'game');
      games.push({ round: n, first: p.first.id, second: p.second!.id, result: b.result });
    }
    rounds.push(complete);
  }
  t.equal(await nextRound(organiser, leagueId, ROUNDS + 1), null, 'no sixth round');
  const finished = await expectOk<LeagueJson>(organiser.req('GET', `/leagues/${leagueId}`), 'league');
  t.equal(finished.status, 'finished', 'the league is finished');
  t.equal(finished.roundCount, ROUNDS);
  const listed = await expectOk<{ rounds: RoundJson[] }>(players[5].req('GET', `/leagues/${leagueId}/rounds`), 'rounds');
  t.same(listed.rounds.map((r) => [r.number, r.status]), rounds.map((r) => [r.number, 'complete']), 'GET …/rounds: five complete rounds');
  t.same(listed.rounds.map((r) => r.pairings.map((p) => [p.id, p.result])), rounds.map((r) => r.pairings.map((p) => [p.id, p.result])), 'with the same pairings and results');

  const full = boards.filter((b) => b.plan.full);
  const resigned = boards.filter((b) => !b.plan.full);
  const avg = (xs: number[]) => (xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length)).toFixed(0);
  t.comment(`${full.length} games played to the end: ${avg(full.map((b) => b.outcome.actions))} actions, ${avg(full.map((b) => b.ms))} ms on average` +
    ` (longest ${Math.max(...full.map((b) => b.outcome.actions))} actions); ${resigned.length} resigned after ${avg(resigned.map((b) => b.outcome.actions))} actions`);
  t.ok(full.length === ROUNDS && full.every((b) => b.game.result!.reason !== '' && !/resign/i.test(b.game.result!.reason)), 'some games ended by play, not resignation');
});

t.test('Swiss pairing rules in every round (checked against exhaustive search)', async (t) => {
  const ids = players.map((p) => p.id);
  const met = new Set<string>();
  const key = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
  for (const [i, round] of rounds.entries()) {
    const n = i + 1;
    const before = games.filter((g) => g.round < n);
    const scores = new Map(ids.map((id) => [id, 0]));
    for (const g of before) {
      const w = g.result === 'draw' ? [0.5, 0.5] : g.result === 'first' ? [1, 0] : [0, 1];
      scores.set(g.first, scores.get(g.first)! + w[0]);
      scores.set(g.second, scores.get(g.second)! + w[1]);
    }
    const history = sideHistory(rounds.slice(0, i).map((r) => r.pairings.map((p) => ({ first: p.first.id, second: p.second!.id }))));
    const pairs: RefPairing[] = round.pairings.map((p) => ({ first: p.first.id, second: p.second!.id }));
    for (const p of pairs) {
      t.notOk(met.has(key(p.first, p.second)), `round ${n}: no rematch`);
      t.ok(sideAllowed(history.get(p.first) ?? [], 'first'), `round ${n}: side rules hold for the first player`);
      t.ok(sideAllowed(history.get(p.second) ?? [], 'second'), `round ${n}: side rules hold for the second player`);
    }
    const best = minimalScoreDistance(ids, scores, (a, b) => met.has(key(a, b)), history);
    t.not(best, null, `round ${n}: a pairing within the rules exists`);
    t.equal(scoreDistance(pairs, scores), best, `round ${n}: pairs as close in score as the rules allow (Σ group distance² = ${best})`);
    for (const p of pairs) met.add(key(p.first, p.second));
  }
  // After the last round too: nobody more than one game ahead on a side, never three in a row.
  const all = sideHistory(rounds.map((r) => r.pairings.map((p) => ({ first: p.first.id, second: p.second!.id }))));
  for (const [id, sides] of all) {
    t.equal(sides.length, ROUNDS);
    for (let k = 1; k <= sides.length; k++) t.ok(sideAllowed(sides.slice(0, k - 1), sides[k - 1]), `${id}: side rule after round ${k}`);
  }
});

t.test('standings and tie-breaks (REST, CSV, GraphQL) equal the reference', async (t) => {
  const ref = referenceStandings(players.map((p) => p.id), games, { points: { win: 1, draw: 0.5, loss: 0 }, tieBreaks: TIE_BREAKS, rounds: ROUNDS });
  await checkStandings(t, { app, viewer: players[3], leagueId, ref, tieBreaks: TIE_BREAKS, roles: { first: 'York', second: 'Lancaster' }, rounds: ROUNDS });
});

t.test('Glicko-2 ratings equal the reference replay of the rated games', async (t) => {
  // Every player plays exactly one game a round, and a round starts only when the previous one
  // is complete: each player's games come in round order whatever order the boards of a round
  // finished in, and each game is rated from both players' ratings after the previous round.
  const ordered = [...games].sort((a, b) => a.round - b.round);
  const ref = replayRatings(ordered.map((g) => ({ a: g.first, b: g.second, scoreA: g.result === 'first' ? 1 : g.result === 'draw' ? 0.5 : 0 })));
  await checkRatings(t, { viewer: organiser, players: players.map((p) => p.id), ref, gameType: 'richard-iii', games: ROUNDS });
});

t.teardown(() => {
  console.log(`# e2e Swiss (16 players, 5 rounds, ${boards.length} games): ${((performance.now() - started) / 1000).toFixed(1)} s`);
});
