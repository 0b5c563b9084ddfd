// A small Server-Sent Events client over fetch (real sockets), for the SSE
// tests: events are parsed as the EventSource algorithm does (id, event, data
// lines; comments start with a colon). Every wait is bounded (see
// test/helpers/streams.ts).
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { EVENT_TIMEOUT_MS } from '../helpers/streams.ts';

export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

export function baseUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  /** True once the server ended the stream. */
  ended = false;
  private waiters: Array<() => void> = [];
  private buffer = '';
  private taken = 0;

  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  private readonly response: http.IncomingMessage;
  private constructor(
    status: number,
    headers: http.IncomingHttpHeaders,
    response: http.IncomingMessage,
  ) {
    this.status = status;
    this.headers = headers;
    this.response = response;
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.parse();
    });
    const done = () => {
      this.ended = true;
      this.wake();
    };
    response.on('end', done);
    response.on('close', done);
    response.on('error', done);
  }

  /**
   * Opens the stream on its own connection (node:http, no agent: closing it
   * closes the socket, so a server shutting down is not kept waiting by an
   * idle pooled connection); rejects unless the server answers 200, or when
   * it has not answered within `timeoutMs`.
   */
  static open(url: string, headers: Record<string, string> = {}, timeoutMs = EVENT_TIMEOUT_MS): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error(`SSE ${url}: no response within ${timeoutMs} ms`));
      }, timeoutMs);
      const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        clearTimeout(timer);
        if (res.statusCode !== 200) {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => reject(new Error(`SSE ${url}: ${res.statusCode} ${body}`)));
          return;
        }
        resolve(new SseClient(res.statusCode, res.headers, res));
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }

  private parse(): void {
    let cut: number;
    while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      let id: string | null = null;
      let event = 'message';
      const data: string[] = [];
      let isEvent = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'event') event = value;
        else if (field === 'data') {
          data.push(value);
          isEvent = true;
        }
      }
      if (isEvent) this.events.push({ id, event, data: data.join('\n') });
    }
    this.wake();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private async until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what} (got ${this.events.length} events: ${this.events.map((e) => `${e.event}#${e.id}`).join(' ')})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next `count` events not taken yet. */
  async take(count: number, timeoutMs = 5000): Promise<SseEvent[]> {
    await this.until(() => this.events.length >= this.taken + count || this.ended, timeoutMs, `${count} more events`);
    if (this.events.length < this.taken + count) {
      throw new Error(`the stream ended after ${this.events.length - this.taken} of ${count} more events`);
    }
    const out = this.events.slice(this.taken, this.taken + count);
    this.taken += count;
    return out;
  }

  /** Events received and not taken, without waiting. */
  rest(): SseEvent[] {
    const out = this.events.slice(this.taken);
    this.taken = this.events.length;
    return out;
  }

  /** The first event (taken or not) matching `test`. */
  async waitFor(test: (e: SseEvent) => boolean, timeoutMs = 5000): Promise<SseEvent> {
    await this.until(() => this.events.some(test), timeoutMs, 'a matching event');
    return this.events.find(test)!;
  }

  async waitEnded(timeoutMs = 5000): Promise<void> {
    await this.until(() => this.ended, timeoutMs, 'the end of the stream');
  }

  async waitComment(text: string, timeoutMs = 5000): Promise<void> {
    await this.until(() => this.comments.includes(text), timeoutMs, `comment "${text}"`);
  }

  close(): void {
    this.response.destroy();
  }
}

/**
 * A request that should be refused before any stream starts: its status,
 * content type and body (null when a stream started after all: that body
 * never ends, so it is cancelled, not read). Bounded by `timeoutMs`.
 */
export async function requestNoStream(
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = EVENT_TIMEOUT_MS,
): Promise<{ status: number; contentType: string | null; body: unknown }> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  const contentType = res.headers.get('content-type');
  if (contentType?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, contentType, body: null };
  }
  const text = await res.text();
  return { status: res.status, contentType, body: text === '' ? null : JSON.parse(text) };
}

/** The data of an event, parsed. */
export function data<T = Record<string, unknown>>(e: SseEvent): T {
  return JSON.parse(e.data) as T;
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
