import t from 'tap';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from '../../src/http/app.ts';
import { openStore } from '../../src/store/store.ts';
import { StartupError } from '../../src/errors.ts';
import { tempDir, testConfig } from '../helpers/services.ts';

t.test('embedded mode: boots from an empty data folder, then reuses its data', async (t) => {
  const dataDir = path.join(await tempDir(t), 'data'); // does not exist yet
  const config = testConfig({ databaseUrl: null, redisUrl: null, dataDir });

  const first = await buildApp(config);
  let id: string;
  try {
    const res = await first.inject('/readyz');
    t.equal(res.statusCode, 200);
    t.same(res.json().checks, { database: { status: 'ok', kind: 'embedded' }, bus: { status: 'ok', kind: 'memory' } });
    t.ok((await readdir(dataDir)).includes('pglite'), 'database files created in the data folder');
    id = (await first.store.prisma.game.create({ data: { gameType: 'richard-iii', scenario: 'campaign' } })).id;
  } finally {
    await first.close();
  }

  // A lock left by a process that died (e.g. killed) must not block the next start.
  await writeFile(path.join(dataDir, 'herald.lock'), '2147483646\n');
  const second = await buildApp(config);
  try {
    t.equal((await second.inject('/readyz')).statusCode, 200);
    const game = await second.store.prisma.game.findUnique({ where: { id } });
    t.equal(game?.scenario, 'campaign', 'the game written by the first start is still there');
  } finally {
    await second.close();
  }
});

t.test('embedded mode: a data folder used by another live process is refused', async (t) => {
  const dataDir = await tempDir(t);
  await mkdir(dataDir, { recursive: true });
  await writeFile(path.join(dataDir, 'herald.lock'), `${process.ppid}\n`); // the test runner: alive
  const err = await openStore({ databaseUrl: null, dataDir }, { info: () => {} }).catch((e: unknown) => e);
  t.ok(err instanceof StartupError);
  t.match((err as Error).message, new RegExp(`in use by process ${process.ppid}`));
});
