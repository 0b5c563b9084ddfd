// The example bots (examples/rest-bot.ts over the generated OpenAPI client and
// SSE; examples/graphql-bot.ts over graphql-request and graphql-ws) play a
// complete game of every scenario on a real listening port, both seats, random
// legal actions, checking every view against the actions they saw; every
// payload each seat received is then leak-scanned against the engine's view.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { games } from '../../src/games/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { listen, collector, scanStored, seeded } from './harness-helpers.ts';
import { playRestGame } from '../../examples/rest-bot.ts';
import { playGraphqlGame } from '../../examples/graphql-bot.ts';
import { STREAM_FILE_TIMEOUT_MS, whileProgressing } from '../helpers/streams.ts';

// The bots follow SSE and subscriptions: a silent stream fails a game within
// STALL_TIMEOUT_MS (whileProgressing); this bounds the file (about 50 s alone).
t.setTimeout(3 * STREAM_FILE_TIMEOUT_MS);

const { store, databaseUrl } = await openTestStore(t);
const ADMIN = 'examples-operator-token-0123456789';
const { app, baseUrl } = await listen(testConfig({ databaseUrl, adminToken: ADMIN }), { store });
t.teardown(() => app.close());
const scenarios = games['richard-iii']!.scenarios.map((s) => s.id);

t.test('the generated client is up to date with openapi.yaml', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-gen-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'schema.d.ts');
  execFileSync(process.execPath, ['node_modules/openapi-typescript/bin/cli.js', 'openapi.yaml', '-o', out], { stdio: 'ignore' });
  t.equal(readFileSync(out, 'utf8'), readFileSync('examples/client/schema.d.ts', 'utf8'), 'run `npm run gen:client` and commit the result');
});

t.test('every scenario is played', async (t) => {
  t.same([...scenarios].sort(), ['kingmaker', 'richard-iii', 'wars-of-the-roses']);
});

// Both bots, every scenario, all at once (six games on one server).
t.test('both bots: a complete game of every scenario each, zero leak findings', async (t) => {
  const bots = [
    ['REST bot', playRestGame],
    ['GraphQL bot', playGraphqlGame],
  ] as const;
  await Promise.all(
    bots.flatMap(([name, play]) =>
      scenarios.map(async (scenario, i) => {
        const c = collector();
        const r = await whileProgressing(`${name}, ${scenario}`, (progress) =>
          play({ baseUrl, scenario, seed: `${name}-${scenario}`, onPayload: (...p) => (progress(), c.hook(...p)), random: seeded(17 + i) }),
        );
        t.equal(r.status, 'finished', `${name}, ${scenario}: played to the end (${r.actions} actions, version ${r.version})`);
        t.ok(r.events.York! > 0 && r.events.Lancaster! > 0, `${name}, ${scenario}: both seats followed the game`);
        const s = await scanStored(app, r.gameId, c.received);
        t.same(s.findings, [], `${name}, ${scenario}: ${s.scanned} payloads scanned, no finding`);
      }),
    ),
  );
});

t.test('an application key acting for its players (X-Act-As), as a Discord bot would', async (t) => {
  const post = async (url: string, key: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${url}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as Record<string, any>;
  };
  const appKey = (await post('/admin/apps', ADMIN, { name: 'discord-bot' })).key.key as string;
  const york = (await post('/players', appKey, { name: 'alice', externalId: 'discord:1' })).player.id as string;
  const lancaster = (await post('/players', appKey, { name: 'bob', externalId: 'discord:2' })).player.id as string;
  await Promise.all(([['REST', playRestGame], ['GraphQL', playGraphqlGame]] as const).map(async ([name, play]) => {
    const c = collector();
    const r = await whileProgressing(`${name} as the application's players`, (progress) =>
      play({ baseUrl, scenario: 'richard-iii', seed: `app-${name}`, keys: [appKey, appKey], actAs: [york, lancaster], onPayload: (...p) => (progress(), c.hook(...p)), random: seeded(99) }),
    );
    t.equal(r.status, 'finished', `${name}: played to the end as the application's players`);
    t.same((await scanStored(app, r.gameId, c.received)).findings, [], `${name}: no leak finding`);
  }));
});
