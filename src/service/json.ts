// JSON helpers for comparing actions and hashing requests.
import { sha256 } from './secrets.ts';

/** Stable serialisation: object keys sorted, so equal values give equal text. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

/** A primitive as canonicalJson writes it, for ===: what JSON writes as null is null (-0 === 0 as "0" is "0"). */
function primitive(v: unknown): unknown {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return null;
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}

/**
 * canonicalJson(a) === canonicalJson(b), without writing either: the write path compares an
 * action with every legal one, and a walk stops at the first difference.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const objA = a !== null && typeof a === 'object';
  const objB = b !== null && typeof b === 'object';
  if (!objA || !objB) return !objA && !objB && primitive(a) === primitive(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const oa = a as Record<string, unknown>;
  const ob = b as Record<string, unknown>;
  let n = 0;
  for (const k of Object.keys(oa)) {
    if (oa[k] === undefined) continue;
    n++;
    if (!Object.hasOwn(ob, k) || ob[k] === undefined || !sameJson(oa[k], ob[k])) return false;
  }
  for (const k of Object.keys(ob)) if (ob[k] !== undefined) n--;
  return n === 0;
}

export function hashJson(v: unknown): string {
  return sha256(canonicalJson(v));
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
