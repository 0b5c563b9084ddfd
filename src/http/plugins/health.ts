// GET /healthz: the process is alive. GET /readyz: the database answers the
// key lookup every authenticated request makes (Store.ping) and the bus
// completes a publish/subscribe round trip; otherwise 503 naming what failed.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { errorMessage } from '../../errors.ts';
import { withTimeout } from '../../bus/bus.ts';
import { problem } from '../problem.ts';
import { PROBLEM_CONTENT_TYPE } from './errors.ts';

const CHECK_TIMEOUT_MS = 2000;

interface CheckResult {
  status: 'ok' | 'fail';
  /** What was checked: postgres | embedded | redis | memory. */
  kind: string;
  error?: string;
}

async function check(kind: string, run: () => Promise<void>): Promise<CheckResult> {
  try {
    await withTimeout(run(), CHECK_TIMEOUT_MS, `${kind} check`);
    return { status: 'ok', kind };
  } catch (err) {
    return { status: 'fail', kind, error: errorMessage(err) };
  }
}

const NAMES: Record<string, string> = {
  postgres: 'Postgres database',
  embedded: 'embedded database',
  redis: 'Redis bus',
  memory: 'in-process bus',
};

async function health(app: FastifyInstance): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const [database, bus] = await Promise.all([
      check(app.store.kind, () => app.store.ping()),
      check(app.bus.kind, () => app.bus.ping(CHECK_TIMEOUT_MS)),
    ]);
    const checks = { database, bus };
    const failed = Object.values(checks).filter((c) => c.status === 'fail');
    if (failed.length === 0) return { status: 'ready', checks };
    const detail = `not ready: ${failed.map((c) => `${NAMES[c.kind] ?? c.kind} failed (${c.error})`).join('; ')}`;
    app.log.warn({ checks }, 'readiness check failed');
    return reply.code(503).type(PROBLEM_CONTENT_TYPE).send(problem(503, 'not_ready', detail, { checks }));
  });
}

export default fp(health, { name: 'herald-health', dependencies: ['herald-services', 'herald-errors'] });
