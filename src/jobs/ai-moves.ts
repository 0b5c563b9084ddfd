// The AI job (issue 20): makes the moves of the seats Herald's AI holds. Two
// triggers: the "your turn" message every commit publishes for the AI players
// (service/events.ts; from any instance, through Redis when there are several),
// and a sweep of the database on repeat.ts, once at start and then every few
// seconds, so a move that was due while every instance was down, or whose
// message was lost, is still made. Each game is worked on by one run at a time
// in this process (a trigger for a game in progress queues one more run after
// it), and a few games at once so the worker pool stays busy; games queue in
// the order they were triggered, and a game that just moved goes to the back,
// so one long AI-vs-AI game does not starve the others. Two instances may
// compute the same move: the write path's expectedVersion keeps one of them.
import { repeat, type ScheduledJob } from './repeat.ts';

export const AI_SWEEP_MS = 5_000;

export interface AiMovesOptions {
  /** One move of an AI seat of that game, if one is to act ('moved') or not ('idle'). */
  play: (gameId: string) => Promise<'moved' | 'idle'>;
  /** The games where an AI seat is to act now (the sweep). */
  pending: () => Promise<string[]>;
  /** Subscribes to the AI players' "your turn" messages; resolves to an unsubscribe, or null when there is nothing to subscribe to yet (asked again at each sweep). */
  subscribe: (onTurn: (gameId: string) => void) => Promise<(() => Promise<void>) | null>;
  /** Games worked on at once (default 2: one computing while another reads or commits). */
  concurrency?: number;
  intervalMs?: number;
  log: { warn(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

export interface AiMovesJob extends ScheduledJob {
  /** Asks for a run on that game (what a "your turn" message does). */
  poke(gameId: string): void;
  /** Games running or waiting now. */
  readonly busy: number;
}

export function startAiMoves(o: AiMovesOptions): AiMovesJob {
  const concurrency = Math.max(1, o.concurrency ?? 2);
  const running = new Map<string, Promise<void>>();
  // Insertion-ordered: the queue; a game already in it keeps its place.
  const waiting = new Set<string>();
  let stopped = false;

  const pump = (): void => {
    for (const id of waiting) {
      if (stopped || running.size >= concurrency) return;
      if (running.has(id)) continue;
      waiting.delete(id);
      running.set(id, run(id));
    }
  };
  const run = async (id: string): Promise<void> => {
    try {
      // The seat may be to act again (or the other AI seat): back in the queue, behind the others.
      if ((await o.play(id)) === 'moved') waiting.add(id);
    } catch (err) {
      // A full queue, a database hiccup, a closed pool at shutdown: the sweep tries again.
      if (!stopped) o.log.warn({ err, gameId: id }, 'an AI move failed; the AI sweep tries again');
    } finally {
      running.delete(id);
      pump();
    }
  };
  const poke = (id: string): void => {
    if (stopped) return;
    waiting.add(id);
    pump();
  };

  // Until the subscription is made (no AI player yet, or the bus failed), each sweep tries again.
  let unsubscribe: (() => Promise<void>) | null = null;
  const subscribe = async (): Promise<void> => {
    if (unsubscribe || stopped) return;
    try {
      unsubscribe = await o.subscribe(poke);
    } catch (err) {
      o.log.warn({ err }, 'the AI job could not subscribe to its turns; it relies on its sweep');
    }
  };
  const sweep = repeat(
    () =>
      subscribe().then(() => o.pending()).then(
        (ids) => {
          if (ids.length > 0) o.log.debug({ games: ids.length }, 'AI moves due');
          for (const id of ids) poke(id);
        },
        (err: unknown) => o.log.warn({ err }, 'the AI sweep failed; it runs again later'),
      ),
    o.intervalMs ?? AI_SWEEP_MS,
  );
  return {
    poke,
    get busy() {
      return running.size + waiting.size;
    },
    async stop() {
      stopped = true;
      waiting.clear();
      await sweep.stop();
      const u = unsubscribe;
      unsubscribe = null;
      await u?.();
      await Promise.all(running.values());
    },
  };
}
