// A GraphQL-only bot: queries and mutations over HTTP with graphql-request,
// turns delivered by the `gameEvents` and `myTurn` subscriptions over
// WebSocket with graphql-ws (the graphql-transport-ws protocol). It signs up
// two players (or uses the keys given), creates a game, joins it with the
// second and plays both seats with random legal actions.
//
// Checks on everything received: each seat's updates come in order, one
// version at a time (the first may catch up several, and the server may
// coalesce a burst into one update of the newest version, never going back); both seats see the same
// kind, actor, status and active roles at each version; an update made by the
// bot's own action matches the action's result; every `myTurn` notice names
// roles that are active at its version.
//
//   npx tsx examples/graphql-bot.ts --url http://127.0.0.1:3000 --scenario richard-iii
import { GraphQLClient, ClientError } from 'graphql-request';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { firstScenario, pick, shouldWait, type BotResult, type PayloadHook } from './rest-bot.ts';

export interface GraphqlBotOptions {
  baseUrl: string;
  /** The game type (default richard-iii); its two seats are read from the gameTypes query. */
  gameType?: string;
  scenario: string;
  /** Rule options of the new game (the scenario's declarations). */
  options?: Record<string, string | number | boolean>;
  seed?: string;
  keys?: [string, string];
  actAs?: [string, string];
  onPayload?: PayloadHook;
  random?: () => number;
  /** Picks the action from the legal ones and the seat's view (default `pick`; see RestBotOptions.choose). */
  choose?: (actions: unknown[], random: () => number, view: unknown, role: string) => unknown;
  maxActions?: number;
  log?: (line: string) => void;
}

interface Update {
  gameId: string;
  version: number;
  kind: string;
  actor: string | null;
  status: string;
  activeRoles: string[];
  role: string | null;
  view: unknown;
}

const UPDATE = 'gameId version kind actor status activeRoles role view';

function fail(msg: string): never {
  throw new Error(`graphql-bot: ${msg}`);
}

const same = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

export async function playGraphqlGame(o: GraphqlBotOptions): Promise<BotResult> {
  const random = o.random ?? Math.random;
  const seed = o.seed ?? `gql-bot-${Date.now()}-${Math.floor(random() * 1e9)}`;
  const hook: PayloadHook = o.onPayload ?? (() => {});
  const log = o.log ?? (() => {});
  const endpoint = `${o.baseUrl}/graphql`;

  // The game type's seats: the bot plays a two-seat game, one player per seat.
  const gameType = o.gameType ?? 'richard-iii';
  const anon = new GraphQLClient(endpoint);
  const types = await anon.request<{ gameTypes: { id: string; roles: string[] }[] }>('{ gameTypes { id roles } }');
  const type = types.gameTypes.find((g) => g.id === gameType);
  if (!type) fail(`game type ${gameType} is not on this server`);
  if (type.roles.length !== 2) fail(`game type ${gameType} has ${type.roles.length} seats; this bot plays two`);
  const roles = [type.roles[0]!, type.roles[1]!] as const;

  let keys = o.keys;
  if (!keys) {
    const made: string[] = [];
    for (const name of roles.map((r) => `GraphQL ${r}`)) {
      const d = await anon.request<{ createPlayer: { key: { key: string } } }>(
        'mutation($name: String!) { createPlayer(name: $name, isBot: true) { key { key } } }',
        { name },
      );
      made.push(d.createPlayer.key.key);
    }
    keys = [made[0]!, made[1]!];
  }
  const http = roles.map(
    (_, i) => new GraphQLClient(endpoint, { headers: { authorization: `Bearer ${keys![i]}`, ...(o.actAs ? { 'x-act-as': o.actAs[i]! } : {}) } }),
  );
  const ws: Client[] = roles.map((_, i) =>
    createClient({
      url: endpoint.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${keys![i]}`, ...(o.actAs ? { 'X-Act-As': o.actAs[i]! } : {}) },
      retryAttempts: 5,
    }),
  );

  try {
    const created = await http[0]!.request<{ createGame: { id: string; version: number; status: string } }>(
      'mutation($input: CreateGameInput!) { createGame(input: $input) { id version status } }',
      { input: { gameType, scenario: o.scenario, seed, roles: [roles[0]], ...(o.options ? { options: o.options } : {}) } },
    );
    hook(roles[0], created.createGame.version, 'gql:createGame', created);
    const gameId = created.createGame.id;
    const joined = await http[1]!.request<{ joinGame: { version: number; status: string; activeRoles: string[] } }>(
      'mutation($gameId: ID!) { joinGame(gameId: $gameId) { version status activeRoles } }',
      { gameId },
    );
    hook(roles[1], joined.joinGame.version, 'gql:joinGame', joined);
    if (joined.joinGame.status !== 'active') fail(`the game did not start: ${joined.joinGame.status}`);
    const startVersion = joined.joinGame.version;

    let actions = 0;
    const maxActions = o.maxActions ?? 50_000;
    const committed = new Map<number, { role: string; activeRoles: string[]; status: string }>();
    const seen = new Map<number, string>();
    const events: Record<string, number> = Object.fromEntries(roles.map((r) => [r, 0]));
    const notices: { role: string; version: number; roles: string[] }[] = [];

    // myTurn: notices are checked against the versions at the end.
    const turnSubs = roles.map((role, i) =>
      ws[i]!.subscribe<{ myTurn: { gameId: string; version: number; roles: string[] } }>(
        { query: 'subscription { myTurn { gameId version roles } }' },
        {
          next: (r) => {
            hook(role, r.data?.myTurn.version ?? 0, 'gql:myTurn', r);
            if (r.errors) fail(`${role} myTurn: ${JSON.stringify(r.errors)}`);
            if (r.data && r.data.myTurn.gameId === gameId) notices.push({ role, ...r.data.myTurn });
          },
          error: () => {},
          complete: () => {},
        },
      ),
    );

    async function seat(i: number): Promise<void> {
      const role = roles[i]!;
      const me = http[i]!;
      let last = startVersion - 1; // the first update catches up from here
      let first = true;
      let coalesced = 0;
      const iterator = ws[i]!.iterate<{ gameEvents: Update }>({
        query: `subscription($gameId: ID!, $since: Int) { gameEvents(gameId: $gameId, since: $since) { ${UPDATE} } }`,
        variables: { gameId, since: startVersion - 1 },
      });
      for await (const r of iterator) {
        if (r.errors || !r.data) fail(`${role} gameEvents: ${JSON.stringify(r.errors)}`);
        const u = r.data.gameEvents;
        hook(role, u.version, 'gql:gameEvents', r);
        events[role]!++;
        if (u.role !== role) fail(`${role}: update for seat ${u.role}`);
        // One version at a time, except that the server coalesces a burst that
        // committed while it read a view into one update of the newest version
        // (documented in schema.graphql): never a version twice or backwards.
        if (u.version <= last) fail(`${role}: version ${u.version} after ${last}`);
        if (!first && u.version !== last + 1) coalesced++;
        first = false;
        last = u.version;
        const summary = JSON.stringify([u.kind, u.actor, u.status, [...u.activeRoles].sort()]);
        const other = seen.get(last);
        if (other === undefined) seen.set(last, summary);
        else if (other !== summary) fail(`${role}: version ${last} is ${summary}, the other seat saw ${other}`);
        const mine = committed.get(last);
        if (mine && (u.kind !== 'action' || u.actor !== mine.role || !same(u.activeRoles, mine.activeRoles) || u.status !== mine.status)) {
          fail(`${role}: version ${last} ${summary} differs from the action result ${JSON.stringify(mine)}`);
        }
        if (u.status !== 'active') break; // the subscription completes after the end
        if (!u.activeRoles.includes(role)) continue;
        const legal = await me.request<{ legalActions: { version: number; active: boolean; actions: unknown[] } }>(
          'query($gameId: ID!) { legalActions(gameId: $gameId) { version active actions } }',
          { gameId },
        );
        hook(role, legal.legalActions.version, 'gql:legalActions', legal);
        if (legal.legalActions.version !== last) continue; // the other seat moved: its update follows
        if (!legal.legalActions.active || legal.legalActions.actions.length === 0) fail(`${role}: active at ${last} but ${JSON.stringify(legal)}`);
        if (shouldWait(legal.legalActions.actions, u.activeRoles)) continue;
        if (++actions > maxActions) fail(`more than ${maxActions} actions`);
        // The update's view is the seat's at `last` (coalesced updates carry the newest).
        const action = o.choose ? o.choose(legal.legalActions.actions, random, u.view, role) : pick(legal.legalActions.actions, random);
        try {
          const res = await me.request<{ submitAction: { version: number; role: string; replayed: boolean; view: unknown; game: { status: string; activeRoles: string[] } } }>(
            `mutation($gameId: ID!, $action: JSON!, $v: Int) {
              submitAction(gameId: $gameId, action: $action, expectedVersion: $v) { version role replayed view game { status activeRoles } }
            }`,
            { gameId, action, v: last },
          );
          const s = res.submitAction;
          hook(role, s.version, 'gql:submitAction', res);
          if (s.version !== last + 1) fail(`${role}: action at ${last} committed as version ${s.version}`);
          committed.set(s.version, { role: s.role, activeRoles: s.game.activeRoles, status: s.game.status });
        } catch (e) {
          if (!(e instanceof ClientError)) throw e;
          hook(role, last, 'gql:error', e.response);
          const code = e.response.errors?.[0]?.extensions?.code;
          if (code !== 'version_conflict' && code !== 'not_your_turn') fail(`${role}: submit at ${last}: ${JSON.stringify(e.response.errors)}`);
          actions--;
        }
      }
      if (first) fail(`${role}: no update`);
      if (coalesced) log(`${role}: ${coalesced} coalesced updates`);
    }

    await Promise.all([seat(0), seat(1)]);
    for (const unsubscribe of turnSubs) unsubscribe();
    for (const n of notices) {
      const at = seen.get(n.version);
      if (at === undefined) fail(`myTurn for version ${n.version}, never seen`);
      const active = JSON.parse(at)[3] as string[];
      if (!n.roles.every((r) => active.includes(r)) || !n.roles.includes(n.role)) fail(`myTurn ${JSON.stringify(n)} at ${at}`);
    }
    const end = await http[0]!.request<{ game: { version: number; status: string; result: unknown; seed: string | null } }>(
      'query($gameId: ID!) { game(id: $gameId) { version status result { winner reason } seed } }',
      { gameId },
    );
    hook(roles[0], end.game.version, 'gql:game', end);
    log(`game ${gameId} (${o.scenario}) ${end.game.status} at version ${end.game.version} after ${actions} actions, ${notices.length} myTurn notices: ${JSON.stringify(end.game.result)}`);
    return { gameId, seed, version: end.game.version, actions, status: end.game.status, result: end.game.result, events };
  } finally {
    await Promise.all(ws.map((c) => c.dispose()));
  }
}

if (import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const arg = (name: string, def: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1]! : def;
  };
  const baseUrl = arg('url', process.env.HERALD_URL ?? 'http://127.0.0.1:3000');
  const gameType = arg('type', 'richard-iii');
  // Default: Richard III's richard-iii scenario; with --type alone, that type's first scenario.
  const scenario = process.argv.includes('--scenario') || gameType === 'richard-iii' ? arg('scenario', 'richard-iii') : await firstScenario(baseUrl, gameType);
  const n = Number(arg('games', '1'));
  const keys = process.env.HERALD_KEYS?.split(',') as [string, string] | undefined;
  const actAs = process.env.HERALD_ACT_AS?.split(',') as [string, string] | undefined;
  for (let i = 0; i < n; i++) await playGraphqlGame({ baseUrl, gameType, scenario, keys, actAs, log: console.log });
}
