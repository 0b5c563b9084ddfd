/**
 * The board as text for a terminal, drawn only from what GET /games/{id}/view
 * gives the seat (never more): the seat's own blocks by name and strength, and
 * the enemy's as counts per area, exactly as the view counts them. Names of
 * areas and blocks come from the game's published data files
 * (GET /game-types/{type}/data), fetched over HTTP like everything else.
 */

/** The parts of a Richard III view the text map reads (see src/games/richard-iii/view.ts). */
export interface R3ViewLike {
  game: string;
  scenario: string;
  campaign: number;
  endCampaign: number;
  turn: number;
  seat: string | null;
  king: string;
  pretender: string;
  crown: Record<string, string | null>;
  result: { winner: string | null; reason: string } | null;
  hand?: string[];
  blocks?: { id: string; loc: string; steps: number; down: boolean }[];
  areas: Record<string, Record<string, { n: number; down: number; acted: number }>>;
  pools: Record<string, { n: number; down: number }>;
  prompt: { state: string; active: string[]; text?: string };
  battle: { area: string; blocks: { id: string; side: string; loc: string; steps: number }[] } | null;
}

export interface BoardNames {
  areas: Map<string, string>;
  /** Area ids in the map file's order (north to south, as the data lists them). */
  areaOrder: string[];
  blocks: Map<string, string>;
}

export function namesFrom(map: { areas?: { id: string; name: string }[] }, blocks: { blocks?: { id: string; name: string }[] }): BoardNames {
  const areas = new Map((map.areas ?? []).map((a) => [a.id, a.name] as const));
  return { areas, areaOrder: [...areas.keys()], blocks: new Map((blocks.blocks ?? []).map((b) => [b.id, b.name] as const)) };
}

const SIDES = ['York', 'Lancaster'];

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One line per area holding blocks, the header and the seat's hand; `log` are the last log lines to show. */
export function boardText(view: R3ViewLike, names: BoardNames, log: string[] = []): string {
  const out: string[] = [];
  const seat = view.seat;
  out.push(`${view.scenario} · campaign ${view.campaign} of ${view.endCampaign} · game turn ${view.turn} · seen by ${seat ?? 'a spectator'}`);
  const crown = SIDES.map((s) => `${s}${view.king === s ? ' (King' : ' (Pretender'}${view.crown[s] ? `: ${names.blocks.get(view.crown[s]!) ?? view.crown[s]}` : ''})`);
  out.push(crown.join(' · '));
  if (view.result) out.push(`Over: ${view.result.winner ? `${view.result.winner} won` : 'a draw'} (${view.result.reason})`);
  else out.push(`Now: ${view.prompt.state}${view.prompt.active.length ? `, ${view.prompt.active.join(' and ')} to act` : ''}${view.prompt.text ? ` — ${view.prompt.text}` : ''}`);
  if (view.hand) out.push(`Hand: ${view.hand.length ? view.hand.join(', ') : '(empty)'}`);
  out.push('');

  const own = new Map<string, { id: string; steps: number; down: boolean }[]>();
  for (const b of view.blocks ?? []) {
    if (!own.has(b.loc)) own.set(b.loc, []);
    own.get(b.loc)!.push(b);
  }
  const shown = names.areaOrder.filter((a) => view.areas[a]);
  // Areas the data does not list (should not happen) still appear, after the others.
  for (const a of Object.keys(view.areas).sort()) if (!names.areas.has(a)) shown.push(a);
  const width = Math.max(10, ...shown.map((a) => (names.areas.get(a) ?? a).length));
  for (const area of shown) {
    const parts: string[] = [];
    for (const side of SIDES) {
      const count = view.areas[area]![side];
      if (!count || count.n === 0) continue;
      if (side === seat) {
        const mine = (own.get(area) ?? []).map((b) => `${names.blocks.get(b.id) ?? b.id} ${b.steps}${b.down ? ' (down)' : ''}`);
        parts.push(`${side}: ${mine.join(', ')}`);
      } else {
        const revealed = view.battle?.area === area ? view.battle.blocks.filter((b) => b.side === side) : [];
        const extra = revealed.length ? ` [in battle: ${revealed.map((b) => `${names.blocks.get(b.id) ?? b.id} ${b.steps}`).join(', ')}]` : '';
        parts.push(`${side}: ${plural(count.n, 'block')}${count.down ? ` (${count.down} down)` : ''}${extra}`);
      }
    }
    const mark = view.battle?.area === area ? ' ⚔' : '';
    out.push(`${(names.areas.get(area) ?? area).padEnd(width)}  ${parts.join(' | ')}${mark}`);
  }
  out.push('');
  out.push(`Pools: ${SIDES.map((s) => `${s} ${view.pools[s]?.n ?? 0}`).join(', ')}`);
  if (log.length) {
    out.push('', 'Last log lines:');
    for (const line of log) out.push(`  ${line}`);
  }
  return out.join('\n');
}
