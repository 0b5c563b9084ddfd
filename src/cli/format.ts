/** How the client prints games for people (scripts use --json). */
import type { GameSummary } from './api.ts';

export function seatsText(game: GameSummary): string {
  return game.seats.map((s) => `${s.role}: ${s.player ? s.player.name : s.invited ? '(invited)' : '(open)'}`).join(' · ');
}

export function gameText(game: GameSummary): string {
  const lines = [
    `Game ${game.id}`,
    `  ${game.gameType} · ${game.scenario} · ${game.visibility} · ${game.status} · version ${game.version}`,
    `  ${seatsText(game)}`,
  ];
  const options = Object.entries(game.options ?? {});
  if (options.length) lines.push(`  options: ${options.map(([k, v]) => `${k}=${v}`).join(', ')}`);
  if (game.status === 'active') lines.push(`  to act: ${game.activeRoles.join(', ') || 'nobody'}`);
  if (game.result) lines.push(`  result: ${game.result.winner ? `${game.result.winner} won` : 'no winner'} (${game.result.reason})`);
  return lines.join('\n');
}

/** A fixed-width table: one row per game. */
export function gamesTable(games: GameSummary[]): string {
  if (games.length === 0) return 'No games.';
  const rows = [['ID', 'SCENARIO', 'STATUS', 'VER', 'TO ACT', 'SEATS']];
  for (const g of games) rows.push([g.id, g.scenario, g.status, String(g.version), g.status === 'active' ? g.activeRoles.join(',') : '', seatsText(g)]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}
