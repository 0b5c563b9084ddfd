/**
 * Property tests: seeded random games (random changes of active roles, actors, pauses and time
 * steps) checked against a model the test keeps by itself: which seats must act and are not
 * paused, hence how much time each seat used.
 */
import t from 'tap';
import { seedRng, randomInt, type RngState } from '../../src/engine/rng.ts';
import { DAY, HOUR, PRESETS, afterHandover, canPause, daysPerMove, initialTime, type TimeControl } from '../../src/clocks/controls.ts';
import { afterChange, deadlines, isFlagged, pause, remaining, resume, start, type ClockState } from '../../src/clocks/clock.ts';

const ROLES = ['York', 'Lancaster'];
const CONTROLS: TimeControl[] = [daysPerMove(3), PRESETS['rally-fast'], PRESETS['rally-slow'], PRESETS['bot-blitz'], { kind: 'none' }];
const T0 = Date.UTC(2026, 3, 1);

const pick = <T>(rng: RngState, xs: readonly T[]): T => xs[randomInt(rng, xs.length)]!;
function subset(rng: RngState): string[] {
  return [[], ['York'], ['Lancaster'], ['York', 'Lancaster'], ['York', 'Lancaster']][randomInt(rng, 5)]!;
}

interface Model {
  active: Set<string>;
  paused: Set<string>;
  used: Record<string, number>;
  granted: Record<string, number>;
  moves: Record<string, number>;
}

const runs = (m: Model, r: string) => m.active.has(r) && !m.paused.has(r);

t.test('random games keep every clock invariant', async (tap) => {
  // Hundreds of thousands of checks: collect the failures (with seed and step) and assert once.
  const failures: string[] = [];
  let where = '';
  const t = {
    equal(actual: unknown, expected: unknown, what = 'equal') {
      if (actual !== expected) failures.push(`${where} ${what}: ${String(actual)} !== ${String(expected)}`);
    },
    ok(v: unknown, what = 'ok') {
      if (!v) failures.push(`${where} ${what}`);
    },
  };
  let checks = 0;
  let handovers = 0;
  let pauses = 0;
  for (let game = 0; game < 300; game++) {
    const rng = seedRng(`clocks-${game}`);
    const control = CONTROLS[game % CONTROLS.length]!;
    const initial = initialTime(control);
    const dtMax = control.kind === 'fischer' ? 20_000 : 2 * DAY;
    let now = T0;
    const first = subset(rng);
    let s: ClockState = start(control, ROLES, first, now);
    const m: Model = { active: new Set(first), paused: new Set(), used: { York: 0, Lancaster: 0 }, granted: { York: 0, Lancaster: 0 }, moves: { York: 0, Lancaster: 0 } };
    for (let step = 0; step < 150; step++) {
      where = `game ${game} (${control.kind}) step ${step}`;
      const dt = pick(rng, [0, 1, randomInt(rng, dtMax), randomInt(rng, HOUR)]);
      const prev = s;
      const prevNow = now;
      now += dt;
      for (const r of ROLES) if (runs(m, r)) m.used[r]! += dt;
      const what = randomInt(rng, 10);
      if (what < 2 && canPause(control)) {
        const r = pick(rng, ROLES);
        if (m.paused.has(r)) {
          s = resume(s, control, r, now);
          m.paused.delete(r);
          // Resuming moves the deadline by exactly the time since the clock was last charged.
          if (m.active.has(r)) t.equal(s.seats[r]!.deadline, now + s.seats[r]!.remainingMs!);
        } else {
          const before = remaining(s, r, now);
          s = pause(s, control, r, now);
          m.paused.add(r);
          pauses++;
          // Pausing stops the clock exactly: what is left now is left a long time later.
          t.equal(remaining(s, r, now + 30 * DAY), before);
        }
      } else {
        const activeBefore = [...m.active];
        const actor = activeBefore.length > 0 && what < 9 ? pick(rng, activeBefore) : null;
        const activeAfter = subset(rng);
        s = afterChange(s, control, { activeBefore, activeAfter, actor }, now);
        // The handover rule, restated: the actor leaves, or brings in a seat that was not active.
        if (actor !== null && (!activeAfter.includes(actor) || activeAfter.some((r) => !m.active.has(r)))) {
          const had = prev.seats[actor]!.remainingMs === null ? null : prev.seats[actor]!.remainingMs! - (runs(m, actor) ? now - prev.seats[actor]!.runningSince! : 0);
          // A seat out of time hands over from zero (its overrun forgiven: the `claim` policy's late move).
          if (had !== null) m.granted[actor]! += afterHandover(control, Math.max(0, had)) - had;
          m.moves[actor]!++;
          handovers++;
        }
        // A seat that ran before and after the change, and did not hand over, keeps its deadline.
        for (const r of ROLES) {
          const handedOver = prev.seats[r]!.moves !== s.seats[r]!.moves;
          if (runs(m, r) && activeAfter.includes(r) && !handedOver) t.equal(s.seats[r]!.deadline, prev.seats[r]!.deadline, 'deadline kept');
          // A seat's deadline only moves later when it hands over (it gains time, never loses it).
          if (runs(m, r) && activeAfter.includes(r) && handedOver && initial !== null) t.ok(s.seats[r]!.deadline! >= prev.seats[r]!.deadline!, 'deadline not earlier');
        }
        m.active = new Set(activeAfter);
      }
      for (const r of ROLES) {
        const seat = s.seats[r]!;
        // A running seat is charged at its next change; until then its clock counts from runningSince.
        const since = seat.runningSince === null ? 0 : now - seat.runningSince;
        // Time is conserved: what a seat has is its start plus what it was given less what it used.
        t.equal(seat.usedMs + since, initial === null ? 0 : m.used[r]);
        if (initial === null) t.equal(seat.remainingMs, null);
        else {
          t.equal(seat.remainingMs! - since, initial + m.granted[r]! - m.used[r]!);
          t.equal(remaining(s, r, now), Math.max(0, initial + m.granted[r]! - m.used[r]!));
        }
        t.equal(seat.moves, m.moves[r]);
        // A clock runs exactly while its seat must act and is not paused (and there is a clock).
        const shouldRun = runs(m, r) && initial !== null;
        t.equal(seat.deadline !== null, shouldRun);
        if (!shouldRun) t.equal(remaining(s, r, now + 1000 * DAY), remaining(s, r, now));
        else t.equal(remaining(s, r, now + 1), Math.max(0, seat.remainingMs! - since - 1));
        checks++;
      }
      // The earliest deadline is the minimum; a seat is flagged exactly when its time is gone.
      const ds = deadlines(s);
      const running = ROLES.filter((r) => s.seats[r]!.deadline !== null).map((r) => s.seats[r]!.deadline!);
      t.equal(ds.earliest?.deadline ?? null, running.length ? Math.min(...running) : null);
      for (const r of ROLES) {
        const out = isFlagged(s, now).some((f) => f.role === r);
        const gone = s.seats[r]!.ranOutAt !== null || (s.seats[r]!.deadline !== null && s.seats[r]!.deadline! <= now);
        t.equal(out, gone);
        // Once out, always out, until the seat hands over (then it is forgiven: no longer out).
        const handedOver = prev.seats[r]!.moves !== s.seats[r]!.moves;
        if (isFlagged(prev, prevNow).some((f) => f.role === r)) t.ok(handedOver ? s.seats[r]!.ranOutAt === null : out);
      }
    }
  }
  tap.same(failures.slice(0, 20), [], `${failures.length} failures`);
  tap.ok(handovers > 10_000 && pauses > 1000, `${handovers} handovers, ${pauses} pauses`);
  tap.ok(checks > 80_000, `${checks} seat checks`);
});
