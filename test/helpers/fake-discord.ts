// A fake Discord for tests of examples/discord-bot: the REST API (the routes the bot and
// discord.js use) and a gateway WebSocket speaking enough of the protocol for discord.js 14
// (HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats ACKed, dispatches). It records every
// message posted or edited (with its files), every interaction callback, and every request it
// did not know (the test asserts there is none). One guild, one text channel, its members.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Teardown } from './services.ts';

export interface FakeUser { id: string; username: string; global_name: string; discriminator: '0'; avatar: null; bot: boolean }

export interface FakeFile { name: string; data: Buffer }

export interface FakeMessage {
  id: string;
  channelId: string;
  content: string;
  components: any[];
  files: FakeFile[];
  flags: number;
  /** How many times it was edited. */
  edits: number;
  /** Every state it had, oldest first (content and file names). */
  history: { content: string; files: string[]; components: any[] }[];
  /** The interaction it answers, if any. */
  interactionId: string | null;
}

export interface FakeInteraction {
  id: string;
  token: string;
  /** Callback types received (4 reply, 5 deferred reply, 6 deferred update, 7 update). */
  callbacks: number[];
  /** Its response message (the reply, or the component's message for updates). */
  message: FakeMessage | null;
}

let next = 1_300_000_000_000_000_000n;
const snowflake = (): string => String(next++);

export interface FakeDiscord {
  api: string;
  token: string;
  applicationId: string;
  guildId: string;
  channelId: string;
  bot: FakeUser;
  user(name: string): FakeUser;
  messages: FakeMessage[];
  /** Channel messages (not interaction responses). */
  channelMessages(): FakeMessage[];
  interactions: Map<string, FakeInteraction>;
  commands: any[];
  identified: any[];
  unknown: string[];
  /** Dispatches a slash command; resolves once the bot has answered and the answer settled. */
  command(user: FakeUser, name: string, options?: { name: string; type: number; value: unknown }[]): Promise<FakeInteraction>;
  /** Clicks a button of a message. */
  click(user: FakeUser, message: FakeMessage, customId: string): Promise<FakeInteraction>;
  /** Picks an option of a select menu of a message. */
  select(user: FakeUser, message: FakeMessage, customId: string, value: string): Promise<FakeInteraction>;
  waitFor<T>(what: string, f: () => T | undefined | null | false, ms?: number): Promise<T>;
}

export async function startFakeDiscord(t: Teardown): Promise<FakeDiscord> {
  const applicationId = snowflake();
  const guildId = snowflake();
  const channelId = snowflake();
  const token = 'fake-discord-bot-token';
  const mkUser = (username: string, bot = false): FakeUser => ({ id: snowflake(), username, global_name: username, discriminator: '0', avatar: null, bot });
  const bot = { ...mkUser('herald-bot', true), id: applicationId };
  const users = new Map<string, FakeUser>();
  const messages: FakeMessage[] = [];
  const interactions = new Map<string, FakeInteraction>();
  const commands: any[] = [];
  const identified: any[] = [];
  const unknown: string[] = [];
  const sockets = new Set<WebSocket>();
  let seq = 0;

  const memberOf = (u: FakeUser) => ({ user: u, roles: [], joined_at: '2026-01-01T00:00:00.000Z', deaf: false, mute: false, flags: 0, permissions: '2248473465835073', nick: null, avatar: null, pending: false });
  const channelJson = { id: channelId, type: 0, guild_id: guildId, name: 'games', position: 0, permission_overwrites: [], parent_id: null, nsfw: false, topic: null, last_message_id: null, rate_limit_per_user: 0, flags: 0 };
  const messageJson = (m: FakeMessage) => ({
    id: m.id, channel_id: m.channelId, guild_id: guildId, author: bot, content: m.content, timestamp: new Date().toISOString(), edited_timestamp: m.edits ? new Date().toISOString() : null,
    tts: false, mention_everyone: false, mentions: [], mention_roles: [], pinned: false, type: m.interactionId ? 19 : 0, flags: m.flags, embeds: [], components: m.components,
    attachments: m.files.map((f, i) => ({ id: `${m.id}${i}`, filename: f.name, size: f.data.length, url: `https://cdn.invalid/${f.name}`, proxy_url: `https://cdn.invalid/${f.name}`, content_type: 'image/png' })),
    application_id: m.interactionId ? applicationId : undefined, webhook_id: m.interactionId ? applicationId : undefined,
  });

  /** The JSON payload and files of a request (JSON, or multipart with payload_json and files[n]). */
  async function parse(req: http.IncomingMessage, body: Buffer): Promise<{ json: any; files: FakeFile[] }> {
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('multipart/form-data')) {
      const form = await new Request('http://x/', { method: 'POST', headers: { 'content-type': type }, body: new Uint8Array(body) }).formData();
      const files: FakeFile[] = [];
      let json: any = {};
      for (const [k, v] of form.entries()) {
        if (k === 'payload_json') json = JSON.parse(v as string);
        else if (typeof v !== 'string') files.push({ name: v.name, data: Buffer.from(await v.arrayBuffer()) });
      }
      return { json, files };
    }
    return { json: body.length ? JSON.parse(body.toString('utf8')) : {}, files: [] };
  }

  function newMessage(json: any, files: FakeFile[], interactionId: string | null): FakeMessage {
    const m: FakeMessage = { id: snowflake(), channelId, content: json.content ?? '', components: json.components ?? [], files, flags: json.flags ?? 0, edits: 0, history: [], interactionId };
    m.history.push({ content: m.content, files: files.map((f) => f.name), components: m.components });
    messages.push(m);
    return m;
  }

  function edit(m: FakeMessage, json: any, files: FakeFile[]): void {
    if (json.content !== undefined) m.content = json.content ?? '';
    if (json.components !== undefined) m.components = json.components;
    // attachments lists the existing files to keep ([] keeps none); new files are added.
    if (json.attachments !== undefined || files.length) {
      const keep = new Set((json.attachments ?? []).map((a: any) => String(a.id)));
      m.files = [...m.files.filter((_, i) => keep.has(`${m.id}${i}`)), ...files];
    }
    m.edits++;
    m.history.push({ content: m.content, files: m.files.map((f) => f.name), components: m.components });
  }

  async function rest(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(req.url!, 'http://x');
    const p = decodeURIComponent(url.pathname).replace(/^\/api\/v10/, '');
    const method = req.method!;
    const send = (status: number, json?: unknown) => {
      res.writeHead(status, json === undefined ? {} : { 'content-type': 'application/json' });
      res.end(json === undefined ? undefined : JSON.stringify(json));
    };
    if (req.headers.authorization !== `Bot ${token}` && !p.startsWith('/interactions/') && !p.startsWith('/webhooks/')) return send(401, { message: '401: Unauthorized', code: 0 });
    const { json, files } = await parse(req, body);
    let m: RegExpMatchArray | null;
    if (method === 'GET' && p === '/gateway/bot') {
      return send(200, { url: `ws://127.0.0.1:${port}/gateway`, shards: 1, session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 } });
    }
    if (method === 'PUT' && (m = p.match(/^\/applications\/(\d+)\/(?:guilds\/(\d+)\/)?commands$/))) {
      commands.splice(0, commands.length, ...(json as any[]).map((c) => ({ ...c, id: snowflake(), application_id: m![1], guild_id: m![2] })));
      return send(200, commands);
    }
    if (method === 'POST' && (m = p.match(/^\/channels\/(\d+)\/messages$/)) && m[1] === channelId) {
      return send(200, messageJson(newMessage(json, files, null)));
    }
    if ((m = p.match(/^\/channels\/(\d+)\/messages\/(\d+)$/))) {
      const msg = messages.find((x) => x.id === m![2] && x.channelId === m![1]);
      if (!msg) return send(404, { message: 'Unknown Message', code: 10008 });
      if (method === 'PATCH') edit(msg, json, files);
      if (method === 'PATCH' || method === 'GET') return send(200, messageJson(msg));
    }
    if (method === 'POST' && (m = p.match(/^\/interactions\/(\d+)\/([^/]+)\/callback$/))) {
      const it = interactions.get(m[1]!);
      if (!it || it.token !== m[2]) return send(404, { message: 'Unknown interaction', code: 10062 });
      if (it.callbacks.length) return send(400, { message: 'Interaction has already been acknowledged.', code: 40060 });
      it.callbacks.push(json.type);
      if (json.type === 4 || json.type === 5) it.message = newMessage(json.type === 4 ? json.data ?? {} : { flags: json.data?.flags ?? 0, content: '' }, files, it.id);
      else if (json.type === 7 && it.message) edit(it.message, json.data ?? {}, files);
      return send(204);
    }
    if ((m = p.match(/^\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/)) && m[1] === applicationId) {
      const it = [...interactions.values()].find((x) => x.token === m![2]);
      if (!it?.message) return send(404, { message: 'Unknown Message', code: 10008 });
      if (method === 'PATCH') edit(it.message, json, files);
      if (method === 'PATCH' || method === 'GET') return send(200, messageJson(it.message));
    }
    unknown.push(`${method} ${p}`);
    send(404, { message: '404: Not Found', code: 0 });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      rest(req, res, Buffer.concat(chunks)).catch((e) => {
        unknown.push(`error ${req.method} ${req.url}: ${String(e)}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });

  // The gateway.
  const wss = new WebSocketServer({ server, path: '/gateway' });
  const dispatch = (ws: WebSocket, t: string, d: unknown) => ws.send(JSON.stringify({ op: 0, t, s: ++seq, d }));
  wss.on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 41_250 }, s: null, t: null }));
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { op: number; d: any };
      if (msg.op === 1) ws.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      else if (msg.op === 2) {
        identified.push(msg.d);
        if (msg.d.token !== token) return ws.close(4004, 'Authentication failed');
        dispatch(ws, 'READY', { v: 10, user: bot, guilds: [{ id: guildId, unavailable: true }], session_id: 'fake-session', resume_gateway_url: `ws://127.0.0.1:${port}/gateway`, shard: [0, 1], application: { id: applicationId, flags: 0 } });
        dispatch(ws, 'GUILD_CREATE', {
          id: guildId, name: 'Herald test guild', icon: null, owner_id: [...users.values()][0]?.id ?? bot.id, afk_channel_id: null, afk_timeout: 300, verification_level: 0,
          default_message_notifications: 0, explicit_content_filter: 0, mfa_level: 0, system_channel_id: null, system_channel_flags: 0, rules_channel_id: null,
          vanity_url_code: null, description: null, banner: null, premium_tier: 0, preferred_locale: 'en-US', public_updates_channel_id: null, nsfw_level: 0,
          premium_progress_bar_enabled: false, roles: [{ id: guildId, name: '@everyone', permissions: '2248473465835073', position: 0, color: 0, hoist: false, managed: false, mentionable: false, flags: 0 }],
          emojis: [], stickers: [], features: [], member_count: users.size + 1, large: false, unavailable: false, joined_at: '2026-01-01T00:00:00.000Z',
          members: [bot, ...users.values()].map(memberOf), channels: [channelJson], threads: [], presences: [], voice_states: [], stage_instances: [], guild_scheduled_events: [], soundboard_sounds: [],
        });
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  t.teardown(() => new Promise<void>((resolve) => {
    for (const ws of sockets) ws.terminate();
    wss.close();
    server.closeAllConnections();
    server.close(() => resolve());
  }));

  async function waitFor<T>(what: string, f: () => T | undefined | null | false, ms = 20_000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const v = f();
      if (v) return v;
      if (Date.now() > until) throw new Error(`fake Discord: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Sends an interaction and waits until it was answered and its message stopped changing (a deferral is followed by an edit). */
  async function interact(user: FakeUser, type: number, data: unknown, message?: FakeMessage): Promise<FakeInteraction> {
    const ws = [...sockets][0];
    if (!ws) throw new Error('fake Discord: no gateway connection');
    const it: FakeInteraction = { id: snowflake(), token: `token-${snowflake()}`, callbacks: [], message: message ?? null };
    interactions.set(it.id, it);
    const editsBefore = message?.edits ?? 0;
    dispatch(ws, 'INTERACTION_CREATE', {
      id: it.id, application_id: applicationId, type, data, guild_id: guildId, channel_id: channelId, channel: channelJson, member: memberOf(user), token: it.token, version: 1,
      app_permissions: '2248473465835073', locale: 'en-US', guild_locale: 'en-US', entitlements: [], authorizing_integration_owners: { 0: guildId }, context: 0, attachment_size_limit: 26_214_400,
      ...(message ? { message: messageJson(message) } : {}),
    });
    // Answered: a reply (4), or a deferral (5, 6) followed by its edit.
    await waitFor(`an answer to interaction ${it.id}`, () =>
      it.callbacks.includes(4) || it.callbacks.includes(7) || (it.callbacks.includes(5) && it.message!.edits > 0) || (it.callbacks.includes(6) && (it.message?.edits ?? 0) > editsBefore));
    return it;
  }

  return {
    api: `http://127.0.0.1:${port}/api`,
    token,
    applicationId,
    guildId,
    channelId,
    bot,
    user(name) {
      const u = mkUser(name);
      users.set(u.id, u);
      return u;
    },
    messages,
    channelMessages: () => messages.filter((m) => !m.interactionId),
    interactions,
    commands,
    identified,
    unknown,
    command(user, name, options = []) {
      const resolved = { users: Object.fromEntries(options.filter((o) => o.type === 6).map((o) => [o.value, users.get(String(o.value))])), members: Object.fromEntries(options.filter((o) => o.type === 6).map((o) => [o.value, { roles: [], joined_at: '2026-01-01T00:00:00.000Z', flags: 0, permissions: '0' }])) };
      const cmd = commands.find((c) => c.name === name);
      return interact(user, 2, { id: cmd?.id ?? snowflake(), name, type: 1, guild_id: guildId, options, resolved });
    },
    click: (user, message, customId) => interact(user, 3, { custom_id: customId, component_type: 2 }, message),
    select: (user, message, customId, value) => interact(user, 3, { custom_id: customId, component_type: 3, values: [value] }, message),
    waitFor,
  };
}
