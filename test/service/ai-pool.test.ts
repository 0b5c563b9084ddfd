// The AI pool's hard stop (issue 20): the search checks its time cap itself, between
// iterations; a decision still running at cap + grace (here: a worker blocked on a gate
// that never opens, standing for an iteration that never ends) has its thread
// terminated and is answered with a random legal action, so a game never stalls on the
// AI. The next decision runs on a fresh thread. Worker threads, no database.
import t from 'tap';
import { createAiPool, hardStopGrace } from '../../src/service/ai-pool.ts';
import type { AiRequest } from '../../src/ai/index.ts';

const gated = new URL('../helpers/ai-gated-worker.ts', import.meta.url).href;
const legalActions = [{ type: 'a' }, { type: 'b' }, { type: 'c' }];
const isLegal = (a: unknown) => legalActions.some((l) => l.type === (a as { type?: unknown }).type);
const req = (seed: string): AiRequest => ({ gameType: 'richard-iii', role: 'York', view: {}, legalActions, level: 'random', seed });

t.test('the grace after the cap: half the cap, within 0.5–5 s', async (t) => {
  t.equal(hardStopGrace(10_000), 5_000);
  t.equal(hardStopGrace(4_000), 2_000);
  t.equal(hardStopGrace(50), 500);
  t.equal(hardStopGrace(60_000), 5_000);
});

t.test('a decision overrunning cap + grace is stopped: a legal action at once, then a fresh thread decides normally', async (t) => {
  const gate = new SharedArrayBuffer(8);
  const flags = new Int32Array(gate);
  const pool = createAiPool({ workers: 1, queue: 4, timeCapMs: 20, hardStopGraceMs: 30, filename: gated, workerData: { gate } });
  t.teardown(() => pool.close());
  // Thread start-up (loading the worker) does not count: the grace runs from the task's start.
  const stopped = await pool.choose(req('one'));
  t.equal(Atomics.load(flags, 1), 1, 'the worker was inside the decision');
  t.equal(Atomics.load(flags, 0), 0, 'and its gate never opened');
  t.equal(stopped.hardStopped, true, 'stopped hard');
  t.equal(stopped.cappedByTime, true);
  t.ok(isLegal(stopped.action), 'one of the legal actions');
  t.equal(pool.hardStops, 1);
  // The gate opens: the next decision, on a new thread, is the worker's own.
  Atomics.store(flags, 0, 1);
  Atomics.notify(flags, 0);
  const normal = await pool.choose(req('two'));
  t.notOk(normal.hardStopped, 'decided by the worker');
  t.ok(isLegal(normal.action), 'a legal action (through the thread boundary: a copy)');
  t.equal(pool.hardStops, 1);
  t.equal(pool.pending, 0);
});

t.test('time spent waiting in the queue does not count: two decisions on one thread, each within its own cap', async (t) => {
  const gate = new SharedArrayBuffer(8);
  const flags = new Int32Array(gate);
  Atomics.store(flags, 0, 1); // open: each decision answers at once
  const pool = createAiPool({ workers: 1, queue: 4, timeCapMs: 20, hardStopGraceMs: 30, filename: gated, workerData: { gate } });
  t.teardown(() => pool.close());
  // The first waits for the thread to load (far longer than 50 ms), the second for the first as well.
  const [a, b] = await Promise.all([pool.choose(req('a')), pool.choose(req('b'))]);
  t.notOk(a.hardStopped);
  t.notOk(b.hardStopped);
  t.equal(pool.hardStops, 0);
});
