// Readable actions (issue 16): each legal action with a stable id and a label
// in the caller's language, the same actions as a menu tree for chat UIs that
// offer at most 25 choices per step, and log lines worded from messages.
// Labels and groups come from the game module (describeAction, actionGroups,
// logMessage: messages, never text); this file only formats and arranges them.
import type { GameModule, Message } from '../engine/types.ts';
import { Formatter, loadCatalogues, type Language } from '../i18n/index.ts';
import type { Json } from '../bus/bus.ts';
import { canonicalJson, hashJson } from './json.ts';

/** The most options one step of the tree offers (Discord select menus and autocomplete). */
export const MAX_CHOICES = 25;

export interface Choice {
  /** Stable id: the same action has the same id at the same version, in every request. */
  id: string;
  label: string;
  action: Json;
}

/** A step of the menu: `children` to choose among, or a leaf naming one action by `id`. */
export interface ChoiceNode {
  label: string;
  id?: string;
  children?: ChoiceNode[];
}

const formatters = new WeakMap<GameModule, Formatter | null>();

/** The game's formatter (catalogues loaded and compiled once per module), or null when it has no messages. */
export function formatterOf(m: GameModule): Formatter | null {
  let f = formatters.get(m);
  if (f === undefined) {
    f = m.messagesDir ? new Formatter(loadCatalogues(m.messagesDir)) : null;
    formatters.set(m, f);
  }
  return f;
}

const SIMPLE = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * An action's id from its machine form alone: its type and argument values in
 * key order (`retreat:warwick-y:kent`), readable and short enough for a
 * Discord custom_id; an action whose values are not short plain words gets
 * its type and a hash of its canonical JSON instead.
 */
export function readableId(action: Json): string {
  if (typeof action !== 'object' || action === null || Array.isArray(action)) return `h-${hashJson(action).slice(0, 16)}`;
  const o = action as Record<string, Json>;
  const type = typeof o.type === 'string' && SIMPLE.test(o.type) ? o.type : null;
  const values = Object.keys(o).filter((k) => k !== 'type').sort().map((k) => o[k]);
  if (type !== null && values.every((v) => (typeof v === 'string' && SIMPLE.test(v)) || (Number.isSafeInteger(v) && (v as number) >= 0))) {
    return [type, ...values.map(String)].join(':');
  }
  return `${type ?? 'action'}:h-${hashJson(action).slice(0, 16)}`;
}

/**
 * Ids for a legal list: readable ids, except that actions whose readable ids
 * collide (two key sets with the same values) get hashed ids, so every id in
 * the list names exactly one action.
 */
export function actionIds(actions: readonly Json[]): string[] {
  const ids = actions.map(readableId);
  const count = new Map<string, number>();
  for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
  return ids.map((id, i) => (count.get(id)! > 1 ? `h-${hashJson(actions[i]).slice(0, 16)}` : id));
}

/** The action a list's id names, or undefined. */
export function actionById(actions: readonly Json[], id: string): Json | undefined {
  const ids = actionIds(actions);
  const i = ids.indexOf(id);
  return i < 0 ? undefined : actions[i];
}

function formatOr(m: GameModule, lang: Language, msg: Message | undefined, fallback: string): string {
  const f = formatterOf(m);
  return f && msg ? f.format(lang, msg) : fallback;
}

/** The legal actions with ids and labels in `lang` (a game without labels: the canonical JSON as label). */
export function labelledActions(m: GameModule, state: unknown, role: string, actions: readonly Json[], lang: Language): Choice[] {
  const ids = actionIds(actions);
  return actions.map((action, i) => ({
    id: ids[i]!,
    label: formatOr(m, lang, m.describeAction?.(state, role, action), canonicalJson(action)),
    action,
  }));
}

/**
 * The legal actions as a tree: the game's groups (e.g. "Blocks in Kent" →
 * "Move Warwick from Kent to …"), a group with one choice replaced by that
 * choice, and any step with more than MAX_CHOICES options split into
 * alphabetical ranges ("Arundel … Norfolk"), nested as deep as needed. Every
 * action is one leaf, reached by exactly one path.
 */
export function choiceTree(m: GameModule, state: unknown, role: string, choices: readonly Choice[], lang: Language): ChoiceNode {
  interface Build { label: string; id?: string; kids: Map<string, Build> }
  const root: Build = { label: '', kids: new Map() };
  for (const c of choices) {
    let at = root;
    for (const g of m.actionGroups?.(state, role, c.action) ?? []) {
      const key = `g:${canonicalJson(g as unknown as Json)}`;
      let next = at.kids.get(key);
      if (!next) at.kids.set(key, (next = { label: formatOr(m, lang, g, g.key), kids: new Map() }));
      at = next;
    }
    at.kids.set(`a:${c.id}`, { label: c.label, id: c.id, kids: new Map() });
  }
  const collator = new Intl.Collator(lang);
  // A range of ranges is named by the labels at its two ends, not by its first and last ranges' names.
  const ends = new WeakMap<ChoiceNode, { first: string; last: string }>();
  const range = (nodes: ChoiceNode[]): ChoiceNode => {
    const first = ends.get(nodes[0]!)?.first ?? nodes[0]!.label;
    const last = ends.get(nodes[nodes.length - 1]!)?.last ?? nodes[nodes.length - 1]!.label;
    const node = { label: formatOr(m, lang, { key: 'tree.range', params: { first, last } }, `${first} … ${last}`), children: nodes };
    ends.set(node, { first, last });
    return node;
  };
  const limit = (nodes: ChoiceNode[], sorted_ = false): ChoiceNode[] => {
    if (nodes.length <= MAX_CHOICES) return nodes;
    // Ranges are already in order (and their labels would not sort by their ends).
    const sorted = sorted_ ? nodes : [...nodes].sort((a, b) => collator.compare(a.label, b.label));
    const size = Math.ceil(sorted.length / Math.ceil(sorted.length / MAX_CHOICES));
    const pages: ChoiceNode[] = [];
    for (let i = 0; i < sorted.length; i += size) pages.push(range(sorted.slice(i, i + size)));
    return limit(pages, true);
  };
  const finish = (b: Build): ChoiceNode => {
    if (b.id !== undefined) return { label: b.label, id: b.id };
    let kids = [...b.kids.values()].map(finish);
    kids = kids.map((k) => (k.children && k.children.length === 1 ? k.children[0]! : k));
    return { label: b.label, children: limit(kids) };
  };
  return finish(root);
}

/** The log entries as this seat reads them in `lang`: from their messages, or the engine's text for entries without one. */
export function logLines(m: GameModule, entries: readonly unknown[], role: string | null, lang: Language): string[] {
  const f = formatterOf(m);
  return entries.map((e) => {
    const msg = f ? m.logMessage?.(e, role) : null;
    return f && msg ? f.format(lang, msg) : m.logLine(e, role);
  });
}
