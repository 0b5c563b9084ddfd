// The README's REST tour runs as written: its shell blocks marked
// `<!-- tour -->` are run in order by bash (set -euo pipefail) against a server
// started here, with HERALD pointing at it; afterwards the database must hold a
// legal move by each seat. Other README blocks (installing, starting a server,
// Docker) are not run. Needs curl and jq (.ci/run installs jq).
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { projectRoot } from '../../src/paths.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';

const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');

interface Block {
  tour: boolean;
  code: string;
  /** The ## section the block is in. */
  section: string;
}

function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let section = '';
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (!/^```(sh|bash|shell)\s*$/.test(line)) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`unclosed code block at README line ${i + 1}`);
    blocks.push({ tour: lines[i - 1]?.trim() === '<!-- tour -->', code: lines.slice(i + 1, end).join('\n'), section });
    i = end;
  }
  return blocks;
}

const missing = ['curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

t.test('the tour blocks are marked, and every command block of the tour section is one', async (t) => {
  const blocks = shellBlocks(readme);
  const tour = blocks.filter((b) => b.tour);
  t.ok(tour.length >= 2, `${tour.length} tour blocks`);
  t.same(blocks.filter((b) => b.section === 'Playing over REST' && !b.tour).map((b) => b.code), [], 'no unmarked (so unrun) block in the tour');
  t.match(tour[0]!.code, /^HERALD=\$\{HERALD:-http:\/\/localhost:3000\}$/m, 'the base URL is a variable, by default npm start\'s');
  t.notMatch(tour.map((b) => b.code).join('\n'), /localhost:3000\//, 'every URL goes through $HERALD');
});

if (missing.length > 0) {
  // In CI a missing tool is a failure (.ci/run installs jq), elsewhere a skip that says why.
  if (process.env.CI) t.fail(`missing ${missing.join(', ')}`);
  else t.test('the tour runs', { skip: `missing ${missing.join(', ')} (apt-get install -y ${missing.join(' ')})` }, () => {});
} else {
  t.test('the tour runs against a fresh server and reaches a move by each seat', async (t) => {
    const { store, databaseUrl } = await openTestStore(t);
    const app = await buildApp(testConfig({ databaseUrl }), { store });
    t.teardown(() => app.close());
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });

    const script = ['set -euo pipefail', ...shellBlocks(readme).filter((b) => b.tour).map((b) => b.code)].join('\n');
    const run = await promisify(execFile)('bash', ['-c', script], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, HERALD: origin },
      timeout: 120_000,
    }).catch((err: { code?: number; stdout?: string; stderr?: string }) => {
      t.fail(`the tour failed (exit ${err.code}): ${err.stderr}\n${err.stdout}`);
      return null;
    });
    if (!run) return;
    t.equal(run.stderr, '', 'nothing on stderr');
    t.match(run.stdout, /"status":"active"/, 'the game started when Bob joined');

    const games = await store.prisma.game.findMany({ where: { pairing: null }, include: { seats: { include: { player: true } } } });
    t.equal(games.length, 2, 'the tour made two games outside leagues: Ada against Bob, Ada against the AI');
    const game = games.find((g) => g.seats.every((s) => s.player?.aiLevel === null))!;
    // "Playing against the computer": Ada (York) against the AI at the random level, which moved by itself.
    const aiGame = games.find((g) => g !== game)!;
    t.same(aiGame.seats.map((s) => [s.role, s.player?.name, s.player?.aiLevel]).sort(), [['Lancaster', 'Herald AI (random)', 'random'], ['York', 'Ada', null]]);
    const aiMoves = await store.prisma.action.findMany({ where: { gameId: aiGame.id, kind: 'action', role: 'Lancaster' } });
    t.ok(aiMoves.length > 0 && aiMoves.every((m) => m.playerId === aiGame.seats.find((s) => s.role === 'Lancaster')!.playerId), 'the AI moved, as its player');
    t.match(run.stdout, /\{"status":"active","seats":\[\{"role":"York","player":"Ada","ai":null\},\{"role":"Lancaster","player":"Herald AI \(random\)","ai":\{"level":"random"\}\}\]\}/);
    t.same(game.seats.map((s) => [s.role, s.player?.name]).sort(), [['Lancaster', 'Bob'], ['York', 'Ada']]);
    const moves = await store.prisma.action.findMany({ where: { gameId: game.id, kind: 'action' }, orderBy: { seq: 'asc' } });
    t.same([...new Set(moves.map((m) => m.role))].sort(), ['Lancaster', 'York'], 'a move by each seat');
    t.equal(game.status, 'active');
    t.match(run.stdout, /Game Turn 1/, 'the log was printed');

    // The organiser's walk-through: a Swiss whose round 1 was played and corrected.
    const league = await store.prisma.league.findFirstOrThrow({ where: { name: 'Winter Swiss' }, include: { rounds: { orderBy: { number: 'asc' } } } });
    t.same(league.rounds.map((r) => [r.number, r.status]), [[1, 'complete'], [2, 'published']], 'round 1 played, round 2 published');
    const changes = await store.prisma.leagueResultChange.findMany({ where: { leagueId: league.id }, orderBy: { at: 'asc' } });
    t.same(changes.map((c) => c.kind), ['game', 'game', 'correction'], 'two game results and the correction');
    t.equal(changes[2]!.reason, 'score sheet: Lancaster won on time');
    t.match(run.stdout, /^rank,id,name,points,BH-C1,BH,SB,/m, 'the standings CSV was printed');
    t.match(run.stdout, /"rank":1,"player":\{"name":"[A-Za-z]+"\},"points":1/, 'the GraphQL standings were printed');
    t.ok(await store.prisma.league.findFirst({ where: { name: 'Spring cup' } }), 'the GraphQL league was created');
  });
}
