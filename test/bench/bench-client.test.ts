// The bench client of bench:service (scripts/bench-client.ts) must read what a fair client reads:
// every answer whole (Content-Length or chunked, over kept-alive sockets), the members it skips
// scanned for well-formed JSON rather than trusted, every SSE event of a stream however the bytes
// are cut. A client that lost or misread bytes would make the servers look faster than they are.
import t from 'tap';
import type { Test } from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseWithout, RawClient, watch } from '../../scripts/bench-client.ts';

const VIEW = new Set(['view']);

t.test('parseWithout: the other members exactly as JSON.parse reads them', async (t) => {
  const bodies: unknown[] = [
    { version: 3, role: 'york', game: { status: 'active', activeRoles: ['york'] }, view: { board: [[1, 2], { a: '}' }], s: 'a"b\\c{[' }, legalActions: [{ type: 'end' }] },
    { view: 'just a string with } and ] and \\" inside', version: 1 },
    { a: null, b: true, c: -1.5e3, view: [], d: 'żółw ☃ \ud83d\ude00', e: {} },
    { only: 1 },
    { view: { x: { y: { z: [[[]]] } } } },
    {},
  ];
  for (const b of bodies) {
    const full = JSON.parse(JSON.stringify(b)) as Record<string, unknown>;
    delete full.view;
    for (const text of [JSON.stringify(b), JSON.stringify(b, null, 2)]) {
      t.same(parseWithout(Buffer.from(text), VIEW), full, text.slice(0, 60));
    }
  }
  t.same(parseWithout(Buffer.from('[1,{"view":2}]'), VIEW), [1, { view: 2 }], 'not an object: parsed whole');
});

t.test('parseWithout: a malformed skipped member is an error, not skipped', async (t) => {
  for (const text of [
    '{"a":1,"view":{"x":[1,2}}',
    '{"a":1,"view":{"x":"1}',
    '{"a":1,"view":{"x":1}',
    '{"a":1,"view":{"x":1}} trailing',
    '{"a":1 "view":2}',
    '{"a":1,"view":{"x":1}',
    '{"a" 1}',
  ]) {
    t.throws(() => parseWithout(Buffer.from(text), VIEW), text);
  }
});

/** A server whose answers are cut into small writes (chunked, or with a Content-Length). */
async function server(t: Test, handler: http.RequestListener): Promise<number> {
  const srv = http.createServer(handler);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => {
    srv.closeAllConnections();
    srv.close();
  });
  return (srv.address() as AddressInfo).port;
}

function writeInPieces(res: http.ServerResponse, text: string, size: number): void {
  for (let i = 0; i < text.length; i += size) res.write(text.slice(i, i + size));
  res.end();
}

t.test('RawClient: answers whole over kept-alive sockets, chunked or not', async (t) => {
  const sockets = new Set<unknown>();
  const seen: { method: string; url: string; auth: string | undefined; body: string }[] = [];
  const big = { version: 7, game: { status: 'active' }, view: { cells: Array.from({ length: 3000 }, (_, i) => ({ i, s: `x${i}"}` })) }, legalActions: [{ n: 1 }] };
  const port = await server(t, (req, res) => {
    sockets.add(req.socket);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return writeInPieces(res, JSON.stringify(big), 777);
      }
      if (req.url === '/none') return res.writeHead(204).end();
      if (req.url === '/error') {
        res.writeHead(409, { 'content-type': 'application/problem+json' });
        return res.end(JSON.stringify({ code: 'version_conflict', view: 'kept' }));
      }
      if (req.url === '/text') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('plain ☃');
      }
      if (req.url === '/close') {
        res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
        return res.end('{"closed":true}');
      }
      const text = JSON.stringify({ echo: body === '' ? null : JSON.parse(body), view: { big: 'x'.repeat(70_000) } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      writeInPieces(res, text, 5000);
    });
  });
  const client = new RawClient(port, 2);
  t.teardown(() => client.destroy());

  const chunked = await client.call('GET', '/chunked', 'k1', undefined, VIEW);
  t.equal(chunked.status, 200);
  t.same(chunked.json, { version: 7, game: { status: 'active' }, legalActions: [{ n: 1 }] }, 'a chunked answer read whole, its view skipped');
  const whole = await client.call('GET', '/chunked', 'k1');
  t.equal(whole.json.view.cells.length, 3000, 'without skip: parsed whole');

  const posted = await client.call('POST', '/echo', 'k2', { action: { type: 'move', to: 'żółw' }, expectedVersion: 4 }, VIEW);
  t.same(posted.json, { echo: { action: { type: 'move', to: 'żółw' }, expectedVersion: 4 } }, 'a Content-Length answer read whole');
  t.same(seen.at(-1), { method: 'POST', url: '/echo', auth: 'Bearer k2', body: '{"action":{"type":"move","to":"żółw"},"expectedVersion":4}' }, 'the request as sent');

  t.same(await client.call('GET', '/none', null), { status: 204, json: null });
  t.same(await client.call('GET', '/error', 'k1', undefined, VIEW), { status: 409, json: { code: 'version_conflict', view: 'kept' } }, 'an error answer parsed whole');
  t.same(await client.call('GET', '/text', null), { status: 200, json: 'plain ☃' });
  t.same((await client.call('GET', '/close', null)).json, { closed: true });
  t.same((await client.call('GET', '/echo', null)).json, { echo: null, view: { big: 'x'.repeat(70_000) } }, 'a request after Connection: close');

  // Many at once: at most two sockets, every answer to its own request.
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => client.call('POST', '/echo', 'k3', { i }, VIEW)));
  t.same(answers.map((a) => a.json.echo.i), Array.from({ length: 20 }, (_, i) => i));
  t.ok(sockets.size <= 3, `kept-alive sockets reused (${sockets.size} for ${seen.length} requests; one replaced after Connection: close)`);
});

t.test('watch: every version event of a chunked stream, however its bytes are cut', async (t) => {
  const at = Date.now() - 50;
  const events: string[] = [];
  for (let v = 1; v <= 30; v++) {
    const data = JSON.stringify({ gameId: 'g', version: v, view: { text: 'a\n\nb }' }, at: new Date(at + v).toISOString() });
    events.push(`id: ${v}\nevent: version\ndata: ${data}\n\n`);
    if (v % 10 === 0) events.push(': heartbeat\n\n');
  }
  const stream = `retry: 2000\n\n${events.join('')}event: end\ndata: {"status":"finished"}\n\n`;
  let auth: string | undefined;
  const port = await server(t, (req, res) => {
    auth = req.headers.authorization;
    if (req.url !== '/games/g1/events') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // Cut at every few bytes: events, lines and chunk-size lines all split across reads.
    let i = 0;
    const next = () => {
      if (i >= stream.length) return res.end();
      res.write(stream.slice(i, (i += 7 + (i % 13))));
      setImmediate(next);
    };
    next();
  });
  const latencies: number[] = [];
  let count = 0;
  await watch(port, 'g1', 'key', latencies, () => false, () => count++);
  t.equal(count, 30, 'each version event once');
  t.equal(latencies.length, 30, 'each with its commit time read');
  t.ok(latencies.every((l) => l >= 0 && l < 60_000), 'commit → arrival from each event\'s `at`');
  t.equal(auth, 'Bearer key');

  // Not a stream (404): the watch ends at once, nothing counted.
  const none: number[] = [];
  await watch(port, 'missing', null, none, () => false);
  t.same(none, []);
});

t.test('RawClient: an answer whose head, chunk-size lines and body come in many reads', async (t) => {
  // Each piece in a read of its own (setImmediate between writes): the client reads every socket into
  // one shared buffer, so what it keeps across reads must be copied out of it.
  const big = { version: 3, legalActions: Array.from({ length: 400 }, (_, i) => ({ type: 'move', i })), view: { cells: 'v'.repeat(9000) } };
  const text = JSON.stringify(big);
  const port = await server(t, (req, res) => {
    const chunked = req.url === '/chunked';
    const head = chunked
      ? 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n'
      : `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n`;
    let body = '';
    if (chunked) for (let i = 0; i < text.length; i += 1000) body += `${Math.min(1000, text.length - i).toString(16)}\r\n${text.slice(i, i + 1000)}\r\n`;
    const wire = head + (chunked ? `${body}0\r\n\r\n` : text);
    let i = 0;
    const next = () => {
      if (i >= wire.length) return;
      req.socket.write(wire.slice(i, (i += 5 + (i % 611))));
      setImmediate(next);
    };
    next();
  });
  const client = new RawClient(port, 1);
  t.teardown(() => client.destroy());
  for (const path of ['/chunked', '/length', '/chunked', '/length']) {
    const r = await client.call('GET', path, 'k', undefined, VIEW);
    t.equal(r.status, 200, path);
    t.same(r.json, { version: 3, legalActions: big.legalActions }, `${path}: read whole, its view skipped`);
  }
});
