/**
 * Standings: points and tie-breaks as the FIDE Tie-Break Regulations (in force from
 * 1 August 2024, Handbook C.07) define them, in the league's configured order, then a
 * deterministic final order (seed, rating, id) where FIDE would draw lots.
 *
 * All arithmetic is on integers: points in half-point units; Sonneborn–Berger, a product of two
 * scores, in quarter-point units. Ties are therefore exact and values convert back to numbers
 * only for output.
 *
 * Unplayed rounds (FIDE C.07 Article 16), the part that is easy to get wrong:
 * - 16.2: a round is a "voluntarily unplayed round" (VUR) when the player did not make
 *   themselves available: a requested half- or zero-point bye, a forfeit loss (also each side
 *   of a double forfeit), or no pairing at all (absent, late entry, withdrawn). A
 *   pairing-allocated bye, a full-point bye and a forfeit win are not VURs.
 * - 16.3 (the player's score as seen by opponents, "adjusted score"): rounds up to the player's
 *   last non-VUR round, and any round with a scheduled opponent, count as scored; rounds after
 *   that last round without an opponent count as draws (16.3.2), so withdrawing does not drag
 *   the opponents' Buchholz down.
 * - 16.4 (the player's own Buchholz): each round not played over the board counts as a game
 *   against a dummy opponent whose score is the player's own final score.
 * - Sonneborn–Berger (Art. 9) multiplies each contribution by the points scored in that round,
 *   so a forfeit loss (0) adds nothing: the forfeiting player gets no SB from it.
 * - 14.x (Cut modifiers): when cutting the least significant value, a VUR contribution is cut
 *   first if there is one.
 *
 * `unplayedRounds: 'fide-2009'` selects the earlier rules instead (2009 regulations, used
 * until 2023 and still common in club software): for the opponents' tie-breaks every unplayed
 * game of a player counts as a draw; for the player's own Buchholz and SB an unplayed round R
 * is a game against a virtual opponent who starts with the player's score before R, gets the
 * opposite of the player's result in R, and draws every later round:
 *   S_von = S_before(R) + (win − points(R)) + draw × (n − R);
 * and cuts drop the lowest value, with no VUR rule.
 *
 * In a round robin (`roundRobin: true`), as FIDE does for round robins, rounds without a
 * game over the board add nothing to Buchholz or Sonneborn–Berger (there is no dummy opponent).
 */
import {
  DEFAULT_POINTS, playerRounds, pointUnits, roundCount,
  type Entrant, type PlayerId, type PlayerRounds, type PointsConfig, type RoundRecord, type RoundView, type Side, type Units,
} from './results.ts';

export type TieBreak =
  /** BH (Art. 8): sum of the opponents' adjusted scores. */
  | 'buchholz'
  /** BH-C1 (Art. 8 with 14.1): Buchholz without the least significant value. */
  | 'buchholz-cut1'
  /** BH-M1 (Art. 8 with 14.3): Buchholz without the least and the most significant values. */
  | 'median-buchholz'
  /** SB (Art. 9): sum of opponents' adjusted scores times the points scored against them. */
  | 'sonneborn-berger'
  /** DE (Art. 6): points scored against the other tied players (see directEncounter). */
  | 'direct-encounter'
  /** WIN (Art. 7): rounds won, with or without playing (forfeit wins and full-point byes count). */
  | 'wins'
  /** WON (Art. 7): games won over the board. */
  | 'wins-played'
  /** BWG analogue (Art. 7): games won over the board on the harder side. */
  | 'harder-side-wins'
  /** BPG analogue (Art. 7): games played over the board on the harder side. */
  | 'harder-side-games'
  /** PS (Art. 7): sum of the running score after each round. */
  | 'progressive';

export const TIE_BREAKS: readonly TieBreak[] = [
  'buchholz', 'buchholz-cut1', 'median-buchholz', 'sonneborn-berger', 'direct-encounter',
  'wins', 'wins-played', 'harder-side-wins', 'harder-side-games', 'progressive',
];

export interface StandingsConfig {
  points?: PointsConfig;
  /** Applied in this order after points. */
  tieBreaks?: readonly TieBreak[];
  /** Names of the two roles, for per-side records and exports. */
  roles?: { first: string; second: string };
  /** Which side is harder to win with, unless a game says otherwise. */
  harderSide?: Side;
  /** Number of rounds so far (defaults to the last round with a record). */
  rounds?: number;
  /** Round-robin rules for unplayed rounds (no dummy opponents). */
  roundRobin?: boolean;
  /** Which FIDE rules for unplayed rounds: the 2024 regulations (default) or the 2009 ones. */
  unplayedRounds?: 'fide-2024' | 'fide-2009';
}

export interface SideRecord {
  played: number;
  won: number;
  drawn: number;
  lost: number;
}

export interface Standing {
  rank: number;
  id: PlayerId;
  points: number;
  /** Values of the configured tie-breaks (DE: score against the group it was last applied to). */
  tieBreaks: Partial<Record<TieBreak, number>>;
  played: number;
  won: number;
  drawn: number;
  lost: number;
  forfeitsWon: number;
  forfeitsLost: number;
  byes: number;
  /** Played games per role name. */
  perSide: Record<string, SideRecord>;
  /** True when the tie-breaks left this player tied with a neighbour and the final order decided. */
  decidedByFinalOrder: boolean;
}

export interface StandingsResult {
  rounds: number;
  roles: { first: string; second: string };
  points: PointsConfig;
  tieBreaks: TieBreak[];
  standings: Standing[];
}

const isPlayed = (v: RoundView): v is Extract<RoundView, { type: 'played' }> => v.type === 'played';
const hasOpponent = (v: RoundView) => v.type === 'played' || v.type === 'forfeit-win' || v.type === 'forfeit-loss';

/** Art. 16.2: voluntarily unplayed round. */
export function isVur(v: RoundView): boolean {
  switch (v.type) {
    case 'played':
    case 'forfeit-win':
      return false;
    case 'forfeit-loss':
    case 'absent':
      return true;
    case 'bye':
      return !v.allocated && v.size !== 'full';
  }
}

/** 2009 rules: as an opponent, every unplayed game counts as a draw. */
function adjustedScore2009(p: PlayerRounds, u: Units): number {
  return p.rounds.reduce((sum, v) => sum + (isPlayed(v) ? v.units : u.draw), 0);
}

/** 2009 rules: the virtual opponent's final score for the player's unplayed round `r` (1-based). */
function virtualOpponent(p: PlayerRounds, r: number, u: Units): number {
  const before = p.rounds.slice(0, r - 1).reduce((sum, v) => sum + v.units, 0);
  return before + (u.win - p.rounds[r - 1].units) + u.draw * (p.rounds.length - r);
}

/** Art. 16.3: the player's score as counted in their opponents' tie-breaks (half-point units). */
function adjustedScore(p: PlayerRounds, u: Units): number {
  let lastAvailable = 0;
  p.rounds.forEach((v, i) => {
    if (!isVur(v)) lastAvailable = i + 1;
  });
  let total = 0;
  p.rounds.forEach((v, i) => {
    total += i + 1 <= lastAvailable || hasOpponent(v) ? v.units : u.draw;
  });
  return total;
}

interface Contribution {
  value: number;
  vur: boolean;
}

/** Art. 14.1/14.3 with the VUR rule: drop `low` least (VURs first) and `high` most significant. */
function cut(contribs: readonly Contribution[], low: number, high: number): number {
  let rest = [...contribs];
  for (let i = 0; i < low && rest.length > 0; i++) {
    const pool = rest.some((c) => c.vur) ? rest.filter((c) => c.vur) : rest;
    const min = pool.reduce((a, b) => (b.value < a.value ? b : a));
    rest.splice(rest.indexOf(min), 1);
  }
  for (let i = 0; i < high && rest.length > 0; i++) {
    const max = rest.reduce((a, b) => (b.value > a.value ? b : a));
    rest.splice(rest.indexOf(max), 1);
  }
  return rest.reduce((s, c) => s + c.value, 0);
}

interface Computed {
  entrant: Entrant;
  rounds: PlayerRounds;
  /** Exact integer value per tie-break (DE filled in per group). */
  values: Partial<Record<TieBreak, number>>;
  /** Divisor that turns `values[tb]` into points. */
}

const DIVISOR: Record<TieBreak, number> = {
  buchholz: 2, 'buchholz-cut1': 2, 'median-buchholz': 2, 'sonneborn-berger': 4, 'direct-encounter': 2,
  wins: 1, 'wins-played': 1, 'harder-side-wins': 1, 'harder-side-games': 1, progressive: 2,
};

function compareFinal(a: Entrant, b: Entrant): number {
  const sa = a.seed ?? Infinity;
  const sb = b.seed ?? Infinity;
  if (sa !== sb) return sa - sb;
  const ra = a.rating ?? -Infinity;
  const rb = b.rating ?? -Infinity;
  if (ra !== rb) return rb - ra;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Art. 6 (direct encounter), applied to a group still tied. Returns the group split into
 * ordered subgroups (players in one subgroup stay tied) and each player's DE score in points.
 * - Only games played over the board between members count; forfeits are not encounters.
 * - Several games against the same opponent (a double round robin) count as their average
 *   (6.1.2), kept exact with a common denominator.
 * - If every member has met every other, members are ordered by DE score.
 * - If not, a member ranks ahead of the rest only if their DE score is above what anyone left
 *   could still reach (their score plus a win against each member they have not met); from
 *   the first member for whom that fails, the rest stay tied.
 * - A subgroup still tied after a split, and smaller than the group, gets DE again among
 *   its own members (the regulation's recursive application).
 */
function directEncounter(group: readonly Computed[], u: Units, scores: Map<PlayerId, number>): Computed[][] {
  if (group.length <= 1) return [group.slice()];
  const ids = new Set(group.map((c) => c.entrant.id));
  // Per player, per opponent in the group: [sum of units, games].
  const perOpp = new Map<PlayerId, Map<PlayerId, [number, number]>>();
  let denominator = 1;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  for (const c of group) {
    const m = new Map<PlayerId, [number, number]>();
    for (const v of c.rounds.rounds) {
      if (!isPlayed(v) || !ids.has(v.opponent)) continue;
      const cur = m.get(v.opponent) ?? [0, 0];
      m.set(v.opponent, [cur[0] + v.units, cur[1] + 1]);
    }
    for (const [, games] of m.values()) denominator = (denominator * games) / gcd(denominator, games);
    perOpp.set(c.entrant.id, m);
  }
  const score = new Map<PlayerId, number>();
  const reach = new Map<PlayerId, number>();
  let allMet = true;
  for (const c of group) {
    const m = perOpp.get(c.entrant.id)!;
    let sum = 0;
    for (const [units, games] of m.values()) sum += (units * denominator) / games;
    const unmet = group.length - 1 - m.size;
    if (unmet > 0) allMet = false;
    score.set(c.entrant.id, sum);
    reach.set(c.entrant.id, sum + unmet * u.win * denominator);
    scores.set(c.entrant.id, sum / (2 * denominator));
  }
  const by = (c: Computed) => score.get(c.entrant.id)!;
  const out: Computed[][] = [];
  const again = (sub: Computed[]) => {
    if (sub.length > 1 && sub.length < group.length) out.push(...directEncounter(sub, u, scores));
    else out.push(sub);
  };
  if (allMet) {
    const buckets = new Map<number, Computed[]>();
    for (const c of group) buckets.set(by(c), [...(buckets.get(by(c)) ?? []), c]);
    for (const k of [...buckets.keys()].sort((a, b) => b - a)) again(buckets.get(k)!);
    return out;
  }
  const sorted = [...group].sort((a, b) => by(b) - by(a) || reach.get(b.entrant.id)! - reach.get(a.entrant.id)!);
  let i = 0;
  for (; i < sorted.length - 1; i++) {
    const rest = sorted.slice(i + 1);
    if (by(sorted[i]) > Math.max(...rest.map((c) => reach.get(c.entrant.id)!))) out.push([sorted[i]]);
    else break;
  }
  again(sorted.slice(i));
  return out;
}

export function computeStandings(
  entrants: readonly Entrant[],
  records: readonly RoundRecord[],
  config: StandingsConfig = {},
): StandingsResult {
  const points = config.points ?? DEFAULT_POINTS;
  const u = pointUnits(points);
  const order = [...(config.tieBreaks ?? ['buchholz-cut1', 'buchholz', 'sonneborn-berger'])];
  for (const tb of order) if (!TIE_BREAKS.includes(tb)) throw new RangeError(`unknown tie-break ${String(tb)}`);
  if (new Set(order).size !== order.length) throw new RangeError('a tie-break is listed twice');
  const roles = config.roles ?? { first: 'first', second: 'second' };
  if (roles.first === roles.second) throw new RangeError('the two roles need different names');
  const harderDefault = config.harderSide ?? 'second';
  const n = roundCount(records, config.rounds);
  const byId = playerRounds(entrants, records, points, n);
  const adjusted = new Map<PlayerId, number>();
  const rules2009 = config.unplayedRounds === 'fide-2009';
  if (config.unplayedRounds !== undefined && !['fide-2024', 'fide-2009'].includes(config.unplayedRounds)) {
    throw new RangeError(`unknown unplayed-rounds rule ${String(config.unplayedRounds)}`);
  }
  for (const [id, p] of byId) adjusted.set(id, rules2009 ? adjustedScore2009(p, u) : adjustedScore(p, u));

  const computed: Computed[] = entrants.map((entrant) => {
    const p = byId.get(entrant.id)!;
    const bh: Contribution[] = [];
    let sb = 0;
    let wins = 0;
    let winsPlayed = 0;
    let harderWins = 0;
    let harderGames = 0;
    let running = 0;
    let progressive = 0;
    for (const [i, v] of p.rounds.entries()) {
      const round = i + 1;
      running += v.units;
      progressive += running;
      if (v.units === u.win && v.type !== 'absent') wins++;
      if (isPlayed(v)) {
        const opp = adjusted.get(v.opponent)!;
        bh.push({ value: opp, vur: false });
        sb += opp * v.units;
        if (v.outcome === 'win') winsPlayed++;
        if (v.side === (v.harder ?? harderDefault)) {
          harderGames++;
          if (v.outcome === 'win') harderWins++;
        }
      } else if (!config.roundRobin && rules2009) {
        const von = virtualOpponent(p, round, u);
        bh.push({ value: von, vur: false });
        sb += von * v.units;
      } else if (!config.roundRobin) {
        // 16.4: dummy opponent with the player's own final score.
        bh.push({ value: p.units, vur: isVur(v) });
        sb += p.units * v.units;
      }
    }
    const values: Partial<Record<TieBreak, number>> = {
      buchholz: cut(bh, 0, 0),
      'buchholz-cut1': cut(bh, 1, 0),
      'median-buchholz': cut(bh, 1, 1),
      'sonneborn-berger': sb,
      wins,
      'wins-played': winsPlayed,
      'harder-side-wins': harderWins,
      'harder-side-games': harderGames,
      progressive,
    };
    return { entrant, rounds: p, values };
  });

  // Rank: points, then each tie-break within the groups still tied, then the final order.
  const decided = new Set<PlayerId>();
  const deScores = new Map<PlayerId, number>();
  const rankGroup = (group: Computed[], level: number): Computed[] => {
    if (group.length <= 1) return group;
    if (level === order.length) {
      for (const c of group) decided.add(c.entrant.id);
      return [...group].sort((a, b) => compareFinal(a.entrant, b.entrant));
    }
    const tb = order[level];
    if (tb === 'direct-encounter') {
      // DE depends on who is tied, so it is computed here, per group, and splits the group.
      return directEncounter(group, u, deScores).flatMap((sub) => rankGroup(sub, level + 1));
    }
    const buckets = new Map<number, Computed[]>();
    for (const c of group) {
      const v = c.values[tb]!;
      buckets.set(v, [...(buckets.get(v) ?? []), c]);
    }
    return [...buckets.keys()].sort((a, b) => b - a).flatMap((k) => rankGroup(buckets.get(k)!, level + 1));
  };
  const byPoints = new Map<number, Computed[]>();
  for (const c of computed) byPoints.set(c.rounds.units, [...(byPoints.get(c.rounds.units) ?? []), c]);
  const ranked = [...byPoints.keys()].sort((a, b) => b - a).flatMap((k) => rankGroup(byPoints.get(k)!, 0));

  const standings = ranked.map((c, i): Standing => {
    const rs = c.rounds.rounds;
    const perSide: Record<string, SideRecord> = {
      [roles.first]: { played: 0, won: 0, drawn: 0, lost: 0 },
      [roles.second]: { played: 0, won: 0, drawn: 0, lost: 0 },
    };
    for (const v of rs) {
      if (!isPlayed(v)) continue;
      const rec = perSide[v.side === 'first' ? roles.first : roles.second];
      rec.played++;
      if (v.outcome === 'win') rec.won++;
      else if (v.outcome === 'draw') rec.drawn++;
      else rec.lost++;
    }
    const tieBreaks: Partial<Record<TieBreak, number>> = {};
    for (const tb of order) tieBreaks[tb] = tb === 'direct-encounter' ? deScores.get(c.entrant.id) ?? 0 : (c.values[tb] ?? 0) / DIVISOR[tb];
    const playedGames = rs.filter(isPlayed);
    return {
      rank: i + 1,
      id: c.entrant.id,
      points: c.rounds.units / 2,
      tieBreaks,
      played: playedGames.length,
      won: playedGames.filter((v) => v.outcome === 'win').length,
      drawn: playedGames.filter((v) => v.outcome === 'draw').length,
      lost: playedGames.filter((v) => v.outcome === 'loss').length,
      forfeitsWon: rs.filter((v) => v.type === 'forfeit-win').length,
      forfeitsLost: rs.filter((v) => v.type === 'forfeit-loss').length,
      byes: rs.filter((v) => v.type === 'bye').length,
      perSide,
      decidedByFinalOrder: decided.has(c.entrant.id),
    };
  });
  return { rounds: n, roles, points, tieBreaks: order, standings };
}

const TB_LABEL: Record<TieBreak, string> = {
  buchholz: 'BH', 'buchholz-cut1': 'BH-C1', 'median-buchholz': 'BH-M1', 'sonneborn-berger': 'SB', 'direct-encounter': 'DE',
  wins: 'WIN', 'wins-played': 'WON', 'harder-side-wins': 'HSW', 'harder-side-games': 'HSG', progressive: 'PS',
};

/** RFC 4180 field: quoted when it holds a comma, quote or line break; a leading =+-@ is defused. */
function csvField(value: string | number): string {
  let s = String(value);
  // Spreadsheets run cells starting with these as formulas; ids are user-chosen text.
  if (typeof value === 'string' && /^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * CSV export (pure: returns the text). `names` maps ids to display names (defaults to the id).
 * Columns: rank, id, name, points, the configured tie-breaks in order, played/won/drawn/lost,
 * forfeits and byes, then won-drawn-lost per role.
 */
export function standingsToCsv(result: StandingsResult, names: ReadonlyMap<PlayerId, string> = new Map()): string {
  const { first, second } = result.roles;
  const header = [
    'rank', 'id', 'name', 'points', ...result.tieBreaks.map((tb) => TB_LABEL[tb]),
    'played', 'won', 'drawn', 'lost', 'forfeits_won', 'forfeits_lost', 'byes', `as_${first}`, `as_${second}`,
  ];
  const lines = [header.map(csvField).join(',')];
  for (const s of result.standings) {
    const side = (r: SideRecord) => `${r.won}-${r.drawn}-${r.lost}`;
    lines.push([
      s.rank, s.id, names.get(s.id) ?? s.id, s.points, ...result.tieBreaks.map((tb) => s.tieBreaks[tb] ?? 0),
      s.played, s.won, s.drawn, s.lost, s.forfeitsWon, s.forfeitsLost, s.byes, side(s.perSide[first]), side(s.perSide[second]),
    ].map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** JSON export: a plain, versioned object ready for JSON.stringify. */
export function standingsToJson(result: StandingsResult, names: ReadonlyMap<PlayerId, string> = new Map()) {
  return {
    format: 'herald-standings/1' as const,
    rounds: result.rounds,
    roles: result.roles,
    points: result.points,
    tieBreaks: result.tieBreaks.map((tb) => ({ id: tb, label: TB_LABEL[tb] })),
    standings: result.standings.map((s) => ({ ...s, name: names.get(s.id) ?? s.id })),
  };
}
