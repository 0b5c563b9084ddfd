/**
 * Artillery fire (§16.6): the aiming roll with aiming markers (A25, A27, D5
 * from the data), damage to every enemy unit of the hex with one roll (A26),
 * and the Special Artillery's incendiary and smoke ammunition (§12.3, §12.4,
 * §16.7, A32, A33, A36).
 */
import { rollD6 } from '../../engine/rng.ts';
import { ARMIES, type Army } from './data-format.ts';
import type { Ammo } from './flow.ts';
import { gridOf, hasFeature, inEnemyZoc } from './board.ts';
import { commandTest } from './command-test.ts';
import { defenceValue, fortified, isCriticalFailure, isCriticalSuccess, rangedValue, revealAttacker, roll2d6, succeeds, type Roll } from './combat.ts';
import { logLine } from './msg.ts';
import { reveal } from './reveal.ts';
import { unitById, type BWState, type Unit } from './state.ts';
import { loseSteps } from './victory.ts';
import { aimMissed, damageRolled } from './orders-combat.ts';

/** Special markers not in the armies' hands (A27 'spare'): how many aiming markers may still be laid. */
export function aimingSupply(s: BWState): number {
  if (s.options.a27AimingSupply === 'unlimited') return Infinity;
  return s.markerCaps.special - ARMIES.reduce((n, a) => n + s.markers[a], 0) - s.aimingMarkers.length;
}

/** How many of a feature may still be laid (D9, D11: the markers' counts cap them). */
export function featureSupply(s: BWState, f: 'trench' | 'wire' | 'fire' | 'smoke'): number {
  const laid = Object.values(s.features).filter((fs) => fs.includes(f)).length;
  return s.markerCaps[f] - laid;
}

/**
 * The hexes and ammunition an artillery unit may fire at now (2–4 hexes, no
 * LOS needed; A36). None from an enemy ZOC: artillery fire is a form of
 * ranged attack (§16, §4.1), and §13 bars ranged attacks there but Line
 * Infantry's (README "Questions RULES.md does not list").
 */
export function bombardTargets(s: BWState, u: Unit): { hex: string; ammo: Ammo }[] {
  const g = gridOf(s);
  const out: { hex: string; ammo: Ammo }[] = [];
  if (inEnemyZoc(s, u.hex!, u.army)) return out;
  const special = u.kind === 'special-artillery';
  for (const hex of g.within(u.hex!, 4)) {
    if (g.distance(u.hex!, hex) < 2) continue;
    // A33 'may-not': a hex in smoke is no target for artillery fire of any ammunition.
    if (s.options.a33SmokeArtillery === 'may-not' && hasFeature(s, hex, 'smoke')) continue;
    const enemies = s.units.some((x) => x.hex === hex && x.army !== u.army);
    if (enemies || (special && s.options.a36EmptyHexAmmo === 'any')) out.push({ hex, ammo: 'normal' });
    // A36 'not': no fire or smoke on a hex of the firer's own units.
    const own = s.options.a36OwnHex === 'not' && s.units.some((x) => x.hex === hex && x.army === u.army);
    if (special && !own) {
      if (!hasFeature(s, hex, 'fire') && featureSupply(s, 'fire') > 0) out.push({ hex, ammo: 'incendiary' });
      if (!hasFeature(s, hex, 'smoke') && featureSupply(s, 'smoke') > 0) out.push({ hex, ammo: 'smoke' });
    }
  }
  return out;
}

/**
 * A29 'chosen-unit': the enemy units of the hex artillery fire may be aimed
 * at one by one (§16.8.1); infantry shields its hex's artillery here only
 * with A30 'melee-and-ranged', as against other ranged attacks.
 */
export function artilleryTargets(s: BWState, u: Unit, hex: string): Unit[] {
  const there = s.units.filter((x) => x.hex === hex && x.army !== u.army);
  const shield = s.options.a30Shield === 'melee-and-ranged' && there.some((x) => x.type === 'infantry');
  return there.filter((x) => !(shield && x.type === 'artillery'));
}

function addFeature(s: BWState, hex: string, f: 'fire' | 'smoke'): void {
  s.features[hex] = [...(s.features[hex] ?? []), f];
}

/**
 * The army's aiming markers that help a shot at the hex now (A25): all of
 * them, or with a25MarkersLast 'next-turn' those laid in the army's previous
 * turn (older ones are gone, those of this turn wait for the next).
 */
export function helpingMarkers(s: BWState, hex: string, army: Army): number {
  const next = s.options.a25MarkersLast === 'next-turn';
  return s.aimingMarkers.filter((m) => m.hex === hex && m.army === army && !(next && (m.turn ?? 0) >= s.turn)).length;
}

/** A25 'next-turn': at the end of an army's turn its markers laid in an earlier turn have had their turn, and go. */
export function expireMarkers(s: BWState, army: Army): void {
  if (s.options.a25MarkersLast !== 'next-turn') return;
  const before = s.aimingMarkers.length;
  s.aimingMarkers = s.aimingMarkers.filter((m) => m.army !== army || (m.turn ?? 0) >= s.turn);
  if (s.aimingMarkers.length < before) logLine(s, 'log.markersExpired', { n: before - s.aimingMarkers.length });
}

/** `target`: A29 'chosen-unit', the one unit the fire may hit (else every enemy unit of the hex). */
export function bombard(s: BWState, u: Unit, hex: string, ammo: Ammo, target?: string): void {
  revealAttacker(s, u, false);
  const mine = helpingMarkers(s, hex, u.army);
  aimRolled(s, u, hex, ammo, rollD6(s.rng), mine, true, target);
}

/** The aiming die rolled; a miss may be re-rolled once by Lord Alexandrus's special order (`mayReroll`). */
export function aimRolled(s: BWState, u: Unit, hex: string, ammo: Ammo, die: number, mine: number, mayReroll: boolean, target?: string): void {
  const d = gridOf(s).distance(u.hex!, hex) as 2 | 3 | 4;
  const aimed = die + mine >= s.aiming[String(d) as '2' | '3' | '4'];
  logLine(s, aimed ? 'log.aimed' : 'log.aimMissed', { unit: u, hex, ammo: { ref: 'ammo', id: ammo }, die, markers: mine });
  if (!aimed && mayReroll && aimMissed(s, u, hex, ammo, die, mine, target)) return;
  aimResult(s, u, hex, ammo, aimed, target);
}

/** What follows the aiming roll (logged already): an aiming marker, or fire, smoke or the damage roll. */
export function aimResult(s: BWState, u: Unit, hex: string, ammo: Ammo, aimed: boolean, target?: string): void {
  const targets = s.units.filter((x) => x.hex === hex && x.army !== u.army && (target === undefined || x.id === target));
  if (!aimed) {
    if (aimingSupply(s) > 0) {
      s.aimingMarkers.push({ hex, army: u.army, by: u.id, target: targets[0]?.id ?? null, ...(s.options.a25MarkersLast === 'next-turn' ? { turn: s.turn } : {}) });
    }
    return;
  }
  s.aimingMarkers = s.aimingMarkers.filter((m) => m.hex !== hex);
  if (ammo === 'smoke') {
    addFeature(s, hex, 'smoke');
    return;
  }
  if (ammo === 'incendiary') {
    addFeature(s, hex, 'fire');
    // A32: each enemy unit there tests (with 'yes' the firer's own too); a pass may leave the hex, a failure loses a step.
    const testing = s.options.a32FriendlyTest === 'yes' ? s.units.filter((x) => x.hex === hex) : targets;
    for (const t of testing) {
      if (commandTest(s, [t], 'fire')) {
        s.pending.push({ army: t.army, unit: t.id, step: 'fire-escape', cause: 'fire', from: u.id, fromHex: u.hex!, fortified: false, mayCounter: false });
      } else {
        loseSteps(s, t);
      }
    }
    return;
  }
  // A29 'chosen-unit': one roll against the chosen unit alone (A26 has nothing to add).
  if (target !== undefined) return damageEach(s, u, hex, [target]);
  // A26: one roll against each unit's own Defence, or with 'per-unit' a roll for each unit.
  if (s.options.a26Rolls === 'per-unit') return damageEach(s, u, hex, targets.map((t) => t.id));
  const r = roll2d6(s);
  if (damageRolled(s, u, hex, r)) return;
  artilleryDamage(s, u, hex, r);
}

/** A26 'per-unit': a damage roll for each of `ids` in turn; orders may follow each roll (orders-combat.ts), the rest then goes on. */
export function damageEach(s: BWState, u: Unit, hex: string, ids: readonly string[]): void {
  for (let i = 0; i < ids.length; i++) {
    if (s.result) return;
    const t = unitById(s, ids[i]!);
    if (t.hex !== hex) continue;
    const r = roll2d6(s);
    if (damageRolled(s, u, hex, r, t.id, ids.slice(i + 1))) return;
    artilleryDamage(s, u, hex, r, 1, t.id);
  }
}

/**
 * The damage roll against every enemy unit of the hex (A26), or (`only`,
 * A26 'per-unit') against that one; orders may come first
 * (orders-combat.ts); Finish Them makes a hit cost `damage` steps.
 */
export function artilleryDamage(s: BWState, u: Unit, hex: string, r: Roll, damage = 1, only?: string): void {
  const targets = s.units.filter((x) => x.hex === hex && x.army !== u.army && (only === undefined || x.id === only));
  const value = rangedValue(s, u);
  for (const t of targets) {
    if (s.result) return;
    reveal(s, t);
    const hit = succeeds(r, value, defenceValue(s, t, u, 'artillery'));
    const crit = isCriticalSuccess(r) ? 'success' : isCriticalFailure(r) ? 'failure' : 'none';
    logLine(s, hit ? 'log.attackHit' : 'log.attackMissed', { attacker: u, target: t, kind: { ref: 'attack', id: 'artillery' }, a: r.a, b: r.b, crit: { ref: 'crit', id: crit } });
    if (!hit) continue;
    const fort = fortified(s, t);
    const critical = crit === 'success';
    loseSteps(s, t, damage);
    if (t.hex === null) continue;
    const forced = fort && critical && s.options.a24Fortified === 'forced';
    s.pending.push({
      army: t.army,
      unit: t.id,
      step: forced ? 'must-retreat' : 'after-hit',
      cause: 'artillery',
      from: u.id,
      fromHex: u.hex!,
      fortified: fort && !critical,
      mayCounter: false,
    });
  }
}
