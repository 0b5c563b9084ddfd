// The herald client's records, refusals and help, against a real server (real
// Postgres): export then import, the exit codes of bad input (usage 1, refused
// 2 with the problem's code, unreachable 3), and --help on every command.
import { PassThrough, Writable } from 'node:stream';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.ts';
import { run } from '../../src/cli/run.ts';
import { cli, json, startServer } from './cli-helpers.ts';

interface Game {
  id: string;
  status: string;
  result: { winner: string | null; reason: string } | null;
}

t.test('records and refusals', async (t) => {
  const { url } = await startServer(t);
  const ada = await cli(t);
  const bob = await cli(t);
  const env = { HERALD_URL: url };
  t.equal((await ada.run(['signup', 'Ada'], { env })).code, 0);
  t.equal((await bob.run(['signup', 'Bob'], { env })).code, 0);

  await t.test('export then import a finished game', async (t) => {
    const created = json<Game>(await ada.run(['games', 'create', '--scenario', 'richard-iii', '--role', 'York', '--role', 'Lancaster', '--seed', 'cli-1', '--json']));
    const gameId = created.id;
    t.equal(created.status, 'active', 'hot-seat: both seats held, so it started');
    const resigned = await ada.run(['resign', gameId, '--role', 'Lancaster']);
    t.equal(resigned.code, 0, resigned.stderr);
    t.match(resigned.stdout, /result: York won \(Lancaster resigned\)/);
    const file = path.join(ada.dir, 'record.json');
    const exported = await ada.run(['export', gameId, '-o', file]);
    t.equal(exported.code, 0, exported.stderr);
    const record = JSON.parse(readFileSync(file, 'utf8')) as { format: string; seed: string; actions: unknown[] };
    t.equal(record.format, 'herald-game-record');
    t.equal(record.seed, 'cli-1', 'the seed, the game being over');
    t.equal((await ada.run(['export', gameId])).stdout, readFileSync(file, 'utf8'), 'standard output by default');
    const imported = json<Game>(await bob.run(['import', file, '--json']));
    t.not(imported.id, gameId);
    t.same(imported.result, { winner: 'York', reason: 'Lancaster resigned' });

    const broken = path.join(ada.dir, 'broken.json');
    const text = readFileSync(file, 'utf8').replace('"Lancaster resigned"', '"York resigned"');
    writeFileSync(broken, text);
    const refused = await bob.run(['import', broken]);
    t.equal(refused.code, 2);
    t.match(refused.stderr, /\[invalid_record\]/);
    const missing = await bob.run(['import', path.join(ada.dir, 'nope.json')]);
    t.equal(missing.code, 1, 'an unreadable file is a usage error');
  });

  await t.test('bad input and an unreachable server', async (t) => {
    const unknown = await ada.run(['frobnicate']);
    t.equal(unknown.code, 1);
    t.match(unknown.stderr, /error: unknown command 'frobnicate'[\s\S]*Usage: herald \[options\] \[command\][\s\S]*Exit codes:/);
    const missingArg = await ada.run(['games', 'show']);
    t.equal(missingArg.code, 1);
    t.match(missingArg.stderr, /missing required argument 'id'/);
    const badNumber = await ada.run(['bots', 'two']);
    t.equal(badNumber.code, 1);
    const notFound = await ada.run(['games', 'show', '00000000-0000-4000-8000-000000000000']);
    t.equal(notFound.code, 2);
    t.match(notFound.stderr, /\(404\) \[not_found\]/);
    const noKey = await cli(t);
    const keyless = await noKey.run(['games', 'create', '--scenario', 'richard-iii'], { env });
    t.equal(keyless.code, 1);
    t.match(keyless.stderr, /no API key/);
    const down = await ada.run(['games', 'list', '--server', 'http://127.0.0.1:1']);
    t.equal(down.code, 3);
    t.match(down.stderr, /cannot reach http:\/\/127\.0\.0\.1:1/);
  });
});

/** Runs a command line in this process, capturing what it prints. */
async function runHere(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => new Writable({ write(chunk, _enc, done) { add(String(chunk)); done(); } });
  const code = await run(argv, { stdin: new PassThrough(), stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)), env: {} });
  return { code, stdout, stderr };
}

t.test('--help on every command, with the exit codes in the top-level epilog', async (t) => {
  // The bin itself once; every command's help through the same code in this process (fast).
  const c = await cli(t);
  const top = await c.run(['--help']);
  t.equal(top.code, 0);
  t.match(top.stdout, /Exit codes:\n  0  done\n  1  usage error[\s\S]*\n  2  the server refused[\s\S]*\n  3  cannot reach[\s\S]*\n  4  nothing to do/);
  const sub = await c.run(['games', 'create', '--help']);
  t.equal(sub.code, 0);
  t.match(sub.stdout, /^Usage: herald games create \[options\]/);

  const paths: string[][] = [];
  const walk = (cmd: Command, prefix: string[]) => {
    for (const child of cmd.commands) {
      paths.push([...prefix, child.name()]);
      walk(child, [...prefix, child.name()]);
    }
  };
  walk(buildProgram({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {} }), []);
  t.ok(paths.length >= 17, `${paths.length} commands`);
  for (const p of paths) {
    const help = await runHere([...p, '--help']);
    t.equal(help.code, 0, `${p.join(' ')} --help`);
    t.match(help.stdout, new RegExp(`^Usage: herald ${p.join(' ')} `), p.join(' '));
    t.match(help.stdout, /Global Options:\n[\s\S]*--server <url>[\s\S]*--key <key>/, `${p.join(' ')} shows --server and --key`);
  }
});
