/**
 * The client's settings file: the server URL and the API key. Its place follows
 * the XDG base directory convention ($XDG_CONFIG_HOME/herald/config.json, else
 * ~/.config/herald/config.json); HERALD_CONFIG names another file. It holds a
 * secret, so it is written with mode 0600 (and its folder 0700).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileError, usageError } from './errors.ts';

export interface CliConfig {
  server?: string;
  key?: string;
}

export const DEFAULT_SERVER = 'http://localhost:3000';

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HERALD_CONFIG) return path.resolve(env.HERALD_CONFIG);
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'herald', 'config.json');
}

export function readConfig(file: string): CliConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw fileError('read', file, err);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw usageError(`${file} is not JSON: fix or remove it`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw usageError(`${file} is not a JSON object`);
  const out: CliConfig = {};
  const fields = parsed as Record<string, unknown>;
  // A field of another type is a mistake to show, not to skip (it was ignored, and `config show` said "(default)").
  for (const name of ['server', 'key'] as const) {
    const value = fields[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw usageError(`${file}: "${name}" must be a string (got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}): fix or remove it`);
    out[name] = value;
  }
  return out;
}

/**
 * An API key can only travel in an Authorization header: printable ASCII, no spaces.
 * Anything else (a newline pasted with it) is the user's to fix, exit 1, not a
 * request that fails before it leaves (which read as "cannot reach the server").
 */
export function checkKey(key: string, from: string): string {
  const bad = /[^\x21-\x7e]/.exec(key);
  if (!bad) return key;
  const ch = bad[0];
  const what = ch === '\n' || ch === '\r' ? 'a line break' : ch === ' ' || ch === '\t' ? 'a space' : /[\x00-\x1f\x7f]/.test(ch) ? 'a control character' : 'a character outside printable ASCII';
  throw usageError(`the API key ${from} contains ${what}: an API key is printable ASCII without spaces`);
}

/** Writes the whole file (through a temporary file, so a crash leaves the old one), mode 0600. */
export function writeConfig(file: string, config: CliConfig): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (err) {
    throw fileError('write', file, err);
  }
}

/** A server URL as given by the user: http(s) only, without a trailing slash. */
export function normaliseServer(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError(`not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw usageError(`not an http(s) URL: ${url}`);
  return parsed.toString().replace(/\/+$/, '');
}

/** A key as shown back to the user: its prefix only (keys are secrets). */
export function maskKey(key: string | undefined): string | null {
  if (!key) return null;
  return key.length <= 12 ? `${key.slice(0, 3)}…` : `${key.slice(0, 11)}…`;
}

export interface Connection {
  server: string;
  key: string | null;
  /** Where each came from: option, env, config or default. */
  serverFrom: 'option' | 'env' | 'config' | 'default';
  keyFrom: 'option' | 'env' | 'config' | null;
}

/** Command-line options win over HERALD_URL / HERALD_KEY, which win over the file. */
export function resolveConnection(opts: { server?: string; key?: string }, env: NodeJS.ProcessEnv, config: CliConfig, file?: string): Connection {
  const [server, serverFrom] = opts.server
    ? [opts.server, 'option' as const]
    : env.HERALD_URL
      ? [env.HERALD_URL, 'env' as const]
      : config.server
        ? [config.server, 'config' as const]
        : [DEFAULT_SERVER, 'default' as const];
  const [key, keyFrom] = opts.key
    ? [opts.key, 'option' as const]
    : env.HERALD_KEY
      ? [env.HERALD_KEY, 'env' as const]
      : config.key
        ? [config.key, 'config' as const]
        : [null, null];
  const where = { option: 'given with --key', env: 'in HERALD_KEY', config: `in ${file ?? 'the config file'}` };
  return { server: normaliseServer(server), key: key === null || keyFrom === null ? null : checkKey(key, where[keyFrom]), serverFrom, keyFrom };
}
