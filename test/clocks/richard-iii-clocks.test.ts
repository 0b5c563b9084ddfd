/**
 * Clocks driven by real Richard III games (random legal actions, random time between them):
 * the active roles the module reports decide which clocks run, card phases run both, and every
 * seat gets moves (handovers) as the turns go round.
 */
import t from 'tap';
import { games } from '../../src/games/index.ts';
import { seedRng, randomInt } from '../../src/engine/rng.ts';
import { PRESETS } from '../../src/clocks/controls.ts';
import { afterChange, isFlagged, start } from '../../src/clocks/clock.ts';
import { reminderTimes } from '../../src/clocks/reminders.ts';

const m = games['richard-iii']!;

t.test('random Richard III games', async (t) => {
  const control = PRESETS['rally-normal'];
  let both = 0;
  let flagged = 0;
  for (let g = 0; g < 3; g++) {
    const rng = seedRng(`r3-clocks-${g}`);
    let state = m.setup({ scenario: m.scenarios[0]!.id, seed: `r3-clocks-${g}` });
    let now = Date.UTC(2026, 0, 1);
    let clocks = start(control, m.roles, m.activeRoles(state), now);
    const failures: string[] = [];
    for (let step = 0; step < 400 && !m.status(state).over; step++) {
      const before = m.activeRoles(state);
      const actor = before[randomInt(rng, before.length)]!;
      const legal = m.legalActions(state, actor);
      state = m.apply(state, actor, legal[randomInt(rng, legal.length)]);
      now += randomInt(rng, 2 * 3600_000);
      const after = m.status(state).over ? [] : m.activeRoles(state);
      clocks = afterChange(clocks, control, { activeBefore: before, activeAfter: after, actor }, now);
      if (after.length === 2) both++;
      for (const r of m.roles) {
        const seat = clocks.seats[r]!;
        if ((seat.deadline !== null) !== after.includes(r)) failures.push(`game ${g} step ${step}: ${r} runs=${seat.deadline !== null} active=${after.includes(r)}`);
        if (seat.remainingMs! > control.capMs) failures.push(`game ${g} step ${step}: ${r} above the cap`);
        // Nobody pauses here, so a running turn began at its deadline less its budget.
        for (const rem of reminderTimes(clocks, control, r)) if (rem.at <= seat.deadline! - seat.turnBudgetMs! || rem.at >= seat.deadline!) failures.push(`${rem.key} outside its turn`);
      }
      // The service ends the game by timeout here; random play is slow enough to get there sometimes.
      if (isFlagged(clocks, now).length > 0) {
        flagged++;
        break;
      }
    }
    t.same(failures.slice(0, 10), [], `game ${g}: ${failures.length} failures`);
    t.ok(m.roles.every((r) => clocks.seats[r]!.moves > 1), `game ${g}: moves ${m.roles.map((r) => clocks.seats[r]!.moves).join('/')}`);
  }
  t.ok(both > 0, `both clocks ran together after ${both} changes`);
  t.comment(`${flagged} of 3 games ended by a flag`);
});
