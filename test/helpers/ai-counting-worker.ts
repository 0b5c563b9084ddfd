// An AI worker for tests (ai-pool.ts `filename`): it counts the threads that loaded it
// (loads[0], a SharedArrayBuffer from workerData) and answers as the random level. So a
// test sees when the pool starts a thread, e.g. a warm pool's before any decision.
import { workerData } from 'node:worker_threads';
import { chooseRandom, type AiDecision } from '../../src/ai/index.ts';
import { announceStart, type AiTask } from '../../src/service/ai-task.ts';

const loads = new Int32Array((workerData as { loads: SharedArrayBuffer }).loads);
Atomics.add(loads, 0, 1);
Atomics.notify(loads, 0);

export default function decide(req: AiTask): AiDecision {
  announceStart(req);
  return chooseRandom(req);
}
