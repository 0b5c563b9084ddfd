// The AI pool's task protocol between the server and its worker threads (ai-pool.ts,
// ai-worker.ts): a request carries a task id, and the worker says when it starts
// computing it, so that the hard stop counts from the start of the computation, not
// from the time the task spent waiting in the queue or for a thread to load the games.
import { parentPort } from 'node:worker_threads';
import type { AiRequest } from '../ai/index.ts';

export type AiTask = AiRequest & { taskId?: number };

const STARTED = 'herald-ai-task-started';

/** In a worker, first thing in a task: tells the pool the computation starts now. */
export function announceStart(task: AiTask): void {
  if (typeof task.taskId === 'number') parentPort?.postMessage({ type: STARTED, taskId: task.taskId });
}

/** The task id of a worker's "started" message, else null (any other message). */
export function startedTask(message: unknown): number | null {
  const m = message as { type?: unknown; taskId?: unknown } | null;
  return m !== null && typeof m === 'object' && m.type === STARTED && typeof m.taskId === 'number' ? m.taskId : null;
}
