// The herald client against a server whose 2xx answers are not Herald's
// shapes (null, [], {}, a game without seats): exit 3 with one line naming
// what it could not read, never a TypeError's stack trace (found by probing
// the CLI against bad servers: `herald games list` printed "TypeError: Cannot
// read properties of null (reading 'items')" and its stack).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import path from 'node:path';
import t from 'tap';
import { run } from '../../src/cli/run.ts';
import { tempDir, type Teardown } from '../helpers/services.ts';

async function fakeServer(t: Teardown, body: string): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const GAME = '00000000-0000-4000-8000-000000000001';

t.test('answers of the wrong shape: exit 3, one line, no stack', async (t) => {
  const dir = await tempDir(t, 'herald-cli-bad-');
  const env = { HERALD_CONFIG: path.join(dir, 'config.json') };
  async function runHere(argv: string[], extraEnv: Record<string, string> = {}) {
    let stdout = '';
    let stderr = '';
    const sink = (add: (s: string) => void) => new Writable({ write(chunk, _enc, done) { add(String(chunk)); done(); } });
    const code = await run(argv, { stdin: new PassThrough(), stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)), env: { ...env, ...extraEnv } });
    return { code, stdout, stderr };
  }
  for (const body of ['null', '[]', '{}', JSON.stringify({ id: 5, items: 'x', seats: 'x', status: 5 })]) {
    const server = await fakeServer(t, body);
    const commands = [['signup', 'Bob'], ['game-types'], ['games', 'list'], ['games', 'show', GAME], ['games', 'join', GAME], ['resign', GAME], ['move', GAME, 'end']];
    for (const argv of commands) {
      const r = await runHere([...argv, '--server', server, '--key', 'hk_x']);
      // Some shapes happen to print (a 200 with {} for game-types lists nothing); none may crash.
      if (r.code === 0) continue;
      t.equal(r.code, 3, `${argv.join(' ')} on ${body}: exit 3 (${r.stderr.slice(0, 200)})`);
      t.notMatch(r.stderr, /\n\s+at /, `${argv.join(' ')} on ${body}: no stack trace`);
      t.match(r.stderr, /^herald: (the server's answer is not what this client expects|.*the answer is not JSON)/, `${argv.join(' ')} on ${body}: one line saying why`);
    }
  }
  const server = await fakeServer(t, 'null');
  const listed = await runHere(['games', 'list', '--server', server, '--key', 'hk_x']);
  t.equal(listed.code, 3);
  t.match(listed.stderr, /^herald: the server's answer is not what this client expects \(TypeError: .*\); is the server a Herald server of this version\?\n$/);
  const asJson = await runHere(['signup', 'Bob', '--no-save', '--json', '--server', server]);
  t.equal(asJson.code, 3);
  t.match(JSON.parse(asJson.stderr), { exitCode: 3, problem: null, error: /not what this client expects/ });
  const debug = await runHere(['games', 'list', '--server', server, '--key', 'hk_x'], { HERALD_DEBUG: '1' });
  t.match(debug.stderr, /\n\s+at /, 'HERALD_DEBUG=1 shows where');
});

/** A server that takes each request and answers `answer` (or never: null, or headers only: 'stall'). */
async function silentServer(t: Teardown, answer: null | 'stall'): Promise<string> {
  const server = http.createServer((_req, res) => {
    if (answer === 'stall') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function runIn(dir: string, argv: string[], extraEnv: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => new Writable({ write(chunk, _enc, done) { add(String(chunk)); done(); } });
  const code = await run(argv, { stdin: new PassThrough(), stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)), env: { HERALD_CONFIG: path.join(dir, 'config.json'), ...extraEnv } });
  return { code, stdout, stderr };
}

t.test('a server that never answers: exit 3 after the timeout (--timeout, HERALD_TIMEOUT), one line', async (t) => {
  const dir = await tempDir(t, 'herald-cli-silent-');
  const silent = await silentServer(t, null);
  const stalled = await silentServer(t, 'stall');
  for (const [server, what] of [[silent, 'no answer'], [stalled, 'headers, then nothing']] as const) {
    const r = await runIn(dir, ['games', 'list', '--server', server, '--key', 'hk_x', '--timeout', '1']);
    t.equal(r.code, 3, `${what}: exit 3`);
    t.match(r.stderr, /^herald: GET \/games: no answer from http:\/\/127\.0\.0\.1:\d+ within 1 s \(--timeout or HERALD_TIMEOUT sets how long to wait\)\n$/, `${what}: one line saying so`);
  }
  const env = await runIn(dir, ['game-types', '--server', silent], { HERALD_TIMEOUT: '1' });
  t.equal(env.code, 3, 'HERALD_TIMEOUT: exit 3');
  t.match(env.stderr, /within 1 s/);
  const bad = await runIn(dir, ['game-types', '--server', silent], { HERALD_TIMEOUT: 'soon' });
  t.equal(bad.code, 1, 'a bad HERALD_TIMEOUT is a usage error');
  t.match(bad.stderr, /HERALD_TIMEOUT must be a whole number of seconds/);
  t.equal((await runIn(dir, ['game-types', '--server', silent, '--timeout', '-1'])).code, 1, 'a bad --timeout is a usage error');
  const help = await runIn(dir, ['--help']);
  t.match(help.stdout, /--timeout <seconds>/);
  t.match(help.stdout, /HERALD_TIMEOUT/);
});

t.test('a 4xx whose body is no problem document is a refusal (exit 2), a 5xx a failure (exit 3)', async (t) => {
  const dir = await tempDir(t, 'herald-cli-4xx-');
  for (const [status, body, exit] of [[422, 'null', 2], [404, '<html>Not Found</html>', 2], [400, '[1]', 2], [502, 'null', 3]] as const) {
    const server = http.createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await runIn(dir, ['resign', GAME, '--server', url, '--key', 'hk_x']);
    t.equal(r.code, exit, `${status} ${body}: exit ${exit} (${r.stderr.trim()})`);
    t.match(r.stderr, status < 500 ? new RegExp(`^herald: POST /games/${GAME}/resign: refused \\(HTTP ${status}; the answer is not a problem document\\)\\n$`) : /the server failed/);
  }
});
