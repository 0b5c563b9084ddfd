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

// Block ids that are also map ids (areas, shields, exiles: 'oxford', 'essex',
// 'calais-mercenary', …) are counted as block mentions only as whole string
// values outside area-valued fields; the others anywhere, log text included.
const MAP_TEXT = JSON.stringify(mapJson);
const AMBIGUOUS = new Set(BLOCKS.map((b) => b.id).filter((id) => MAP_TEXT.includes(`"${id}"`)));
const AREA_KEYS = new Set(['loc', 'area', 'to', 'from', 'zone', 'path', 'active', 'entries', 'main', 'home', 'areas', 'where', 'shield', 'shields', 'ports']);
const ALL_BLOCKS_RE = tokenRe(BLOCKS.map((b) => b.id).filter((id) => !AMBIGUOUS.has(id)));

/**
 * One pass over a payload (`text` is its JSON): the block ids it names, the
 * (enemy block, strength) pairs it states as "id|key|value", and the engine
 * internal keys it has (for each occurrence).
 */
function inspect(value: unknown, text: string, isEnemy: (id: string) => boolean): { blocks: Set<string>; facts: string[]; keys: string[] } {
  const blocks = tokensIn(text, ALL_BLOCKS_RE);
  const facts: string[] = [];
  const keys: string[] = [];
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
      for (const k in o) {
        if (FORBIDDEN_KEYS.has(k)) keys.push(k);
        visit(o[k], k);
      }
    } else if (typeof v === 'string' && AMBIGUOUS.has(v) && !AREA_KEYS.has(key)) {
      blocks.add(v);
    }
  };
  visit(value, '');
  return { blocks, facts, keys };
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
        const view = m.view(st, role);
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

  const findings: Finding[] = [];
  // A payload identical to one already scanned for the same seat at the same
  // version (the view in an action's answer and in the SSE event, say) has the
  // same findings: it is counted, not scanned again.
  const done = new Set<string>();
  for (const r of received) {
    const add = (problem: string) => findings.push({ role: r.role, version: r.version, source: r.source, problem });
    const text = JSON.stringify(r.payload) ?? '';
    const v = Math.max(0, Math.min(r.version, last));
    const key = `${r.role}\u0000${v}\u0000${text}`;
    if (done.has(key)) continue;
    done.add(key);
    // The seed is published once the game is over (Game.seed), not before.
    const atState = states[v];
    const over = atState !== null && atState !== undefined && m.status(atState).over;
    if (record.seed && text.includes(record.seed) && !over) add('the seed');
    const isEnemy = (id: string) => SIDE_OF[id] !== undefined && SIDE_OF[id] !== r.role;
    const seen = inspect(r.payload, text, isEnemy);
    for (const k of seen.keys) if (!(k === 'seed' && over)) add(`engine internals: key "${k}"`);
    const known = knowledgeOf(r.role);
    for (const id of seen.blocks) {
      if (isEnemy(id) && !knows(known.blocks, id, v)) add(`enemy block ${id} not revealed`);
    }
    const st = atState as { hands?: Record<string, string[]> } | null;
    if (st?.hands) {
      const enemyHand = new Set(Object.entries(st.hands).filter(([side]) => side !== r.role).flatMap(([, h]) => h));
      for (const card of tokensIn(text, cardRe)) {
        if (enemyHand.has(card) && !knows(known.cards, card, v)) add(`enemy hand card ${card}`);
      }
    }
    for (const f of seen.facts) if (!knows(known.facts, f, v)) add(`enemy strength ${f}`);
  }
  return { findings, scanned: received.length };
}
