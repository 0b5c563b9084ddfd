// `node scripts/generate-if-stale.mjs` (npm's prestart and pretest): generates
// the Prisma client only when src/generated/prisma is stale (prisma-stamp.mjs).
// The check runs on node alone: starting tsx just to compare a hash cost about
// half a second before every npm start and npm test.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isUpToDate } from './prisma-stamp.mjs';

if (isUpToDate()) {
  console.log('Prisma client is up to date (src/generated/prisma).');
} else {
  // The real generate (offline settings, then the stamp), as `npm run prisma -- generate`.
  const root = fileURLToPath(new URL('..', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/prisma.ts', 'generate'], { cwd: root, stdio: 'inherit' });
  child.on('error', (err) => {
    console.error(`prisma generate could not start: ${err.message}`);
    process.exit(1);
  });
  child.on('close', (code) => process.exit(code ?? 1));
}
