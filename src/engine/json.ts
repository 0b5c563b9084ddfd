/**
 * Equality of JSON values, shared by the games (an action matched against its
 * legal twin, undo snapshots) and the service (the write path, records): one
 * definition, so a value read back from Postgres jsonb, which orders object
 * keys its own way, is the same value everywhere.
 */

/** A primitive as JSON writes it, for ===: what JSON writes as null is null (-0 === 0 as "0" is "0"). */
function primitive(v: unknown): unknown {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return null;
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}

/**
 * Whether a and b serialise to the same JSON up to the order of object keys
 * (keys holding undefined count as absent), without writing either: a walk
 * that stops at the first difference.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
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

/**
 * A deep copy of a JSON value (plain objects, arrays, primitives). Several
 * times faster than structuredClone on the small objects game states are made
 * of, which matters: a game's apply copies its mutable state on every action.
 * Keys holding undefined are kept as undefined, as structuredClone keeps them.
 */
export function cloneJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneJson(v[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k in v) out[k] = cloneJson((v as Record<string, unknown>)[k]);
  return out as T;
}
