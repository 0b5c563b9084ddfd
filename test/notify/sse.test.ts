// One SSE stream's body: frames written before the body is piped to the response and after it
// arrive in order, the stream's end ends the response after them, and a client that stops
// reading is dropped once more than MAX_BUFFERED_BYTES wait for it.
import t from 'tap';
import { Writable } from 'node:stream';
import { once } from 'node:events';
import { MAX_BUFFERED_BYTES, SseStream, sseEvent } from '../../src/notify/sse.ts';

/** A response stand-in that keeps what it is given; `stuck`: it never finishes a write (a client that stopped reading). */
function sink(stuck = false): Writable & { text: () => string } {
  const chunks: Buffer[] = [];
  const w = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      if (!stuck) cb();
    },
  });
  return Object.assign(w, { text: () => Buffer.concat(chunks).toString('utf8') });
}

t.test('frames before and after the pipe arrive in order, and end() ends the response after them', async (t) => {
  const stream = new SseStream(60_000, 1500);
  stream.event('version', '1', { v: 1 });
  const res = sink();
  stream.body.pipe(res);
  stream.send(Buffer.from(sseEvent('version', '2', { v: 2 })));
  stream.comment('line\nbreak');
  let closed = 0;
  stream.onClose(() => closed++);
  stream.end();
  await once(res, 'finish');
  t.equal(res.text(), `retry: 1500\n\n${sseEvent('version', '1', { v: 1 })}${sseEvent('version', '2', { v: 2 })}: line break\n\n`);
  t.equal(closed, 1);
  t.ok(stream.isClosed);
  stream.event('version', '3', { v: 3 }); // after the end: dropped, no error
});

t.test('a stream ended before it is piped still writes its frames, then ends the response', async (t) => {
  const stream = new SseStream(60_000, 1000);
  stream.event('end', null, { status: 'finished' });
  stream.end();
  const res = sink();
  stream.body.pipe(res);
  await once(res, 'finish');
  t.equal(res.text(), `retry: 1000\n\n${sseEvent('end', null, { status: 'finished' })}`);
});

t.test('a client that stops reading is dropped once more than MAX_BUFFERED_BYTES wait for it', async (t) => {
  const stream = new SseStream(60_000);
  const res = sink(true);
  stream.body.pipe(res);
  let closed = 0;
  stream.onClose(() => closed++);
  const frame = Buffer.alloc(64 * 1024, 0x61);
  const perLimit = Math.floor(MAX_BUFFERED_BYTES / frame.length);
  // Half the limit: kept (the response took a frame and stopped; the rest waits in the body).
  for (let sent = 0; sent < perLimit / 2; sent++) stream.send(frame);
  await new Promise((r) => setImmediate(r));
  t.notOk(stream.isClosed, 'open under the limit');
  // Past it: the body is destroyed (Fastify then destroys the response) and the stream closes.
  for (let sent = 0; sent < perLimit; sent++) stream.send(frame);
  await new Promise((r) => setImmediate(r));
  t.ok(stream.isClosed, 'closed past the limit');
  t.equal(closed, 1);
  t.ok(stream.body.destroyed);
});
