// A warm AI pool (the server's: loadConfig sets ai.warm) starts one worker thread once the
// server listens (pool.warm()), before any decision, so the first AI move does not pay a thread's start (about a
// second loading the games, on the AI's clock: a probe saw the AI lose on a 1 s clock before
// its first move). The thread is kept: decisions use it, and none is started for them.
// Before, threads started on first use only.
import t from 'tap';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { createAiPool } from '../../src/service/ai-pool.ts';
import type { AiRequest } from '../../src/ai/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';

const counting = new URL('../helpers/ai-counting-worker.ts', import.meta.url).href;
const legalActions = [{ type: 'a' }, { type: 'b' }];
const req = (seed: string): AiRequest => ({ gameType: 'richard-iii', role: 'York', view: {}, legalActions, level: 'random', seed });

/** Waits (at most 20 s) until some thread has loaded the worker; the number of loads. */
function firstLoad(loads: SharedArrayBuffer): number {
  const n = new Int32Array(loads);
  Atomics.wait(n, 0, 0, 20_000);
  return Atomics.load(n, 0);
}

t.test('a warm pool starts a thread before any decision, and decides on it', async (t) => {
  const loads = new SharedArrayBuffer(4);
  const pool = createAiPool({ workers: 2, queue: 4, timeCapMs: 5_000, warm: true, filename: counting, workerData: { loads } });
  t.teardown(() => pool.close());
  pool.warm();
  t.equal(firstLoad(loads), 1, 'one thread loaded, no decision asked');
  const d = await pool.choose(req('one'));
  t.ok(legalActions.some((a) => a.type === (d.action as { type: string }).type));
  t.equal(Atomics.load(new Int32Array(loads), 0), 1, 'the decision ran on the warm thread');
});

t.test('the server warms its pool: loadConfig sets ai.warm and the app starts a thread at once', async (t) => {
  t.equal(loadConfig({}, '/srv').ai?.warm, true);
  const { store, databaseUrl } = await openTestStore(t);
  const loads = new SharedArrayBuffer(4);
  const app = await buildApp(testConfig({ databaseUrl, jobs: true, ai: { workers: 1, queue: 4, timeCapMs: 5_000, warm: true } }), {
    store, aiWorker: { filename: counting, workerData: { loads } },
  });
  t.teardown(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.equal(firstLoad(loads), 1, 'a thread loaded once the server listens, before any AI game');
});
