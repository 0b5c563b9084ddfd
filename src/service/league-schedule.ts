// From a league's stored state to the pure core's terms and back: results as RoundRecords
// (for standings and Swiss pairing), and the plan of the next round for each format. No I/O:
// the service loads the rows, calls these, and stores what they return.
import { nextUint32, seedRng } from '../engine/rng.ts';
import {
  computeStandings, knockoutBracket, lateEntryByes, NoPairingError, pairSwissRound, poolsOfRoundRobins, poolsToKnockout,
  roundRobin, swissPlayers, type Entrant as CoreEntrant, type RoundRecord, type ScheduledRound, type StandingsResult,
} from '../leagues/index.ts';
import type { EntrantStatus, LeagueFormat, LeagueSettings, PairingResult, RoundStage } from './league-api.ts';
import { ServiceError } from './errors.ts';

export interface StoredEntrant {
  playerId: string;
  seed: number | null;
  status: EntrantStatus;
  firstRound: number;
  leftAfterRound: number | null;
}

export interface StoredPairing {
  round: number;
  board: number;
  pool: number | null;
  firstId: string;
  secondId: string | null;
  result: PairingResult | null;
  source: string | null;
}

export interface StoredRound {
  number: number;
  stage: RoundStage;
  status: 'draft' | 'published' | 'complete';
}

export interface LeagueShape {
  format: LeagueFormat;
  settings: LeagueSettings;
  seed: string;
}

export interface PlannedBoard {
  /** Knockouts: the bracket slot (boards of a round may then have gaps); else boards are numbered in order. */
  board?: number;
  first: string;
  second: string | null;
  pool: number | null;
  /** Set for boards decided without a game: byes and forfeits of withdrawn players. */
  result: PairingResult | null;
  source: 'pairing' | 'withdrawal' | null;
}

export interface PlannedRound {
  number: number;
  stage: RoundStage;
  boards: PlannedBoard[];
}

/** Entrants in seed order (seeds are fixed when the league starts). */
export function bySeed(entrants: readonly StoredEntrant[]): StoredEntrant[] {
  return [...entrants].sort((a, b) => (a.seed ?? Infinity) - (b.seed ?? Infinity) || (a.playerId < b.playerId ? -1 : 1));
}

const isRoundRobin = (f: LeagueFormat) => f === 'round-robin' || f === 'double-round-robin' || f === 'pools';

/** Whether the player is still in the league for round `round`. */
function inLeague(e: StoredEntrant | undefined, round: number): boolean {
  return !!e && e.firstRound <= round && (e.status === 'active' || (e.leftAfterRound !== null && round <= e.leftAfterRound));
}

/** A board's result as the pure core's record; null while it is open. */
function recordOf(p: StoredPairing, harder: 'first' | 'second' | null): RoundRecord | null {
  const r = p.result;
  if (r === null) return null;
  if (p.secondId === null) {
    const points = r === 'bye-full' ? 'full' : r === 'bye-half' ? 'half' : 'zero';
    return { kind: 'bye', round: p.round, player: p.firstId, points, allocated: p.source === 'pairing' && points === 'full' };
  }
  const base = { round: p.round, first: p.firstId, second: p.secondId };
  switch (r) {
    case 'first':
    case 'second':
    case 'draw':
      return { kind: 'game', ...base, result: r, ...(harder ? { harder } : {}) };
    case 'forfeit-first':
      return { kind: 'forfeit', ...base, winner: 'first' };
    case 'forfeit-second':
      return { kind: 'forfeit', ...base, winner: 'second' };
    case 'double-forfeit':
      return { kind: 'forfeit', ...base, winner: 'none' };
    default:
      return null;
  }
}

/**
 * The results the standings and the Swiss pairing read: every decided board (round-robin
 * sit-outs are no record: FIDE's round-robin rules), the byes of a late entrant's missed
 * rounds, and, with withdrawal 'annul', nothing involving a withdrawn or disqualified player.
 */
export function recordsOf(league: LeagueShape, entrants: readonly StoredEntrant[], pairings: readonly StoredPairing[], opts: { pool?: number; stage?: RoundStage; rounds?: readonly StoredRound[] } = {}): RoundRecord[] {
  const annulled = new Set(league.settings.withdrawal === 'annul' ? entrants.filter((e) => e.status !== 'active').map((e) => e.playerId) : []);
  const stageOf = new Map((opts.rounds ?? []).map((r) => [r.number, r.stage]));
  const out: RoundRecord[] = [];
  for (const p of pairings) {
    if (opts.pool !== undefined && p.pool !== opts.pool) continue;
    if (opts.stage !== undefined && stageOf.get(p.round) !== opts.stage) continue;
    if (annulled.has(p.firstId) || (p.secondId !== null && annulled.has(p.secondId))) continue;
    if (p.secondId === null && isRoundRobin(league.format)) continue;
    const rec = recordOf(p, league.settings.harderSide);
    if (rec) out.push(rec);
  }
  if (league.format === 'swiss' && league.settings.lateEntry !== 'closed') {
    for (const e of entrants) {
      if (e.firstRound > 1 && !annulled.has(e.playerId)) out.push(...lateEntryByes(e.playerId, e.firstRound, league.settings.lateEntry === 'half' ? 'half' : 'zero'));
    }
  }
  return out;
}

export function coreEntrants(entrants: readonly StoredEntrant[]): CoreEntrant[] {
  return bySeed(entrants).map((e, i) => ({ id: e.playerId, seed: e.seed ?? i + 1 }));
}

export function standingsOf(
  league: LeagueShape,
  roles: { first: string; second: string },
  entrants: readonly StoredEntrant[],
  pairings: readonly StoredPairing[],
  opts: { pool?: number; stage?: RoundStage; rounds?: readonly StoredRound[]; upToRound?: number } = {},
): StandingsResult {
  const annul = league.settings.withdrawal === 'annul';
  const counted = entrants.filter((e) => !annul || e.status === 'active');
  const upTo = opts.upToRound;
  const shown = upTo === undefined ? pairings : pairings.filter((p) => p.round <= upTo);
  let records = recordsOf(league, counted, shown, opts);
  if (upTo !== undefined) records = records.filter((r) => r.round <= upTo);
  const lastRound = Math.max(0, ...shown.filter((p) => p.result !== null).map((p) => p.round), ...records.map((r) => r.round));
  return computeStandings(coreEntrants(counted), records, {
    points: league.settings.points,
    tieBreaks: league.settings.tieBreaks,
    roles,
    ...(league.settings.harderSide ? { harderSide: league.settings.harderSide } : {}),
    rounds: lastRound,
    roundRobin: isRoundRobin(league.format),
  });
}

/** The coin for board `board` of round `round` under the random side policy. */
function coin(league: LeagueShape, round: number, board: number): boolean {
  const s = seedRng(`${league.seed}:sides:${round}:${board}`);
  return (nextUint32(s) & 1) === 1;
}

function orient(league: LeagueShape, round: number, boards: PlannedBoard[]): PlannedBoard[] {
  if (league.settings.sidePolicy !== 'random') return boards;
  return boards.map((b, i) => (b.second !== null && b.result === null && coin(league, round, i + 1) ? { ...b, first: b.second, second: b.first } : b));
}

/** A scheduled game between two entrants, or the forfeit it becomes when one has left. */
function scheduled(league: LeagueShape, byId: Map<string, StoredEntrant>, round: number, first: string, second: string, pool: number | null): PlannedBoard | null {
  const a = inLeague(byId.get(first), round);
  const b = inLeague(byId.get(second), round);
  if (a && b) return { first, second, pool, result: null, source: null };
  if (league.settings.withdrawal === 'annul') return null;
  return { first, second, pool, result: a ? 'forfeit-first' : b ? 'forfeit-second' : 'double-forfeit', source: 'withdrawal' };
}

function roundRobinBoards(league: LeagueShape, byId: Map<string, StoredEntrant>, sched: ScheduledRound<string>, round: number, pool: number | null): PlannedBoard[] {
  const boards: PlannedBoard[] = [];
  for (const p of sched.pairings) {
    const b = scheduled(league, byId, round, p.first, p.second, pool);
    if (b) boards.push(b);
  }
  if (sched.bye !== undefined && inLeague(byId.get(sched.bye), round)) boards.push({ first: sched.bye, second: null, pool, result: 'bye-zero', source: 'pairing' });
  return boards;
}

function poolPlan(entrants: readonly StoredEntrant[], count: number) {
  // poolsOfRoundRobins seeds by rating (higher first): the negated seed keeps the league's seed order.
  return poolsOfRoundRobins(bySeed(entrants).map((e, i) => ({ id: e.playerId, rating: -(e.seed ?? i + 1) })), count);
}

/** The number of rounds of the format, once the entrants are known (knockouts: the bracket's). */
export function plannedRounds(league: LeagueShape, entrantCount: number): number | null {
  const n = entrantCount;
  const log2 = (k: number) => (k < 2 ? 0 : Math.ceil(Math.log2(k)));
  switch (league.format) {
    case 'swiss':
      return league.settings.rounds;
    case 'round-robin':
      return n < 2 ? null : n % 2 === 0 ? n - 1 : n;
    case 'double-round-robin':
      return n < 2 ? null : 2 * (n % 2 === 0 ? n - 1 : n);
    case 'knockout':
      return n < 2 ? null : log2(n);
    case 'pools': {
      const p = league.settings.pools!;
      if (n < 2 * p.count) return null;
      const biggest = Math.ceil(n / p.count);
      return (biggest % 2 === 0 ? biggest - 1 : biggest) + log2(p.count * p.qualifiers);
    }
  }
}

/** A knockout board's winner: draws go to the better seed; a double forfeit sends nobody through. */
function winnerOf(p: StoredPairing, seedOf: (id: string) => number): string | null {
  switch (p.result) {
    case 'first':
    case 'forfeit-first':
    case 'bye-full':
    case 'bye-half':
    case 'bye-zero':
      return p.firstId;
    case 'second':
    case 'forfeit-second':
      return p.secondId;
    case 'draw':
      return seedOf(p.firstId) <= seedOf(p.secondId!) ? p.firstId : p.secondId;
    default:
      return null;
  }
}

/** Boards of a knockout round from winners per slot (null: nobody came through that slot). */
function knockoutBoards(league: LeagueShape, byId: Map<string, StoredEntrant>, round: number, slots: Array<[string | null, string | null]>, seedOf: (id: string) => number): PlannedBoard[] {
  const boards: PlannedBoard[] = [];
  for (const [i, [x, y]] of slots.entries()) {
    const board = i + 1;
    const a = x !== null && inLeague(byId.get(x), round) ? x : null;
    const b = y !== null && inLeague(byId.get(y), round) ? y : null;
    if (a !== null && b !== null) {
      const [first, second] = seedOf(a) <= seedOf(b) ? [a, b] : [b, a];
      boards.push({ board, first, second, pool: null, result: null, source: null });
    } else if (a !== null || b !== null) {
      boards.push({ board, first: (a ?? b)!, second: null, pool: null, result: 'bye-full', source: 'pairing' });
    }
    // Neither: both players of the slot have left (or a double forfeit): nobody comes through it.
  }
  return boards;
}

function nextFromPreviousKnockout(league: LeagueShape, byId: Map<string, StoredEntrant>, prev: StoredPairing[], round: number, seedOf: (id: string) => number): PlannedBoard[] | 'finished' {
  if (prev.length <= 1) return 'finished';
  const bySlot = new Map(prev.map((p) => [p.board, p]));
  const size = Math.max(...prev.map((p) => p.board));
  const slots: Array<[string | null, string | null]> = [];
  for (let k = 1; k <= Math.ceil(size / 2); k++) {
    const w = (slot: number) => {
      const p = bySlot.get(slot);
      return p ? winnerOf(p, seedOf) : null;
    };
    slots.push([w(2 * k - 1), w(2 * k)]);
  }
  return knockoutBoards(league, byId, round, slots, seedOf);
}

/**
 * The next round of the league, or 'finished' when the format has no more rounds. `rounds`
 * are all existing rounds (the last one complete); throws no_pairing when none is possible.
 */
export function planNextRound(
  league: LeagueShape,
  roles: { first: string; second: string },
  entrants: readonly StoredEntrant[],
  rounds: readonly StoredRound[],
  pairings: readonly StoredPairing[],
): PlannedRound | 'finished' {
  const number = rounds.length + 1;
  const byId = new Map(entrants.map((e) => [e.playerId, e]));
  const seeded = bySeed(entrants);
  const seedOf = (id: string) => {
    const i = seeded.findIndex((e) => e.playerId === id);
    return byId.get(id)?.seed ?? (i < 0 ? Infinity : i + 1);
  };
  const ids = seeded.map((e) => e.playerId);
  const s = league.settings;
  switch (league.format) {
    case 'swiss': {
      if (number > s.rounds!) return 'finished';
      const eligible = entrants.filter((e) => e.firstRound <= number);
      const records = recordsOf(league, eligible, pairings);
      const out = (() => {
        try {
          return pairSwissRound(swissPlayers(coreEntrants(eligible), records, { points: s.points, withdrawn: eligible.filter((e) => !inLeague(e, number)).map((e) => e.playerId) }));
        } catch (err) {
          if (err instanceof NoPairingError) throw new ServiceError('no_pairing', `Round ${number} cannot be paired: ${err.message}`);
          throw err;
        }
      })();
      const boards: PlannedBoard[] = out.pairings.map((p) => ({ first: p.first, second: p.second, pool: null, result: null, source: null }));
      if (out.bye !== null) boards.push({ first: out.bye, second: null, pool: null, result: 'bye-full', source: 'pairing' });
      return { number, stage: 'swiss', boards: orient(league, number, boards) };
    }
    case 'round-robin':
    case 'double-round-robin': {
      const schedule = roundRobin(ids, { double: league.format === 'double-round-robin' });
      if (number > schedule.length) return 'finished';
      return { number, stage: 'round-robin', boards: orient(league, number, roundRobinBoards(league, byId, schedule[number - 1]!, number, null)) };
    }
    case 'knockout': {
      if (number === 1) {
        const bracket = knockoutBracket(ids);
        const slots = bracket.map((m) => [m.top, m.bottom] as [string | null, string | null]);
        return { number, stage: 'knockout', boards: orient(league, number, knockoutBoards(league, byId, number, slots, seedOf)) };
      }
      const next = nextFromPreviousKnockout(league, byId, pairings.filter((p) => p.round === number - 1), number, seedOf);
      return next === 'finished' ? next : { number, stage: 'knockout', boards: orient(league, number, next) };
    }
    case 'pools': {
      const plan = poolPlan(entrants, s.pools!.count);
      const poolRounds = Math.max(...plan.pools.map((p) => p.schedule.length));
      if (number <= poolRounds) {
        const boards = plan.pools.flatMap((p) => (p.schedule[number - 1] ? roundRobinBoards(league, byId, p.schedule[number - 1]!, number, p.pool) : []));
        return { number, stage: 'pool', boards: orient(league, number, boards) };
      }
      if (number === poolRounds + 1) {
        const qualifiers = plan.pools.map((p) => {
          const table = standingsOf(league, roles, entrants.filter((e) => p.entrants.includes(e.playerId)), pairings, { pool: p.pool, rounds, stage: 'pool' });
          const q = table.standings.map((row) => row.id).filter((id) => byId.get(id)?.status === 'active').slice(0, s.pools!.qualifiers);
          if (q.length < s.pools!.qualifiers) {
            throw new ServiceError('no_pairing', `Pool ${p.pool} has only ${q.length} active player(s) for ${s.pools!.qualifiers} knockout place(s).`);
          }
          return q;
        });
        const bracket = poolsToKnockout(qualifiers);
        const slots = bracket.map((m) => [m.top, m.bottom] as [string | null, string | null]);
        // In the knockout after pools, the bracket's own seeds decide draws and sides.
        const koSeed = new Map<string, number>();
        for (const m of bracket) {
          koSeed.set(m.top, m.topSeed);
          if (m.bottom !== null) koSeed.set(m.bottom, m.bottomSeed!);
        }
        return { number, stage: 'knockout', boards: orient(league, number, knockoutBoards(league, byId, number, slots, (id) => koSeed.get(id) ?? Infinity)) };
      }
      const next = nextFromPreviousKnockout(league, byId, pairings.filter((p) => p.round === number - 1), number, seedOf);
      return next === 'finished' ? next : { number, stage: 'knockout', boards: orient(league, number, next) };
    }
  }
}
