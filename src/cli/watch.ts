/**
 * Following a game live: its Server-Sent Events stream (GET /games/{id}/events,
 * parsed by eventsource-parser), and after each new version the game's log as
 * the caller's seat reads it (GET /games/{id}/log, readable lines in the chosen
 * language), printing the lines not printed yet. The stream ends with
 * `event: end` when the game is over; a dropped connection is resumed from the
 * last version seen (Last-Event-ID), so nothing is missed or printed twice.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { gamePath, type GameLog, type HeraldClient } from './api.ts';
import { CliError, EXIT, httpError, type Problem } from './errors.ts';

export interface WatchOptions {
  lang?: string;
  role?: string;
  /** Print the lines already in the log when the watch starts (default) or only new ones. */
  history: boolean;
  json: boolean;
  print: (line: string) => void;
}

export interface WatchEnd {
  version: number;
  status: string;
}

/** Connections in a row that end before the game does, delivering nothing, before giving up. */
const MAX_RECONNECTS = 5;

export async function watchGame(client: HeraldClient, id: string, opts: WatchOptions): Promise<WatchEnd> {
  let printed = -1;
  let lastId: string | null = null;
  let end: WatchEnd | null = null;

  const printLog = async () => {
    const log = await client.get<GameLog>(gamePath(id, '/log'), { lang: opts.lang, role: opts.role });
    if (printed < 0) printed = opts.history ? 0 : log.lines.length;
    // An undo takes lines back: say so, then go on from the shorter log.
    if (log.lines.length < printed) {
      const gone = printed - log.lines.length;
      opts.print(opts.json ? JSON.stringify({ undone: gone, version: log.version }) : `(${gone} line${gone === 1 ? '' : 's'} taken back)`);
      printed = log.lines.length;
    }
    for (const line of log.lines.slice(printed)) opts.print(opts.json ? JSON.stringify({ version: log.version, line }) : line);
    printed = log.lines.length;
  };

  for (let attempt = 0; end === null; attempt++) {
    if (attempt > MAX_RECONNECTS) throw new CliError(`the event stream of ${id} kept dropping`, EXIT.unreachable);
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (lastId !== null) headers['last-event-id'] = lastId;
    const res = await client.fetch('GET', gamePath(id, '/events'), { headers, query: { role: opts.role }, stream: true });
    if (res.status === 204) {
      // Over already, and we saw its last version.
      await printLog();
      const game = await client.get<{ version: number; status: string }>(gamePath(id));
      end = { version: game.version, status: game.status };
      break;
    }
    let problem: Problem | null = null;
    let pending = Promise.resolve();
    const parser = createParser({
      onEvent(ev: EventSourceMessage) {
        // A connection that delivered something was a good one: only drops in a row count.
        attempt = 0;
        if (ev.id) lastId = ev.id;
        if (ev.event === 'version') pending = pending.then(printLog);
        else if (ev.event === 'end') {
          const data = JSON.parse(ev.data) as { version: number; status: string };
          end = { version: data.version, status: data.status };
        } else if (ev.event === 'problem') problem = JSON.parse(ev.data) as Problem;
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        if (end || problem) break;
      }
    } catch {
      // The connection dropped: resume below from the last version seen.
    }
    await pending;
    if (problem) throw httpError((problem as Problem).status ?? 403, problem, `GET ${gamePath(id, '/events')}`);
    if (end) {
      await printLog();
      break;
    }
  }
  return end!;
}
