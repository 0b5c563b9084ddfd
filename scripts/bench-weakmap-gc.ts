/**
 * Why Herald keeps nothing per version in a WeakMap (issue 18): V8's young-generation collector
 * (the scavenger) and a long-lived WeakMap whose keys are short-lived objects.
 *
 *   node --expose-gc --import tsx scripts/bench-weakmap-gc.ts [--trace-gc-nvp]
 *
 * Makes 300,000 short-lived keys (as a game row per version, or an SSE event object), each with a
 * value of about 1 kB (as a view), three ways: the value dropped with its key; the value in an old
 * WeakMap keyed by the key (what game-cache.ts and routes/events.ts did); the value in a
 * non-enumerable property of the key (what they do now). Prints the CPU time of each (this
 * process, so the GC's helper threads included) and the bytes the scavenges found alive.
 */
import { execFileSync } from 'node:child_process';

const N = 300_000;
const mode = process.argv[2];

if (mode === undefined) {
  // Each way in a fresh process, so that one's heap does not weigh on the next.
  for (const m of ['none', 'weakmap', 'property']) {
    const out = execFileSync(process.execPath, ['--expose-gc', '--trace-gc-nvp', '--import', 'tsx', process.argv[1]!, m], { encoding: 'utf8' });
    let survived = 0;
    let promoted = 0;
    let scavenges = 0;
    for (const line of out.split('\n')) {
      if (!/\bgc=s\b/.test(line)) continue;
      scavenges++;
      survived += Number(/new_space_survived=(\d+)/.exec(line)?.[1] ?? 0);
      promoted += Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0);
    }
    const cpu = /^cpu (\d+)/m.exec(out)?.[1];
    console.log(`${m.padEnd(8)}: ${cpu} ms CPU, ${scavenges} scavenges, ${(survived / 1e6).toFixed(1)} MB found alive by them, ${(promoted / 1e6).toFixed(1)} MB promoted`);
  }
} else {
  const views = new WeakMap<object, unknown>();
  const VIEW = Symbol('view');
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  let last: object | null = null;
  const t0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const key = { version: i };
    const value = { cells: new Array(100).fill(i), seat: { version: i } };
    if (mode === 'weakmap') views.set(key, value);
    else if (mode === 'property') Object.defineProperty(key, VIEW, { value });
    last = key;
  }
  const u = process.cpuUsage(t0);
  console.log(`cpu ${Math.round((u.user + u.system) / 1000)} ${last === null ? '' : 'ok'}`);
}
