// THE write path for game actions (REST and GraphQL both call submitAction):
//   authorise the seat → the role is active → the action is in the engine's
//   legal list → apply → one transaction: log entry + new state + version
//   (WHERE version = the version read) + idempotency record → publish.
// A retry carrying the same Idempotency-Key gets the stored response back and
// commits nothing; a stale expectedVersion is a 409 naming the current one.
import type { Prisma } from '../generated/prisma/client.ts';
import type { Json } from '../bus/bus.ts';
import { IllegalActionError } from '../engine/types.ts';
import { gameEvents } from './webhooks.ts';
import { commitChange, findIdempotency, isUniqueViolation, VersionConflict, type GameRow } from '../store/games.ts';
import type { Caller, GameResult, GameStatus, SubmitActionInput, SubmitActionResult } from './api.ts';
import { actingRole, isOver, loadGame, moduleOf, requirePlayer, summarize, type Ctx } from './context.ts';
import { MAX_ATTEMPTS } from './commit.ts';
import { ServiceError } from './errors.ts';
import { publishCommitted } from './events.ts';
import { settleEnded } from './settle.ts';
import { hashJson, isPlainObject, jsonWithin, sameJson } from './json.ts';
import { clockChange, endLate, flaggedAt } from './clocks.ts';
import { actionById } from './choices.ts';
import { rememberView } from './game-cache.ts';

const MAX_IDEMPOTENCY_KEY = 200;
const MAX_ACTION_BYTES = 10_000;
const MAX_ACTION_ID = 200;

function validate(input: SubmitActionInput): void {
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const byId = input.actionId !== undefined && input.actionId !== null;
  if (byId && input.action !== undefined && input.action !== null) {
    throw new ServiceError('invalid_request', 'Give either action (the machine form) or actionId (an id from the legal actions\' choices), not both.');
  }
  if (byId && (typeof input.actionId !== 'string' || input.actionId === '' || input.actionId.length > MAX_ACTION_ID)) {
    throw new ServiceError('invalid_request', `actionId must be a non-empty string of at most ${MAX_ACTION_ID} characters.`);
  }
  if (!byId && (!isPlainObject(input.action) || !jsonWithin(input.action, MAX_ACTION_BYTES))) {
    throw new ServiceError('invalid_request', 'action must be a JSON object (one of the legal actions), or give actionId.');
  }
  const v = input.expectedVersion;
  if (v !== undefined && v !== null && (!Number.isSafeInteger(v) || (v as number) < 0)) {
    throw new ServiceError('invalid_request', 'expectedVersion must be a non-negative integer.');
  }
  const k = input.idempotencyKey;
  if (k !== undefined && k !== null && (typeof k !== 'string' || k === '' || k.length > MAX_IDEMPOTENCY_KEY)) {
    throw new ServiceError('invalid_request', `The idempotency key must be a non-empty string of at most ${MAX_IDEMPOTENCY_KEY} characters.`);
  }
  if (input.role !== undefined && input.role !== null && typeof input.role !== 'string') {
    throw new ServiceError('invalid_request', 'role must be a string.');
  }
}

async function storedResponse(ctx: Ctx, gameId: string, playerId: string, key: string, requestHash: string): Promise<SubmitActionResult | null> {
  const rec = await findIdempotency(ctx.sql, gameId, playerId, key).catch(() => null);
  if (!rec) return null;
  if (rec.requestHash !== requestHash) {
    throw new ServiceError('invalid_request', 'This Idempotency-Key was used for a different request in this game; use a new key.');
  }
  // Stored as JSON text: jsonb would reorder the keys, and a retry gets the identical body.
  return { ...(JSON.parse(rec.response as string) as SubmitActionResult), replayed: true };
}

interface Decided {
  role: string;
  next: unknown;
  /** The action applied (named by the input, or by its id). */
  action: Json;
}

/** The checks of the write path on one read of the game; throws the ServiceError that answers the request. */
function decide(ctx: Ctx, game: GameRow, caller: Caller, input: SubmitActionInput, now: number): Decided {
  if (isOver(game.status)) throw new ServiceError('game_over', `The game is ${game.status}.`, { gameStatus: game.status, result: game.result });
  if (game.status !== 'active') throw new ServiceError('invalid_state', 'The game has not started yet.', { gameStatus: game.status });
  const role = actingRole(ctx, game, caller, input.role);
  // A seat out of time may not move: the caller ends the game by timeout, then answers with this.
  const flagged = game.timeControl === null ? [] : flaggedAt(game, now);
  if (flagged.length > 0) {
    throw new ServiceError('deadline_passed', `The deadline of ${flagged.join(', ')} has passed: the game is over by timeout.`, { flaggedRoles: flagged, currentVersion: game.version });
  }
  const expected = input.expectedVersion ?? null;
  if (expected !== null && expected !== game.version) {
    throw new ServiceError('version_conflict', `The game is at version ${game.version}, not ${expected}.`, { currentVersion: game.version });
  }
  if (!game.activeRoles.includes(role)) {
    throw new ServiceError('not_your_turn', `${role} may not act now (active: ${game.activeRoles.join(', ') || 'nobody'}).`, {
      activeRoles: game.activeRoles,
      currentVersion: game.version,
    });
  }
  const m = moduleOf(ctx, game.gameType);
  const legal = m.legalActions(game.state, role) as Json[];
  let action: Json;
  if (input.actionId !== undefined && input.actionId !== null) {
    // An id is looked up in the legal list of this very read: a stale or unknown id names no action.
    const found = actionById(legal, input.actionId);
    if (found === undefined) {
      throw new ServiceError('illegal_action', `"${input.actionId}" is not the id of a legal action for ${role} at version ${game.version}.`, {
        actionId: input.actionId, legalActions: legal, currentVersion: game.version,
      });
    }
    action = found;
  } else {
    action = input.action as Json;
    if (!legal.some((a) => sameJson(a, action))) {
      // The module may say why (a purchase its army could not deploy, say); else the plain refusal.
      const why = m.refusal?.(game.state, role, action) ?? null;
      throw new ServiceError('illegal_action', `That is not a legal action for ${role} now${why ? `: ${why}` : ''}.`, { legalActions: legal, currentVersion: game.version });
    }
  }
  try {
    return { role, action, next: m.apply(game.state, role, action) };
  } catch (err) {
    if (err instanceof IllegalActionError) {
      throw new ServiceError('illegal_action', err.message, { legalActions: legal, currentVersion: game.version });
    }
    throw err;
  }
}

export async function submitAction(ctx: Ctx, callerIn: Caller, gameId: string, input: SubmitActionInput): Promise<SubmitActionResult> {
  const t0 = performance.now();
  const caller = requirePlayer(callerIn);
  validate(input);
  const key = input.idempotencyKey ?? null;
  // What a retry with the same key must repeat (only needed with a key).
  const requestHash = key === null ? '' : hashJson({
    role: input.role ?? null, expectedVersion: input.expectedVersion ?? null,
    ...(input.actionId !== undefined && input.actionId !== null ? { actionId: input.actionId } : { action: input.action }),
  });
  const expected = input.expectedVersion ?? null;

  // The first read may come from this instance's cache without a round trip:
  // the commit's version check catches a stale one. So a refusal decided on a
  // cached row is checked again on a fresh read before it is sent.
  let fresh = false;
  for (let attempt = 1; ; attempt++) {
    const game: GameRow = await loadGame(ctx, caller, gameId, { trustCache: !fresh });
    if (key !== null && fresh) {
      const stored = await storedResponse(ctx, game.id, caller.playerId, key, requestHash);
      if (stored) return stored;
    }
    const now = ctx.now();
    let d: Decided;
    try {
      d = decide(ctx, game, caller, input, now);
    } catch (err) {
      if (!fresh) {
        fresh = true;
        attempt--;
        continue;
      }
      // Out of time: end the game by timeout (once, whoever commits it: fireTimeout), then refuse.
      if (err instanceof ServiceError && err.code === 'deadline_passed') {
        throw (await endLate(ctx, game.id, err.extensions.flaggedRoles as string[], game.version)).refusal;
      }
      throw err;
    }
    const { role, next } = d;
    const m = moduleOf(ctx, game.gameType);
    const st = m.status(next);
    const status: GameStatus = st.over ? 'finished' : 'active';
    const activeRoles = st.over ? [] : m.activeRoles(next);
    const result: GameResult | null = st.over ? { winner: st.winner, reason: st.reason ?? 'game over' } : null;
    const version = game.version + 1;
    // Nothing at all for a game without a clock (the hot path of most games).
    const clock = game.timeControl === null ? null : clockChange(ctx, game, { status, activeRoles }, role, now);
    const at = new Date(now);

    // The response is built before the commit so that it can be stored with it.
    const after: GameRow = {
      ...game, status, version, activeRoles, state: next as Prisma.JsonValue, result: result as Prisma.JsonValue, updatedAt: at,
      ...(clock?.clocks !== undefined ? { clocks: clock.clocks as Prisma.JsonValue, deadlineAt: clock.deadlineAt ?? null } : {}),
    };
    const response: SubmitActionResult = {
      version,
      role,
      game: summarize(after, now),
      view: m.view(next, role) as Json,
      legalActions: activeRoles.includes(role) ? (m.legalActions(next, role) as Json[]) : [],
    };
    const entry = {
      kind: 'action', role, playerId: caller.playerId, action: d.action as Prisma.InputJsonValue,
      log: m.logChange(next) as unknown as Prisma.InputJsonValue, idempotencyKey: key, status, activeRoles,
    };
    const webhooks = gameEvents(game, { status, activeRoles, version, result, seats: game.seats }, [entry], at);
    try {
      await commitChange(ctx.sql, ctx.commits, {
        gameId: game.id,
        expectedVersion: game.version,
        expectedClockRev: game.clockRev,
        at,
        game: {
          status, state: next as Prisma.InputJsonValue, activeRoles, ...(result ? { result: result as unknown as Prisma.InputJsonValue } : {}),
          ...(clock?.clocks !== undefined ? clock : {}),
        },
        entries: [entry],
        webhooks,
        ...(key !== null
          ? { idempotency: { playerId: caller.playerId, key, requestHash, response: JSON.stringify(response) } }
          : {}),
      });
      if (webhooks.length > 0) ctx.deliveries?.wake();
    } catch (err) {
      const duplicateKey = isUniqueViolation(err) && key !== null;
      // Another request committed first (or a concurrent retry with this key did): decide again on a fresh read.
      if ((err instanceof VersionConflict || duplicateKey) && attempt < MAX_ATTEMPTS) {
        if (err instanceof VersionConflict && expected !== null) {
          // The client pinned a version and the game moved past it: unless that was this very request, 409.
          const stored = key !== null ? await storedResponse(ctx, game.id, caller.playerId, key, requestHash) : null;
          if (stored) return stored;
          const now = await loadGame(ctx, caller, gameId);
          // Still at the pinned version: only the clocks changed (a vacation pause), decide again.
          if (now.version !== expected) throw new ServiceError('version_conflict', `The game is at version ${now.version}, not ${expected}.`, { currentVersion: now.version });
        }
        fresh = true;
        continue;
      }
      if (err instanceof VersionConflict) {
        throw new ServiceError('version_conflict', 'The game kept changing while this action was handled; try again.', { currentVersion: game.version });
      }
      throw err;
    }
    ctx.cache.put(after);
    // The acting seat's stream reads this row next: its view is the one just built for the answer.
    rememberView(after, role, response.view);
    for (const o of ctx.observers) {
      try {
        o.actionCommitted?.(performance.now() - t0, game.gameType);
      } catch {
        // observers never break the request
      }
    }
    void publishCommitted(ctx, after, version, [entry], at);
    // The last move: ratings and the league result are settled before the answer (settle.ts).
    if (status === 'finished') await settleEnded(ctx, game.id);
    return response;
  }
}
