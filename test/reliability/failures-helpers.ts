// Private Redis and Postgres servers for the failure tests (never the machine's
// shared ones): spawned on free ports, stopped and restarted by the tests,
// always cleaned up at teardown.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, chown, readFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Teardown } from '../helpers/services.ts';

const run = promisify(execFile);
export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port. */
export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port}`);
    await pause(50);
  }
}

/** Waits for a child to exit (resolves at once if it has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** A private redis-server without persistence; stop() kills it, start() brings it back on the same port. */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  readonly port: number;
  private constructor(port: number) {
    this.port = port;
  }

  static async start(t: Teardown): Promise<PrivateRedis> {
    const r = new PrivateRedis(await freePort());
    t.teardown(() => r.stop());
    await r.start();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', os.tmpdir()], {
      stdio: 'ignore',
    });
    this.child = child;
    await waitForPort(this.port);
  }

  /** SIGKILL: the outage a crashed Redis causes. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    child.kill('SIGKILL');
    await exited(child);
  }
}

/** A private Postgres 15 cluster in a temp dir (run as the postgres user), trust auth, on a free port. */
export class PrivatePostgres {
  private running = false;
  readonly dir: string;
  readonly port: number;
  private constructor(
    dir: string,
    port: number,
  ) {
    this.dir = dir;
    this.port = port;
  }

  static async start(t: Teardown): Promise<PrivatePostgres> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'herald-pg-'));
    const { stdout } = await run('id', ['-u', 'postgres']);
    const uid = Number(stdout.trim());
    const { stdout: g } = await run('id', ['-g', 'postgres']);
    await chown(dir, uid, Number(g.trim()));
    const pgdata = path.join(dir, 'data');
    const p = new PrivatePostgres(dir, await freePort());
    t.teardown(async () => {
      await p.stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    });
    await p.asPostgres(`${PG_BIN}/initdb`, ['-D', pgdata, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    await p.start();
    return p;
  }

  private asPostgres(cmd: string, args: string[]) {
    return run('runuser', ['-u', 'postgres', '--', cmd, ...args], { cwd: this.dir, timeout: 60_000 });
  }

  url(database = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
    await this.asPostgres(`${PG_BIN}/pg_ctl`, ['-D', path.join(this.dir, 'data'), '-l', path.join(this.dir, 'log'), '-o', opts, '-w', '-t', '60', 'start']);
    this.running = true;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    await this.thaw();
    this.running = false;
    await this.asPostgres(`${PG_BIN}/pg_ctl`, ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', '-t', '60', 'stop']);
  }

  private frozen: number[] = [];

  /** SIGSTOP to the server and every backend: connections stay open (and new ones are accepted by the kernel) but nothing answers. */
  async freeze(): Promise<void> {
    const pid = Number((await readFile(path.join(this.dir, 'data', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const { stdout } = await run('pgrep', ['-P', String(pid)]).catch(() => ({ stdout: '' }));
    this.frozen = [pid, ...stdout.split('\n').filter(Boolean).map(Number)];
    for (const p of this.frozen) process.kill(p, 'SIGSTOP');
  }

  async thaw(): Promise<void> {
    for (const p of this.frozen) {
      try {
        process.kill(p, 'SIGCONT');
      } catch {
        // gone
      }
    }
    this.frozen = [];
  }
}
