// Runs the local Prisma CLI (node_modules/prisma) as a child process: used for
// `migrate deploy` at start-up and by scripts/prisma.ts. Works offline: see
// prisma.config.ts (JS schema engine through a driver adapter).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../paths.ts';

const require = createRequire(import.meta.url);
const prismaCli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
const preload = fileURLToPath(new URL('./prisma-cli-preload.cjs', import.meta.url));

export interface CliResult {
  code: number;
  output: string;
}

export function prismaCliEnv(databaseUrl: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHECKPOINT_DISABLE: '1', // no telemetry request (no network here)
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  };
  if (databaseUrl !== undefined) env.DATABASE_URL = databaseUrl;
  // A NODE_OPTIONS inherited from a test runner or tsx must not leak into the CLI.
  delete env.NODE_OPTIONS;
  return env;
}

export function prismaCliArgs(args: string[]): string[] {
  return ['--require', preload, prismaCli, ...args];
}

/** Runs `prisma <args>`, capturing its output (stdout and stderr interleaved). */
export function runPrismaCli(args: string[], databaseUrl?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, prismaCliArgs(args), {
      cwd: projectRoot,
      env: prismaCliEnv(databaseUrl),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
