// The game types this server hosts, decided once at start-up: the games that
// need nothing (always playable) and the games whose numbers an owner types
// into a data file (src/games/index.ts, gamesNeedingData). A data game is
// playable when its setting names a file that reads, parses and validates and
// its rules load; otherwise it is listed as not playable with the reasons, and
// one log line says why. A bad file never stops the server.
import { readFileSync } from 'node:fs';
import type { GameModule } from '../engine/types.ts';
import type { GameTypeNeedingData } from '../games/index.ts';
import { errorMessage } from '../errors.ts';

/** Why a game type is not playable: one sentence, and where a problem in its data file lies. */
export interface UnavailableReason {
  message: string;
  /** The data file, when the problem is in (or with) it. */
  file: string | null;
  /** JSON pointer into the file ("" for the whole file), when the problem is in it. */
  path: string | null;
}

export interface DataGameStatus {
  id: string;
  title: string;
  /** The setting that names its data file. */
  setting: string;
  /** Empty when playable. */
  missing: UnavailableReason[];
  /** The data file says its numbers are made up (false when not playable). */
  invented: boolean;
}

export interface InstalledGames {
  /** The playable modules, by id. */
  modules: Record<string, GameModule>;
  /** Every game type that needs data, playable or not, in the registry's order. */
  dataGames: DataGameStatus[];
}

/** How many of a file's problems the start-up line quotes (the API lists them all). */
const LOGGED_PROBLEMS = 3;

function load(entry: GameTypeNeedingData, file: string | null | undefined): { module: GameModule; invented: boolean } | UnavailableReason[] {
  const why = (message: string, path: string | null = null): UnavailableReason[] => [{ message, file: file ?? null, path }];
  if (file === null || file === undefined) {
    return why(`${entry.setting} is not set: it names the data file an owner of the game types in (see ${entry.documentation})`);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return why(`${entry.setting} names ${file}, which does not exist`);
    if (code === 'EISDIR') return why(`${entry.setting} names ${file}, which is a directory, not a file`);
    return why(`${entry.setting} names ${file}, which cannot be read: ${errorMessage(err)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return why(`${file} is not JSON: ${errorMessage(err)}`, '');
  }
  const checked = entry.validate(json, file);
  if (!checked.ok) return checked.problems.map((p) => ({ message: p.message, file: p.file, path: p.path }));
  try {
    return { module: entry.create(checked.data), invented: entry.invented(checked.data) };
  } catch (err) {
    return why(`the rules of ${entry.title} could not be loaded with ${file}: ${errorMessage(err)}`);
  }
}

/**
 * The game types of this server: `always` plus each entry of `needingData`
 * whose data file (by setting, from `files`) is usable. Logs one warning line
 * per game type that is not playable.
 */
export function installGames(
  always: Record<string, GameModule>,
  needingData: readonly GameTypeNeedingData[],
  files: Readonly<Record<string, string | null>>,
  log: { warn(obj: object, msg: string): void },
): InstalledGames {
  const modules: Record<string, GameModule> = { ...always };
  const dataGames: DataGameStatus[] = [];
  for (const entry of needingData) {
    const loaded = load(entry, files[entry.setting]);
    const status = { id: entry.id, title: entry.title, setting: entry.setting };
    if (Array.isArray(loaded)) {
      dataGames.push({ ...status, missing: loaded, invented: false });
      const shown = loaded.slice(0, LOGGED_PROBLEMS).map((r) => (r.path ? `${r.path}: ${r.message}` : r.message));
      const more = loaded.length > LOGGED_PROBLEMS ? `; and ${loaded.length - LOGGED_PROBLEMS} more (GET /game-types lists them all)` : '';
      log.warn({ gameType: entry.id, setting: entry.setting, problems: loaded.length }, `game type ${entry.id} (${entry.title}) is not playable: ${shown.join('; ')}${more}`);
    } else {
      modules[entry.id] = loaded.module;
      dataGames.push({ ...status, missing: [], invented: loaded.invented });
    }
  }
  return { modules, dataGames };
}
