// sameJson (the write path's "is this one of the legal actions?") compares
// without writing JSON: it must answer exactly as comparing canonicalJson texts
// does, for equal values with keys in another order, for values that differ
// anywhere, and for what JSON writes as null (undefined, NaN, Infinity).
import t from 'tap';
import { canonicalJson, sameJson } from '../../src/service/json.ts';

// A small seeded generator (mulberry32): the same cases on every run.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), a | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const PRIMITIVES: unknown[] = [null, undefined, true, false, 0, -0, 1, -1, 2.5, NaN, Infinity, '', '0', 'a', 'b', 'null', 'true'];
const KEYS = ['a', 'b', 'c', 'type', 'from', 'to', 'constructor', '__proto__x'];

function value(r: () => number, depth: number): unknown {
  const k = r();
  if (depth >= 3 || k < 0.5) return PRIMITIVES[Math.floor(r() * PRIMITIVES.length)];
  if (k < 0.75) return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 4); i > 0; i--) o[KEYS[Math.floor(r() * KEYS.length)]!] = value(r, depth + 1);
  return o;
}

/** The same value with every object's keys in another order (a copy). */
function reordered(v: unknown, r: () => number): unknown {
  if (Array.isArray(v)) return v.map((x) => reordered(x, r));
  if (v === null || typeof v !== 'object') return v;
  const keys = Object.keys(v).sort(() => r() - 0.5);
  const o: Record<string, unknown> = {};
  for (const k of keys) o[k] = reordered((v as Record<string, unknown>)[k], r);
  return o;
}

/** A copy with one primitive somewhere replaced (it may or may not change the JSON). */
function mutated(v: unknown, r: () => number): unknown {
  if (Array.isArray(v)) {
    if (v.length === 0 || r() < 0.2) return [...v, value(r, 3)];
    const i = Math.floor(r() * v.length);
    return v.map((x, j) => (j === i ? mutated(x, r) : x));
  }
  if (v === null || typeof v !== 'object') return PRIMITIVES[Math.floor(r() * PRIMITIVES.length)];
  const keys = Object.keys(v);
  if (keys.length === 0 || r() < 0.2) return { ...v, [KEYS[Math.floor(r() * KEYS.length)]!]: value(r, 3) };
  const k = keys[Math.floor(r() * keys.length)]!;
  return { ...v, [k]: mutated((v as Record<string, unknown>)[k], r) };
}

t.test('answers as comparing canonical texts, on random values', async (t) => {
  const r = rng(18);
  let equal = 0;
  let different = 0;
  for (let i = 0; i < 20_000; i++) {
    const a = value(r, 0);
    const b = r() < 0.5 ? reordered(a, r) : r() < 0.7 ? mutated(a, r) : value(r, 0);
    const want = canonicalJson(a) === canonicalJson(b);
    if (sameJson(a, b) !== want || sameJson(b, a) !== want) {
      t.fail(`sameJson(${canonicalJson(a)}, ${canonicalJson(b)}) should be ${want}`);
      return;
    }
    if (want) equal++;
    else different++;
  }
  t.ok(equal > 5000 && different > 5000, `both answers were tested (${equal} equal, ${different} different)`);
});

t.test('cases by hand', async (t) => {
  t.ok(sameJson({ type: 'move', from: 'a', to: ['b', 'c'] }, { to: ['b', 'c'], from: 'a', type: 'move' }), 'keys in another order');
  t.notOk(sameJson({ type: 'move', to: ['b', 'c'] }, { type: 'move', to: ['c', 'b'] }), 'list order matters');
  t.notOk(sameJson({ a: 1 }, { a: 1, b: 2 }), 'an extra key');
  t.ok(sameJson({ a: 1, b: undefined }, { a: 1 }), 'an undefined value is no key');
  t.notOk(sameJson({ a: null }, {}), 'a null value is a key');
  t.notOk(sameJson({ constructor: 1 }, {}), 'an inherited name is not an own key');
  t.notOk(sameJson({}, { constructor: 1 }), 'nor the other way round');
  t.notOk(sameJson([1], { 0: 1 }), 'a list is not an object');
  t.notOk(sameJson(1, '1'), 'a number is not a string');
  t.ok(sameJson([undefined, NaN], [null, null]), 'what JSON writes as null');
  t.ok(sameJson(-0, 0), '-0 is written 0');
});
