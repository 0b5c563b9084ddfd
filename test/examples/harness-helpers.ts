// Shared by the example-bot tests and the soak: a Herald app listening on a
// real port (fresh database), and the leak scan of a finished game read from
// the store.
import { rng as seeded } from '../../src/cli/bots.ts';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { whileProgressing } from '../helpers/streams.ts';
import { buildApp } from '../../src/http/app.ts';
import type { Config } from '../../src/config.ts';
import { scanGame, type Finding, type Received } from '../../examples/leak-scan/index.ts';

export async function listen(config: Config, deps: Parameters<typeof buildApp>[1] = {}): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const app = await buildApp(config, deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return { app, baseUrl: `http://127.0.0.1:${address.port}` };
}

/** A payload collector for one game. */
export function collector(): { received: Received[]; hook: (role: string, version: number, source: string, payload: unknown) => void } {
  const received: Received[] = [];
  return { received, hook: (role, version, source, payload) => received.push({ role, version, source, payload }) };
}

/** Scans what the seats received against the game's stored record (seed and log entries). */
export async function scanStored(app: FastifyInstance, gameId: string, received: Received[], modules: Readonly<Record<string, GameModule>> = gameModules): Promise<{ findings: Finding[]; scanned: number }> {
  const game = (await app.store.prisma.game.findUnique({ where: { id: gameId } }))!;
  const entries = await app.store.prisma.action.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
  return scanGame(
    { gameType: game.gameType, scenario: game.scenario, seed: game.seed, options: game.options as Record<string, unknown>, entries: entries.map((e) => ({ seq: e.seq, kind: e.kind, role: e.role, action: e.action })) },
    received,
    modules,
  );
}

import { playRestGame, type RestBotOptions } from '../../examples/rest-bot.ts';
import { games as gameModules } from '../../src/games/index.ts';
import type { GameModule } from '../../src/engine/types.ts';
import type { R3State } from '../../src/games/richard-iii/state.ts';
import type { R3View } from '../../src/games/richard-iii/view.ts';
import { LANGUAGES, translator, type Lang } from '../../src/render/messages.ts';
import { pictureLeaks } from '../helpers/picture-leaks.ts';
import { bwPictureLeaks } from '../helpers/bw-picture-leaks.ts';
import type { BWState } from '../../src/games/black-and-white/state.ts';
import type { BWPictureView } from '../../src/render/black-and-white.ts';

/**
 * Per game type with board pictures: what in an SVG of `role`'s picture (null: the spectator's) at
 * `state` that seat may not know. A game type with a renderer and no entry here has its pictures
 * drawn (a failure to draw is a failure) but not scanned.
 */
type PictureLeakRule = (svg: string, m: GameModule, state: unknown, role: string | null, lang: Lang) => string[];
export const PICTURE_LEAK_RULES: Readonly<Record<string, PictureLeakRule>> = {
  'richard-iii': (svg, m, state, role, lang) => pictureLeaks(svg, m.view(state, role) as R3View, state as R3State, translator('richard-iii', lang)),
  'black-and-white': (svg, m, state, role, lang) => bwPictureLeaks(svg, m.view(state, role) as BWPictureView, state as BWState, translator('black-and-white', lang)),
};

/**
 * Fog of war on board pictures of a finished game: the service draws the
 * SVG of each seat (as that seat's player) and of the spectator at the last
 * version and one in the middle; each is checked against the engine state and
 * the seat's view at that version (PICTURE_LEAK_RULES; Richard III's:
 * test/helpers/picture-leaks.ts, Black & White's: test/helpers/bw-picture-leaks.ts). The language changes from game to game. A
 * game type without pictures has none to scan.
 */
export async function scanPictures(app: FastifyInstance, gameId: string, n: number, modules: Readonly<Record<string, GameModule>> = gameModules): Promise<{ findings: Finding[]; pictures: number }> {
  const game = (await app.store.prisma.game.findUnique({ where: { id: gameId }, include: { seats: true } }))!;
  if (!app.gameService.hasBoardPictures(game.gameType)) return { findings: [], pictures: 0 };
  const entries = await app.store.prisma.action.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
  const m = modules[game.gameType]!;
  const rule = PICTURE_LEAK_RULES[game.gameType];
  const states: unknown[] = [null];
  let state: unknown = null;
  for (const e of entries) {
    if (e.kind === 'start') state = m.setup({ scenario: game.scenario, seed: game.seed, options: game.options as Record<string, unknown> });
    else if (e.kind === 'action') state = m.apply(state, e.role!, e.action);
    states[e.seq] = state;
  }
  for (let v = 1; v < states.length; v++) if (states[v] === undefined) states[v] = states[v - 1]!;
  const last = states.length - 1;
  const lang = LANGUAGES[n % LANGUAGES.length]!;
  const findings: Finding[] = [];
  let pictures = 0;
  for (const version of [...new Set([Math.max(3, Math.floor(last / 2)), last])]) {
    const st = states[version];
    if (!st) continue;
    for (const seat of [...game.seats.map((s) => ({ role: s.role as string | null, playerId: s.playerId })), { role: null, playerId: null }]) {
      const caller = seat.playerId ? { playerId: seat.playerId, keyId: 'leak-scan', kind: 'player' as const } : null;
      const pic = await app.gameService.getBoardPicture(caller, gameId, { format: 'svg', version, role: seat.role ?? 'spectator', lang });
      pictures++;
      for (const problem of rule?.(pic.body as string, m, st, seat.role, lang) ?? []) findings.push({ role: seat.role ?? 'spectator', version, source: `picture:${lang}`, problem });
    }
  }
  return { findings, pictures };
}

export interface ManyResult {
  games: number;
  payloads: number;
  /** Board pictures drawn and scanned (scanPictures). */
  pictures: number;
  findings: Finding[];
  actions: number;
  /** Games ended by a seat's resignation at `resignAfter` actions (playMany). */
  resigned: number;
}

/**
 * Plays `n` REST-bot games of `gameType` (default Richard III; at most `concurrency` at once, the
 * scenarios in turn, default the game type's first), each followed by its leak scan.
 */
export async function playMany(
  app: FastifyInstance,
  baseUrl: string,
  o: {
    n: number;
    concurrency: number;
    gameType?: string;
    games?: Readonly<Record<string, GameModule>>;
    scenarios?: string[];
    seedPrefix?: string;
    keys?: [string, string];
    onGame?: (r: ManyResult) => void;
    shouldStop?: () => boolean;
    /** The bots' choice of action (RestBotOptions.choose; default uniform). */
    choose?: RestBotOptions['choose'];
    /** Rule options of each game, by its number. */
    options?: (i: number) => Record<string, string | number | boolean>;
    /** Per game: after this many actions the seat to act resigns (RestBotOptions.resignAfter), counted in `resigned`. */
    resignAfter?: number;
  },
): Promise<ManyResult> {
  const total: ManyResult = { games: 0, payloads: 0, pictures: 0, findings: [], actions: 0, resigned: 0 };
  let next = 0;
  const worker = async () => {
    while (next < o.n && !o.shouldStop?.()) {
      const i = next++;
      const c = collector();
      const gameType = o.gameType ?? 'richard-iii';
      const modules = o.games ?? gameModules;
      const scenarios = o.scenarios ?? [modules[gameType]!.scenarios[0]!.id];
      const seed = `${o.seedPrefix ?? 'many'}-${i}`;
      // A silent stream fails the game within STALL_TIMEOUT_MS, not at the file's timeout.
      const r = await whileProgressing(`game ${seed}`, (progress) =>
        playRestGame({
          baseUrl, gameType, scenario: scenarios[i % scenarios.length]!, seed, keys: o.keys, onPayload: (...p) => (progress(), c.hook(...p)), random: seeded(i + 1),
          ...(o.choose ? { choose: o.choose } : {}), ...(o.options ? { options: o.options(i) } : {}), ...(o.resignAfter !== undefined ? { resignAfter: o.resignAfter } : {}),
        }),
      );
      const s = await scanStored(app, r.gameId, c.received, modules);
      if (r.status !== 'finished') throw new Error(`game ${r.gameId} ended ${r.status}`);
      const pics = await scanPictures(app, r.gameId, i, modules);
      total.pictures += pics.pictures;
      total.findings.push(...pics.findings.slice(0, 20));
      total.games++;
      if (r.resigned !== undefined) total.resigned++;
      total.actions += r.actions;
      total.payloads += s.scanned;
      total.findings.push(...s.findings.slice(0, 20));
      o.onGame?.(total);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  return total;
}

/** A seeded random in [0, 1) (the CLI bots' xorshift32), so failing games can be replayed. */
export { seeded };

/**
 * One shard of CI's leak scan of a game type (default Richard III): complete games of its scenarios in turn, played by the REST
 * bot on a real port (both seats, SSE, random legal actions), every payload
 * each seat received scanned against the engine's view for that seat at that
 * version; zero findings. Two shards (two test files, so tap runs them side by
 * side) of LEAK_SCAN_GAMES/2 games each (default 120 in all: about 20,000
 * actions and 70,000 payloads). A game costs about 1 CPU-second (server, bot
 * and scan; a Wars of the Roses game three times a Kingmaker one); no new game
 * starts after LEAK_SCAN_SECONDS (default 240), so that on a slow machine the
 * two shards do not hold CI's two slots for long (they took 440 s and 360 s
 * for 200 games on a loaded one); the number played is printed. `npm run
 * soak` plays thousands.
 */
export async function leakScanShard(t: Test, shard: number, gameType = 'richard-iii'): Promise<void> {
  const games = Math.ceil(Number(process.env.LEAK_SCAN_GAMES ?? 120) / 2);
  const seconds = Number(process.env.LEAK_SCAN_SECONDS ?? 240);
  const { store, databaseUrl } = await openTestStore(t);
  const { app, baseUrl } = await listen(testConfig({ databaseUrl }), { store });
  t.teardown(() => app.close());
  const stopAt = Date.now() + seconds * 1000;
  const m = gameModules[gameType]!;
  const pictures = app.gameService.hasBoardPictures(gameType);
  const r = await playMany(app, baseUrl, { n: games, concurrency: 6, gameType, scenarios: m.scenarios.map((s) => s.id), seedPrefix: gameType === 'richard-iii' ? `ci-leak-${shard}` : `ci-leak-${gameType}-${shard}`, shouldStop: () => Date.now() > stopAt });
  t.ok(r.games >= Math.min(games, 4), `${r.games} games played to the end`);
  t.ok(r.payloads > r.games * 50, `${r.payloads} payloads scanned`);
  if (pictures) t.ok(r.pictures >= r.games * 3, `${r.pictures} board pictures scanned`);
  t.same(r.findings, [], 'no finding');
  t.comment(`leak scan shard ${shard} (${gameType}): ${r.games} of ${games} games, ${r.actions} actions, ${r.payloads} payloads and ${r.pictures} pictures scanned, ${r.findings.length} findings`);
}
