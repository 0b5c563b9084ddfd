// `npm start`: configuration → store (embedded or real Postgres, migrations) →
// bus → app → listen; graceful shutdown on SIGINT/SIGTERM.
import { ConfigError, loadConfig, type Config } from './config.ts';
import { StartupError, errorMessage } from './errors.ts';
import { buildApp } from './http/app.ts';

/** User-fixable start-up problems: one line on stderr, no stack trace. */
function fail(message: string, exitCode: number): never {
  process.stderr.write(`herald: cannot start: ${message}\n`);
  process.exit(exitCode);
}

const startedAt = performance.now();
let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(err.message, 2);
  throw err;
}

let app;
try {
  app = await buildApp(config);
} catch (err) {
  if (err instanceof StartupError) fail(err.message, 1);
  throw err;
}

try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  await app.close().catch(() => {});
  fail(`cannot listen on ${config.host}:${config.port}: ${errorMessage(err)}`, 1);
}
app.log.info({ startupMs: Math.round(performance.now() - startedAt) }, 'herald started');

const SHUTDOWN_TIMEOUT_MS = 10_000;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new connections; finishing in-flight requests');
    setTimeout(() => {
      app.log.error('shutdown took too long: exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    // close(): stop listening, wait for in-flight requests, then the onClose hooks
    // close the bus and the database pool (and the embedded database).
    app.close().then(
      () => {
        app.log.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  });
}
