// Hidden-information scanner: given the authoritative game record (game type,
// scenario, seed, options, the stored log entries) and every payload a seat
// received, reports anything in a payload that the seat may not know at that
// moment.
//
// The reference is the engine's own view for that seat (what was revealed
// once stays known). What is checked for every game type, here: the game's
// seed does not appear before the game is over, and no object has a key
// `seed` (before the end) or one the game's rules name as engine internals.
// What each seat may know of the game itself is the game's leak rules, one
// file per game type (./richard-iii.ts, ./black-and-white.ts), listed in LEAK_RULES; a game type
// without rules gets the generic checks alone.
import { games } from '../../src/games/index.ts';
import type { GameModule } from '../../src/engine/types.ts';
import { richardIIILeakRules } from './richard-iii.ts';
import { blackAndWhiteLeakRules } from './black-and-white.ts';

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
  gameType: string;
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

/** A game's own leak rules. */
export interface LeakRules {
  /** Keys of engine internals that no payload may hold (`seed` is checked for every game). */
  internalKeys: readonly string[];
  /**
   * The game's checker for one game: `states[v]` is the state at version v
   * (null before the start; the last is the game's end). The checker returns
   * the problems of one payload `role` received at `version` (`text`: its JSON).
   */
  checker(m: GameModule, states: readonly unknown[]): (role: string, version: number, payload: unknown, text: string) => string[];
}

/** Leak rules by game type. */
export const LEAK_RULES: Readonly<Record<string, LeakRules>> = {
  'richard-iii': richardIIILeakRules,
  'black-and-white': blackAndWhiteLeakRules,
};

const NO_RULES: LeakRules = { internalKeys: [], checker: () => () => [] };

/**
 * Every occurrence of a key of `keys` in `text`, a payload as JSON.stringify
 * writes it (no spaces): a key is `"k":` right after `{` or `,`, and inside a
 * string value its quotes would be escaped, so this finds keys and only keys.
 * A regular expression over the text the scan has anyway, not a walk of the
 * payload (which cost the B&W fuzz an eighth of its time).
 */
function keysIn(text: string, keys: RegExp): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(keys)) out.push(m[1]!);
  return out;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Scans the payloads of one game. Returns the findings (empty when nothing
 * leaked) and the number of payloads scanned. `modules`: the game modules by
 * type (default: the installed ones).
 */
export function scanGame(record: GameRecord, received: Received[], modules: Readonly<Record<string, GameModule>> = games): { findings: Finding[]; scanned: number } {
  const m = Object.hasOwn(modules, record.gameType) ? modules[record.gameType] : undefined;
  if (!m) throw new Error(`leak scan: unknown game type ${record.gameType}`);
  const rules = Object.hasOwn(LEAK_RULES, record.gameType) ? LEAK_RULES[record.gameType]! : NO_RULES;
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
  // A game ended by the service (a resignation, a timeout, an abort) is over from that entry on, its engine state not.
  const endedAt = entries.find((e) => e.kind === 'resign' || e.kind === 'timeout' || e.kind === 'abort')?.seq ?? Infinity;
  const check = rules.checker(m, states);
  const forbidden = new RegExp(`[{,]"(${['seed', ...rules.internalKeys].map(escapeRegExp).join('|')})":`, 'g');

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
    const over = v >= endedAt || (atState !== null && atState !== undefined && m.status(atState).over);
    if (record.seed && text.includes(record.seed) && !over) add('the seed');
    for (const k of keysIn(text, forbidden)) if (!(k === 'seed' && over)) add(`engine internals: key "${k}"`);
    for (const problem of check(r.role, v, r.payload, text)) add(problem);
  }
  return { findings, scanned: received.length };
}
