// Times that come from clients (cursors, webhook redelivery ranges) and go to
// Postgres. JavaScript parses dates far outside what Postgres stores — year 0,
// ±275760 — and the database then refuses the query, which surfaced as a 500.
// Such a time is the client's mistake: the callers turn `false` here into
// their typed 400.

const FIRST = Date.parse('0001-01-01T00:00:00.000Z');
const LAST = Date.parse('9999-12-31T23:59:59.999Z');

/** A real date from year 1 to 9999: one Postgres takes as a parameter (and toISOString writes in its plain form). */
export function isStorableTime(d: Date): boolean {
  const t = d.getTime();
  return t >= FIRST && t <= LAST;
}

const CLIENT_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(?:Z|[+-](\d\d):(\d\d))$/;

/**
 * A time as a client writes it in a request (vacation `until`, league dates): ISO 8601 with `Z`
 * or an offset (never the server's local time), a real calendar date and clock time (JavaScript
 * reads 2026-02-30 as 2 March and 24:00 as the next day), years 1 to 9999. The instant in
 * milliseconds, or null: the caller answers with its typed 4xx naming the field.
 */
export function parseClientTime(v: unknown): number | null {
  const m = typeof v === 'string' ? CLIENT_TIME.exec(v) : null;
  if (!m) return null;
  const [y, mo, d, h, mi, s, oh, om] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x))) as [number, number, number, number, number, number, number, number];
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(2000, mo, 0)).getUTCDate() || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return null;
  // 29 February only in a leap year.
  if (mo === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return null;
  const t = Date.parse(v as string);
  return Number.isSafeInteger(t) && isStorableTime(new Date(t)) ? t : null;
}
