/** Entry of the herald command-line client: bin/herald.mjs loads it through tsx. */
import { run } from './run.ts';

// `herald games list | head`: a reader that stops early is no error of ours.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

process.exitCode = await run(process.argv.slice(2));
