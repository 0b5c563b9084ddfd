/**
 * Herald's reading beyond §6 (option noWinPossible, default 'draw'): once no
 * army can meet its victory condition any more, the game ends at once as a
 * draw. Each family's dead end, and a near miss beside it where one army can
 * still win and play goes on; 'play-on' keeps the rulebook's endless game.
 */
import t from 'tap';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { canStillWin } from '../../../src/games/black-and-white/victory.ts';
import { game, play, position, T, unit, V, withDice, type Placing } from './fixture-helpers.ts';

const DRAW = { noWinPossible: 'draw' };
const drawn = { over: true, winner: null, reason: 'no-win-possible' };
const lastLine = (s: BWState): string => game.logLine(s.log[s.log.length - 1]!, null);

/** `by`'s melee on `target` with a hitting roll, after activating `by`. */
function melee(s: BWState, by: string, target: string, dice = [6, 5]): BWState {
  const army = unit(s, by).army;
  s = play(s, [army, { type: 'activate', units: [by] }]);
  s = withDice(s, dice);
  return play(s, [army, { type: 'melee', unit: by, target }]);
}

t.test('Skirmish and Training: the last unit of an army is eliminated and neither can reach 10 VP: a draw, logged and shown', async (t) => {
  for (const sc of ['open', 'training']) {
    // Thargaton 7 VP + Vesania's cavalry (3) could still make 10, while it has a unit to fight with.
    const units: Placing[] = [T('regular-cavalry', '2,2', { strength: 1 }), V('sirens-of-vesania', '2,3')];
    let s = position(sc, units, 'Vesania', DRAW);
    s.vp.Thargaton = 7;
    t.ok(canStillWin(s, 'Thargaton'), `${sc}: Thargaton can still reach 10`);
    t.notOk(canStillWin(s, 'Vesania'), `${sc}: Vesania cannot (3 VP on the board)`);
    s = melee(s, 'V01', 'T01');
    t.equal(unit(s, 'T01').hex, null, 'eliminated');
    t.same(game.status(s), drawn, `${sc}: drawn`);
    t.same(game.activeRoles(s), []);
    t.same(game.legalActions(s, 'Vesania'), [], 'no undo either');
    t.same((game.view(s, 'Thargaton') as { result: unknown }).result, { winner: null, reason: 'no-win-possible' });
    t.same((game.view(s, null) as { phase: string }).phase, 'over');
    t.equal(lastLine(s), 'The game is drawn (no army can win any more).');
    t.throws(() => play(s, ['Thargaton', { type: 'end-turn' }]), /over/);

    // Near misses: fire on the board (Vesania may still walk into it and score for Thargaton); another Thargaton unit; 'play-on'.
    let fire = position(sc, units, 'Vesania', DRAW, { '9,8': ['fire'] });
    fire.vp.Thargaton = 7;
    fire = melee(fire, 'V01', 'T01');
    t.equal(game.status(fire).over, false, `${sc}: fire on the board: Thargaton can still score`);
    let more = position(sc, [...units, T('regular-infantry', '9,1')], 'Vesania', DRAW);
    more.vp.Thargaton = 7;
    more = melee(more, 'V01', 'T01');
    t.equal(game.status(more).over, false, `${sc}: Thargaton still has a unit`);
    let on = position(sc, units, 'Vesania', { noWinPossible: 'play-on' });
    on.vp.Thargaton = 7;
    on = melee(on, 'V01', 'T01');
    t.equal(game.status(on).over, false, `${sc}: play-on`);
  }
});

t.test('Skirmish: an army without units scores while the enemy has a Special Artillery that could lay fire', async (t) => {
  const s = position('open', [T('special-artillery', '9,1'), V('sirens-of-vesania', '2,3')], 'Thargaton', DRAW);
  t.notOk(canStillWin(s, 'Vesania'), '0 + 5 VP on the board < 10');
  s.vp.Vesania = 6;
  t.ok(canStillWin(s, 'Vesania'), '6 + 5 ≥ 10');
  s.units = s.units.filter((u) => u.army === 'Thargaton');
  t.ok(canStillWin(s, 'Vesania'), 'no Vesanian unit left, but Thargaton can lay fire and burn its own');
  s.units[0]!.kind = 'regular-artillery';
  t.notOk(canStillWin(s, 'Vesania'), 'no fire and none to lay: Vesania scores no more (6 + 4 would reach 10)');
  s.features = { '5,5': ['fire'] };
  t.ok(canStillWin(s, 'Vesania'), 'fire on the board');
});

t.test('Skirmish: armies too small from the start are drawn when deployment ends', async (t) => {
  const start = (options: Record<string, unknown>) => {
    let s = game.setup({ scenario: 'open', seed: 'small', options });
    s = play(s,
      ['Thargaton', { type: 'buy', kind: 'regular-infantry' }],
      ['Vesania', { type: 'buy', kind: 'sirens-of-vesania' }],
      ['Thargaton', { type: 'done' }],
      ['Vesania', { type: 'done' }],
      ['Thargaton', { type: 'place', index: 0, hex: '1,1' }],
      ['Vesania', { type: 'place', index: 0, hex: '1,8' }],
      ['Thargaton', { type: 'done' }],
    );
    t.equal(s.phase, 'deploy');
    return play(s, ['Vesania', { type: 'done' }]);
  };
  t.same(game.status(start({})), drawn, 'the default: 2 and 3 VP on the board, 10 needed');
  const on = start({ noWinPossible: 'play-on' });
  t.equal(on.phase, 'play');
  t.equal(game.status(on).over, false);
});

t.test('Domination: neither army has infantry enough to hold 2 forts: a draw', async (t) => {
  // forts 3,4 5,4 8,5; 2 to win. Thargaton has one infantry, Vesania two until one falls.
  const units: Placing[] = [T('regular-cavalry', '1,4'), T('regular-infantry', '9,1'), V('order-of-aquarius', '1,5', { strength: 1 }), V('order-of-aquarius', '9,8')];
  let s = position('domination', units, 'Thargaton', DRAW);
  t.notOk(canStillWin(s, 'Thargaton'), 'one infantry holds one fort');
  t.ok(canStillWin(s, 'Vesania'));
  s = melee(s, 'T01', 'V01');
  t.equal(unit(s, 'V01').hex, null);
  t.same(game.status(s), drawn);
  // Near miss: Thargaton has two infantry (cavalry cannot enter a fort, so it does not count).
  let near = position('domination', [...units, T('line-infantry', '9,2')], 'Thargaton', DRAW);
  near = melee(near, 'T01', 'V01');
  t.equal(game.status(near).over, false, 'Thargaton can still take 2 forts');
  t.ok(canStillWin(near, 'Thargaton'));
  t.notOk(canStillWin(near, 'Vesania'));
});

t.test('Behind Enemy Lines (A51): the attacker has too few units left and the defender cannot reach 15 VP: a draw', async (t) => {
  // arrows 1,8 2,8 3,8, attacker Thargaton, 3 to break through.
  const units: Placing[] = [T('regular-infantry', '2,2', { strength: 1 }), T('regular-infantry', '7,1'), T('regular-infantry', '8,1'), V('iron-order', '2,3')];
  let s = position('bel', units, 'Vesania', DRAW);
  t.ok(canStillWin(s, 'Thargaton'));
  t.notOk(canStillWin(s, 'Vesania'), '0 + 6 VP < 15');
  s = melee(s, 'V01', 'T01');
  t.equal(unit(s, 'T01').hex, null);
  t.same(game.status(s), drawn, 'two attackers left');
  // Near misses: 'cumulative' with one unit that already broke through; the defender at 12 VP (after the elimination 14 + 4 ≥ 15).
  let cum = position('bel', units, 'Vesania', { ...DRAW, a51Breakthrough: 'cumulative' });
  cum.brokeThrough = ['T09'];
  cum = melee(cum, 'V01', 'T01');
  t.equal(game.status(cum).over, false, 'cumulative: T09 counted, two more can come');
  let sim = position('bel', units, 'Vesania', { ...DRAW, a51Breakthrough: 'simultaneous' });
  sim.brokeThrough = ['T09'];
  sim = melee(sim, 'V01', 'T01');
  t.same(game.status(sim), drawn, 'simultaneous: an earlier arrival does not count');
  let vp = position('bel', units, 'Vesania', DRAW);
  vp.vp.Vesania = 12;
  vp = melee(vp, 'V01', 'T01');
  t.same([game.status(vp).over, vp.vp.Vesania], [false, 14], 'the defender can still reach 15');
});

t.test('Defence is never drawn: the defender wins when the time runs out', async (t) => {
  // The attacker has no infantry, so it can never take the fort.
  let s = position('defence', [T('regular-cavalry', '1,1'), V('sirens-of-vesania', '9,8')], 'Thargaton', DRAW);
  t.notOk(canStillWin(s, 'Thargaton'));
  t.ok(canStillWin(s, 'Vesania'));
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'end-activation' }]);
  t.equal(game.status(s).over, false);
  s.attackerTurns = 9;
  s = play(s, ['Thargaton', { type: 'end-turn' }]);
  t.same(game.status(s), { over: true, winner: 'Vesania', reason: 'time' });
});
