// The herald client's live commands against a real server (real Postgres and
// the server's event stream): watch prints the log as moves are made and exits
// when the game ends; bots plays whole games through the server and summarises
// them in --json.
import { spawnSync, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { BIN, cli, json, startServer } from './cli-helpers.ts';

interface Game {
  id: string;
  status: string;
  version: number;
  result: { winner: string | null; reason: string } | null;
}

t.test('watch follows a game until it ends', async (t) => {
  const { url } = await startServer(t);
  const ada = await cli(t);
  const env = { HERALD_URL: url };
  t.equal((await ada.run(['signup', 'Ada'], { env })).code, 0);
  const game = json<Game>(await ada.run(['games', 'create', '--scenario', 'richard-iii', '--role', 'York', '--role', 'Lancaster', '--seed', 'cli-watch', '--json']));

  // The watcher: a spectator (no key), so it reads the public log.
  const watcher = await cli(t);
  let sawStart!: () => void;
  let sawTurn!: () => void;
  const started = new Promise<void>((resolve) => (sawStart = resolve));
  const turned = new Promise<void>((resolve) => (sawTurn = resolve));
  const watching = watcher.run(['watch', game.id], {
    env,
    onStdout: (all) => {
      if (all.includes('Campaign 3: the cards are shuffled')) sawStart();
      if (all.includes('Game Turn 1 of campaign 3.')) sawTurn();
    },
  });
  await started;

  // Both seats keep their hands: the game turn starts, and the watcher prints it as it comes.
  for (const role of ['York', 'Lancaster']) {
    const actions = json<{ choices: { id: string; label: string }[] }>(await ada.run(['actions', game.id, '--role', role, '--json']));
    const keep = actions.choices.find((c) => c.label === 'Keep this hand');
    t.ok(keep, `${role} may keep the hand`);
    t.equal((await ada.run(['move', game.id, keep!.id, '--role', role])).code, 0);
  }
  await turned;
  t.equal((await ada.run(['resign', game.id, '--role', 'Lancaster'])).code, 0);

  const done = await watching;
  t.equal(done.code, 0, done.stderr);
  const lines = done.stdout.trim().split('\n');
  t.same(lines.slice(0, 3), ['Richard III (1483): York holds the throne.', 'Campaign 3: the cards are shuffled and 7 are dealt to each player.', 'Game Turn 1 of campaign 3.'], 'each line once, in order');
  t.match(lines.at(-1), /^The game is finished at version \d+: York won \(Lancaster resigned\)\.$/);

  // A game already over: the whole log, then the end at once.
  const again = await watcher.run(['watch', game.id, '--json'], { env });
  t.equal(again.code, 0, again.stderr);
  const events = again.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  t.match(events.at(-1), { end: { status: 'finished', result: { winner: 'York', reason: 'Lancaster resigned' } } });
  t.equal(events.filter((e) => 'line' in e).length, lines.length - 1, 'the same lines');
});

t.test('bots: two bot-vs-bot games through the server, summarised in --json', async (t) => {
  // A tight rate limit (60 requests per key in 2 s): the bots outrun it and must wait out each 429.
  const { url } = await startServer(t, { rateLimit: { max: 60, anonymousMax: 1_000, appMax: 0, windowMs: 2_000 } });
  const c = await cli(t);
  const run = await c.run(['bots', '2', '--seed', '5', '--concurrency', '2', '--json'], { env: { HERALD_URL: url } });
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stderr, '', 'no progress bar when not a terminal or with --json');
  const s = json<{
    games: number;
    wins: Record<string, { n: number; share: number; ci95: [number, number] }>;
    draws: number;
    capped: number;
    versions: { mean: number; median: number };
    seconds: { mean: number; median: number; total: number };
    gameIds: string[];
  }>(run);
  t.equal(s.games, 2);
  t.equal(s.wins.York!.n + s.wins.Lancaster!.n + s.draws + s.capped, 2, 'every game counted once');
  for (const side of ['York', 'Lancaster']) {
    const w = s.wins[side]!;
    t.ok(w.ci95[0] <= w.share && w.share <= w.ci95[1], `${side}: the share lies in its interval`);
    t.ok(w.ci95[0] >= 0 && w.ci95[1] <= 1 && w.ci95[1] - w.ci95[0] > 0.3, `${side}: two games say little`);
  }
  t.ok(s.versions.mean > 10 && s.seconds.total > 0);

  // The games are real: finished on the server, as the summary counts them.
  const winners: (string | null)[] = [];
  for (const id of s.gameIds) {
    const g = json<Game>(await c.run(['games', 'show', id, '--json'], { env: { HERALD_URL: url } }));
    t.equal(g.status, 'finished');
    winners.push(g.result!.winner);
  }
  t.equal(winners.filter((w) => w === 'York').length, s.wins.York!.n);
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const refused = [...metrics.matchAll(/^herald_http_requests_total\{[^}]*status="429"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  t.ok(refused > 0, `the bots were rate limited (${refused} × 429) and waited it out`);

  // On a terminal (util-linux `script` gives the bin one) the progress bar is drawn, then the summary;
  // one short game: --max-versions stops it early.
  const hasScript = spawnSync('sh', ['-c', 'command -v script']).status === 0;
  await t.test('the progress bar on a terminal', { skip: hasScript ? false : 'no `script` (util-linux) to give the bin a terminal' }, async (t) => {
    const { stdout } = await promisify(execFile)('script', ['-qec', `"${process.execPath}" "${BIN}" bots 1 --seed 3 --max-versions 12`, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: c.dir, HERALD_CONFIG: c.config, HERALD_URL: url, TERM: 'xterm' },
      timeout: 45_000,
    });
    t.match(stdout, /bots \[.*\] 0\/1 games/, 'the bar at the start');
    t.match(stdout, /bots \[.*\] 1\/1 games/, 'and at the end');
    t.match(stdout, /1 game of richard-iii \(richard-iii\) in [\d.]+ s/);
    t.match(stdout, /stopped at the version cap \(not counted\): 1/, 'a game past --max-versions is resigned and counted apart');
  });
});
