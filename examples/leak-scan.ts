// Hidden-information scanner for Richard III games: given the authoritative
// game record (scenario, seed, options, the stored log entries) and every
// payload a seat received, reports anything in a payload that the seat may not
// know at that moment.
//
// The reference is the engine's own view for that seat: a seat may know what
// its views showed at that version or before (what was revealed once stays
// known). A payload received at version v is checked against the union of the
// seat's views at versions 0..v:
//  - every enemy block id (blocks not of the seat's side, Rebel included) and
//    every card id in the enemy hand at v must appear in one of those views;
//  - an object naming an enemy block (`id`/`block`) with a strength field
//    (`steps`, `strength`) must match a (block, strength) pair shown in one of
//    those views;
//  - the game's seed does not appear before the game is over, and no object has a key `seed`, `rng`,
//    `deck`, `undo` or `hands` (engine internals).
import { games } from '../src/games/index.ts';
import { BLOCKS, CARD as CARD_IDS } from '../src/games/richard-iii/data.ts';
import mapJson from '../src/games/richard-iii/data/map.json' with { type: 'json' };

export interface LogEntry {
  seq: number;
  kind: string;
  role: string | null;
  action: unknown;
}

export interface Received {
  /** The seat that received it. */
  role: string;
  /** The game version the seat could know when it received the payload. */
  version: number;
  /** Where it came from (for the report): 'rest:view', 'sse:version', 'gql:gameEvents', … */
  source: string;
  payload: unknown;
}

export interface GameRecord {
  scenario: string;
  seed: string;
  options?: Record<string, unknown>;
  entries: LogEntry[];
}

export interface Finding {
  role: string;
  version: number;
  source: string;
  problem: string;
}

const SIDE_OF: Record<string, string> = Object.fromEntries(BLOCKS.map((b) => [b.id, b.side]));
const FORBIDDEN_KEYS = new Set(['seed', 'rng', 'deck', 'undo', 'hands']);
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

/** Visits every object in a JSON value. */
function walk(value: unknown, fn: (o: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const v of value) walk(v, fn);
  else if (value !== null && typeof value === 'object') {
    fn(value as Record<string, unknown>);
    for (const v of Object.values(value)) walk(v, fn);
  }
}

/** (enemy block, strength) pairs an object states, as "id|key|value". */
function strengthFacts(value: unknown, isEnemy: (id: string) => boolean): string[] {
  const out: string[] = [];
  walk(value, (o) => {
    for (const idKey of ['id', 'block']) {
      const id = o[idKey];
      if (typeof id !== 'string' || !isEnemy(id)) continue;
      for (const k of STRENGTH_KEYS) if (k in o) out.push(`${id}|${k}|${JSON.stringify(o[k])}`);
    }
  });
  return out;
}

// Block ids that are also map ids (areas, shields, exiles: 'oxford', 'essex',
// 'calais-mercenary', …) are counted as block mentions only as whole string
// values outside area-valued fields; the others anywhere, log text included.
const MAP_TEXT = JSON.stringify(mapJson);
const AMBIGUOUS = new Set(BLOCKS.map((b) => b.id).filter((id) => MAP_TEXT.includes(`"${id}"`)));
const AREA_KEYS = new Set(['loc', 'area', 'to', 'from', 'zone', 'path', 'active', 'entries', 'main', 'home', 'areas', 'where', 'shield', 'shields', 'ports']);
const ALL_BLOCKS_RE = tokenRe(BLOCKS.map((b) => b.id).filter((id) => !AMBIGUOUS.has(id)));

/** Block ids a payload names. */
function blockMentions(value: unknown): Set<string> {
  const out = tokensIn(JSON.stringify(value) ?? '', ALL_BLOCKS_RE);
  const visit = (v: unknown, key: string) => {
    if (Array.isArray(v)) for (const x of v) visit(x, key);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, k);
    else if (typeof v === 'string' && AMBIGUOUS.has(v) && !AREA_KEYS.has(key)) out.add(v);
  };
  visit(value, '');
  return out;
}

/**
 * Scans the payloads of one game. Returns the findings (empty when nothing
 * leaked) and the number of payloads scanned.
 */
export function scanGame(record: GameRecord, received: Received[]): { findings: Finding[]; scanned: number } {
  const m = games['richard-iii']!;
  const entries = [...record.entries].sort((a, b) => a.seq - b.seq);
  // States after each version (null before the start).
  const states: unknown[] = [null];
  let state: unknown = null;
  for (const e of entries) {
    if (e.kind === 'start') state = m.setup({ scenario: record.scenario, seed: record.seed, options: record.options ?? {} });
    else if (e.kind === 'action') state = m.apply(state, e.role!, e.action);
    states[e.seq] = state;
  }
  for (let v = 1; v < states.length; v++) if (states[v] === undefined) states[v] = states[v - 1];
  const last = states.length - 1;

  type Known = { blocks: Set<string>; cards: Set<string>; facts: Set<string> };
  const knownCache = new Map<string, Known[]>(); // role → cumulative knowledge per version
  const knownAt = (role: string, v: number): Known => {
    let list = knownCache.get(role);
    if (!list) {
      list = [];
      const acc: Known = { blocks: new Set(), cards: new Set(), facts: new Set() };
      const isEnemy = (id: string) => SIDE_OF[id] !== undefined && SIDE_OF[id] !== role;
      const cardRe = tokenRe(Object.keys(CARD_IDS));
      for (let i = 0; i <= last; i++) {
        const s = states[i];
        if (s !== null) {
          const view = m.view(s, role);
          const text = JSON.stringify(view);
          for (const t of blockMentions(view)) acc.blocks.add(t);
          for (const t of tokensIn(text, cardRe)) acc.cards.add(t);
          for (const f of strengthFacts(view, isEnemy)) acc.facts.add(f);
        }
        list.push({ blocks: new Set(acc.blocks), cards: new Set(acc.cards), facts: new Set(acc.facts) });
      }
      knownCache.set(role, list);
    }
    return list[Math.max(0, Math.min(v, last))]!;
  };

  const findings: Finding[] = [];
  for (const r of received) {
    const add = (problem: string) => findings.push({ role: r.role, version: r.version, source: r.source, problem });
    const text = JSON.stringify(r.payload) ?? '';
    // The seed is published once the game is over (Game.seed), not before.
    const atState = states[Math.max(0, Math.min(r.version, last))];
    const over = atState !== null && atState !== undefined && m.status(atState).over;
    if (record.seed && text.includes(record.seed) && !over) add('the seed');
    walk(r.payload, (o) => {
      for (const k of Object.keys(o)) if (FORBIDDEN_KEYS.has(k) && !(k === 'seed' && over)) add(`engine internals: key "${k}"`);
    });
    const known = knownAt(r.role, r.version);
    const isEnemy = (id: string) => SIDE_OF[id] !== undefined && SIDE_OF[id] !== r.role;
    for (const id of blockMentions(r.payload)) {
      if (isEnemy(id) && !known.blocks.has(id)) add(`enemy block ${id} not revealed`);
    }
    const s = states[Math.max(0, Math.min(r.version, last))] as { hands?: Record<string, string[]> } | null;
    const enemyHand = s?.hands ? Object.entries(s.hands).filter(([side]) => side !== r.role).flatMap(([, h]) => h) : [];
    for (const card of tokensIn(text, tokenRe(new Set(enemyHand)))) {
      if (!known.cards.has(card)) add(`enemy hand card ${card}`);
    }
    for (const f of strengthFacts(r.payload, isEnemy)) if (!known.facts.has(f)) add(`enemy strength ${f}`);
  }
  return { findings, scanned: received.length };
}
