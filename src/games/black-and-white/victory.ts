/**
 * Strength loss, elimination and victory points (§17, A49), and the victory
 * checks of every family (§6, §19, A50–A52).
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
  s.result = { winner, reason };
  s.phase = 'over';
  s.act = null;
  s.pending = [];
  logLine(s, 'log.wins', { army: armyRef(winner), reason: { ref: 'reason', id: reason } });
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
