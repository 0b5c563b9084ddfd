/**
 * League results as data, and each player's round-by-round view of them.
 *
 * Shared by standings (points, tie-breaks) and Swiss pairing (scores, opponents, sides, byes),
 * so both read results the same way. Points are kept in half-point units (integers), so that
 * ½ and 2/1/0 scoring compare exactly.
 */

export type PlayerId = string;
/** The game's two roles, generically; the league maps them to names (York, Lancaster). */
export type Side = 'first' | 'second';

export interface Entrant {
  id: PlayerId;
  /** Seed / pairing number: lower is stronger. Used for the final deterministic order. */
  seed?: number;
  rating?: number;
}

export type RoundRecord =
  /** A game played to a result. `harder` overrides the league's harder side for this game. */
  | { kind: 'game'; round: number; first: PlayerId; second: PlayerId; result: 'first' | 'second' | 'draw'; harder?: Side }
  /** A game not played: one side wins by forfeit, or `none` (double forfeit: both lose). */
  | { kind: 'forfeit'; round: number; first: PlayerId; second: PlayerId; winner: 'first' | 'second' | 'none' }
  /**
   * A round without an opponent: `allocated` is the pairing-allocated bye of an odd round
   * (full point by default); otherwise a bye the player asked for or was given (late entry).
   */
  | { kind: 'bye'; round: number; player: PlayerId; points: 'full' | 'half' | 'zero'; allocated?: boolean };

export interface PointsConfig {
  win: number;
  draw: number;
  loss: number;
}

export const DEFAULT_POINTS: PointsConfig = { win: 1, draw: 0.5, loss: 0 };

/** What one round was for one player. Points in half-point units. */
export type RoundView =
  | { type: 'played'; opponent: PlayerId; side: Side; outcome: 'win' | 'draw' | 'loss'; harder: Side | undefined; units: number }
  | { type: 'forfeit-win' | 'forfeit-loss'; opponent: PlayerId; side: Side; units: number }
  | { type: 'bye'; size: 'full' | 'half' | 'zero'; allocated: boolean; units: number }
  /** Not paired and no bye: absent, not yet entered, or withdrawn. */
  | { type: 'absent'; units: number };

export interface PlayerRounds {
  id: PlayerId;
  /** rounds[r - 1] is round r. */
  rounds: RoundView[];
  /** Total in half-point units. */
  units: number;
}

export function toUnits(points: number, what: string): number {
  const u = points * 2;
  if (!Number.isInteger(u)) throw new RangeError(`${what} must be a multiple of ½, got ${points}`);
  return u;
}

export interface Units {
  win: number;
  draw: number;
  loss: number;
}

export function pointUnits(points: PointsConfig = DEFAULT_POINTS): Units {
  const u = { win: toUnits(points.win, 'win points'), draw: toUnits(points.draw, 'draw points'), loss: toUnits(points.loss, 'loss points') };
  if (!(u.win > u.draw && u.draw >= u.loss)) throw new RangeError('points must satisfy win > draw ≥ loss');
  return u;
}

/** Number of rounds: the larger of the configured count and the last round with a record. */
export function roundCount(records: readonly RoundRecord[], rounds?: number): number {
  return Math.max(rounds ?? 0, ...records.map((r) => r.round), 0);
}

/**
 * Each entrant's view of every round 1…`rounds`. Throws RangeError on records that name an
 * unknown player, pair a player with themselves, or give a player two records in one round.
 */
export function playerRounds(
  entrants: readonly Entrant[],
  records: readonly RoundRecord[],
  points: PointsConfig = DEFAULT_POINTS,
  rounds?: number,
): Map<PlayerId, PlayerRounds> {
  const u = pointUnits(points);
  const n = roundCount(records, rounds);
  const out = new Map<PlayerId, PlayerRounds>();
  for (const e of entrants) {
    if (out.has(e.id)) throw new RangeError(`entrant ${e.id} listed twice`);
    out.set(e.id, { id: e.id, rounds: Array.from({ length: n }, () => ({ type: 'absent', units: 0 }) as RoundView), units: 0 });
  }
  const set = (id: PlayerId, round: number, view: RoundView) => {
    const p = out.get(id);
    if (!p) throw new RangeError(`round ${round}: ${id} is not an entrant`);
    if (!Number.isInteger(round) || round < 1) throw new RangeError(`round must be a positive integer, got ${round}`);
    if (p.rounds[round - 1].type !== 'absent') throw new RangeError(`round ${round}: ${id} has two results`);
    p.rounds[round - 1] = view;
    p.units += view.units;
  };
  for (const r of records) {
    if (r.kind === 'bye') {
      const units = r.points === 'full' ? u.win : r.points === 'half' ? u.draw : u.loss;
      set(r.player, r.round, { type: 'bye', size: r.points, allocated: r.allocated ?? false, units });
      continue;
    }
    if (r.first === r.second) throw new RangeError(`round ${r.round}: ${r.first} cannot play themselves`);
    if (r.kind === 'game') {
      const fo = r.result === 'first' ? 'win' : r.result === 'draw' ? 'draw' : 'loss';
      const so = r.result === 'second' ? 'win' : r.result === 'draw' ? 'draw' : 'loss';
      set(r.first, r.round, { type: 'played', opponent: r.second, side: 'first', outcome: fo, harder: r.harder, units: u[fo] });
      set(r.second, r.round, { type: 'played', opponent: r.first, side: 'second', outcome: so, harder: r.harder, units: u[so] });
    } else {
      const fw = r.winner === 'first';
      const sw = r.winner === 'second';
      set(r.first, r.round, { type: fw ? 'forfeit-win' : 'forfeit-loss', opponent: r.second, side: 'first', units: fw ? u.win : u.loss });
      set(r.second, r.round, { type: sw ? 'forfeit-win' : 'forfeit-loss', opponent: r.first, side: 'second', units: sw ? u.win : u.loss });
    }
  }
  return out;
}
