// Graceful close. Fastify's close() stops accepting connections and waits for
// in-flight requests, but keep-alive connections that become idle *after* it
// started are left open until their keep-alive timeout (72 s), holding close()
// up. So while closing: answer with `Connection: close`, and keep closing idle
// connections until the server is down.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

async function graceful(app: FastifyInstance): Promise<void> {
  let closing = false;

  // A callback hook, not an async one: it runs on every response, and a promise per response costs.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  app.addHook('preClose', async () => {
    closing = true;
    if (!app.server.listening) return;
    const timer = setInterval(() => app.server.closeIdleConnections(), 25);
    timer.unref();
    app.server.once('close', () => clearInterval(timer));
  });
}

export default fp(graceful, { name: 'herald-graceful' });
