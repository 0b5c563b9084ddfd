// Herald's webhook deliveries: every request verified with the standardwebhooks library on the
// raw body (signature, and a timestamp within 5 minutes), retries dropped by webhook-id (the same
// on every attempt), then answered 204 at once; the event is handled after the answer, so a slow
// Discord never makes Herald time out and retry.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface HeraldEvent {
  type: string;
  timestamp: string;
  data: {
    gameId?: string;
    version?: number;
    role?: string;
    player?: { id: string; name: string; externalId: string | null };
    [k: string]: unknown;
  };
}

export interface Receiver {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

/** Remembers the last `size` webhook-ids. */
export class Seen {
  private readonly ids = new Set<string>();
  private readonly size;
  constructor(size = 10_000) {
    this.size = size;
  }
  /** True the first time an id is given. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.size) this.ids.delete(this.ids.values().next().value!);
    return true;
  }
}

export async function startReceiver(o: { secret: () => string; port: number; host?: string; path?: string; onEvent: (e: HeraldEvent) => Promise<void>; onError?: (e: unknown) => void }): Promise<Receiver> {
  const seen = new Seen();
  const path = o.path ?? '/herald';
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== path) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      let event: HeraldEvent;
      try {
        event = new Webhook(o.secret()).verify(body, headers) as HeraldEvent;
      } catch {
        res.writeHead(401).end();
        return;
      }
      res.writeHead(204).end();
      if (!seen.add(headers['webhook-id']!)) return; // a retry of a message already handled
      o.onEvent(event).catch((e) => o.onError?.(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(o.port, o.host ?? '0.0.0.0', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
