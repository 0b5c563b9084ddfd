/**
 * Bot players for league games, through the public REST API only: each seat asks for its legal
 * actions (GET /games/{id}/actions), picks one with a seeded RNG and submits it with
 * `expectedVersion` (POST /games/{id}/actions); or a seat resigns (POST /games/{id}/resign).
 * Seats are found from the game's summary, so the bot plays whatever sides the league assigned.
 */
import { nextUint32, seedRng, type RngState } from '../../src/engine/rng.ts';
import type { Client } from '../http/rest-helpers.ts';

const UNDO = new Set(['undo', 'take_back']);

export interface Rng {
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform in [0, 1). */
  next(): number;
}

export function rng(seed: string): Rng {
  const s: RngState = seedRng(seed);
  const next = () => nextUint32(s) / 0x100000000;
  return { next, int: (n) => Math.floor(next() * n) };
}

/** A random legal action; take-backs are rare (weight 0.05) so that games move on and end. */
function pick(actions: readonly unknown[], r: Rng): unknown {
  const w = (a: unknown) => (UNDO.has((a as { type?: string }).type ?? '') ? 0.05 : 1);
  let x = r.next() * actions.reduce<number>((s, a) => s + w(a), 0);
  for (const a of actions) if ((x -= w(a)) < 0) return a;
  return actions[actions.length - 1];
}

export interface GameSummary {
  id: string;
  status: string;
  version: number;
  activeRoles: string[];
  seats: { role: string; player: { id: string } | null }[];
  result: { winner: string | null; reason: string } | null;
  updatedAt: string;
}

export interface PlayOutcome {
  game: GameSummary;
  /** Actions this bot submitted. */
  actions: number;
  /** Requests it made. */
  requests: number;
}

async function json<T>(p: Promise<{ statusCode: number; body: string; json(): unknown }>, what: string): Promise<T> {
  const res = await p;
  if (res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

/** The client holding each role of the game. */
async function seatsOf(gameId: string, clients: ReadonlyMap<string, Client>): Promise<{ game: GameSummary; seat: Map<string, Client> }> {
  const any = clients.values().next().value!;
  const game = await json<GameSummary>(any.req('GET', `/games/${gameId}`), 'game');
  const seat = new Map<string, Client>();
  for (const s of game.seats) {
    const c = s.player && clients.get(s.player.id);
    if (!c) throw new Error(`bots: no client for seat ${s.role} of ${gameId}`);
    seat.set(s.role, c);
  }
  return { game, seat };
}

/**
 * Plays random legal actions for both seats until the game is over or `maxActions` actions
 * were made. When both seats are to act (simultaneous card play) a seat whose only choice is a
 * take-back lets the other go first, as examples/rest-bot.ts does, else the take-back could
 * starve the other seat.
 */
export async function playRandom(gameId: string, clients: ReadonlyMap<string, Client>, seed: string, maxActions = Infinity): Promise<PlayOutcome> {
  const r = rng(seed);
  let { game, seat } = await seatsOf(gameId, clients);
  let actions = 0;
  let requests = 1;
  // Legal actions we already hold for (role, version), from the last action's answer.
  let known: { role: string; version: number; actions: unknown[] } | null = null;
  while (game.status === 'active' && actions < maxActions) {
    const lists = new Map<string, unknown[]>();
    for (const role of game.activeRoles) {
      if (known && known.role === role && known.version === game.version) {
        lists.set(role, known.actions);
        continue;
      }
      const res = await json<{ version: number; actions: unknown[] }>(seat.get(role)!.req('GET', `/games/${gameId}/actions`), 'legal actions');
      requests++;
      if (res.version !== game.version) throw new Error(`bots: legal actions for version ${res.version}, game at ${game.version}`);
      lists.set(role, res.actions);
    }
    const candidates = [...lists].filter(([, a]) => a.length > 0);
    const useful = candidates.filter(([, a]) => !a.every((x) => UNDO.has((x as { type?: string }).type ?? '')));
    const from = useful.length > 0 ? useful : candidates;
    if (from.length === 0) throw new Error(`bots: nobody can act in ${gameId} at version ${game.version}`);
    const [role, list] = from[r.int(from.length)];
    const action = pick(list, r);
    const res = await json<{ game: GameSummary; legalActions: unknown[] }>(
      seat.get(role)!.req('POST', `/games/${gameId}/actions`, { action, expectedVersion: game.version }),
      'action',
    );
    requests++;
    actions++;
    game = res.game;
    known = { role, version: game.version, actions: res.legalActions };
  }
  return { game, actions, requests };
}

/** `actions` random legal actions, then the seat `resigner` picks ('first' or 'second' seat) resigns. */
export async function playThenResign(
  gameId: string,
  clients: ReadonlyMap<string, Client>,
  seed: string,
  actions: number,
  resigner: 0 | 1,
): Promise<PlayOutcome> {
  const played = await playRandom(gameId, clients, seed, actions);
  if (played.game.status !== 'active') return played;
  const { seat, game } = await seatsOf(gameId, clients);
  const role = game.seats[resigner].role;
  const after = await json<GameSummary>(seat.get(role)!.req('POST', `/games/${gameId}/resign`, {}), 'resign');
  return { game: after, actions: played.actions, requests: played.requests + 2 };
}
