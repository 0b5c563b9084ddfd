// A REST bot built on the client generated from openapi.yaml (openapi-typescript
// types in examples/client/schema.d.ts + openapi-fetch). It signs up two
// players (or uses the keys given), creates a game, joins it with the second,
// and plays both seats with random legal actions, following turns through each
// seat's Server-Sent Events stream (GET /games/{id}/events).
//
// Every event is checked against what the bot saw: versions arrive in order,
// one by one; an event made by the bot's own action has the version, role and
// active roles of the action's response; both seats see the same versions,
// statuses and active roles; the legal-action list says `active` exactly when
// the seat is among the active roles.
//
//   npx tsx examples/rest-bot.ts --url http://127.0.0.1:3000 --scenario richard-iii
import createClient from 'openapi-fetch';
import type { paths, components } from './client/schema.d.ts';

type Game = components['schemas']['GameSummary'];
type Action = components['schemas']['Action'];
type Submitted = {
  data?: paths['/games/{gameId}/actions']['post']['responses'][200]['content']['application/json'];
  error?: unknown;
};

export interface PayloadHook {
  (role: string, version: number, source: string, payload: unknown): void;
}

export interface RestBotOptions {
  baseUrl: string;
  /** The game type (default richard-iii); its two seats are read from GET /game-types. */
  gameType?: string;
  scenario: string;
  /** Rule options of the new game (the scenario's declarations). */
  options?: Record<string, string | number | boolean>;
  seed?: string;
  /** Keys of two players (else two players sign up; needs open signup). */
  keys?: [string, string];
  /** Sent as X-Act-As with each key (app keys acting for their players). */
  actAs?: [string, string];
  /** Called with every payload a seat receives (for the leak scan). */
  onPayload?: PayloadHook;
  /** Random choice (default Math.random). */
  random?: () => number;
  /**
   * Picks the action among the legal ones, given the seat's view (default
   * `pick`: uniform, undo rare). A game whose uniform random play seldom
   * ends gives one that plays with a sense of direction.
   */
  choose?: (actions: Action[], random: () => number, view: unknown, role: string) => Action;
  /** Past this many actions the bot fails (a game that should have ended). */
  maxActions?: number;
  /**
   * After this many actions the seat next to act resigns instead
   * (POST /games/{id}/resign), so that random play that wanders ends; the
   * game finishes as any resigned game does. Default: never.
   */
  resignAfter?: number;
  log?: (line: string) => void;
}

export interface BotResult {
  gameId: string;
  seed: string;
  version: number;
  actions: number;
  status: string;
  result: unknown;
  /** Events received per seat. */
  events: Record<string, number>;
  /** The role that resigned at `resignAfter`, if it came to that. */
  resigned?: string;
}

interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/** A minimal Server-Sent Events reader over fetch. */
export async function* readSse(res: Response): AsyncGenerator<SseEvent> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let id: string | null = null;
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const val = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = val;
        else if (field === 'event') event = val;
        else if (field === 'data') data.push(val);
      }
      if (data.length) yield { id, event, data: data.join('\n') };
    }
  }
}

const UNDO = new Set(['undo', 'take_back']);

/**
 * True when the seat should let the other act first: all it may do is take
 * back while the other seat is to act too (simultaneous card play). Taking
 * back at once can starve the other seat, whose submissions then keep
 * arriving one version late.
 */
export function shouldWait(actions: readonly unknown[], activeRoles: readonly string[]): boolean {
  return activeRoles.length > 1 && actions.every((a) => UNDO.has((a as { type?: string }).type ?? ''));
}

/** A random legal action; undo-like actions are rare so games end. */
export function pick<T>(actions: T[], random: () => number): T {
  const w = (a: T) => (UNDO.has((a as { type?: string }).type ?? '') ? 0.05 : 1);
  let x = random() * actions.reduce((s, a) => s + w(a), 0);
  for (const a of actions) if ((x -= w(a)) < 0) return a;
  return actions[actions.length - 1]!;
}

function fail(msg: string): never {
  throw new Error(`rest-bot: ${msg}`);
}

const same = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/** The first scenario the server lists for a game type. */
export async function firstScenario(baseUrl: string, gameType: string): Promise<string> {
  const types = await createClient<paths>({ baseUrl }).GET('/game-types');
  const sc = types.data?.find((g) => g.id === gameType)?.scenarios[0]?.id;
  if (!sc) fail(`game type ${gameType} is not on this server`);
  return sc;
}

export async function playRestGame(o: RestBotOptions): Promise<BotResult> {
  const random = o.random ?? Math.random;
  const seed = o.seed ?? `bot-${Date.now()}-${Math.floor(random() * 1e9)}`;
  const hook: PayloadHook = o.onPayload ?? (() => {});
  const log = o.log ?? (() => {});

  // 0. The game type's seats: the bot plays a two-seat game, one player per seat.
  const gameType = o.gameType ?? 'richard-iii';
  const anon = createClient<paths>({ baseUrl: o.baseUrl });
  const types = await anon.GET('/game-types');
  const type = types.data?.find((g) => g.id === gameType);
  if (!type) fail(`game type ${gameType} is not on this server: ${JSON.stringify(types.data?.map((g) => g.id) ?? types.error)}`);
  if (type.roles.length !== 2) fail(`game type ${gameType} has ${type.roles.length} seats; this bot plays two`);
  const roles = [type.roles[0]!, type.roles[1]!] as const;

  // 1. Players: the keys given, or two self-signed-up players.
  let keys = o.keys;
  if (!keys) {
    const made: string[] = [];
    for (const name of roles.map((r) => `Rest ${r}`)) {
      const { data, error } = await anon.POST('/players', { body: { name, isBot: true } });
      if (!data) fail(`signup: ${JSON.stringify(error)}`);
      made.push(data.key!.key);
    }
    keys = [made[0]!, made[1]!];
  }
  const headersOf = (i: number): Record<string, string> => ({
    authorization: `Bearer ${keys![i]}`,
    ...(o.actAs ? { 'x-act-as': o.actAs[i]! } : {}),
  });
  const api = roles.map((_, i) => createClient<paths>({ baseUrl: o.baseUrl, headers: headersOf(i) }));

  // 2. The game: the first seat creates it, the second joins; it starts when both seats are held.
  const created = await api[0]!.POST('/games', { body: { gameType, scenario: o.scenario, seed, roles: [roles[0]], autoStart: true, ...(o.options ? { options: o.options } : {}) } });
  if (!created.data) fail(`create: ${JSON.stringify(created.error)}`);
  hook(roles[0], created.data.version, 'rest:create', created.data);
  const gameId = created.data.id;
  const joined = await api[1]!.POST('/games/{gameId}/join', { params: { path: { gameId } }, body: {} });
  if (!joined.data) fail(`join: ${JSON.stringify(joined.error)}`);
  hook(roles[1], joined.data.version, 'rest:join', joined.data);
  if (joined.data.status !== 'active') fail(`the game did not start: ${joined.data.status}`);

  // 3. Each seat follows its stream and acts when it is active at the newest version.
  const abort = new AbortController();
  let actions = 0;
  const maxActions = o.maxActions ?? 50_000;
  // The bot's own actions: version → {role, activeRoles, status}, from the responses.
  const committed = new Map<number, { role: string; activeRoles: string[]; status: string }>();
  // What each seat's stream said about each version (both seats must agree).
  const seen = new Map<number, string>();
  const events: Record<string, number> = Object.fromEntries(roles.map((r) => [r, 0]));
  let final: Game | null = null;
  let resigned: string | undefined;

  async function seat(i: number): Promise<void> {
    const role = roles[i]!;
    const me = api[i]!;
    const res = await fetch(`${o.baseUrl}/games/${gameId}/events?lastEventId=0`, {
      headers: { ...headersOf(i), accept: 'text/event-stream' },
      signal: abort.signal,
    });
    if (res.status !== 200) fail(`${role} events: ${res.status} ${await res.text()}`);
    let last = 0;
    let pending: { version: number; activeRoles: string[] } | null = null;
    // The legal actions our last action's answer gave for the version it made
    // (the seat is still to act there): no GET needed when its event arrives.
    let following: { version: number; actions: Action[] } | null = null;
    const iterator = readSse(res)[Symbol.asyncIterator]();
    for (;;) {
      const next = await iterator.next();
      if (next.done) fail(`${role}: the stream closed before the end of the game`);
      const ev = next.value;
      const body = JSON.parse(ev.data);
      hook(role, typeof body.version === 'number' ? body.version : last, `sse:${ev.event}`, body);
      if (ev.event === 'end') {
        if (body.version !== last) fail(`${role}: end at ${body.version} after version ${last}`);
        return;
      }
      if (ev.event !== 'version') fail(`${role}: unexpected event ${ev.event} ${ev.data}`);
      events[role]!++;
      // Checks: one by one, the same for both seats, as our own actions said.
      if (body.version !== last + 1) fail(`${role}: version ${body.version} after ${last}`);
      if (ev.id !== String(body.version)) fail(`${role}: event id ${ev.id} for version ${body.version}`);
      last = body.version;
      if (body.seat !== role) fail(`${role}: event for seat ${body.seat}`);
      const summary = JSON.stringify([body.type, body.role, body.status, [...body.activeRoles].sort()]);
      const other = seen.get(last);
      if (other === undefined) seen.set(last, summary);
      else if (other !== summary) fail(`${role}: version ${last} is ${summary}, the other seat saw ${other}`);
      const mine = committed.get(last);
      if (mine && (body.type !== 'action' || body.role !== mine.role || !same(body.activeRoles, mine.activeRoles) || body.status !== mine.status)) {
        fail(`${role}: version ${last} ${summary} differs from the action response ${JSON.stringify(mine)}`);
      }
      if (body.status !== 'active') continue; // 'finished': the end event follows
      if (pending && pending.version >= last) continue;
      if (!body.activeRoles.includes(role)) continue;
      if (body.view === null) continue; // catching up: a newer version follows
      pending = { version: last, activeRoles: body.activeRoles };
      // Our turn at the newest version: the legal actions (from our last
      // action's answer when it made this version, else a GET), then one of them.
      let legalActions: Action[];
      if (following && following.version === last) {
        legalActions = following.actions;
      } else {
        const legal = await me.GET('/games/{gameId}/actions', { params: { path: { gameId } } });
        if (!legal.data) fail(`${role} legal actions: ${JSON.stringify(legal.error)}`);
        hook(role, legal.data.version, 'rest:actions', legal.data);
        if (legal.data.version !== last) continue; // the other seat moved meanwhile: its event follows
        if (!legal.data.active || legal.data.actions.length === 0) fail(`${role}: active at ${last} but the legal list is ${JSON.stringify(legal.data)}`);
        legalActions = legal.data.actions;
      }
      following = null;
      if (shouldWait(legalActions, body.activeRoles)) continue;
      if (resigned !== undefined) continue; // the end event follows
      if (o.resignAfter !== undefined && actions >= o.resignAfter) {
        resigned = role;
        const r = await me.POST('/games/{gameId}/resign', { params: { path: { gameId } }, body: { role } });
        if (r.data) {
          hook(role, r.data.version, 'rest:resign', r.data);
          final = r.data as Game;
        } else {
          // The other seat's action may have ended the game meanwhile: its events follow.
          const err = r.error as { code?: string } | undefined;
          hook(role, last, 'rest:error', err);
          if (err?.code !== 'game_over' && err?.code !== 'version_conflict') fail(`${role}: resign at ${last}: ${JSON.stringify(err)}`);
          resigned = undefined;
        }
        continue;
      }
      if (++actions > maxActions) fail(`more than ${maxActions} actions`);
      const action: Action = o.choose ? o.choose(legalActions, random, body.view, role) : pick(legalActions, random);
      const r: Submitted = await me.POST('/games/{gameId}/actions', {
        params: { path: { gameId } },
        body: { action, expectedVersion: last },
      });
      if (r.data) {
        hook(role, r.data.version, 'rest:submit', r.data);
        if (r.data.version !== last + 1) fail(`${role}: action at ${last} committed as version ${r.data.version}`);
        committed.set(r.data.version, { role: r.data.role, activeRoles: r.data.game.activeRoles, status: r.data.game.status });
        const stillActive = r.data.game.status === 'active' && r.data.game.activeRoles.includes(role);
        if (stillActive !== r.data.legalActions.length > 0) fail(`${role}: the answer at ${r.data.version} lists ${r.data.legalActions.length} legal actions, active roles ${r.data.game.activeRoles}`);
        if (stillActive) following = { version: r.data.version, actions: r.data.legalActions };
        if (r.data.game.status !== 'active') final = r.data.game;
      } else {
        const err = r.error as { code?: string } | undefined;
        hook(role, last, 'rest:error', err);
        // Both seats active at once: the other one committed first (or resigned). Its event follows.
        if (err?.code !== 'version_conflict' && err?.code !== 'not_your_turn' && !(resigned !== undefined && err?.code === 'game_over')) fail(`${role}: submit ${JSON.stringify(action)} at ${last}: ${JSON.stringify(err)}`);
        actions--;
      }
    }
  }

  try {
    await Promise.all([seat(0), seat(1)]);
  } finally {
    abort.abort();
  }
  const end = await api[0]!.GET('/games/{gameId}', { params: { path: { gameId } } });
  if (!end.data) fail(`final read: ${JSON.stringify(end.error)}`);
  hook(roles[0], end.data.version, 'rest:game', end.data);
  const g = final ?? end.data;
  log(`game ${gameId} (${o.scenario}) ${g.status} at version ${end.data.version} after ${actions} actions: ${JSON.stringify(end.data.result)}`);
  return { gameId, seed, version: end.data.version, actions, status: end.data.status, result: end.data.result, events, ...(resigned !== undefined ? { resigned } : {}) };
}

// As a program: npx tsx examples/rest-bot.ts [--url U] [--type T] [--scenario S] [--games N]
// (default: Richard III's richard-iii scenario; with --type alone, that type's first scenario).
if (import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const arg = (name: string, def: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1]! : def;
  };
  const baseUrl = arg('url', process.env.HERALD_URL ?? 'http://127.0.0.1:3000');
  const gameType = arg('type', 'richard-iii');
  const scenario = process.argv.includes('--scenario') || gameType === 'richard-iii' ? arg('scenario', 'richard-iii') : await firstScenario(baseUrl, gameType);
  const n = Number(arg('games', '1'));
  const keys = process.env.HERALD_KEYS?.split(',') as [string, string] | undefined;
  const actAs = process.env.HERALD_ACT_AS?.split(',') as [string, string] | undefined;
  for (let i = 0; i < n; i++) {
    await playRestGame({ baseUrl, gameType, scenario, keys, actAs, log: console.log });
  }
}
