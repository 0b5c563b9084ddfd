// The worker threads the computer players think in (issue 20): a piscina pool,
// so a search never runs on the server's event loop and a busy server slows AI
// moves, never human ones. Threads start on first use and stop when idle (with
// `warm`, as the server has it, one starts with the pool and stays); the
// queue is bounded (a full queue refuses the task: the AI job tries that game
// again on its next sweep).
//
// Workers run the same TypeScript sources as the server. Where Node strips types
// itself (process.features.typescript: Node 22.18+, 24) a worker starts without
// the parent's module loaders: tap's TypeScript loader took 11.4 s to start a
// worker (it compiles the games again in each new thread), Node's own stripping
// 0.9 s, tsx's 1.3 s. Elsewhere the worker inherits the parent's loaders (tsx).
//
// The time cap (HERALD_AI_TIME_CAP_MS) is checked by the search itself between its
// iterations: cooperative. A decision still running at cap + grace (one iteration that
// never ends: a module's sampleState or evaluate stuck in a loop, a thread starved) is
// stopped hard: piscina's AbortSignal terminates its thread, and the seat plays a random
// legal action instead, so the game never stalls on the AI. The grace counts from the
// moment the worker starts computing (ai-task.ts), never from time spent in the queue.
import { Piscina } from 'piscina';
import { chooseRandom, type AiDecision, type AiRequest } from '../ai/index.ts';
import { startedTask, type AiTask } from './ai-task.ts';

export interface AiPoolOptions {
  /** Worker threads (HERALD_AI_WORKERS). */
  workers: number;
  /** Decisions waiting for a thread at most (HERALD_AI_QUEUE); beyond it a task is refused. */
  queue: number;
  /** Wall-clock cap per decision in ms (HERALD_AI_TIME_CAP_MS), passed to the search (a level's budget usually ends it first). */
  timeCapMs: number;
  /** The data files of the game types that need one, as the server was given them (Config.gameDataFiles). */
  gameDataFiles?: Record<string, string | null>;
  /** After the cap, how long a decision may still run before its thread is stopped; default half the cap, 0.5–5 s. */
  hardStopGraceMs?: number;
  /**
   * Keep one thread (never stopped when idle; a thread stopped hard is replaced at once),
   * started by warm() or the first decision, so the first AI move does not pay a thread's
   * start (about a second loading the games, charged to the AI's clock). Off: threads start
   * on first use and stop after a minute without work.
   */
  warm?: boolean;
  /** Another worker module (tests: one that waits for a signal); default ai-worker.ts. */
  filename?: string;
  /** Extra workerData for such a worker. */
  workerData?: Record<string, unknown>;
}

/** A decision of the pool: `hardStopped` when the search overran cap + grace and a random legal action was played instead. */
export type PoolDecision = AiDecision & { hardStopped?: boolean };

export interface AiPool {
  /**
   * The decision for one request, computed on a worker thread. Rejects with AiPoolFull when
   * the queue is full. A computation still running at cap + grace is stopped (its thread
   * terminated) and answered with a random legal action (`hardStopped`).
   */
  choose(req: AiRequest): Promise<PoolDecision>;
  /** Tasks running or queued now. */
  readonly pending: number;
  /** Decisions made since the start. */
  readonly completed: number;
  /** Decisions stopped hard since the start. */
  readonly hardStops: number;
  /**
   * With `warm`: starts the kept thread now (the server calls it once it listens, so loading
   * the games on that thread does not delay its readiness). Without: nothing.
   */
  warm(): void;
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

/** The grace after the cap before a decision is stopped hard: half the cap, at least 0.5 s, at most 5 s. */
export function hardStopGrace(timeCapMs: number): number {
  return Math.min(5_000, Math.max(500, Math.round(timeCapMs / 2)));
}

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
  let pending = 0;
  let closed = false;
  let hardStops = 0;
  let nextTask = 0;
  const grace = o.hardStopGraceMs ?? hardStopGrace(o.timeCapMs);
  // Task id → arms that task's hard stop (called when its worker says it starts computing).
  const arm = new Map<number, () => void>();
  // Made on first use (warm() or a decision); a warm pool's thread starts with it.
  let made: Piscina<AiTask, AiDecision> | null = null;
  function piscina(): Piscina<AiTask, AiDecision> {
    if (made) return made;
    const pool = new Piscina<AiTask, AiDecision>({
      ...(nativeTypeScript ? { execArgv: withoutLoaders(process.execArgv) } : {}),
      filename: o.filename ?? new URL('./ai-worker.ts', import.meta.url).href,
      // Warm: one thread starts with the pool (loading the games on its own thread, not the server's) and stays.
      minThreads: o.warm ? 1 : 0,
      maxThreads: o.workers,
      maxQueue: o.queue,
      // A thread that had nothing to do for a minute is stopped (loading the games again costs about a second).
      idleTimeout: 60_000,
      workerData: { gameDataFiles: o.gameDataFiles ?? {}, ...o.workerData },
    });
    // A thread that fails with no task in hand (the warm one can) is an 'error' on the pool: with
    // no listener it would take the server down. Piscina replaces the thread; say so on stderr.
    pool.on('error', (err: unknown) => process.emitWarning(`an AI worker thread failed outside a decision: ${err instanceof Error ? err.message : String(err)}`));
    pool.on('message', (message: unknown) => {
      const id = startedTask(message);
      if (id !== null) arm.get(id)?.();
    });
    made = pool;
    return pool;
  }
  return {
    async choose(req) {
      if (closed) throw new Error('the AI pool is closed');
      const pool = piscina();
      if (pool.queueSize >= o.queue) throw new AiPoolFull();
      pending++;
      const taskId = ++nextTask;
      const abort = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      if (o.timeCapMs > 0) {
        arm.set(taskId, () => {
          arm.delete(taskId);
          timer = setTimeout(() => abort.abort(new Error(`the AI decision overran its time cap (${o.timeCapMs} ms + ${grace} ms)`)), o.timeCapMs + grace);
        });
      }
      try {
        const task: AiTask = { ...req, timeCapMs: o.timeCapMs, taskId };
        return await pool.run(task, { signal: abort.signal });
      } catch (err) {
        // Stopped hard (its thread is gone; piscina starts another for the next task): a legal action, at once.
        if (abort.signal.aborted && !closed) {
          hardStops++;
          return { ...chooseRandom(req), cappedByTime: true, hardStopped: true };
        }
        if (err instanceof Error && /queue is at limit/i.test(err.message)) throw new AiPoolFull();
        throw err;
      } finally {
        clearTimeout(timer);
        arm.delete(taskId);
        pending--;
      }
    },
    get pending() {
      return pending;
    },
    get completed() {
      return made?.completed ?? 0;
    },
    get hardStops() {
      return hardStops;
    },
    warm() {
      if (o.warm && !closed) piscina();
    },
    async close() {
      closed = true;
      await made?.destroy();
    },
  };
}
