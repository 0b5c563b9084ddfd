/**
 * Strength loss, elimination and victory points (§17, A49), the victory
 * checks of every family (§6, §19, A50–A52), and Herald's draw when no army
 * can win any more (option noWinPossible).
 */
import { ARMIES, type Army } from './data-format.ts';
import { terrainAt } from './board.ts';
import { armyRef, logLine } from './msg.ts';
import { reveal } from './reveal.ts';
import { kindCard, other, type BWState, type Unit } from './state.ts';

/** VP the opponent scores for eliminating the unit (A49). */
export function vpOf(s: BWState, u: Unit): number {
  const card = kindCard(s, u.kind);
  return s.options.a49Vp === 'cost' ? card.cost : (card.value ?? card.cost);
}

/** The unit loses `n` steps; at strength 1 it is eliminated instead (§17) and the opponent scores. */
export function loseSteps(s: BWState, u: Unit, n = 1, scores = true): void {
  if (u.hex === null) return;
  if (u.strength > n) {
    u.strength -= n;
    logLine(s, 'log.loses', { unit: u, n });
    return;
  }
  u.strength = 0;
  u.hex = null;
  const vp = scores ? vpOf(s, u) : 0;
  const scorer = other(u.army);
  s.vp[scorer] += vp;
  // An eliminated block is shown to both (its card is no longer secret).
  reveal(s, u, null);
  logLine(s, 'log.eliminated', { unit: u, army: armyRef(scorer), vp });
  // The activation and any pending decision about it are over.
  if (s.act) s.act.units = s.act.units.filter((id) => id !== u.id);
  s.pending = s.pending.filter((p) => p.unit !== u.id);
  checkVpVictory(s);
}

export function win(s: BWState, winner: Army, reason: string): void {
  if (s.result) return;
  end(s, winner, reason);
  logLine(s, 'log.wins', { army: armyRef(winner), reason: { ref: 'reason', id: reason } });
}

function end(s: BWState, winner: Army | null, reason: string): void {
  s.result = { winner, reason };
  s.phase = 'over';
  s.act = null;
  s.pending = [];
}

/** 10 VP in Skirmish and Training; 15 VP for the defender of Defence and Behind Enemy Lines (§6, §17). */
export function checkVpVictory(s: BWState): void {
  const sc = s.scenario;
  for (const a of ARMIES) {
    if (sc.family === 'skirmish' || sc.family === 'training') {
      if (s.vp[a] >= 10) return win(s, a, 'vp');
    } else if (sc.family === 'defence' || sc.family === 'behind-enemy-lines') {
      if (a !== sc.attacker && s.vp[a] >= 15) return win(s, a, 'vp');
    }
  }
}

const fortHexes = (s: BWState): string[] => Object.keys(s.scenario.terrain).filter((h) => terrainAt(s, h) === 'fort');

/** Forts with at least one unit of the army in them (A52). */
export const fortsHeld = (s: BWState, army: Army): number =>
  fortHexes(s).filter((h) => s.units.some((u) => u.hex === h && u.army === army)).length;

/** A51 'cumulative': a breaking-through unit entering an arrow hex counts from then on. */
export function noteArrival(s: BWState, u: Unit): void {
  const sc = s.scenario;
  if (sc.family !== 'behind-enemy-lines' || u.army !== sc.attacker || u.hex === null) return;
  if ((sc.arrows ?? []).includes(u.hex) && !s.brokeThrough.includes(u.id)) s.brokeThrough.push(u.id);
}

/**
 * After every activation: Defence, the attacker holds the fort
 * (A50); Behind Enemy Lines, three units on arrow hexes (A51); Domination
 * with the option A52 'after-activation' (the player in turn first).
 */
export function checkPositionVictory(s: BWState): void {
  if (s.result) return;
  const sc = s.scenario;
  if (sc.family === 'domination' && s.options.a52Domination === 'after-activation' && s.player) {
    for (const a of [s.player, other(s.player)]) checkDomination(s, a);
    return;
  }
  if (sc.family === 'defence' && sc.attacker && fortsHeld(s, sc.attacker) > 0) return win(s, sc.attacker, 'fort');
  if (sc.family === 'behind-enemy-lines' && sc.attacker) {
    const arrows = new Set(sc.arrows ?? []);
    const on = s.units.filter((u) => u.army === sc.attacker && u.hex !== null && arrows.has(u.hex)).map((u) => u.id);
    for (const id of on) if (!s.brokeThrough.includes(id)) s.brokeThrough.push(id);
    const count = s.options.a51Breakthrough === 'cumulative' ? s.brokeThrough.length : on.length;
    if (count >= (sc.unitsToBreakThrough ?? 3)) win(s, sc.attacker, 'breakthrough');
  }
}

/** Domination: at the start of its own turn, an army holding the required forts wins (A52). */
export function checkDomination(s: BWState, army: Army): void {
  const sc = s.scenario;
  if (sc.family === 'domination' && fortsHeld(s, army) >= (sc.fortsToWin ?? 2)) win(s, army, 'forts');
}

/** Defence: after the attacker's last permitted turn without the fort, the defender wins (A50). */
export function checkTimeLimit(s: BWState): void {
  const sc = s.scenario;
  if (sc.family !== 'defence' || !sc.attacker) return;
  if (s.attackerTurns >= (sc.turnLimit ?? 12)) win(s, other(sc.attacker), 'time');
}

/**
 * Whether the army can still reach `target` VP (an upper bound: true unless
 * it surely cannot). VP come only from eliminating enemy units (§17, A49),
 * each scoring for its opponent whatever eliminated it: at most the value of
 * the enemy units still on the board (a unit never comes back: every block is
 * placed at deployment, an eliminated one is gone, Recovery only restores
 * strength). An army with no unit of its own left scores only when enemy units
 * burn (§12.3, A32: fire ends their turn, a move or a retreat into it, fire
 * landing on them with A32 'yes'): so only while fire lies on the board or the
 * enemy has a Special Artillery that can lay it.
 */
export function vpWithinReach(s: BWState, army: Army, target: number): boolean {
  if (s.vp[army] >= target) return true;
  const enemy = s.units.filter((u) => u.army !== army && u.hex !== null);
  if (s.vp[army] + enemy.reduce((n, u) => n + vpOf(s, u), 0) < target) return false;
  if (s.units.some((u) => u.army === army && u.hex !== null)) return true;
  return Object.values(s.features).some((fs) => fs.includes('fire')) || enemy.some((u) => u.kind === 'special-artillery');
}

/**
 * Whether the army can still meet its family's victory condition (§6, §19,
 * A50–A52): an upper bound, so false only where it surely cannot.
 * - Skirmish, Training: 10 VP within reach.
 * - Defence: the attacker may take the fort until its time runs out, and the
 *   defender wins when it does: the defender always can, so a Defence game is
 *   never drawn.
 * - Domination: only infantry may enter a fort (§11, board.ts), so an army
 *   holds at most one fort per infantry unit, plus forts its other units
 *   already stand in (none can, but it costs nothing to count them).
 * - Behind Enemy Lines: the attacker needs `unitsToBreakThrough` units on
 *   arrow hexes: at most its units on the board (A51 'simultaneous'), or those
 *   plus eliminated units that already counted (A51 'cumulative'); the
 *   defender needs 15 VP within reach.
 */
export function canStillWin(s: BWState, army: Army): boolean {
  const sc = s.scenario;
  const onBoard = s.units.filter((u) => u.army === army && u.hex !== null);
  switch (sc.family) {
    case 'skirmish':
    case 'training':
      return vpWithinReach(s, army, 10);
    case 'defence':
      return army !== sc.attacker || fortsHeld(s, army) > 0 || onBoard.some((u) => u.type === 'infantry');
    case 'domination': {
      const forts = fortHexes(s);
      const heldByOthers = forts.filter((h) => onBoard.some((u) => u.hex === h && u.type !== 'infantry')).length;
      const most = Math.min(forts.length, onBoard.filter((u) => u.type === 'infantry').length + heldByOthers);
      return most >= (sc.fortsToWin ?? 2);
    }
    case 'behind-enemy-lines': {
      if (army !== sc.attacker) return vpWithinReach(s, army, 15);
      const most = s.options.a51Breakthrough === 'cumulative' ? s.brokeThrough.length + onBoard.filter((u) => !s.brokeThrough.includes(u.id)).length : onBoard.length;
      return most >= (sc.unitsToBreakThrough ?? 3);
    }
  }
}

/**
 * Herald's reading beyond §6 (option noWinPossible 'draw', the default):
 * after any action in play, if no army can meet its victory condition any
 * more, the game ends at once, drawn. With 'play-on' it goes on, as the
 * rulebook has no other end.
 */
export function checkNoWinPossible(s: BWState): void {
  if (s.result || s.phase !== 'play' || s.options.noWinPossible !== 'draw') return;
  if (ARMIES.some((a) => canStillWin(s, a))) return;
  end(s, null, 'no-win-possible');
  logLine(s, 'log.draw', { reason: { ref: 'reason', id: 'no-win-possible' } });
}
