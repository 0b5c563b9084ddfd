// The worker thread of the AI pool (ai-pool.ts): one decision per task, off the
// server's event loop. It builds the game modules the way the server does (the
// registry plus the data files the server was given, through workerData) and
// hands the request (a seat's view and legal actions, nothing else) to src/ai.
import { workerData } from 'node:worker_threads';
import { chooseAction, type AiDecision, type AnyGameModule } from '../ai/index.ts';
import type { GameModule } from '../engine/types.ts';
import { games, gamesNeedingData } from '../games/index.ts';
import { installGames } from './installed-games.ts';
import { announceStart, type AiTask } from './ai-task.ts';

interface AiWorkerData {
  gameDataFiles?: Record<string, string | null>;
}

const data = (workerData ?? {}) as AiWorkerData;
// Once per thread: the server has already logged what is not playable.
const modules: Record<string, GameModule> = installGames(games, gamesNeedingData, data.gameDataFiles ?? {}, { warn: () => {} }).modules;

export default function decide(req: AiTask): AiDecision {
  announceStart(req);
  const m = Object.hasOwn(modules, req.gameType) ? modules[req.gameType] : undefined;
  if (!m) throw new Error(`game type ${req.gameType} is not installed in the AI worker`);
  return chooseAction(m as AnyGameModule, req);
}
