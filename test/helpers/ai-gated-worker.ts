// An AI worker for tests (ai-pool.ts `filename`): it announces the task's start as
// ai-worker.ts does (the pool's hard stop counts from there), says that it started a
// decision (gate[1] = 1), then blocks its thread until the test opens the gate
// (gate[0] = 1), then answers as the random level. So a test can hold the pool busy for
// as long as it likes and check what the server does meanwhile — or, with a gate left
// closed and a tiny time cap, that the pool stops the thread and the game goes on.
import { workerData } from 'node:worker_threads';
import { chooseRandom, type AiDecision } from '../../src/ai/index.ts';
import { announceStart, type AiTask } from '../../src/service/ai-task.ts';

const gate = new Int32Array((workerData as { gate: SharedArrayBuffer }).gate);

export default function decide(req: AiTask): AiDecision {
  announceStart(req);
  Atomics.store(gate, 1, 1);
  Atomics.notify(gate, 1);
  Atomics.wait(gate, 0, 0);
  return chooseRandom(req);
}
