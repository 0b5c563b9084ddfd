/**
 * The bench client's HTTP side (scripts/bench-service.ts): requests over a keep-alive pool of
 * plain sockets, answers read whole and parsed, SSE streams read to their end.
 *
 * What it costs per action is what the issue measures (it shares the machine's two cores with the
 * server): it sends the same requests as the undici client it replaced (`LegacyClient`, kept for
 * an A/B with `--client old`), reads every byte of every answer and every SSE event, and checks
 * what the bots need. Where it is cheaper:
 *
 * - Requests are written as one string per request (the request line and headers of a key built
 *   once) on keep-alive sockets of a pool, one request at a time per socket, and answers are read
 *   by a small HTTP/1.1 reader (Content-Length or chunked), without undici's dispatcher, its wasm
 *   parser and its per-request objects. Sockets are read with `net.connect`'s `onread` into one
 *   buffer the client reuses (no Readable stream per socket: no push, 'data' event or read-more
 *   tick per read); what an answer or an event keeps across reads is copied out of it.
 * - `call(…, skip)`: the named top-level members of a JSON answer (the seat's `view` of an action's
 *   answer, which the bots never read) are scanned for well-formed nesting and strings but not
 *   built into objects; the other members are parsed by JSON.parse as before. An answer that is not
 *   a JSON object, or any error status, is parsed whole.
 * - SSE streams are read from a plain socket (chunked transfer decoded by hand), not node:http's
 *   IncomingMessage stream: the same bytes, each event found and its commit time read as before.
 */
import net from 'node:net';
import http from 'node:http';
import { Pool } from 'undici';

export interface Reply {
  status: number;
  json: any;
}

export type Call = (method: 'GET' | 'POST', path: string, key: string | null, body?: unknown, skip?: ReadonlySet<string>) => Promise<Reply>;

// ─── JSON: members skipped without being built ───────────────────────────────

const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d, COMMA = 0x2c, COLON = 0x3a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(b: Buffer, i: number): number {
  while (i < b.length && isSpace(b[i]!)) i++;
  return i;
}

/** The index after the string whose opening quote is at b[i]. */
function skipString(b: Buffer, i: number): number {
  for (i++; i < b.length; i++) {
    const c = b[i]!;
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) i++;
  }
  throw new SyntaxError('JSON: unterminated string');
}

/**
 * The index after the JSON value that starts at b[i] (no space before it): objects and arrays by
 * their nesting (every bracket matched, strings skipped with their escapes), scalars up to the next
 * delimiter. Throws on unbalanced nesting or an unterminated string.
 */
export function skipValue(b: Buffer, i: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    while (i < b.length) {
      const d = b[i]!;
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
      i++;
    }
    return i;
  }
  // Nesting: the closing bracket each open one expects.
  const closers: number[] = [];
  for (; i < b.length; i++) {
    const d = b[i]!;
    if (d === QUOTE) {
      i = skipString(b, i) - 1;
    } else if (d === OPEN_BRACE) closers.push(CLOSE_BRACE);
    else if (d === OPEN_BRACKET) closers.push(CLOSE_BRACKET);
    else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
      if (closers.pop() !== d) throw new SyntaxError('JSON: unbalanced nesting');
      if (closers.length === 0) return i + 1;
    }
  }
  throw new SyntaxError('JSON: unterminated value');
}

/**
 * A JSON object's text parsed without its members named in `skip` (each still scanned by
 * skipValue); the others as JSON.parse builds them. Not an object: JSON.parse of the whole.
 */
export function parseWithout(b: Buffer, skip: ReadonlySet<string>): any {
  let i = skipSpace(b, 0);
  if (b[i] !== OPEN_BRACE) return JSON.parse(b.toString('utf8'));
  let kept = '{';
  let n = 0;
  i = skipSpace(b, i + 1);
  if (b[i] === CLOSE_BRACE) return {};
  for (;;) {
    if (b[i] !== QUOTE) throw new SyntaxError('JSON: expected a member name');
    const start = i;
    const nameEnd = skipString(b, i);
    i = skipSpace(b, nameEnd);
    if (b[i] !== COLON) throw new SyntaxError('JSON: expected a colon');
    i = skipSpace(b, i + 1);
    const valueEnd = skipValue(b, i);
    // Names are plain ASCII here; one with an escape is kept (JSON.parse reads it).
    const name = b.toString('latin1', start + 1, nameEnd - 1);
    if (!skip.has(name)) {
      kept += (n++ > 0 ? ',' : '') + b.toString('utf8', start, valueEnd);
    }
    i = skipSpace(b, valueEnd);
    if (b[i] === COMMA) {
      i = skipSpace(b, i + 1);
      continue;
    }
    if (b[i] === CLOSE_BRACE && skipSpace(b, i + 1) === b.length) break;
    throw new SyntaxError('JSON: expected a comma or the end of the object');
  }
  return JSON.parse(`${kept}}`);
}

// ─── HTTP/1.1 over a pool of keep-alive sockets ──────────────────────────────

const CR = 0x0d, LF = 0x0a;

/**
 * Every socket of the client reads into this one buffer (`onread`): its callback runs
 * synchronously for each read, so a read's bytes are used, or copied when kept for the next read,
 * before the next read overwrites them.
 */
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

/** A socket to 127.0.0.1:`port` whose reads go to `onRead` (a view of READ_BUFFER, valid during the call). */
function connect(port: number, onRead: (d: Buffer) => void): net.Socket {
  return net.connect({
    host: '127.0.0.1',
    port,
    noDelay: true,
    onread: {
      buffer: READ_BUFFER,
      callback: (n: number, buf: Uint8Array) => {
        onRead((buf as Buffer).subarray(0, n));
        return true;
      },
    },
  });
}

/** A kept copy of a read's bytes (READ_BUFFER is overwritten by the next read). */
const keep = (b: Buffer): Buffer => Buffer.from(b);

/** `name` (lower-case ASCII) equals the header name b[from, to) ignoring ASCII case. */
function nameIs(b: Buffer, from: number, to: number, name: string): boolean {
  if (to - from !== name.length) return false;
  for (let i = 0; i < name.length; i++) if ((b[from + i]! | 0x20) !== name.charCodeAt(i)) return false;
  return true;
}

/** One keep-alive connection: one request at a time, its answer read by hand. */
class Conn {
  readonly socket: net.Socket;
  private readonly owner: RawClient;
  private resolve: ((r: Reply) => void) | null = null;
  private reject: ((e: Error) => void) | null = null;
  private skip: ReadonlySet<string> | undefined;
  private head: Buffer | null = null;
  // Parsed head of the current answer.
  private status = 0;
  private json = false;
  private length = -1; // Content-Length, or -1 while unknown
  private chunked = false;
  private headDone = false;
  // The body: one buffer, or its parts.
  private parts: Buffer[] = [];
  private got = 0;
  // Chunked: bytes left in the current chunk, or -1 while reading a chunk-size line.
  private chunkLeft = -1;
  private chunkLine: Buffer | null = null;
  private closeAfter = false;
  dead = false;
  /** When it last went idle (performance.now()). */
  idleSince = 0;

  constructor(owner: RawClient, port: number) {
    this.owner = owner;
    this.socket = connect(port, (d) => this.onData(d));
    const fail = (err: Error) => {
      this.dead = true;
      const rej = this.reject;
      this.resolve = this.reject = null;
      rej?.(err);
      owner.forget(this);
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('socket closed')));
  }

  send(text: string, skip: ReadonlySet<string> | undefined, resolve: (r: Reply) => void, reject: (e: Error) => void): void {
    this.resolve = resolve;
    this.reject = reject;
    this.skip = skip;
    this.head = null;
    this.headDone = false;
    this.status = 0;
    this.json = false;
    this.length = -1;
    this.chunked = false;
    this.parts = [];
    this.got = 0;
    this.chunkLeft = -1;
    this.chunkLine = null;
    this.closeAfter = false;
    // UTF-8: a body may hold any text (its Content-Length counts UTF-8 bytes); the head is ASCII.
    this.socket.write(text, 'utf8');
  }

  private onData(d: Buffer): void {
    if (!this.resolve) return; // nothing asked: a stray byte after close
    const keptBefore = this.parts.length;
    let data = d;
    if (!this.headDone) {
      const buf = this.head ? Buffer.concat([this.head, d]) : d;
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) {
        this.head = this.head ? buf : keep(buf);
        return;
      }
      this.readHead(buf, end);
      this.headDone = true;
      this.head = null;
      data = buf.subarray(end + 4);
    }
    if (this.chunked) {
      // Finished (a next request may already be under way on this connection, with parts of its own).
      if (this.readChunks(data)) return;
    } else {
      if (data.length > 0) {
        this.parts.push(data);
        this.got += data.length;
      }
      if (this.got >= this.length) return this.finish();
    }
    // Still reading: this read's parts are views of the shared buffer, which the next read overwrites.
    for (let i = keptBefore; i < this.parts.length; i++) this.parts[i] = keep(this.parts[i]!);
  }

  /** The head's lines b[0, end): the status, and the headers the reader needs (names compared as bytes). */
  private readHead(b: Buffer, end: number): void {
    // "HTTP/1.1 200 OK"
    this.status = (b[9]! - 48) * 100 + (b[10]! - 48) * 10 + (b[11]! - 48);
    let at = b.indexOf(LF) + 1;
    while (at > 0 && at < end) {
      let eol = b.indexOf(LF, at);
      if (eol < 0 || eol > end) eol = end;
      const colon = b.indexOf(0x3a, at);
      if (colon > at && colon < eol) {
        const c = b[at]! | 0x20;
        if (c === 0x63 || c === 0x74) {
          // content-length, content-type, connection, transfer-encoding: the value read only for these
          const value = () => b.toString('latin1', colon + 1, eol).trim().toLowerCase();
          if (nameIs(b, at, colon, 'content-length')) this.length = Number(value());
          else if (nameIs(b, at, colon, 'content-type')) this.json = value().includes('json');
          else if (nameIs(b, at, colon, 'transfer-encoding')) this.chunked = value().includes('chunked');
          else if (nameIs(b, at, colon, 'connection')) this.closeAfter = value() === 'close';
        }
      }
      at = eol + 1;
    }
    if (!this.chunked && this.length < 0) this.length = 0; // our servers always say one or the other
  }

  /** Reads the chunks in `data`; true when the body's last chunk came (the answer is finished). */
  private readChunks(data: Buffer): boolean {
    let i = 0;
    while (i < data.length) {
      if (this.chunkLeft < 0) {
        // A chunk-size line (possibly split across reads).
        const eol = data.indexOf(LF, i);
        if (eol < 0) {
          this.chunkLine = this.chunkLine ? Buffer.concat([this.chunkLine, data.subarray(i)]) : keep(data.subarray(i));
          return false;
        }
        const line = (this.chunkLine ? Buffer.concat([this.chunkLine, data.subarray(i, eol)]) : data.subarray(i, eol)).toString('latin1');
        this.chunkLine = null;
        i = eol + 1;
        const size = parseInt(line, 16);
        if (size === 0) {
          // The last chunk: its CRLF (and no trailers from our servers) end the body.
          this.finish();
          return true;
        }
        this.chunkLeft = size + 2; // the data and its CRLF
      }
      const take = Math.min(this.chunkLeft, data.length - i);
      const dataPart = Math.min(take, Math.max(0, this.chunkLeft - 2));
      if (dataPart > 0) {
        this.parts.push(data.subarray(i, i + dataPart));
        this.got += dataPart;
      }
      this.chunkLeft -= take;
      i += take;
      if (this.chunkLeft === 0) this.chunkLeft = -1;
    }
    return false;
  }

  private finish(): void {
    const resolve = this.resolve!;
    const reject = this.reject!;
    this.resolve = this.reject = null;
    const body = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    this.parts = [];
    const { status, json, skip } = this;
    if (this.closeAfter) {
      this.dead = true;
      this.owner.forget(this);
      this.socket.destroy();
    } else this.owner.release(this);
    if (body.length === 0) return resolve({ status, json: null });
    try {
      if (!json) return resolve({ status, json: body.toString('utf8') });
      resolve({ status, json: skip && status < 300 ? parseWithout(body, skip) : JSON.parse(body.toString('utf8')) });
    } catch (err) {
      reject(err as Error);
    }
  }
}

/**
 * A keep-alive pool of up to `size` sockets to 127.0.0.1:`port`, each with one request in flight;
 * requests beyond that wait in order.
 */
export class RawClient {
  private readonly port: number;
  private readonly size: number;
  private readonly idle: Conn[] = [];
  private readonly all = new Set<Conn>();
  private readonly queue: [string, ReadonlySet<string> | undefined, (r: Reply) => void, (e: Error) => void][] = [];
  private readonly heads = new Map<string | null, string>();
  private closed = false;

  constructor(port: number, size: number) {
    this.port = port;
    this.size = size;
  }

  /** The headers after the request line for a key's requests, built once per key (Host first). */
  private headsOf(key: string | null): string {
    let h = this.heads.get(key);
    if (h === undefined) {
      h = ` HTTP/1.1\r\nhost: 127.0.0.1:${this.port}\r\nconnection: keep-alive\r\n${key ? `authorization: Bearer ${key}\r\n` : ''}`;
      this.heads.set(key, h);
    }
    return h;
  }

  readonly call: Call = (method, path, key, body, skip) => {
    let text = method + ' ' + path + this.headsOf(key);
    if (body === undefined) text += '\r\n';
    else {
      const json = JSON.stringify(body);
      text += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
    }
    return new Promise<Reply>((resolve, reject) => {
      if (this.closed) return reject(new Error('client closed'));
      const c = this.takeIdle() ?? (this.all.size < this.size ? this.open() : null);
      if (c) c.send(text, skip, resolve, reject);
      else this.queue.push([text, skip, resolve, reject]);
    });
  };

  private open(): Conn {
    const c = new Conn(this, this.port);
    this.all.add(c);
    return c;
  }

  /** A connection free again: the next queued request, else idle. */
  release(c: Conn): void {
    const next = this.queue.shift();
    if (next) c.send(next[0], next[1], next[2], next[3]);
    else {
      c.idleSince = performance.now();
      this.idle.push(c);
    }
  }

  /**
   * The most recently used idle connection. One idle for 2 s or more is closed instead: node's
   * server closes a keep-alive connection after 5 s idle, and a request written as it closes would
   * be lost (undici too retires a socket before the server's keep-alive timeout).
   */
  private takeIdle(): Conn | undefined {
    for (;;) {
      const c = this.idle.pop();
      if (c === undefined || performance.now() - c.idleSince < 2000) return c;
      this.all.delete(c);
      c.dead = true;
      c.socket.destroy();
    }
  }

  /** A connection gone (closed, failed): a queued request gets a new one. */
  forget(c: Conn): void {
    this.all.delete(c);
    const i = this.idle.indexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
    if (!this.closed && this.queue.length > 0 && this.all.size < this.size) {
      const next = this.queue.shift()!;
      this.open().send(next[0], next[1], next[2], next[3]);
    }
  }

  async destroy(): Promise<void> {
    this.closed = true;
    for (const [, , , reject] of this.queue.splice(0)) reject(new Error('client closed'));
    for (const c of this.all) c.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }
}

// ─── SSE: one plain socket per stream ────────────────────────────────────────

/** Finds each event in a stream's bytes; for a version event, hands its commit time (`at`) to `onVersion`. */
class SseScanner {
  private pending: Buffer | null = null;
  private readonly onVersion: (at: number) => void;
  constructor(onVersion: (at: number) => void) {
    this.onVersion = onVersion;
  }

  push(chunk: Buffer): void {
    const buf: Buffer = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let from = 0;
    let end;
    while ((end = buf.indexOf('\n\n', from)) >= 0) {
      const v = buf.indexOf('event: version', from);
      if (v >= 0 && v < end) {
        // The commit time: `"at":"<ISO>"` is the event's last field.
        const a = buf.lastIndexOf('"at":"', end);
        this.onVersion(a > from ? Date.parse(buf.toString('latin1', a + 6, buf.indexOf('"', a + 6))) : NaN);
      }
      from = end + 2;
    }
    // Kept for the next read: a copy (the chunk is a view of the shared read buffer).
    this.pending = from < buf.length ? (buf === chunk ? keep(buf.subarray(from)) : buf.subarray(from)) : null;
  }
}

/**
 * Follows a game's SSE stream until it ends (or `stopped()`), on a plain socket: the response head
 * checked (200, chunked), the chunked body decoded and every event scanned; each version event's
 * commit → arrival time pushed to `eventLatencies` while not stopped, and `onEvent` called.
 */
export function watch(port: number, gameId: string, key: string | null, eventLatencies: number[], stopped: () => boolean, onEvent?: () => void): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, onData);
    let now = 0;
    const scanner = new SseScanner((at) => {
      if (stopped()) return;
      if (!Number.isNaN(at)) eventLatencies.push(now - at);
      onEvent?.();
    });
    let head: Buffer | null = null;
    let headDone = false;
    let chunkLeft = -1; // bytes left of the current chunk (with its CRLF), -1 while reading a size line
    let sizeLine: Buffer | null = null;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      socket.destroy();
      resolve();
    };
    socket.on('connect', () => {
      socket.write(`GET /games/${gameId}/events HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\naccept: text/event-stream\r\n${key ? `authorization: Bearer ${key}\r\n` : ''}\r\n`, 'latin1');
    });
    function onData(d: Buffer): void {
      now = Date.now();
      let data = d;
      if (!headDone) {
        const buf = head ? Buffer.concat([head, d]) : d;
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) {
          head = head ? buf : keep(buf);
          return;
        }
        const text = buf.toString('latin1', 0, end).toLowerCase();
        // Not a stream (an error answer): said, and nothing to follow.
        if (!text.startsWith('http/1.1 200') || !/\r\ntransfer-encoding: *chunked/.test(text)) {
          console.error(`watch ${gameId}: not a chunked stream: ${text.slice(0, text.indexOf('\r\n'))}`);
          return done();
        }
        headDone = true;
        head = null;
        data = buf.subarray(end + 4);
      }
      let i = 0;
      while (i < data.length) {
        if (chunkLeft < 0) {
          const eol = data.indexOf(LF, i);
          if (eol < 0) {
            sizeLine = sizeLine ? Buffer.concat([sizeLine, data.subarray(i)]) : keep(data.subarray(i));
            return;
          }
          const line = (sizeLine ? Buffer.concat([sizeLine, data.subarray(i, eol)]) : data.subarray(i, eol)).toString('latin1');
          sizeLine = null;
          i = eol + 1;
          const size = parseInt(line, 16);
          if (size === 0) return done(); // the stream's end
          chunkLeft = size + 2;
        }
        const take = Math.min(chunkLeft, data.length - i);
        const part = Math.min(take, Math.max(0, chunkLeft - 2));
        if (part > 0) scanner.push(data.subarray(i, i + part));
        chunkLeft -= take;
        i += take;
        if (chunkLeft === 0) chunkLeft = -1;
      }
    }
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', done);
    const timer = setInterval(() => {
      if (stopped()) done();
    }, 200);
  });
}

// ─── The client before (--client old): undici's Pool.dispatch, node:http for SSE ──

/** The bench client as it was up to 27 Nov 2026 (kept for `--client old`, an A/B of the client). */
export class LegacyClient {
  readonly pool: Pool;
  private readonly headers = new Map<string | null, Record<string, string>>();

  constructor(port: number, connections: number) {
    this.pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  }

  private headersOf(key: string | null): Record<string, string> {
    let h = this.headers.get(key);
    if (!h) {
      h = key ? { authorization: `Bearer ${key}`, 'content-type': 'application/json' } : { 'content-type': 'application/json' };
      this.headers.set(key, h);
    }
    return h;
  }

  readonly call: Call = (method, path, key, body) =>
    new Promise((resolve, reject) => {
      let status = 0;
      let json = false;
      let first: Buffer | null = null;
      let more: Buffer[] | null = null;
      this.pool.dispatch(
        { method, path, headers: this.headersOf(key), body: body === undefined ? null : JSON.stringify(body) },
        {
          onConnect() {},
          onHeaders(statusCode: number, rawHeaders: Buffer[]) {
            status = statusCode;
            for (let i = 0; i < rawHeaders.length; i += 2) {
              if (rawHeaders[i]!.length === 12 && rawHeaders[i]!.toString('latin1').toLowerCase() === 'content-type') {
                json = rawHeaders[i + 1]!.includes('json');
              }
            }
            return true;
          },
          onData(chunk: Buffer) {
            if (first === null) first = chunk;
            else (more ??= [first]).push(chunk);
            return true;
          },
          onComplete() {
            const buf = more ? Buffer.concat(more) : first;
            if (buf === null || buf.length === 0) return resolve({ status, json: null });
            const text = buf.toString('utf8');
            try {
              resolve({ status, json: json ? JSON.parse(text) : text });
            } catch (err) {
              reject(err);
            }
          },
          onError(err: Error) {
            reject(err);
          },
        } as unknown as Parameters<Pool['dispatch']>[1],
      );
    });

  destroy(): Promise<void> {
    return this.pool.destroy();
  }
}

/** The SSE follower before (--client old): node:http's IncomingMessage stream. */
export function legacyWatch(port: number, gameId: string, key: string | null, eventLatencies: number[], stopped: () => boolean, onEvent?: () => void): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: `/games/${gameId}/events`, agent: false, headers: { accept: 'text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}) } },
      (res) => {
        let pending: Buffer | null = null;
        res.on('data', (chunk: Buffer) => {
          const now = Date.now();
          const buf: Buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
          let from = 0;
          let end;
          while ((end = buf.indexOf('\n\n', from)) >= 0) {
            const v = buf.indexOf('event: version', from);
            if (v >= 0 && v < end && !stopped()) {
              const a = buf.lastIndexOf('"at":"', end);
              if (a > from) {
                const at = Date.parse(buf.toString('latin1', a + 6, buf.indexOf('"', a + 6)));
                if (!Number.isNaN(at)) eventLatencies.push(now - at);
              }
              onEvent?.();
            }
            from = end + 2;
          }
          pending = from < buf.length ? buf.subarray(from) : null;
        });
        res.on('end', resolve);
        res.on('close', resolve);
        res.on('error', () => resolve());
      },
    );
    req.on('error', () => resolve());
    const timer = setInterval(() => {
      if (stopped()) {
        clearInterval(timer);
        req.destroy();
        resolve();
      }
    }, 200);
  });
}
