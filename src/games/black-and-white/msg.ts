/**
 * Message builders for readable actions and log lines (engine/types.ts
 * Message): keys name the sentence, references name the game's things (kinds,
 * armies, types) so each language words them from its catalogue. A unit is
 * named by its id and, for whoever may know it, its kind; for anyone else
 * by its type (§9.4).
 */
import type { Message, MessageParam } from '../../engine/types.ts';
import { ARMIES, type Army } from './data-format.ts';
import type { BWState, LogEntry, Unit } from './state.ts';

export const msg = (key: string, params?: Record<string, MessageParam>): Message => (params ? { key, params } : { key });
export const kindRef = (kind: string): MessageParam => ({ ref: 'kind', id: kind });
export const typeRef = (type: string): MessageParam => ({ ref: 'type', id: type });
export const armyRef = (army: Army): MessageParam => ({ ref: 'army', id: army });
export const sub = (m: Message): MessageParam => ({ msg: m });

/** A unit as `seat` (null = spectator) may name it now. */
export function unitRef(u: Unit, seat: Army | null): MessageParam {
  return u.army === seat || u.revealed
    ? sub(msg('unit.known', { id: u.id, kind: kindRef(u.kind) }))
    : sub(msg('unit.hidden', { id: u.id, type: typeRef(u.type) }));
}

type Param = MessageParam | Unit;
const isUnit = (p: Param): p is Unit => typeof p === 'object' && p !== null && 'army' in p && 'kind' in p;

function render(key: string, params: Record<string, Param>, seat: Army | null): Message {
  const out: Record<string, MessageParam> = {};
  for (const [k, v] of Object.entries(params)) out[k] = isUnit(v) ? unitRef(v, seat) : v;
  return msg(key, out);
}

/**
 * A log line; units among the params are named as each seat may see them at
 * this moment (call it after a reveal to name the revealed kind).
 */
export function logLine(s: BWState, key: string, params: Record<string, Param> = {}): void {
  const pub = render(key, params, null);
  const by: Partial<Record<Army, Message>> = {};
  for (const a of ARMIES) {
    const m = render(key, params, a);
    if (JSON.stringify(m) !== JSON.stringify(pub)) by[a] = m;
  }
  s.log.push(Object.keys(by).length ? { pub, by } : { pub });
}

/** A log line for one seat only (its own secret doings); the others read `pub`. */
export function logOwn(s: BWState, army: Army, own: Message, pub: Message): void {
  s.log.push({ pub, by: { [army]: own } });
}

export function lineOf(e: LogEntry, seat: Army | null): Message {
  return (seat && e.by?.[seat]) || e.pub;
}
