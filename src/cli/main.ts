/** Entry of the herald command-line client: bin/herald.mjs loads it through tsx. */
import { run } from './run.ts';

process.exitCode = await run(process.argv.slice(2));
