/**
 * One activation (§9): its start (a unit, a detachment A14, a charge §10.4 or
 * a special action §9.2), the steps and attacks it may make, and its end.
 * Combat is resolved in combat.ts and artillery.ts; the defender's decisions
 * in retreat.ts.
 */
import type { Action, SpecialAction, StepHandler } from './flow.ts';
import { adjacentEnemies, gridOf, hasFeature, inEnemyZoc, lineOfSight, terrainAt } from './board.ts';
import { resolveAttack } from './combat.ts';
import { artilleryTargets, bombard, bombardTargets, featureSupply } from './artillery.ts';
import { CHARGE_BONUS, DOUBLE_SHOT, FIRES_IN_ZOC, rangedDistances } from './kinds.ts';
import { allowance, chargePath, enterHex, inZoc, movedMaximum, moveSteps, overFull, stepsFrom, zocTest } from './movement.ts';
import { logLine, logOwn, msg } from './msg.ts';
import { kindCard, unitById, type Activation, type BWState, type Unit } from './state.ts';
import { checkPositionVictory } from './victory.ts';
import { settleForced } from './retreat.ts';
import { endTurn } from './turn.ts';
import { commandTest } from './command-test.ts';
import { activationOrders, secondMelee } from './orders-activation.ts';
import { paralysed } from './orders.ts';
import { meleeSettled } from './orders-combat.ts';
import type { ActivationOrders } from './orders-state.ts';
import { reveal } from './reveal.ts';

function newActivation(s: BWState, units: Unit[]): Activation {
  const hex = units[0]!.hex!;
  return {
    units: units.map((u) => u.id),
    moved: 0,
    stopped: false,
    fromForest: terrainAt(s, hex) === 'forest',
    zoc: 'none',
    noAttack: false,
    charge: false,
    attacked: false,
    secondShot: null,
    startHex: hex,
    groupMove: null,
  };
}

/** Spends a marker and marks the units activated (§8). */
function spend(s: BWState, units: Unit[]): void {
  s.markersLeft--;
  for (const u of units) s.activated.push(u.id);
  if (units.some((u) => u.type === 'artillery')) s.artilleryUsed = true;
}

/** `orders`: what an order gave the activation from its start (Dominic's second activation). */
export function beginActivation(s: BWState, units: Unit[], orders?: ActivationOrders): void {
  spend(s, units);
  s.act = newActivation(s, units);
  if (orders) s.act.orders = orders;
  const hex = units[0]!.hex!;
  const others = s.units.filter((u) => u.hex === hex && u.army === units[0]!.army).length - units.length;
  if (others > 0) {
    // Picked out of a stack: the opponent sees that units of the hex act, not which, until they show themselves.
    for (const u of units) s.unseen.push(u.id);
    logOwn(s, units[0]!.army, msg('log.activated', { units: { list: units.map((u) => u.id) } }), msg('log.activatedInHex', { hex, n: units.length }));
  } else {
    logLine(s, 'log.activated', { units: { list: units.map((u) => u.id) } });
  }
  afterResolution(s);
}

/** The units show themselves (they move, attack in melee or are revealed). */
export function seen(s: BWState, units: Unit[]): void {
  if (s.unseen.length) s.unseen = s.unseen.filter((id) => !units.some((u) => u.id === id));
}

/**
 * The third hexes a unit may charge to (A13): a straight path, an enemy it may
 * attack adjacent at the end. None out of a forest hex: a unit in forest moves
 * one hex at most (§11, A11, with either reading of a11Forest).
 */
export function chargeDestinations(s: BWState, u: Unit): string[] {
  if (CHARGE_BONUS[u.kind] === undefined || hasFeature(s, u.hex!, 'smoke') || terrainAt(s, u.hex!) === 'forest') return [];
  const g = gridOf(s);
  const out: string[] = [];
  for (let d = 0; d < 6; d++) {
    let to: string | null = u.hex!;
    for (let i = 0; i < 3 && to !== null; i++) to = g.step(to, d);
    if (to === null || !chargePath(s, u, to)) continue;
    if (adjacentEnemies(s, to, u.army).some((e) => !hasFeature(s, e.hex!, 'smoke'))) out.push(to);
  }
  return out;
}

export function beginCharge(s: BWState, u: Unit, to: string): void {
  spend(s, [u]);
  s.act = newActivation(s, [u]);
  reveal(s, u, null);
  logLine(s, 'log.charge', { unit: u, hex: to });
  // A13: a unit starting in an enemy ZOC must pass the ZOC test to charge.
  if (inEnemyZoc(s, u.hex!, u.army) && zocTest(s, [u]).length === 0) {
    s.act.zoc = 'failed';
    s.act.stopped = true;
    return afterResolution(s);
  }
  s.act.zoc = 'passed';
  let wire = false;
  for (const h of chargePath(s, u, to)!) {
    wire = enterHex(s, [u], h).wire;
    if (u.hex === null || s.result) break;
  }
  // A unit eliminated by fire on its path may win the game for the other side: nothing left to do.
  if (s.act === null) return;
  // §12.2: infantry entering wire (only ever the last hex, A13) may not attack after that move.
  if (wire) s.act.noAttack = true;
  s.act.moved = 3;
  s.act.stopped = true;
  s.act.charge = true;
  afterResolution(s);
}

/** The special actions a unit may take as its activation (§9.2, §12.1, §12.2, A2, A34). */
export function specialActions(s: BWState, u: Unit): SpecialAction[] {
  const hex = u.hex!;
  if (hasFeature(s, hex, 'smoke')) return [];
  const out: SpecialAction[] = [];
  if (u.kind === 'regular-infantry') out.push('group-move');
  if (u.kind === 'sappers' && (s.options.a34Building === 'any-hex' || s.units.every((x) => x.hex !== hex || x.type === 'infantry'))) {
    if (!hasFeature(s, hex, 'trench') && featureSupply(s, 'trench') > 0) out.push('trench');
    if (!hasFeature(s, hex, 'wire') && featureSupply(s, 'wire') > 0) out.push('wire');
  }
  if (u.type === 'infantry' && hasFeature(s, hex, 'wire')) out.push('remove-wire');
  return out;
}

export function beginSpecial(s: BWState, u: Unit, what: SpecialAction): void {
  spend(s, [u]);
  reveal(s, u, null);
  logLine(s, 'log.special', { unit: u, what: { ref: 'special', id: what } });
  const hex = u.hex!;
  if (what === 'trench' || what === 'wire') {
    s.features[hex] = [...(s.features[hex] ?? []), what];
  } else if (what === 'remove-wire') {
    s.features[hex] = (s.features[hex] ?? []).filter((f) => f !== 'wire');
    if (s.features[hex]!.length === 0) delete s.features[hex];
  } else {
    // A2: every Regular Infantry unit not yet activated may move one hex; each that moves counts as activated,
    // so a paralysed one (§18.2 Paralysis: not to be activated this turn) may not.
    s.act = newActivation(s, [u]);
    s.act.groupMove = s.units
      .filter((x) => x.army === u.army && x.hex !== null && x.kind === 'regular-infantry' && (x.id === u.id || (!s.activated.includes(x.id) && !paralysed(s, x))))
      .map((x) => x.id);
    return afterResolution(s);
  }
  afterResolution(s);
}

const actUnits = (s: BWState): Unit[] => s.act!.units.map((id) => unitById(s, id)).filter((u) => u.hex !== null);

/**
 * Whether the unit may still make this kind of attack in this activation
 * (A12 "moved the maximum", §9.1's exceptions: charge, Aquarius in melee, the
 * Scorpion's fire; §12.2 wire, §12.4 smoke).
 */
function mayAttack(s: BWState, act: Activation, u: Unit, kind: 'melee' | 'ranged'): boolean {
  if ((act.attacked && !secondMelee(act, kind)) || act.noAttack || act.groupMove) return false;
  if (hasFeature(s, u.hex!, 'smoke')) return false;
  if (act.charge) return kind === 'melee';
  if (!movedMaximum(s, act, u)) return true;
  if (kind === 'melee' && act.orders?.surge) return true;
  // Dominic's second activation uses no special ability (A41).
  if (act.orders?.second) return false;
  return (kind === 'melee' && u.kind === 'order-of-aquarius') || (kind === 'ranged' && u.kind === 'order-of-the-scorpion');
}

/** Enemy units the unit may attack in melee (§16.2, §16.8.2 infantry shields artillery, A33 smoke). */
export function meleeTargets(s: BWState, u: Unit): Unit[] {
  if (u.type === 'artillery' || kindCard(s, u.kind).melee === null) return [];
  const enemies = adjacentEnemies(s, u.hex!, u.army).filter((e) => !hasFeature(s, e.hex!, 'smoke'));
  return enemies.filter((e) => e.type !== 'artillery' || !enemies.some((x) => x.hex === e.hex && x.type === 'infantry'));
}

/** Enemy units the unit may shoot at (§16.5, A4, A8, A9, A33; each an option). */
export function rangedTargets(s: BWState, u: Unit, moved: number): Unit[] {
  if (kindCard(s, u.kind).ranged === null) return [];
  if (u.type === 'artillery' && u.kind !== 'order-of-the-scorpion') return [];
  const zocExempt = FIRES_IN_ZOC.has(u.kind) && !(u.kind === 'order-of-the-scorpion' && s.options.a9ScorpionZoc === 'barred');
  const inZoc = inEnemyZoc(s, u.hex!, u.army);
  if (!zocExempt && inZoc) return [];
  const g = gridOf(s);
  const ranges = rangedDistances(u.kind, moved, s.options.a4Sharpshooters);
  // A8 'adjacent-in-zoc': Line Infantry in an enemy ZOC may also shoot the adjacent enemy.
  if (u.kind === 'line-infantry' && inZoc && s.options.a8LineInfantryRange === 'adjacent-in-zoc') ranges.push(1);
  return s.units.filter((e) => {
    if (e.hex === null || e.army === u.army) return false;
    if (!ranges.includes(g.distance(u.hex!, e.hex))) return false;
    // A30 'melee-and-ranged': infantry in the hex shields artillery from ranged attacks too.
    if (s.options.a30Shield === 'melee-and-ranged' && e.type === 'artillery' && s.units.some((x) => x.hex === e.hex && x.army === e.army && x.type === 'infantry')) return false;
    if (hasFeature(s, e.hex, 'smoke') && (u.kind !== 'order-of-the-scorpion' || s.options.a33SmokeArtillery === 'may-not')) return false;
    return lineOfSight(s, u.hex!, e.hex);
  });
}

export function activationActions(s: BWState): Action[] {
  const act = s.act!;
  const units = actUnits(s);
  const out: Action[] = [];
  if (units.length === 0) return [{ type: 'end-activation' }];
  if (act.groupMove) {
    for (const id of act.groupMove) {
      const u = unitById(s, id);
      if (u.hex === null) continue;
      for (const to of stepsFrom(s, [u], u.hex)) out.push({ type: 'move-unit', unit: id, to });
    }
    // A2 'all-must': the group move ends only when no Regular Infantry left in it can move.
    if (s.options.a2GroupMove === 'may' || out.length === 0) out.push({ type: 'end-activation' });
    return out;
  }
  if (act.secondShot !== null) {
    const { unit, target } = act.secondShot;
    const shooter = unitById(s, unit);
    if (shooter.hex !== null) {
      // A3: the same target while it is still a legal one, or with 'any' any legal target.
      for (const t of rangedTargets(s, shooter, act.moved)) if (t.id === target || s.options.a3SecondShot === 'any') out.push({ type: 'fire', unit, target: t.id });
    }
    out.push({ type: 'end-activation' });
    return out;
  }
  const lead = units[0]!;
  if (!act.stopped && !act.attacked && act.zoc !== 'failed' && act.moved < allowance(units, act.fromForest) + (act.orders?.extraMove ?? 0)) {
    // Artillery that has fired may not move; the Scorpion moves before it fires.
    for (const to of moveSteps(s, act, units, lead.hex!)) out.push({ type: 'move', to });
  }
  // A15 'end-only': passing through a full hex, the units must step on before anything else.
  if (overFull(s, lead.hex!, lead.army)) return out;
  // A14 'leave-on-the-way': once the detachment has moved, it may leave units behind while the others can move on.
  if (s.options.a14Split === 'leave-on-the-way' && units.length > 1 && act.moved > 0 && !act.charge && out.some((a) => a.type === 'move')) {
    for (const u of units) out.push({ type: 'leave', unit: u.id });
  }
  for (const u of units) {
    if (mayAttack(s, act, u, 'melee')) for (const t of meleeTargets(s, u)) out.push({ type: 'melee', unit: u.id, target: t.id });
    if (!mayAttack(s, act, u, 'ranged')) continue;
    for (const t of rangedTargets(s, u, act.moved)) out.push({ type: 'fire', unit: u.id, target: t.id });
    if (u.type === 'artillery' && u.kind !== 'order-of-the-scorpion' && act.moved === 0) {
      for (const b of bombardTargets(s, u)) {
        // A29 'chosen-unit': normal ammunition at a hex of enemies names the one unit it may hit (§16.8.1).
        const chosen = b.ammo === 'normal' && s.options.a29ArtilleryStack === 'chosen-unit' ? artilleryTargets(s, u, b.hex) : [];
        if (chosen.length === 0) out.push({ type: 'bombard', unit: u.id, hex: b.hex, ammo: b.ammo });
        for (const t of chosen) out.push({ type: 'bombard', unit: u.id, hex: b.hex, ammo: b.ammo, target: t.id });
      }
    }
  }
  out.push({ type: 'end-activation' });
  return out;
}

export function endActivation(s: BWState): void {
  s.act = null;
  checkPositionVictory(s);
  if (!s.result && s.markersLeft === 0) endTurn(s);
}

/**
 * After anything that may have settled the activation: forced retreats with
 * nowhere to go are settled, victory is checked, and an activation with
 * nothing left to do but end ends by itself.
 */
export function afterResolution(s: BWState): void {
  settleForced(s);
  if (s.result || s.pending.length > 0 || !s.act || s.orders.window) return;
  if (meleeSettled(s)) return;
  const left = activationActions(s);
  // An order still on offer (§18) keeps the activation open.
  if (left.length === 1 && left[0]!.type === 'end-activation' && activationOrders(s, s.player!).length === 0) endActivation(s);
}

export const activationStep: StepHandler = {
  actors: (s) => (s.player ? [s.player] : []),
  actions: (s, army) => (army === s.player ? activationActions(s) : []),
  apply(s, _army, a) {
    const act = s.act!;
    switch (a.type) {
      case 'move': {
        let units = actUnits(s);
        seen(s, units);
        if (act.zoc === 'none' && inZoc(s, units)) {
          const go = zocTest(s, units);
          if (go.length === 0) {
            act.zoc = 'failed';
            return afterResolution(s);
          }
          act.zoc = 'passed';
          // A18 'each': those that failed stay behind (still activated).
          act.units = go.map((u) => u.id);
          units = go;
          if (!moveSteps(s, act, units, units[0]!.hex!).includes(a.to)) return afterResolution(s);
        }
        const r = enterHex(s, units, a.to);
        act.moved++;
        // A18 'stops': entering an enemy ZOC ends the move.
        if (r.stop || (s.options.a18EnterZoc === 'stops' && units[0]!.hex !== null && inZoc(s, units))) act.stopped = true;
        if (r.wire) act.noAttack = true;
        return afterResolution(s);
      }
      case 'move-unit': {
        const u = unitById(s, a.unit);
        act.groupMove = act.groupMove!.filter((id) => id !== a.unit);
        if (!s.activated.includes(u.id)) s.activated.push(u.id);
        reveal(s, u);
        if (inEnemyZoc(s, u.hex!, u.army) && !commandTest(s, [u], 'zoc')) return afterResolution(s);
        enterHex(s, [u], a.to);
        return afterResolution(s);
      }
      case 'leave': {
        // A14 'leave-on-the-way': the unit's move ends here; it stays activated and takes no part in the attack.
        const u = unitById(s, a.unit);
        act.units = act.units.filter((id) => id !== u.id);
        logLine(s, 'log.leftBehind', { unit: u, hex: u.hex! });
        return afterResolution(s);
      }
      case 'melee': {
        act.attacked = true;
        act.stopped = true;
        resolveAttack(s, unitById(s, a.unit), unitById(s, a.target), 'melee', act.charge);
        return afterResolution(s);
      }
      case 'fire': {
        const u = unitById(s, a.unit);
        const second = act.secondShot !== null;
        act.attacked = true;
        act.stopped = true;
        act.secondShot = !second && DOUBLE_SHOT.has(u.kind) && act.moved === 0 && !act.orders?.second ? { unit: u.id, target: a.target } : null;
        const hidden = s.units.filter((x) => x.hex === u.hex && x.army === u.army).length > 1 && !u.revealed;
        resolveAttack(s, u, unitById(s, a.target), 'ranged', false, hidden);
        return afterResolution(s);
      }
      case 'bombard': {
        act.attacked = true;
        act.stopped = true;
        bombard(s, unitById(s, a.unit), a.hex, a.ammo, a.target);
        return afterResolution(s);
      }
      case 'end-activation':
        return endActivation(s);
    }
    throw new Error(`${a.type} in an activation`);
  },
  // A step that takes no ZOC test and reveals no kind may be taken back.
  undoable: (s, a) => a.type === 'leave' || (a.type === 'move' && (s.act!.zoc !== 'none' || !inZoc(s, actUnits(s))) && !revealsKind(s, a.to)),
};

/** A step that shows a kind: a kind-only move (§9.4), or fire that may eliminate (an eliminated block is shown). */
function revealsKind(s: BWState, to: string): boolean {
  if (hasFeature(s, to, 'fire')) return true;
  return actUnits(s).some((u) => !u.revealed && u.type !== 'infantry' && terrainAt(s, to) === 'swamp');
}
