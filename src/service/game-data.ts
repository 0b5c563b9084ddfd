// Each game type's published facts (GameModule.data: map, blocks, cards,
// scenarios; plus `options`, the scenarios' option declarations) as JSON
// documents named by their content: a client that draws its own board fetches
// them once and caches them for ever, because a document's hash changes with
// its bytes. Built once per module and kept (the data never changes while the
// process runs).
import { createHash } from 'node:crypto';
import type { GameModule } from '../engine/types.ts';
import type { Ctx } from './context.ts';
import { findModule, unplayableGameType } from './context.ts';
import { ServiceError } from './errors.ts';

export interface GameDataFile {
  /** E.g. map (served as map.json). */
  name: string;
  /** The first 16 hex digits of the SHA-256 of `body` (64 bits: collisions between versions of one file are not a concern). */
  hash: string;
  /** UTF-8 length of `body`. */
  bytes: number;
  /** The JSON text, exactly as served. */
  body: string;
}

export interface GameDataSet {
  gameType: string;
  /** Hash over every file's name and hash: changes when any file does. */
  version: string;
  /** Sorted by name. */
  files: GameDataFile[];
}

/** The name of the document built from ScenarioInfo.options (a module's own data may not use it). */
export const OPTIONS_FILE = 'options';
/** File names are URL path segments: lower-case words. */
const NAME = /^[a-z][a-z0-9-]{0,39}$/;

const built = new WeakMap<GameModule, GameDataSet>();

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function build(m: GameModule): GameDataSet {
  const docs: Record<string, unknown> = { ...(m.data ?? {}) };
  if (Object.hasOwn(docs, OPTIONS_FILE)) throw new Error(`game ${m.id}: data may not be named "${OPTIONS_FILE}"`);
  docs[OPTIONS_FILE] = { gameType: m.id, scenarios: m.scenarios.map((s) => ({ id: s.id, name: s.name, options: s.options })) };
  const files = Object.keys(docs)
    .sort()
    .map((name) => {
      if (!NAME.test(name)) throw new Error(`game ${m.id}: data name "${name}" is not a lower-case word`);
      const body = JSON.stringify(docs[name]);
      return { name, hash: hashOf(body), bytes: Buffer.byteLength(body), body };
    });
  return { gameType: m.id, version: hashOf(files.map((f) => `${f.name}:${f.hash}`).join('\n')), files };
}

/** The data of that game type, or not_found. */
export function getGameData(ctx: Ctx, gameType: string): GameDataSet {
  const m = findModule(ctx, gameType);
  if (!m) {
    // A type that is listed but not playable (its data file is missing or invalid) says why.
    if (ctx.dataGames?.some((g) => g.id === gameType)) throw new ServiceError('not_found', unplayableGameType(ctx, gameType).message);
    throw new ServiceError('not_found', `No game type ${gameType}: this server hosts ${Object.keys(ctx.games).join(', ')}.`);
  }
  let set = built.get(m);
  if (!set) built.set(m, (set = build(m)));
  return set;
}

/**
 * One file by name and hash. A hash that is not the current one (a client
 * holding an index from before an upgrade) is not_found, with the current
 * hash in the detail: a versioned URL never answers with other bytes.
 */
export function getGameDataFile(ctx: Ctx, gameType: string, hash: string, name: string): GameDataFile {
  const set = getGameData(ctx, gameType);
  const file = set.files.find((f) => f.name === name);
  if (!file) throw new ServiceError('not_found', `Game type ${gameType} has no data file ${name}; it has ${set.files.map((f) => f.name).join(', ')}.`);
  if (file.hash !== hash) throw new ServiceError('not_found', `This server has no version ${hash} of ${gameType}'s ${name}; the current one is ${file.hash} (see the game type's data index).`);
  return file;
}
