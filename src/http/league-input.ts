// Shape checks of league input shared by REST (routes/leagues.ts) and GraphQL
// (graphql/leagues.ts): ids, round numbers, pairing edits, results. Wrong
// shapes are invalid_request (malformed ids not_found, as for games); the
// values' meaning (settings, who may do what) is the service's to judge.
import { isRoundNumber, PAIRING_RESULTS, ROUND_RULE, ServiceError, type LeagueStatus, type PairingEdit, type PairingResult, type ReportableResult } from '../service/api.ts';
import { onlyFields } from './routes/query.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every field a new league's body may hold (LeagueSettingsInput); the service checks their values. */
export const LEAGUE_SETTINGS_FIELDS = [
  'name', 'description', 'visibility', 'gameType', 'scenarios', 'options', 'format', 'rounds', 'pools', 'points', 'tieBreaks',
  'sidePolicy', 'harderSide', 'rated', 'timeControl', 'vacationDays', 'noVacationInLastRound', 'maxEntrants', 'registrationOpensAt', 'registrationClosesAt', 'lateEntry',
  'withdrawal', 'autoPair', 'schedule', 'play',
] as const;
/** What PATCH /leagues/{id} may change: everything but the game type and the format. */
export const LEAGUE_UPDATE_FIELDS = LEAGUE_SETTINGS_FIELDS.filter((f) => f !== 'gameType' && f !== 'format');

export const LEAGUE_STATUSES: readonly LeagueStatus[] = ['registration', 'running', 'finished'];
const REPORTABLE: readonly ReportableResult[] = ['first', 'second', 'draw'];

/**
 * A league, pairing or player id from the path. Like a game id, a malformed
 * one names nothing: 404 not_found, the same answer as an id that does not exist.
 */
export function pathId(value: string, what: 'league' | 'pairing' | 'player'): string {
  if (!UUID.test(value)) throw new ServiceError('not_found', `No ${what} ${value}.`);
  return value;
}

/** A round number from the path or query: 1 to MAX_ROUND, else 400 (a number is not an id: a typo is a client mistake). */
export function roundNumber(value: string): number {
  const n = /^[1-9]\d{0,8}$/.test(value) ? Number(value) : NaN;
  if (!isRoundNumber(n)) throw new ServiceError('invalid_request', `The round must be ${ROUND_RULE}, not ${JSON.stringify(value.slice(0, 50))}.`);
  return n;
}

export function string(b: Record<string, unknown>, field: string): string | undefined {
  const v = b[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new ServiceError('invalid_request', `${field} must be a non-empty string.`);
  return v;
}

export function requiredString(b: Record<string, unknown>, field: string): string {
  const v = string(b, field);
  if (v === undefined) throw new ServiceError('invalid_request', `${field} is required.`);
  return v;
}

export function playerIdField(b: Record<string, unknown>): string {
  const v = requiredString(b, 'playerId');
  if (!UUID.test(v)) throw new ServiceError('invalid_request', 'playerId must be a player id (a UUID).');
  return v;
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], field: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new ServiceError('invalid_request', `${field} must be one of ${allowed.join(', ')}.`);
  return value as T;
}

export function seedField(b: Record<string, unknown>, nullable: boolean): number | null | undefined {
  const v = b.seed;
  if (v === undefined) return undefined;
  if (v === null && nullable) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 100_000) {
    throw new ServiceError('invalid_request', `seed must be a positive integer${nullable ? ' or null' : ''}.`);
  }
  return v;
}

export function object(b: unknown, what: string): Record<string, unknown> {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new ServiceError('invalid_request', `${what} must be a JSON object.`);
  return b as Record<string, unknown>;
}

/** One pairing edit, by op: its fields must be exactly those of the op (player ids). */
export function pairingEdit(raw: unknown, index: number): PairingEdit {
  const e = object(raw, `edits[${index}]`);
  const fields: Record<PairingEdit['op'], string[]> = { swap: ['a', 'b'], bye: ['player'], pair: ['first', 'second'] };
  const op = e.op;
  if (typeof op !== 'string' || !Object.hasOwn(fields, op)) throw new ServiceError('invalid_request', `edits[${index}].op must be swap, bye or pair.`);
  const names = fields[op as PairingEdit['op']];
  onlyFields(e, ['op', ...names]);
  const edit: Record<string, string> = { op };
  for (const name of names) {
    const v = e[name];
    if (typeof v !== 'string' || !UUID.test(v)) throw new ServiceError('invalid_request', `edits[${index}].${name} must be a player id (a UUID).`);
    edit[name] = v;
  }
  return edit as unknown as PairingEdit;
}

export function pairingEdits(raw: unknown): PairingEdit[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new ServiceError('invalid_request', 'edits must be a non-empty array of pairing edits.');
  if (raw.length > 200) throw new ServiceError('invalid_request', 'At most 200 edits at once.');
  return raw.map(pairingEdit);
}

/** A result an organiser sets: one of PAIRING_RESULTS, or null to clear it. */
export function pairingResult(v: unknown, field = 'result'): PairingResult | null {
  if (v === null) return null;
  if (typeof v !== 'string' || !(PAIRING_RESULTS as readonly string[]).includes(v)) {
    throw new ServiceError('invalid_request', `${field} must be one of ${PAIRING_RESULTS.join(', ')}, or null.`);
  }
  return v as PairingResult;
}

export function reportableResult(v: unknown): ReportableResult {
  if (typeof v !== 'string' || !(REPORTABLE as readonly string[]).includes(v)) throw new ServiceError('invalid_request', 'result must be first, second or draw.');
  return v as ReportableResult;
}
