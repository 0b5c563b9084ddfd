// Graceful close. Fastify's close() stops accepting connections and waits for
// in-flight requests, but keep-alive connections that become idle *after* it
// started are left open until their keep-alive timeout (72 s), holding close()
// up. So while closing: answer with `Connection: close`, and keep closing idle
// connections until the server is down.
//
// The header is set by the server's response class (closingAwareResponse, given
// to Fastify as http.ServerResponse), which looks at a flag when it writes its
// head, rather than by an onSend hook: a hook would run on every response of
// the server's life for the sake of the few sent while it closes.
import http from 'node:http';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** Set once the app starts closing. */
export interface ClosingFlag {
  closing: boolean;
}

/** A ServerResponse that does not keep its connection alive once `flag.closing` is set (Node then sends `Connection: close`). */
export function closingAwareResponse(flag: ClosingFlag): typeof http.ServerResponse {
  class ClosingAwareResponse extends http.ServerResponse {}
  const writeHead = http.ServerResponse.prototype.writeHead as (this: http.ServerResponse, ...args: unknown[]) => http.ServerResponse;
  // Every response writes its head through here (an implicit head too: Node calls writeHead for it).
  ClosingAwareResponse.prototype.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    if (flag.closing) this.shouldKeepAlive = false;
    return writeHead.apply(this, args);
  } as http.ServerResponse['writeHead'];
  return ClosingAwareResponse as typeof http.ServerResponse;
}

export interface GracefulOptions {
  /** The flag the server's response class reads (closingAwareResponse). */
  flag: ClosingFlag;
}

async function graceful(app: FastifyInstance, opts: GracefulOptions): Promise<void> {
  // A WebSocket upgrade answered over HTTP instead (refused by a hook that runs before
  // @fastify/websocket's marks it: a disallowed Origin, a rate limit, a bad key) kept its socket
  // open, unread, until the client closed it (and close() waited for it): Node hands an upgrade's
  // socket over and no longer manages it as HTTP. It is closed once the answer is written.
  app.addHook('onRequest', (request, reply, done) => {
    if ((request.raw as { upgrade?: boolean }).upgrade === true) reply.raw.once('finish', () => request.raw.socket.destroy());
    done();
  });
  app.addHook('preClose', async () => {
    opts.flag.closing = true;
    if (!app.server.listening) return;
    const timer = setInterval(() => app.server.closeIdleConnections(), 25);
    timer.unref();
    app.server.once('close', () => clearInterval(timer));
  });
}

export default fp(graceful, { name: 'herald-graceful' });
