/**
 * Many seeded games played by random choice on the fixture data, to the end
 * or a move cap: every legal action applies, anything else is refused with
 * IllegalActionError, and no seat's view or log ever holds an enemy kind not
 * revealed or an enemy strength.
 */
import t from 'tap';
import { seedRng } from '../../../src/engine/rng.ts';
import { IllegalActionError } from '../../../src/engine/types.ts';
import { ARMIES, type Army } from '../../../src/games/black-and-white/data-format.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { DATA, game } from './fixture-helpers.ts';
import { mostly, outOfTurn, pickOne, playsOn, randomTestGame, undoWatcher } from '../../helpers/games/black-and-white.ts';

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
    const pick = seedRng(`pick${g}`);
    const options = g % 3 === 1 ? { a18ZocTest: 'each', a22CounterAfterMiss: true, a24Fortified: 'forced', a54Revealed: 'hide', a27AimingSupply: 'unlimited', a36EmptyHexAmmo: 'any' } : {};
    const undoRestores = undoWatcher();
    const s = randomTestGame(game, {
      scenario: DATA.scenarios[g % DATA.scenarios.length]!.id,
      seed: `game${g}`,
      options,
      rng: pick,
      maxSteps: 1500,
      fail: (m) => t.fail(m),
      // Prefer playing on over ending early, so that games reach combat.
      choose: (legal) => pickOne(pick, mostly(pick, legal, playsOn, 10)),
      onStep: (x) => {
        const { step, role, action: a, before, after: s } = x;
        // Describing every choice works.
        game.describeAction!(before, role, a);
        game.actionGroups!(before, role, a);
        const wrong = outOfTurn(game, x);
        if (wrong) t.fail(wrong);
        // A near miss of a legal action (another hex, another unit) is refused unless it is itself legal.
        const variant = { ...a, ...('to' in a ? { to: '10,9' } : {}), ...('unit' in a ? { unit: 'X99' } : {}), ...('index' in a ? { index: 99 } : {}) };
        if (JSON.stringify(variant) !== JSON.stringify(a)) {
          try {
            game.apply(before, role, variant as never);
            t.fail(`${JSON.stringify(variant)} applied`);
          } catch (e) {
            if (!(e instanceof IllegalActionError)) throw e;
          }
        }
        // Undo gives back exactly the state before the last undoable action.
        if (!undoRestores(x)) t.fail('undo did not restore the earlier state');
        seen.add(a.type === 'bombard' ? `bombard-${a.ammo}` : a.type === 'special' ? `special-${a.what}` : a.type);
        if (game.status(s).over) reasons.add(game.status(s).reason!);
        decisions++;
        if (step % 7 === 0) for (const seat of [...ARMIES, null]) checkView(t, s, seat);
        for (const e of game.logChange(s).entries) for (const seat of [...ARMIES, null]) game.logLine(e, seat);
      },
    });
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
