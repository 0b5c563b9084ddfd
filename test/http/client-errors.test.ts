// Requests Node's HTTP parser refuses before Fastify routes them are answered with problem
// documents like every other refusal: headers over Node's 16 kB limit (431), a malformed request
// (400: a bad Content-Length, garbage for a request line). Before, Fastify's default handler
// answered with a body of its own shape ({"error", "message", "statusCode"}, Content-Type
// application/json), which a probe found; and a 414 (a path parameter over its length) was
// titled "Error". Over a real socket: app.inject never goes through Node's parser.
import t from 'tap';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { restApp } from './rest-helpers.ts';

const app = await restApp(t);
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;

/** Sends `raw` on a new connection; the whole answer, until the server closes it (or 5 s). */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (got += d));
    socket.on('close', () => resolve(got));
    socket.on('error', (err) => (got ? resolve(got) : reject(err)));
    setTimeout(() => socket.destroy(), 5_000).unref();
  });
}

function parse(answer: string): { status: number; headers: string; body: Record<string, unknown> } {
  const [head, ...rest] = answer.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), headers: head!.toLowerCase(), body: JSON.parse(rest.join('\r\n\r\n')) as Record<string, unknown> };
}

t.test('headers over the limit: 431 problem+json', async (t) => {
  const a = parse(await exchange(`GET /games HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(20_000)}\r\n\r\n`));
  t.equal(a.status, 431);
  t.match(a.headers, /content-type: application\/problem\+json/);
  t.match(a.body, { type: 'urn:herald:problem:invalid-request', title: 'Request Header Fields Too Large', status: 431, code: 'invalid_request' });
});

t.test('a malformed request: 400 problem+json', async (t) => {
  for (const raw of ['GET /games HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n', 'garbage\r\n\r\n']) {
    const a = parse(await exchange(raw));
    t.equal(a.status, 400, JSON.stringify(raw));
    t.match(a.headers, /content-type: application\/problem\+json/);
    t.match(a.body, { title: 'Bad Request', status: 400, code: 'invalid_request' });
  }
});

t.test('a path parameter over its length: 414 titled as such', async (t) => {
  const res = await app.inject({ method: 'GET', url: `/games/${'1'.repeat(300)}` });
  t.equal(res.statusCode, 414);
  t.match(res.json(), { title: 'URI Too Long', status: 414, code: 'invalid_request' });
});
