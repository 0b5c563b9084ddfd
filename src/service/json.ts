// JSON helpers for comparing actions and hashing requests.
import { sha256 } from './secrets.ts';

/** Stable serialisation: object keys sorted, so equal values give equal text. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

export { sameJson } from '../engine/json.ts';

export function hashJson(v: unknown): string {
  return sha256(canonicalJson(v));
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How deep client JSON (an action, options) may nest: far more than any game's actions need. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value serialises (JSON.stringify) to at most maxBytes
 * characters and nests at most maxDepth arrays and objects deep. Iterative and
 * stopping at the first excess: JSON.stringify on a value nested a few
 * thousand levels deep overflowed the call stack (a 500), and everything that
 * reads a client's action or options later (canonicalJson, the engine) is
 * recursive too.
 */
export function jsonWithin(value: unknown, maxBytes: number, maxDepth = MAX_JSON_DEPTH): boolean {
  let bytes = 0;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (v !== null && typeof v === 'object') {
      if (depth >= maxDepth) return false;
      let members = 0;
      if (Array.isArray(v)) {
        for (const child of v) stack.push({ v: child, depth: depth + 1 });
        members = v.length;
      } else {
        for (const [k, child] of Object.entries(v)) {
          if (child === undefined || typeof child === 'function') continue;
          bytes += JSON.stringify(k).length + 1;
          stack.push({ v: child, depth: depth + 1 });
          members++;
        }
      }
      bytes += 2 + Math.max(0, members - 1); // brackets and commas
    } else {
      bytes += (JSON.stringify(v) ?? 'null').length;
    }
    if (bytes > maxBytes) return false;
  }
  return true;
}
