import t from 'tap';
import { DAY, HOUR, PRESETS, daysPerMove } from '../../src/clocks/controls.ts';
import { afterChange, start } from '../../src/clocks/clock.ts';
import { timeoutAt, timeoutOutcome } from '../../src/clocks/timeout.ts';

const T0 = Date.UTC(2026, 2, 1);
const both = { York: 3, Lancaster: 2 };

t.test('loss, claim, abort, draw', async (t) => {
  t.equal(timeoutOutcome({ flags: [], moves: both, policy: 'loss' }), null);
  t.same(timeoutOutcome({ flags: [{ role: 'York', at: 5 }], moves: both, policy: 'loss' }), { kind: 'loss', loser: 'York', winners: ['Lancaster'], at: 5 });
  t.same(timeoutOutcome({ flags: [{ role: 'York', at: 5 }], moves: both, policy: 'claim' }), { kind: 'claimable', flagged: 'York', claimants: ['Lancaster'], at: 5 });
  // Fewer than two moves: aborted, whatever the policy.
  t.same(timeoutOutcome({ flags: [{ role: 'Lancaster', at: 5 }], moves: { York: 1, Lancaster: 0 }, policy: 'loss' }), { kind: 'aborted', flagged: 'Lancaster', at: 5 });
  t.same(timeoutOutcome({ flags: [{ role: 'York', at: 5 }], moves: { York: 0, Lancaster: 0 }, policy: 'claim' }), { kind: 'aborted', flagged: 'York', at: 5 });
  // York moved twice in a row but Lancaster never did: still aborted.
  t.equal(timeoutOutcome({ flags: [{ role: 'Lancaster', at: 5 }], moves: { York: 2, Lancaster: 0 }, policy: 'loss' })!.kind, 'aborted');
  // Both out: the earlier deadline loses; the same millisecond is a draw.
  t.same(timeoutOutcome({ flags: [{ role: 'York', at: 9 }, { role: 'Lancaster', at: 7 }], moves: both, policy: 'loss' }), { kind: 'loss', loser: 'Lancaster', winners: ['York'], at: 7 });
  t.same(timeoutOutcome({ flags: [{ role: 'York', at: 7 }, { role: 'Lancaster', at: 7 }], moves: both, policy: 'loss' }), { kind: 'draw', flagged: ['Lancaster', 'York'], at: 7 });
  t.throws(() => timeoutOutcome({ flags: [{ role: 'Tudor', at: 1 }], moves: both, policy: 'loss' }), /Tudor/);
});

t.test('from the clocks: both out in a simultaneous phase, found late', async (t) => {
  const R = ['York', 'Lancaster'];
  // Days per move: both seats are refilled to a day as the card phase starts, so both run out at once.
  const c = daysPerMove(1);
  let s = start(c, R, ['York'], T0);
  s = afterChange(s, c, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + 1000);
  s = afterChange(s, c, { activeBefore: ['Lancaster'], activeAfter: ['York', 'Lancaster'], actor: 'Lancaster' }, T0 + 2000);
  t.equal(timeoutAt(s, T0 + DAY, 'loss'), null);
  t.same(timeoutAt(s, T0 + 5 * DAY, 'loss'), { kind: 'draw', flagged: ['Lancaster', 'York'], at: T0 + 2000 + DAY });
  // Rally's 24h/+4h/72h: York hands over after 1 h (27 h left), Lancaster after 2 more (26 h left)
  // and starts the card phase: Lancaster's deadline is an hour before York's, so Lancaster loses.
  const f = PRESETS['rally-fast'];
  let u = start(f, R, ['York'], T0);
  u = afterChange(u, f, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + HOUR);
  u = afterChange(u, f, { activeBefore: ['Lancaster'], activeAfter: ['York', 'Lancaster'], actor: 'Lancaster' }, T0 + 3 * HOUR);
  t.same(timeoutAt(u, T0 + 5 * DAY, 'loss'), { kind: 'loss', loser: 'Lancaster', winners: ['York'], at: T0 + 29 * HOUR });
  t.same(timeoutAt(u, T0 + 5 * DAY, 'claim'), { kind: 'claimable', flagged: 'Lancaster', claimants: ['York'], at: T0 + 29 * HOUR });
});
