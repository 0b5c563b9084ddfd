// The worker threads the computer players think in (issue 20): a piscina pool,
// so a search never runs on the server's event loop and a busy server slows AI
// moves, never human ones. Threads start on first use and stop when idle; the
// queue is bounded (a full queue refuses the task: the AI job tries that game
// again on its next sweep).
//
// Workers run the same TypeScript sources as the server. Where Node strips types
// itself (process.features.typescript: Node 22.18+, 24) a worker starts without
// the parent's module loaders: tap's TypeScript loader took 11.4 s to start a
// worker (it compiles the games again in each new thread), Node's own stripping
// 0.9 s, tsx's 1.3 s. Elsewhere the worker inherits the parent's loaders (tsx).
import { Piscina } from 'piscina';
import type { AiDecision, AiRequest } from '../ai/index.ts';

export interface AiPoolOptions {
  /** Worker threads (HERALD_AI_WORKERS). */
  workers: number;
  /** Decisions waiting for a thread at most (HERALD_AI_QUEUE); beyond it a task is refused. */
  queue: number;
  /** Wall-clock cap per decision in ms (HERALD_AI_TIME_CAP_MS), passed to the search (a level's budget usually ends it first). */
  timeCapMs: number;
  /** The data files of the game types that need one, as the server was given them (Config.gameDataFiles). */
  gameDataFiles?: Record<string, string | null>;
  /** Another worker module (tests: one that waits for a signal); default ai-worker.ts. */
  filename?: string;
  /** Extra workerData for such a worker. */
  workerData?: Record<string, unknown>;
}

export interface AiPool {
  /** The decision for one request, computed on a worker thread. Rejects with AiPoolFull when the queue is full. */
  choose(req: AiRequest): Promise<AiDecision>;
  /** Tasks running or queued now. */
  readonly pending: number;
  /** Decisions made since the start. */
  readonly completed: number;
  /** Stops the threads (a task in progress is abandoned: its game is picked up again after the restart). */
  close(): Promise<void>;
}

export class AiPoolFull extends Error {
  constructor() {
    super('the AI queue is full');
    this.name = 'AiPoolFull';
  }
}

export const DEFAULT_AI_WORKERS = 1;
export const DEFAULT_AI_QUEUE = 64;
export const DEFAULT_AI_TIME_CAP_MS = 10_000;

/** The parent's execArgv without its module loaders (--import, --require, --loader and their values). */
export function withoutLoaders(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (/^--(import|require|loader|experimental-loader)$/.test(a) || a === '-r') i++;
    else if (!/^--(import|require|loader|experimental-loader)=/.test(a)) out.push(a);
  }
  return out;
}

const nativeTypeScript = Boolean((process.features as { typescript?: unknown }).typescript);

export function createAiPool(o: AiPoolOptions): AiPool {
  const pool = new Piscina<AiRequest, AiDecision>({
    ...(nativeTypeScript ? { execArgv: withoutLoaders(process.execArgv) } : {}),
    filename: o.filename ?? new URL('./ai-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: o.workers,
    maxQueue: o.queue,
    // A thread that had nothing to do for a minute is stopped (loading the games again costs about a second).
    idleTimeout: 60_000,
    workerData: { gameDataFiles: o.gameDataFiles ?? {}, ...o.workerData },
  });
  let pending = 0;
  let closed = false;
  return {
    async choose(req) {
      if (closed) throw new Error('the AI pool is closed');
      if (pool.queueSize >= o.queue) throw new AiPoolFull();
      pending++;
      try {
        return await pool.run({ ...req, timeCapMs: o.timeCapMs });
      } catch (err) {
        if (err instanceof Error && /queue is at limit/i.test(err.message)) throw new AiPoolFull();
        throw err;
      } finally {
        pending--;
      }
    },
    get pending() {
      return pending;
    },
    get completed() {
      return pool.completed;
    },
    async close() {
      closed = true;
      await pool.destroy();
    },
  };
}
