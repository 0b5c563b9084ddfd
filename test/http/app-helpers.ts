// Shared by the tests of an application's stream (GET /apps/me/events and the
// appEvents subscription): applications and their players made through the
// API, games between clients, random moves, and the notices the stream owes,
// worked out from the games' logs.
import type { FastifyInstance } from 'fastify';
import { client, type Client } from './rest-helpers.ts';

export interface AppAccount {
  id: string;
  key: string;
}

export interface AppPlayerInfo {
  id: string;
  name: string;
  externalId: string | null;
}

export async function createApplication(app: FastifyInstance, adminToken: string, name: string): Promise<AppAccount> {
  const res = await client(app, adminToken).req('POST', '/admin/apps', { name });
  if (res.statusCode !== 201) throw new Error(`POST /admin/apps: ${res.statusCode} ${res.body}`);
  const body = res.json() as { app: { id: string }; key: { key: string } };
  return { id: body.app.id, key: body.key.key };
}

/** A player the application creates, and a client acting for it (X-Act-As). */
export async function appPlayer(app: FastifyInstance, owner: AppAccount, name: string): Promise<{ info: AppPlayerInfo; as: Client }> {
  const res = await client(app, owner.key, owner.id).req('POST', '/players', { name, externalId: `ext:${name}` });
  if (res.statusCode !== 201) throw new Error(`POST /players: ${res.statusCode} ${res.body}`);
  const p = (res.json() as { player: AppPlayerInfo & Record<string, unknown> }).player;
  return { info: { id: p.id, name: p.name, externalId: p.externalId }, as: client(app, owner.key, p.id, p.id) };
}

/** A Richard III game between two clients, started (version 2). */
export async function newGame(york: Client, lancaster: Client): Promise<string> {
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: `app-${Math.random()}`, roles: ['York'] });
  if (created.statusCode !== 201) throw new Error(created.body);
  const id = created.json().id as string;
  const joined = await lancaster.req('POST', `/games/${id}/join`, {});
  if (joined.statusCode !== 200) throw new Error(joined.body);
  return id;
}

/** One random legal action by an active seat; returns the new version. */
export async function act(gameId: string, seat: Record<string, Client>, pick: (n: number) => number): Promise<number> {
  const any = Object.values(seat)[0]!;
  const summary = (await any.req('GET', `/games/${gameId}`)).json();
  const role = summary.activeRoles[pick(summary.activeRoles.length)] as string;
  const actions = (await seat[role]!.req('GET', `/games/${gameId}/actions`)).json().actions as unknown[];
  const res = await seat[role]!.req('POST', `/games/${gameId}/actions`, { action: actions[pick(actions.length)] });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().version as number;
}

/**
 * The your_turn notices the application's stream owes for a game after
 * `after`, as `<gameId>@<version>:<playerId>`: per version, each of the
 * application's players (`appSeats`: role → player id) holding an active
 * role, in player-id order.
 */
export async function owed(app: FastifyInstance, gameId: string, after: number, appSeats: Record<string, string>): Promise<string[]> {
  const out: string[] = [];
  for (const e of await app.gameService.listEventsSince(gameId, after, 1000)) {
    if (e.status !== 'active') continue;
    const players = new Set(e.activeRoles.map((r) => appSeats[r]).filter((p): p is string => p !== undefined));
    for (const p of [...players].sort()) out.push(`${gameId}@${e.version}:${p}`);
  }
  return out;
}

/** A list of notices grouped by game (order kept within each): the streams promise order per game only. */
export function byGame(list: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const x of list) (out[x.slice(0, 36)] ??= []).push(x);
  return out;
}
