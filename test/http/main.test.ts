// src/main.ts as `npm start` runs it: a real process, real signals.
import t from 'tap';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { projectRoot } from '../../src/paths.ts';
import { PG_ADMIN_URL, createTestDatabase, TEST_REDIS_URL, tempDir } from '../helpers/services.ts';

interface Run {
  code: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
  kill: (signal: NodeJS.Signals) => void;
}

function start(env: Record<string, string>): Run {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...env };
  delete childEnv.NODE_OPTIONS;
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'DATA_DIR', 'HERALD_BLACK_AND_WHITE_DATA']) if (!(name in env)) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: projectRoot, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (err += d));
  const code = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, stdout: () => out, stderr: () => err, kill: (s) => child.kill(s) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function waitReady(port: number, run: Run, timeoutMs = 120_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void run.code.then(() => (exited = true));
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.status === 200) return res;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready (exited: ${exited}): ${run.stderr()}`);
}

t.test('a wrong DATABASE_URL: exit 1 with one clear line, no stack trace', async (t) => {
  // A missing database alone is created at start-up (test/store/create-database.test.ts):
  // an unknown role is not something the server can repair.
  const url = new URL(PG_ADMIN_URL);
  url.pathname = '/herald_no_such_database';
  url.username = 'herald_no_such_role';
  const run = start({ DATABASE_URL: url.toString(), PORT: '0' });
  t.equal(await run.code, 1);
  const lines = run.stderr().trim().split('\n');
  t.equal(lines.length, 1, `one line: ${run.stderr()}`);
  t.match(lines[0], /^herald: cannot start: cannot connect to the database at postgresql:\/\/.*herald_no_such_database: role "herald_no_such_role" does not exist$/);
  t.notMatch(run.stderr(), /\n\s+at /, 'no stack trace');
});

t.test('invalid configuration: exit 2 with every problem on one line', async (t) => {
  const run = start({ PORT: 'eighty', LOG_LEVEL: 'chatty' });
  t.equal(await run.code, 2);
  t.match(run.stderr(), /^herald: cannot start: invalid configuration: PORT must be an integer .*; LOG_LEVEL must be one of .*\n$/);
});

t.test('real Postgres and Redis: serves /readyz 200, stops cleanly on SIGTERM', async (t) => {
  const databaseUrl = await createTestDatabase(t);
  const port = await freePort();
  const run = start({ DATABASE_URL: databaseUrl, REDIS_URL: TEST_REDIS_URL, PORT: String(port), BUS_PREFIX: `herald-test:${port}:` });
  t.teardown(() => run.kill('SIGKILL'));
  const res = await waitReady(port, run);
  t.match(await res.json(), { status: 'ready', checks: { database: { kind: 'postgres' }, bus: { kind: 'redis' } } });
  run.kill('SIGTERM');
  t.equal(await run.code, 0, 'exit 0 after SIGTERM');
  t.match(run.stdout(), /"msg":"shutting down/);
  t.match(run.stdout(), /"msg":"stopped"/);
  // Black & White's data file is not set: one line says the game is not playable, and why.
  const notPlayable = run.stdout().split('\n').filter((l) => l.includes('is not playable'));
  t.equal(notPlayable.length, 1, run.stdout());
  t.match(JSON.parse(notPlayable[0]!), { level: 40, gameType: 'black-and-white', msg: /^game type black-and-white \(Black & White\) is not playable: HERALD_BLACK_AND_WHITE_DATA is not set/ });
});

t.test('no DATABASE_URL: embedded database in DATA_DIR; SIGINT stops it and frees the folder', async (t) => {
  const dataDir = `${await tempDir(t)}/data`;
  const port = await freePort();
  const run = start({ DATA_DIR: dataDir, PORT: String(port) });
  t.teardown(() => run.kill('SIGKILL'));
  const res = await waitReady(port, run);
  t.match(await res.json(), { checks: { database: { kind: 'embedded' }, bus: { kind: 'memory' } } });
  run.kill('SIGINT');
  t.equal(await run.code, 0);
  const { existsSync } = await import('node:fs');
  t.notOk(existsSync(`${dataDir}/herald.lock`), 'lock released');
});
