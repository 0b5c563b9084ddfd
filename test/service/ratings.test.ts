// Ratings at the service level: a rated game's end updates both players' Glicko-2 ratings
// exactly once (settle.ts), whatever the races; the sweep settles what was left; profiles,
// rating history and leaderboards read them back.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { createGameService, ServiceError, type Caller, type GameSummary } from '../../src/service/api.ts';
import { inflateRd, newRating, rateGame, type Rating } from '../../src/leagues/ratings.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const bus = createMemoryBus();
t.teardown(() => bus.close());
const svc = createGameService({ store, bus });
const db = store.pool;
const GT = 'richard-iii';
const round1 = (x: number) => Math.round(x * 10) / 10;

let n = 0;
async function player(name = `P${++n}`): Promise<Caller> {
  const r = await svc.createPlayer(null, { name });
  return svc.authenticate(r.key!.key);
}

/** A started game: `york` holds York, `lancaster` Lancaster. */
async function game(york: Caller, lancaster: Caller, opts: { rated?: boolean; visibility?: 'public' | 'private' } = {}): Promise<GameSummary> {
  const g = await svc.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], rated: opts.rated ?? true, visibility: opts.visibility ?? 'public' });
  if (g.visibility === 'public') return svc.join(lancaster, g.id, {});
  const invite = await svc.createInvite(york, g.id, { role: 'Lancaster' });
  return svc.join(lancaster, g.id, { inviteCode: invite.code });
}

interface RatingRow { rating: number; rd: number; vol: number; games: number; wins: number; draws: number; losses: number; updated_at: Date }
async function ratingRow(playerId: string): Promise<RatingRow | undefined> {
  const { rows } = await db.query<RatingRow>('SELECT rating, rd, vol, games, wins, draws, losses, updated_at FROM ratings WHERE player_id = $1 AND game_type = $2', [playerId, GT]);
  return rows[0];
}
async function changes(gameId: string): Promise<Array<{ player_id: string; opponent_id: string; score: number; rating_before: number; rd_before: number; rating: number; rd: number; vol: number; at: Date }>> {
  const { rows } = await db.query('SELECT player_id::text, opponent_id::text, score, rating_before, rd_before, rating, rd, vol, at FROM rating_changes WHERE game_id = $1 ORDER BY player_id', [gameId]);
  return rows;
}
async function settledAt(gameId: string): Promise<Date | null> {
  return (await db.query<{ settled_at: Date | null }>('SELECT settled_at FROM games WHERE id = $1', [gameId])).rows[0]!.settled_at;
}
/** As if the server had crashed between the commit that ended the game and its settlement. */
async function unsettle(gameId: string, players: string[]): Promise<void> {
  await db.query('DELETE FROM rating_changes WHERE game_id = $1', [gameId]);
  await db.query('DELETE FROM ratings WHERE player_id = ANY($1::uuid[])', [players]);
  await db.query('UPDATE games SET settled_at = NULL WHERE id = $1', [gameId]);
}
const fresh = (at: number): Rating => newRating(at);

async function rejects(t: Test, p: Promise<unknown>, code: string, msg: string): Promise<void> {
  try {
    await p;
    t.fail(`${msg}: resolved`);
  } catch (err) {
    t.ok(err instanceof ServiceError && err.code === code, `${msg}: ${(err as Error).message}`);
  }
}

t.test('a rated game ended by resignation updates both ratings as rateGame computes, before the answer', async (t) => {
  const a = await player('Ada');
  const b = await player('Bob');
  const g = await game(a, b);
  t.equal(g.rated, true);
  t.same(g.league, null);
  const over = await svc.resign(b, g.id, {});
  t.match(over.result, { winner: 'York' });
  // Read right after the answer: settled already.
  t.ok(await settledAt(g.id));
  const ch = await changes(g.id);
  t.equal(ch.length, 2);
  const at = ch[0]!.at.getTime();
  t.equal(ch[1]!.at.getTime(), at);
  const [ea, eb] = rateGame(fresh(at), fresh(at), 1, at);
  const ra = (await ratingRow(a.playerId))!;
  const rb = (await ratingRow(b.playerId))!;
  t.equal(ra.rating, ea.rating, 'winner rating');
  t.equal(ra.rd, ea.rd);
  t.equal(ra.vol, ea.vol);
  t.equal(rb.rating, eb.rating, 'loser rating');
  t.equal(rb.rd, eb.rd);
  t.equal(rb.vol, eb.vol);
  t.ok(ra.rating > 1500 && rb.rating < 1500);
  t.match(ra, { games: 1, wins: 1, draws: 0, losses: 0 });
  t.match(rb, { games: 1, wins: 0, draws: 0, losses: 1 });
  const byPlayer = Object.fromEntries(ch.map((c) => [c.player_id, c]));
  t.match(byPlayer[a.playerId], { opponent_id: b.playerId, score: 1, rating_before: 1500, rd_before: 350, rating: ea.rating, rd: ea.rd, vol: ea.vol });
  t.match(byPlayer[b.playerId], { opponent_id: a.playerId, score: 0, rating_before: 1500, rd_before: 350, rating: eb.rating, rd: eb.rd });

  // The profile shows them, rounded, with the game as a recent result.
  const pa = await svc.getPlayerProfile(null, a.playerId);
  t.match(pa.player, { id: a.playerId, name: 'Ada', isBot: false });
  t.same(pa.ratings.map((r) => [r.gameType, r.rating, r.rd, r.games, r.wins, r.provisional]), [[GT, round1(ea.rating), round1(ea.rd), 1, 1, true]]);
  t.same(pa.recentResults, [{
    gameId: g.id, gameType: GT, role: 'York', opponent: { id: b.playerId, name: 'Bob', isBot: false }, outcome: 'win', reason: 'Lancaster resigned',
    rated: true, ratingChange: round1(ea.rating - 1500), leagueId: null, endedAt: pa.recentResults[0]!.endedAt,
  }]);
  const pb = await svc.getPlayerProfile(a, b.playerId);
  t.match(pb.recentResults[0], { outcome: 'loss', role: 'Lancaster', opponent: { id: a.playerId }, ratingChange: round1(eb.rating - 1500) });
  const hist = await svc.getRatingHistory(null, a.playerId, GT);
  t.same(hist, { items: [{ gameId: g.id, opponent: { id: b.playerId, name: 'Bob', isBot: false }, score: 1, ratingBefore: 1500, rating: round1(ea.rating), rd: round1(ea.rd), at: new Date(at).toISOString() }], nextCursor: null });

  t.equal(await svc.settleGame(g.id), false, 'settling again does nothing');
  t.same(await ratingRow(a.playerId), ra);
});

t.test('a draw (no winner) scores ½ each', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b);
  await svc.resign(b, g.id, {});
  // The rules reached a draw: rewrite the result and settle afresh.
  await unsettle(g.id, [a.playerId, b.playerId]);
  await db.query(`UPDATE games SET result = '{"winner": null, "reason": "draw"}' WHERE id = $1`, [g.id]);
  t.equal(await svc.settleGame(g.id), true);
  const ch = await changes(g.id);
  const at = ch[0]!.at.getTime();
  const [ea] = rateGame(fresh(at), fresh(at), 0.5, at);
  t.same(ch.map((c) => c.score), [0.5, 0.5]);
  t.equal((await ratingRow(a.playerId))!.rating, ea.rating);
  t.equal(ea.rating, 1500, 'equal players drawing keep their rating');
  t.match(await ratingRow(b.playerId), { draws: 1, games: 1 });
});

t.test('unrated, abandoned, hot-seat and unfinished games change no rating', async (t) => {
  const a = await player();
  const b = await player();
  const casual = await game(a, b, { rated: false });
  t.equal(casual.rated, false);
  await svc.resign(a, casual.id, {});
  t.ok(await settledAt(casual.id), 'settled (nothing to rate)');
  t.equal(await ratingRow(a.playerId), undefined);

  const aborted = await game(a, b);
  const after = await svc.abort(a, aborted.id);
  t.equal(after.status, 'abandoned');
  t.ok(await settledAt(aborted.id));
  t.same(await changes(aborted.id), []);

  const hot = await svc.createGame(a, { gameType: GT, scenario: GT, roles: ['York', 'Lancaster'], rated: true });
  await svc.resign(a, hot.id, { role: 'York' });
  t.ok(await settledAt(hot.id));
  t.same(await changes(hot.id), [], 'one player on both seats: not rated');

  const active = await game(a, b);
  t.equal(await svc.settleGame(active.id), false, 'a game still being played is not settled');
  t.equal(await settledAt(active.id), null);
  t.equal(await ratingRow(a.playerId), undefined);
  t.equal(await ratingRow(b.playerId), undefined);

  await rejects(t, svc.createGame(a, { gameType: GT, scenario: GT, rated: 'yes' as unknown as boolean }), 'invalid_request', 'rated must be a boolean');
});

t.test('concurrent settlements of one game: exactly one settles it', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b);
  await svc.resign(a, g.id, {});
  const once = await ratingRow(b.playerId);
  await unsettle(g.id, [a.playerId, b.playerId]);
  const results = await Promise.all(Array.from({ length: 6 }, () => svc.settleGame(g.id)));
  t.equal(results.filter(Boolean).length, 1, 'one call settled it');
  t.equal((await changes(g.id)).length, 2);
  const again = await ratingRow(b.playerId);
  t.match(again, { games: 1, wins: 1, losses: 0 });
  t.equal(again!.rating, once!.rating, 'the same rating as the first settlement');
});

t.test('two rated games of one player ending at once: both counted, neither update lost', async (t) => {
  const e = await player();
  const f = await player();
  const h = await player();
  const g1 = await game(e, f);
  const g2 = await game(h, e);
  // e wins g1 (f resigns) and loses g2 (e resigns) at the same time.
  await Promise.all([svc.resign(f, g1.id, {}), svc.resign(e, g2.id, {})]);
  const re = (await ratingRow(e.playerId))!;
  t.match(re, { games: 2, wins: 1, losses: 1 });
  const c1 = (await changes(g1.id)).find((c) => c.player_id === e.playerId)!;
  const c2 = (await changes(g2.id)).find((c) => c.player_id === e.playerId)!;
  // Whichever settled second started from the first one's result.
  const [first, second] = c1.at.getTime() <= c2.at.getTime() && c2.rating_before !== 1500 ? [c1, c2] : [c2, c1];
  t.equal(first.rating_before, 1500);
  t.equal(second.rating_before, first.rating, 'the second game started from the first one\'s rating');
  t.equal(re.rating, second.rating);
  // And the numbers are rateGame's, in that order.
  const atFirst = first.at.getTime();
  const atSecond = second.at.getTime();
  const firstScore = first === c1 ? 1 : 0;
  const [afterFirst] = firstScore === 1 ? rateGame(fresh(atFirst), fresh(atFirst), 1, atFirst) : rateGame(fresh(atFirst), fresh(atFirst), 0, atFirst);
  t.equal(first.rating, afterFirst.rating);
  const opponentSecond = await ratingRow(first === c1 ? h.playerId : f.playerId);
  t.equal(opponentSecond!.games, 1);
  const eBefore: Rating = { ...afterFirst, updatedAt: atFirst };
  const oppBefore = fresh(atSecond);
  const secondScore = (1 - firstScore) as 0 | 1;
  const [eAfter] = rateGame(eBefore, oppBefore, secondScore, atSecond);
  t.equal(re.rating, eAfter.rating);
  t.equal(re.rd, eAfter.rd);
});

t.test('the sweep settles games left unsettled (a crash after the commit)', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b);
  await svc.resign(b, g.id, {});
  const expected = await ratingRow(a.playerId);
  await unsettle(g.id, [a.playerId, b.playerId]);
  // A game whose end was committed by something that never settled it.
  const c = await player();
  const d = await player();
  const g2 = await game(c, d);
  await db.query(`UPDATE games SET status = 'finished', active_roles = '{}', result = '{"winner": "Lancaster", "reason": "test"}' WHERE id = $1`, [g2.id]);
  // And an unrated one, for the quick path.
  const g3 = await game(c, d, { rated: false });
  await db.query(`UPDATE games SET status = 'finished', result = '{"winner": "York", "reason": "test"}' WHERE id = $1`, [g3.id]);

  const settled = await svc.sweepUnsettled();
  t.ok(settled >= 3, `settled ${settled}`);
  t.ok(await settledAt(g.id));
  t.ok(await settledAt(g2.id));
  t.ok(await settledAt(g3.id));
  const ra = (await ratingRow(a.playerId))!;
  t.equal(ra.games, 1);
  t.equal(ra.wins, 1);
  t.equal(ra.rating, expected!.rating, 'the same ratings the settlement right after the game gave');
  t.match(await ratingRow(d.playerId), { games: 1, wins: 1 });
  t.match(await ratingRow(c.playerId), { games: 1, losses: 1 });
  t.equal(await svc.sweepUnsettled(), 0, 'nothing left');
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM games WHERE status IN ('finished', 'abandoned') AND settled_at IS NULL`);
  t.equal(rows[0].n, 0);
});

t.test('leaderboard: by rating, provisional ratings left out unless asked for, ranks, pages', async (t) => {
  await db.query('DELETE FROM rating_changes');
  await db.query('DELETE FROM ratings');
  const now = Date.now();
  const yearsAgo = new Date(now - 2 * 365 * 86_400_000);
  const ps = await Promise.all(['L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'L7'].map((name) => player(name)));
  const set = async (p: Caller, rating: number, rd: number, updated: Date = new Date(now)) =>
    db.query('INSERT INTO ratings (player_id, game_type, rating, rd, vol, games, updated_at) VALUES ($1, $2, $3, $4, 0.06, 10, $5)', [p.playerId, GT, rating, rd, updated]);
  await set(ps[0]!, 1700.04, 50);
  await set(ps[1]!, 1650, 60);
  await set(ps[2]!, 1650, 60);
  await set(ps[3]!, 1600, 200); // provisional: RD above 110
  await set(ps[4]!, 1800, 100, yearsAgo); // provisional once aged: two years without games
  await set(ps[5]!, 1550, 80);
  await set(ps[6]!, 1500, 109.9);
  const tied = [ps[1]!.playerId, ps[2]!.playerId].sort();
  const established = [ps[0]!.playerId, ...tied, ps[5]!.playerId, ps[6]!.playerId];

  const all = await svc.getLeaderboard(GT);
  t.same(all.items.map((e) => e.player.id), established, 'rating desc, then player id');
  t.same(all.items.map((e) => e.rank), [1, 2, 3, 4, 5]);
  t.equal(all.nextCursor, null);
  t.match(all.items[0], { rating: 1700, rd: 50, games: 10, provisional: false, player: { name: 'L1', isBot: false } });

  const pages: string[] = [];
  const ranks: number[] = [];
  let cursor: string | undefined;
  let count = 0;
  do {
    const page = await svc.getLeaderboard(GT, { limit: 2, ...(cursor ? { cursor } : {}) });
    t.ok(page.items.length <= 2);
    pages.push(...page.items.map((e) => e.player.id));
    ranks.push(...page.items.map((e) => e.rank));
    cursor = page.nextCursor ?? undefined;
    count++;
  } while (cursor && count < 10);
  t.same(pages, established, 'the pages together are the whole list');
  t.same(ranks, [1, 2, 3, 4, 5]);
  t.equal(count, 3);

  const withProv = await svc.getLeaderboard(GT, { includeProvisional: true });
  t.same(withProv.items.map((e) => e.player.id), [ps[4]!.playerId, ps[0]!.playerId, ...tied, ps[3]!.playerId, ps[5]!.playerId, ps[6]!.playerId]);
  const aged = withProv.items[0]!;
  t.equal(aged.provisional, true);
  const periods = Math.floor((now - yearsAgo.getTime()) / (7 * 86_400_000));
  t.equal(aged.rd, round1(inflateRd(100, 0.06, periods)), 'RD aged for the weeks without games');
  t.ok(aged.rd > 110);
  t.same(withProv.items.map((e) => e.provisional), [true, false, false, false, true, false, false]);
  const second = await svc.getLeaderboard(GT, { includeProvisional: true, limit: 3, cursor: (await svc.getLeaderboard(GT, { includeProvisional: true, limit: 3 })).nextCursor! });
  t.same(second.items.map((e) => e.rank), [4, 5, 6]);

  await rejects(t, svc.getLeaderboard('no-such-game'), 'not_found', 'unknown game type');
  await rejects(t, svc.getLeaderboard('__proto__'), 'not_found', '__proto__ is no game type');
  await rejects(t, svc.getLeaderboard(GT, { limit: 0 }), 'invalid_request', 'limit 0');
  await rejects(t, svc.getLeaderboard(GT, { limit: 101 }), 'invalid_request', 'limit 101');
  await rejects(t, svc.getLeaderboard(GT, { cursor: 'garbage' }), 'invalid_request', 'bad cursor');
  await rejects(t, svc.getLeaderboard(GT, { cursor: Buffer.from('["x","y"]').toString('base64url') }), 'invalid_request', 'forged cursor');
});

t.test('profiles: provisional flag, leagues (unlisted ones only for oneself), private games, 404s', async (t) => {
  const a = await player('Cleo');
  const b = await player('Dan');
  const c = await player('Eve');
  const pub = await game(a, b);
  await svc.resign(b, pub.id, {});
  const priv = await game(a, b, { visibility: 'private' });
  await svc.resign(a, priv.id, {});

  const anon = await svc.getPlayerProfile(null, a.playerId);
  t.same(anon.recentResults.map((r) => r.gameId), [pub.id], 'a private game is not shown to others');
  t.same((await svc.getPlayerProfile(c, a.playerId)).recentResults.map((r) => r.gameId), [pub.id]);
  const own = await svc.getPlayerProfile(a, a.playerId);
  t.same(own.recentResults.map((r) => [r.gameId, r.outcome]), [[priv.id, 'loss'], [pub.id, 'win']], 'newest first');
  t.equal(own.ratings[0]!.games, 2);
  t.equal(own.ratings[0]!.provisional, true, 'two games: RD still above 110');
  const hist = await svc.getRatingHistory(null, a.playerId, GT);
  t.same(hist.items.map((h) => h.gameId), [pub.id], 'history leaves out games the caller may not see');
  const mine = await svc.getRatingHistory(a, a.playerId, GT, { limit: 1 });
  t.same(mine.items.map((h) => h.gameId), [priv.id]);
  t.ok(mine.nextCursor);
  const next = await svc.getRatingHistory(a, a.playerId, GT, { limit: 1, cursor: mine.nextCursor! });
  t.same(next.items.map((h) => h.gameId), [pub.id]);
  t.equal(next.nextCursor, null);
  t.equal(next.items[0]!.rating, mine.items[0]!.ratingBefore, 'each entry starts where the one before ended');

  // An established rating is not provisional.
  await db.query('UPDATE ratings SET rd = 80, updated_at = now() WHERE player_id = $1', [a.playerId]);
  t.equal((await svc.getPlayerProfile(null, a.playerId)).ratings[0]!.provisional, false);

  // Leagues: a public one a entered, an unlisted one a organises, a game of the first as a board.
  const l1 = randomUUID();
  const l2 = randomUUID();
  await db.query(
    `INSERT INTO leagues (id, name, visibility, game_type, format, settings, seed, created_by_id, updated_at) VALUES
      ($1, 'Autumn Swiss', 'public', $3, 'swiss', '{}', 's', $4, now()), ($2, 'Club RR', 'unlisted', $3, 'round-robin', '{}', 's', $4, now())`,
    [l1, l2, GT, c.playerId],
  );
  await db.query(`INSERT INTO league_entrants (league_id, player_id, status) VALUES ($1, $2, 'withdrawn')`, [l1, a.playerId]);
  await db.query(`INSERT INTO league_organisers (league_id, player_id, role) VALUES ($1, $2, 'co'), ($1, $3, 'owner'), ($4, $3, 'owner')`, [l2, a.playerId, c.playerId, l1]);
  await db.query(`INSERT INTO league_pairings (id, league_id, round, board, first_id, second_id, game_id, result, source) VALUES ($1, $2, 1, 1, $3, $4, $5, 'first', 'game')`, [randomUUID(), l1, a.playerId, b.playerId, pub.id]);
  const withLeagues = await svc.getPlayerProfile(null, a.playerId);
  t.same(withLeagues.leagues, [{ league: { id: l1, name: 'Autumn Swiss', gameType: GT, format: 'swiss', status: 'registration' }, status: 'withdrawn', organiser: false }]);
  t.equal(withLeagues.recentResults.find((r) => r.gameId === pub.id)!.leagueId, l1);
  const ownLeagues = await svc.getPlayerProfile(a, a.playerId);
  t.same(ownLeagues.leagues.map((l) => [l.league.name, l.status, l.organiser]).sort(), [['Autumn Swiss', 'withdrawn', false], ['Club RR', null, true]]);
  t.same((await svc.getPlayerProfile(null, c.playerId)).leagues.map((l) => [l.league.name, l.organiser]), [['Autumn Swiss', true]], 'organiser of a public league');

  await rejects(t, svc.getPlayerProfile(null, randomUUID()), 'not_found', 'unknown player');
  await rejects(t, svc.getPlayerProfile(null, 'not-a-uuid'), 'not_found', 'malformed id');
  const app = await svc.createApp({ kind: 'admin', playerId: '', keyId: '' }, { name: 'An app' });
  await rejects(t, svc.getPlayerProfile(null, app.app.id), 'not_found', 'an application account has no profile');
  await rejects(t, svc.getRatingHistory(null, a.playerId, 'no-such-game'), 'not_found', 'history: unknown game type');
  await rejects(t, svc.getRatingHistory(null, randomUUID(), GT), 'not_found', 'history: unknown player');
  await rejects(t, svc.getRatingHistory(null, a.playerId, GT, { limit: 1000 }), 'invalid_request', 'history: limit');
  await rejects(t, svc.getRatingHistory(null, a.playerId, GT, { cursor: 'x' }), 'invalid_request', 'history: cursor');
  const nobody = await player();
  const info = await svc.getPlayer(nobody);
  t.same(await svc.getPlayerProfile(null, nobody.playerId), {
    player: { id: nobody.playerId, name: info.name, isBot: false, createdAt: info.createdAt },
    ratings: [], leagues: [], recentResults: [],
  }, 'a new player: an empty profile');
  t.same(await svc.getRatingHistory(null, nobody.playerId, GT), { items: [], nextCursor: null });
});
