// A league's settings: the checks of what an organiser sends (create and update) and the
// defaults. One function per concern so that create and update apply the same rules; every
// refusal names the setting (invalid_settings, extensions.setting) and nothing is stored.
import type { Json } from '../bus/bus.ts';
import { TIE_BREAKS, type TieBreak } from '../leagues/standings.ts';
import type { GameModule } from '../engine/types.ts';
import { LEAGUE_FORMATS, type LeagueFormat, type LeagueSettings, type LeagueSettingsInput, type LeagueUpdateInput, type LeagueVisibility } from './league-api.ts';
import type { Ctx } from './context.ts';
import { findModule, unplayableGameType } from './context.ts';
import { ServiceError } from './errors.ts';
import { resolveOptions } from './game-types.ts';
import { isPlainObject, jsonWithin, MAX_JSON_DEPTH } from './json.ts';
import { timeoutPolicy, validateTimeControl } from '../clocks/index.ts';
import { parseClientTime } from './times.ts';
import { MAX_EVERY_DAYS, UNFINISHED_POLICIES, type RoundSchedule } from '../leagues/calendar.ts';

export const MAX_NAME = 100;
export const MAX_DESCRIPTION = 4000;
export const MAX_ENTRANTS = 4096;
export const MAX_SWISS_ROUNDS = 64;
const MAX_SCENARIOS = 20;

const SETTING_KEYS = [
  'name', 'description', 'visibility', 'gameType', 'scenarios', 'options', 'format', 'rounds', 'pools', 'points', 'tieBreaks',
  'sidePolicy', 'harderSide', 'rated', 'timeControl', 'vacationDays', 'noVacationInLastRound', 'maxEntrants', 'registrationOpensAt', 'registrationClosesAt', 'lateEntry',
  'withdrawal', 'autoPair', 'schedule', 'play',
] as const;

/** Settings an organiser may still change once the league has started (the rest shape pairings already made). */
const CHANGEABLE_RUNNING = new Set(['name', 'description', 'visibility', 'autoPair', 'schedule', 'tieBreaks', 'registrationClosesAt', 'lateEntry', 'harderSide']);

export function bad(setting: string, detail: string, field?: string): ServiceError {
  return new ServiceError('invalid_settings', detail, { setting, ...(field !== undefined ? { field } : {}) });
}

function isInt(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

function oneOf<T extends string>(setting: string, v: unknown, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !allowed.includes(v as T)) throw bad(setting, `${setting} must be one of ${allowed.join(', ')}.`);
  return v as T;
}

function bool(setting: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw bad(setting, `${setting} must be true or false.`);
  return v;
}

function text(setting: string, v: unknown, max: number, min = 0): string {
  if (typeof v !== 'string' || v.trim().length < min || v.length > max) {
    throw bad(setting, `${setting} must be a string of ${min > 0 ? `${min} to ` : 'at most '}${max} characters.`);
  }
  return min > 0 ? v.trim() : v;
}

function date(setting: string, v: unknown, field?: string): string | null {
  if (v === null) return null;
  // The rule of every time a client sends (times.ts): with Z or an offset, a real date, years 1–9999.
  const t = parseClientTime(v);
  if (t === null) {
    throw bad(setting, `${field ?? setting} must be an ISO 8601 date-time with Z or an offset, a real date from year 1 to 9999 (e.g. 2026-12-01T18:00:00Z)${field ? '' : ' or null'}.`, field);
  }
  return new Date(t).toISOString();
}

/**
 * A round schedule (src/leagues/calendar.ts): {firstRoundAt, everyDays, unfinished}. An update
 * may send only the fields it changes; the others keep their value (a new schedule needs the
 * first two; unfinished defaults to wait). Each refusal names the field.
 */
function scheduleOf(v: unknown, current: RoundSchedule | null): RoundSchedule {
  const keys = ['firstRoundAt', 'everyDays', 'unfinished'];
  if (!isPlainObject(v)) throw bad('schedule', 'schedule must be an object {firstRoundAt, everyDays, unfinished} or null.');
  const unknown = Object.keys(v).filter((k) => !keys.includes(k));
  if (unknown.length > 0) throw bad('schedule', `schedule takes firstRoundAt, everyDays and unfinished, not ${unknown.map((k) => JSON.stringify(k.slice(0, 50))).join(', ')}.`, `schedule.${unknown[0]!.slice(0, 50)}`);
  const out = { ...(current ?? { unfinished: 'wait' as const }), ...v } as Partial<Record<string, unknown>>;
  if (out.firstRoundAt === undefined) throw bad('schedule', 'schedule.firstRoundAt is required: when round 1 is due (ISO 8601).', 'schedule.firstRoundAt');
  // A stored league keeps the date it has when an update leaves it alone (one stored before the rule was strict still loads and updates).
  const first = current !== null && v.firstRoundAt === undefined ? current.firstRoundAt : date('schedule', out.firstRoundAt === null ? undefined : out.firstRoundAt, 'schedule.firstRoundAt');
  if (!isInt(out.everyDays, 1, MAX_EVERY_DAYS)) throw bad('schedule', `schedule.everyDays must be an integer from 1 to ${MAX_EVERY_DAYS}: the days between rounds.`, 'schedule.everyDays');
  const unfinished = typeof out.unfinished === 'string' && (UNFINISHED_POLICIES as readonly string[]).includes(out.unfinished) ? (out.unfinished as RoundSchedule['unfinished']) : null;
  if (unfinished === null) throw bad('schedule', `schedule.unfinished must be one of ${UNFINISHED_POLICIES.join(', ')}.`, 'schedule.unfinished');
  return { firstRoundAt: first!, everyDays: out.everyDays, unfinished };
}

function pointsOf(v: unknown): LeagueSettings['points'] {
  if (!isPlainObject(v) || Object.keys(v).some((k) => !['win', 'draw', 'loss'].includes(k))) {
    throw bad('points', 'points must be an object {win, draw, loss}.');
  }
  const out = { win: 1, draw: 0.5, loss: 0, ...v } as Record<string, unknown>;
  for (const k of ['win', 'draw', 'loss']) {
    const p = out[k];
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 100 || !Number.isInteger(p * 2)) {
      throw bad('points', `points.${k} must be a multiple of ½ from 0 to 100.`);
    }
  }
  const { win, draw, loss } = out as LeagueSettings['points'];
  // draw < win strictly: the standings and pairing core (leagues/results.ts pointUnits) refuses a
  // draw worth a win, so such a league could be created but every standings read would fail.
  if (!(win > draw) || draw < loss) throw bad('points', 'points must order win > draw ≥ loss.');
  return { win, draw, loss };
}

function tieBreaksOf(v: unknown): TieBreak[] {
  if (!Array.isArray(v) || v.length > TIE_BREAKS.length) throw bad('tieBreaks', `tieBreaks must be a list of at most ${TIE_BREAKS.length} of ${TIE_BREAKS.join(', ')}.`);
  for (const t of v) {
    // Named only when it is a string: JSON.stringify of a 10,000-deep array overflows the stack (a 500).
    const named = typeof t === 'string' ? JSON.stringify(t.slice(0, 100)) : `of type ${Array.isArray(t) ? 'array' : t === null ? 'null' : typeof t}`;
    if (!TIE_BREAKS.includes(t as TieBreak)) throw bad('tieBreaks', `Unknown tie-break ${named}: use ${TIE_BREAKS.join(', ')}.`);
  }
  if (new Set(v).size !== v.length) throw bad('tieBreaks', 'A tie-break is listed twice.');
  return v as TieBreak[];
}

export function defaultTieBreaks(format: LeagueFormat): TieBreak[] {
  return format === 'swiss' ? ['buchholz-cut1', 'buchholz', 'sonneborn-berger'] : ['direct-encounter', 'sonneborn-berger', 'wins'];
}

/** A whole new league from what the organiser sent. */
export function resolveNewLeague(ctx: Ctx, input: LeagueSettingsInput): {
  name: string; description: string; visibility: LeagueVisibility; gameType: string; format: LeagueFormat; settings: LeagueSettings;
} {
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const unknown = Object.keys(input).filter((k) => !(SETTING_KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new ServiceError('invalid_request', `Unknown field(s): ${unknown.join(', ')}.`, { fields: unknown });
  const m = findModule(ctx, input.gameType);
  if (!m) throw bad('gameType', unplayableGameType(ctx, input.gameType).message);
  const format = oneOf('format', input.format, LEAGUE_FORMATS);
  const base: LeagueSettings = {
    scenarios: [m.scenarios[0]!.id],
    options: {},
    rounds: null,
    pools: null,
    points: { win: 1, draw: 0.5, loss: 0 },
    tieBreaks: defaultTieBreaks(format),
    sidePolicy: 'balanced',
    harderSide: null,
    rated: false,
    timeControl: null,
    vacationDays: null,
    noVacationInLastRound: false,
    maxEntrants: null,
    registrationOpensAt: null,
    registrationClosesAt: null,
    lateEntry: 'closed',
    withdrawal: 'forfeit',
    autoPair: true,
    schedule: null,
    play: 'herald',
  };
  const out = {
    name: text('name', input.name, MAX_NAME, 1),
    description: input.description === undefined ? '' : text('description', input.description, MAX_DESCRIPTION),
    visibility: input.visibility === undefined ? 'public' as const : oneOf<LeagueVisibility>('visibility', input.visibility, ['public', 'unlisted']),
    gameType: m.id,
    format,
    settings: applySettings(m, format, base, input),
  };
  return out;
}

/** The settings after an organiser's update; `started`: the league is running or finished. */
export function resolveUpdate(
  ctx: Ctx,
  league: { gameType: string; format: LeagueFormat; settings: LeagueSettings; name: string; description: string; visibility: LeagueVisibility },
  input: LeagueUpdateInput,
  started: boolean,
): { name: string; description: string; visibility: LeagueVisibility; settings: LeagueSettings } {
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const keys = Object.keys(input);
  const fixed = keys.filter((k) => k === 'gameType' || k === 'format');
  if (fixed.length > 0) throw bad(fixed[0]!, `A league's ${fixed[0]} cannot be changed; create another league.`);
  const unknown = keys.filter((k) => !(SETTING_KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new ServiceError('invalid_request', `Unknown field(s): ${unknown.join(', ')}.`, { fields: unknown });
  if (started) {
    const locked = keys.filter((k) => !CHANGEABLE_RUNNING.has(k));
    if (locked.length > 0) {
      throw new ServiceError('invalid_state', `The league has started: ${locked.join(', ')} can no longer be changed (still changeable: ${[...CHANGEABLE_RUNNING].join(', ')}).`, { setting: locked[0] });
    }
  }
  const m = findModule(ctx, league.gameType);
  if (!m) throw new ServiceError('invalid_state', `The game type ${league.gameType} is not installed on this server.`);
  return {
    name: input.name === undefined ? league.name : text('name', input.name, MAX_NAME, 1),
    description: input.description === undefined ? league.description : text('description', input.description, MAX_DESCRIPTION),
    visibility: input.visibility === undefined ? league.visibility : oneOf<LeagueVisibility>('visibility', input.visibility, ['public', 'unlisted']),
    settings: applySettings(m, league.format, league.settings, input),
  };
}

function applySettings(m: GameModule, format: LeagueFormat, base: LeagueSettings, input: LeagueUpdateInput): LeagueSettings {
  const s: LeagueSettings = structuredClone(base);
  if (input.scenarios !== undefined) {
    const v = input.scenarios;
    if (!Array.isArray(v) || v.length < 1 || v.length > MAX_SCENARIOS || v.some((id) => typeof id !== 'string' || !m.scenarios.some((sc) => sc.id === id))) {
      throw bad('scenarios', `scenarios must list 1 to ${MAX_SCENARIOS} of ${m.scenarios.map((sc) => sc.id).join(', ')}.`);
    }
    s.scenarios = [...v];
  }
  if (input.options !== undefined) {
    if (!isPlainObject(input.options) || !jsonWithin(input.options, 10_000)) throw bad('options', `options must be a JSON object (at most 10,000 bytes, nested at most ${MAX_JSON_DEPTH} deep).`);
    s.options = input.options as Record<string, Json>;
  }
  // Every scenario must accept the options (each league game is created with them).
  for (const sc of s.scenarios) resolveOptions(m, sc, s.options, 'invalid_options');
  if (input.rounds !== undefined) {
    if (format !== 'swiss') throw bad('rounds', `rounds is for Swiss leagues; a ${format} has as many rounds as its schedule.`);
    if (!isInt(input.rounds, 1, MAX_SWISS_ROUNDS)) throw bad('rounds', `rounds must be an integer from 1 to ${MAX_SWISS_ROUNDS}.`);
    s.rounds = input.rounds;
  }
  if (format === 'swiss' && s.rounds === null) throw bad('rounds', 'A Swiss league needs rounds (1 to 64).');
  if (input.pools !== undefined) {
    if (format !== 'pools') throw bad('pools', 'pools is for the pools format.');
    const p = input.pools as unknown;
    if (!isPlainObject(p) || Object.keys(p).some((k) => k !== 'count' && k !== 'qualifiers') || !isInt(p.count, 2, 64) || !isInt(p.qualifiers, 1, 8)) {
      throw bad('pools', 'pools must be {count: 2–64, qualifiers: 1–8}.');
    }
    s.pools = { count: p.count, qualifiers: p.qualifiers };
  }
  if (format === 'pools' && s.pools === null) throw bad('pools', 'A pools league needs pools {count, qualifiers}.');
  if (input.points !== undefined) s.points = pointsOf(input.points);
  if (input.tieBreaks !== undefined) s.tieBreaks = tieBreaksOf(input.tieBreaks);
  if (input.sidePolicy !== undefined) s.sidePolicy = oneOf('sidePolicy', input.sidePolicy, ['balanced', 'random']);
  if (input.harderSide !== undefined) s.harderSide = input.harderSide === null ? null : oneOf<'first' | 'second'>('harderSide', input.harderSide, ['first', 'second']);
  if (input.rated !== undefined) s.rated = bool('rated', input.rated);
  if (input.timeControl !== undefined) {
    if (input.timeControl === null) s.timeControl = null;
    else {
      // The league's games are created with it (league-rounds.ts publishTx): stored in canonical form, none as null.
      const r = validateTimeControl(input.timeControl);
      if (!r.ok) throw new ServiceError('invalid_settings', `timeControl is not a valid time control: ${r.problems.map((p) => p.message).join('; ')}.`, { setting: 'timeControl', problems: r.problems });
      // Leagues use the automatic loss (issue 15): a board must end without waiting on a claim.
      if (timeoutPolicy(r.control) === 'claim') {
        throw new ServiceError('invalid_settings', 'timeControl.onTimeout: a league\'s games lose on time automatically (onTimeout loss); claim is for games outside leagues.', {
          setting: 'timeControl', problems: [{ code: 'unknown-policy', field: 'onTimeout', message: 'a league\'s time control cannot say onTimeout claim' }],
        });
      }
      s.timeControl = r.control.kind === 'none' ? null : (r.control as unknown as Record<string, Json>);
    }
  }
  if (input.vacationDays !== undefined) {
    if (input.vacationDays !== null && !isInt(input.vacationDays, 0, 180)) throw bad('vacationDays', 'vacationDays must be an integer from 0 to 180, or null (the server\'s allowance).');
    s.vacationDays = input.vacationDays;
  }
  if (input.noVacationInLastRound !== undefined) s.noVacationInLastRound = bool('noVacationInLastRound', input.noVacationInLastRound);
  if (input.maxEntrants !== undefined) {
    if (input.maxEntrants !== null && !isInt(input.maxEntrants, 2, MAX_ENTRANTS)) throw bad('maxEntrants', `maxEntrants must be an integer from 2 to ${MAX_ENTRANTS}, or null.`);
    s.maxEntrants = input.maxEntrants;
  }
  if (input.registrationOpensAt !== undefined) s.registrationOpensAt = date('registrationOpensAt', input.registrationOpensAt);
  if (input.registrationClosesAt !== undefined) s.registrationClosesAt = date('registrationClosesAt', input.registrationClosesAt);
  if (s.registrationOpensAt && s.registrationClosesAt && s.registrationClosesAt <= s.registrationOpensAt) {
    throw bad('registrationClosesAt', 'registrationClosesAt must be after registrationOpensAt.');
  }
  if (input.lateEntry !== undefined) s.lateEntry = oneOf('lateEntry', input.lateEntry, ['closed', 'zero', 'half']);
  if (s.lateEntry !== 'closed' && format !== 'swiss') throw bad('lateEntry', 'Late entry is for Swiss leagues only (a schedule cannot take a new player).');
  if (input.withdrawal !== undefined) s.withdrawal = oneOf('withdrawal', input.withdrawal, ['forfeit', 'annul']);
  if (input.autoPair !== undefined) s.autoPair = bool('autoPair', input.autoPair);
  if (input.schedule !== undefined) s.schedule = input.schedule === null ? null : scheduleOf(input.schedule, s.schedule);
  if (s.schedule && s.lateEntry === 'closed' && s.registrationClosesAt && s.schedule.firstRoundAt < s.registrationClosesAt) {
    throw bad('schedule', `schedule.firstRoundAt (${s.schedule.firstRoundAt}) is before registration closes (${s.registrationClosesAt}).`, 'schedule.firstRoundAt');
  }
  if (input.play !== undefined) s.play = oneOf('play', input.play, ['herald', 'elsewhere']);
  if (s.play === 'elsewhere' && s.rated) throw bad('rated', 'Ratings come from games played on Herald: a league played elsewhere cannot be rated.');
  return s;
}
