// Records every route the app registers, so the OpenAPI test can compare them
// with openapi.yaml. Routes that are internals of the docs UI or GraphiQL
// (assets, the UI's own JSON/YAML copies) are not part of the documented API.
import type { FastifyInstance, RouteOptions } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Documented REST routes as "METHOD /path" (Fastify's :param syntax). */
    restRoutes(): RouteEntry[];
  }
}

/** The UI entry points (/docs, /graphiql) are documented; their assets are not. */
export function isUndocumented(url: string): boolean {
  return (url.startsWith('/docs/') && url !== '/docs/') || url.startsWith('/graphiql/');
}

export function collectRoutes(app: FastifyInstance): void {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || isUndocumented(route.url)) continue; // HEAD is implied by GET
      if (method === 'OPTIONS' && route.url === '*') continue; // CORS preflights (plugins/cors.ts), described in openapi.yaml's info
      routes.push({ method, url: route.url });
    }
  });
  app.decorate('restRoutes', () => {
    const seen = new Map<string, RouteEntry>();
    for (const r of routes) {
      const url = r.url.length > 1 ? r.url.replace(/\/$/, '') : r.url; // /docs/ ≡ /docs
      seen.set(`${r.method} ${url}`, { method: r.method, url });
    }
    return [...seen.values()].sort((a, b) => (a.url + a.method).localeCompare(b.url + b.method));
  });
}
