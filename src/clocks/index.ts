/**
 * The pure core of correspondence clocks (issue 15): time controls, per-seat clocks, reminders,
 * vacation allowances and timeout outcomes. No I/O and no clock of its own: every function takes
 * `now` (integer ms) from the caller. The service stores the clock state and deadlines beside the
 * game, calls afterChange whenever the seats that must act change (a change that leaves the same
 * seats to act is charged lazily, at the next one), and the clock sweep (src/jobs/clock-sweep.ts)
 * fires deadlines and sends reminders.
 */
export * from './controls.ts';
export * from './clock.ts';
export * from './reminders.ts';
export * from './vacation.ts';
export * from './timeout.ts';
