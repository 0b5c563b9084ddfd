/**
 * Many seeded games played by random choice on the fixture data, to the end
 * or a move cap: every legal action applies, anything else is refused with
 * IllegalActionError, and no seat's view or log ever holds an enemy kind not
 * revealed or an enemy strength.
 */
import t from 'tap';
import { randomInt, seedRng } from '../../../src/engine/rng.ts';
import { IllegalActionError } from '../../../src/engine/types.ts';
import { ARMIES, type Army } from '../../../src/games/black-and-white/data-format.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { DATA, game } from './fixture-helpers.ts';

/** What `seat` may know of the other army's kinds: revealed ones only. */
function checkView(t: { fail: (m: string) => unknown }, s: BWState, seat: Army | null): void {
  const v = game.view(s, seat) as { armies: Record<Army, { units: Record<string, unknown>[]; bought?: unknown }> };
  for (const a of ARMIES) {
    if (a === seat) continue;
    const units = v.armies[a].units;
    for (const u of units) {
      const real = s.units.find((x) => x.id === u.id)!;
      if ('strength' in u) t.fail(`${seat} sees the strength of ${u.id}`);
      if ('kind' in u && !real.revealed) t.fail(`${seat} sees the kind of unrevealed ${u.id}`);
    }
    if (v.armies[a].bought !== undefined) t.fail(`${seat} sees ${a}'s purchase`);
  }
  // The view as JSON names no unrevealed enemy kind anywhere (ids carry no kinds).
  const text = JSON.stringify({ ...v, kinds: undefined, scenario: undefined });
  for (const u of s.units) {
    if (u.army === seat || u.revealed) continue;
    if (s.cardsShown[u.army].includes(u.kind) || s.units.some((x) => x.kind === u.kind && (x.revealed || x.army === seat))) continue;
    if (text.includes(`"${u.kind}"`)) t.fail(`${seat} view names ${u.kind}`);
  }
}

t.test('random games run to the end or the cap with legal actions only', async (t) => {
  let finished = 0;
  const seen = new Set<string>();
  const reasons = new Set<string>();
  let decisions = 0;
  const games = 18;
  for (let g = 0; g < games; g++) {
    const sc = DATA.scenarios[g % DATA.scenarios.length]!.id;
    const pick = seedRng(`pick${g}`);
    const options = g % 3 === 1 ? { a18ZocTest: 'each', a22CounterAfterMiss: true, a24Fortified: 'forced', a54Revealed: 'hide', a27AimingSupply: 'unlimited', a36EmptyHexAmmo: 'any' } : {};
    let s = game.setup({ scenario: sc, seed: `game${g}`, options });
    const mine: BWState[] = [];
    for (let step = 0; step < 1500 && !game.status(s).over; step++) {
      const roles = game.activeRoles(s);
      if (roles.length === 0) {
        t.fail('nobody may act in a game not over');
        break;
      }
      const role = roles[randomInt(pick, roles.length)]!;
      const legal = game.legalActions(s, role);
      if (legal.length === 0) {
        t.fail(`no legal action for active ${role}`);
        break;
      }
      // Prefer playing on over ending early, so that games reach combat.
      const weighted = legal.filter((a) => a.type !== 'end-turn' && a.type !== 'end-activation' && a.type !== 'undo');
      const pool = weighted.length && randomInt(pick, 10) > 0 ? weighted : legal;
      const a = pool[randomInt(pick, pool.length)]!;
      // Describing every choice works.
      game.describeAction!(s, role, a);
      game.actionGroups!(s, role, a);
      const other = ARMIES.find((x) => x !== role)!;
      if (!roles.includes(other)) {
        try {
          game.apply(s, other, a);
          t.fail(`${other} applied ${JSON.stringify(a)} out of turn`);
        } catch (e) {
          if (!(e instanceof IllegalActionError)) throw e;
        }
      }
      // A near miss of a legal action (another hex, another unit) is refused unless it is itself legal.
      const variant = { ...a, ...('to' in a ? { to: '10,9' } : {}), ...('unit' in a ? { unit: 'X99' } : {}), ...('index' in a ? { index: 99 } : {}) };
      if (JSON.stringify(variant) !== JSON.stringify(a)) {
        try {
          game.apply(s, role, variant as never);
          t.fail(`${JSON.stringify(variant)} applied`);
        } catch (e) {
          if (!(e instanceof IllegalActionError)) throw e;
        }
      }
      const before = s;
      s = game.apply(s, role, a);
      // Undo gives back exactly the state before the last undoable action.
      if (a.type === 'undo') {
        const back = mine.pop()!;
        const strip = (x: BWState) => JSON.stringify({ ...x, log: [], logFrom: 0, undo: x.undo.length });
        if (strip(back) !== strip(s)) t.fail('undo did not restore the earlier state');
      } else if (s.undo.length > before.undo.length) mine.push(before);
      else if (s.undo.length === 0) mine.length = 0;
      seen.add(a.type === 'bombard' ? `bombard-${a.ammo}` : a.type === 'special' ? `special-${a.what}` : a.type);
      if (game.status(s).over) reasons.add(game.status(s).reason!);
      decisions++;
      if (step % 7 === 0) for (const seat of [...ARMIES, null]) checkView(t, s, seat);
      for (const e of game.logChange(s).entries) for (const seat of [...ARMIES, null]) game.logLine(e, seat);
    }
    if (game.status(s).over) finished++;
    t.throws(() => game.apply(s, 'Thargaton', { type: 'bogus' } as never), IllegalActionError);
  }
  t.ok(finished > games / 3, `${finished} of ${games} games finished`);
  t.ok(decisions > 1000);
  t.comment(`actions seen: ${[...seen].sort().join(' ')}; endings: ${[...reasons].join(' ')}`);
  for (const type of ['buy', 'place', 'activate', 'move', 'melee', 'fire', 'bombard-normal', 'retreat', 'stand', 'counterattack', 'charge', 'undo']) {
    t.ok(seen.has(type), `random play reached ${type}`);
  }
});
