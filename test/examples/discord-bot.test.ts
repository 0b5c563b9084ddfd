// examples/discord-bot end to end: a real Herald (Postgres, Redis-free bus as the other example
// tests, webhooks delivered by its own worker), the bot as a user runs it (discord.js 14 Client,
// its webhook receiver, an application key), and a fake Discord (test/helpers/fake-discord.ts:
// REST + gateway WebSocket) that records what the bot posts and dispatches members' clicks.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { startFakeDiscord, type FakeDiscord, type FakeMessage, type FakeUser } from '../helpers/fake-discord.ts';
import { listen, seeded } from './harness-helpers.ts';
import { startBot } from '../../examples/discord-bot/main.ts';
import { registerCommands } from '../../examples/discord-bot/commands.ts';
import { decodeId, encodeId } from '../../examples/discord-bot/ids.ts';
import { startReceiver } from '../../examples/discord-bot/webhook-receiver.ts';

const ADMIN = 'discord-example-operator-token-0123456789';
const { store, databaseUrl } = await openTestStore(t);
const { app, baseUrl } = await listen(testConfig({ databaseUrl, adminToken: ADMIN, webhookAllowPrivate: true }), { store, webhookSweepMs: 100 });
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
  t.same(discord.commands.map((c) => c.name).sort(), ['board', 'challenge', 'resign']);
  t.match(discord.commands.find((c) => c.name === 'challenge'), { guild_id: discord.guildId, options: [{ name: 'opponent', type: 6, required: true }, { name: 'scenario', type: 3 }] });
});

t.test('a game in a channel: /challenge, the board from webhooks, moves from menus', async (t) => {
  const discord = await startFakeDiscord(t);
  const alice = discord.user('alice');
  const bob = discord.user('bob');
  const logs: string[] = [];
  const running = await startBot({ herald: { url: baseUrl, appKey }, discordToken: discord.token, webhookPort: 0, webhookHost: '127.0.0.1', discordApi: discord.api, log: (m) => (logs.push(m), t.comment(m)) });
  t.teardown(() => running.stop());
  t.equal(discord.identified.length, 1, 'the bot identified on the gateway');
  t.equal(discord.identified[0].token, discord.token);

  t.teardown(() => { if (discord.unknown.length) t.comment(discord.unknown.join('\n')); });
  const challenge = await discord.command(alice, 'challenge', [{ name: 'opponent', type: 6, value: bob.id }]);
  t.match(challenge.message!.content, new RegExp(`<@${alice.id}> \\(York\\) challenges <@${bob.id}> \\(Lancaster\\)`));
  const board = await discord.waitFor('the board message', () => discord.channelMessages()[0]);
  t.ok(isPng(board.files[0]?.data), 'the board message carries a PNG');
  t.match(board.content, /To act:/);
  t.same(logs, []);
  t.same(discord.unknown, []);
});
