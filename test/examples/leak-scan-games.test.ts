// Hidden information for every other game type: each registered game type but
// Richard III (which has its own two shards, leak-scan-1/2.test.ts), and the
// test-only Tally (so the path is exercised whatever is registered), plays
// LEAK_SCAN_OTHER_GAMES complete games (default 20 per type, its scenarios in
// turn) through the REST bot on a real port; every payload each seat received
// is scanned with the type's leak rules (examples/leak-scan/: the generic checks
// for a type without rules of its own), and its pictures when it has a renderer.
// No new game starts after LEAK_SCAN_SECONDS / 2 (default 120).
import t from 'tap';
import { games as installed } from '../../src/games/index.ts';
import type { GameModule } from '../../src/engine/types.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { tallyModule } from '../helpers/games/tally.ts';
import { listen, playMany } from './harness-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS } from '../helpers/streams.ts';

t.setTimeout(Math.max(STREAM_FILE_TIMEOUT_MS, 600_000));

const modules: Record<string, GameModule> = { ...installed, tally: tallyModule() as unknown as GameModule };
const types = Object.keys(modules).filter((id) => id !== 'richard-iii');
const perType = Number(process.env.LEAK_SCAN_OTHER_GAMES ?? 20);
const stopAt = Date.now() + (Number(process.env.LEAK_SCAN_SECONDS ?? 240) / 2) * 1000;

const { store, databaseUrl } = await openTestStore(t);
const { app, baseUrl } = await listen(testConfig({ databaseUrl }), { store, games: modules });
t.teardown(() => app.close());

for (const gameType of types) {
  t.test(`leak scan: ${gameType}`, async (t) => {
    const m = modules[gameType]!;
    const r = await playMany(app, baseUrl, {
      n: perType, concurrency: 4, gameType, games: modules, scenarios: m.scenarios.map((s) => s.id), seedPrefix: `ci-leak-${gameType}`, shouldStop: () => Date.now() > stopAt,
    });
    t.ok(r.games >= Math.min(perType, 2), `${r.games} games played to the end`);
    t.ok(r.payloads > r.games * 2, `${r.payloads} payloads scanned`);
    if (app.gameService.hasBoardPictures(gameType)) t.ok(r.pictures >= r.games * 3, `${r.pictures} board pictures scanned`);
    t.same(r.findings, [], 'no finding');
    t.comment(`leak scan ${gameType}: ${r.games} games, ${r.actions} actions, ${r.payloads} payloads and ${r.pictures} pictures scanned`);
  });
}
