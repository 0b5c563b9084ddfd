// The bot: Discord interactions in, Herald requests out, and Herald's webhook events in, board
// messages out. Every Discord user is a Herald player (externalId "discord:<id>") the
// application acts for.
import {
  AttachmentBuilder, MessageFlags, type ButtonInteraction, type ChatInputCommandInteraction, type Client, type Interaction,
  type StringSelectMenuInteraction, type User,
} from 'discord.js';
import { Herald, HeraldError, type Actions } from './herald.ts';
import { decodeId, decodeOption } from './ids.ts';
import { boardMessage, menuMessage, nodeAt, viewSummary } from './menus.ts';
import type { State } from './state.ts';
import type { HeraldEvent } from './webhook-receiver.ts';

type Component = ButtonInteraction | StringSelectMenuInteraction;

export class HeraldBot {
  private readonly players = new Map<string, string>();
  /** One board update at a time per game, in order. */
  private readonly boards = new Map<string, Promise<void>>();

  private readonly client: Client;
  private readonly herald: Herald;
  private readonly state: State;
  private readonly log: (msg: string) => void;
  constructor(
    client: Client,
    herald: Herald,
    state: State,
    log: (msg: string) => void = console.error,
  ) {
    this.client = client;
    this.herald = herald;
    this.state = state;
    this.log = log;
  }

  // ─── Herald's events (webhooks) ────────────────────────────────────────────

  async onEvent(e: HeraldEvent): Promise<void> {
    const gameId = e.data.gameId;
    if (!gameId || !this.state.get(gameId)) return; // not a game started from Discord
    if (e.type === 'clock_reminder' && e.data.player?.externalId?.startsWith('discord:')) {
      const user = e.data.player.externalId.slice('discord:'.length);
      const channel = await this.client.channels.fetch(this.state.get(gameId)!.channelId);
      if (channel?.isSendable()) await channel.send({ content: `<@${user}>, your clock is running in game ${gameId}.`, allowedMentions: { users: [user] } });
      return;
    }
    // game_started, your_turn, game_ended, clock_timeout: the picture changed.
    await this.refreshBoard(gameId);
  }

  /**
   * Posts the game's board message (the spectator picture, whose turn it is, buttons) or edits it
   * in place; skipped when it already shows this version. `repost`: a new message (/board).
   */
  refreshBoard(gameId: string, repost = false): Promise<void> {
    const next = (this.boards.get(gameId) ?? Promise.resolve()).then(() => this.drawBoard(gameId, repost)).catch((e) => this.log(`board ${gameId}: ${String(e)}`));
    this.boards.set(gameId, next);
    return next;
  }

  private async drawBoard(gameId: string, repost: boolean): Promise<void> {
    const rec = this.state.get(gameId);
    if (!rec) return;
    const game = await this.herald.game(gameId);
    if (!repost && rec.messageId && game.version <= rec.shown) return;
    const png = await this.herald.picture(gameId, { role: 'spectator', version: game.version });
    const channel = await this.client.channels.fetch(rec.channelId);
    if (!channel?.isSendable()) throw new Error(`cannot post in channel ${rec.channelId}`);
    const message = boardMessage(game, rec.seats, png);
    if (rec.messageId && !repost) await channel.messages.edit(rec.messageId, { ...message, attachments: [] });
    else rec.messageId = (await channel.send(message)).id;
    this.state.set(gameId, { ...rec, shown: game.version });
  }

  /** Resolves when every board update under way is done (before shutting down). */
  async idle(): Promise<void> {
    await Promise.all(this.boards.values());
  }

  // ─── Discord's interactions ────────────────────────────────────────────────

  async onInteraction(i: Interaction): Promise<void> {
    try {
      if (i.isChatInputCommand()) await this.command(i);
      else if (i.isButton() || i.isStringSelectMenu()) await this.component(i);
    } catch (e) {
      this.log(`interaction ${i.id}: ${String(e)}`);
      if (!i.isRepliable()) return;
      const content = e instanceof HeraldError ? `Herald refused that: ${e.code}.` : 'Something went wrong.';
      if (i.deferred || i.replied) await i.editReply({ content, components: [], files: [] }).catch(() => {});
      else await i.reply({ content, flags: MessageFlags.Ephemeral }).catch(() => {});
    }
  }

  private async playerOf(user: User): Promise<string> {
    let id = this.players.get(user.id);
    if (!id) {
      id = await this.herald.player(user.id, user.username);
      this.players.set(user.id, id);
    }
    return id;
  }

  private async command(i: ChatInputCommandInteraction): Promise<void> {
    if (i.commandName === 'challenge') {
      const opponent = i.options.getUser('opponent', true);
      if (opponent.id === i.user.id || opponent.bot) {
        await i.reply({ content: 'Challenge another member.', flags: MessageFlags.Ephemeral });
        return;
      }
      await i.deferReply();
      const york = await this.playerOf(i.user);
      const lancaster = await this.playerOf(opponent);
      const game = await this.herald.createGame(york, i.options.getString('scenario') ?? undefined);
      // Remembered before the game starts, so its game_started event finds the channel.
      this.state.set(game.id, { channelId: i.channelId, messageId: null, shown: -1, seats: { York: i.user.id, Lancaster: opponent.id } });
      await this.herald.join(game.id, lancaster);
      await i.editReply({ content: `<@${i.user.id}> (York) challenges <@${opponent.id}> (Lancaster). Game \`${game.id}\`; the board follows.`, allowedMentions: { users: [opponent.id] } });
      return;
    }
    if (i.commandName === 'computer') {
      await i.deferReply();
      const level = i.options.getString('level') ?? 'random';
      const york = await this.playerOf(i.user);
      // Herald's AI takes Lancaster: every seat is held, so the game starts now; the AI moves by itself.
      const game = await this.herald.createGame(york, i.options.getString('scenario') ?? undefined, { Lancaster: level });
      this.state.set(game.id, { channelId: i.channelId, messageId: null, shown: -1, seats: { York: i.user.id, Lancaster: '' } });
      await i.editReply({ content: `<@${i.user.id}> (York) plays Herald's AI (${level}, Lancaster). Game \`${game.id}\`; the board follows.`, allowedMentions: { users: [] } });
      await this.refreshBoard(game.id); // it started before it was remembered
      return;
    }
    const gameId = this.state.latest(i.channelId, i.user.id);
    if (!gameId) {
      await i.reply({ content: 'You have no game in this channel.', flags: MessageFlags.Ephemeral });
      return;
    }
    await i.deferReply({ flags: MessageFlags.Ephemeral });
    if (i.commandName === 'resign') {
      await this.herald.resign(gameId, await this.playerOf(i.user));
      await i.editReply('You resigned.');
      await this.refreshBoard(gameId);
    } else if (i.commandName === 'board') {
      await this.refreshBoard(gameId, true);
      await i.editReply('The board is posted again below.');
    }
  }

  private async component(i: Component): Promise<void> {
    const id = decodeId(i.customId);
    if (!id || (id.kind === 'menu') !== i.isStringSelectMenu()) {
      await i.reply({ content: 'This control is out of date; use the newest board message.', flags: MessageFlags.Ephemeral });
      return;
    }
    if (id.kind === 'menu' && i.isStringSelectMenu()) {
      await i.deferUpdate(); // the answer replaces the menu in its (ephemeral) message
      const player = await this.playerOf(i.user);
      const value = decodeOption(i.values[0] ?? '');
      if (!value) return this.offer(i, id.gameId, player, 'That choice was not understood: nothing was played.\n');
      if (value.kind === 'action') return this.submit(i, id.gameId, id.version, player, value.actionId);
      // A group (or a leaf whose id did not fit): read the tree again, at the same version only.
      const a = await this.herald.actions(id.gameId, player);
      const node = a.version === id.version && a.tree ? nodeAt(a.tree, [...id.path, value.index]) : null;
      if (!node) return this.offer(i, id.gameId, player, staleNote(id.version, a.version));
      if (node.id !== undefined) return this.submit(i, id.gameId, id.version, player, node.id);
      await i.editReply(menuMessage(id.gameId, a.version, a.tree!, [...id.path, value.index]));
      return;
    }
    await i.deferReply({ flags: MessageFlags.Ephemeral });
    const player = await this.playerOf(i.user);
    if (id.kind === 'play') {
      await this.offer(i, id.gameId, player);
    } else if (id.kind === 'view') {
      const v = await this.herald.view(id.gameId, player);
      if (!v.role) {
        await i.editReply('You hold no seat in this game.');
        return;
      }
      const png = await this.herald.picture(id.gameId, { role: v.role, as: player, version: v.version });
      await i.editReply({ content: viewSummary(v.role, v.view), files: png ? [new AttachmentBuilder(png, { name: `view-${v.version}.png` })] : [] });
    } else if (id.kind === 'rematch') {
      const old = this.state.get(id.gameId);
      const game = await this.herald.rematch(id.gameId, player);
      if (old && !this.state.get(game.id)) {
        this.state.set(game.id, { channelId: old.channelId, messageId: null, shown: -1, seats: { York: old.seats.Lancaster!, Lancaster: old.seats.York! } });
      }
      await i.editReply(`Rematch: game \`${game.id}\`, sides swapped.`);
      await this.refreshBoard(game.id); // it may have started before it was remembered
    }
  }

  /** The player's menu at the current version (or why there is none), in the interaction's reply. */
  private async offer(i: Component, gameId: string, player: string, note = ''): Promise<void> {
    let a: Actions;
    try {
      a = await this.herald.actions(gameId, player);
    } catch (e) {
      if (e instanceof HeraldError && e.status === 403) {
        await i.editReply({ content: 'You hold no seat in this game.', components: [] });
        return;
      }
      throw e;
    }
    if (!a.active || !a.tree) {
      await i.editReply({ content: `${note}It is not your turn (version ${a.version}).`, components: [] });
      return;
    }
    await i.editReply(menuMessage(gameId, a.version, a.tree, [], note));
  }

  /** Submits the chosen action with the version its menu was built at; Herald refuses it if that is stale. */
  private async submit(i: StringSelectMenuInteraction, gameId: string, version: number, player: string, actionId: string): Promise<void> {
    try {
      await this.herald.submit(gameId, player, actionId, version);
    } catch (e) {
      if (e instanceof HeraldError && (e.code === 'version_conflict' || e.code === 'illegal_action' || e.code === 'not_your_turn')) {
        const current = typeof e.body.currentVersion === 'number' ? e.body.currentVersion : null;
        return this.offer(i, gameId, player, staleNote(version, current));
      }
      throw e;
    }
    void this.refreshBoard(gameId);
    await this.offer(i, gameId, player, `Played \`${actionId}\`.\n`);
  }
}

function staleNote(menuVersion: number, current: number | null): string {
  return `That menu was made at version ${menuVersion}${current !== null && current !== menuVersion ? `; the game is at version ${current} now` : ' and is out of date'}: nothing was played.\n`;
}
