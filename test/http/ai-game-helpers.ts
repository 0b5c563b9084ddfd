// Shared by the tests of games against Herald's AI under a clock (ai-claim-timeout,
// ai-claim-stuck-migration): a Richard III game of a player's York against the AI's Lancaster,
// brought to a position where York alone must act, its clock running.
import { HOUR } from '../../src/clocks/index.ts';
import type { Client } from './rest-helpers.ts';

/** The fields of GET /games/{id} these tests read. */
export interface ClockedGame {
  id: string;
  status: string;
  version: number;
  activeRoles: string[];
  result: { winner: string | null; reason: string } | null;
  clock: { claimable: { flagged: string; claimants: string[] } | null; seats: { role: string; deadline: string | null }[] };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const getGame = async (c: Client, id: string) => (await c.req('GET', `/games/${id}`)).json() as ClockedGame;

/**
 * A new game of `york`'s York against the AI's Lancaster (random; Fischer, 2 hours, no
 * increment, onTimeout claim), played until York alone must act after both seats have
 * chosen their first card. York plays its first legal action that is not a take-back until
 * it has played a card; each York move moves the app's injected clock (`clock.now`) a
 * minute; the AI moves by the app's own job. (Until 28 Nov 2026 York made exactly two
 * moves: when the random AI demanded a redeal, York's two moves were both keep_hand, it
 * never played a card, and a seat that has played stays active for its take-back, so
 * York never came to act alone: the one CI failure of ai-claim-timeout.)
 */
export async function openUntilYorkActsAlone(york: Client, clock: { now: number }): Promise<ClockedGame> {
  const res = await york.req('POST', '/games', {
    gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], ai: { Lancaster: 'random' },
    timeControl: { kind: 'fischer', initialMs: 2 * HOUR, incrementMs: 0, onTimeout: 'claim' },
  });
  if (res.statusCode !== 201) throw new Error(`the game was not created: ${res.statusCode} ${res.body}`);
  const id = (res.json() as ClockedGame).id;
  let yorkPlayed = false;
  let last: ClockedGame | null = null;
  const answers: string[] = [];
  for (let i = 0; i < 3_000; i++) {
    const g = (last = await getGame(york, id));
    if (g.status !== 'active') throw new Error(`the game ended in its opening: ${JSON.stringify(g.result)}`);
    if (yorkPlayed && g.activeRoles.length === 1 && g.activeRoles[0] === 'York') return g;
    if (!yorkPlayed && g.activeRoles.includes('York')) {
      const legal = (await york.req('GET', `/games/${id}/actions`)).json() as { version: number; actions: { type: string }[] };
      const action = legal.actions.find((a) => a.type !== 'take_back');
      if (action) {
        clock.now += 60_000;
        const moved = await york.req('POST', `/games/${id}/actions`, { action, expectedVersion: legal.version });
        answers.push(`${action.type} ${moved.statusCode}`);
        if (moved.statusCode === 200 && action.type === 'play') yorkPlayed = true;
        continue;
      }
    }
    await sleep(20);
  }
  const log = (await york.req('GET', `/games/${id}/log`)).json() as { entries?: { kind: string; role: string | null }[] };
  throw new Error(`York never came to act alone: York's moves ${answers.join(', ')}; the game at version ${last?.version}, ${last?.status}, to act: ${last?.activeRoles.join(', ')}; the log's last entries: ${JSON.stringify(log.entries?.slice(-4))}`);
}
