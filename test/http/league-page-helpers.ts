// Leagues with finished rounds for the league page tests (HTTP and browser),
// made through the REST API as an organiser would: entrants (one with a name
// that is an attack on the page), start, then each published round's boards
// decided by the organiser's PUT …/result, until the rounds wanted are complete.
import type { FastifyInstance } from 'fastify';
import { signup, type Client } from './rest-helpers.ts';

/** A player name that would run a script, break out of an attribute or close the table if it were not escaped. */
export const HOSTILE_NAME = `<script>alert("pwned")</script><img src=x onerror=alert(1)>"'&amp;</td>`;
export const HOSTILE_LEAGUE = `League <b>bold</b> & <script>document.title='owned'</script>`;

export interface SeededLeague {
  id: string;
  organiser: Client;
  players: Client[];
}

/** Results by board, cycling, so points, draws and tie-breaks all vary. */
const RESULTS = ['first', 'second', 'draw', 'first', 'second'] as const;

export async function seedLeague(
  app: FastifyInstance,
  o: { format: 'swiss' | 'round-robin' | 'knockout' | 'pools'; players: number; rounds?: number; complete: number; prefix: string; settings?: Record<string, unknown> },
): Promise<SeededLeague> {
  const organiser = await signup(app, `${o.prefix} organiser`);
  const players: Client[] = [];
  for (let i = 0; i < o.players; i++) players.push(await signup(app, i === 1 ? HOSTILE_NAME : `${o.prefix} player ${i + 1}`));
  const created = await organiser.req('POST', '/leagues', {
    name: `${HOSTILE_LEAGUE} (${o.prefix})`,
    description: 'Line one\nline <two> & "three"',
    gameType: 'richard-iii',
    format: o.format,
    visibility: 'unlisted',
    ...(o.rounds !== undefined ? { rounds: o.rounds } : {}),
    ...o.settings,
  });
  if (created.statusCode !== 201) throw new Error(`league: ${created.statusCode} ${created.body}`);
  const id = created.json().id as string;
  for (const p of players) {
    const res = await organiser.req('POST', `/leagues/${id}/entrants`, { playerId: p.id });
    if (res.statusCode !== 201) throw new Error(`entrant: ${res.statusCode} ${res.body}`);
  }
  const started = await organiser.req('POST', `/leagues/${id}/start`);
  if (started.statusCode !== 200) throw new Error(`start: ${started.statusCode} ${started.body}`);
  let k = 0;
  for (let n = 1; n <= o.complete; n++) {
    let round = await organiser.req('GET', `/leagues/${id}/rounds/${n}`);
    if (round.statusCode === 404) {
      const made = await organiser.req('POST', `/leagues/${id}/rounds`);
      if (made.statusCode !== 201) throw new Error(`round ${n}: ${made.statusCode} ${made.body}`);
      round = await organiser.req('POST', `/leagues/${id}/rounds/${n}/publish`);
    }
    if (round.statusCode !== 200) throw new Error(`round ${n}: ${round.statusCode} ${round.body}`);
    for (const p of round.json().pairings as Array<{ id: string; second: unknown; result: string | null }>) {
      if (p.second === null || p.result !== null) continue;
      // Knockouts need a winner: no draws there.
      let result: string = RESULTS[k++ % RESULTS.length]!;
      if ((o.format === 'knockout' || round.json().stage === 'knockout') && result === 'draw') result = 'first';
      const res = await organiser.req('PUT', `/leagues/${id}/pairings/${p.id}/result`, { result, reason: 'played at the club' });
      if (res.statusCode !== 200) throw new Error(`result: ${res.statusCode} ${res.body}`);
    }
  }
  return { id, organiser, players };
}
