// The app's notification fan-out (fanout.ts) over its bus: one per app
// instance, shared by every SSE stream (and available to GraphQL
// subscriptions as app.notify), closed with the app.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Fanout } from './fanout.ts';

declare module 'fastify' {
  interface FastifyInstance {
    notify: Fanout;
  }
}

async function notify(app: FastifyInstance): Promise<void> {
  const fanout = new Fanout(app.bus, { log: app.log });
  app.decorate('notify', fanout);
  app.addHook('onClose', () => fanout.close());
}

export default fp(notify, { name: 'herald-notify', dependencies: ['herald-services'] });
