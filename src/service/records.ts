// Game records: export (scenario, options, every action; the seed only once
// the game is over) and import (replays the record through the engine —
// every action must be legal for an active role — and rejects it otherwise).
import type { Prisma } from '../generated/prisma/client.ts';
import type { Json } from '../bus/bus.ts';
import { commitChange, findGame, insertGame, listEntries, type LogEntryInput } from '../store/games.ts';
import type { Caller, GameRecord, GameResult, GameSummary, ImportInput } from './api.ts';
import { heldRoles, isOver, loadGame, moduleOf, orderSeats, requirePlayer, summarize, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { isPlainObject, sameJson } from './json.ts';

const MAX_RECORD_ACTIONS = 100_000;

export async function exportGame(ctx: Ctx, callerIn: Caller, gameId: string): Promise<GameRecord> {
  const caller = requirePlayer(callerIn);
  const game = await loadGame(ctx, caller, gameId);
  const over = isOver(game.status);
  // Before the end the actions name hidden blocks: only a player holding every seat may export then.
  if (!over && heldRoles(game, caller).length !== game.seats.length) {
    throw new ServiceError('forbidden', 'A game in progress can be exported only by a player holding every seat; wait for the end.');
  }
  const actions = (await listEntries(ctx.db, game.id, { kind: 'action' })).map((e) => ({ role: e.role!, action: e.action as Json }));
  return {
    format: 'herald-game-record',
    formatVersion: 1,
    gameType: game.gameType,
    scenario: game.scenario,
    options: (game.options ?? {}) as Record<string, Json>,
    ...(over ? { seed: game.seed } : {}),
    status: game.status,
    result: (game.result ?? null) as GameResult | null,
    version: game.version,
    actions,
  };
}

function invalid(detail: string, extensions: Record<string, unknown> = {}): never {
  throw new ServiceError('invalid_record', detail, extensions);
}

export async function importGame(ctx: Ctx, callerIn: Caller, input: ImportInput): Promise<GameSummary> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input) || !isPlainObject(input.record)) throw new ServiceError('invalid_request', 'The body must be {"record": <game record>}.');
  const visibility = input.visibility ?? 'public';
  if (visibility !== 'public' && visibility !== 'private') throw new ServiceError('invalid_request', 'visibility must be public or private.');
  const r = input.record;
  if (r.format !== 'herald-game-record' || r.formatVersion !== 1) invalid('Not a herald-game-record, format version 1.');
  const m = typeof r.gameType === 'string' ? ctx.games[r.gameType] : undefined;
  if (!m) invalid(`Unknown gameType ${String(r.gameType)}.`);
  if (typeof r.scenario !== 'string' || !m.scenarios.some((s) => s.id === r.scenario)) invalid(`Unknown scenario ${String(r.scenario)}.`);
  const options = r.options ?? {};
  if (!isPlainObject(options)) invalid('options must be an object.');
  if (typeof r.seed !== 'string' || r.seed === '') invalid('The record has no seed: only records of games that are over can be imported.');
  if (r.status !== 'finished' && r.status !== 'abandoned') invalid('Only records of games that are over (finished or abandoned) can be imported.');
  if (!Array.isArray(r.actions) || r.actions.length > MAX_RECORD_ACTIONS) invalid(`actions must be an array of at most ${MAX_RECORD_ACTIONS} entries.`);

  let state: unknown;
  try {
    state = m.setup({ scenario: r.scenario, seed: r.seed, options });
  } catch (err) {
    invalid(`The game module rejects the record's settings: ${err instanceof Error ? err.message : String(err)}`);
  }
  const entries: LogEntryInput[] = [{ kind: 'start', role: null, playerId: null, status: 'active', activeRoles: m.activeRoles(state), log: m.logChange(state) as unknown as Prisma.InputJsonValue }];
  for (const [i, step] of r.actions.entries()) {
    if (!isPlainObject(step) || typeof step.role !== 'string') invalid(`actions[${i}] must be {"role", "action"}.`, { index: i });
    const active = m.activeRoles(state);
    if (!active.includes(step.role)) invalid(`actions[${i}]: ${step.role} may not act there (active: ${active.join(', ') || 'nobody'}).`, { index: i });
    if (!m.legalActions(state, step.role).some((a) => sameJson(a, step.action))) {
      invalid(`actions[${i}] is not a legal action for ${step.role}: the record does not replay.`, { index: i });
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
  let result: GameResult | null = null;
  const claimed = r.result as GameResult | null;
  if (st.over) {
    if (r.status !== 'finished' || !claimed || claimed.winner !== st.winner) invalid('The record\'s result differs from the replayed game\'s.');
    result = { winner: st.winner, reason: st.reason ?? 'game over' };
  } else if (r.status === 'finished') {
    // Not over by the rules: only a resignation ends it.
    const resigned = claimed && typeof claimed.reason === 'string' && /^(\S+) resigned$/.exec(claimed.reason)?.[1];
    const others = m.roles.filter((x) => x !== resigned);
    if (!resigned || !m.roles.includes(resigned) || claimed.winner !== (others.length === 1 ? others[0] : null)) {
      invalid('The record says finished but the replay is not over, and its result is not a resignation.');
    }
    result = { winner: claimed.winner, reason: claimed.reason };
    entries.push({ kind: 'resign', role: resigned, playerId: null, status: 'finished', activeRoles: [] });
  } else {
    if (r.actions.length > 0) invalid('An abandoned game has no actions (abort is possible only before the first).');
    entries.push({ kind: 'abort', role: null, playerId: null, status: 'abandoned', activeRoles: [] });
  }
  for (const e of entries) if (e.kind === 'action' && e.status === 'finished' && e !== entries[entries.length - 1]) invalid('The record goes on after the game ended.');

  const game = await insertGame(ctx.db, {
    gameType: m.id,
    scenario: r.scenario,
    options: options as Prisma.InputJsonValue,
    seed: r.seed,
    visibility,
    autoStart: false,
    createdById: caller.playerId,
    seats: m.roles.map((role) => ({ role, playerId: null })),
  });
  await commitChange(ctx.db, ctx.commits, {
    gameId: game.id,
    expectedVersion: 0,
    game: {
      status: r.status,
      state: state as Prisma.InputJsonValue,
      activeRoles: [],
      ...(result ? { result: result as unknown as Prisma.InputJsonValue } : {}),
    },
    entries,
  });
  const after = await findGame(ctx.sql, game.id);
  return summarize(orderSeats(ctx, after!));
}
