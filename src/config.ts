// Configuration from the environment, validated once at start-up. Every problem
// is collected so a user fixes them all in one go; ConfigError's message is a
// single line meant to be printed as is.
import { isIP } from 'node:net';
import path from 'node:path';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Which peers are trusted reverse proxies, i.e. whose X-Forwarded-For (and
 * -Proto, -Host) decides request.ip: false = none (the default), true = any,
 * or a list of addresses, CIDRs and the names loopback, linklocal,
 * uniquelocal. Fastify's `trustProxy`. No hop count: Fastify 5.12 ignores one
 * (it trusts nothing), since it cannot tell a proxy from a direct client.
 */
export type TrustProxy = boolean | string[];

export interface Config {
  /** Postgres URL; null = start the embedded database (PGlite) in dataDir. */
  databaseUrl: string | null;
  /**
   * DATABASE_POOLER: 'transaction' when DATABASE_URL points at a pooler in transaction mode
   * (PgBouncer's pool_mode=transaction): Herald then sends no startup options and no named
   * prepared statements, which such a pooler cannot carry from one transaction to the next.
   * Absent or null: a direct connection (or a session-mode pooler).
   */
  databasePooler?: 'transaction' | null;
  /**
   * DATABASE_DIRECT_URL: the same database without the pooler, for what needs a session of its
   * own (creating the database, migrations). Absent or null: DATABASE_URL.
   */
  databaseDirectUrl?: string | null;
  /** Redis URL; null = in-process bus (single instance only). */
  redisUrl: string | null;
  port: number;
  host: string;
  logLevel: LogLevel;
  /** Folder of the embedded database (used only without DATABASE_URL). */
  dataDir: string;
  /** Prefix of every bus channel, so several deployments can share one Redis. */
  busPrefix: string;
  /** NODE_ENV !== 'production': enables GraphiQL. */
  development: boolean;
  /** Operator token for /admin/* (HERALD_ADMIN_TOKEN); null = operator endpoints refuse everyone. */
  adminToken: string | null;
  /** Anyone may create a player (and get a key) with POST /players (HERALD_OPEN_SIGNUP, default true). */
  openSignup: boolean;
  /** The yearly vacation allowance per player in days (HERALD_VACATION_DAYS, default 30, at most 180; 0 = no vacation). */
  vacationDays: number;
  /** Share of a correspondence turn's time used at which its first reminder goes out (HERALD_REMINDER_PERCENT, 1–99, default 80). */
  reminderSharePercent?: number;
  /**
   * Requests per window: per API key (`max`), per client IP without a key (`anonymousMax`); 0 = unlimited.
   * An application key acting for a player (X-Act-As) counts against that player's own `max` and
   * against `appMax`, the ceiling of everything the key does for its players.
   */
  rateLimit: { max: number; anonymousMax: number; appMax: number; windowMs: number };
  /** Interval of SSE heartbeat comments; each one also re-checks the database for missed events. */
  sseHeartbeatMs: number;
  /**
   * STREAMS_PER_KEY (default 100; 0 = no limit): live streams (SSE streams and GraphQL
   * subscriptions together) one API key, or one client IP without a key, may hold at once on
   * this instance. Absent: 100.
   */
  streamsPerKey?: number;
  /**
   * A database query not answered in this time fails, and its request gets 503
   * (a Postgres that hangs, or a network that drops packets, must not hang requests).
   */
  databaseQueryTimeoutMs: number;
  /** TRUST_PROXY: rate limits per IP and logs see the client's address, not the proxy's. */
  trustProxy: TrustProxy;
  /**
   * How long a pooled database connection may stay idle before the pool closes
   * it. Not read from the environment: the defaults suit both stores (real
   * Postgres: 10 s; embedded: never, see store.ts); tests set it short to make
   * the pool reconnect.
   */
  databaseIdleTimeoutMs?: number;
  /**
   * HERALD_WEBHOOK_ALLOW_PRIVATE (default false): webhook URLs may resolve to private, loopback,
   * link-local... addresses. Off, the SSRF guard refuses them (src/webhooks/guard.ts).
   */
  webhookAllowPrivate: boolean;
  /**
   * HERALD_WEBHOOK_RETENTION_DAYS (default 30, at least 1): delivered and failed webhook messages
   * and their attempts are deleted once older than this (the pruning job, hourly).
   */
  webhookRetentionDays: number;
  /**
   * HERALD_WEBHOOK_MAX_ENDPOINTS (default 20; 0 = no cap): webhook endpoints one player or
   * application may register; one more is refused (409 limit_reached). Absent: undefined, the service's default.
   */
  webhookMaxEndpoints?: number;
  /**
   * HERALD_JOBS (default true): this instance runs the background jobs (clock, round and settle
   * sweeps, webhook deliveries and pruning). false: an API-only instance; at least one instance
   * on the database must run them. Absent: true.
   */
  jobs?: boolean;
  /** HERALD_PUBLIC_URL: the server's public base URL (absolute links in webhooks, e.g. Discord's board image); null: none. */
  publicUrl: string | null;
  /**
   * The data files of the games whose numbers Herald does not ship (src/games/index.ts,
   * gamesNeedingData), by setting (GAME_DATA_SETTINGS), as absolute paths; null: not set
   * (that game is listed but not playable). Absent: none set.
   */
  gameDataFiles?: Record<string, string | null>;
  /**
   * The AI's worker pool (issue 20): threads (HERALD_AI_WORKERS, default 1), decisions waiting
   * at most (HERALD_AI_QUEUE, default 64) and the wall-clock cap of one decision in ms
   * (HERALD_AI_TIME_CAP_MS, default 10,000). Absent: those defaults. `warm` (set by
   * loadConfig): one thread is started with the server and kept, so the first AI move
   * does not wait about a second for a thread to load the games (on the AI's clock).
   */
  ai?: { workers: number; queue: number; timeCapMs: number; warm?: boolean };
  /**
   * CORS_ORIGINS: which web origins may call the API from a browser. '*' (the default): any,
   * without credentials (the API authenticates by `Authorization: Bearer`, never by cookie); a
   * list of origins (`https://app.example`): only those; null (`off` or empty): no CORS headers,
   * OPTIONS is 404. Absent: '*'.
   */
  corsOrigins?: '*' | string[] | null;
}

/**
 * The settings that name game data files: HERALD_BLACK_AND_WHITE_DATA, the
 * Black & White numbers an owner of the game typed in (src/games/black-and-white/README.md).
 * Whether a file is there and valid is checked when the server starts (the game is
 * then playable or listed with the reasons), not here: a bad file does not stop the server.
 */
export const GAME_DATA_SETTINGS = ['HERALD_BLACK_AND_WHITE_DATA'] as const;

/** Live streams per key (or per IP without a key) when STREAMS_PER_KEY is not set. */
export const DEFAULT_STREAMS_PER_KEY = 100;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

function nonEmpty(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

/** A whole number ≥ min from the environment, or the default when unset. */
function intVar(env: Env, name: string, fallback: number, min: number, problems: string[]): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > 1_000_000_000) {
    problems.push(`${name} must be an integer ≥ ${min} (got "${raw}")`);
    return fallback;
  }
  return value;
}

function checkUrl(value: string, name: string, protocols: string[], problems: string[]): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${name} is not a valid URL (expected ${protocols[0]}//host:port/...)`);
    return;
  }
  if (!protocols.includes(url.protocol)) {
    problems.push(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got ${url.protocol}//)`);
  }
}

/** proxy-addr's (Fastify's) names for address ranges. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** One TRUST_PROXY list item: an address, a CIDR (10.0.0.0/8, fd00::/8), an IPv4 netmask (10.0.0.0/255.0.0.0) or a range name. */
function isProxyAddress(item: string): boolean {
  if (PROXY_RANGES.includes(item)) return true;
  const [address, range, ...rest] = item.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

function trustProxyVar(env: Env, problems: string[]): TrustProxy {
  const raw = nonEmpty(env, 'TRUST_PROXY');
  if (raw === undefined || /^false$/i.test(raw)) return false;
  if (/^true$/i.test(raw)) return true;
  if (/^\d+$/.test(raw)) {
    problems.push(`TRUST_PROXY cannot be a hop count ("${raw}"): Fastify ignores one, as it lets direct clients forge X-Forwarded-For; list the proxies' addresses or CIDRs instead`);
    return false;
  }
  const items = raw.split(',').map((s) => s.trim());
  const bad = items.filter((item) => !isProxyAddress(item));
  if (bad.length === 0) return items;
  problems.push(
    `TRUST_PROXY must be true, false or a comma-separated list of addresses, CIDRs and loopback/linklocal/uniquelocal (got ${bad.map((b) => `"${b}"`).join(', ')})`,
  );
  return false;
}

/**
 * One CORS_ORIGINS item as the browser's Origin header spells it (scheme://host[:port], lower
 * case, no default port, no path), or null when it is not an http(s) origin.
 */
function corsOrigin(item: string): string | null {
  // Scheme and host[:port] only (one trailing slash tolerated): no path, query, fragment or user.
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(item)) return null;
  try {
    return new URL(item).origin;
  } catch {
    return null;
  }
}

function corsOriginsVar(env: Env, problems: string[]): '*' | string[] | null {
  const raw = env.CORS_ORIGINS;
  if (raw === undefined) return '*';
  const value = raw.trim();
  if (value === '' || /^(off|false|none)$/i.test(value)) return null;
  if (value === '*') return '*';
  const items = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const origins = items.map(corsOrigin);
  const bad = items.filter((_, i) => origins[i] === null);
  if (bad.length === 0 && items.length > 0) return [...new Set(origins as string[])];
  problems.push(
    `CORS_ORIGINS must be *, off, or a comma-separated list of origins such as https://app.example (scheme://host[:port], no path; * cannot be in a list) (got ${bad.length > 0 ? bad.map((b) => `"${b}"`).join(', ') : `"${value}"`})`,
  );
  return null;
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];

  const databaseUrl = nonEmpty(env, 'DATABASE_URL') ?? null;
  if (databaseUrl !== null) checkUrl(databaseUrl, 'DATABASE_URL', ['postgresql:', 'postgres:'], problems);

  const databaseDirectUrl = nonEmpty(env, 'DATABASE_DIRECT_URL') ?? null;
  if (databaseDirectUrl !== null) {
    checkUrl(databaseDirectUrl, 'DATABASE_DIRECT_URL', ['postgresql:', 'postgres:'], problems);
    if (databaseUrl === null) problems.push('DATABASE_DIRECT_URL needs DATABASE_URL (without it Herald runs the embedded database)');
  }
  let databasePooler: 'transaction' | null = null;
  const rawPooler = nonEmpty(env, 'DATABASE_POOLER');
  if (rawPooler !== undefined) {
    if (rawPooler === 'transaction') databasePooler = 'transaction';
    else if (rawPooler !== 'none') problems.push(`DATABASE_POOLER must be none or transaction (got "${rawPooler}")`);
    if (databasePooler !== null && databaseUrl === null) problems.push('DATABASE_POOLER=transaction needs DATABASE_URL (the pooler\'s address)');
  }

  const redisUrl = nonEmpty(env, 'REDIS_URL') ?? null;
  if (redisUrl !== null) checkUrl(redisUrl, 'REDIS_URL', ['redis:', 'rediss:'], problems);

  let port = 3000;
  const rawPort = nonEmpty(env, 'PORT');
  if (rawPort !== undefined) {
    port = Number(rawPort);
    if (!/^\d+$/.test(rawPort) || port > 65535) {
      problems.push(`PORT must be an integer from 0 to 65535 (got "${rawPort}")`);
    }
  }

  const host = nonEmpty(env, 'HOST') ?? '127.0.0.1';

  let logLevel: LogLevel = 'info';
  const rawLevel = nonEmpty(env, 'LOG_LEVEL');
  if (rawLevel !== undefined) {
    const lower = rawLevel.toLowerCase();
    if ((LOG_LEVELS as readonly string[]).includes(lower)) logLevel = lower as LogLevel;
    else problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${rawLevel}")`);
  }

  const dataDir = path.resolve(cwd, nonEmpty(env, 'DATA_DIR') ?? 'data');
  const busPrefix = env.BUS_PREFIX ?? 'herald:';
  const development = (env.NODE_ENV ?? 'development') !== 'production';

  const adminToken = nonEmpty(env, 'HERALD_ADMIN_TOKEN') ?? null;
  // A short operator token would be guessable; 16 characters is the floor.
  if (adminToken !== null && adminToken.length < 16) problems.push('HERALD_ADMIN_TOKEN must be at least 16 characters long');

  let openSignup = true;
  const rawSignup = nonEmpty(env, 'HERALD_OPEN_SIGNUP');
  if (rawSignup !== undefined) {
    if (/^(true|1|yes)$/i.test(rawSignup)) openSignup = true;
    else if (/^(false|0|no)$/i.test(rawSignup)) openSignup = false;
    else problems.push(`HERALD_OPEN_SIGNUP must be true or false (got "${rawSignup}")`);
  }

  // Above 180 days a vacation could outlast a league season (the pure core's MAX_ALLOWANCE_MS).
  const vacationDays = intVar(env, 'HERALD_VACATION_DAYS', 30, 0, problems);
  if (vacationDays > 180) problems.push(`HERALD_VACATION_DAYS must be from 0 to 180 (got "${env.HERALD_VACATION_DAYS}")`);
  const reminderSharePercent = intVar(env, 'HERALD_REMINDER_PERCENT', 80, 1, problems);
  if (reminderSharePercent > 99) problems.push(`HERALD_REMINDER_PERCENT must be an integer from 1 to 99 (got "${reminderSharePercent}")`);

  const max = intVar(env, 'RATE_LIMIT_MAX', 600, 0, problems);
  const rateLimit = {
    max,
    anonymousMax: intVar(env, 'RATE_LIMIT_ANONYMOUS_MAX', 120, 0, problems),
    // An app serving many players: each player has the per-key budget, the key as a whole 20 of them by default.
    appMax: intVar(env, 'RATE_LIMIT_APP_MAX', max * 20, 0, problems),
    windowMs: intVar(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, problems) * 1000,
  };
  const sseHeartbeatMs = intVar(env, 'SSE_HEARTBEAT_SECONDS', 15, 1, problems) * 1000;
  const streamsPerKey = intVar(env, 'STREAMS_PER_KEY', DEFAULT_STREAMS_PER_KEY, 0, problems);
  const databaseQueryTimeoutMs = intVar(env, 'DATABASE_QUERY_TIMEOUT_SECONDS', 10, 1, problems) * 1000;

  const trustProxy = trustProxyVar(env, problems);

  let webhookAllowPrivate = false;
  const rawPrivate = nonEmpty(env, 'HERALD_WEBHOOK_ALLOW_PRIVATE');
  if (rawPrivate !== undefined) {
    if (/^(true|1|yes)$/i.test(rawPrivate)) webhookAllowPrivate = true;
    else if (!/^(false|0|no)$/i.test(rawPrivate)) problems.push(`HERALD_WEBHOOK_ALLOW_PRIVATE must be true or false (got "${rawPrivate}")`);
  }
  const webhookRetentionDays = intVar(env, 'HERALD_WEBHOOK_RETENTION_DAYS', 30, 1, problems);
  // Unset: undefined, and the service's own default applies (service/webhooks.ts DEFAULT_MAX_ENDPOINTS).
  const webhookMaxEndpoints = nonEmpty(env, 'HERALD_WEBHOOK_MAX_ENDPOINTS') === undefined ? undefined : intVar(env, 'HERALD_WEBHOOK_MAX_ENDPOINTS', 0, 0, problems);
  let jobs = true;
  const rawJobs = nonEmpty(env, 'HERALD_JOBS');
  if (rawJobs !== undefined) {
    if (/^(false|0|no)$/i.test(rawJobs)) jobs = false;
    else if (!/^(true|1|yes)$/i.test(rawJobs)) problems.push(`HERALD_JOBS must be true or false (got "${rawJobs}")`);
  }
  const publicUrl = nonEmpty(env, 'HERALD_PUBLIC_URL') ?? null;
  if (publicUrl !== null) checkUrl(publicUrl, 'HERALD_PUBLIC_URL', ['https:', 'http:'], problems);

  const gameDataFiles: Record<string, string | null> = {};
  for (const name of GAME_DATA_SETTINGS) {
    const file = nonEmpty(env, name);
    gameDataFiles[name] = file === undefined ? null : path.resolve(cwd, file);
  }

  const ai = {
    workers: intVar(env, 'HERALD_AI_WORKERS', 1, 1, problems),
    queue: intVar(env, 'HERALD_AI_QUEUE', 64, 1, problems),
    timeCapMs: intVar(env, 'HERALD_AI_TIME_CAP_MS', 10_000, 100, problems),
    warm: true,
  };
  if (ai.workers > 64) problems.push(`HERALD_AI_WORKERS must be from 1 to 64 (got "${env.HERALD_AI_WORKERS}")`);

  const corsOrigins = corsOriginsVar(env, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return { corsOrigins, ai, gameDataFiles, databaseUrl, databasePooler, databaseDirectUrl, redisUrl, port, host, logLevel, dataDir, busPrefix, development, adminToken, openSignup, vacationDays, reminderSharePercent, rateLimit, sseHeartbeatMs, streamsPerKey, databaseQueryTimeoutMs, trustProxy, webhookAllowPrivate, webhookRetentionDays, webhookMaxEndpoints, jobs, publicUrl };
}

/** The URL with its password hidden, for logs and error messages. */
export function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<unparseable URL>';
  }
}
