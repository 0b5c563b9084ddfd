// One Server-Sent Events stream (text/event-stream): the body is a
// PassThrough that Fastify pipes to the response, so the usual hooks (headers,
// logging, metrics) still run. Heartbeat comments keep proxies from timing
// the connection out and reveal dead clients; a client that stops reading is
// dropped once too much is buffered for it (it reconnects and catches up).
import { PassThrough } from 'node:stream';

/** Past this much unread output the client is considered gone. */
export const MAX_BUFFERED_BYTES = 1 << 20;

/** One event as it goes on the wire. */
export function sseEvent(type: string, id: string | null, data: unknown): string {
  // JSON.stringify never emits a raw newline, so `data` is one line.
  return `${id === null ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class SseStream {
  readonly body = new PassThrough();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly closeHandlers: Array<() => void> = [];
  private closed = false;

  /** `retryMs` is the reconnection delay suggested to EventSource clients. */
  constructor(heartbeatMs: number, retryMs = 2000) {
    // Fastify destroys the body when the client disconnects; end() closes it too.
    this.body.on('close', () => this.closeNow());
    this.body.on('error', () => this.closeNow());
    this.write(`retry: ${retryMs}\n\n`);
    this.heartbeat = setInterval(() => this.comment('heartbeat'), heartbeatMs);
    this.heartbeat.unref();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs once when the stream ends, whoever ended it. */
  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.closeHandlers.push(handler);
  }

  event(type: string, id: string | null, data: unknown): void {
    this.write(sseEvent(type, id, data));
  }

  /** Writes an event made by sseEvent (one frame may go to many streams: it is encoded once). */
  send(frame: Buffer): void {
    this.write(frame);
  }

  comment(text: string): void {
    this.write(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
  }

  /** Ends the response (the client may reconnect). */
  end(): void {
    if (this.closed) return;
    this.body.end();
    this.closeNow();
  }

  private write(chunk: string | Buffer): void {
    if (this.closed) return;
    this.body.write(chunk);
    if (this.body.writableLength > MAX_BUFFERED_BYTES) this.body.destroy();
  }

  private closeNow(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const h of this.closeHandlers.splice(0)) {
      try {
        h();
      } catch {
        // cleanup must run for every handler
      }
    }
  }
}
