// Game records: export (scenario, options, every action; the seed only once
// the game is over) and import (replays the record through the engine —
// every action must be legal for an active role — and rejects it otherwise).
import type { Prisma } from '../generated/prisma/client.ts';
import type { Json } from '../bus/bus.ts';
import { commitChange, findGame, insertGame, listEntries, type LogEntryInput } from '../store/games.ts';
import type { Caller, GameRecord, GameResult, GameSummary, ImportInput } from './api.ts';
import { findModule, unplayableGameType, heldRoles, isOver, loadGame, moduleOf, orderSeats, requirePlayer, summarize, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { resolveOptions } from './game-types.ts';
import { resignationResult } from './lifecycle.ts';
import { settleEnded } from './settle.ts';
import { parseTimeControl } from './clocks.ts';
import { isPlainObject, jsonWithin, MAX_JSON_DEPTH, sameJson } from './json.ts';

const MAX_RECORD_ACTIONS = 100_000;

export async function exportGame(ctx: Ctx, callerIn: Caller, gameId: string): Promise<GameRecord> {
  const caller = requirePlayer(callerIn);
  const game = await loadGame(ctx, caller, gameId);
  const over = isOver(game.status);
  // Before the end the actions name hidden blocks: only a player holding every seat may export then.
  if (!over && heldRoles(game, caller).length !== game.seats.length) {
    throw new ServiceError('forbidden', 'A game in progress can be exported only by a player holding every seat; wait for the end.');
  }
  const actions = (await listEntries(ctx.sql, game.id, { kind: 'action' })).map((e) => ({ role: e.role!, action: e.action as Json }));
  return {
    format: 'herald-game-record',
    formatVersion: 1,
    gameType: game.gameType,
    scenario: game.scenario,
    options: (game.options ?? {}) as Record<string, Json>,
    ...(over ? { seed: game.seed } : {}),
    status: game.status,
    result: (game.result ?? null) as GameResult | null,
    timeControl: (game.timeControl ?? null) as Record<string, Json> | null,
    version: game.version,
    actions,
  };
}

function invalid(field: string, detail: string, extensions: Record<string, unknown> = {}): never {
  throw new ServiceError('invalid_record', detail, { field, ...extensions });
}

const RECORD_FIELDS = ['format', 'formatVersion', 'gameType', 'scenario', 'options', 'seed', 'status', 'result', 'version', 'actions', 'timeControl'];
const MAX_SEED = 200;
const MAX_OPTIONS_BYTES = 10_000;

/**
 * The claimed result as {winner, reason} and nothing else; how it must read is
 * decided by the replay (importGame).
 */
function claimedResult(r: Record<string, unknown>): GameResult {
  const c = r.result;
  if (!isPlainObject(c)) invalid('result', 'A finished record has a result: {"winner", "reason"}.');
  const extra = Object.keys(c).filter((k) => k !== 'winner' && k !== 'reason');
  if (extra.length) invalid(`result.${extra[0]}`, `A result has only "winner" and "reason", not "${extra[0]}".`);
  if (c.winner !== null && typeof c.winner !== 'string') invalid('result.winner', 'result.winner is a role or null.');
  if (typeof c.reason !== 'string') invalid('result.reason', 'result.reason is a string.');
  return { winner: c.winner, reason: c.reason };
}

/**
 * Imports a game that is over. Every field is checked, and every claim is
 * verified against the replay: each action legal for an active role, the
 * result the rules reached (winner and reason) or else a resignation exactly
 * as the service records one, an abandoned game still running when it ends. Only `version`
 * is partly free: the record leaves out seat changes (joins, leaves), which
 * also counted, so it must only be at least the changes the record shows.
 */
export async function importGame(ctx: Ctx, callerIn: Caller, input: ImportInput): Promise<GameSummary> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input) || !isPlainObject(input.record)) throw new ServiceError('invalid_request', 'The body must be {"record": <game record>}.');
  const visibility = input.visibility ?? 'public';
  if (visibility !== 'public' && visibility !== 'private') throw new ServiceError('invalid_request', 'visibility must be public or private.');
  const r = input.record as unknown as Record<string, unknown>;
  if (r.format !== 'herald-game-record') invalid('format', 'Not a herald-game-record.');
  if (r.formatVersion !== 1) invalid('formatVersion', 'Only format version 1 can be imported.');
  const unknownField = Object.keys(r).find((k) => !RECORD_FIELDS.includes(k));
  if (unknownField !== undefined) invalid(unknownField, `A game record has no field "${unknownField}" (fields: ${RECORD_FIELDS.join(', ')}).`);
  const m = findModule(ctx, r.gameType);
  if (!m) {
    const known = ctx.dataGames?.some((g) => g.id === r.gameType);
    invalid('gameType', known ? unplayableGameType(ctx, r.gameType).message : `Unknown gameType ${JSON.stringify(r.gameType)}.`);
  }
  if (typeof r.scenario !== 'string' || !m.scenarios.some((s) => s.id === r.scenario)) invalid('scenario', `Unknown scenario ${JSON.stringify(r.scenario)}.`);
  const given = r.options ?? {};
  if (!isPlainObject(given) || !jsonWithin(given, MAX_OPTIONS_BYTES)) invalid('options', `options must be a JSON object (at most ${MAX_OPTIONS_BYTES} bytes, nested at most ${MAX_JSON_DEPTH} deep).`);
  const options = resolveOptions(m, r.scenario, given, 'invalid_record');
  if (typeof r.seed !== 'string' || r.seed === '' || r.seed.length > MAX_SEED) {
    invalid('seed', `The record has no seed (a non-empty string of at most ${MAX_SEED} characters): only records of games that are over can be imported.`);
  }
  if (r.status !== 'finished' && r.status !== 'abandoned') invalid('status', 'Only records of games that are over (finished or abandoned) can be imported.');
  if (!Array.isArray(r.actions) || r.actions.length > MAX_RECORD_ACTIONS) invalid('actions', `actions must be an array of at most ${MAX_RECORD_ACTIONS} entries.`);
  if (!Number.isSafeInteger(r.version) || (r.version as number) < 0) invalid('version', 'version must be a non-negative integer.');
  // An abandoned game was aborted (result null): before the first action, or later by its
  // creator when every seat was Herald's AI (lifecycle.ts abort), or by its league; or it timed
  // out before every seat had moved (result {winner: null, reason: "timeout"}: clocks.ts
  // fireTimeout). Its actions, if any, must replay and leave the game running (checked below).
  const abandonedByTimeout = r.status === 'abandoned' && isPlainObject(r.result) && r.result.reason === 'timeout';
  if (r.status === 'abandoned' && abandonedByTimeout) {
    const c = claimedResult(r);
    if (c.winner !== null) invalid('result.winner', 'A game abandoned by timeout has no winner (null).');
  } else if (r.status === 'abandoned') {
    if (r.result !== null) invalid('result', 'An abandoned game has no result (null), unless it timed out (reason "timeout").');
  }
  const claimed = r.status === 'finished' || abandonedByTimeout ? claimedResult(r) : null;
  // The game's clock (optional: records exported before it was written have none). Only a game
  // with a clock can end on time: a "timeout" result used to be taken on any record.
  let timeControl: ReturnType<typeof parseTimeControl> = null;
  try {
    timeControl = parseTimeControl(r.timeControl);
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    invalid('timeControl', err.message, { problems: err.extensions.problems });
  }
  if (claimed?.reason === 'timeout' && timeControl === null) {
    invalid('result.reason', 'A game ends on time ("timeout") only with a clock: this record has no timeControl.');
  }

  let state: unknown;
  try {
    state = m.setup({ scenario: r.scenario, seed: r.seed, options });
  } catch (err) {
    invalid('options', `The game module rejects the record's settings: ${err instanceof Error ? err.message : String(err)}`);
  }
  const entries: LogEntryInput[] = [{ kind: 'start', role: null, playerId: null, status: 'active', activeRoles: m.activeRoles(state), log: m.logChange(state) as unknown as Prisma.InputJsonValue }];
  for (const [i, step] of r.actions.entries()) {
    const at = `actions[${i}]`;
    if (!isPlainObject(step) || typeof step.role !== 'string' || !('action' in step)) invalid(at, `${at} must be {"role", "action"}.`, { index: i });
    const extra = Object.keys(step).find((k) => k !== 'role' && k !== 'action');
    if (extra !== undefined) invalid(`${at}.${extra}`, `${at} has only "role" and "action", not "${extra}".`, { index: i });
    const active = m.activeRoles(state);
    if (!active.includes(step.role)) invalid(`${at}.role`, `${at}: ${step.role} may not act there (active: ${active.join(', ') || 'nobody'}).`, { index: i });
    if (!m.legalActions(state, step.role).some((a) => sameJson(a, step.action))) {
      invalid(`${at}.action`, `${at} is not a legal action for ${step.role}: the record does not replay.`, { index: i });
    }
    state = m.apply(state, step.role, step.action);
    const st = m.status(state);
    entries.push({
      kind: 'action', role: step.role, playerId: null, action: step.action as Prisma.InputJsonValue,
      log: m.logChange(state) as unknown as Prisma.InputJsonValue,
      status: st.over ? 'finished' : 'active', activeRoles: st.over ? [] : m.activeRoles(state),
    });
  }
  const st = m.status(state);
  if (st.over) {
    // The rules ended the game (no action can follow: nobody is active then).
    const replayed: GameResult = { winner: st.winner, reason: st.reason ?? 'game over' };
    if (r.status !== 'finished') invalid('status', `The replay ends the game (${replayed.reason}): the record must say finished.`);
    if (claimed!.winner !== replayed.winner) invalid('result.winner', `The replay's winner is ${replayed.winner ?? 'nobody'}, not ${claimed!.winner ?? 'nobody'}.`, { replayed });
    if (claimed!.reason !== replayed.reason) invalid('result.reason', `The replay ends with "${replayed.reason}", not "${claimed!.reason}".`, { replayed });
  } else if (claimed && claimed.reason === 'timeout') {
    // Ended by a clock, recorded as fireTimeout records it: the loser (the seat other than the
    // winner) must have been to act when the record ends, since only a running clock runs out.
    const active = m.activeRoles(state);
    if (r.status === 'abandoned') {
      entries.push({ kind: 'timeout', role: null, playerId: null, status: 'abandoned', activeRoles: [] });
    } else {
      const losers = m.roles.filter((x) => x !== claimed.winner);
      if (claimed.winner === null || !m.roles.includes(claimed.winner) || losers.length !== 1) {
        invalid('result.winner', `A game lost on time has a winner, one of ${m.roles.join(', ')}, and one loser.`);
      }
      if (!active.includes(losers[0]!)) invalid('result.winner', `${losers[0]} was not to act when the record ends (active: ${active.join(', ') || 'nobody'}), so its time cannot have run out.`);
      entries.push({ kind: 'timeout', role: losers[0]!, playerId: null, status: 'finished', activeRoles: [] });
    }
  } else if (claimed) {
    // Finished but not over by the rules: only a resignation ends it, recorded exactly as resign() records one.
    const role = /^(.+) resigned$/.exec(claimed.reason)?.[1];
    if (role === undefined || !m.roles.includes(role)) {
      invalid('result.reason', `The replay is not over, so the record must end in a resignation ("<role> resigned", a role of ${m.roles.join(', ')}), not "${claimed.reason}".`);
    }
    const expected = resignationResult(m.roles, role);
    if (claimed.winner !== expected.winner) invalid('result.winner', `When ${role} resigns the winner is ${expected.winner ?? 'nobody'}, not ${claimed.winner ?? 'nobody'}.`);
    entries.push({ kind: 'resign', role, playerId: null, status: 'finished', activeRoles: [] });
  } else {
    entries.push({ kind: 'abort', role: null, playerId: null, status: 'abandoned', activeRoles: [] });
  }
  // Seat changes are not in the record; every other change is.
  // An abandoned record with no actions was aborted at once: its version counts only seat changes and the abort.
  const least = r.status === 'abandoned' && !abandonedByTimeout && r.actions.length === 0 ? 1 : entries.length;
  if ((r.version as number) < least) invalid('version', `The record shows ${least} changes, so its version is at least ${least}, not ${String(r.version)}.`);
  const result = claimed;

  const game = await insertGame(ctx.sql, {
    gameType: m.id,
    scenario: r.scenario,
    options: options as Prisma.InputJsonValue,
    seed: r.seed,
    visibility,
    autoStart: false,
    ...(timeControl ? { timeControl: timeControl as unknown as Prisma.InputJsonValue } : {}),
    createdById: caller.playerId,
    seats: m.roles.map((role) => ({ role, playerId: null })),
  });
  await commitChange(ctx.sql, ctx.commits, {
    gameId: game.id,
    expectedVersion: 0,
    expectedClockRev: 0,
    game: {
      status: r.status,
      state: state as Prisma.InputJsonValue,
      activeRoles: [],
      ...(result ? { result: result as unknown as Prisma.InputJsonValue } : {}),
    },
    entries,
  });
  // Over from the start: nothing to rate (no seat holders, not rated), but settled all the same.
  await settleEnded(ctx, game.id);
  const after = await findGame(ctx.sql, game.id);
  return summarize(orderSeats(ctx, after!), ctx.now());
}
