// Helpers for the CLI tests: a real Herald server on a fresh database,
// listening on a free port, and the real bin (bin/herald.mjs) run as a child
// process with its own config file (HERALD_CONFIG) and no other Herald
// settings from the environment.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import type { Config } from '../../src/config.ts';
import { projectRoot } from '../../src/paths.ts';
import { openTestStore, tempDir, testConfig, type Teardown } from '../helpers/services.ts';

export const BIN = path.join(projectRoot, 'bin', 'herald.mjs');

export interface Server {
  app: FastifyInstance;
  url: string;
}

export async function startServer(t: Teardown, overrides: Partial<Config> = {}): Promise<Server> {
  const { store, databaseUrl } = await openTestStore(t);
  const app = await buildApp(testConfig({ databaseUrl, ...overrides }), { store });
  t.teardown(() => app.close());
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Cli {
  config: string;
  dir: string;
  /** Runs the bin to its end; `onStdout` sees the output so far as it grows (for watch). */
  run(args: string[], opts?: { input?: string; env?: Record<string, string>; onStdout?: (all: string) => void }): Promise<Run>;
}

/** A CLI with its own config file in a temporary folder (nothing from the real home). */
export async function cli(t: Teardown): Promise<Cli> {
  const dir = await tempDir(t, 'herald-cli-');
  const config = path.join(dir, 'config.json');
  return {
    config,
    dir,
    run(args, opts = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, ...args], {
          cwd: dir,
          env: { PATH: process.env.PATH, HOME: dir, HERALD_CONFIG: config, ...opts.env },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (s: string) => {
          stdout += s;
          opts.onStdout?.(stdout);
        });
        child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
        const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        });
        child.stdin.end(opts.input ?? '');
      });
    },
  };
}

/** The JSON a command printed with --json. */
export function json<T = Record<string, unknown>>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
}
