// A bench-only preload that counts a server's calls into the game modules, its
// JSON.stringify calls (with, for one call in 50, the frame that made it) and
// its SHA-256 hashes, to compare the work Herald and the floor do per action.
// Herald never loads it: bench-service.ts passes it to both servers
// (`--import`) when BENCH_COUNT_DIR is set. On SIGUSR2 the counts since the
// last SIGUSR2 are written to <BENCH_COUNT_DIR>/<pid>.json (with a sequence
// number) and start again from zero: the bench signals at the start and at the
// end of the measured window. The wrappers cost time: read counts from such a
// run, never its timings.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { games } from '../src/games/index.ts';

const dir = process.env.BENCH_COUNT_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  let counts: Record<string, number> = {};
  const bump = (k: string): void => {
    counts[k] = (counts[k] ?? 0) + 1;
  };
  let depth = 0;
  for (const [id, m] of Object.entries(games)) {
    const o = m as unknown as Record<string, unknown>;
    for (const name of Object.keys(o)) {
      const f = o[name];
      if (typeof f !== 'function') continue;
      o[name] = function counted(this: unknown, ...args: unknown[]) {
        // Only calls from outside the module (a module calling its own exported function counts once).
        if (depth > 0) return (f as (...a: unknown[]) => unknown).apply(this, args);
        // view and legalActions by seat: a view or a list built for a seat nobody asked for shows here.
        bump(`${id}.${name}${name === 'view' || name === 'legalActions' ? `(${String(args[1])})` : ''}`);
        // The state's key order: a state parsed from jsonb (keys by length) against one the engine
        // built (keys as written) makes the engine's property accesses polymorphic.
        if ((name === 'apply' || name === 'view' || name === 'legalActions') && args[0] !== null && typeof args[0] === 'object') {
          bump(`state keys from "${Object.keys(args[0])[0]}"`);
        }
        depth++;
        try {
          return (f as (...a: unknown[]) => unknown).apply(this, args);
        } finally {
          depth--;
        }
      };
    }
  }
  const stringify = JSON.stringify;
  let stringified = 0;
  JSON.stringify = function countedStringify(this: unknown, ...args: Parameters<typeof JSON.stringify>) {
    const out = stringify.apply(this, args);
    bump('JSON.stringify');
    if (typeof out === 'string' && out.length >= 2000) bump('JSON.stringify ≥ 2,000 chars');
    // One call in 50: where it came from (the nearest frame outside this file and node:internal).
    if (++stringified % 50 === 0) {
      const at = (new Error().stack ?? '').split('\n').slice(2).find((l) => !l.includes('bench-count-calls') && !l.includes('node:internal'));
      bump(`JSON.stringify, 1 in 50, ${(at ?? '?').trim().replace(/(file:\/\/)?\/\S*?\/(src|scripts|node_modules)\//, '$2/')}`);
    }
    return out;
  } as typeof JSON.stringify;
  const createHash = crypto.createHash;
  (crypto as { createHash: typeof crypto.createHash }).createHash = function countedCreateHash(...args: Parameters<typeof crypto.createHash>) {
    bump(`createHash(${String(args[0])})`);
    return createHash(...args);
  } as typeof crypto.createHash;
  // `import { createHash } from 'node:crypto'` binds the export: have it follow the wrapper.
  syncBuiltinESMExports();
  const file = path.join(dir, `${process.pid}.json`);
  let seq = 0;
  process.on('SIGUSR2', () => {
    writeFileSync(file, stringify({ seq: ++seq, counts }));
    counts = {};
  });
}
