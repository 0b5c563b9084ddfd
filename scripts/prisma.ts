// `tsx scripts/prisma.ts <prisma args>` (or `npm run prisma -- <args>`): the
// Prisma CLI with this project's offline settings (see src/store/prisma-cli.ts).
// Commands that need no database still want DATABASE_URL set in Prisma 6.19:
// for those a placeholder is used when it is unset.
//
// `generate --if-stale` (npm start / npm test) skips generation when
// src/generated/prisma was generated from the same schema by the same Prisma.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../src/paths.ts';
import { prismaCliArgs, prismaCliEnv } from '../src/store/prisma-cli.ts';

const GENERATED = path.join(projectRoot, 'src', 'generated', 'prisma');
const STAMP = path.join(GENERATED, '.schema-stamp');

function schemaStamp(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(projectRoot, 'prisma', 'schema.prisma')));
  hash.update(readFileSync(path.join(projectRoot, 'package-lock.json')));
  return hash.digest('hex');
}

function readStamp(): string | null {
  try {
    return readFileSync(STAMP, 'utf8').trim();
  } catch {
    return null;
  }
}

let args = process.argv.slice(2);
const ifStale = args[0] === 'generate' && args.includes('--if-stale');
args = args.filter((a) => a !== '--if-stale');
if (ifStale && readStamp() === schemaStamp()) {
  console.log('Prisma client is up to date (src/generated/prisma).');
  process.exit(0);
}

const offline = ['generate', 'validate', 'format'].includes(args[0] ?? '');
const url = process.env.DATABASE_URL || (offline ? 'postgresql://placeholder@localhost/placeholder' : undefined);
if (url === undefined && args.length > 0 && !args.includes('--help')) {
  // Without it Prisma 6.19 falls back to downloading an engine and fails obscurely.
  process.stderr.write(`prisma ${args.join(' ')}: set DATABASE_URL (the database it works on)\n`);
  process.exit(2);
}
const child = spawn(process.execPath, prismaCliArgs(args), { cwd: projectRoot, env: prismaCliEnv(url), stdio: 'inherit' });
child.on('close', (code) => {
  if (code === 0 && args[0] === 'generate') writeFileSync(STAMP, `${schemaStamp()}\n`);
  process.exit(code ?? 1);
});
