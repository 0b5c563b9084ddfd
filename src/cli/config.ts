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
  const { server, key } = parsed as Record<string, unknown>;
  if (typeof server === 'string') out.server = server;
  if (typeof key === 'string') out.key = key;
  return out;
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
export function resolveConnection(opts: { server?: string; key?: string }, env: NodeJS.ProcessEnv, config: CliConfig): Connection {
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
  return { server: normaliseServer(server), key, serverFrom, keyFrom };
}
