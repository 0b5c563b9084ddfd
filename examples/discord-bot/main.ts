// A Discord bot that plays Herald's Richard III games in a channel (see README.md here).
//
//   npx tsx examples/discord-bot/main.ts register   # once: the slash commands
//   npx tsx examples/discord-bot/main.ts            # the bot
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { HeraldBot } from './bot.ts';
import { registerCommands } from './commands.ts';
import { Herald, type HeraldOptions } from './herald.ts';
import { State } from './state.ts';
import { startReceiver, type Receiver } from './webhook-receiver.ts';

/** Herald's events the bot follows. */
export const EVENTS = ['game_started', 'your_turn', 'game_ended', 'clock_reminder', 'clock_timeout'];

export interface BotConfig {
  herald: HeraldOptions;
  discordToken: string;
  /** The URL Herald posts events to (public; it reaches the receiver on `webhookPort`). Default: the receiver's local URL. */
  webhookUrl?: string;
  webhookPort: number;
  webhookHost?: string;
  /** Known secret (HERALD_WEBHOOK_SECRET); otherwise the endpoint is registered or its secret rotated. */
  webhookSecret?: string;
  stateFile?: string | null;
  /** Discord's REST base (tests: a local fake). */
  discordApi?: string;
  log?: (msg: string) => void;
}

export interface RunningBot {
  client: Client;
  bot: HeraldBot;
  receiver: Receiver;
  webhookId: string | null;
  stop(): Promise<void>;
}

export async function startBot(c: BotConfig): Promise<RunningBot> {
  const herald = new Herald(c.herald);
  const client = new Client({ intents: [GatewayIntentBits.Guilds], ...(c.discordApi ? { rest: { api: c.discordApi } } : {}) });
  const bot = new HeraldBot(client, herald, new State(c.stateFile ?? null), c.log);
  client.on(Events.InteractionCreate, (i) => void bot.onInteraction(i));
  // Listen before registering: Herald may deliver at once.
  let secret = c.webhookSecret ?? '';
  const receiver = await startReceiver({ secret: () => secret, port: c.webhookPort, host: c.webhookHost, path: c.webhookUrl ? new URL(c.webhookUrl).pathname : '/herald', onEvent: (e) => bot.onEvent(e), onError: (e) => c.log?.(`event: ${String(e)}`) });
  let webhookId: string | null = null;
  if (!c.webhookSecret) ({ id: webhookId, secret } = await herald.webhook(c.webhookUrl ?? receiver.url, EVENTS));
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(c.discordToken);
  await ready;
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => (stopping ??= (async () => {
    await receiver.close();
    await bot.idle();
    await client.destroy();
  })());
  return { client, bot, receiver, webhookId, stop };
}

function env(name: string, fallback?: string): string {
  const v = process.env[name] || fallback;
  if (v === undefined || v === '') {
    console.error(`${name} is required (see examples/discord-bot/README.md)`);
    process.exit(2);
  }
  return v;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'register') {
    await registerCommands({ token: env('DISCORD_TOKEN'), applicationId: env('DISCORD_APPLICATION_ID'), guildId: process.env.DISCORD_GUILD_ID || null });
    console.log('slash commands registered');
  } else {
    const webhookUrl = env('HERALD_WEBHOOK_URL');
    const b = await startBot({
      herald: { url: env('HERALD_URL', 'http://127.0.0.1:3000'), appKey: env('HERALD_APP_KEY'), lang: process.env.HERALD_LANG },
      discordToken: env('DISCORD_TOKEN'),
      webhookUrl,
      webhookPort: Number(env('PORT', '8080')),
      webhookSecret: process.env.HERALD_WEBHOOK_SECRET || undefined,
      stateFile: process.env.STATE_FILE || null,
    });
    console.log(`logged in as ${b.client.user?.tag}; Herald events at ${webhookUrl} (listening on ${b.receiver.url})`);
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void b.stop().then(() => process.exit(0)));
  }
}
