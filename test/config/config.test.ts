import t from 'tap';
import path from 'node:path';
import { ConfigError, loadConfig, redactUrl } from '../../src/config.ts';

t.test('defaults: embedded database, in-process bus, 127.0.0.1:3000, info logs, ./data', async (t) => {
  const c = loadConfig({}, '/srv/herald');
  t.same(c, {
    databaseUrl: null,
    databasePooler: null,
    databaseDirectUrl: null,
    jobs: true,
    redisUrl: null,
    port: 3000,
    host: '127.0.0.1',
    logLevel: 'info',
    dataDir: path.resolve('/srv/herald/data'),
    busPrefix: 'herald:',
    development: true,
    adminToken: null,
    openSignup: true,
    vacationDays: 30,
    reminderSharePercent: 80,
    rateLimit: { max: 600, anonymousMax: 120, appMax: 12_000, windowMs: 60_000 },
    sseHeartbeatMs: 15_000,
    streamsPerKey: 100,
    databaseQueryTimeoutMs: 10_000,
    trustProxy: false,
    webhookAllowPrivate: false,
    webhookRetentionDays: 30,
    webhookMaxEndpoints: undefined,
    publicUrl: null,
    gameDataFiles: { HERALD_BLACK_AND_WHITE_DATA: null },
    ai: { workers: 1, queue: 64, timeCapMs: 10_000, warm: true },
    corsOrigins: '*',
  });
});

t.test('CORS_ORIGINS: any origin by default; a list of origins; off or empty turns CORS off', async (t) => {
  t.equal(loadConfig({}).corsOrigins, '*');
  t.equal(loadConfig({ CORS_ORIGINS: ' * ' }).corsOrigins, '*');
  t.equal(loadConfig({ CORS_ORIGINS: 'off' }).corsOrigins, null);
  t.equal(loadConfig({ CORS_ORIGINS: 'OFF' }).corsOrigins, null);
  t.equal(loadConfig({ CORS_ORIGINS: '' }).corsOrigins, null);
  t.equal(loadConfig({ CORS_ORIGINS: '  ' }).corsOrigins, null);
  t.same(loadConfig({ CORS_ORIGINS: 'https://app.example' }).corsOrigins, ['https://app.example']);
  // Spelt as browsers send Origin: lower-case host, no default port, no trailing slash; duplicates once.
  t.same(loadConfig({ CORS_ORIGINS: 'https://App.Example/, http://localhost:5173 ,https://app.example:443,http://[::1]:8080,' }).corsOrigins, [
    'https://app.example',
    'http://localhost:5173',
    'http://[::1]:8080',
  ]);
});

t.test('CORS_ORIGINS: anything but origins is refused at start-up, naming each', async (t) => {
  t.throws(() => loadConfig({ CORS_ORIGINS: 'app.example' }), {
    message: /CORS_ORIGINS must be \*, off, or a comma-separated list of origins such as https:\/\/app\.example .*\(got "app\.example"\)/,
  });
  t.throws(() => loadConfig({ CORS_ORIGINS: 'https://ok.example,https://a.example/path,*,ftp://f.example,https://u:p@x.example,https://q.example?x=1,null' }), {
    message: /\(got "https:\/\/a\.example\/path", "\*", "ftp:\/\/f\.example", "https:\/\/u:p@x\.example", "https:\/\/q\.example\?x=1", "null"\)/,
  });
  t.throws(() => loadConfig({ CORS_ORIGINS: ',' }), { message: /CORS_ORIGINS must be .*\(got ","\)/ });
  t.throws(() => loadConfig({ CORS_ORIGINS: 'https://bad:port' }), { message: /CORS_ORIGINS/ });
});

t.test('HERALD_AI_WORKERS, HERALD_AI_QUEUE, HERALD_AI_TIME_CAP_MS: the AI pool', async (t) => {
  t.same(loadConfig({ HERALD_AI_WORKERS: '2', HERALD_AI_QUEUE: '10', HERALD_AI_TIME_CAP_MS: '2500' }, '/srv').ai, { workers: 2, queue: 10, timeCapMs: 2500, warm: true });
  t.throws(() => loadConfig({ HERALD_AI_WORKERS: '0' }, '/srv'), { message: /HERALD_AI_WORKERS must be an integer ≥ 1 \(got "0"\)/ });
  t.throws(() => loadConfig({ HERALD_AI_WORKERS: '65' }, '/srv'), { message: /HERALD_AI_WORKERS must be from 1 to 64/ });
  t.throws(() => loadConfig({ HERALD_AI_QUEUE: 'lots' }, '/srv'), { message: /HERALD_AI_QUEUE must be an integer ≥ 1/ });
  t.throws(() => loadConfig({ HERALD_AI_TIME_CAP_MS: '50' }, '/srv'), { message: /HERALD_AI_TIME_CAP_MS must be an integer ≥ 100/ });
});

t.test('HERALD_BLACK_AND_WHITE_DATA: a path, resolved against the working directory', async (t) => {
  t.same(loadConfig({ HERALD_BLACK_AND_WHITE_DATA: 'games/bw.json' }, '/srv/herald').gameDataFiles, { HERALD_BLACK_AND_WHITE_DATA: path.resolve('/srv/herald/games/bw.json') });
  t.same(loadConfig({ HERALD_BLACK_AND_WHITE_DATA: '/etc/herald/bw.json' }, '/srv/herald').gameDataFiles, { HERALD_BLACK_AND_WHITE_DATA: '/etc/herald/bw.json' });
  t.same(loadConfig({ HERALD_BLACK_AND_WHITE_DATA: '  ' }).gameDataFiles, { HERALD_BLACK_AND_WHITE_DATA: null });
});

t.test('HERALD_WEBHOOK_ALLOW_PRIVATE: off by default; HERALD_PUBLIC_URL an http(s) URL', async (t) => {
  t.equal(loadConfig({}).webhookAllowPrivate, false);
  t.equal(loadConfig({ HERALD_WEBHOOK_ALLOW_PRIVATE: '1' }).webhookAllowPrivate, true);
  t.equal(loadConfig({ HERALD_WEBHOOK_ALLOW_PRIVATE: 'false' }).webhookAllowPrivate, false);
  t.throws(() => loadConfig({ HERALD_WEBHOOK_ALLOW_PRIVATE: 'maybe' }), /HERALD_WEBHOOK_ALLOW_PRIVATE/);
  t.equal(loadConfig({ HERALD_PUBLIC_URL: 'https://herald.example' }).publicUrl, 'https://herald.example');
  t.throws(() => loadConfig({ HERALD_PUBLIC_URL: 'ftp://x' }), /HERALD_PUBLIC_URL/);
});

t.test('HERALD_WEBHOOK_MAX_ENDPOINTS: 20 by default, a whole number from 0 (no cap)', async (t) => {
  t.equal(loadConfig({}).webhookMaxEndpoints, undefined, 'unset: the service default applies');
  t.equal(loadConfig({ HERALD_WEBHOOK_MAX_ENDPOINTS: '5' }).webhookMaxEndpoints, 5);
  t.equal(loadConfig({ HERALD_WEBHOOK_MAX_ENDPOINTS: '0' }).webhookMaxEndpoints, 0);
  for (const bad of ['-1', '2.5', 'many']) t.throws(() => loadConfig({ HERALD_WEBHOOK_MAX_ENDPOINTS: bad }), /HERALD_WEBHOOK_MAX_ENDPOINTS/, bad);
});

t.test('HERALD_WEBHOOK_RETENTION_DAYS: 30 by default, a whole number of days from 1', async (t) => {
  t.equal(loadConfig({}).webhookRetentionDays, 30);
  t.equal(loadConfig({ HERALD_WEBHOOK_RETENTION_DAYS: '7' }).webhookRetentionDays, 7);
  for (const bad of ['0', '-1', '2.5', 'week']) t.throws(() => loadConfig({ HERALD_WEBHOOK_RETENTION_DAYS: bad }), /HERALD_WEBHOOK_RETENTION_DAYS/, bad);
});

t.test('TRUST_PROXY: off by default; true, false, or a list of addresses, CIDRs and range names', async (t) => {
  t.equal(loadConfig({}).trustProxy, false);
  t.equal(loadConfig({ TRUST_PROXY: ' ' }).trustProxy, false);
  t.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
  t.equal(loadConfig({ TRUST_PROXY: 'TRUE' }).trustProxy, true);
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.7' }).trustProxy, ['10.0.0.7']);
  t.same(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,192.168.1.0/255.255.255.0 ,fd00::/8,::1,uniquelocal,linklocal' }).trustProxy, [
    'loopback',
    '10.0.0.0/8',
    '192.168.1.0/255.255.255.0',
    'fd00::/8',
    '::1',
    'uniquelocal',
    'linklocal',
  ]);
});

t.test('TRUST_PROXY: nonsense and hop counts are refused at start-up, with what was wrong', async (t) => {
  t.throws(() => loadConfig({ TRUST_PROXY: 'yes' }), {
    message: /TRUST_PROXY must be true, false or a comma-separated list of addresses, CIDRs and loopback\/linklocal\/uniquelocal \(got "yes"\)/,
  });
  t.throws(() => loadConfig({ TRUST_PROXY: '10.0.0.1,proxy.local,10.0.0.0/33,::1/129,10.0.0.0/8/8,,10.0.0.0/ff' }), {
    message: /\(got "proxy\.local", "10\.0\.0\.0\/33", "::1\/129", "10\.0\.0\.0\/8\/8", "", "10\.0\.0\.0\/ff"\)/,
  });
  // Fastify 5.12 ignores a hop count (a direct client could forge X-Forwarded-For): say so rather than trust nobody silently.
  t.throws(() => loadConfig({ TRUST_PROXY: '1' }), { message: /TRUST_PROXY cannot be a hop count \("1"\).*list the proxies' addresses or CIDRs instead/ });
  try {
    loadConfig({ TRUST_PROXY: 'nope', PORT: 'x' });
    t.fail('should throw');
  } catch (err) {
    t.equal((err as ConfigError).problems.length, 2, 'reported with the other problems');
  }
});

t.test('rate limits and SSE heartbeat', async (t) => {
  const c = loadConfig({ RATE_LIMIT_MAX: '10', RATE_LIMIT_ANONYMOUS_MAX: '0', RATE_LIMIT_WINDOW_SECONDS: '5', SSE_HEARTBEAT_SECONDS: '2' }, '/srv');
  t.same(c.rateLimit, { max: 10, anonymousMax: 0, appMax: 200, windowMs: 5000 }, 'the app ceiling defaults to 20 × RATE_LIMIT_MAX');
  t.equal(loadConfig({ RATE_LIMIT_APP_MAX: '50' }, '/srv').rateLimit.appMax, 50);
  t.equal(loadConfig({ RATE_LIMIT_APP_MAX: '0' }, '/srv').rateLimit.appMax, 0, '0: no ceiling');
  t.throws(() => loadConfig({ RATE_LIMIT_APP_MAX: 'many' }, '/srv'), { message: /RATE_LIMIT_APP_MAX must be an integer ≥ 0 \(got "many"\)/ });
  t.equal(c.sseHeartbeatMs, 2000);
  t.throws(() => loadConfig({ RATE_LIMIT_MAX: '-1', RATE_LIMIT_WINDOW_SECONDS: '0', SSE_HEARTBEAT_SECONDS: 'x' }, '/srv'), {
    message: /RATE_LIMIT_MAX must be an integer ≥ 0 \(got "-1"\); RATE_LIMIT_WINDOW_SECONDS must be an integer ≥ 1 \(got "0"\); SSE_HEARTBEAT_SECONDS must be an integer ≥ 1/,
  });
});

t.test('HERALD_ADMIN_TOKEN and HERALD_OPEN_SIGNUP', async (t) => {
  const c = loadConfig({ HERALD_ADMIN_TOKEN: 'a-long-operator-token', HERALD_OPEN_SIGNUP: 'false' }, '/srv');
  t.equal(c.adminToken, 'a-long-operator-token');
  t.equal(c.openSignup, false);
  t.throws(() => loadConfig({ HERALD_ADMIN_TOKEN: 'short', HERALD_OPEN_SIGNUP: 'maybe' }, '/srv'), {
    message: /HERALD_ADMIN_TOKEN must be at least 16 characters long; HERALD_OPEN_SIGNUP must be true or false \(got "maybe"\)/,
  });
});

t.test('HERALD_VACATION_DAYS: the yearly allowance, 0 to 180 days', async (t) => {
  t.equal(loadConfig({}, '/srv').vacationDays, 30);
  t.equal(loadConfig({ HERALD_VACATION_DAYS: '0' }, '/srv').vacationDays, 0);
  t.equal(loadConfig({ HERALD_VACATION_DAYS: '14' }, '/srv').vacationDays, 14);
  t.throws(() => loadConfig({ HERALD_VACATION_DAYS: '181' }, '/srv'), { message: /HERALD_VACATION_DAYS must be from 0 to 180 \(got "181"\)/ });
  t.throws(() => loadConfig({ HERALD_VACATION_DAYS: '-3' }, '/srv'), { message: /HERALD_VACATION_DAYS must be an integer ≥ 0 \(got "-3"\)/ });
});

t.test('reads every variable; empty values count as unset', async (t) => {
  const c = loadConfig(
    {
      DATABASE_URL: 'postgresql://app:secret@db:5432/herald',
      REDIS_URL: 'redis://cache:6379/0',
      PORT: '8080',
      HOST: '0.0.0.0',
      LOG_LEVEL: 'WARN',
      DATA_DIR: '/var/lib/herald',
      BUS_PREFIX: 'prod:',
      NODE_ENV: 'production',
    },
    '/srv',
  );
  t.equal(c.databaseUrl, 'postgresql://app:secret@db:5432/herald');
  t.equal(c.redisUrl, 'redis://cache:6379/0');
  t.equal(c.port, 8080);
  t.equal(c.host, '0.0.0.0');
  t.equal(c.logLevel, 'warn');
  t.equal(c.dataDir, '/var/lib/herald');
  t.equal(c.busPrefix, 'prod:');
  t.equal(c.development, false);
  t.equal(loadConfig({ DATABASE_URL: '  ', REDIS_URL: '' }).databaseUrl, null);
  t.equal(loadConfig({ DATABASE_URL: 'postgres://h/db' }).databaseUrl, 'postgres://h/db');
});

t.test('a pooler in transaction mode, and the direct URL around it', async (t) => {
  const none = loadConfig({ DATABASE_URL: 'postgres://h/db' });
  t.equal(none.databasePooler, null);
  t.equal(none.databaseDirectUrl, null);
  const c = loadConfig({ DATABASE_URL: 'postgres://bouncer:6432/db', DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: 'postgres://pg:5432/db' });
  t.equal(c.databasePooler, 'transaction');
  t.equal(c.databaseDirectUrl, 'postgres://pg:5432/db');
  t.equal(loadConfig({ DATABASE_URL: 'postgres://h/db', DATABASE_POOLER: 'none' }).databasePooler, null);
  t.throws(() => loadConfig({ DATABASE_URL: 'postgres://h/db', DATABASE_POOLER: 'session' }), { message: /DATABASE_POOLER must be none or transaction \(got "session"\)/ });
  t.throws(() => loadConfig({ DATABASE_POOLER: 'transaction' }), { message: /DATABASE_POOLER=transaction needs DATABASE_URL/ });
  t.throws(() => loadConfig({ DATABASE_DIRECT_URL: 'postgres://pg/db' }), { message: /DATABASE_DIRECT_URL needs DATABASE_URL/ });
  t.throws(() => loadConfig({ DATABASE_URL: 'postgres://h/db', DATABASE_DIRECT_URL: 'mysql://x/y' }), { message: /DATABASE_DIRECT_URL must start with postgresql:\/\// });
});

t.test('HERALD_JOBS: an API-only instance', async (t) => {
  t.equal(loadConfig({}).jobs, true);
  t.equal(loadConfig({ HERALD_JOBS: 'false' }).jobs, false);
  t.equal(loadConfig({ HERALD_JOBS: 'true' }).jobs, true);
  t.throws(() => loadConfig({ HERALD_JOBS: 'sometimes' }), { message: /HERALD_JOBS must be true or false \(got "sometimes"\)/ });
});

t.test('every problem is reported at once, in one line', async (t) => {
  try {
    loadConfig({ DATABASE_URL: 'mysql://x/y', REDIS_URL: 'not a url', PORT: '70000', LOG_LEVEL: 'loud' });
    t.fail('should throw');
  } catch (err) {
    t.ok(err instanceof ConfigError);
    const e = err as ConfigError;
    t.equal(e.problems.length, 4);
    t.match(e.message, /DATABASE_URL must start with postgresql:\/\/ or postgres:\/\//);
    t.match(e.message, /REDIS_URL is not a valid URL/);
    t.match(e.message, /PORT must be an integer from 0 to 65535 \(got "70000"\)/);
    t.match(e.message, /LOG_LEVEL must be one of fatal, error/);
    t.notMatch(e.message, /\n/);
  }
  t.throws(() => loadConfig({ PORT: '12ab' }), /PORT must be an integer/);
  t.throws(() => loadConfig({ PORT: '-1' }), /PORT must be an integer/);
});

t.test('redactUrl hides passwords only', async (t) => {
  t.equal(redactUrl('postgresql://app:secret@db:5432/herald'), 'postgresql://app:***@db:5432/herald');
  t.equal(redactUrl('postgresql://app@db/herald'), 'postgresql://app@db/herald');
  t.equal(redactUrl('::'), '<unparseable URL>');
});

t.test('HERALD_REMINDER_PERCENT', async (t) => {
  t.equal(loadConfig({}, '/srv').reminderSharePercent, 80, 'default 80');
  t.equal(loadConfig({ HERALD_REMINDER_PERCENT: '50' }, '/srv').reminderSharePercent, 50);
  for (const bad of ['0', '100', '80%', '-5']) t.throws(() => loadConfig({ HERALD_REMINDER_PERCENT: bad }, '/srv'), { message: /HERALD_REMINDER_PERCENT must be an integer/ }, bad);
});
