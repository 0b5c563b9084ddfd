// Creating games and the lifecycle around play: seats (join, leave, invite
// codes), start, resign, abort. Every change that moves the version is one
// log entry (api.ts, "Versions").
import type { Prisma } from '../generated/prisma/client.ts';
import { countActions, findGame, insertGame, insertRematch, setInvite, type GameRow, type LogEntryInput } from '../store/games.ts';
import { findPlayer } from '../store/players.ts';
import type { Caller, CreateGameInput, GameSummary, Invite, JoinInput } from './api.ts';
import { actingRole, checkRoleName, findModule, unplayableGameType, heldRoles, isOver, loadGame, moduleOf, orderSeats, requirePlayer, summarize, type Ctx } from './context.ts';
import { mutate, type Decision } from './commit.ts';
import { ServiceError } from './errors.ts';
import { resolveOptions } from './game-types.ts';
import { isPlainObject, jsonWithin, MAX_JSON_DEPTH } from './json.ts';
import { newInviteCode, newSeed, sha256 } from './secrets.ts';
import { parseTimeControl } from './clocks.ts';
import { aiPlayers, parseAiSeats } from './ai-seats.ts';

const MAX_SEED = 200;
const MAX_OPTIONS_BYTES = 10_000;

function isCreator(game: GameRow, caller: Caller): boolean {
  return game.createdById === caller.playerId;
}

function requireSetup(game: GameRow, what: string): void {
  if (game.status !== 'setup') {
    throw new ServiceError(isOver(game.status) ? 'game_over' : 'invalid_state', `Cannot ${what}: the game is ${game.status}.`, { gameStatus: game.status });
  }
}

/** The start as a change: engine setup, first active roles. */
export function startDecision(ctx: Ctx, game: GameRow, byPlayer: string | null): { fields: Decision['game']; entry: LogEntryInput } {
  const m = moduleOf(ctx, game.gameType);
  const state = m.setup({ scenario: game.scenario, seed: game.seed, options: game.options as Record<string, unknown> });
  const activeRoles = m.activeRoles(state);
  return {
    fields: { status: 'active', state: state as Prisma.InputJsonValue, activeRoles },
    entry: { kind: 'start', role: null, playerId: byPlayer, status: 'active', activeRoles, log: m.logChange(state) as unknown as Prisma.InputJsonValue },
  };
}

export async function createGame(ctx: Ctx, callerIn: Caller, input: CreateGameInput): Promise<GameSummary> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const m = findModule(ctx, input.gameType);
  if (!m) throw unplayableGameType(ctx, input.gameType);
  if (typeof input.scenario !== 'string' || !m.scenarios.some((s) => s.id === input.scenario)) {
    throw new ServiceError('invalid_request', `scenario must be one of ${m.scenarios.map((s) => s.id).join(', ')}.`);
  }
  const given = input.options ?? {};
  if (!isPlainObject(given) || !jsonWithin(given, MAX_OPTIONS_BYTES)) {
    throw new ServiceError('invalid_request', `options must be a JSON object (at most ${MAX_OPTIONS_BYTES} bytes, nested at most ${MAX_JSON_DEPTH} deep).`);
  }
  const options = resolveOptions(m, input.scenario, given, 'invalid_options');
  if (input.seed !== undefined && (typeof input.seed !== 'string' || input.seed === '' || input.seed.length > MAX_SEED)) {
    throw new ServiceError('invalid_request', `seed must be a non-empty string of at most ${MAX_SEED} characters.`);
  }
  const visibility = input.visibility ?? 'public';
  if (visibility !== 'public' && visibility !== 'private') throw new ServiceError('invalid_request', 'visibility must be public or private.');
  const roles = input.roles ?? [];
  if (!Array.isArray(roles) || roles.some((r) => typeof r !== 'string' || !m.roles.includes(r)) || new Set(roles).size !== roles.length) {
    throw new ServiceError('invalid_request', `roles must list distinct roles among ${m.roles.join(', ')}.`);
  }
  const ai = parseAiSeats(m, input.ai, roles);
  if (input.autoStart !== undefined && typeof input.autoStart !== 'boolean') throw new ServiceError('invalid_request', 'autoStart must be a boolean.');
  const autoStart = input.autoStart ?? true;
  if (input.rated !== undefined && typeof input.rated !== 'boolean') throw new ServiceError('invalid_request', 'rated must be a boolean.');
  const rated = input.rated ?? false;
  const timeControl = parseTimeControl(input.timeControl);
  const seed = input.seed ?? newSeed();
  // Check the options and scenario with the engine before storing anything.
  try {
    m.setup({ scenario: input.scenario, seed, options });
  } catch (err) {
    throw new ServiceError('invalid_request', `The game module rejects these settings: ${err instanceof Error ? err.message : String(err)}`);
  }
  const aiIds = ai.size > 0 ? await aiPlayers(ctx) : new Map<string, string>();
  const seatOf = (role: string): string | null => (roles.includes(role) ? caller.playerId : ai.has(role) ? aiIds.get(ai.get(role)!)! : null);
  let game = await insertGame(ctx.sql, {
    gameType: m.id,
    scenario: input.scenario,
    options: options as Prisma.InputJsonValue,
    seed,
    visibility,
    autoStart,
    rated,
    ...(timeControl !== null ? { timeControl: timeControl as unknown as Prisma.InputJsonValue } : {}),
    createdById: caller.playerId,
    seats: m.roles.map((role) => ({ role, playerId: seatOf(role) })),
  });
  orderSeats(ctx, game);
  if (autoStart && roles.length + ai.size === m.roles.length) {
    game = await mutate(ctx, caller, game.id, (g) => {
      requireSetup(g, 'start');
      const s = startDecision(ctx, g, caller.playerId);
      return { game: s.fields, entries: [s.entry] };
    });
  }
  return summarize(game, ctx.now());
}

export async function join(ctx: Ctx, callerIn: Caller, gameId: string, input: JoinInput): Promise<GameSummary> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const code = input.inviteCode;
  if (code !== undefined && (typeof code !== 'string' || code === '')) throw new ServiceError('invalid_request', 'inviteCode must be a string.');
  const codeHash = code === undefined ? null : sha256(code);
  // A private game is invisible without a seat: a valid invite code lets one in.
  const load = async (id: string): Promise<GameRow> => {
    try {
      return await loadGame(ctx, caller, id);
    } catch (err) {
      if (codeHash === null) throw err;
      const g = await findGame(ctx.sql, id).catch(() => null);
      if (!g || !g.seats.some((s) => s.inviteCodeHash === codeHash)) throw err;
      return orderSeats(ctx, g);
    }
  };
  const after = await mutate(ctx, caller, gameId, (game) => {
    requireSetup(game, 'join');
    let seat;
    if (input.role !== undefined) {
      const role = checkRoleName(ctx, game, input.role);
      seat = game.seats.find((s) => s.role === role)!;
    } else if (codeHash !== null) {
      seat = game.seats.find((s) => s.inviteCodeHash === codeHash);
    } else {
      seat = game.seats.find((s) => s.playerId === null && s.inviteCodeHash === null);
    }
    if (!seat) throw new ServiceError('invalid_state', 'No open seat to join.');
    if (seat.playerId !== null) throw new ServiceError('invalid_state', `The ${seat.role} seat is taken.`);
    if (seat.inviteCodeHash !== null && seat.inviteCodeHash !== codeHash) {
      throw new ServiceError('forbidden', `The ${seat.role} seat is reserved for an invite code.`);
    }
    if (seat.inviteCodeHash === null && codeHash !== null) throw new ServiceError('forbidden', 'That invite code is not for this seat.');
    const seats = game.seats.map((s) => (s.role === seat.role ? { ...s, playerId: caller.playerId } : s));
    const entries: LogEntryInput[] = [{ kind: 'join', role: seat.role, playerId: caller.playerId, status: 'setup', activeRoles: [] }];
    let fields: Decision['game'] = {};
    if (game.autoStart && seats.every((s) => s.playerId !== null)) {
      const s = startDecision(ctx, game, null);
      fields = s.fields;
      entries.push(s.entry);
    }
    return { game: fields, seats: [{ role: seat.role, playerId: caller.playerId, inviteCodeHash: null }], entries };
  }, load);
  return summarize(after, ctx.now());
}

export async function leave(ctx: Ctx, callerIn: Caller, gameId: string, input: { role?: string }): Promise<GameSummary> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const after = await mutate(ctx, caller, gameId, (game) => {
    requireSetup(game, 'leave (resign instead once the game has started)');
    const role = actingRole(ctx, game, caller, input.role);
    return {
      game: {},
      seats: [{ role, playerId: null }],
      entries: [{ kind: 'leave', role, playerId: caller.playerId, status: 'setup', activeRoles: [] }],
    };
  });
  return summarize(after, ctx.now());
}

export async function createInvite(ctx: Ctx, callerIn: Caller, gameId: string, input: { role: string }): Promise<Invite> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const game = await loadGame(ctx, caller, gameId);
  if (!isCreator(game, caller) && heldRoles(game, caller).length === 0) {
    throw new ServiceError('forbidden', 'Only the creator or a seat holder invites players.');
  }
  requireSetup(game, 'invite');
  const role = checkRoleName(ctx, game, input.role);
  const { code, hash } = newInviteCode();
  if (!(await setInvite(ctx.db, game.id, role, hash))) throw new ServiceError('invalid_state', `The ${role} seat is taken.`);
  return { gameId: game.id, role, code };
}

export async function start(ctx: Ctx, callerIn: Caller, gameId: string): Promise<GameSummary> {
  const caller = requirePlayer(callerIn);
  const after = await mutate(ctx, caller, gameId, (game) => {
    if (!isCreator(game, caller) && heldRoles(game, caller).length === 0) {
      throw new ServiceError('forbidden', 'Only the creator or a seat holder starts the game.');
    }
    requireSetup(game, 'start');
    const open = game.seats.filter((s) => s.playerId === null).map((s) => s.role);
    if (open.length > 0) throw new ServiceError('invalid_state', `Seats still open: ${open.join(', ')}.`, { openRoles: open });
    const s = startDecision(ctx, game, caller.playerId);
    return { game: s.fields, entries: [s.entry] };
  });
  return summarize(after, ctx.now());
}

/**
 * The result a resignation of `role` gives; an imported record's resignation
 * must read exactly so (records.ts). A GameResult, spelt as a plain object type
 * so that it is also a JSON value for the commit.
 */
export function resignationResult(roles: readonly string[], role: string): { winner: string | null; reason: string } {
  const others = roles.filter((r) => r !== role);
  return { winner: others.length === 1 ? others[0]! : null, reason: `${role} resigned` };
}

export async function resign(ctx: Ctx, callerIn: Caller, gameId: string, input: { role?: string }): Promise<GameSummary> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const after = await mutate(ctx, caller, gameId, (game) => {
    if (game.status !== 'active') {
      throw new ServiceError(isOver(game.status) ? 'game_over' : 'invalid_state', `Cannot resign: the game is ${game.status}.`);
    }
    const role = actingRole(ctx, game, caller, input.role);
    const result = resignationResult(moduleOf(ctx, game.gameType).roles, role);
    return {
      game: { status: 'finished', result, activeRoles: [] },
      entries: [{ kind: 'resign', role, playerId: caller.playerId, status: 'finished', activeRoles: [] }],
    };
  });
  return summarize(after, ctx.now());
}

export async function abort(ctx: Ctx, callerIn: Caller, gameId: string): Promise<GameSummary> {
  const caller = requirePlayer(callerIn);
  const after = await mutate(ctx, caller, gameId, async (game) => {
    if (!isCreator(game, caller) && heldRoles(game, caller).length === 0) {
      throw new ServiceError('forbidden', 'Only the creator or a seat holder aborts the game.');
    }
    if (isOver(game.status)) throw new ServiceError('game_over', `Cannot abort: the game is ${game.status}.`);
    if (game.pairing) throw new ServiceError('forbidden', "A league game cannot be aborted (it would leave the pairing unplayed): resign, or ask the league's organiser to set the result.");
    // A game the AI plays against itself has nobody to resign: its creator stops it at any time.
    if (isCreator(game, caller) && allSeatsAi(game)) return aborted(caller);
    // The version check of the commit makes this count current: an action committed meanwhile conflicts.
    if ((await countActions(ctx.db, game.id)) > 0) {
      throw new ServiceError('invalid_state', 'Cannot abort after the first action; resign instead.');
    }
    return aborted(caller);
  });
  return summarize(after, ctx.now());
}

/** The abort as a change: abandoned (unrated), no result, the caller named in the log. */
function aborted(caller: { playerId: string }): Decision {
  return {
    game: { status: 'abandoned', activeRoles: [] },
    entries: [{ kind: 'abort', role: null, playerId: caller.playerId, status: 'abandoned', activeRoles: [] }],
  };
}

/** Every seat is held by Herald's AI (a game to watch): nobody holds a seat who could resign. */
export function allSeatsAi(game: GameRow): boolean {
  return game.seats.length > 0 && game.seats.every((s) => s.player !== null && s.player.aiLevel !== null);
}

/** A game read from the database (not the cache) with its seats in role order, for mutate() by the league; not_found when there is none. */
async function loadUncached(ctx: Ctx, id: string): Promise<GameRow> {
  const g = await findGame(ctx.sql, id);
  if (!g) throw new ServiceError('not_found', 'No such game.');
  return orderSeats(ctx, g);
}

/**
 * Ends a league game that the league no longer needs (its board was decided otherwise: a
 * forfeit, a confirmed report, an organiser's result): abandoned, no winner, through the one
 * write path so that spectators and players see it end. A game already over is left alone.
 */
export async function endLeagueGame(ctx: Ctx, gameId: string, reason: string): Promise<void> {
  const load = (id: string) => loadUncached(ctx, id);
  try {
    await mutate(ctx, null, gameId, (game) => {
      if (isOver(game.status)) throw new ServiceError('game_over', 'The game is over already.');
      return {
        game: { status: 'abandoned', activeRoles: [], result: { winner: null, reason } },
        entries: [{ kind: 'abort', role: null, playerId: null, status: 'abandoned', activeRoles: [] }],
      };
    }, load);
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'game_over') return;
    throw err;
  }
}

/**
 * A league stand-in takes over a running game's seat (league-stand-in.ts): the seat's player
 * becomes `playerId` (Herald's AI), from the current position and with the seat's clock as it
 * is, recorded in the log as a `join` of that player while the game is active. Only from
 * `from` (the entrant): nothing when the game is over or the seat is no longer theirs (an AI
 * took it already — another stand-in's takeover, or the round was seated with it — and plays
 * it to the end; decided on the game's current version, so two takeovers at once make one).
 */
export async function takeOverSeat(ctx: Ctx, gameId: string, role: string, playerId: string, from: string): Promise<void> {
  const load = (id: string) => loadUncached(ctx, id);
  try {
    await mutate(ctx, null, gameId, (game) => {
      if (isOver(game.status)) throw new ServiceError('game_over', 'The game is over already.');
      const seat = game.seats.find((s) => s.role === role);
      if (!seat) throw new ServiceError('invalid_state', `The game has no ${role} seat.`);
      if (seat.playerId !== from) throw new ServiceError('game_over', 'The seat is no longer the entrant\'s.');
      return {
        game: {},
        seats: [{ role, playerId }],
        entries: [{ kind: 'join', role, playerId, status: game.status, activeRoles: game.activeRoles }],
      };
    }, load);
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'game_over') return;
    throw err;
  }
}

/**
 * The rematch of a game that is over (GameServiceApi.rematch): created by the
 * first player who asks, joined by the second. The new game's id is stored on
 * the old one in the transaction that creates it (store insertRematch), so two
 * players asking at once get one game.
 */
export async function rematch(ctx: Ctx, callerIn: Caller, gameId: string): Promise<GameSummary> {
  const caller = requirePlayer(callerIn);
  for (let attempt = 0; attempt < 2; attempt++) {
    // Read past the cache: rematch_id is set without a new version, which is what the cache checks.
    const seen = await loadGame(ctx, caller, gameId);
    const old = orderSeats(ctx, (await findGame(ctx.sql, seen.id)) ?? seen);
    if (!isOver(old.status)) throw new ServiceError('invalid_state', `A rematch is for a game that is over; this one is ${old.status}.`, { gameStatus: old.status });
    if (old.pairing) throw new ServiceError('invalid_state', 'A league game has no rematch: the league pairs its rounds.');
    const held = heldRoles(old, caller);
    if (held.length === 0) throw new ServiceError('forbidden', 'Only a player of the game asks for its rematch.');
    const m = moduleOf(ctx, old.gameType);
    // Each player moves to the next role (two roles: the sides swap).
    const nextRole = (role: string) => m.roles[(m.roles.indexOf(role) + 1) % m.roles.length]!;
    const wanted = new Map(old.seats.filter((s) => s.playerId !== null).map((s) => [nextRole(s.role), s.playerId!]));
    if (old.rematchId !== null) return joinRematch(ctx, caller, old.rematchId, [...wanted].filter(([, p]) => p === caller.playerId).map(([r]) => r));

    const seats: { role: string; playerId: string | null; inviteCodeHash: string | null }[] = [];
    for (const role of m.roles) {
      const player = wanted.get(role) ?? null;
      // The caller's own seats, and those of players the caller may act for, are taken now; the others are kept for their player.
      // An AI seat of the old game is the AI's again: it needs no invitation.
      const ai = old.seats.some((s) => s.playerId === player && s.player?.aiLevel);
      const taken = player !== null && (player === caller.playerId || ai || (await actsFor(ctx, caller, player)));
      seats.push({ role, playerId: taken ? player : null, inviteCodeHash: taken || player === null ? null : newInviteCode().hash });
    }
    let game = await insertRematch(ctx.db, old.id, {
      gameType: old.gameType,
      scenario: old.scenario,
      options: old.options as Prisma.InputJsonValue,
      seed: newSeed(),
      visibility: old.visibility,
      autoStart: old.autoStart,
      rated: old.rated,
      ...(old.timeControl !== null ? { timeControl: old.timeControl as Prisma.InputJsonValue } : {}),
      createdById: caller.playerId,
      seats,
    });
    // Someone else's rematch won the race: join theirs.
    if (game === null) continue;
    ctx.cache.drop(old.id);
    orderSeats(ctx, game);
    if (game.autoStart && game.seats.every((s) => s.playerId !== null)) {
      game = await mutate(ctx, caller, game.id, (g) => {
        requireSetup(g, 'start');
        const s = startDecision(ctx, g, caller.playerId);
        return { game: s.fields, entries: [s.entry] };
      });
    }
    return summarize(game, ctx.now());
  }
  throw new ServiceError('version_conflict', 'The rematch kept changing while this request was handled; try again.');
}

/** True when the caller is an application acting for a player it created, and `player` is another player it created. */
async function actsFor(ctx: Ctx, caller: Caller, player: string): Promise<boolean> {
  if (caller.appId === undefined) return false;
  const p = await findPlayer(ctx.db, player);
  return p !== null && p.createdById === caller.appId;
}

/** The caller takes the seats kept for them in the rematch `gameId` (starting it when it is full); already seated: the game as it is. */
async function joinRematch(ctx: Ctx, caller: Caller, gameId: string, roles: string[]): Promise<GameSummary> {
  const load = async (id: string): Promise<GameRow> => {
    const g = await findGame(ctx.sql, id);
    if (!g) throw new ServiceError('not_found', `No game ${id}.`);
    return orderSeats(ctx, g);
  };
  const now = await load(gameId);
  if (now.seats.every((s) => !roles.includes(s.role) || s.playerId === caller.playerId)) return summarize(now, ctx.now());
  const after = await mutate(ctx, caller, gameId, (game) => {
    const open = game.seats.filter((s) => roles.includes(s.role) && s.playerId === null);
    if (open.length === 0) throw new ServiceError('invalid_state', 'Your seat in the rematch is no longer open.');
    requireSetup(game, 'join');
    const seats = game.seats.map((s) => (open.includes(s) ? { ...s, playerId: caller.playerId } : s));
    const entries: LogEntryInput[] = open.map((s) => ({ kind: 'join', role: s.role, playerId: caller.playerId, status: 'setup', activeRoles: [] }));
    let fields: Decision['game'] = {};
    if (game.autoStart && seats.every((s) => s.playerId !== null)) {
      const s = startDecision(ctx, game, null);
      fields = s.fields;
      entries.push(s.entry);
    }
    return { game: fields, seats: open.map((s) => ({ role: s.role, playerId: caller.playerId, inviteCodeHash: null })), entries };
  }, load);
  return summarize(after, ctx.now());
}
