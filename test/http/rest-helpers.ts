// Helpers for the REST tests: an app on a fresh database, players with keys,
// and a small client over app.inject.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import type { Config } from '../../src/config.ts';
import { openTestStore, testConfig, type Teardown } from '../helpers/services.ts';

export const ADMIN_TOKEN = 'test-operator-token-0123456789';

export async function restApp(t: Teardown, overrides: Partial<Config> = {}): Promise<FastifyInstance> {
  const { store, databaseUrl } = await openTestStore(t);
  const app = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN, ...overrides }), { store });
  t.teardown(() => app.close());
  return app;
}

export interface Client {
  key: string | null;
  id: string;
  actAs?: string;
  req(method: string, url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export function client(app: FastifyInstance, key: string | null, id = '', actAs?: string): Client {
  return {
    key,
    id,
    ...(actAs ? { actAs } : {}),
    req(method, url, payload, headers = {}) {
      const h: Record<string, string> = { ...headers };
      if (key) h.authorization = `Bearer ${key}`;
      if (actAs) h['x-act-as'] = actAs;
      return app.inject({ method: method as 'GET', url, headers: h, ...(payload !== undefined ? { payload: payload as object } : {}) });
    },
  };
}

/** A self-signed-up player with its key. */
export async function signup(app: FastifyInstance, name: string): Promise<Client> {
  const res = await app.inject({ method: 'POST', url: '/players', payload: { name } });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { player: { id: string }; key: { key: string } };
  return client(app, body.key.key, body.player.id);
}

/** A tiny seeded PRNG for choosing random legal actions reproducibly. */
export function prng(seed: number): (n: number) => number {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}
