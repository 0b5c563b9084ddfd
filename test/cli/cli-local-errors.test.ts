// Local troubles are the user's to fix, not the server's: an unreadable config
// file or an output file that cannot be written is exit 1 with one line naming
// the file and the system's error (it was "the server's answer is not what this
// client expects", exit 3, even for `herald config show`). A request that changes
// something and gets no answer in time may have been applied: the message says so.
// A refusal in place of the event stream is read within the timeout too.
import http from 'node:http';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import path from 'node:path';
import t from 'tap';
import { run } from '../../src/cli/run.ts';
import { tempDir, type Teardown } from '../helpers/services.ts';

const GAME = '00000000-0000-4000-8000-000000000001';

async function runIn(config: string, argv: string[]) {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => new Writable({ write(chunk, _enc, done) { add(String(chunk)); done(); } });
  const code = await run(argv, { stdin: new PassThrough(), stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)), env: { HERALD_CONFIG: config } });
  return { code, stdout, stderr };
}

/** Answers every request with `status` and `body`; 'stall': headers and a first byte, then nothing. */
async function server(t: Teardown, status: number, body: string | 'stall' | null): Promise<string> {
  const s = http.createServer((_req, res) => {
    if (body === null) return;
    res.writeHead(status, { 'content-type': body === 'stall' ? 'application/problem+json' : 'application/json' });
    if (body === 'stall') res.write('{');
    else res.end(body);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    s.closeAllConnections();
    s.close(() => resolve());
  }));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

t.test('a config file that cannot be read: exit 1, one line naming it', async (t) => {
  const dir = await tempDir(t, 'herald-cli-local-');
  const config = path.join(dir, 'config.json');
  mkdirSync(config); // a directory where the file should be: EISDIR
  for (const argv of [['config', 'show'], ['config', 'set', 'server', 'http://x.test'], ['games', 'list', '--server', 'http://127.0.0.1:9']]) {
    const r = await runIn(config, argv);
    t.equal(r.code, 1, `${argv.join(' ')}: exit 1 (${r.stderr.trim()})`);
    t.equal(r.stderr.split('\n').length, 2, `${argv.join(' ')}: one line`);
    t.match(r.stderr, `herald: cannot read ${config}: EISDIR`);
    t.notMatch(r.stderr, /server's answer/);
  }
});

t.test('export -o into a folder that does not exist: exit 1, one line naming the file', async (t) => {
  const dir = await tempDir(t, 'herald-cli-local-');
  const record = { format: 'herald-game-record', version: 3, actions: [] };
  const url = await server(t, 200, JSON.stringify(record));
  const out = path.join(dir, 'no-such-folder', 'game.json');
  const r = await runIn(path.join(dir, 'config.json'), ['export', GAME, '-o', out, '--server', url, '--key', 'hk_x']);
  t.equal(r.code, 1, `exit 1 (${r.stderr.trim()})`);
  t.match(r.stderr, new RegExp(`^herald: cannot write ${out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: ENOENT[^\\n]*\\n$`));
  const board = await runIn(path.join(dir, 'config.json'), ['board', GAME, '--svg', out, '--no-text', '--server', await server(t, 200, '<svg/>')]);
  t.equal(board.code, 1, `board --svg: exit 1 (${board.stderr.trim()})`);
  t.match(board.stderr, /^herald: cannot write .*game\.json: ENOENT/);
});

t.test('a request that changes something and gets no answer: it may have been applied', async (t) => {
  const dir = await tempDir(t, 'herald-cli-local-');
  const silent = await server(t, 200, null);
  const config = path.join(dir, 'config.json');
  const post = await runIn(config, ['resign', GAME, '--server', silent, '--key', 'hk_x', '--timeout', '1']);
  t.equal(post.code, 3);
  t.match(post.stderr, /^herald: POST \/games\/[^ ]+\/resign: no answer from .* within 1 s; the server may have applied it already: check .* before sending it again \(--timeout or HERALD_TIMEOUT sets how long to wait\)\n$/);
  const get = await runIn(config, ['games', 'show', GAME, '--server', silent, '--timeout', '1']);
  t.equal(get.code, 3);
  t.notMatch(get.stderr, /may have applied/, 'a read says nothing of the kind');
});

t.test('watch: a refusal whose body stalls ends at the timeout', async (t) => {
  const dir = await tempDir(t, 'herald-cli-local-');
  const stalled = await server(t, 403, 'stall');
  const r = await runIn(path.join(dir, 'config.json'), ['watch', GAME, '--server', stalled, '--timeout', '1']);
  t.equal(r.code, 3, `exit 3 (${r.stderr.trim()})`);
  t.match(r.stderr, /^herald: GET \/games\/[^ ]+\/events: no answer from .* within 1 s/);
});

t.test('a config file whose server or key is not a string: exit 1 naming the file and the field', async (t) => {
  const dir = await tempDir(t, 'herald-cli-local-');
  const config = path.join(dir, 'config.json');
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ server: 42 }, 'server', 'number'],
    [{ server: 'http://x.test', key: ['hk_x'] }, 'key', 'an array'],
    [{ key: null }, 'key', 'null'],
    [{ server: { url: 'http://x.test' } }, 'server', 'object'],
  ];
  for (const [content, field, got] of cases) {
    writeFileSync(config, JSON.stringify(content));
    for (const argv of [['config', 'show'], ['games', 'list', '--server', 'http://127.0.0.1:9']]) {
      const r = await runIn(config, argv);
      t.equal(r.code, 1, `${JSON.stringify(content)}, ${argv.join(' ')}: exit 1 (${r.stderr.trim()})`);
      t.equal(r.stderr, `herald: ${config}: "${field}" must be a string (got ${got}): fix or remove it\n`);
      t.notMatch(r.stdout, /\(default\)/);
    }
  }
});

t.test('an API key with a line break or a space: exit 1 (a usage error), not 3 (cannot reach)', async (t) => {
  const dir = await tempDir(t, 'herald-cli-local-');
  const config = path.join(dir, 'config.json');
  const unreachable = 'http://127.0.0.1:9';
  const viaOption = await runIn(config, ['games', 'list', '--server', unreachable, '--key', 'hk_abc\n']);
  t.equal(viaOption.code, 1, `--key: exit 1 (${viaOption.stderr.trim()})`);
  t.equal(viaOption.stderr, 'herald: the API key given with --key contains a line break: an API key is printable ASCII without spaces\n');
  const spaced = await runIn(config, ['games', 'list', '--server', unreachable, '--key', 'hk_a bc']);
  t.equal(spaced.code, 1);
  t.match(spaced.stderr, /contains a space/);

  let stderr = '';
  const sink = new Writable({ write(chunk, _enc, done) { stderr += String(chunk); done(); } });
  const viaEnv = await run(['games', 'list', '--server', unreachable], { stdin: new PassThrough(), stdout: new PassThrough(), stderr: sink, env: { HERALD_CONFIG: config, HERALD_KEY: 'hk_abc\r\nX-Other: 1' } });
  t.equal(viaEnv, 1, `HERALD_KEY: exit 1 (${stderr.trim()})`);
  t.match(stderr, /the API key in HERALD_KEY contains a line break/);

  writeFileSync(config, JSON.stringify({ key: 'hk_abc\n' }));
  const viaFile = await runIn(config, ['config', 'show']);
  t.equal(viaFile.code, 1, `config file: exit 1 (${viaFile.stderr.trim()})`);
  t.equal(viaFile.stderr, `herald: the API key in ${config} contains a line break: an API key is printable ASCII without spaces\n`);

  const fresh = path.join(dir, 'fresh.json');
  const set = await runIn(fresh, ['config', 'set', 'key', 'hk_abc\n']);
  t.equal(set.code, 1, 'config set key: exit 1');
  t.notOk(existsSync(fresh), 'nothing written');
  // A good key still goes to the server (here: none listening, exit 3).
  t.equal((await runIn(fresh, ['games', 'list', '--server', unreachable, '--key', 'hk_abc'])).code, 3);
});
