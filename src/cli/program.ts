/**
 * The herald command line: every command, its options and help, built with
 * commander. Each command talks to a Herald server over HTTP only (api.ts);
 * failures are CliErrors whose exit codes are listed in the help's epilog.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import cliProgress from 'cli-progress';
import { DEFAULT_TIMEOUT_S, gamePath, HeraldClient, type ActionResult, type CreatedPlayer, type GameLog, type GameRecord, type GameSummary, type LegalActions } from './api.ts';
import { boardText, namesFrom, type R3ViewLike } from './board-text.ts';
import { checkScenario, defaultScenario, gameType, gameTypes } from './game-types.ts';
import { runBots, summaryText } from './bots.ts';
import { checkKey, configPath, maskKey, normaliseServer, readConfig, resolveConnection, writeConfig, type Connection } from './config.ts';
import { CliError, EXIT, fileError, usageError } from './errors.ts';
import { gamesTable, gameText } from './format.ts';
import { pickFromTree } from './play.ts';
import { asker } from './prompt.ts';
import { watchGame } from './watch.ts';

export interface Io {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export const EXIT_CODES_HELP = `
Exit codes:
  0  done
  1  usage error: unknown command or option, bad argument, a local file that
     cannot be read or written
  2  the server refused (4xx): its problem's title, detail and code are printed
  3  cannot reach the server, no answer within the timeout, or it failed
     (5xx) or answered something this client cannot read, or an unexpected
     error; a change with no answer in time may have been applied: check first
  4  nothing to do: not your turn (also a refused move with code not_your_turn),
     or the game is over

Environment:
  HERALD_URL     server URL (instead of the config file's; --server wins)
  HERALD_KEY     API key (instead of the config file's; --key wins)
  HERALD_CONFIG  the config file (default $XDG_CONFIG_HOME/herald/config.json
                 or ~/.config/herald/config.json)
  HERALD_TIMEOUT seconds to wait for each answer (default ${DEFAULT_TIMEOUT_S}; 0: no limit;
                 --timeout wins); no answer in time is exit 3
  HERALD_DEBUG   1: print the stack of an exit 3 this client did not expect`;

const MAX_TIMEOUT_S = 86_400;

/** Seconds to wait for each answer: --timeout, else HERALD_TIMEOUT, else the default (api.ts). */
function timeoutSeconds(option: number | undefined, env: NodeJS.ProcessEnv): number {
  if (option !== undefined) return option;
  const raw = env.HERALD_TIMEOUT;
  if (raw === undefined || raw === '') return DEFAULT_TIMEOUT_S;
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_TIMEOUT_S) throw usageError(`HERALD_TIMEOUT must be a whole number of seconds from 0 to ${MAX_TIMEOUT_S}, not "${raw.slice(0, 50)}"`);
  return Number(raw);
}

function int(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`${name} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}.`);
    return n;
  };
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `role=level` pairs of --ai: the seats Herald's AI takes (the server checks the roles and levels). */
function aiSeats(pairs: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) throw usageError(`--ai wants role=level (e.g. Lancaster=random), not "${pair}"`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** `name=value` options of a new game: numbers and booleans as such, else strings. */
function gameOptions(pairs: string[] = []): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usageError(`--option wants name=value, not "${pair}"`);
    const raw = pair.slice(eq + 1);
    out[pair.slice(0, eq)] = raw === 'true' ? true : raw === 'false' ? false : /^-?\d+$/.test(raw) ? Number(raw) : raw;
  }
  return out;
}

/**
 * The log lines an action wrote, worded as GET /games/{id}/log words them (in
 * the chosen language): the answer's view says from which line on (`logFrom`).
 */
async function linesOfMove(client: HeraldClient, id: string, res: ActionResult, opts: { lang?: string; role?: string }): Promise<string[]> {
  const from = res.view?.logFrom;
  if (typeof from !== 'number') return res.view?.log ?? [];
  const log = await client.get<GameLog>(gamePath(id, '/log'), { lang: opts.lang, role: opts.role ?? res.role });
  return log.lines.slice(from);
}

/** Writes a file the user named: a failure is theirs to fix (exit 1, one line), not the server's. */
function writeLocal(file: string, data: string | Uint8Array): void {
  try {
    writeFileSync(file, data);
  } catch (err) {
    throw fileError('write', file, err);
  }
}

export function buildProgram(io: Io): Command {
  const print = (text: string): void => void io.stdout.write(`${text}\n`);
  const printJson = (value: unknown): void => void io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  const file = () => configPath(io.env);

  const connection = (cmd: Command): Connection => {
    const opts = cmd.optsWithGlobals<{ server?: string; key?: string }>();
    return resolveConnection(opts, io.env, readConfig(file()), file());
  };
  const clientOf = (cmd: Command, needKey = true): HeraldClient => {
    const c = connection(cmd);
    if (needKey && !c.key) throw usageError('no API key: run `herald signup <name>`, `herald config set key <key>`, or pass --key / HERALD_KEY');
    return new HeraldClient(c.server, c.key);
  };

  const program = new Command('herald')
    .description('Command-line client of a Herald game server: sign up, play, watch, export, and run bot games.')
    .version(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version as string)
    .option('--server <url>', 'server URL (default: HERALD_URL, the config file, else http://localhost:3000)')
    .option('--key <key>', 'API key (default: HERALD_KEY, else the config file)')
    .option('--timeout <seconds>', `seconds to wait for each answer, 0 for no limit (default: HERALD_TIMEOUT, else ${DEFAULT_TIMEOUT_S})`, int('--timeout', 0, MAX_TIMEOUT_S))
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError()
    .addHelpText('after', EXIT_CODES_HELP)
    .hook('preAction', (_program, action) => {
      HeraldClient.timeoutMs = timeoutSeconds(action.optsWithGlobals<{ timeout?: number }>().timeout, io.env) * 1000;
    });

  // config ---------------------------------------------------------------------------------
  const config = program.command('config').description('Show or change the stored server URL and API key.');
  config
    .command('set')
    .description(`Store a setting in the config file (mode 0600).`)
    .addArgument(new Argument('<name>', 'setting').choices(['server', 'key']))
    .argument('<value>', 'its value')
    .action((name: 'server' | 'key', value: string) => {
      const current = readConfig(file());
      const next = { ...current, [name]: name === 'server' ? normaliseServer(value) : checkKey(value, 'given') };
      writeConfig(file(), next);
      print(`${name} saved to ${file()}`);
    });
  config
    .command('show')
    .description('Print the settings in use and where each comes from (the key abridged).')
    .option('--json', 'machine-readable output')
    .action((opts: { json?: boolean }, cmd: Command) => {
      const c = connection(cmd);
      const shown = { file: file(), server: c.server, serverFrom: c.serverFrom, key: maskKey(c.key ?? undefined), keyFrom: c.keyFrom };
      if (opts.json) return printJson(shown);
      print(`config file: ${shown.file}`);
      print(`server:      ${shown.server} (${shown.serverFrom})`);
      print(`key:         ${shown.key ? `${shown.key} (${shown.keyFrom})` : '(none)'}`);
    });

  // signup ---------------------------------------------------------------------------------
  program
    .command('signup')
    .description('Create a player on the server; its API key is shown once and stored in the config file.')
    .argument('<name>', "the player's name")
    .option('--bot', 'mark the player as a bot')
    .option('--no-save', 'do not store the key (print it only)')
    .option('--json', 'machine-readable output')
    .action(async (name: string, opts: { bot?: boolean; save: boolean; json?: boolean }, cmd: Command) => {
      const c = connection(cmd);
      const made = await new HeraldClient(c.server, null).post<CreatedPlayer>('/players', { name, isBot: Boolean(opts.bot) });
      if (opts.save) {
        // A key belongs to one server: store the server it was made on with it.
        writeConfig(file(), { ...readConfig(file()), server: c.server, key: made.key.key });
      }
      if (opts.json) return printJson({ player: made.player, key: made.key.key, saved: opts.save ? file() : null });
      print(`Signed up ${made.player.name} (player ${made.player.id}) on ${c.server}.`);
      print(`API key (shown once): ${made.key.key}`);
      if (opts.save) print(`Saved to ${file()}.`);
    });

  // game types -----------------------------------------------------------------------------
  program
    .command('game-types')
    .description('The game types the server hosts: their seats and scenarios.')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const types = await gameTypes(clientOf(cmd, false));
      if (opts.json) return printJson(types);
      for (const g of types) {
        print(`${g.id}: ${g.title} (seats: ${g.roles.join(', ')}${g.aiLevels?.length ? `; AI levels: ${g.aiLevels.join(', ')}` : ''})`);
        for (const sc of g.scenarios) print(`  ${sc.id}: ${sc.name}`);
      }
    });

  // games ----------------------------------------------------------------------------------
  const games = program.command('games').description('List, create, join and show games.');
  games
    .command('list')
    .description('Games you may see, newest first (public ones and yours).')
    .option('--mine', 'only games where you hold a seat')
    .option('--my-turn', 'only games where you may act now')
    .addOption(new Option('--status <status>', 'only games in this status').choices(['setup', 'active', 'finished', 'abandoned']))
    .option('--type <gameType>', 'only games of this type')
    .option('--limit <n>', 'at most this many (1-100)', int('--limit', 1, 100), 20)
    .option('--cursor <cursor>', 'the next page (as the previous page says)')
    .option('--json', 'machine-readable output (with nextCursor)')
    .action(async (opts: { mine?: boolean; myTurn?: boolean; status?: string; type?: string; limit: number; cursor?: string; json?: boolean }, cmd: Command) => {
      const client = clientOf(cmd, Boolean(opts.mine || opts.myTurn));
      const page = await client.get<{ items: GameSummary[]; nextCursor: string | null }>('/games', {
        player: opts.mine ? 'me' : undefined,
        myTurn: opts.myTurn ? true : undefined,
        status: opts.status,
        gameType: opts.type,
        limit: opts.limit,
        cursor: opts.cursor,
      });
      if (opts.json) return printJson(page);
      print(gamesTable(page.items));
      if (page.nextCursor) print(`More: --cursor ${page.nextCursor}`);
    });
  games
    .command('create')
    .description('Create a game; with --role you take that seat (twice for both: hot-seat), with --ai the computer takes one.')
    .option('--type <gameType>', 'game type (default: the first the server lists; see `herald game-types`)')
    .option('--scenario <scenario>', "scenario (required; `herald game-types` lists each type's)")
    .option('--role <role>', 'take this seat now (repeatable)', collect)
    .option('--ai <role=level>', "Herald's AI takes this seat at this level, e.g. Lancaster=random (levels: random, easy, normal, hard; `herald game-types` lists each type's; repeatable)", collect)
    .option('--seed <seed>', 'the random seed (kept secret until the game is over)')
    .option('--option <name=value>', 'a scenario option, e.g. endCampaign=1 (repeatable)', collect)
    .option('--private', 'visible only to its players (join by invite)')
    .option('--rated', 'update both players\' ratings when it ends')
    .option('--json', 'machine-readable output')
    .action(async (opts: { type?: string; scenario?: string; role?: string[]; ai?: string[]; seed?: string; option?: string[]; private?: boolean; rated?: boolean; json?: boolean }, cmd: Command) => {
      const options = gameOptions(opts.option);
      const ai = aiSeats(opts.ai);
      const client = clientOf(cmd);
      // Without --type, or without --scenario, the server says what there is.
      const type = opts.type === undefined || opts.scenario === undefined ? await gameType(client, opts.type) : null;
      const game = await client.post<GameSummary>('/games', {
        gameType: type?.id ?? opts.type,
        scenario: type ? checkScenario(type, opts.scenario) : opts.scenario,
        ...(opts.role ? { roles: opts.role } : {}),
        ...(Object.keys(ai).length ? { ai } : {}),
        ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
        ...(Object.keys(options).length ? { options } : {}),
        ...(opts.private ? { visibility: 'private' } : {}),
        ...(opts.rated ? { rated: true } : {}),
      });
      if (opts.json) return printJson(game);
      print(gameText(game));
    });
  games
    .command('join')
    .description('Take a seat in a game that has not started (it starts when every seat is held).')
    .argument('<id>', 'game id')
    .option('--role <role>', 'the seat (default: the first open one)')
    .option('--invite <code>', 'an invite code')
    .option('--json', 'machine-readable output')
    .action(async (id: string, opts: { role?: string; invite?: string; json?: boolean }, cmd: Command) => {
      const game = await clientOf(cmd).post<GameSummary>(gamePath(id, '/join'), {
        ...(opts.role ? { role: opts.role } : {}),
        ...(opts.invite ? { inviteCode: opts.invite } : {}),
      });
      if (opts.json) return printJson(game);
      print(gameText(game));
    });
  games
    .command('show')
    .description("A game's summary: seats, status, version, who is to act, result.")
    .argument('<id>', 'game id')
    .option('--json', 'machine-readable output')
    .action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
      const game = await clientOf(cmd, false).get<GameSummary>(gamePath(id));
      if (opts.json) return printJson(game);
      print(gameText(game));
    });

  // board ----------------------------------------------------------------------------------
  program
    .command('board')
    .description("The board as your seat sees it: a text map (your blocks, the enemy's as counts), and/or the picture saved.")
    .argument('<id>', 'game id')
    .option('--png <file>', 'save the board picture as PNG')
    .option('--svg <file>', 'save the board picture as SVG')
    .option('--role <role>', 'the seat to look from (if you hold both), or spectator')
    .option('--lang <lang>', 'language of the log lines and the picture (en, pl, cs, ru)')
    .option('--no-text', 'do not print the text map')
    .option('--json', 'print the view (JSON) instead of the text map')
    .action(async (id: string, opts: { png?: string; svg?: string; role?: string; lang?: string; text: boolean; json?: boolean }, cmd: Command) => {
      const client = clientOf(cmd, false);
      const query = { role: opts.role, lang: opts.lang };
      for (const [format, target] of [['png', opts.png], ['svg', opts.svg]] as const) {
        if (!target) continue;
        const bytes = await client.bytes(gamePath(id, `/board.${format}`), query);
        writeLocal(target, bytes);
        if (!opts.json) io.stderr.write(`Saved ${target} (${bytes.length} bytes)\n`);
      }
      if (!opts.text) return;
      const seen = await client.get<{ view: R3ViewLike }>(gamePath(id, '/view'), { role: opts.role });
      if (opts.json) return printJson(seen);
      const view = seen.view;
      if (view.game !== 'richard-iii') return printJson(view); // no text map for this game type yet
      const index = await client.get<{ files: { name: string; url: string }[] }>(`/game-types/${encodeURIComponent(view.game)}/data`);
      const fileUrl = (name: string) => index.files.find((f) => f.name === name)?.url;
      const [map, blocks, log] = await Promise.all([
        client.get<{ areas: { id: string; name: string }[] }>(fileUrl('map') ?? '/missing-map'),
        client.get<{ blocks: { id: string; name: string }[] }>(fileUrl('blocks') ?? '/missing-blocks'),
        client.get<GameLog>(gamePath(id, '/log'), { role: opts.role, lang: opts.lang }),
      ]);
      print(boardText(view, namesFrom(map, blocks), log.lines.slice(-5)));
    });

  // play / move ----------------------------------------------------------------------------
  program
    .command('play')
    .description('Play your turn interactively: pick from the numbered legal actions (grouped, at most 25 a step) until it is not your turn.')
    .argument('<id>', 'game id')
    .option('--role <role>', 'the seat to play (if you hold both)')
    .option('--lang <lang>', 'language of the labels (en, pl, cs, ru)')
    .action(async (id: string, opts: { role?: string; lang?: string }, cmd: Command) => {
      const client = clientOf(cmd);
      const ask = asker(io.stdin, io.stdout);
      try {
        let moved = 0;
        for (;;) {
          const legal = await client.get<LegalActions>(gamePath(id, '/actions'), { group: 'tree', lang: opts.lang, role: opts.role });
          if (!legal.active || legal.choices.length === 0 || !legal.tree) {
            const game = await client.get<GameSummary>(gamePath(id));
            const why = game.status !== 'active' ? `the game is ${game.status}` : `${game.activeRoles.join(' and ') || 'nobody'} to act`;
            if (moved === 0) throw new CliError(`Nothing to do for ${legal.role}: ${why}.`, EXIT.nothingToDo);
            print(`Done: ${why}.`);
            return;
          }
          print(`\nVersion ${legal.version}, ${legal.role} to act (${legal.choices.length} legal action${legal.choices.length === 1 ? '' : 's'}):`);
          const picked = await pickFromTree(legal.tree, ask, print);
          if (!picked) return;
          try {
            const res = await client.post<ActionResult>(gamePath(id, '/actions'), { actionId: picked.id, expectedVersion: legal.version, ...(opts.role ? { role: opts.role } : {}) });
            moved++;
            print(`→ ${picked.path.join(' › ')} (version ${res.version})`);
            for (const line of await linesOfMove(client, id, res, opts)) print(`  ${line}`);
          } catch (err) {
            // The other seat moved in between (cards are chosen at the same time): offer the new list.
            if (err instanceof CliError && err.problem?.code === 'version_conflict') {
              print('The game moved on meanwhile; here are your actions now.');
              continue;
            }
            throw err;
          }
        }
      } finally {
        ask.close();
      }
    });
  program
    .command('actions')
    .description('List your legal actions now, each with the id `herald move` takes and its label.')
    .argument('<id>', 'game id')
    .option('--role <role>', 'the seat (if you hold both)')
    .option('--lang <lang>', 'language of the labels (en, pl, cs, ru)')
    .option('--json', 'machine-readable output (with the grouped tree)')
    .action(async (id: string, opts: { role?: string; lang?: string; json?: boolean }, cmd: Command) => {
      const legal = await clientOf(cmd).get<LegalActions>(gamePath(id, '/actions'), { lang: opts.lang, role: opts.role, group: opts.json ? 'tree' : undefined });
      if (opts.json) return printJson(legal);
      if (!legal.active || legal.choices.length === 0) throw new CliError(`Nothing to do for ${legal.role} at version ${legal.version}.`, EXIT.nothingToDo);
      print(`Version ${legal.version}, ${legal.role} to act:`);
      const width = Math.max(...legal.choices.map((c) => c.id.length));
      for (const c of legal.choices) print(`  ${c.id.padEnd(width)}  ${c.label}`);
    });
  program
    .command('move')
    .description('Submit one action by its id (as `herald play` or GET /games/{id}/actions lists them).')
    .argument('<id>', 'game id')
    .argument('<actionId>', "the action's id, e.g. end or play:ap3-1")
    .option('--role <role>', 'the seat to move (if you hold both)')
    .option('--lang <lang>', 'language of the log lines (en, pl, cs, ru)')
    .option('--at <version>', 'refuse unless the game is still at this version', int('--at', 0))
    .option('--json', 'machine-readable output')
    .action(async (id: string, actionId: string, opts: { role?: string; lang?: string; at?: number; json?: boolean }, cmd: Command) => {
      const client = clientOf(cmd);
      const res = await client.post<ActionResult>(gamePath(id, '/actions'), {
        actionId,
        ...(opts.at !== undefined ? { expectedVersion: opts.at } : {}),
        ...(opts.role ? { role: opts.role } : {}),
      });
      const log = await linesOfMove(client, id, res, opts);
      if (opts.json) return printJson({ version: res.version, role: res.role, status: res.game.status, activeRoles: res.game.activeRoles, log, legalActions: res.legalActions.length });
      for (const line of log) print(line);
      print(`Version ${res.version}; ${res.game.status === 'active' ? `${res.game.activeRoles.join(' and ') || 'nobody'} to act` : `the game is ${res.game.status}`}.`);
    });

  program
    .command('resign')
    .description('Resign a game (the other side wins).')
    .argument('<id>', 'game id')
    .option('--role <role>', 'the seat that resigns (if you hold both)')
    .option('--json', 'machine-readable output')
    .action(async (id: string, opts: { role?: string; json?: boolean }, cmd: Command) => {
      const game = await clientOf(cmd).post<GameSummary>(gamePath(id, '/resign'), opts.role ? { role: opts.role } : {});
      if (opts.json) return printJson(game);
      print(gameText(game));
    });

  // watch ----------------------------------------------------------------------------------
  program
    .command('watch')
    .description("Follow a game live: print its log (as your seat reads it) and each new line until the game ends.")
    .argument('<id>', 'game id')
    .option('--role <role>', 'the seat whose log to read (if you hold both)')
    .option('--lang <lang>', 'language of the log lines (en, pl, cs, ru)')
    .option('--new-only', 'skip the lines written before the watch started')
    .option('--json', 'one JSON object a line')
    .action(async (id: string, opts: { role?: string; lang?: string; newOnly?: boolean; json?: boolean }, cmd: Command) => {
      const end = await watchGame(clientOf(cmd, false), id, { lang: opts.lang, role: opts.role, history: !opts.newOnly, json: Boolean(opts.json), print });
      const game = await clientOf(cmd, false).get<GameSummary>(gamePath(id));
      if (opts.json) return print(JSON.stringify({ end: { version: end.version, status: end.status, result: game.result } }));
      print(`The game is ${end.status} at version ${end.version}${game.result ? `: ${game.result.winner ? `${game.result.winner} won` : 'no winner'} (${game.result.reason})` : ''}.`);
    });

  // export / import ------------------------------------------------------------------------
  program
    .command('export')
    .description('Save a game record (JSON): any game that is over, or one where you hold every seat.')
    .argument('<id>', 'game id')
    .option('-o, --output <file>', 'write to this file (default: standard output)')
    .action(async (id: string, opts: { output?: string }, cmd: Command) => {
      const record = await clientOf(cmd).get<GameRecord>(gamePath(id, '/export'));
      const text = `${JSON.stringify(record, null, 2)}\n`;
      if (!opts.output) return void io.stdout.write(text);
      writeLocal(opts.output, text);
      io.stderr.write(`Saved ${opts.output} (${record.actions.length} actions, version ${record.version})\n`);
    });
  program
    .command('import')
    .description('Create a game from a record (replayed and checked by the server); "-" reads standard input.')
    .argument('<file>', 'the record, as `herald export` writes it')
    .option('--private', 'visible only to you')
    .option('--json', 'machine-readable output')
    .action(async (path: string, opts: { private?: boolean; json?: boolean }, cmd: Command) => {
      let text: string;
      try {
        text = readFileSync(path === '-' ? 0 : path, 'utf8');
      } catch (err) {
        throw fileError('read', path === '-' ? 'standard input' : path, err);
      }
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch {
        throw usageError(`${path} is not JSON`);
      }
      const game = await clientOf(cmd).post<GameSummary>('/games/import', { record, ...(opts.private ? { visibility: 'private' } : {}) });
      if (opts.json) return printJson(game);
      print(gameText(game));
    });

  // bots -----------------------------------------------------------------------------------
  program
    .command('bots')
    .description('Play n bot-vs-bot games with random legal moves through the server, then summarise: wins per side with a 95 % confidence interval (Wilson), draws, game length.')
    .argument('<n>', 'number of games', int('n', 1, 100_000))
    .option('--type <gameType>', 'game type (default: the first the server lists; see `herald game-types`)')
    .option('--scenario <scenario>', "scenario (default: the one named as the game type, else the type's first)")
    .option('--option <name=value>', 'a scenario option, e.g. endCampaign=1 (repeatable)', collect)
    .option('--concurrency <k>', 'games played at the same time', int('--concurrency', 1, 64), 2)
    .option('--keys <first,second>', "the two bots' API keys, the game type's first seat's first (default: sign up two bot players)")
    .option('--seed <n>', 'seed of the moves and the games (a repeatable run)', int('--seed', 0, 2 ** 32 - 1))
    .option('--max-versions <n>', 'resign a game still going after this many versions (counted apart)', int('--max-versions', 10), 20_000)
    .option('--json', 'machine-readable summary (no progress bar)')
    .action(async (n: number, opts: { type?: string; scenario?: string; option?: string[]; concurrency: number; keys?: string; seed?: number; maxVersions: number; json?: boolean }, cmd: Command) => {
      let keys: [string, string] | null = null;
      if (opts.keys) {
        const parts = opts.keys.split(',');
        if (parts.length !== 2 || !parts[0] || !parts[1]) throw usageError('--keys wants two keys: first,second');
        keys = [parts[0], parts[1]];
      }
      const c = connection(cmd);
      const type = await gameType(new HeraldClient(c.server, null), opts.type);
      if (type.roles.length !== 2) throw usageError(`bots play two-seat games; ${type.id} has ${type.roles.length} seats`);
      const scenario = opts.scenario === undefined ? defaultScenario(type) : checkScenario(type, opts.scenario);
      const bar = !opts.json && io.stderr.isTTY
        ? new cliProgress.SingleBar({ stream: io.stderr, format: 'bots [{bar}] {value}/{total} games | {duration_formatted} elapsed, {eta_formatted} left', hideCursor: true }, cliProgress.Presets.shades_classic)
        : null;
      bar?.start(n, 0);
      try {
        const summary = await runBots(c.server, {
          games: n,
          gameType: type.id,
          roles: [type.roles[0]!, type.roles[1]!],
          scenario,
          options: gameOptions(opts.option),
          concurrency: opts.concurrency,
          keys,
          seed: opts.seed ?? null,
          maxVersions: opts.maxVersions,
          onGameDone: (done) => bar?.update(done),
        });
        bar?.stop();
        if (opts.json) return printJson(summary);
        print(summaryText(summary));
      } finally {
        bar?.stop();
      }
    });

  return program;
}
