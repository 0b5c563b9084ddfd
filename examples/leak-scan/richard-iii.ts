// Richard III's leak rules (./index.ts LeakRules): given the states of a game
// and a payload one seat received at a version, what in it that seat may not
// know. A seat may know what its views showed at that version or before (what
// was revealed once stays known). A payload received at version v is checked
// against the union of the seat's views at versions 0..v:
//  - every enemy block id (blocks not of the seat's side, Rebel included) and
//    every card id in the enemy hand at v must appear in one of those views;
//  - an object naming an enemy block (`id`/`block`) with a strength field
//    (`steps`, `strength`) must match a (block, strength) pair shown in one of
//    those views;
//  - no object has a key `rng`, `deck`, `undo` or `hands` (engine internals;
//    the seed is checked for every game in ./index.ts).
// A view's `whereabouts` (what public facts tell the seat of where each enemy block
// may stand: every enemy block by name, by design) is left out of both the views
// and the payloads: counted as shown, it would make every enemy block id known from
// version 0 and the first rule empty. Whereabouts hold only public facts:
// test/games/richard-iii/whereabouts.test.ts.
import type { GameModule } from '../../src/engine/types.ts';
import { BLOCKS, CARD as CARD_IDS } from '../../src/games/richard-iii/data.ts';
import mapJson from '../../src/games/richard-iii/data/map.json' with { type: 'json' };
import type { LeakRules } from './index.ts';

const SIDE_OF: Record<string, string> = Object.fromEntries(BLOCKS.map((b) => [b.id, b.side]));
const STRENGTH_KEYS = ['steps', 'strength'];

function tokenRe(ids: Iterable<string>): RegExp | null {
  const list = [...ids].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (list.length === 0) return null;
  return new RegExp(`(?<![A-Za-z0-9_-])(${list.join('|')})(?![A-Za-z0-9_-])`, 'g');
}

function tokensIn(text: string, re: RegExp | null): Set<string> {
  const out = new Set<string>();
  if (!re) return out;
  re.lastIndex = 0;
  for (const m of text.matchAll(re)) out.add(m[1]!);
  return out;
}

// Block ids that are also map ids (areas, shields, exiles: 'oxford', 'essex',
// 'calais-mercenary', …) are counted as block mentions only as whole string
// values outside area-valued fields; the others anywhere, log text included.
const MAP_TEXT = JSON.stringify(mapJson);
const AMBIGUOUS = new Set(BLOCKS.map((b) => b.id).filter((id) => MAP_TEXT.includes(`"${id}"`)));
const AREA_KEYS = new Set(['loc', 'area', 'to', 'from', 'zone', 'path', 'active', 'entries', 'main', 'home', 'areas', 'where', 'shield', 'shields', 'ports']);
const ALL_BLOCKS_RE = tokenRe(BLOCKS.map((b) => b.id).filter((id) => !AMBIGUOUS.has(id)));

/**
 * One pass over a payload (`text` is its JSON): the block ids it names, the
 * (enemy block, strength) pairs it states as "id|key|value".
 */
function inspect(value: unknown, text: string, isEnemy: (id: string) => boolean): { blocks: Set<string>; facts: string[] } {
  const blocks = tokensIn(text, ALL_BLOCKS_RE);
  const facts: string[] = [];
  const visit = (v: unknown, key: string) => {
    if (Array.isArray(v)) {
      for (const x of v) visit(x, key);
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const idKey of ['id', 'block']) {
        const id = o[idKey];
        if (typeof id !== 'string' || !isEnemy(id)) continue;
        for (const k of STRENGTH_KEYS) if (k in o) facts.push(`${id}|${k}|${JSON.stringify(o[k])}`);
      }
      for (const k in o) visit(o[k], k);
    } else if (typeof v === 'string' && AMBIGUOUS.has(v) && !AREA_KEYS.has(key)) {
      blocks.add(v);
    }
  };
  visit(value, '');
  return { blocks, facts };
}

/** The value without any `whereabouts` key (see the header); the value itself when it has none. */
function withoutWhereabouts(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out = value.map(withoutWhereabouts);
    return out.some((x, i) => x !== value[i]) ? out : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const k in o) {
    const x = k === 'whereabouts' ? undefined : withoutWhereabouts(o[k]);
    if (x !== o[k]) (out ??= { ...o })[k] = x;
  }
  if (!out) return value;
  delete out['whereabouts'];
  return out;
}

function checker(m: GameModule, states: readonly unknown[]): (role: string, version: number, payload: unknown, text: string) => string[] {
  const last = states.length - 1;
  // What each seat was shown, as the first version at which it was shown:
  // a seat knows an item at version v when it appeared in a view at v or before.
  type Known = { blocks: Map<string, number>; cards: Map<string, number>; facts: Map<string, number> };
  const knownCache = new Map<string, Known>();
  const cardRe = tokenRe(Object.keys(CARD_IDS));
  const knowledgeOf = (role: string): Known => {
    let k = knownCache.get(role);
    if (!k) {
      k = { blocks: new Map(), cards: new Map(), facts: new Map() };
      const isEnemy = (id: string) => SIDE_OF[id] !== undefined && SIDE_OF[id] !== role;
      const first = (map: Map<string, number>, item: string, v: number) => {
        if (!map.has(item)) map.set(item, v);
      };
      for (let i = 0; i <= last; i++) {
        const st = states[i];
        if (st === null) continue;
        const view = withoutWhereabouts(m.view(st, role));
        const text = JSON.stringify(view);
        const seen = inspect(view, text, isEnemy);
        for (const t of seen.blocks) first(k.blocks, t, i);
        for (const t of tokensIn(text, cardRe)) first(k.cards, t, i);
        for (const f of seen.facts) first(k.facts, f, i);
      }
      knownCache.set(role, k);
    }
    return k;
  };
  const knows = (map: Map<string, number>, item: string, v: number) => (map.get(item) ?? Infinity) <= v;

  return (role, v, raw, rawText) => {
    const problems: string[] = [];
    const payload = withoutWhereabouts(raw);
    const text = payload === raw ? rawText : JSON.stringify(payload);
    const isEnemy = (id: string) => SIDE_OF[id] !== undefined && SIDE_OF[id] !== role;
    const seen = inspect(payload, text, isEnemy);
    const known = knowledgeOf(role);
    for (const id of seen.blocks) {
      if (isEnemy(id) && !knows(known.blocks, id, v)) problems.push(`enemy block ${id} not revealed`);
    }
    const st = states[v] as { hands?: Record<string, string[]> } | null;
    if (st?.hands) {
      const enemyHand = new Set(Object.entries(st.hands).filter(([side]) => side !== role).flatMap(([, h]) => h));
      for (const card of tokensIn(text, cardRe)) {
        if (enemyHand.has(card) && !knows(known.cards, card, v)) problems.push(`enemy hand card ${card}`);
      }
    }
    for (const f of seen.facts) if (!knows(known.facts, f, v)) problems.push(`enemy strength ${f}`);
    return problems;
  };
}

export const richardIIILeakRules: LeakRules = { internalKeys: ['rng', 'deck', 'undo', 'hands'], checker };
