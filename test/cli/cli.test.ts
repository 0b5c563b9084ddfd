// The herald command-line client against a real server (real Postgres): the
// bin run as a child process with its own config file. Covers config, signup,
// games, the board (text and PNG), actions, move, and play driven through stdin.
// cli-records.test.ts: export/import, bad input, --help; cli-live.test.ts: watch, bots.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { cli, json, startServer } from './cli-helpers.ts';

interface Game {
  id: string;
  status: string;
  version: number;
  activeRoles: string[];
  seats: { role: string; player: { name: string } | null }[];
  result: { winner: string | null; reason: string } | null;
}

t.test('the herald client against a server', async (t) => {
  const { url } = await startServer(t);
  const ada = await cli(t);
  const bob = await cli(t);
  const env = { HERALD_URL: url };

  await t.test('config set, show, and where each setting comes from', async (t) => {
    const c = await cli(t);
    t.equal((await c.run(['config', 'set', 'server', `${url}/`])).code, 0);
    t.equal((await c.run(['config', 'set', 'key', 'hk_notarealkey_0123456789'])).code, 0);
    t.equal(statSync(c.config).mode & 0o777, 0o600, 'the file holds a secret: mode 0600');
    t.same(JSON.parse(readFileSync(c.config, 'utf8')), { server: url, key: 'hk_notarealkey_0123456789' }, 'the URL is stored without its trailing slash');
    const shown = json(await c.run(['config', 'show', '--json']));
    t.same(shown, { file: c.config, server: url, serverFrom: 'config', key: 'hk_notareal…', keyFrom: 'config' }, 'the key abridged');
    const fromEnv = json(await c.run(['config', 'show', '--json'], { env: { HERALD_URL: 'http://example.test:1', HERALD_KEY: 'hk_fromenv_0123456789' } }));
    t.match(fromEnv, { server: 'http://example.test:1', serverFrom: 'env', keyFrom: 'env' });
    const fromOption = json(await c.run(['config', 'show', '--json', '--server', 'http://other.test'], { env: { HERALD_URL: 'http://example.test:1' } }));
    t.match(fromOption, { server: 'http://other.test', serverFrom: 'option' });
    const bad = await c.run(['config', 'set', 'server', 'ftp://x']);
    t.equal(bad.code, 1, 'not an http(s) URL: usage error');
    t.match(bad.stderr, /not an http\(s\) URL/);
    t.equal((await c.run(['config', 'set', 'colour', 'blue'])).code, 1, 'unknown setting');
  });

  await t.test('signup stores the key with the server; --no-save does not', async (t) => {
    const run = await ada.run(['signup', 'Ada'], { env });
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, /Signed up Ada \(player [0-9a-f-]{36}\)/);
    const stored = JSON.parse(readFileSync(ada.config, 'utf8')) as { server: string; key: string };
    t.equal(stored.server, url);
    t.match(stored.key, /^hk_/);
    t.match(run.stdout, stored.key, 'the key is shown once');
    t.equal((await bob.run(['signup', 'Bob', '--json'], { env })).code, 0);

    const c = await cli(t);
    const unsaved = json<{ key: string; saved: string | null }>(await c.run(['signup', 'Cy', '--no-save', '--json'], { env }));
    t.match(unsaved.key, /^hk_/);
    t.equal(unsaved.saved, null);
    t.throws(() => statSync(c.config), 'no config file written');
  });

  await t.test('game types come from the server: the list, and a missing or unknown scenario', async (t) => {
    const types = json<{ id: string; roles: string[]; scenarios: { id: string }[] }[]>(await ada.run(['game-types', '--json'], { env }));
    const r3 = types.find((g) => g.id === 'richard-iii')!;
    t.same(r3.roles, ['York', 'Lancaster']);
    const text = await ada.run(['game-types'], { env });
    t.match(text.stdout, /richard-iii: Richard III.*\(seats: York, Lancaster; AI levels: random[a-z, ]*\)\n  wars-of-the-roses: /);
    const missing = await ada.run(['games', 'create'], { env });
    t.equal(missing.code, 1, 'usage error');
    t.match(missing.stderr, `--scenario is required; ${types[0]!.id} has: ${types[0]!.scenarios.map((s) => s.id).join(', ')}`);
    const unknown = await ada.run(['games', 'create', '--type', 'richard-iii', '--scenario', 'nope'], { env });
    t.equal(unknown.code, 2, 'with --type and --scenario the server judges the scenario');
    const badType = await ada.run(['bots', '1', '--type', 'nope'], { env });
    t.equal(badType.code, 1);
    t.match(badType.stderr, /unknown game type nope; this server hosts: .*richard-iii/);
  });

  let gameId = '';
  await t.test('games create, join, show and list', async (t) => {
    const created = json<Game>(await ada.run(['games', 'create', '--scenario', 'richard-iii', '--role', 'York', '--seed', 'cli-1', '--json']));
    gameId = created.id;
    t.equal(created.status, 'setup');
    t.same(created.seats.map((s) => [s.role, s.player?.name ?? null]), [['York', 'Ada'], ['Lancaster', null]]);
    const joined = await bob.run(['games', 'join', gameId]);
    t.equal(joined.code, 0, joined.stderr);
    t.match(joined.stdout, /York: Ada · Lancaster: Bob/);
    t.match(joined.stdout, /· active · version 2/);
    const shown = await bob.run(['games', 'show', gameId]);
    t.match(shown.stdout, new RegExp(`^Game ${gameId}\\n  richard-iii · richard-iii · public · active`));
    t.match(shown.stdout, /to act: York, Lancaster/);
    const listed = await ada.run(['games', 'list', '--mine']);
    t.match(listed.stdout, /^ID +SCENARIO +STATUS +VER +TO ACT +SEATS\n/);
    t.match(listed.stdout, new RegExp(`^${gameId}  richard-iii  active  2 +York,Lancaster  York: Ada · Lancaster: Bob$`, 'm'));
    const page = json<{ items: Game[] }>(await ada.run(['games', 'list', '--status', 'active', '--json']));
    t.same(page.items.map((g) => g.id), [gameId]);
  });

  await t.test('board: the seat\'s text map (own blocks named, the enemy\'s counted) and the PNG', async (t) => {
    const png = path.join(ada.dir, 'board.png');
    const run = await ada.run(['board', gameId, '--png', png]);
    t.equal(run.code, 0, run.stderr);
    t.same([...readFileSync(png).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
    t.match(run.stderr, /Saved .*board\.png \(\d+ bytes\)/);
    t.match(run.stdout, /seen by York/);
    // Lancaster's exiles in France: four blocks, named only for Lancaster.
    t.match(run.stdout, /^France +Lancaster: 4 blocks$/m);
    t.match(run.stdout, /^Calais +York: \w[\w ]* \d, \w[\w ]* \d$/m, 'own blocks by name and strength');
    const view = json<{ view: { areas: Record<string, Record<string, { n: number }>>; blocks: { id: string }[] } }>(await ada.run(['board', gameId, '--json']));
    const enemyAreas = Object.entries(view.view.areas).filter(([, c]) => c.Lancaster && !c.York);
    for (const [area, count] of enemyAreas) {
      const name = area.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
      t.match(run.stdout, new RegExp(`^${name} +Lancaster: ${count.Lancaster!.n} blocks?$`, 'm'), `${area}: a count, nothing more`);
    }
    const bobs = await bob.run(['board', gameId]);
    t.match(bobs.stdout, /^France +Lancaster: Richmond 3/m, 'Bob sees his own blocks by name');
    t.match(bobs.stdout, /^Calais +York: 2 blocks$/m);
  });

  await t.test('actions and move by id; a refused move exits 2 naming the code, not your turn exits 4', async (t) => {
    const listed = await ada.run(['actions', gameId]);
    t.equal(listed.code, 0, listed.stderr);
    t.match(listed.stdout, /^Version 2, York to act:\n  keep_hand +Keep this hand/);
    const moved = await ada.run(['move', gameId, 'keep_hand', '--at', '2']);
    t.equal(moved.code, 0, moved.stderr);
    t.match(moved.stdout, /^Version 3; Lancaster to act\.$/m);

    const illegal = await bob.run(['move', gameId, 'no-such-action']);
    t.equal(illegal.code, 2);
    t.match(illegal.stderr, /herald: Unprocessable Content \(422\) \[illegal_action\]: "no-such-action" is not the id of a legal action/);
    const illegalJson = await bob.run(['move', gameId, 'no-such-action', '--json']);
    t.equal(illegalJson.code, 2);
    t.match(JSON.parse(illegalJson.stderr), { exitCode: 2, problem: { status: 422, code: 'illegal_action' } });
    const stale = await bob.run(['move', gameId, 'keep_hand', '--at', '2']);
    t.equal(stale.code, 2);
    t.match(stale.stderr, /\[version_conflict\]/);

    const notYours = await ada.run(['move', gameId, 'keep_hand']);
    t.equal(notYours.code, 4, 'not your turn');
    t.match(notYours.stderr, /\[not_your_turn\]/);
    const nothing = await ada.run(['play', gameId]);
    t.equal(nothing.code, 4);
    t.match(nothing.stderr, /Nothing to do for York: Lancaster to act\./);
    t.equal(json<Game>(await ada.run(['games', 'show', gameId, '--json'])).version, 3, 'the refusals changed nothing');
  });

  await t.test('play: numbered choices picked through stdin, submitted until the turn passes', async (t) => {
    const run = await bob.run(['play', gameId], { input: '7\nx\n1\n' });
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, /Version 3, Lancaster to act \(\d legal actions?\):\n   1\. Keep this hand\n[\s\S]*?Choose 1-(\d), q to quit: 7\nType a number from 1 to \1\./);
    t.match(run.stdout, /→ Keep this hand \(version 4\)/);
    t.match(run.stdout, /Game Turn 1 of campaign 3\./, 'the log lines of the move');
    t.match(run.stdout, /Done: York and Lancaster to act\.|Version 4, Lancaster to act/);

    // Card play: a group per kind of card, then the cards; q leaves without moving.
    const before = json<Game>(await bob.run(['games', 'show', gameId, '--json'])).version;
    const quit = await bob.run(['play', gameId, '--lang', 'pl'], { input: 'q\n' });
    t.equal(quit.code, 0);
    t.match(quit.stdout, /Zagraj kartę/, 'labels in the chosen language');
    t.equal(json<Game>(await bob.run(['games', 'show', gameId, '--json'])).version, before, 'q submits nothing');
    const picked = await bob.run(['play', gameId], { input: '1\n1\n1\n1\n' });
    t.equal(picked.code, 0, picked.stderr);
    t.match(picked.stdout, /→ Play card: /);
    t.ok(json<Game>(await bob.run(['games', 'show', gameId, '--json'])).version > before, 'a card was played');
  });

  await t.test('games create --ai: a game against the computer, which moves by itself', async (t) => {
    const run = await ada.run(['games', 'create', '--scenario', 'richard-iii', '--role', 'York', '--ai', 'Lancaster=random']);
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, /York: Ada · Lancaster: Herald AI \(random\)/);
    t.match(run.stdout, /· active · version \d+/, 'every seat held: started');
    const id = /^Game (\S+)/.exec(run.stdout)![1]!;
    const game = json<Game & { seats: { role: string; ai: { level: string } | null }[] }>(await ada.run(['games', 'show', id, '--json']));
    t.match(game.seats, [{ role: 'York', ai: null }, { role: 'Lancaster', ai: { level: 'random' } }]);
    const bad = await ada.run(['games', 'create', '--scenario', 'richard-iii', '--ai', 'Lancaster']);
    t.equal(bad.code, 1, 'usage error');
    t.match(bad.stderr, /--ai wants role=level/);
    const refused = await ada.run(['games', 'create', '--scenario', 'richard-iii', '--ai', 'Lancaster=grandmaster']);
    t.equal(refused.code, 2, 'the server refuses an unknown level');
    t.match(refused.stderr, /\[invalid_request\]: ai\.Lancaster must be one of random, easy, normal, hard/);
  });
});
