// `tsx scripts/prisma.ts <prisma args>` (or `npm run prisma -- <args>`): the
// Prisma CLI with this project's offline settings (see src/store/prisma-cli.ts).
// Commands that need no database still want DATABASE_URL set in Prisma 6.19:
// for those a placeholder is used when it is unset.
//
// A successful `generate` stamps src/generated/prisma (prisma-stamp.mjs);
// npm start and npm test generate only when the stamp is stale
// (generate-if-stale.mjs, on node alone).
import { spawn } from 'node:child_process';
import { projectRoot } from '../src/paths.ts';
import { prismaCliArgs, prismaCliEnv } from '../src/store/prisma-cli.ts';
import { writeStamp } from './prisma-stamp.mjs';

const args = process.argv.slice(2);

const offline = ['generate', 'validate', 'format'].includes(args[0] ?? '');
const url = process.env.DATABASE_URL || (offline ? 'postgresql://placeholder@localhost/placeholder' : undefined);
if (url === undefined && args.length > 0 && !args.includes('--help')) {
  // Without it Prisma 6.19 falls back to downloading an engine and fails obscurely.
  process.stderr.write(`prisma ${args.join(' ')}: set DATABASE_URL (the database it works on)\n`);
  process.exit(2);
}
const child = spawn(process.execPath, prismaCliArgs(args), { cwd: projectRoot, env: prismaCliEnv(url), stdio: 'inherit' });
child.on('close', (code) => {
  if (code === 0 && args[0] === 'generate') writeStamp();
  process.exit(code ?? 1);
});
