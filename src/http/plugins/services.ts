// Decorates the app with its services (store, bus). Services the app opened
// itself are closed when it closes; ones passed in belong to the caller.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Bus } from '../../bus/index.ts';
import type { Store } from '../../store/store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    bus: Bus;
  }
}

export interface ServicesOptions {
  store: Store;
  bus: Bus;
  /** Which of them the app closes on shutdown. */
  owned: { store: boolean; bus: boolean };
}

async function services(app: FastifyInstance, opts: ServicesOptions): Promise<void> {
  app.decorate('store', opts.store);
  app.decorate('bus', opts.bus);
  // onClose runs after the server stopped accepting and in-flight requests finished.
  app.addHook('onClose', async () => {
    const closing: Promise<void>[] = [];
    if (opts.owned.bus) closing.push(opts.bus.close());
    if (opts.owned.store) closing.push(opts.store.close());
    const results = await Promise.allSettled(closing);
    for (const r of results) if (r.status === 'rejected') app.log.error({ err: r.reason }, 'error while closing a service');
  });
}

export default fp(services, { name: 'herald-services' });
