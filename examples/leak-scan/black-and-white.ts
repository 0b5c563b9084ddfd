// Black & White's leak rules (./index.ts LeakRules): given the states of a
// game (replayed with the module) and a payload one seat received at a
// version, what in it that seat may not know. What the rules' view shows a
// seat (src/games/black-and-white/view.ts): every block's id, type and hex;
// an enemy block's kind once revealed (and, with rule option a54Revealed
// 'hide', again hidden at the end of each turn); never an enemy block's
// strength; nothing of the enemy's purchase and deployment before both have
// deployed. So, for a payload `role` received at version v:
//  - an enemy block named with a kind (an object with the block's `id` or
//    `unit` and a `kind`: a kind id or a message reference to one; or text
//    "V07 (Order of Aquarius)", as log lines name a unit) must match a
//    (block, kind) pair the seat's views showed at v or before, or that the
//    rules revealed to it at v or before: the engine names an enemy kind in
//    the seat's log line only while the block is revealed (with A54 'hide' a
//    block revealed in a turn's last activation is hidden again by the same
//    action, so no view shows it, yet the seat saw the card); with
//    a54Revealed 'hide', a structured one (what a view shows) must be in the
//    view at v itself — log lines are history, and keep what was seen;
//  - an object naming an enemy block with `strength` or `steps`: always a leak;
//  - while the game is in purchase or deployment: the enemy's `bought`,
//    `placed` or `budgetLeft`, and any enemy kind (id or English name)
//    outside the kind cards every view lists (`kinds`);
//  - no object has a key `rng`, `undo` or `logFrom` (engine internals; the
//    seed is checked for every game in ./index.ts).
import { readFileSync } from 'node:fs';
import type { GameModule } from '../../src/engine/types.ts';
import type { LeakRules } from './index.ts';

const NAMES = JSON.parse(readFileSync(new URL('../../src/games/black-and-white/messages/en/names.json', import.meta.url), 'utf8')) as Record<string, string>;
/** Kind id by its English name. */
const KIND_BY_NAME = new Map(Object.entries(NAMES).filter(([k]) => k.startsWith('kind.')).map(([k, name]) => [name, k.slice('kind.'.length)]));
const ARMY_OF_PREFIX: Record<string, string> = { T: 'Thargaton', V: 'Vesania' };
const UNIT_ID = /^[TV]\d+$/;
/** A unit named in text with its kind: "V07 (Order of Aquarius)". */
const NAMED_IN_TEXT = /(?<![A-Za-z0-9])([TV]\d+) \(([^()]+)\)/g;

/**
 * The game's public data every view repeats (the scenario card, the board, the
 * kind cards of both armies, the aiming table, the rule options): not walked,
 * since both armies' kinds are listed there by design.
 */
const PUBLIC_DATA = new Set(['kinds', 'scenario', 'board', 'aiming', 'markerCaps', 'options']);

const armyOf = (id: string): string | undefined => (UNIT_ID.test(id) ? ARMY_OF_PREFIX[id[0]!] : undefined);

interface Facts {
  /** "id|kind" of enemy blocks named with a kind in structures (views, messages). */
  structured: Set<string>;
  /** "id|kind" named in text. */
  text: Set<string>;
  /** Enemy blocks named with a strength. */
  strengths: string[];
  /** The enemy's purchase or deployment fields. */
  building: string[];
  /** Enemy kinds mentioned anywhere but the kind cards. */
  enemyKinds: Set<string>;
}

function kindOf(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && (v as { ref?: unknown }).ref === 'kind' && typeof (v as { id?: unknown }).id === 'string') return (v as { id: string }).id;
  return null;
}

function inspect(payload: unknown, role: string, enemyKindIds: ReadonlySet<string>, building: boolean): Facts {
  const enemy = role === 'Thargaton' ? 'Vesania' : 'Thargaton';
  const f: Facts = { structured: new Set(), text: new Set(), strengths: [], building: [], enemyKinds: new Set() };
  const visit = (v: unknown, key: string) => {
    if (Array.isArray(v)) {
      for (const x of v) visit(x, key);
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const idKey of ['id', 'unit']) {
        const id = o[idKey];
        if (typeof id !== 'string' || armyOf(id) !== enemy) continue;
        const kind = kindOf(o.kind);
        if (kind !== null) f.structured.add(`${id}|${kind}`);
        for (const k of ['strength', 'steps']) if (k in o) f.strengths.push(`${id} ${k} ${JSON.stringify(o[k])}`);
      }
      if (key === enemy) for (const k of ['bought', 'placed', 'budgetLeft']) if (k in o) f.building.push(`${enemy}.${k}`);
      for (const k in o) if (!PUBLIC_DATA.has(k)) visit(o[k], k);
    } else if (typeof v === 'string') {
      if (building) {
        if (enemyKindIds.has(v)) f.enemyKinds.add(v);
        for (const [name, kind] of KIND_BY_NAME) if (enemyKindIds.has(kind) && v.includes(name)) f.enemyKinds.add(kind);
      }
      NAMED_IN_TEXT.lastIndex = 0;
      for (const mt of v.matchAll(NAMED_IN_TEXT)) {
        const kind = KIND_BY_NAME.get(mt[2]!);
        if (kind && armyOf(mt[1]!) === enemy) f.text.add(`${mt[1]}|${kind}`);
      }
    }
  };
  visit(payload, '');
  return f;
}

interface BWLike {
  phase: string;
  options: { a54Revealed?: string };
  kinds: { id: string; army: string }[];
}

function checker(m: GameModule, states: readonly unknown[]): (role: string, version: number, payload: unknown, text: string) => string[] {
  const first = states.find((s) => s !== null && s !== undefined) as BWLike | undefined;
  const hide = first?.options.a54Revealed === 'hide';
  const kindsOf: Record<string, Set<string>> = {};
  const enemyKinds = (role: string) => (kindsOf[role] ??= new Set((first?.kinds ?? []).filter((k) => k.army !== role).map((k) => k.id)));
  const isBuilding = (v: number) => {
    const st = states[v] as BWLike | null | undefined;
    return !st || st.phase === 'purchase' || st.phase === 'deploy';
  };
  // What each seat's own view showed at each version (the (block, kind)
  // pairs), and what the rules revealed to it then (its log lines' pairs).
  const shown = new Map<string, { view: Set<string>; revealed: Set<string> }[]>();
  const at = (role: string, v: number): { view: Set<string>; revealed: Set<string> } => {
    let list = shown.get(role);
    if (!list) shown.set(role, (list = []));
    let k = list[v];
    if (!k) {
      const s = states[v];
      if (s === null || s === undefined || (v > 0 && s === states[v - 1])) {
        k = { view: v > 0 ? at(role, v - 1).view : new Set(), revealed: new Set() };
      } else {
        const view = inspect(m.view(s, role), role, enemyKinds(role), false).structured;
        const lines = m.logChange(s).entries.map((e) => m.logLine(e, role));
        k = { view, revealed: inspect(lines, role, enemyKinds(role), false).text };
      }
      list[v] = k;
    }
    return k;
  };
  const shownAt = (role: string, v: number) => at(role, v).view;
  // Everything shown at v or before, grown as versions are asked for.
  const known = new Map<string, { upTo: number; pairs: Set<string> }>();
  const knownUpTo = (role: string, v: number): Set<string> => {
    let k = known.get(role);
    if (!k || k.upTo > v) known.set(role, (k = { upTo: -1, pairs: new Set() }));
    for (let w = k.upTo + 1; w <= v; w++) {
      const { view, revealed } = at(role, w);
      for (const p of view) k.pairs.add(p);
      for (const p of revealed) k.pairs.add(p);
    }
    k.upTo = Math.max(k.upTo, v);
    return k.pairs;
  };
  return (role, version, payload) => {
    if (role !== 'Thargaton' && role !== 'Vesania') return [];
    const problems: string[] = [];
    const building = isBuilding(version);
    const f = inspect(payload, role, enemyKinds(role), building);
    const ever = knownUpTo(role, version);
    const now = shownAt(role, version);
    for (const p of f.structured) {
      const [id, kind] = p.split('|');
      if (!ever.has(p)) problems.push(`the kind of ${id} (${kind}), never shown to ${role}`);
      else if (hide && !now.has(p) && !isMessageOnly(payload, id!)) problems.push(`the kind of ${id} (${kind}), hidden again (a54Revealed hide)`);
    }
    for (const p of f.text) {
      const [id, kind] = p.split('|');
      if (!ever.has(p)) problems.push(`the kind of ${id} (${kind}) in text, never shown to ${role}`);
    }
    for (const s of f.strengths) problems.push(`an enemy block's strength: ${s}`);
    if (building) {
      for (const b of f.building) problems.push(`the enemy's army building before deployment ends: ${b}`);
      for (const k of f.enemyKinds) problems.push(`an enemy kind before deployment ends: ${k}`);
    }
    return problems;
  };
}

/**
 * A block named in a log message (`unit.known`) rather than in a view: log
 * lines are history, kept as the seat read them, even after A54 hides the
 * kind again.
 */
function isMessageOnly(payload: unknown, id: string): boolean {
  let inView = false;
  const visit = (v: unknown, inMessage: boolean) => {
    if (inView) return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, inMessage);
    } else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const message = inMessage || typeof o.key === 'string' || 'params' in o;
      if (!message && o.id === id && 'kind' in o) inView = true;
      for (const k in o) visit(o[k], message);
    }
  };
  visit(payload, false);
  return !inView;
}

export const blackAndWhiteLeakRules: LeakRules = {
  internalKeys: ['rng', 'undo', 'logFrom'],
  checker,
};
