// Discord messages built from Herald data: the board message of a game, the select menu for one
// step of the choice tree, and a seat's private view. No I/O here.
import { ActionRowBuilder, AttachmentBuilder, ButtonBuilder, ButtonStyle, StringSelectMenuBuilder, type BaseMessageOptions } from 'discord.js';
import type { ChoiceNode, Game } from './herald.ts';
import { encodeId, encodeOption, MAX_CUSTOM_ID } from './ids.ts';

/** Discord's limits: 25 options per select menu, 100 characters per label and value. */
const MAX_OPTIONS = 25;
const MAX_LABEL = 100;

const clip = (s: string, n = MAX_LABEL): string => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** The node of `tree` at `path` (child indexes), or null when the path leads nowhere. */
export function nodeAt(tree: ChoiceNode, path: readonly number[]): ChoiceNode | null {
  let node: ChoiceNode | undefined = tree;
  for (const i of path) node = node?.children?.[i];
  return node ?? null;
}

/**
 * One step of the choice tree as a select menu (Herald's tree never has more than 25 children
 * per step). A leaf's option carries its action id; a group's, or a leaf whose id would not fit,
 * its index (the bot then re-reads the tree at the same version).
 */
export function menuMessage(gameId: string, version: number, tree: ChoiceNode, path: number[], note = ''): BaseMessageOptions {
  const node = nodeAt(tree, path) ?? tree;
  const children = node.children ?? [node];
  const menu = new StringSelectMenuBuilder()
    .setCustomId(encodeId({ kind: 'menu', gameId, version, path }))
    .setPlaceholder(clip(node.label || 'Choose your move'))
    .addOptions(
      children.slice(0, MAX_OPTIONS).map((c, index) => {
        const value = c.id !== undefined && `a:${c.id}`.length <= MAX_CUSTOM_ID ? encodeOption({ kind: 'action', actionId: c.id }) : encodeOption({ kind: 'group', index });
        return { label: clip(c.children ? `${c.label} …` : c.label), value };
      }),
    );
  const rows = [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu)];
  const where = path.length > 0 ? `**${node.label}**` : 'Your move';
  return { content: `${note}${where} (version ${version}):`, components: rows, files: [] };
}

export interface Seats {
  /** Discord user id per role. */
  [role: string]: string;
}

/** The channel's board message: the spectator picture, whose turn it is, and its buttons. */
export function boardMessage(game: Game, seats: Seats, png: Buffer | null): BaseMessageOptions {
  // A seat of no member of the channel: Herald's AI ("Herald AI (random) (Lancaster)"), or just the role.
  const ai = (role: string) => game.seats.find((s) => s.role === role && s.ai)?.player?.name;
  const who = (role: string) => (seats[role] ? `<@${seats[role]}> (${role})` : ai(role) ? `${ai(role)} (${role})` : role);
  const lines = [`**Richard III** (${game.scenario}) — ${Object.keys(seats).map(who).join(' vs ')} — version ${game.version}`];
  const buttons: ButtonBuilder[] = [];
  if (game.status === 'active') {
    lines.push(`To act: ${game.activeRoles.map(who).join(', ')}`);
    buttons.push(new ButtonBuilder().setCustomId(encodeId({ kind: 'play', gameId: game.id, version: game.version })).setLabel('Play my turn').setStyle(ButtonStyle.Primary));
  } else if (game.status === 'finished' || game.result) {
    const r = game.result as { winner?: string | null; reason?: string } | null;
    lines.push(`Game over: ${r?.winner ? `${who(r.winner)} wins` : 'a draw'}${r?.reason ? ` (${r.reason})` : ''}.`);
    buttons.push(new ButtonBuilder().setCustomId(encodeId({ kind: 'rematch', gameId: game.id })).setLabel('Rematch').setStyle(ButtonStyle.Secondary));
  } else {
    lines.push(`Status: ${game.status}`);
  }
  buttons.push(new ButtonBuilder().setCustomId(encodeId({ kind: 'view', gameId: game.id })).setLabel('My view').setStyle(ButtonStyle.Secondary));
  return {
    content: lines.join('\n'),
    files: png ? [new AttachmentBuilder(png, { name: `board-${game.version}.png` })] : [],
    components: [new ActionRowBuilder<ButtonBuilder>().addComponents(buttons)],
    allowedMentions: { parse: [] },
  };
}

interface OwnBlock { id: string; loc: string; steps: number }

/** A seat's private view as text: only what Herald's view of that seat holds (its blocks, its hand). */
export function viewSummary(role: string, view: Record<string, unknown>): string {
  const blocks = (view.blocks as OwnBlock[] | undefined) ?? [];
  const byLoc = new Map<string, string[]>();
  for (const b of blocks) byLoc.set(b.loc, [...(byLoc.get(b.loc) ?? []), `${b.id} ${b.steps}`]);
  const hand = (view.hand as string[] | undefined) ?? [];
  const lines = [`**Your view — ${role}** (campaign ${String(view.campaign)}, turn ${String(view.turn)})`, `Hand: ${hand.join(', ') || '—'}`];
  for (const [loc, list] of [...byLoc].sort(([a], [b]) => a.localeCompare(b))) lines.push(`${loc}: ${list.join(', ')}`);
  return clip(lines.join('\n'), 1900);
}
