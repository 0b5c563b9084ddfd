// The slash commands, and their registration (run once per change: `npx tsx examples/discord-bot/main.ts register`).
import { REST, Routes, SlashCommandBuilder } from 'discord.js';

export const commands = [
  new SlashCommandBuilder()
    .setName('challenge')
    .setDescription('Start a game of Richard III against a member (you play York)')
    .addUserOption((o) => o.setName('opponent').setDescription('Who plays Lancaster').setRequired(true))
    .addStringOption((o) =>
      o.setName('scenario').setDescription('Which scenario').addChoices(
        { name: 'Richard III (one campaign)', value: 'richard-iii' },
        { name: 'Kingmaker', value: 'kingmaker' },
        { name: 'Wars of the Roses (the full game)', value: 'wars-of-the-roses' },
      ),
    ),
  new SlashCommandBuilder()
    .setName('computer')
    .setDescription("Start a game of Richard III against Herald's AI (you play York)")
    .addStringOption((o) =>
      o.setName('level').setDescription('How strong (default random; the server lists what each game offers)').addChoices(
        { name: 'Random legal moves', value: 'random' },
        { name: 'Easy', value: 'easy' },
        { name: 'Normal', value: 'normal' },
        { name: 'Hard', value: 'hard' },
      ),
    )
    .addStringOption((o) =>
      o.setName('scenario').setDescription('Which scenario').addChoices(
        { name: 'Richard III (one campaign)', value: 'richard-iii' },
        { name: 'Kingmaker', value: 'kingmaker' },
        { name: 'Wars of the Roses (the full game)', value: 'wars-of-the-roses' },
      ),
    ),
  new SlashCommandBuilder().setName('board').setDescription('Post the board of your game in this channel again'),
  new SlashCommandBuilder().setName('resign').setDescription('Resign your game in this channel'),
].map((c) => c.toJSON());

/** Registers the commands in one guild (instant) or globally (guildId null; can take a while to appear). */
export async function registerCommands(o: { token: string; applicationId: string; guildId: string | null; api?: string }): Promise<void> {
  const rest = new REST(o.api ? { api: o.api } : {}).setToken(o.token);
  const route = o.guildId ? Routes.applicationGuildCommands(o.applicationId, o.guildId) : Routes.applicationCommands(o.applicationId);
  await rest.put(route, { body: commands });
}
