// The feeds over an injected source (no database): messages only trigger
// catch-ups, so lost, repeated or reordered messages cause no gap and no
// duplicate; the periodic check covers a bus that says nothing.
import t, { type Test } from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { Fanout } from '../../src/notify/fanout.ts';
import { GameFeed, GameFeeds, type GameFeedListener, type GameFeedSource, type VersionEvent } from '../../src/notify/game-feed.ts';
import { TurnFeed, type TurnFeedSource } from '../../src/notify/turn-feed.ts';
import { AppFeed, type AppFeedSource } from '../../src/notify/app-feed.ts';
import { decodeAppCursor, decodeTurnCursor, encodeTurnCursor } from '../../src/notify/turn-cursor.ts';
import type { AppGame, ClockEvent, GameClock, GameEvent, GameStatus, PlayerGame, SeatedEvent, YourTurnEvent } from '../../src/service/api.ts';

const G = '00000000-0000-4000-8000-000000000001';
const H = '00000000-0000-4000-8000-000000000002';
const P = '00000000-0000-4000-8000-0000000000aa';
/**
 * Lets the bus deliver what was published (the memory bus dispatches with setImmediate; ours
 * runs after it, once the feeds' catch-ups over the in-memory sources have settled), then waits
 * `ms` more: so a loaded machine cannot let the timer fire first.
 */
const tick = async (ms = 20) => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, ms));
};
/** A clock that names the version it belongs to (remainingMs), so a test sees which one was sent. */
const clockOf = (version: number): GameClock => ({ control: { kind: 'fischer', initialMs: 60_000, incrementMs: 0 }, onTimeout: 'loss', claimable: null, seats: [{ role: 'A', remainingMs: version, deadline: null, running: false, paused: true }] });

/** An in-memory game log: events 1..n; the active role alternates A, B. */
class FakeGame {
  events: GameEvent[] = [];
  status: GameStatus = 'active';
  reads = 0;
  readonly id: string;
  constructor(id: string) {
    this.id = id;
  }
  get version(): number {
    return this.events.length;
  }
  commit(status: GameStatus = 'active'): GameEvent {
    const v = this.version + 1;
    const e: GameEvent = { type: 'action', gameId: this.id, version: v, role: v % 2 ? 'B' : 'A', playerId: null, activeRoles: status === 'active' ? [v % 2 ? 'A' : 'B'] : [], status, at: new Date().toISOString() };
    this.events.push(e);
    this.status = status;
    return e;
  }
  source(): GameFeedSource {
    return {
      currentView: async () => {
        this.reads++;
        return { gameId: this.id, version: this.version, status: this.status, role: 'A', activeRoles: [], view: { at: this.version }, clock: clockOf(this.version) };
      },
      currentVersion: async () => this.version,
      eventsSince: async (v) => this.events.filter((e) => e.version > v),
    };
  }
}

function gameFeed(t: Test, game: FakeGame, fanout: Fanout, after: number | null, pollMs = 60_000) {
  const got: VersionEvent[] = [];
  const ends: string[] = [];
  const errors: unknown[] = [];
  const feed = new GameFeed({ gameId: game.id, source: game.source(), fanout, after, pollMs, deliver: (e) => got.push(e), end: (s) => ends.push(s), error: (e) => errors.push(e) });
  t.teardown(() => feed.close());
  return { feed, got, ends, errors };
}

t.test('game feed: catch-up, then live; lost, repeated and stale messages change nothing', async (t) => {
  const bus = createMemoryBus();
  const fanout = new Fanout(bus);
  t.teardown(() => fanout.close());
  const game = new FakeGame(G);
  for (let i = 0; i < 5; i++) game.commit();
  const { feed, got } = gameFeed(t, game, fanout, 2);
  await feed.start();
  t.same(got.map((e) => e.version), [3, 4, 5]);
  t.same(got.map((e) => e.view), [null, null, { at: 5 }]);
  t.same(got.map((e) => e.clock), [null, null, clockOf(5)], 'the clock goes with the view');

  const e6 = game.commit();
  const e7 = game.commit(); // never published: lost
  void e7;
  await bus.publish(`game:${G}`, e6 as never);
  await bus.publish(`game:${G}`, e6 as never); // repeated
  await bus.publish(`game:${G}`, { ...game.events[1]!, gameId: G } as never); // stale
  await tick();
  t.same(got.map((e) => e.version), [3, 4, 5, 6, 7], 'version 7 was loaded from the log');
  t.same(got.at(-1)!.view, { at: 7 });
});

t.test('game feed: a clock message about the version delivered last is passed on; others are not, and none counts as a version', async (t) => {
  const bus = createMemoryBus();
  const fanout = new Fanout(bus);
  t.teardown(() => fanout.close());
  const game = new FakeGame(G);
  for (let i = 0; i < 3; i++) game.commit();
  const clocks: ClockEvent[] = [];
  const got: VersionEvent[] = [];
  const feed = new GameFeed({ gameId: G, source: game.source(), fanout, after: null, pollMs: 60_000, deliver: (e) => got.push(e), clock: (e) => clocks.push(e), end: () => {}, error: () => {} });
  t.teardown(() => feed.close());
  await feed.start();
  t.same(got.map((e) => e.version), [3]);
  const paused: ClockEvent = { type: 'clock', gameId: G, version: 3, clock: clockOf(42) };
  await bus.publish(`game:${G}`, paused as never);
  await bus.publish(`game:${G}`, { ...paused, version: 2 } as never); // older than what was delivered
  await bus.publish(`game:${G}`, { ...paused, version: 4 } as never); // a version not delivered yet: its event will carry the clock
  await bus.publish(`game:${G}`, { ...paused, gameId: H } as never); // another game
  await tick();
  t.same(clocks, [paused], 'only the clock of the current version');
  t.same(got.map((e) => e.version), [3], 'no version came of it');
  t.equal(game.reads, 1, 'and nothing was read');
});

t.test('game feed: the periodic check alone delivers everything (a silent bus)', async (t) => {
  const fanout = new Fanout(createMemoryBus());
  t.teardown(() => fanout.close());
  const game = new FakeGame(G);
  game.commit();
  const { feed, got, ends } = gameFeed(t, game, fanout, null, 15);
  await feed.start();
  t.same(got.map((e) => e.version), [1]);
  game.commit();
  game.commit();
  game.commit('finished');
  while (ends.length === 0) await tick();
  t.same(got.map((e) => e.version), [1, 2, 3, 4]);
  t.same(ends, ['finished']);
});

t.test('shared game feed: listeners at different positions, one bus listener, one view read per version for all', async (t) => {
  const bus = createMemoryBus();
  const fanout = new Fanout(bus);
  t.teardown(() => fanout.close());
  const game = new FakeGame(G);
  for (let i = 0; i < 3; i++) game.commit();
  let reads = 0;
  const feeds = new GameFeeds({ fanout, pollMs: 60_000, viewRead: () => reads++ });
  const listener = () => {
    const got: VersionEvent[] = [];
    const ends: string[] = [];
    const l: GameFeedListener = { deliver: (e) => got.push(e), end: (s) => ends.push(s), error: (e) => t.fail(String(e)) };
    return { l, got, ends };
  };
  const a = listener();
  const b = listener();
  const c = listener();
  const stopA = await feeds.add('k', G, () => game.source(), a.l, null);
  const stopB = await feeds.add('k', G, () => game.source(), b.l, 1); // behind: caught up from the log
  t.equal(feeds.size, 1, 'one feed for the key');
  t.equal(fanout.listenerCount(`game:${G}`), 1, 'one bus listener');
  t.same(a.got.map((e) => e.version), [3]);
  t.same(b.got.map((e) => [e.version, e.view]), [[2, null], [3, { at: 3 }]]);

  const before = reads;
  for (let i = 0; i < 3; i++) {
    await bus.publish(`game:${G}`, game.commit() as never);
    await tick();
  }
  t.equal(reads - before, 3, 'one view read per version, not per listener');
  t.same(a.got.map((e) => e.version), [3, 4, 5, 6]);
  t.same(b.got.map((e) => e.version), [2, 3, 4, 5, 6]);
  t.equal(a.got.at(-1), b.got.at(-1), 'the same event object for both (so it is serialised once)');

  const stopC = await feeds.add('k', G, () => game.source(), c.l, null); // joins at the current version
  t.same(c.got.map((e) => [e.version, e.view]), [[6, { at: 6 }]]);
  stopA();
  await bus.publish(`game:${G}`, game.commit('finished') as never);
  await tick();
  t.same(a.got.map((e) => e.version), [3, 4, 5, 6], 'a listener that left gets nothing more');
  t.same(b.got.map((e) => e.version), [2, 3, 4, 5, 6, 7]);
  t.same(c.got.map((e) => e.version), [6, 7]);
  t.same([b.ends, c.ends], [['finished'], ['finished']]);
  stopB();
  stopC();
  t.equal(feeds.size, 0, 'the feed closed with its last listener');
  t.equal(fanout.listenerCount(`game:${G}`), 0);
});

t.test('game feed: version 0 is a created event', async (t) => {
  const fanout = new Fanout(createMemoryBus());
  t.teardown(() => fanout.close());
  const game = new FakeGame(G);
  const { feed, got } = gameFeed(t, game, fanout, null);
  await feed.start();
  t.match(got, [{ version: 0, type: 'created', view: { at: 0 } }]);
});

t.test('turn cursor: encode/decode round trip; bad ids are null', async (t) => {
  const c = new Map([
    [H, 4],
    [G, 12],
  ]);
  const id = encodeTurnCursor(c);
  t.equal(id, `${G}@12,${H}@4`, 'sorted by game id');
  t.same([...decodeTurnCursor(id)!.entries()].sort(), [...c.entries()].sort());
  t.same(decodeTurnCursor(''), new Map());
  for (const bad of ['x', `${G}@`, `${G}@-1`, `nope@3`, `${G}@1,`]) t.equal(decodeTurnCursor(bad), null, bad);
});

t.test('turn feed: present turns first, then every later your_turn once; resume from an id', async (t) => {
  const bus = createMemoryBus();
  const fanout = new Fanout(bus);
  t.teardown(() => fanout.close());
  const g = new FakeGame(G);
  const h = new FakeGame(H);
  g.commit(); // v1: A active
  h.commit();
  h.commit(); // v2: B active
  const source: TurnFeedSource = {
    playerGames: async () =>
      [g, h]
        .filter((x) => x.status === 'active')
        .map((x): PlayerGame => ({ gameId: x.id, version: x.version, status: x.status, roles: ['A'], activeRoles: x.events.at(-1)!.activeRoles, clock: clockOf(x.version) })),
    eventsSince: async (id, v) => (id === G ? g : h).events.filter((e) => e.version > v),
  };
  const got: Array<[YourTurnEvent, string]> = [];
  const feed = new TurnFeed({ playerId: P, source, fanout, cursor: null, pollMs: 60_000, deliver: (e, id) => got.push([e, id]), error: () => {} });
  t.teardown(() => feed.close());
  await feed.start();
  t.same(got.map(([e]) => `${e.gameId}@${e.version}`), [`${G}@1`], 'only where it is the player’s turn now');
  t.equal(got[0]![1], `${G}@1,${H}@2`, 'the id covers every game in progress');

  g.commit(); // v2: B
  g.commit(); // v3: A  (message lost)
  h.commit(); // v3: A
  await bus.publish(`player:${P}`, { type: 'your_turn', gameId: H, version: 3, roles: ['A'], clock: clockOf(3) as never });
  await tick();
  await bus.publish(`player:${P}`, { type: 'your_turn', gameId: H, version: 3, roles: ['A'] }); // repeated
  await tick();
  t.same(got.map(([e]) => `${e.gameId}@${e.version}`), [`${G}@1`, `${H}@3`]);
  t.same(got.map(([e]) => e.clock), [clockOf(1), clockOf(3)], 'each with its clock: from the player\'s games, then from the message');
  const lastId = got.at(-1)![1];
  feed.close();

  // Resume from the last id: G's version 3 (never announced) and what came after.
  h.commit(); // v4: B
  h.commit(); // v5: A
  const resumed: string[] = [];
  const again = new TurnFeed({ playerId: P, source, fanout, cursor: decodeTurnCursor(lastId), pollMs: 60_000, deliver: (e) => resumed.push(`${e.gameId}@${e.version} ${e.clock?.seats[0]?.remainingMs ?? null}`), error: () => {} });
  t.teardown(() => again.close());
  await again.start();
  t.same(resumed.sort(), [`${G}@3 3`, `${H}@5 5`].sort(), 'replayed from the log, each the newest version of its game: with its clock');
});

t.test('turn feed: a cursor ahead of its game resumes that game from the present, its later turns delivered', async (t) => {
  // Before, a Last-Event-ID naming a version the game never reached (edited, or of another
  // database) silenced that game's your_turn events until it passed that version (a probe:
  // <game>@999999 on /me/events, then no notice at all while the player's turns came).
  const bus = createMemoryBus();
  const fanout = new Fanout(bus);
  t.teardown(() => fanout.close());
  const g = new FakeGame(G);
  const h = new FakeGame(H);
  g.commit(); // v1: A active
  h.commit(); // v1: A active
  const source: TurnFeedSource = {
    playerGames: async () =>
      [g, h].map((x): PlayerGame => ({ gameId: x.id, version: x.version, status: x.status, roles: ['A'], activeRoles: x.events.at(-1)!.activeRoles, clock: clockOf(x.version) })),
    eventsSince: async (id, v) => (id === G ? g : h).events.filter((e) => e.version > v),
  };
  const got: Array<[YourTurnEvent, string]> = [];
  const feed = new TurnFeed({ playerId: P, source, fanout, cursor: decodeTurnCursor(`${G}@999999,${H}@1`), pollMs: 60_000, deliver: (e, id) => got.push([e, id]), error: () => {} });
  t.teardown(() => feed.close());
  await feed.start();
  t.same(got.map(([e]) => `${e.gameId}@${e.version}`), [`${G}@1`], 'the present turn of the game whose cursor was ahead; none of the other (known up to now)');
  t.equal(got[0]![1], `${G}@1,${H}@1`, 'the id is back at the game\'s version');
  g.commit(); // v2: B
  g.commit(); // v3: A
  await bus.publish(`player:${P}`, { type: 'your_turn', gameId: G, version: 3, roles: ['A'] });
  await tick();
  t.same(got.map(([e]) => `${e.gameId}@${e.version}`), [`${G}@1`, `${G}@3`], 'a later turn of that game is delivered');
});

t.test('app feed: a cursor ahead of its game resumes that game from the present, its later turns delivered', async (t) => {
  const bus = createMemoryBus();
  const fanout = new Fanout(bus);
  t.teardown(() => fanout.close());
  const g = new FakeGame(G);
  g.commit(); // v1: A active
  const player = { id: P, name: 'p', externalId: null };
  const source: AppFeedSource = {
    appPlayers: async () => [player],
    appGames: async () => [g].map((x): AppGame => ({ gameId: x.id, version: x.version, status: x.status, activeRoles: x.events.at(-1)!.activeRoles, seats: [{ playerId: P, roles: ['A'] }], clock: clockOf(x.version) })),
    eventsSince: async (_id, v) => g.events.filter((e) => e.version > v),
  };
  const got: string[] = [];
  const cursor = decodeAppCursor(`${G}@999999`);
  t.ok(cursor, 'a well-formed id');
  const feed = new AppFeed({ source, fanout, cursor, pollMs: 60_000, deliver: (n) => { if (n.type === 'your_turn') got.push(`${n.gameId}@${n.version}`); }, error: () => {} });
  t.teardown(() => feed.close());
  await feed.start();
  t.same(got, [`${G}@1`], 'the present turn');
  g.commit(); // v2: B
  g.commit(); // v3: A
  await bus.publish(`player:${P}`, { type: 'your_turn', gameId: G, version: 3, roles: ['A'] });
  await tick();
  t.same(got, [`${G}@1`, `${G}@3`], 'a later turn of that game is delivered');
});

t.test('turn feed: a seated message is passed on as it is, and the new game’s turns are found in its log', async (t) => {
  const bus = createMemoryBus();
  const fanout = new Fanout(bus);
  t.teardown(() => fanout.close());
  const g = new FakeGame(G);
  g.commit(); // v1: A active
  const games = [g];
  const source: TurnFeedSource = {
    playerGames: async () =>
      games.filter((x) => x.status === 'active').map((x): PlayerGame => ({ gameId: x.id, version: x.version, status: x.status, roles: ['A'], activeRoles: x.events.at(-1)!.activeRoles, clock: null })),
    eventsSince: async (id, v) => games.find((x) => x.id === id)!.events.filter((e) => e.version > v),
  };
  const got: string[] = [];
  const seated: Array<[SeatedEvent, string]> = [];
  const feed = new TurnFeed({
    playerId: P, source, fanout, cursor: null, pollMs: 60_000,
    deliver: (e, id) => got.push(`${e.type} ${e.gameId}@${e.version} ${id}`),
    seated: (e, id) => seated.push([e, id]),
    error: () => {},
  });
  t.teardown(() => feed.close());
  await feed.start();
  t.same(got, [`your_turn ${G}@1 ${G}@1`]);

  // A league round is published: game H exists with the player seated (v1: A active); only the seated message arrives.
  const h = new FakeGame(H);
  h.commit();
  games.push(h);
  const message = { type: 'seated', gameId: H, role: 'A', leagueId: '00000000-0000-4000-8000-0000000000bb', round: 2, board: 3 } as const;
  await bus.publish(`player:${P}`, { ...message, extra: 'dropped' });
  await tick();
  t.same(seated, [[message, `${G}@1`]], 'the seated event, its id the cursor when it came');
  t.same(got.slice(1), [`your_turn ${H}@1 ${G}@1,${H}@1`], 'the new game was learnt and its turn found in its log');

  // Malformed seated messages (and other shapes) are ignored; the feed goes on.
  for (const bad of [{ type: 'seated', gameId: H }, { type: 'seated', gameId: H, role: 'A', leagueId: 'x', round: '2', board: 1 }, { type: 'other' }, 'seated', null, [1]]) {
    await bus.publish(`player:${P}`, bad as never);
  }
  await tick();
  t.equal(seated.length, 1);
  h.commit(); // v2: B
  h.commit(); // v3: A
  await bus.publish(`player:${P}`, { type: 'your_turn', gameId: H, version: 3, roles: ['A'] });
  await tick();
  t.same(got.at(-1), `your_turn ${H}@3 ${G}@1,${H}@3`);

  // A feed without a seated handler ignores the notice but still finds the game's turns.
  const quiet: string[] = [];
  const plain = new TurnFeed({ playerId: P, source, fanout, cursor: decodeTurnCursor(`${G}@1`), pollMs: 60_000, deliver: (e) => quiet.push(`${e.gameId}@${e.version}`), error: () => {} });
  t.teardown(() => plain.close());
  await plain.start();
  await bus.publish(`player:${P}`, message);
  await tick();
  t.same(quiet, [`${H}@1`, `${H}@3`], 'resuming from a cursor without the new game replays its turns');
});
