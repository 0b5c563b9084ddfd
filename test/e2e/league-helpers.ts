/**
 * Shared by the end-to-end league tests: an app on a fresh database with Redis, players and an
 * organiser signed up through REST, a league created, joined and started through the public
 * API, and each published round's boards played by bots (test/helpers/bots.ts) until the league
 * is finished. Every result the bots produce is recorded here from what the games themselves
 * answered, so the tests can hold the league's own answers against an independent computation.
 */
import type { FastifyInstance } from 'fastify';
import { TEST_REDIS_URL, type Teardown } from '../helpers/services.ts';
import { playRandom, playThenResign, rng, type GameSummary, type PlayOutcome } from '../helpers/bots.ts';
import { restApp, signup, type Client } from '../http/rest-helpers.ts';
import type { RefGame } from '../helpers/league-reference.ts';

export interface PlayerRefJson {
  id: string;
  name: string;
}

export interface PairingJson {
  id: string;
  round: number;
  board: number;
  first: PlayerRefJson;
  second: PlayerRefJson | null;
  gameId: string | null;
  result: string | null;
  source: string | null;
  report: { by: string; result: string; at: string } | null;
}

export interface RoundJson {
  leagueId: string;
  number: number;
  status: 'draft' | 'published' | 'complete';
  pairings: PairingJson[];
}

export interface LeagueJson {
  id: string;
  status: 'registration' | 'running' | 'finished';
  format: string;
  roles: { first: string; second: string };
  settings: { points: { win: number; draw: number; loss: number }; tieBreaks: string[]; rated: boolean; rounds: number | null; autoPair: boolean };
  entrantCount: number;
  roundCount: number;
  plannedRounds: number | null;
  version: number;
}

export async function e2eApp(t: Teardown): Promise<FastifyInstance> {
  return restApp(t, { redisUrl: TEST_REDIS_URL });
}

/** Fails with the body unless the status is one of `ok`. */
export async function expectOk<T>(p: Promise<{ statusCode: number; body: string; json(): unknown }>, what: string, ok = [200, 201]): Promise<T> {
  const res = await p;
  if (!ok.includes(res.statusCode)) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : undefined) as T;
}

export async function signupMany(app: FastifyInstance, prefix: string, n: number): Promise<Client[]> {
  const out: Client[] = [];
  for (let i = 1; i <= n; i++) out.push(await signup(app, `${prefix} ${String(i).padStart(2, '0')}`));
  return out;
}

/** Sends a GraphQL operation for one caller; fails on errors. */
export async function gql<T = Record<string, any>>(c: Client, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await c.req('POST', '/graphql', { query, variables });
  const body = res.json() as { data?: T; errors?: unknown[] };
  if (res.statusCode !== 200 || body.errors?.length || !body.data) throw new Error(`GraphQL: ${res.statusCode} ${res.body}`);
  return body.data;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until round `n` is published (autoPair publishes it when round n − 1 completes, in the
 * settlement right after the commit that ended the last game) or the league is finished.
 * Returns the round, or null when the league finished instead.
 */
export async function nextRound(c: Client, leagueId: string, n: number): Promise<RoundJson | null> {
  // A generous bound (a busy CI machine), not a timing assertion.
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const league = await expectOk<LeagueJson>(c.req('GET', `/leagues/${leagueId}`), 'league');
    if (league.roundCount >= n) {
      const round = await expectOk<RoundJson>(c.req('GET', `/leagues/${leagueId}/rounds/${n}`), `round ${n}`);
      if (round.status !== 'draft') return round;
    } else if (league.status === 'finished') {
      return null;
    }
    await sleep(25);
  }
  throw new Error(`round ${n} of ${leagueId} never published`);
}

/** Waits until round `n` is complete (its last result settles just after the game's commit). */
export async function roundComplete(c: Client, leagueId: string, n: number): Promise<RoundJson> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const round = await expectOk<RoundJson>(c.req('GET', `/leagues/${leagueId}/rounds/${n}`), `round ${n}`);
    if (round.status === 'complete') return round;
    await sleep(25);
  }
  throw new Error(`round ${n} of ${leagueId} never completed`);
}

export interface BoardPlan {
  /** Play random legal actions to the end. */
  full: boolean;
  /** Otherwise: this many random actions, then the seat (0: first, 1: second) resigns. */
  actions: number;
  resigner: 0 | 1;
}

/**
 * A seeded plan for every board: `fullBoards(round)` boards of a round played to the end with
 * random legal moves (the issue: "a few"), the rest resigned after 6–30 random actions by a
 * seeded choice of side. At least six actions: both seats have acted (the card phase) before
 * anyone resigns.
 *
 * Why only a few: a league game is the game type's first scenario, Wars of the Roses (three
 * campaigns). Played out by random moves it took 240–410 actions here, about two requests
 * each: 2–4 s per game with a round's other boards played beside it on this 2-core machine
 * (the one-campaign "richard-iii" scenario: 70–100 actions, about 0.15 s alone). A resigned
 * board takes about 15 actions.
 */
export function planner(seed: string, fullBoards: (round: number) => number): (round: number, board: number, boards: number) => BoardPlan {
  const r = rng(seed);
  const chosenFor = new Map<number, Set<number>>();
  return (round, board, boards) => {
    if (!chosenFor.has(round)) {
      const chosen = new Set<number>();
      while (chosen.size < Math.min(fullBoards(round), boards)) chosen.add(1 + r.int(boards));
      chosenFor.set(round, chosen);
    }
    return { full: chosenFor.get(round)!.has(board), actions: 6 + r.int(25), resigner: r.int(2) as 0 | 1 };
  };
}

export interface PlayedBoard {
  pairing: PairingJson;
  game: GameSummary;
  outcome: PlayOutcome;
  plan: BoardPlan;
  /** The result as the game says it: which seat's player won. */
  result: 'first' | 'second' | 'draw';
  ms: number;
}

/**
 * Plays one board by its plan and reads the result from the game's own answer: the winner role
 * is the league's first or second role (first = roles.first, as league-api.ts defines).
 */
export async function playBoard(
  pairing: PairingJson,
  roles: { first: string; second: string },
  clients: ReadonlyMap<string, Client>,
  plan: BoardPlan,
  seed: string,
): Promise<PlayedBoard> {
  const started = performance.now();
  const gameId = pairing.gameId!;
  const outcome = plan.full
    ? await playRandom(gameId, clients, seed)
    : await playThenResign(gameId, clients, seed, plan.actions, plan.resigner);
  const game = outcome.game;
  if (game.status !== 'finished' || !game.result) throw new Error(`game ${gameId} did not finish: ${JSON.stringify(game)}`);
  const winner = game.result.winner;
  const result = winner === null ? 'draw' : winner === roles.first ? 'first' : winner === roles.second ? 'second' : null;
  if (result === null) throw new Error(`game ${gameId}: unknown winner ${winner}`);
  return { pairing, game, outcome, plan, result, ms: performance.now() - started };
}

/** The reference's view of a board. */
export function refGame(round: number, first: string, second: string, result: 'first' | 'second' | 'draw'): RefGame {
  return { round, first, second, result };
}

export const byId = <T extends { id: string }>(xs: readonly T[]) => new Map(xs.map((x) => [x.id, x]));
