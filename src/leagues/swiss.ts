/**
 * Swiss pairing by maximum-weight matching.
 *
 * A round is a perfect matching of the active players (plus a bye vertex when their number is
 * odd). Hard rules are edges left out of the graph: no rematch ever, and the bye only for
 * players who have not had one. Everything else is in the edge weights, as integer criteria
 * packed lexicographically (most important first):
 *   1. sides: nobody ends the round more than one game ahead on one side, nobody plays the
 *      same side three times running (counted per player, 0–2 per player);
 *   2. bye group: the bye goes to the lowest score group that can take it;
 *   3. score: pair within score groups; a pair from groups g and h costs (g − h)², so floats
 *      are few and short;
 *   4. bye rank: within that group, to the lowest-ranked player who has not had one;
 *   5. side preferences: players get the side that evens their count (else the opposite of
 *      their last);
 *   6. top half against bottom half inside a score group (S1 against S2, as FIDE's Dutch
 *      system), and for a float, the lowest of the upper group against the highest of the lower.
 * The matcher maximises cardinality first (maxCardinality), so a pairing is found whenever one
 * exists. Each criterion's range times the number of edges in a matching is below one unit of
 * the next, so no amount of a lower criterion outweighs a higher one; the packed weights stay
 * below 2^50, where doubles are exact (the library is a port of van Rantwijk's algorithm, exact
 * for integer weights). Sides are assigned after matching, per pair.
 *
 * Speed: the library is O(n³) on a complete graph (0.2–0.9 s for 256 players, ≈ 12 s for 512,
 * ≈ 27 s for 1,024 on this machine), so for large fields (`mode: 'brackets'`, the default above
 * 128 players) the round is paired score group by score group from the top, as FIDE's Dutch
 * system does: each bracket is a group plus the players floated down into it; an odd or
 * unpairable remainder floats to the next group (a float vertex takes the lowest-ranked). Big
 * brackets use a sparse graph (each player linked to the ranks around their ideal S1–S2
 * partner and neighbours); the last bracket falls back to its complete graph if that leaves
 * someone unpaired. If the last bracket
 * cannot be completed, the whole round is re-paired globally, so bracket mode never fails
 * where a pairing exists; if it breaks a side rule and the field is at most 256 players, the
 * global pairing is used when it breaks fewer. Bracket mode floats more than the global
 * matching (it cannot see that a float now saves one later) but keeps the side rules.
 */
import blossom from 'edmonds-blossom-fixed';
import { DEFAULT_POINTS, playerRounds, type Entrant, type PlayerId, type PointsConfig, type RoundRecord, type Side } from './results.ts';

export interface SwissPlayer {
  id: PlayerId;
  /** Pairing number: lower is stronger (initial ranking). */
  seed: number;
  /** Score in half-point units. */
  score: number;
  opponents: ReadonlySet<PlayerId>;
  /** Sides of the games played over the board, oldest first. */
  sides: readonly Side[];
  /** Has had a pairing-allocated bye. */
  hadBye: boolean;
}

export interface SwissPairing {
  first: PlayerId;
  second: PlayerId;
}

export interface SwissRound {
  pairings: SwissPairing[];
  bye: PlayerId | null;
}

export class NoPairingError extends Error {
  readonly code = 'NO_PAIRING';
  override readonly name = 'NoPairingError';
}

export interface SwissOptions {
  /** 'global': one matching over everyone; 'brackets': score group by score group. */
  mode?: 'global' | 'brackets' | 'auto';
}

/**
 * Pairing state from results. Withdrawn players are left out (never paired again); a late
 * entrant is simply an entrant with no (or bye) records for the rounds before they joined.
 * Forfeited games count as meetings: the two are not paired again either.
 */
export function swissPlayers(
  entrants: readonly Entrant[],
  records: readonly RoundRecord[],
  options: { points?: PointsConfig; withdrawn?: Iterable<PlayerId> } = {},
): SwissPlayer[] {
  const withdrawn = new Set(options.withdrawn ?? []);
  const rounds = playerRounds(entrants, records, options.points ?? DEFAULT_POINTS);
  return entrants
    .filter((e) => !withdrawn.has(e.id))
    .map((e, i) => {
      const p = rounds.get(e.id)!;
      const opponents = new Set<PlayerId>();
      const sides: Side[] = [];
      let hadBye = false;
      for (const v of p.rounds) {
        if (v.type === 'played' || v.type === 'forfeit-win' || v.type === 'forfeit-loss') opponents.add(v.opponent);
        if (v.type === 'played') sides.push(v.side);
        if (v.type === 'bye' && v.allocated) hadBye = true;
      }
      return { id: e.id, seed: e.seed ?? i + 1, score: p.units, opponents, sides, hadBye };
    });
}

/**
 * Records for a late entrant's missed rounds 1…firstRound − 1: zero-point byes by default, or
 * half-point byes where the league grants them. Either way they are voluntarily unplayed rounds
 * for tie-breaks (Art. 16.2) and not pairing-allocated byes, so the entrant can still get one.
 */
export function lateEntryByes(player: PlayerId, firstRound: number, points: 'zero' | 'half' = 'zero'): RoundRecord[] {
  if (!Number.isInteger(firstRound) || firstRound < 1) throw new RangeError(`first round must be a positive integer, got ${firstRound}`);
  return Array.from({ length: firstRound - 1 }, (_, i) => ({ kind: 'bye' as const, round: i + 1, player, points }));
}

interface Node {
  p: SwissPlayer;
  /** Position in the round's ranking (score, then seed). */
  rank: number;
  group: number;
  posInGroup: number;
  groupSize: number;
  diff: number;
}

const sideDelta = (s: Side) => (s === 'first' ? 1 : -1);

/** Rule violations if this player takes side s (0–2). */
function violations(n: Node, s: Side): number {
  const d = n.diff + sideDelta(s);
  const len = n.p.sides.length;
  const three = len >= 2 && n.p.sides[len - 1] === s && n.p.sides[len - 2] === s;
  return (Math.abs(d) > 1 ? 1 : 0) + (three ? 1 : 0);
}

/** The side this player is due: the one that evens their count, else the opposite of the last. */
function preferred(n: Node): Side | null {
  if (n.diff > 0) return 'second';
  if (n.diff < 0) return 'first';
  const last = n.p.sides[n.p.sides.length - 1];
  return last === undefined ? null : last === 'first' ? 'second' : 'first';
}

function assignmentCost(a: Node, b: Node, aSide: Side): [number, number] {
  const bSide: Side = aSide === 'first' ? 'second' : 'first';
  const v = violations(a, aSide) + violations(b, bSide);
  const pa = preferred(a);
  const pb = preferred(b);
  const pref = (pa !== null && pa !== aSide ? 1 : 0) + (pb !== null && pb !== bSide ? 1 : 0);
  return [v, pref];
}

/** Best side assignment for a pair: fewest violations, then fewest unmet preferences. */
function bestAssignment(a: Node, b: Node): { aSide: Side; v: number; pref: number } {
  const [v1, p1] = assignmentCost(a, b, 'first');
  const [v2, p2] = assignmentCost(a, b, 'second');
  if (v1 !== v2) return v1 < v2 ? { aSide: 'first', v: v1, pref: p1 } : { aSide: 'second', v: v2, pref: p2 };
  if (p1 !== p2) return p1 < p2 ? { aSide: 'first', v: v1, pref: p1 } : { aSide: 'second', v: v2, pref: p2 };
  // Nothing to choose: the higher-ranked player gets the side their last game did not have,
  // or (first games) alternate by rank so the top board does not always take the same side.
  const last = a.p.sides[a.p.sides.length - 1];
  const aSide: Side = last ? (last === 'first' ? 'second' : 'first') : Math.min(a.rank, b.rank) % 2 === 0 ? 'first' : 'second';
  return { aSide, v: v1, pref: p1 };
}

interface Weights {
  weight(a: Node, b: Node): number;
  /** Edge to the bye (or float) vertex; `groups` = number of score groups in play. */
  dummy(a: Node, belowGroup: number, count: number): number;
}

/**
 * Packs the criteria into integers. `edges` = edges in a matching of this graph; `count` =
 * players in the graph (range of the bye-rank criterion).
 */
function makeWeights(edges: number, count: number, groups: number): Weights {
  let topCap = 31;
  let scoreCap = Math.min(63, (groups + 1) ** 2);
  const SIDE_CAP = 4;
  const PREF_CAP = 2;
  const BYE_GROUP_CAP = groups + 1;
  const build = () => {
    const b0 = 1;
    const b1 = b0 * (topCap * edges + 1);
    const b2 = b1 * (PREF_CAP * edges + 1);
    const b3 = b2 * (count + 1);
    const b4 = b3 * (scoreCap * edges + 1);
    const b5 = b4 * (BYE_GROUP_CAP + 1);
    const max = 1 + topCap * b0 + PREF_CAP * b1 + count * b2 + scoreCap * b3 + BYE_GROUP_CAP * b4 + SIDE_CAP * b5;
    return { b0, b1, b2, b3, b4, b5, max };
  };
  let b = build();
  // Keep weights exact as doubles: shrink the lowest criterion's range first.
  while (b.max > 2 ** 50 && topCap > 1) {
    topCap = Math.floor(topCap / 2);
    b = build();
  }
  while (b.max > 2 ** 50 && scoreCap > 4) {
    scoreCap = Math.floor(scoreCap / 2);
    b = build();
  }
  if (b.max > 2 ** 50) throw new RangeError('field too large for exact pairing weights');
  // Normal edges get no bye-group and no bye-rank value; every perfect matching of an odd field
  // has exactly one dummy edge, so only the dummy edge's values decide between matchings.
  const pack = (side: number, byeGroup: number, score: number, byeRank: number, pref: number, top: number) =>
    1 + (SIDE_CAP - side) * b.b5 + (BYE_GROUP_CAP - Math.min(BYE_GROUP_CAP, byeGroup)) * b.b4 +
    (scoreCap - Math.min(scoreCap, score)) * b.b3 + (count - byeRank) * b.b2 +
    (PREF_CAP - pref) * b.b1 + (topCap - Math.min(topCap, top)) * b.b0;
  return {
    weight(a, c) {
      const [hi, lo] = a.rank < c.rank ? [a, c] : [c, a];
      const { v, pref } = bestAssignment(a, c);
      const dg = lo.group - hi.group;
      let top: number;
      if (dg === 0) {
        const half = Math.floor(hi.groupSize / 2);
        top = Math.abs(Math.abs(lo.posInGroup - hi.posInGroup) - half);
      } else {
        // A float: the lowest of the upper group should meet the highest of the lower.
        top = hi.groupSize - 1 - hi.posInGroup + lo.posInGroup;
      }
      return pack(v, BYE_GROUP_CAP, dg * dg, count, pref, top);
    },
    dummy(a, belowGroup, cnt) {
      // Distance from the bottom in score groups (1 for the lowest group), above all score
      // differences: the bye goes to the lowest group that can take it; then, by byeRank (0 for
      // the lowest-ranked player of the graph), to the lowest-ranked eligible player there.
      const dg = belowGroup - a.group;
      return pack(0, dg, 0, Math.max(0, cnt - 1 - a.rank), 0, 0);
    },
  };
}

function toNodes(players: readonly SwissPlayer[]): Node[] {
  const sorted = [...players].sort((a, b) => b.score - a.score || a.seed - b.seed || (a.id < b.id ? -1 : 1));
  const scores = [...new Set(sorted.map((p) => p.score))];
  const groupSize = new Map<number, number>();
  for (const p of sorted) groupSize.set(p.score, (groupSize.get(p.score) ?? 0) + 1);
  const seenInGroup = new Map<number, number>();
  return sorted.map((p, rank) => {
    const pos = seenInGroup.get(p.score) ?? 0;
    seenInGroup.set(p.score, pos + 1);
    const diff = p.sides.reduce((d, s) => d + sideDelta(s), 0);
    return { p, rank, group: scores.indexOf(p.score), posInGroup: pos, groupSize: groupSize.get(p.score)!, diff };
  });
}

interface SubResult {
  pairs: Array<[Node, Node]>;
  /** Matched to the dummy vertex (bye or float), if any. */
  dummy: Node | null;
  unmatched: Node[];
}

/**
 * Shortcut for one whole score group (typically round one): if S1 against S2 in rank order is
 * allowed and every pair gets both players' due sides with no rule broken (and, when odd, the
 * lowest-ranked player can take the bye), that pairing scores the best possible value on every
 * criterion, so it is what the matching would return; skipping the O(n³) matcher is what makes
 * a 1,024-player first round fast.
 */
function idealPairing(nodes: readonly Node[], dummy: null | { ok: (n: Node) => boolean }): SubResult | null {
  if (nodes.length === 0 || nodes.some((x) => x.group !== nodes[0].group || x.groupSize !== nodes.length)) return null;
  let rest = nodes;
  let bye: Node | null = null;
  if (dummy && nodes.length % 2 === 1) {
    bye = nodes[nodes.length - 1];
    if (!dummy.ok(bye)) return null;
    rest = nodes.slice(0, -1);
  }
  if (rest.length % 2 === 1) return null;
  const h = rest.length / 2;
  const pairs: Array<[Node, Node]> = [];
  for (let i = 0; i < h; i++) {
    const [a, b] = [rest[i], rest[i + h]];
    if (a.p.opponents.has(b.p.id)) return null;
    const best = bestAssignment(a, b);
    if (best.v !== 0 || best.pref !== 0) return null;
    pairs.push([a, b]);
  }
  return { pairs, dummy: bye, unmatched: [] };
}

/**
 * Max-weight matching over `nodes` (in rank order), with an optional dummy vertex (bye or
 * float) linked to the players `dummyOk` allows. `sparse` limits edges to ranks near the ideal
 * partner; callers retry densely when that leaves players unmatched.
 */
function matchNodes(
  nodes: readonly Node[],
  dummy: null | { ok: (n: Node) => boolean; belowGroup: number },
  sparse: boolean,
  strictSides = false,
): SubResult {
  const ideal = idealPairing(nodes, dummy);
  if (ideal) return ideal;
  const n = nodes.length;
  const local = nodes.map((x, i) => ({ ...x, rank: i }));
  const groups = new Set(nodes.map((x) => x.group)).size + 1;
  const total = n + (dummy ? 1 : 0);
  const w = makeWeights(Math.ceil(total / 2), total, groups);
  const edges: Array<[number, number, number]> = [];
  const half = Math.floor(n / 2);
  const K = 12;
  const link = (i: number, j: number) => {
    if (i === j || j < 0 || j >= n) return;
    if (local[i].p.opponents.has(local[j].p.id)) return;
    if (strictSides && bestAssignment(local[i], local[j]).v > 0) return;
    edges.push([i, j, w.weight(local[i], local[j])]);
  };
  if (!sparse) {
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) link(i, j);
  } else {
    const seen = new Set<number>();
    for (let i = 0; i < n; i++) {
      for (const c of [i + half, i - half, i]) {
        for (let j = c - K; j <= c + K; j++) {
          if (j <= i || j >= n) continue;
          const key = i * n + j;
          if (seen.has(key)) continue;
          seen.add(key);
          link(i, j);
        }
      }
    }
  }
  if (dummy) for (let i = 0; i < n; i++) if (dummy.ok(local[i])) edges.push([i, n, w.dummy(local[i], dummy.belowGroup, n)]);
  // The library sizes its vertex set from the edges; make sure every vertex appears.
  const mate = edges.length ? blossom(edges, true) : [];
  const pairs: Array<[Node, Node]> = [];
  const unmatched: Node[] = [];
  let dummyMate: Node | null = null;
  for (let i = 0; i < n; i++) {
    const m = mate[i] ?? -1;
    if (m === -1) unmatched.push(nodes[i]);
    else if (m === n) dummyMate = nodes[i];
    else if (m > i) pairs.push([nodes[i], nodes[m]]);
  }
  return { pairs, dummy: dummyMate, unmatched };
}

function finish(pairs: Array<[Node, Node]>, bye: Node | null): SwissRound {
  const pairings = pairs
    .map(([a, b]) => {
      const [hi, lo] = a.rank < b.rank ? [a, b] : [b, a];
      const { aSide } = bestAssignment(hi, lo);
      return aSide === 'first' ? { first: hi.p.id, second: lo.p.id, board: hi.rank } : { first: lo.p.id, second: hi.p.id, board: hi.rank };
    })
    .sort((x, y) => x.board - y.board)
    .map(({ first, second }) => ({ first, second }));
  return { pairings, bye: bye ? bye.p.id : null };
}

const GLOBAL_RETRY = 256;

function pairGlobalPairs(nodes: readonly Node[]): { pairs: Array<[Node, Node]>; bye: Node | null; broken: number } {
  const odd = nodes.length % 2 === 1;
  const lowest = nodes.length ? nodes[nodes.length - 1].group + 1 : 0;
  const r = matchNodes(nodes, odd ? { ok: (x) => !x.p.hadBye, belowGroup: lowest } : null, false);
  if (r.unmatched.length > 0 || (odd && !r.dummy)) throw new NoPairingError('no pairing satisfies the rules (rematches or byes exhausted)');
  return { pairs: r.pairs, bye: r.dummy, broken: r.pairs.reduce((v, [a, b]) => v + bestAssignment(a, b).v, 0) };
}

function pairGlobal(nodes: readonly Node[]): SwissRound {
  const g = pairGlobalPairs(nodes);
  return finish(g.pairs, g.bye);
}

/** Score group by score group from the top (FIDE Dutch style); see the module comment. */
function pairBrackets(nodes: readonly Node[]): SwissRound {
  const groups: Node[][] = [];
  for (const x of nodes) (groups[x.group] ??= []).push(x);
  const pairs: Array<[Node, Node]> = [];
  let carry: Node[] = [];
  for (let g = 0; g < groups.length; g++) {
    const bracket = [...carry, ...groups[g]].sort((a, b) => a.rank - b.rank);
    const last = g === groups.length - 1;
    const odd = bracket.length % 2 === 1;
    const dummy = odd ? { ok: last ? (x: Node) => !x.p.hadBye : () => true, belowGroup: g + 1 } : null;
    const sparse = bracket.length > 64;
    // Above the last bracket a pair that breaks the side rules is not made: those players float
    // down instead, where partners with the opposite due side are likely. (A matching inside
    // one bracket cannot see that trade-off, so it is made here as a rule.)
    const strict = !last;
    let r = matchNodes(bracket, dummy, sparse, strict);
    // Retry densely only in the last bracket: above it, strict side rules leave players
    // unmatched on purpose (they float), and a dense retry of a large bracket costs seconds.
    if (sparse && last && r.unmatched.length > 0) {
      const dense = matchNodes(bracket, dummy, false, strict);
      if (dense.unmatched.length < r.unmatched.length) r = dense;
    }
    if (last) {
      if (r.unmatched.length > 0 || (odd && !r.dummy)) return pairGlobal(nodes);
      pairs.push(...r.pairs);
      // Going bracket by bracket can force a side-rule break in the last bracket that one
      // global matching would avoid. Fields up to GLOBAL_RETRY players (≲ 1 s globally) get
      // the global pairing in that case; above, the bracket result stands.
      const broken = pairs.reduce((v, [a, b]) => v + bestAssignment(a, b).v, 0);
      if (broken > 0 && nodes.length <= GLOBAL_RETRY) {
        const global = pairGlobalPairs(nodes);
        if (global.broken < broken) return finish(global.pairs, global.bye);
      }
      return finish(pairs, r.dummy);
    }
    pairs.push(...r.pairs);
    carry = [...r.unmatched, ...(r.dummy ? [r.dummy] : [])];
  }
  // No groups at all (no players).
  return { pairings: [], bye: null };
}

/** Pair the next round for the given (active) players. Throws NoPairingError if impossible. */
export function pairSwissRound(players: readonly SwissPlayer[], options: SwissOptions = {}): SwissRound {
  if (new Set(players.map((p) => p.id)).size !== players.length) throw new RangeError('players must be distinct');
  if (players.length === 0) return { pairings: [], bye: null };
  const nodes = toNodes(players);
  const mode = options.mode ?? 'auto';
  if (mode === 'global' || (mode === 'auto' && players.length <= 128)) return pairGlobal(nodes);
  return pairBrackets(nodes);
}
