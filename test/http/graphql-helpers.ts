// Shared by the GraphQL tests: a tiny client over app.inject, players made
// through the API, and a seeded random choice of legal actions.
import type { FastifyInstance } from 'fastify';
import { nextUint32, seedRng, type RngState } from '../../src/engine/rng.ts';

export interface GqlError {
  message: string;
  path?: string[];
  extensions?: Record<string, unknown> & { code?: string };
}

export interface GqlResult<T = Record<string, any>> {
  status: number;
  data: T | null;
  errors?: GqlError[];
}

export type Gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) => Promise<GqlResult<T>>;

/** A client for one caller (key null: anonymous). */
export function client(app: FastifyInstance, key: string | null, actAs?: string): Gql {
  return async (query, variables) => {
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    if (actAs) headers['x-act-as'] = actAs;
    const res = await app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
    const body = res.json();
    return { status: res.statusCode, data: body.data ?? null, errors: body.errors };
  };
}

/** Fails with the GraphQL errors when there are any. */
export async function ok<T = Record<string, any>>(p: Promise<GqlResult<T>>): Promise<T> {
  const r = await p;
  if (r.errors?.length || !r.data) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
  return r.data;
}

/** Self-signup through GraphQL: the new player's id and key. */
export async function signUp(app: FastifyInstance, name: string): Promise<{ id: string; key: string }> {
  const d = await ok(client(app, null)(`mutation($name: String!) { createPlayer(name: $name) { player { id } key { key } } }`, { name }));
  return { id: d.createPlayer.player.id, key: d.createPlayer.key.key };
}

export const GAME_FIELDS = 'id status version activeRoles seats { role player { id } } result { winner reason } myRoles';

const UNDO = new Set(['undo', 'take_back']);

/** Seeded random legal action; undo-like actions are rare (as in the engine's playouts) so games end. */
export function picker(seed: string): (actions: unknown[]) => unknown {
  const rng: RngState = seedRng(seed);
  return (actions) => {
    if (actions.length === 1) return actions[0];
    const w = (a: unknown) => (UNDO.has((a as { type?: string }).type ?? '') ? 0.1 : 1);
    let total = 0;
    for (const a of actions) total += w(a);
    let x = (nextUint32(rng) / 0x100000000) * total;
    for (const a of actions) if ((x -= w(a)) < 0) return a;
    return actions[actions.length - 1];
  };
}
