// One webhook POST: to the address the guard checked (the socket's DNS lookup is pinned to it,
// so a rebinding DNS answer cannot redirect it), with a timeout, no redirect following (node's
// http client never follows one; a 3xx is a failure), and the response body drained and dropped.
// Connections are kept alive per endpoint and checked address (an agent each: its sockets all go
// to that address), so a busy endpoint is not sent a new TCP (and TLS) handshake per message; an
// agent unused for a while is closed.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedAddress } from './guard.ts';

export interface SendResult {
  /** The HTTP status; null when no response came (error says why). */
  status: number | null;
  error: string | null;
  retryAfter: string | undefined;
  latencyMs: number;
}

/** Keep-alive agents by endpoint and address, and when each was last used. */
const agents = new Map<string, { agent: http.Agent; used: number }>();
const AGENT_IDLE_MS = 30_000;
const MAX_AGENTS = 2_000;
let sweeper: NodeJS.Timeout | null = null;

function sweepAgents(): void {
  const old = performance.now() - AGENT_IDLE_MS;
  for (const [key, a] of agents) {
    if (a.used < old) {
      a.agent.destroy();
      agents.delete(key);
    }
  }
  if (agents.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

function agentFor(key: string, secure: boolean, maxSockets: number): http.Agent {
  const found = agents.get(key);
  if (found) {
    found.used = performance.now();
    // Most recently used last (the eviction below takes the first).
    agents.delete(key);
    agents.set(key, found);
    return found.agent;
  }
  if (agents.size >= MAX_AGENTS) {
    // The least recently used goes (Map order is insertion order; re-inserted on use below).
    const [oldest] = agents;
    if (oldest) {
      oldest[1].agent.destroy();
      agents.delete(oldest[0]);
    }
  }
  const agent = new (secure ? https.Agent : http.Agent)({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' });
  agents.set(key, { agent, used: performance.now() });
  if (!sweeper) {
    sweeper = setInterval(sweepAgents, AGENT_IDLE_MS);
    sweeper.unref();
  }
  return agent;
}

/**
 * POSTs `body`. `pool`: the endpoint's id and its limit of requests at once, to reuse its
 * connections (keep-alive); without it, a connection of its own, closed after.
 */
export function post(url: URL, to: CheckedAddress, headers: Record<string, string>, body: string, timeoutMs: number, pool?: { key: string; maxSockets: number }): Promise<SendResult> {
  const started = performance.now();
  const lookup: LookupFunction = (_host, options, cb) => {
    // `all: true` callers (autoSelectFamily) want a list.
    if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: to.address, family: to.family }]);
    else cb(null, to.address, to.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Omit<SendResult, 'latencyMs'>): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...r, latencyMs: Math.round(performance.now() - started) });
    };
    const timer = setTimeout(() => {
      finish({ status: null, error: `timeout after ${timeoutMs} ms`, retryAfter: undefined });
      current?.destroy();
    }, timeoutMs);
    let current: http.ClientRequest | null = null;
    const send = (again: boolean): void => {
      const req = client.request(
        url,
        {
          method: 'POST',
          lookup,
          headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Herald-Webhooks/1', ...headers },
          // The agent's sockets all go to the address it was created for (the key includes it).
          agent: pool ? agentFor(`${pool.key}|${to.address}|${url.protocol}|${url.host}`, url.protocol === 'https:', pool.maxSockets) : false,
        },
        (res) => {
          res.resume();
          const status = res.statusCode ?? 0;
          const ra = res.headers['retry-after'];
          res.on('end', () => finish({ status, error: null, retryAfter: Array.isArray(ra) ? ra[0] : ra }));
          res.on('error', () => finish({ status, error: null, retryAfter: Array.isArray(ra) ? ra[0] : ra }));
        },
      );
      current = req;
      req.on('error', (err: Error & { code?: string }) => {
        // A kept-alive connection the receiver closed just as it was reused: once more, on a new one
        // (nothing of the request was answered).
        if (!again && !done && req.reusedSocket && err.code === 'ECONNRESET') return send(true);
        finish({ status: null, error: err.code ?? err.message, retryAfter: undefined });
      });
      req.end(body);
    };
    send(false);
  });
}
