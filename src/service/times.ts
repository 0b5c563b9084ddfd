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
