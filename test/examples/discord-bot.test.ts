// examples/discord-bot end to end: a real Herald on a real port (Postgres; the in-process bus, as
// the other example tests; webhooks delivered by its own worker), the bot as a user runs it
// (startBot: the discord.js 14 Client, its webhook receiver, an application key), and a fake
// Discord (test/helpers/fake-discord.ts: REST + gateway WebSocket) that records what the bot
// posts and dispatches members' clicks.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import path from 'node:path';
import { openTestStore, tempDir, testConfig } from '../helpers/services.ts';
import { startFakeDiscord, type FakeMessage, type FakeUser } from '../helpers/fake-discord.ts';
import { listen, seeded } from './harness-helpers.ts';
import { scanGame, type Received } from '../../examples/leak-scan/index.ts';
import { BLOCKS } from '../../src/games/richard-iii/data.ts';
import mapJson from '../../src/games/richard-iii/data/map.json' with { type: 'json' };
import { startBot } from '../../examples/discord-bot/main.ts';
import { registerCommands } from '../../examples/discord-bot/commands.ts';
import { decodeId, encodeId, type ComponentId } from '../../examples/discord-bot/ids.ts';
import { startReceiver } from '../../examples/discord-bot/webhook-receiver.ts';

const ADMIN = 'discord-example-operator-token-0123456789';
const { store, databaseUrl } = await openTestStore(t);
const { app, baseUrl } = await listen(testConfig({ databaseUrl, adminToken: ADMIN, webhookAllowPrivate: true }), { store, webhookSweepMs: 100, aiSweepMs: 200 });
t.teardown(() => app.close());

async function api(method: string, path: string, key: string, body?: unknown, actAs?: string): Promise<any> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(actAs ? { 'x-act-as': actAs } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.headers.get('content-type')?.startsWith('image/') ? Buffer.from(await res.arrayBuffer()) : res.json();
}

const appKey = (await api('POST', '/admin/apps', ADMIN, { name: 'discord-bot' })).key.key as string;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const isPng = (b: Buffer | undefined) => !!b && b.subarray(0, 4).equals(PNG);

t.test('the slash commands are registered in the guild', async (t) => {
  const discord = await startFakeDiscord(t);
  await registerCommands({ token: discord.token, applicationId: discord.applicationId, guildId: discord.guildId, api: discord.api });
  t.same(discord.commands.map((c) => c.name).sort(), ['board', 'challenge', 'computer', 'resign']);
  t.match(discord.commands.find((c) => c.name === 'computer'), { options: [{ name: 'level', type: 3, choices: [{ value: 'random' }, { value: 'easy' }, { value: 'normal' }, { value: 'hard' }] }, { name: 'scenario', type: 3 }] });
  t.match(discord.commands.find((c) => c.name === 'challenge'), { guild_id: discord.guildId, options: [{ name: 'opponent', type: 6, required: true }, { name: 'scenario', type: 3 }] });
});

const ids = (m: FakeMessage): string[] => m.components.flatMap((row: any) => row.components.map((c: any) => c.custom_id as string));
const EPHEMERAL = 64;
const UNDO = /^a:(undo|take_back)\b/;
/**
 * Every block not among the seat's own (the enemy's, and the Rebel unless the seat holds it),
 * except the ids that are also area names ("gloucester"), which a summary lists as places.
 */
const AREAS = new Set((mapJson as { areas: { id: string }[] }).areas.map((a) => a.id));
const othersTokens = (own: string[]): RegExp => new RegExp(`(?<![A-Za-z0-9_-])(${BLOCKS.filter((b) => !own.includes(b.id) && !AREAS.has(b.id)).map((b) => b.id).join('|')})(?![A-Za-z0-9_-])`);

t.test('a game in a channel: /challenge, the board from webhooks, moves from menus, a stale menu, private views, resign, rematch', async (t) => {
  const discord = await startFakeDiscord(t);
  const alice = discord.user('alice');
  const bob = discord.user('bob');
  const carol = discord.user('carol');
  const logs: string[] = [];
  const stateFile = path.join(await tempDir(t, 'discord-bot-'), 'state.json');
  const start = (webhookPort = 0) => startBot({ herald: { url: baseUrl, appKey }, discordToken: discord.token, webhookPort, webhookHost: '127.0.0.1', discordApi: discord.api, stateFile, log: (m) => (logs.push(m), t.comment(m)) });
  let running = await start();
  t.teardown(() => running.stop());
  t.teardown(() => { if (discord.unknown.length) t.comment(discord.unknown.join('\n')); });
  t.equal(discord.identified.length, 1, 'the bot identified on the gateway');
  t.equal(discord.identified[0].token, discord.token);
  t.equal(discord.identified[0].intents, 1, 'Guilds intent only (no privileged intent)');
  const hooks = (await api('GET', '/webhooks', appKey)).webhooks as { id: string; url: string; events: string[] }[];
  t.same(hooks.map((h) => h.id), [running.webhookId], 'one webhook endpoint of the application');
  t.same([...hooks[0]!.events].sort(), ['clock_reminder', 'clock_timeout', 'game_ended', 'game_started', 'your_turn']);

  // What each seat's user received privately, for the leak scan.
  const received: Received[] = [];
  const seatOf = new Map<string, string>([[alice.id, 'York'], [bob.id, 'Lancaster']]);
  const userOf: Record<string, FakeUser> = { York: alice, Lancaster: bob };
  const game = (id: string) => api('GET', `/games/${id}`, appKey);
  const keep = async (user: FakeUser, gameId: string, m: FakeMessage | null) => {
    const role = seatOf.get(user.id);
    if (role && m) received.push({ role, version: (await game(gameId)).version, source: 'discord:ephemeral', payload: { content: m.content, components: m.components } });
  };

  const self = await discord.command(alice, 'challenge', [{ name: 'opponent', type: 6, value: alice.id }]);
  t.match(self.message!, { flags: EPHEMERAL, content: 'Challenge another member.' });

  // /challenge: alice (York) against bob (Lancaster).
  const challenge = await discord.command(alice, 'challenge', [{ name: 'opponent', type: 6, value: bob.id }]);
  t.same(challenge.callbacks, [5], 'deferred, then answered in the channel');
  t.equal(challenge.message!.flags & EPHEMERAL, 0);
  t.match(challenge.message!.content, new RegExp(`<@${alice.id}> \\(York\\) challenges <@${bob.id}> \\(Lancaster\\)`));
  const gameId = challenge.message!.content.match(/`([0-9a-f-]{36})`/)![1]!;
  t.match(await game(gameId), { status: 'active', seats: [{ role: 'York', player: { name: 'alice' } }, { role: 'Lancaster', player: { name: 'bob' } }] });

  // game_started (a webhook) → the board message, posted once.
  const board = await discord.waitFor('the board message', () => discord.channelMessages().find((m) => ids(m).includes(encodeId({ kind: 'view', gameId }))));
  t.ok(isPng(board.files[0]?.data), 'the board message carries a PNG');
  t.same(board.files[0]!.data, await api('GET', `/games/${gameId}/board.png?role=spectator&lang=en&version=${(await game(gameId)).version}`, appKey), "it is Herald's spectator picture");
  t.match(board.content, /To act:/);
  const deliveries = async () => ((await api('GET', `/webhooks/${running.webhookId}/deliveries`, appKey)).deliveries as { eventType: string; status: string }[]);
  t.ok((await deliveries()).some((d) => d.eventType === 'game_started' && d.status === 'delivered'), 'game_started was delivered to the bot');

  // Someone without a seat clicks "Play my turn".
  const intruder = await discord.click(carol, board, ids(board).find((id) => id.startsWith('h:play:'))!);
  t.equal(intruder.message!.flags & EPHEMERAL, EPHEMERAL);
  t.match(intruder.message!.content, /You hold no seat/);

  // Moves: the active seat's user clicks "Play my turn", drills down the menu, picks an action.
  const random = seeded(11);
  type Picked = { user: FakeUser; message: FakeMessage; customId: string; value: string; version: number };
  const leaves: Picked[] = [];
  const groups: Picked[] = [];
  const startVersion = (await game(gameId)).version;
  let moves = 0;
  let menusOpened = 0;
  let maxDepth = 0;
  while (moves < 14) {
    const g = await game(gameId);
    if (g.status !== 'active') break;
    await discord.waitFor(`the board at version ${g.version}`, () => board.content.includes(`version ${g.version}\n`));
    t.equal(ids(board).find((id) => id.startsWith('h:play:')), encodeId({ kind: 'play', gameId, version: g.version }), 'the board names the current version');
    // A seat whose only choice is to take back its card waits for the other.
    let role: string | undefined;
    for (const r of g.activeRoles as string[]) {
      const legal = await api('GET', `/games/${gameId}/actions`, appKey, undefined, (await api('POST', '/players', appKey, { name: userOf[r]!.username, externalId: `discord:${userOf[r]!.id}` })).player.id);
      if ((legal.actions as { type: string }[]).some((a) => a.type !== 'undo' && a.type !== 'take_back')) role = r;
    }
    t.ok(role, `someone can move at version ${g.version}`);
    const user = userOf[role!]!;
    const play = await discord.click(user, board, encodeId({ kind: 'play', gameId, version: g.version }));
    const menu = play.message!;
    t.equal(menu.flags & EPHEMERAL, EPHEMERAL, 'the menu is ephemeral');
    menusOpened++;
    for (let depth = 1; ; depth++) {
      await keep(user, gameId, menu);
      const select = menu.components[0]?.components[0];
      t.equal(select?.type, 3, `a select menu: ${menu.content}`);
      const id = decodeId(select.custom_id)!;
      t.match(id, { kind: 'menu', gameId, version: g.version });
      t.ok(select.options.length >= 1 && select.options.length <= 25);
      t.ok(select.custom_id.length <= 100 && select.options.every((o: { value: string }) => o.value.length <= 100));
      const options = (select.options as { value: string }[]).filter((o) => !UNDO.test(o.value));
      // The first few moves open a group when there is one (so groups are exercised), then any choice.
      const group = groups.length < 3 ? options.find((o) => o.value.startsWith('g:')) : undefined;
      const value = group?.value ?? ((options.length ? options : select.options)[Math.floor(random() * (options.length || select.options.length))].value as string);
      maxDepth = Math.max(maxDepth, depth);
      const before = menu.content;
      (value.startsWith('a:') ? leaves : groups).push({ user, message: menu, customId: select.custom_id, value, version: g.version });
      await discord.select(user, menu, select.custom_id, value);
      if (value.startsWith('g:')) {
        t.not(menu.content, before, 'the group opened in the same message');
        continue;
      }
      t.match(menu.content, new RegExp(`^Played \`${value.slice(2).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``), 'the move was played');
      await keep(user, gameId, menu);
      break;
    }
    moves++;
    t.ok((await game(gameId)).version > g.version, 'the version moved on');
  }
  t.equal(moves, 14, `${moves} moves played from Discord menus (${menusOpened} menus, groups up to ${maxDepth} deep)`);
  const g1 = await game(gameId);
  await discord.waitFor('the board at the last version', () => board.content.includes(`version ${g1.version}\n`));
  t.ok(board.edits >= 5, `the board message was edited in place (${board.edits} edits)`);
  t.equal(board.files.length, 1, 'each edit replaced the picture');
  t.same(board.files[0]!.data, await api('GET', `/games/${gameId}/board.png?role=spectator&lang=en&version=${g1.version}`, appKey), 'the picture of the last version');
  t.equal(discord.channelMessages().filter((m) => ids(m).includes(encodeId({ kind: 'view', gameId }))).length, 1, 'one board message for the game');
  t.ok(g1.version >= startVersion + 14);
  t.ok((await deliveries()).some((d) => d.eventType === 'your_turn'), 'your_turn events were delivered');

  // A stale menu: a leaf from an earlier version is refused by Herald, nothing changes, a fresh menu or a clear word.
  const stale = leaves[0]!;
  await discord.select(stale.user, stale.message, stale.customId, stale.value);
  t.match(stale.message.content, new RegExp(`^That menu was made at version ${stale.version}; the game is at version ${g1.version} now: nothing was played`));
  t.equal((await game(gameId)).version, g1.version, 'nothing was played');
  const fresh = stale.message.components[0]?.components[0];
  if (fresh) t.match(decodeId(fresh.custom_id), { kind: 'menu', gameId, version: g1.version }, 'a fresh menu at the current version');
  else t.match(stale.message.content, /It is not your turn/);
  await keep(stale.user, gameId, stale.message);
  // A group of an old menu (the tree is read again, at that version only), and a forged custom_id.
  const oldGroup = groups[0]!;
  await discord.select(oldGroup.user, oldGroup.message, oldGroup.customId, oldGroup.value);
  t.match(oldGroup.message.content, new RegExp(`^That menu was made at version ${oldGroup.version}; the game is at version ${g1.version} now: nothing was played`));
  const forged = await discord.click(alice, board, `h:play:${gameId}:x`);
  t.match(forged.message!.content, /out of date/);
  t.equal(forged.message!.flags & EPHEMERAL, EPHEMERAL);
  t.equal((await game(gameId)).version, g1.version, 'nothing was played');

  // Private views: each seat's own picture and blocks, never the enemy's hidden blocks.
  for (const [user, role] of [[alice, 'York'], [bob, 'Lancaster']] as const) {
    const view = await discord.click(user, board, encodeId({ kind: 'view', gameId }));
    const m = view.message!;
    t.equal(m.flags & EPHEMERAL, EPHEMERAL, `${role}: the view is ephemeral`);
    t.match(m.content, new RegExp(`^\\*\\*Your view — ${role}\\*\\*`));
    const player = (await api('POST', '/players', appKey, { name: user.username, externalId: `discord:${user.id}` })).player.id;
    const own = (await api('GET', `/games/${gameId}/view`, appKey, undefined, player)).view as { blocks: { id: string; loc: string }[] };
    t.ok(own.blocks.filter((b) => b.loc !== 'pool').every((b) => m.content.includes(b.id)), `${role}: its blocks are listed`);
    t.notMatch(m.content, othersTokens(own.blocks.map((b) => b.id)), `${role}: no other block is named`);
    t.same(m.files[0]?.data, await api('GET', `/games/${gameId}/board.png?role=${role}&lang=en&version=${g1.version}`, appKey, undefined, player), `${role}: the attachment is the seat's own picture`);
    await keep(user, gameId, m);
  }
  const record = (await app.store.prisma.game.findUnique({ where: { id: gameId } }))!;
  const entries = await app.store.prisma.action.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
  const scan = scanGame({ gameType: record.gameType, scenario: record.scenario, seed: record.seed, options: record.options as Record<string, unknown>, entries: entries.map((e) => ({ seq: e.seq, kind: e.kind, role: e.role, action: e.action })) }, received);
  t.same(scan.findings, [], `${scan.scanned} ephemeral messages leak-scanned, no finding`);
  t.ok(received.some((r) => r.role === 'York') && received.some((r) => r.role === 'Lancaster'));

  // A restart: the same webhook endpoint (its secret rotated), the games and board messages from
  // STATE_FILE, and the old buttons still work.
  await running.stop();
  const firstWebhook = running.webhookId;
  running = await start(Number(new URL(running.receiver.url).port)); // the same URL
  t.equal(running.webhookId, firstWebhook, 'the restarted bot kept its endpoint (secret rotated)');
  t.equal((await api('GET', '/webhooks', appKey)).webhooks.length, 1);
  const afterRestart = await discord.click(alice, board, encodeId({ kind: 'view', gameId }));
  t.match(afterRestart.message!.content, /^\*\*Your view — York\*\*/, 'a button posted before the restart still works');

  // A change made outside Discord (bob resigns through Herald's API): game_ended → the board is edited.
  const bobPlayer = (await api('POST', '/players', appKey, { name: 'bob', externalId: `discord:${bob.id}` })).player.id;
  await api('POST', `/games/${gameId}/resign`, appKey, {}, bobPlayer);
  await discord.waitFor('the board of the finished game', () => /Game over/.test(board.content) && board);
  t.match(board.content, new RegExp(`<@${alice.id}> \\(York\\) wins`));
  t.ok(ids(board).includes(encodeId({ kind: 'rematch', gameId })), 'a Rematch button');
  t.notOk(ids(board).some((id) => id.startsWith('h:play:')));
  t.ok((await deliveries()).some((d) => d.eventType === 'game_ended' && d.status === 'delivered'));

  // Rematch: sides swapped, started at once (the bot acts for both), a new board message.
  const rematch = await discord.click(alice, board, encodeId({ kind: 'rematch', gameId }));
  const newId = rematch.message!.content.match(/`([0-9a-f-]{36})`/)![1]!;
  t.match(await game(newId), { status: 'active', seats: [{ role: 'York', player: { name: 'bob' } }, { role: 'Lancaster', player: { name: 'alice' } }] });
  const board2 = await discord.waitFor('the rematch board', () => discord.channelMessages().find((m) => ids(m).includes(encodeId({ kind: 'view', gameId: newId }))));
  t.match(board2.content, new RegExp(`<@${bob.id}> \\(York\\) vs <@${alice.id}> \\(Lancaster\\)`));

  // /board posts it again; /resign ends it (the newest game of the member in this channel).
  const again = await discord.command(alice, 'board');
  t.equal(again.message!.flags & EPHEMERAL, EPHEMERAL);
  t.equal(discord.channelMessages().filter((m) => ids(m).includes(encodeId({ kind: 'view', gameId: newId }))).length, 2, '/board posted a new board message');
  const resign = await discord.command(alice, 'resign');
  t.match(resign.message!.content, /You resigned/);
  t.match(await game(newId), { status: 'finished', result: { winner: 'York' } });
  await running.bot.idle();
  t.same(logs, [], 'the bot logged no error');
  t.same(discord.unknown, [], 'the bot used no route the fake does not know');
});

t.test("/computer: a game against Herald's AI in the channel; the AI moves by itself", async (t) => {
  const discord = await startFakeDiscord(t);
  const dave = discord.user('dave');
  const stateFile = path.join(await tempDir(t, 'discord-bot-ai-'), 'state.json');
  const running = await startBot({ herald: { url: baseUrl, appKey }, discordToken: discord.token, webhookPort: 0, webhookHost: '127.0.0.1', discordApi: discord.api, stateFile, log: (m) => t.comment(m) });
  t.teardown(() => running.stop());
  const started = await discord.command(dave, 'computer', [{ name: 'level', type: 3, value: 'random' }]);
  t.match(started.message!.content, new RegExp(`<@${dave.id}> \\(York\\) plays Herald's AI \\(random, Lancaster\\)`));
  const gameId = started.message!.content.match(/`([0-9a-f-]{36})`/)![1]!;
  const game = await api('GET', `/games/${gameId}`, appKey);
  t.match(game, { status: 'active', seats: [{ role: 'York', player: { name: 'dave' }, ai: null }, { role: 'Lancaster', player: { name: 'Herald AI (random)', isBot: true }, ai: { level: 'random' } }] });
  const board = await discord.waitFor('the board message', () => discord.channelMessages().find((m) => ids(m).includes(encodeId({ kind: 'view', gameId }))));
  t.match(board.content, new RegExp(`<@${dave.id}> \\(York\\) vs Herald AI \\(random\\) \\(Lancaster\\)`), 'the board names the AI');
  // The AI's first move (Lancaster's card or hand) comes by itself, and the board follows it.
  let moved = false;
  for (let i = 0; i < 500 && !moved; i++) {
    const log = (await api('GET', `/games/${gameId}/log`, appKey)).entries as { kind: string; role: string | null }[];
    moved = log.some((e) => e.kind === 'action' && e.role === 'Lancaster');
    if (!moved) await new Promise((r) => setTimeout(r, 40));
  }
  t.ok(moved, 'Lancaster (the AI) acted');
});

t.test('the webhook receiver: verified by signature, retries dropped by webhook-id', async (t) => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const events: unknown[] = [];
  const r = await startReceiver({ secret: () => secret, port: 0, host: '127.0.0.1', onEvent: async (e) => void events.push(e) });
  t.teardown(() => r.close());
  const body = JSON.stringify({ type: 'ping', timestamp: new Date().toISOString(), data: {} });
  const post = (id: string, signature: string, at = new Date()) =>
    fetch(r.url, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature }, body }).then((res) => res.status);
  const sign = (id: string, at = new Date()) => new Webhook(secret).sign(id, at, body);
  t.equal(await post('msg_1', sign('msg_1')), 204);
  t.equal(await post('msg_1', sign('msg_1')), 204, 'a retry is answered');
  t.equal(events.length, 1, 'and handled once');
  t.equal(await post('msg_2', sign('msg_1')), 401, 'a signature of another message is refused');
  const old = new Date(Date.now() - 10 * 60_000);
  t.equal(await post('msg_3', sign('msg_3', old), old), 401, 'a message older than 5 minutes is refused');
  t.equal(await post('msg_4', new Webhook('whsec_' + Buffer.alloc(24, 7).toString('base64')).sign('msg_4', new Date(), body)), 401, 'another secret is refused');
  t.equal(events.length, 1);
});

t.test('custom_id: round trip, within 100 characters, anything else refused', async (t) => {
  const gameId = '6f1c2d3e-0000-4000-8000-000000000002';
  const all: ComponentId[] = [
    { kind: 'play', gameId, version: 123_456_789 },
    { kind: 'view', gameId },
    { kind: 'rematch', gameId },
    { kind: 'menu', gameId, version: 123_456_789, path: [24, 24, 24, 24, 24, 24, 24, 24] },
    { kind: 'menu', gameId, version: 0, path: [] },
  ];
  for (const c of all) {
    const s = encodeId(c);
    t.ok(s.length <= 100, `${s} (${s.length})`);
    t.same(decodeId(s), c);
  }
  for (const bad of ['', 'h', `h:play:${gameId}`, `h:play:${gameId}:1:2`, `h:view:${gameId}:1`, `h:menu:${gameId}:1`, `h:menu:${gameId}:1:a`, `h:menu:${gameId}:-1:`, 'h:play:not-a-uuid:1', `x:view:${gameId}`, `h:view:${gameId.toUpperCase()}`]) {
    t.equal(decodeId(bad), null, JSON.stringify(bad));
  }
});
