// After a commit: one message per new version on game:<id>, then "your turn"
// on player:<id> for each seat holder who is active now. Both carry the clock
// after the commit (the last version's event; public to seats and spectators
// alike), so countdowns follow every change without a read. Publishing never
// fails the request — the change is committed already, and subscribers catch
// up from the database (listEventsSince) — but every failure is counted.
import type { Json } from '../bus/bus.ts';
import type { GameRow, LogEntryInput } from '../store/games.ts';
import { gameChannel, playerChannel, type ClockEvent, type GameEvent, type LogEntryKind, type YourTurnEvent } from './api.ts';
import { clockSummary } from './clocks.ts';
import type { Ctx } from './context.ts';

export function eventOf(gameId: string, version: number, e: Pick<LogEntryInput, 'kind' | 'role' | 'playerId' | 'status' | 'activeRoles'>, at: Date): GameEvent {
  return {
    type: e.kind as LogEntryKind,
    gameId,
    version,
    role: e.role,
    playerId: e.playerId,
    activeRoles: e.activeRoles,
    status: e.status,
    at: at.toISOString(),
  };
}

async function publishOne(ctx: Ctx, channel: string, message: GameEvent | YourTurnEvent | ClockEvent): Promise<void> {
  try {
    await ctx.bus.publish(channel, message as unknown as Json);
  } catch (err) {
    ctx.log.warn({ channel, err: err instanceof Error ? err.message : String(err) }, 'bus publish failed (the change is committed)');
    for (const o of ctx.observers) {
      try {
        o.publishFailed?.(channel, err);
      } catch {
        // an observer must not break the request
      }
    }
  }
}

/**
 * Publishes the entries committed as versions firstVersion… Every publish is
 * issued at once, in order (one publisher connection keeps that order), and
 * the caller does not wait for them: a slow or unreachable Redis must not
 * hold up the answer to a request whose change is already committed. The
 * returned promise settles when all are done (never rejects).
 */
export function publishCommitted(ctx: Ctx, game: GameRow, firstVersion: number, entries: LogEntryInput[], at: Date): Promise<void> {
  const sends: Promise<void>[] = [];
  // The clock after the commit belongs to its last version (a game without a control: one null check).
  const clock = clockSummary(game, at.getTime());
  for (const [i, e] of entries.entries()) {
    const event = eventOf(game.id, firstVersion + i, e, at);
    sends.push(publishOne(ctx, gameChannel(game.id), i === entries.length - 1 ? { ...event, clock } : event));
  }
  const last = entries[entries.length - 1];
  if (last && last.status === 'active') {
    const version = firstVersion + entries.length - 1;
    const byPlayer = new Map<string, string[]>();
    for (const seat of game.seats) {
      if (seat.playerId && last.activeRoles.includes(seat.role)) {
        byPlayer.set(seat.playerId, [...(byPlayer.get(seat.playerId) ?? []), seat.role]);
      }
    }
    for (const [playerId, roles] of byPlayer) {
      sends.push(publishOne(ctx, playerChannel(playerId), { type: 'your_turn', gameId: game.id, version, roles, clock }));
    }
  }
  return Promise.all(sends).then(() => undefined);
}

/** A vacation paused or resumed seats of `game` (already the row with the new clocks): the clock, at `now`, to the game's listeners. */
export function publishClockChange(ctx: Ctx, game: GameRow, now: number): Promise<void> {
  const clock = clockSummary(game, now);
  if (clock === null) return Promise.resolve();
  return publishOne(ctx, gameChannel(game.id), { type: 'clock', gameId: game.id, version: game.version, clock });
}
