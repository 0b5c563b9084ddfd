// Issue 13 on a real Postgres: after the pool closed its idle connections,
// authenticated REST, GraphQL and SSE catch-up requests work (each new
// connection is a new session there; this pins that it stays so).
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { createTestDatabase, testConfig } from '../helpers/services.ts';
import { idleScenario } from './idle-helpers.ts';

t.test('postgres: authenticated REST, GraphQL and SSE catch-up work after the pool idled out', async (t) => {
  const databaseUrl = await createTestDatabase(t);
  const app = await buildApp(testConfig({ databaseUrl, databaseIdleTimeoutMs: 200 }));
  t.teardown(() => app.close());
  await idleScenario(t, app);
});
