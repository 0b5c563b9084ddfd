// One webhook POST: to the address the guard checked (the socket's DNS lookup is pinned to it,
// so a rebinding DNS answer cannot redirect it), with a timeout, no redirect following (node's
// http client never follows one; a 3xx is a failure), and the response body drained and dropped.
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

export function post(url: URL, to: CheckedAddress, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> {
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
      resolve({ ...r, latencyMs: Math.round(performance.now() - started) });
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Herald-Webhooks/1', ...headers },
        agent: false,
      },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        const ra = res.headers['retry-after'];
        res.on('end', () => finish({ status, error: null, retryAfter: Array.isArray(ra) ? ra[0] : ra }));
        res.on('error', () => finish({ status, error: null, retryAfter: Array.isArray(ra) ? ra[0] : ra }));
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, error: `timeout after ${timeoutMs} ms`, retryAfter: undefined });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: Error & { code?: string }) => finish({ status: null, error: err.code ?? err.message, retryAfter: undefined }));
    req.on('close', () => clearTimeout(timer));
    req.end(body);
  });
}
