// Issue 13: the embedded database after the pool closed its idle connection.
// The embedded database is one Postgres session shared by every connection to
// it; a new connection must not meet what the previous one left there (named
// prepared statements, settings, an open transaction).
import t from 'tap';
import path from 'node:path';
import { buildApp } from '../../src/http/app.ts';
import { tempDir, testConfig } from '../helpers/services.ts';
import { idleScenario } from './idle-helpers.ts';

t.test('embedded: authenticated REST, GraphQL and SSE catch-up work after the pool idled out', async (t) => {
  const dataDir = path.join(await tempDir(t), 'data');
  const app = await buildApp(testConfig({ databaseUrl: null, dataDir, databaseIdleTimeoutMs: 200 }));
  t.teardown(() => app.close());
  await idleScenario(t, app);
});
