/**
 * Time controls: how much time each seat has, as plain JSON (stored with a game, chosen at
 * creation or set by a league). Integer milliseconds everywhere.
 *
 * - `none`: no clock.
 * - `correspondence`: a general start / increment / cap (Rally the Troops' model). A seat starts
 *   with `startMs`; each time it hands the turn over (see clock.ts) it gets `incrementMs` more,
 *   up to `capMs`. Lichess's "N days per move" is the special case start = increment = cap =
 *   N days: every handover refills the seat to N days. Correspondence clocks can be paused
 *   (vacation).
 * - `fischer`: a total per seat plus an increment per handover, no cap, for live bot play. Never
 *   paused.
 *
 * Callers send either a canonical control, `{kind: 'correspondence', daysPerMove: 1..14}` or
 * `{kind: 'preset', name}`; validateTimeControl turns each into the canonical form, or lists
 * every problem with the field it is about (for a 422).
 *
 * Every clocked control may also say what a timeout does, `onTimeout`: `loss` (the default: the
 * seat that ran out loses at once) or `claim` (the game goes on until the opponent claims the
 * win; src/clocks/timeout.ts). The canonical form carries `onTimeout: 'claim'` and leaves the
 * default out, so controls stored before the field existed read as `loss` unchanged.
 */

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** What happens when a seat's time runs out: it loses at once, or the opponent may claim the win. */
export type TimeoutPolicy = 'loss' | 'claim';
export const TIMEOUT_POLICIES: readonly TimeoutPolicy[] = ['loss', 'claim'];

export type TimeControl =
  | { kind: 'none' }
  | { kind: 'correspondence'; startMs: number; incrementMs: number; capMs: number; onTimeout?: 'claim' }
  | { kind: 'fischer'; initialMs: number; incrementMs: number; onTimeout?: 'claim' };

/** The control's timeout policy (`loss` unless it says `claim`). */
export function timeoutPolicy(control: TimeControl): TimeoutPolicy {
  return control.kind !== 'none' && control.onTimeout === 'claim' ? 'claim' : 'loss';
}

export type CorrespondenceControl = Extract<TimeControl, { kind: 'correspondence' }>;
export type FischerControl = Extract<TimeControl, { kind: 'fischer' }>;

/** Lichess's "days per move": the seat's time refills to `days` after every handover. */
export function daysPerMove(days: number): CorrespondenceControl {
  return { kind: 'correspondence', startMs: days * DAY, incrementMs: days * DAY, capMs: days * DAY };
}

/**
 * Named controls. The `rally-*` ones are Rally the Troops' (start / added per move / cap);
 * `rally-none` is its "no limit", which is really 21 days per move.
 */
export const PRESETS = {
  'rally-fast': { kind: 'correspondence', startMs: 24 * HOUR, incrementMs: 4 * HOUR, capMs: 72 * HOUR },
  'rally-normal': { kind: 'correspondence', startMs: 72 * HOUR, incrementMs: 12 * HOUR, capMs: 120 * HOUR },
  'rally-slow': { kind: 'correspondence', startMs: 72 * HOUR, incrementMs: 36 * HOUR, capMs: 240 * HOUR },
  'rally-none': daysPerMove(21),
  'days-1': daysPerMove(1),
  'days-2': daysPerMove(2),
  'days-3': daysPerMove(3),
  'days-5': daysPerMove(5),
  'days-7': daysPerMove(7),
  'days-10': daysPerMove(10),
  'days-14': daysPerMove(14),
  'bot-blitz': { kind: 'fischer', initialMs: 5 * MINUTE, incrementMs: 3 * SECOND },
  'bot-rapid': { kind: 'fischer', initialMs: 15 * MINUTE, incrementMs: 10 * SECOND },
} as const satisfies Record<string, TimeControl>;

export type PresetName = keyof typeof PRESETS;

/**
 * Ranges a control must fall in. Correspondence runs from an hour (shorter is live play, use
 * fischer) to 30 days (above Rally's 21-day "none"); fischer from a second to a day in total, with
 * at most an hour added per move. Anything outside is refused as absurd rather than clamped.
 */
export const LIMITS = {
  correspondence: { minMs: HOUR, maxMs: 30 * DAY },
  daysPerMove: { min: 1, max: 14 },
  fischer: { minInitialMs: SECOND, maxInitialMs: DAY, maxIncrementMs: HOUR },
} as const;

export type ControlProblemCode = 'wrong-type' | 'missing' | 'unknown-kind' | 'unknown-preset' | 'unknown-field' | 'out-of-range' | 'inconsistent' | 'unknown-policy';

/** One thing wrong with a submitted control; `field` is a dotted path from the control (e.g. `capMs`). */
export interface ControlProblem {
  code: ControlProblemCode;
  field: string;
  message: string;
}

export type ControlResult = { ok: true; control: TimeControl } | { ok: false; problems: ControlProblem[] };

const FIELDS: Record<string, readonly string[]> = {
  none: ['kind'],
  correspondence: ['kind', 'startMs', 'incrementMs', 'capMs', 'onTimeout'],
  'correspondence-days': ['kind', 'daysPerMove', 'onTimeout'],
  fischer: ['kind', 'initialMs', 'incrementMs', 'onTimeout'],
  preset: ['kind', 'name', 'onTimeout'],
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads an integer field in [min, max], pushing a problem (and returning null) when it is not one. */
function intField(o: Record<string, unknown>, field: string, min: number, max: number, problems: ControlProblem[]): number | null {
  const v = o[field];
  if (v === undefined) {
    problems.push({ code: 'missing', field, message: `${field} is required` });
    return null;
  }
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    problems.push({ code: 'wrong-type', field, message: `${field} must be an integer (milliseconds unless named otherwise)` });
    return null;
  }
  if (v < min || v > max) {
    problems.push({ code: 'out-of-range', field, message: `${field} must be from ${min} to ${max}, got ${v}` });
    return null;
  }
  return v;
}

/** Checks a submitted control and returns its canonical form, or every problem found. */
export function validateTimeControl(input: unknown): ControlResult {
  const problems: ControlProblem[] = [];
  if (!isRecord(input)) return { ok: false, problems: [{ code: 'wrong-type', field: '', message: 'a time control is an object with a kind' }] };
  const kind = input.kind;
  if (typeof kind !== 'string') {
    return { ok: false, problems: [{ code: kind === undefined ? 'missing' : 'wrong-type', field: 'kind', message: 'kind must be one of none, correspondence, fischer, preset' }] };
  }
  const shape = kind === 'correspondence' && 'daysPerMove' in input ? 'correspondence-days' : kind;
  const allowed = FIELDS[shape];
  if (!allowed) return { ok: false, problems: [{ code: 'unknown-kind', field: 'kind', message: `unknown kind ${JSON.stringify(kind)}: use none, correspondence, fischer or preset` }] };
  for (const key of Object.keys(input)) {
    if (!allowed.includes(key)) problems.push({ code: 'unknown-field', field: key, message: `${key} is not a field of a ${kind} control` });
  }
  let control: TimeControl | null = null;
  if (shape === 'none') control = { kind: 'none' };
  else if (shape === 'preset') {
    const name = input.name;
    if (typeof name !== 'string') problems.push({ code: name === undefined ? 'missing' : 'wrong-type', field: 'name', message: 'name must be a preset name' });
    else if (!Object.hasOwn(PRESETS, name)) problems.push({ code: 'unknown-preset', field: 'name', message: `unknown preset ${JSON.stringify(name)}: one of ${Object.keys(PRESETS).join(', ')}` });
    else control = PRESETS[name as PresetName];
  } else if (shape === 'correspondence-days') {
    const { min, max } = LIMITS.daysPerMove;
    const days = intField(input, 'daysPerMove', min, max, problems);
    if (days !== null) control = daysPerMove(days);
  } else if (shape === 'correspondence') {
    const { minMs, maxMs } = LIMITS.correspondence;
    const startMs = intField(input, 'startMs', minMs, maxMs, problems);
    const incrementMs = intField(input, 'incrementMs', 0, maxMs, problems);
    const capMs = intField(input, 'capMs', minMs, maxMs, problems);
    if (startMs !== null && capMs !== null && capMs < startMs) problems.push({ code: 'inconsistent', field: 'capMs', message: `capMs (${capMs}) must be at least startMs (${startMs})` });
    if (incrementMs !== null && capMs !== null && incrementMs > capMs) problems.push({ code: 'inconsistent', field: 'incrementMs', message: `incrementMs (${incrementMs}) must not exceed capMs (${capMs})` });
    if (startMs !== null && incrementMs !== null && capMs !== null) control = { kind: 'correspondence', startMs, incrementMs, capMs };
  } else {
    const f = LIMITS.fischer;
    const initialMs = intField(input, 'initialMs', f.minInitialMs, f.maxInitialMs, problems);
    const incrementMs = intField(input, 'incrementMs', 0, f.maxIncrementMs, problems);
    if (initialMs !== null && incrementMs !== null) control = { kind: 'fischer', initialMs, incrementMs };
  }
  let claim = false;
  if (shape !== 'none' && input.onTimeout !== undefined) {
    const p = input.onTimeout;
    if (typeof p !== 'string') problems.push({ code: 'wrong-type', field: 'onTimeout', message: 'onTimeout must be "loss" or "claim"' });
    else if (!(TIMEOUT_POLICIES as readonly string[]).includes(p)) problems.push({ code: 'unknown-policy', field: 'onTimeout', message: `onTimeout must be "loss" or "claim", got ${JSON.stringify(p)}` });
    else claim = p === 'claim';
  }
  if (problems.length > 0 || control === null) return { ok: false, problems };
  // A fresh copy: presets are shared constants, and callers may store or change what they get.
  return { ok: true, control: claim && control.kind !== 'none' ? { ...control, onTimeout: 'claim' } : { ...control } };
}

/** Time a seat starts the game with; null = unlimited. */
export function initialTime(control: TimeControl): number | null {
  switch (control.kind) {
    case 'none': return null;
    case 'correspondence': return control.startMs;
    case 'fischer': return control.initialMs;
  }
}

/** A seat's remaining time after it hands the turn over with `remainingMs` left. */
export function afterHandover(control: TimeControl, remainingMs: number): number {
  switch (control.kind) {
    case 'none': return remainingMs;
    // Never take time away: a seat above the cap (only possible if the cap were lowered) keeps it.
    case 'correspondence': return Math.max(remainingMs, Math.min(remainingMs + control.incrementMs, control.capMs));
    case 'fischer': return remainingMs + control.incrementMs;
  }
}

/** Vacation pauses correspondence clocks only; live (fischer) games go on. */
export function canPause(control: TimeControl): boolean {
  return control.kind === 'correspondence';
}
