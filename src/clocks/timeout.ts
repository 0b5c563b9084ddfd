/**
 * What a timeout does to a game. Decisions:
 * - The seat whose time ran out first loses. When several clocks ran at once (a simultaneous
 *   phase) and more than one has run out by the time anyone looks (a scheduler that was down),
 *   the one with the earlier deadline ran out first, so it loses: the result is the same as if
 *   the timeout had fired on time. Only deadlines equal to the millisecond make a draw.
 * - A game in which some seat never completed a move is aborted (no result, unrated), as Lichess
 *   aborts a game with fewer than two moves. With two seats taking turns the two rules are the
 *   same; "every seat moved" is the one that stays right when one seat may move several times
 *   in a row (Richard III). The abort comes first, whatever the game's policy.
 * - Policy `loss` (leagues): the game ends at once. Policy `claim`: the game waits; the seats
 *   that are not out of time may claim the win (Board Game Arena lets the opponent decide).
 *   Until someone claims, the flagged seat may still move: once it hands the turn over its
 *   overrun is forgiven and the claim lapses (clock.ts afterChange). An abort or a draw needs
 *   nobody's claim: they end the game under either policy.
 */
import { isFlagged, type ClockState, type Flag } from './clock.ts';
import type { TimeoutPolicy } from './controls.ts';

export type TimeoutOutcome =
  /** No result and unrated: `flagged` ran out before every seat had moved. */
  | { kind: 'aborted'; flagged: string; at: number }
  | { kind: 'loss'; loser: string; winners: string[]; at: number }
  /** The game goes on until one of `claimants` claims the win over `flagged`. */
  | { kind: 'claimable'; flagged: string; claimants: string[]; at: number }
  /** Every seat in `flagged` ran out at the same millisecond. */
  | { kind: 'draw'; flagged: string[]; at: number };

export interface TimeoutInput {
  /** The seats out of time, as isFlagged() gives them (any order). */
  flags: readonly Flag[];
  /** Moves (handovers) each seat has made, every seat of the game listed. */
  moves: Readonly<Record<string, number>>;
  policy: TimeoutPolicy;
}

/** The outcome of a timeout, or null when nobody is out of time. */
export function timeoutOutcome({ flags, moves, policy }: TimeoutInput): TimeoutOutcome | null {
  if (flags.length === 0) return null;
  const roles = Object.keys(moves);
  for (const f of flags) if (!roles.includes(f.role)) throw new RangeError(`flagged role ${JSON.stringify(f.role)} is not one of the game's`);
  const at = Math.min(...flags.map((f) => f.at));
  const first = flags.filter((f) => f.at === at).map((f) => f.role).sort();
  const others = roles.filter((r) => !first.includes(r));
  if (roles.some((r) => moves[r]! < 1)) return { kind: 'aborted', flagged: first[0]!, at };
  if (first.length > 1) return { kind: 'draw', flagged: first, at };
  return policy === 'loss' ? { kind: 'loss', loser: first[0]!, winners: others, at } : { kind: 'claimable', flagged: first[0]!, claimants: others, at };
}

/** timeoutOutcome for a game's clocks at `now`. */
export function timeoutAt(state: ClockState, now: number, policy: TimeoutPolicy): TimeoutOutcome | null {
  const moves: Record<string, number> = {};
  for (const [role, seat] of Object.entries(state.seats)) moves[role] = seat.moves;
  return timeoutOutcome({ flags: isFlagged(state, now), moves, policy });
}
