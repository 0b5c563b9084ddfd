/**
 * An independent reference for the end-to-end league tests: standings, FIDE tie-breaks, Swiss
 * pairing rules and Glicko-2, written from the definitions (FIDE Handbook C.07, Glickman's
 * "Example of the Glicko-2 system") and NOT from src/leagues/. It imports nothing from src/, so
 * a mistake shared by Herald's code and this file would have to be made twice.
 *
 * Kept deliberately small: the e2e leagues have even fields (16 players in a Swiss, 6 in a
 * double round robin: no byes) and no withdrawals, so that FIDE's rules for unplayed rounds
 * (C.07 Art. 16: adjusted scores, dummy opponents) never come in for the Swiss, and
 * `referenceStandings` refuses such input rather than guess at it. The one unplayed game is a
 * forfeit an organiser awards in the round robin, where the rule is simple (see
 * referenceStandings). Herald documents (src/leagues/standings.ts) that it follows the 2024
 * regulations; for what is modelled here the 2024 and 2009 rules agree.
 */

export interface RefPoints {
  win: number;
  draw: number;
  loss: number;
}

/**
 * One board. `first`/`second`: the two seats' players; result: who won, over the board or
 * (forfeit-first / forfeit-second) by forfeit, the game not played.
 */
export interface RefGame {
  round: number;
  first: string;
  second: string;
  result: 'first' | 'second' | 'draw' | 'forfeit-first' | 'forfeit-second';
}

export type RefTieBreak = 'buchholz' | 'buchholz-cut1' | 'sonneborn-berger' | 'wins' | 'direct-encounter';

export interface RefRow {
  id: string;
  points: number;
  /** Over the board (forfeits are not games played). */
  played: number;
  won: number;
  drawn: number;
  lost: number;
  forfeitsWon: number;
  forfeitsLost: number;
  /** Per seat, over the board: games, wins, draws, losses. */
  asFirst: { played: number; won: number; drawn: number; lost: number };
  asSecond: { played: number; won: number; drawn: number; lost: number };
  tieBreaks: Partial<Record<RefTieBreak, number>>;
}

export interface RefStandings {
  rows: Map<string, RefRow>;
  /**
   * The ranking as ordered groups: players inside one group stay tied after points and every
   * tie-break (their order is Herald's final order: seed, rating, id — not checked here).
   */
  groups: string[][];
}

interface Encounter {
  opponent: string;
  /** Points this player scored in the round. */
  scored: number;
  outcome: 'win' | 'draw' | 'loss';
  /** False for a forfeit. */
  played: boolean;
}

/** What each player scored against whom, from the games. */
function encounters(players: readonly string[], games: readonly RefGame[], points: RefPoints): Map<string, Encounter[]> {
  const out = new Map(players.map((p) => [p, [] as Encounter[]]));
  for (const g of games) {
    const a = out.get(g.first);
    const b = out.get(g.second);
    if (!a || !b || g.first === g.second) throw new Error(`reference: bad game ${JSON.stringify(g)}`);
    const played = !g.result.startsWith('forfeit');
    const winner = g.result.replace('forfeit-', '');
    const fo = winner === 'first' ? 'win' : winner === 'draw' ? 'draw' : 'loss';
    const so = winner === 'second' ? 'win' : winner === 'draw' ? 'draw' : 'loss';
    a.push({ opponent: g.second, scored: points[fo], outcome: fo, played });
    b.push({ opponent: g.first, scored: points[so], outcome: so, played });
  }
  return out;
}

/**
 * Direct encounter (C.07 Art. 6) for a group that has all met (always so in a round robin):
 * points scored against the other members of the group; where a pair met several times (a
 * double round robin), Herald counts the average of those games (its documented reading of
 * 6.1.2), so this does too. Returns each member's value.
 */
function directEncounter(group: readonly string[], enc: Map<string, Encounter[]>): Map<string, number> {
  const values = new Map<string, number>();
  for (const p of group) {
    let total = 0;
    for (const q of group) {
      if (q === p) continue;
      // Games over the board only: a forfeit is not an encounter (Herald's reading, standings.ts).
      const games = enc.get(p)!.filter((e) => e.opponent === q && e.played);
      if (games.length === 0) throw new Error(`reference: direct encounter needs ${p} and ${q} to have met`);
      total += games.reduce((s, e) => s + e.scored, 0) / games.length;
    }
    values.set(p, total);
  }
  return values;
}

/**
 * Points and tie-breaks from the definitions:
 * - Buchholz (Art. 8): the sum of the opponents' scores.
 * - Buchholz Cut-1 (Art. 8, 14.1): Buchholz without the lowest opponent score.
 * - Sonneborn–Berger (Art. 9): the sum over games of the opponent's score times the points
 *   scored against them (so a win adds the whole score, a draw its half with 1/½/0 points).
 * - wins (Art. 7, WIN): rounds won, forfeit wins included.
 * - direct encounter (Art. 6): see directEncounter; applied to each group still tied when it
 *   comes up in the order, and again inside a smaller group that is still tied.
 * `rounds`: every player must have a board in each round 1…rounds (no byes, no absences).
 * Forfeits only with `roundRobin`: a round robin has no dummy opponents, so a game not played
 * adds nothing to Buchholz or Sonneborn–Berger, for either player (Herald's documented
 * convention, FIDE's for round robins); and since a forfeit has a scheduled opponent, the
 * forfeiting player's score counts as it is for their opponents (Art. 16.3). In a Swiss the
 * 2024 rules give unplayed rounds a dummy opponent, which this reference does not model.
 */
export function referenceStandings(
  players: readonly string[],
  games: readonly RefGame[],
  opts: { points: RefPoints; tieBreaks: readonly RefTieBreak[]; rounds: number; roundRobin?: boolean },
): RefStandings {
  const enc = encounters(players, games, opts.points);
  if (!opts.roundRobin && games.some((g) => g.result.startsWith('forfeit'))) {
    throw new Error('reference: forfeits are modelled in round robins only');
  }
  for (const p of players) {
    const rounds = games.filter((g) => g.first === p || g.second === p).map((g) => g.round).sort((a, b) => a - b);
    const expected = Array.from({ length: opts.rounds }, (_, i) => i + 1);
    // A double round robin has one board a round too (each cycle is its own set of rounds).
    if (JSON.stringify(rounds) !== JSON.stringify(expected)) {
      throw new Error(`reference: ${p} has boards in rounds ${rounds.join(',')}, expected one in each of 1…${opts.rounds} (byes and absences are not modelled)`);
    }
  }
  const score = new Map(players.map((p) => [p, enc.get(p)!.reduce((s, e) => s + e.scored, 0)]));
  const rows = new Map<string, RefRow>();
  for (const p of players) {
    const all = enc.get(p)!;
    const mine = all.filter((e) => e.played);
    const oppScores = mine.map((e) => score.get(e.opponent)!);
    const buchholz = oppScores.reduce((s, x) => s + x, 0);
    const side = (seat: 'first' | 'second') => {
      const gs = games.filter((g) => g[seat] === p && !g.result.startsWith('forfeit'));
      const won = gs.filter((g) => g.result === seat).length;
      const drawn = gs.filter((g) => g.result === 'draw').length;
      return { played: gs.length, won, drawn, lost: gs.length - won - drawn };
    };
    const tb: Partial<Record<RefTieBreak, number>> = {
      buchholz,
      'buchholz-cut1': buchholz - (oppScores.length ? Math.min(...oppScores) : 0),
      'sonneborn-berger': mine.reduce((s, e) => s + score.get(e.opponent)! * e.scored, 0),
      wins: all.filter((e) => e.outcome === 'win').length,
    };
    rows.set(p, {
      id: p,
      points: score.get(p)!,
      played: mine.length,
      won: mine.filter((e) => e.outcome === 'win').length,
      drawn: mine.filter((e) => e.outcome === 'draw').length,
      lost: mine.filter((e) => e.outcome === 'loss').length,
      forfeitsWon: all.filter((e) => !e.played && e.outcome === 'win').length,
      forfeitsLost: all.filter((e) => !e.played && e.outcome === 'loss').length,
      asFirst: side('first'),
      asSecond: side('second'),
      tieBreaks: tb,
    });
  }

  // Split a tied group by one value, highest first.
  const splitBy = (group: string[], value: (p: string) => number): string[][] => {
    const keys = [...new Set(group.map(value))].sort((a, b) => b - a);
    return keys.map((k) => group.filter((p) => value(p) === k));
  };
  const rank = (group: string[], level: number): string[][] => {
    if (group.length <= 1 || level === opts.tieBreaks.length) return [group];
    const tb = opts.tieBreaks[level];
    if (tb === 'direct-encounter') {
      const de = directEncounter(group, enc);
      // Herald reports the value from the last group DE was applied to.
      for (const p of group) rows.get(p)!.tieBreaks['direct-encounter'] = de.get(p)!;
      return splitBy(group, (p) => de.get(p)!).flatMap((sub) =>
        sub.length > 1 && sub.length < group.length ? rank(sub, level) : rank(sub, level + 1));
    }
    return splitBy(group, (p) => rows.get(p)!.tieBreaks[tb]!).flatMap((sub) => rank(sub, level + 1));
  };
  const groups = splitBy([...players], (p) => score.get(p)!).flatMap((g) => rank(g, 0));
  // A player never compared by DE (alone in their points group) still shows a value: 0 in Herald's
  // answer. Leave it unset here; the test compares DE only where the reference computed it.
  return { rows, groups };
}

// ─── Swiss pairing rules ────────────────────────────────────────────────────

export interface RefPairing {
  first: string;
  second: string;
}

/** Sides each player has had, oldest first, from the rounds before (pairings only). */
export function sideHistory(rounds: readonly (readonly RefPairing[])[]): Map<string, ('first' | 'second')[]> {
  const h = new Map<string, ('first' | 'second')[]>();
  const add = (p: string, s: 'first' | 'second') => h.set(p, [...(h.get(p) ?? []), s]);
  for (const r of rounds) for (const { first, second } of r) {
    add(first, 'first');
    add(second, 'second');
  }
  return h;
}

/**
 * The side rules for one player taking side `s` after `history`: nobody more than one
 * game ahead on one side after the round, never three in a row on one side.
 */
export function sideAllowed(history: readonly ('first' | 'second')[], s: 'first' | 'second'): boolean {
  const after = [...history, s];
  const diff = after.reduce((d, x) => d + (x === 'first' ? 1 : -1), 0);
  const n = after.length;
  const three = n >= 3 && after[n - 1] === after[n - 2] && after[n - 2] === after[n - 3];
  return Math.abs(diff) <= 1 && !three;
}

/**
 * The least total score-group distance a pairing of `players` can have: the sum over pairs of
 * (g − h)², g and h the pair's score-group positions (groups = distinct scores, highest first)
 * — the measure Herald documents for "pair within score groups, float as little as possible"
 * (src/leagues/swiss.ts header) — over every perfect matching without a rematch in which both
 * players of each pair can take sides within the side rules. Exhaustive search over subsets
 * (bitmask dynamic programming), not a matching algorithm: 2^16 states for 16 players.
 * Returns null when no such matching exists.
 */
export function minimalScoreDistance(
  players: readonly string[],
  scores: ReadonlyMap<string, number>,
  met: (a: string, b: string) => boolean,
  sides: ReadonlyMap<string, readonly ('first' | 'second')[]>,
): number | null {
  const n = players.length;
  if (n > 20 || n % 2 === 1) throw new Error('reference: up to 20 players, an even number');
  const distinct = [...new Set(players.map((p) => scores.get(p)!))].sort((a, b) => b - a);
  const group = players.map((p) => distinct.indexOf(scores.get(p)!));
  const ok = (i: number, j: number) => {
    if (met(players[i], players[j])) return false;
    const hi = sides.get(players[i]) ?? [];
    const hj = sides.get(players[j]) ?? [];
    return (sideAllowed(hi, 'first') && sideAllowed(hj, 'second')) || (sideAllowed(hi, 'second') && sideAllowed(hj, 'first'));
  };
  const INF = Number.POSITIVE_INFINITY;
  const best = new Float64Array(1 << n).fill(-1);
  const solve = (mask: number): number => {
    if (mask === 0) return 0;
    if (best[mask] >= 0) return best[mask];
    let i = 0;
    while (!(mask & (1 << i))) i++;
    let min = INF;
    for (let j = i + 1; j < n; j++) {
      if (!(mask & (1 << j)) || !ok(i, j)) continue;
      const rest = solve(mask & ~(1 << i) & ~(1 << j));
      const d = group[i] - group[j];
      if (rest + d * d < min) min = rest + d * d;
    }
    best[mask] = min;
    return min;
  };
  const v = solve((1 << n) - 1);
  return v === INF ? null : v;
}

/** The score-group distance of an actual pairing, measured as minimalScoreDistance does. */
export function scoreDistance(pairs: readonly RefPairing[], scores: ReadonlyMap<string, number>): number {
  const distinct = [...new Set([...scores.values()])].sort((a, b) => b - a);
  return pairs.reduce((s, p) => {
    const d = distinct.indexOf(scores.get(p.first)!) - distinct.indexOf(scores.get(p.second)!);
    return s + d * d;
  }, 0);
}

// ─── Glicko-2 ───────────────────────────────────────────────────────────────

export interface RefRating {
  rating: number;
  rd: number;
  vol: number;
}

export const GLICKO_SCALE = 173.7178;
export const REF_TAU = 0.5;
export const REF_START: RefRating = { rating: 1500, rd: 350, vol: 0.06 };

const g = (phi: number) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu: number, muJ: number, phiJ: number) => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

/**
 * One rating period of Glickman's paper, steps 1–8, with τ and the convergence tolerance
 * ε = 0.000001 of its example; step 5 by the Illinois algorithm as the paper gives it.
 */
export function glicko2Period(
  player: RefRating,
  results: readonly { opponent: { rating: number; rd: number }; score: number }[],
  tau = REF_TAU,
): RefRating {
  // Step 2: to the Glicko-2 scale.
  const mu = (player.rating - 1500) / GLICKO_SCALE;
  const phi = player.rd / GLICKO_SCALE;
  const sigma = player.vol;
  if (results.length === 0) {
    // Step 6 alone when the player did not compete.
    return { rating: player.rating, rd: Math.sqrt(phi * phi + sigma * sigma) * GLICKO_SCALE, vol: sigma };
  }
  const opp = results.map((r) => ({ mu: (r.opponent.rating - 1500) / GLICKO_SCALE, phi: r.opponent.rd / GLICKO_SCALE, s: r.score }));
  // Step 3: estimated variance v.
  let inv = 0;
  for (const o of opp) {
    const E = expected(mu, o.mu, o.phi);
    inv += g(o.phi) ** 2 * E * (1 - E);
  }
  const v = 1 / inv;
  // Step 4: estimated improvement Δ.
  let sum = 0;
  for (const o of opp) sum += g(o.phi) * (o.s - expected(mu, o.mu, o.phi));
  const delta = v * sum;
  // Step 5: new volatility, Illinois algorithm.
  const a = Math.log(sigma * sigma);
  const f = (x: number) => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau);
  };
  const eps = 0.000001;
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > eps) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  const sigmaNew = Math.exp(A / 2);
  // Step 6: pre-period RD.
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  // Step 7: new RD and rating.
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  // Step 8: back to the Glicko scale.
  return { rating: GLICKO_SCALE * muNew + 1500, rd: GLICKO_SCALE * phiNew, vol: sigmaNew };
}

/**
 * Replays rated games in the order given, each game its own rating period for both players
 * (as Herald, like Lichess, does), both updates from the two pre-game ratings, RD never above
 * the starting 350 (the paper's advice for an unrated player's RD).
 *
 * Herald also grows RD for inactivity, one step-6 period per 7 days without a game
 * (src/leagues/ratings.ts, periodDays). The e2e tests finish every game within minutes, so no
 * such period passes and none is applied here.
 */
export function replayRatings(games: readonly { a: string; b: string; scoreA: number }[]): Map<string, RefRating & { games: number }> {
  const r = new Map<string, RefRating & { games: number }>();
  const get = (p: string) => r.get(p) ?? { ...REF_START, games: 0 };
  for (const game of games) {
    const before = { a: get(game.a), b: get(game.b) };
    const na = glicko2Period(before.a, [{ opponent: before.b, score: game.scoreA }]);
    const nb = glicko2Period(before.b, [{ opponent: before.a, score: 1 - game.scoreA }]);
    r.set(game.a, { ...na, rd: Math.min(na.rd, REF_START.rd), games: before.a.games + 1 });
    r.set(game.b, { ...nb, rd: Math.min(nb.rd, REF_START.rd), games: before.b.games + 1 });
  }
  return r;
}
