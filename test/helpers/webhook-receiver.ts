// A local webhook receiver for the tests: a node:http server on 127.0.0.1 that records every
// request and answers as a script says (status, headers, a delay), then 200 once the script is used up.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Teardown } from './services.ts';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Answer after this many ms (a receiver that times out). */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order. */
  script: Answer[];
  /** Waits until `n` requests arrived (polling; fails after `ms`). */
  waitFor(n: number, ms?: number): Promise<void>;
  /** Drops every open connection unanswered (a receiver that died mid-request). */
  drop(): void;
}

export async function startReceiver(t: Teardown): Promise<Receiver> {
  const received: Received[] = [];
  const script: Answer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({ path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') });
      const a = script.shift() ?? { status: 200 };
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(a.status, a.headers ?? {});
        res.end('ok');
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    script,
    async waitFor(n, ms = 20_000) {
      const until = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} webhook requests, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    drop() {
      server.closeAllConnections();
    },
  };
}
