/**
 * Combat (§16): the attack roll and its criticals (§16.1), attack and Defence
 * values with every modifier of §16.9 (cumulative, A35; the commanders' come
 * with their orders, orders-combat.ts), melee (§16.2), counterattack (§16.3,
 * A22, A28) and ranged attacks (§16.5).
 * What the defender then decides is in retreat.ts.
 */
import { rollD6 } from '../../engine/rng.ts';
import { gridOf, hasFeature, terrainAt } from './board.ts';
import { infantryBonus } from './command-test.ts';
import { CHARGE_BONUS } from './kinds.ts';
import { kindRef, logLine, msg, sub } from './msg.ts';
import { reveal, showCard } from './reveal.ts';
import { kindCard, unitById, type BWState, type PendingDecision, type RetreatCause, type Unit } from './state.ts';
import type { AttackSpec, Roll } from './orders-state.ts';
import { attackDeclared, attackRolled, beforeCounter, counterHit, meleeResolved } from './orders-combat.ts';
import { loseSteps } from './victory.ts';

export type AttackKind = 'melee' | 'counter' | 'ranged' | 'artillery';

export type { Roll };

export function roll2d6(s: BWState): Roll {
  return { a: rollD6(s.rng), b: rollD6(s.rng) };
}

export const isCriticalSuccess = (r: Roll): boolean => r.a + r.b === 7;
export const isCriticalFailure = (r: Roll): boolean => r.a === r.b;

/** §16.1: a double fails, a 7 succeeds, otherwise difference + value must exceed Defence. */
export function succeeds(r: Roll, value: number, defence: number): boolean {
  if (isCriticalFailure(r)) return false;
  if (isCriticalSuccess(r)) return true;
  return Math.abs(r.a - r.b) + value > defence;
}

/** A fort, bunker or trench: forced out only by a critical success (§16.2 3d, A24). */
export function fortified(s: BWState, u: Unit): boolean {
  const t = terrainAt(s, u.hex!);
  return ((t === 'fort' || t === 'bunker') && u.type === 'infantry') || hasFeature(s, u.hex!, 'trench');
}

/** The bunker's +1 Ranged attack for infantry (§11). */
const bunkerRanged = (s: BWState, u: Unit): number => (u.type === 'infantry' && terrainAt(s, u.hex!) === 'bunker' ? 1 : 0);

/** Melee or counterattack value (§16.9): card, Line Infantry's Ranged (A7), Vesanian army bonus (A1), charge, hills. */
export function meleeValue(s: BWState, attacker: Unit, defender: Unit, charge: boolean, counter = false): number {
  const card = kindCard(s, attacker.kind);
  let v = card.melee ?? 0;
  if (attacker.kind === 'line-infantry' && !(counter && s.options.a7LineInfantry === 'melee-only')) v += (card.ranged ?? 0) + bunkerRanged(s, attacker);
  if (attacker.army === 'Vesania' && !(counter && s.options.a1VesaniaCounter === 'no')) v += infantryBonus(s, attacker);
  if (charge) v += CHARGE_BONUS[attacker.kind] ?? 0;
  // A20: whatever the attacker's own terrain, or ('not-from-hill') unless the attacker is on a hill too.
  if (terrainAt(s, defender.hex!) === 'hills' && !(s.options.a20HillPenalty === 'not-from-hill' && terrainAt(s, attacker.hex!) === 'hills')) v -= 1;
  return v;
}

/** Ranged value: the card's (artillery attack for artillery) and a bunker's +1. */
export function rangedValue(s: BWState, attacker: Unit): number {
  return (kindCard(s, attacker.kind).ranged ?? 0) + bunkerRanged(s, attacker);
}

/** The defender's Defence against this attack (§16.9, A5, A6 and A35 options). */
export function defenceValue(s: BWState, defender: Unit, attacker: Unit, kind: AttackKind): number {
  const card = kindCard(s, defender.kind);
  let d = card.defence;
  const t = terrainAt(s, defender.hex!);
  if (t === 'fort' && defender.type === 'infantry') d += 2;
  if (t === 'bunker' && defender.type === 'infantry') d += 1;
  let forest = 0;
  if (t === 'forest') {
    const bothAdjacentForest = terrainAt(s, attacker.hex!) === 'forest' && gridOf(s).distance(attacker.hex!, defender.hex!) === 1;
    if (!bothAdjacentForest) forest = 1;
  }
  d += forest;
  // A35 'not-on-terrain': a trench adds nothing where the terrain already gave a Defence bonus.
  const terrainBonus = d > card.defence;
  if (hasFeature(s, defender.hex!, 'trench') && !(terrainBonus && s.options.a35Trench === 'not-on-terrain')) d += 1;
  const melee = kind === 'melee' || kind === 'counter';
  if (melee && defender.army === 'Thargaton') d += infantryBonus(s, defender);
  const artilleryFire = kind === 'artillery' || attacker.kind === 'order-of-the-scorpion';
  if (!melee && defender.kind === 'brotherhood-of-the-sword' && !(artilleryFire && s.options.a6Brotherhood === 'not-artillery')) d -= 1;
  if (defender.kind === 'lions-of-vesania' && attacker.type === 'cavalry' && (melee || s.options.a5Lions !== 'melee')) d += card.defenceVsCavalry ?? 1;
  return d;
}

/** An attack reveals the attacker (§9.4), unless it fires unseen from a stack (§16.8.3). */
export function revealAttacker(s: BWState, u: Unit, hiddenShooter: boolean): void {
  if (hiddenShooter) {
    showCard(s, u);
    logLine(s, 'log.hiddenShooter', { hex: u.hex!, kind: kindRef(u.kind) });
    return;
  }
  reveal(s, u);
}

/** The defender is revealed after the roll (§16.8.1). */
function revealDefender(s: BWState, u: Unit): void {
  reveal(s, u);
}

/** Whether a unit could counterattack `attacker` now (§16.3, A10 artillery with a Melee value, A33 smoke). */
export function canCounter(s: BWState, u: Unit, attacker: Unit): boolean {
  if (u.hex === null || attacker.hex === null) return false;
  if (kindCard(s, u.kind).melee === null) return false;
  if (u.type === 'artillery' && s.options.a10ArtilleryCounter === 'never') return false;
  if (hasFeature(s, u.hex, 'smoke') || hasFeature(s, attacker.hex, 'smoke')) return false;
  return gridOf(s).distance(u.hex, attacker.hex) === 1;
}

function hitDecision(s: BWState, target: Unit, attacker: Unit, cause: RetreatCause, crit: boolean, fromHex: string): PendingDecision {
  const fort = fortified(s, target) && !crit;
  const forced = fortified(s, target) && crit && s.options.a24Fortified === 'forced';
  return {
    army: target.army,
    unit: target.id,
    step: forced ? 'must-retreat' : 'after-hit',
    cause,
    from: attacker.id,
    fromHex,
    fortified: fort,
    mayCounter: cause === 'melee',
  };
}

/**
 * One attack of `attacker` on `target` (melee or ranged): roll, compare, the
 * step lost; a surviving defender's decision is queued for the other seat.
 * Orders (§18) may step in after the declaration and after the roll
 * (orders-combat.ts); `extra` carries what they changed.
 */
export function resolveAttack(s: BWState, attacker: Unit, target: Unit, kind: 'melee' | 'ranged', charge: boolean, hiddenShooter = false, extra: Partial<AttackSpec> = {}): void {
  const spec: AttackSpec = { attacker: attacker.id, target: target.id, kind, charge, hidden: hiddenShooter, bonus: 0, damage: 1, noCounter: false, declared: false, ...extra };
  if (!spec.declared && attackDeclared(s, spec)) return;
  rollAttack(s, spec);
}

export function rollAttack(s: BWState, spec: AttackSpec): void {
  const attacker = unitById(s, spec.attacker);
  const target = unitById(s, spec.target);
  revealAttacker(s, attacker, spec.hidden);
  const r = roll2d6(s);
  revealDefender(s, target);
  if (attackRolled(s, spec, r)) return;
  attackResult(s, spec, r);
}

/** Whether the attack succeeds with this roll, and its critical result. */
export function attackOutcome(s: BWState, spec: AttackSpec, r: Roll): { hit: boolean; crit: 'success' | 'failure' | 'none' } {
  const attacker = unitById(s, spec.attacker);
  const target = unitById(s, spec.target);
  const value = (spec.kind === 'melee' ? meleeValue(s, attacker, target, spec.charge) : rangedValue(s, attacker)) + spec.bonus;
  const defence = defenceValue(s, target, attacker, spec.kind);
  return { hit: succeeds(r, value, defence), crit: isCriticalSuccess(r) ? 'success' : isCriticalFailure(r) ? 'failure' : 'none' };
}

/** The rolled attack's result: logged, the step(s) lost, the defender's decision queued. */
export function attackResult(s: BWState, spec: AttackSpec, r: Roll): void {
  const attacker = unitById(s, spec.attacker);
  const target = unitById(s, spec.target);
  const { kind } = spec;
  const { hit, crit } = attackOutcome(s, spec, r);
  logLine(s, hit ? 'log.attackHit' : 'log.attackMissed', {
    attacker: spec.hidden ? sub(msg('unit.inHex', { hex: attacker.hex! })) : attacker,
    target,
    kind: { ref: 'attack', id: kind },
    a: r.a,
    b: r.b,
    crit: { ref: 'crit', id: crit },
  });
  const fromHex = attacker.hex!;
  let counter = false;
  if (hit) {
    loseSteps(s, target, spec.damage);
    if (target.hex !== null) {
      const p = hitDecision(s, target, attacker, kind, crit === 'success', fromHex);
      if (spec.noCounter) p.mayCounter = false;
      s.pending.push(p);
    }
  } else if (kind === 'melee' && !spec.noCounter && s.options.a22CounterAfterMiss && canCounter(s, target, attacker)) {
    s.pending.push({ army: target.army, unit: target.id, step: 'counter', cause: 'melee', from: attacker.id, fromHex, fortified: false, mayCounter: true });
    counter = true;
  }
  // A44 'after-roll': Withdrawal may come now, before the defender's retreat or test.
  if (kind === 'melee' && meleeResolved(s, spec)) return;
  if (counter) beforeCounter(s);
}

/** What orders changed in a counterattack (Dodge, Alexandrus's Defence). */
export interface CounterMods {
  defence?: number;
  noDamage?: boolean;
}

/**
 * §16.3: the defender attacks back the unit that attacked it, or (A28
 * 'any-unit') the unit of that hex it chose; no retreat, no test for it. Its
 * target is revealed after the roll, as an attack's defender (§16.8.1): the
 * attacker already is; another unit of its hex may not be.
 */
export function resolveCounter(s: BWState, defender: Unit, attacker: Unit, mods: CounterMods = {}): void {
  const r = roll2d6(s);
  revealDefender(s, attacker);
  const value = meleeValue(s, defender, attacker, false, true);
  const defence = defenceValue(s, attacker, defender, 'counter') + (mods.defence ?? 0);
  const hit = succeeds(r, value, defence);
  logLine(s, hit ? 'log.counterHit' : 'log.counterMissed', { attacker: defender, target: attacker, a: r.a, b: r.b });
  if (!hit) return;
  if (mods.noDamage) {
    logLine(s, 'log.dodged', { unit: attacker });
    return;
  }
  if (counterHit(s, defender, attacker)) return;
  loseSteps(s, attacker);
}
