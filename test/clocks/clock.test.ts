import t from 'tap';
import { DAY, HOUR, PRESETS, daysPerMove } from '../../src/clocks/controls.ts';
import { afterChange, deadlines, isFlagged, pause, remaining, resume, start } from '../../src/clocks/clock.ts';

const ROLES = ['York', 'Lancaster'];
const T0 = Date.UTC(2026, 0, 1);

t.test('days per move: only the seat that must act runs; a handover refills it', async (t) => {
  const c = daysPerMove(3);
  let s = start(c, ROLES, ['York'], T0);
  t.equal(s.seats.York!.deadline, T0 + 3 * DAY);
  t.equal(s.seats.Lancaster!.deadline, null);
  t.equal(remaining(s, 'York', T0 + DAY), 2 * DAY);
  t.equal(remaining(s, 'Lancaster', T0 + DAY), 3 * DAY);
  // York moves a block but stays active: one turn, no refill, deadline unchanged.
  s = afterChange(s, c, { activeBefore: ['York'], activeAfter: ['York'], actor: 'York' }, T0 + DAY);
  t.equal(s.seats.York!.deadline, T0 + 3 * DAY);
  t.equal(s.seats.York!.moves, 0);
  // York ends the turn two days in: stops, refilled to 3 days; Lancaster starts.
  s = afterChange(s, c, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + 2 * DAY);
  t.same([s.seats.York!.remainingMs, s.seats.York!.deadline, s.seats.York!.moves, s.seats.York!.usedMs], [3 * DAY, null, 1, 2 * DAY]);
  t.equal(s.seats.Lancaster!.deadline, T0 + 5 * DAY);
  t.equal(s.seats.Lancaster!.turn, 1);
  t.same(deadlines(s), { earliest: { role: 'Lancaster', deadline: T0 + 5 * DAY }, seats: [{ role: 'Lancaster', deadline: T0 + 5 * DAY }] });
  t.same(isFlagged(s, T0 + 5 * DAY - 1), []);
  t.same(isFlagged(s, T0 + 5 * DAY), [{ role: 'Lancaster', at: T0 + 5 * DAY }]);
  t.equal(remaining(s, 'Lancaster', T0 + 6 * DAY), 0);
});

t.test('simultaneous phase: both run; each hands over by its own action', async (t) => {
  const c = PRESETS['rally-fast']; // 24h / +4h / 72h
  let s = start(c, ROLES, ['York', 'Lancaster'], T0);
  t.same(deadlines(s).seats.map((d) => d.deadline), [T0 + DAY, T0 + DAY]);
  // York picks a card after 10 h: York +4 h (14 h), stopped; Lancaster keeps running.
  s = afterChange(s, c, { activeBefore: ['York', 'Lancaster'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + 10 * HOUR);
  t.equal(s.seats.York!.remainingMs, 18 * HOUR);
  t.equal(s.seats.York!.deadline, null);
  t.equal(s.seats.Lancaster!.deadline, T0 + DAY);
  // Lancaster picks after 20 h; the cards are revealed and York must act.
  s = afterChange(s, c, { activeBefore: ['Lancaster'], activeAfter: ['York'], actor: 'Lancaster' }, T0 + 20 * HOUR);
  t.equal(s.seats.Lancaster!.remainingMs, 8 * HOUR);
  t.equal(s.seats.York!.deadline, T0 + 38 * HOUR);
  t.equal(s.seats.York!.turn, 2);
  t.equal(s.seats.York!.turnBudgetMs, 18 * HOUR);
});

t.test('a seat made inactive by the other seat gets no increment; the cap holds', async (t) => {
  const c = PRESETS['rally-fast'];
  let s = start(c, ROLES, ['York', 'Lancaster'], T0);
  s = afterChange(s, c, { activeBefore: ['York', 'Lancaster'], activeAfter: [], actor: 'York' }, T0 + HOUR);
  t.equal(s.seats.York!.remainingMs, 27 * HOUR);
  t.equal(s.seats.Lancaster!.remainingMs, 23 * HOUR);
  t.equal(s.seats.Lancaster!.moves, 0);
  let r = start(c, ROLES, ['York'], T0);
  for (let i = 0; i < 30; i++) {
    const [a, b] = i % 2 === 0 ? ['York', 'Lancaster'] : ['Lancaster', 'York'];
    r = afterChange(r, c, { activeBefore: [a!], activeAfter: [b!], actor: a! }, T0 + i * 1000);
  }
  t.equal(r.seats.York!.remainingMs! <= 72 * HOUR, true);
  t.equal(r.seats.York!.remainingMs! > 71 * HOUR, true);
});

t.test('pause stops the clock exactly and resume moves the deadline by the pause', async (t) => {
  const c = daysPerMove(2);
  let s = start(c, ROLES, ['York'], T0);
  s = pause(s, c, 'York', T0 + HOUR);
  t.equal(s.seats.York!.deadline, null);
  t.equal(remaining(s, 'York', T0 + 10 * DAY), 2 * DAY - HOUR);
  t.same(isFlagged(s, T0 + 10 * DAY), []);
  t.equal(pause(s, c, 'York', T0 + 2 * HOUR), s, 'pausing again changes nothing');
  // The opponent may not act meanwhile, but a paused seat that becomes active stays stopped.
  s = resume(s, c, 'York', T0 + 5 * DAY);
  t.equal(s.seats.York!.deadline, T0 + 2 * DAY + (5 * DAY - HOUR), "the old deadline plus the pause");
  let p = start(c, ROLES, ['York'], T0);
  p = pause(p, c, 'Lancaster', T0);
  p = afterChange(p, c, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + HOUR);
  t.equal(p.seats.Lancaster!.active, true);
  t.equal(p.seats.Lancaster!.deadline, null);
  p = resume(p, c, 'Lancaster', T0 + DAY);
  t.equal(p.seats.Lancaster!.deadline, T0 + 3 * DAY);
  t.throws(() => pause(start(PRESETS['bot-blitz'], ROLES, ['York'], T0), PRESETS['bot-blitz'], 'York', T0), /cannot be paused/);
});

t.test('fischer: increment without a cap; none: no clock at all', async (t) => {
  const f = PRESETS['bot-blitz'];
  let s = start(f, ROLES, ['York'], T0);
  s = afterChange(s, f, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + 1000);
  t.equal(s.seats.York!.remainingMs, 5 * 60_000 - 1000 + 3000);
  const n = { kind: 'none' } as const;
  let z = start(n, ROLES, ['York'], T0);
  z = afterChange(z, n, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + 100 * DAY);
  t.equal(remaining(z, 'Lancaster', T0 + 1000 * DAY), null);
  t.same(deadlines(z), { earliest: null, seats: [] });
  t.same(isFlagged(z, T0 + 1000 * DAY), []);
  t.equal(z.seats.York!.moves, 1);
});

t.test('overrunning is remembered; bad calls throw', async (t) => {
  const c = daysPerMove(1);
  let s = start(c, ROLES, ['York'], T0);
  // A change after York's deadline that York did not make (a late timeout check): York stays out
  // of time. (York's own handover would forgive it: the claim policy's late move, claim-policy.test.ts.)
  s = afterChange(s, c, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: null }, T0 + 2 * DAY);
  t.same(isFlagged(s, T0 + 2 * DAY), [{ role: 'York', at: T0 + DAY }]);
  t.throws(() => afterChange(s, c, { activeBefore: ['York'], activeAfter: [], actor: 'Lancaster' }, T0 + 3 * DAY), /activeBefore/);
  t.throws(() => afterChange(s, c, { activeBefore: ['Lancaster'], activeAfter: ['Tudor'], actor: 'Lancaster' }, T0 + 3 * DAY), /unknown role/);
  t.throws(() => afterChange(s, c, { activeBefore: ['Lancaster'], activeAfter: [], actor: 'Lancaster' }, T0), /before the clock started/);
  t.throws(() => remaining(s, 'York', 1.5), /integer/);
  t.throws(() => start(c, ROLES, ['Tudor'], T0), /unknown role/);
  // The state is plain JSON.
  t.same(JSON.parse(JSON.stringify(s)), s);
});

t.test('an action that brings the other seat in hands the turn over, even if the actor must act again', async (t) => {
  const c = PRESETS['rally-fast'];
  let s = start(c, ROLES, ['Lancaster'], T0);
  // Lancaster's last action of the turn starts the card phase: both must choose a card.
  s = afterChange(s, c, { activeBefore: ['Lancaster'], activeAfter: ['York', 'Lancaster'], actor: 'Lancaster' }, T0 + 2 * HOUR);
  t.same([s.seats.Lancaster!.moves, s.seats.Lancaster!.remainingMs, s.seats.Lancaster!.turn, s.seats.Lancaster!.turnBudgetMs], [1, 26 * HOUR, 2, 26 * HOUR]);
  t.equal(s.seats.Lancaster!.deadline, T0 + 28 * HOUR);
  // York acting without leaving and without bringing anyone in: no handover.
  s = afterChange(s, c, { activeBefore: ['York', 'Lancaster'], activeAfter: ['York', 'Lancaster'], actor: 'York' }, T0 + 3 * HOUR);
  t.equal(s.seats.York!.moves, 0);
  t.equal(s.seats.York!.deadline, T0 + 2 * HOUR + DAY);
});
