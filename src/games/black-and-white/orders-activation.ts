/**
 * Orders issued in a turn or an activation as the player's own choice
 * (§18.2): Idle Move (A16), Recovery (A42) and Dominic's second activation
 * (A41) before an activation; Forced March (A16), Reconnaissance, Surge of
 * Strength, Battle Frenzy (A31), Paralysis and Fear (A47) within one;
 * Rafael's look at any time for an activated unit.
 */
import type { Army } from './data-format.ts';
import type { Action } from './flow.ts';
import { adjacentEnemies, gridOf, inEnemyZoc, lineOfSight, terrainAt } from './board.ts';
import { commandTest } from './command-test.ts';
import { fortified } from './combat.ts';
import { allowance, enterHex, movedMaximum, overFull, stepsFrom } from './movement.ts';
import { logLine } from './msg.ts';
import { kindCard, other, unitById, type Activation, type BWState, type Unit } from './state.ts';
import { activatable, endTurn } from './turn.ts';
import { afterResolution, beginActivation, beginCharge, beginSpecial, chargeDestinations, meleeTargets, seen, specialActions } from './activation.ts';
import { commanderOf, enemyMustFail, issue, issueToUnits, learn, mayIssue, paralysed } from './orders.ts';
import type { OrderId } from './orders-state.ts';
import { checkPositionVictory } from './victory.ts';

type OrderAction = Extract<Action, { type: 'order' }>;
const order = (o: OrderId, extra: Omit<OrderAction, 'type' | 'order'> = {}): Action => ({ type: 'order', order: o, ...extra });

/** Battle Frenzy (A31): a second melee attack in the activation. */
export const secondMelee = (act: Activation, kind: 'melee' | 'ranged'): boolean => kind === 'melee' && !!act.orders?.frenzy && (act.orders.melees ?? 0) < 2;

const known = (s: BWState, army: Army, e: Unit): boolean => e.revealed || s.orders.learned[army].includes(e.id);

/** Rafael's special order: a unit activated this turn may look at an enemy unit in its ZOC. */
function looks(s: BWState, army: Army): Action[] {
  if (!mayIssue(s, army, 'look')) return [];
  const out: Action[] = [];
  for (const u of s.units) {
    if (u.army !== army || u.hex === null || !s.activated.includes(u.id)) continue;
    for (const e of adjacentEnemies(s, u.hex, army)) if (!known(s, army, e)) out.push(order('look', { unit: u.id, target: e.id }));
  }
  return out;
}

/** A16 Idle Move: to an adjacent hex it may enter that is not closer to the opponent's first row. */
export function idleHexes(s: BWState, u: Unit): string[] {
  const g = gridOf(s);
  const row = s.scenario.firstRows[other(u.army)];
  const toRow = (h: string): number => Math.min(...row.map((r) => g.distance(h, r)));
  const here = toRow(u.hex!);
  return stepsFrom(s, [u], u.hex!).filter((h) => toRow(h) >= here);
}

/** Orders offered in the turn step (no activation under way). */
export function turnOrders(s: BWState, army: Army): Action[] {
  if (!commanderOf(s, army) || army !== s.player) return [];
  const out: Action[] = [];
  if (s.markersLeft > 0) {
    const free = activatable(s, army);
    if (mayIssue(s, army, 'idle-move')) for (const u of free) for (const to of idleHexes(s, u)) out.push(order('idle-move', { unit: u.id, to }));
    if (mayIssue(s, army, 'recovery')) for (const u of free) if (u.strength < recoveryCap(s, u)) out.push(order('recovery', { unit: u.id }));
    if (mayIssue(s, army, 'second-activation')) {
      for (const u of s.units) {
        if (u.army !== army || u.hex === null || u.type === 'artillery' || paralysed(s, u)) continue;
        if (s.activated.filter((id) => id === u.id).length !== 1) continue;
        // A41 'right-after': only the unit whose activation was the last one.
        if (s.options.a41SecondWhen === 'right-after' && s.activated[s.activated.length - 1] !== u.id) continue;
        out.push(order('second-activation', { unit: u.id }));
        // A41: a unit that used no special ability in its first activation may use one in its second.
        if (s.orders.abilities.includes(u.id)) continue;
        for (const to of chargeDestinations(s, u)) out.push(order('second-activation', { unit: u.id, to }));
        for (const what of specialActions(s, u)) out.push(order('second-activation', { unit: u.id, what }));
      }
    }
  }
  out.push(...looks(s, army));
  return out;
}

const actUnits = (s: BWState): Unit[] => s.act!.units.map((id) => unitById(s, id)).filter((u) => u.hex !== null);

/** The activation's beginning (nothing done yet) or its end (nothing left to move or attack with), for Paralysis and Fear. */
function atBeginningOrEnd(s: BWState, act: Activation, units: Unit[]): boolean {
  if (act.moved === 0 && !act.attacked && !act.groupMove) return true;
  return act.attacked || act.stopped || act.zoc === 'failed' || act.moved >= allowance(units, act.fromForest) + (act.orders?.extraMove ?? 0);
}

/** Orders offered within an activation (no decision or window waiting). */
export function activationOrders(s: BWState, army: Army): Action[] {
  const act = s.act;
  if (!act || !commanderOf(s, army) || army !== s.player || s.pending.length > 0 || s.orders.window) return [];
  const units = actUnits(s);
  if (units.length === 0) return [];
  // A15 'end-only': passing through a full hex, nothing but the next step.
  if (overFull(s, units[0]!.hex!, army)) return [];
  const out: Action[] = looks(s, army);
  const g = gridOf(s);
  const plain = !act.groupMove && !act.charge;
  if (
    mayIssue(s, army, 'forced-march') &&
    plain &&
    act.moved > 0 &&
    !act.stopped &&
    !act.attacked &&
    act.zoc !== 'failed' &&
    !act.orders?.extraMove &&
    units.every((u) => u.type !== 'artillery') &&
    stepsFrom(s, units, units[0]!.hex!).length > 0
  ) {
    out.push(order('forced-march'));
  }
  for (const u of units) {
    if (mayIssue(s, army, 'reconnaissance') && !act.attacked) {
      for (const e of s.units) {
        if (e.army === army || e.hex === null || known(s, army, e)) continue;
        const d = g.distance(u.hex!, e.hex);
        if (d >= 2 && d <= 3 && lineOfSight(s, u.hex!, e.hex)) out.push(order('reconnaissance', { unit: u.id, target: e.id }));
      }
    }
    if (
      mayIssue(s, army, 'surge-of-strength') &&
      plain &&
      !act.attacked &&
      !act.noAttack &&
      !act.orders?.surge &&
      movedMaximum(s, act, u) &&
      inEnemyZoc(s, u.hex!, army) &&
      meleeTargets(s, u).length > 0
    ) {
      out.push(order('surge-of-strength', { unit: u.id }));
    }
    if (mayIssue(s, army, 'battle-frenzy') && plain && units.length === 1 && u.type === 'infantry' && act.moved === 0 && !act.attacked && !act.orders?.frenzy) {
      out.push(order('battle-frenzy', { unit: u.id }));
    }
    for (const o of ['paralysis', 'fear'] as const) {
      if (!mayIssue(s, army, o) || !atBeginningOrEnd(s, act, units)) continue;
      for (const e of adjacentEnemies(s, u.hex!, army)) {
        if (o === 'fear' && s.options.a47FearFortified === 'no' && fortified(s, e)) continue;
        out.push(order(o, { unit: u.id, target: e.id }));
      }
    }
  }
  return out;
}

function applyLook(s: BWState, army: Army, a: OrderAction): void {
  issue(s, army, 'look', [unitById(s, a.unit!)]);
  learn(s, army, unitById(s, a.target!));
}

export function applyTurnOrder(s: BWState, army: Army, a: Action): void {
  if (a.type !== 'order') return;
  const u = unitById(s, a.unit!);
  switch (a.order) {
    case 'look':
      return applyLook(s, army, a);
    case 'idle-move': {
      // A16: before its activation; the ZOC test as for any move; then the activation begins.
      const from = u.hex!;
      const zoc = inEnemyZoc(s, from, army);
      const moved = issue(s, army, 'idle-move', [u]) && (!zoc || commandTest(s, [u], 'zoc'));
      const r = moved ? enterHex(s, [u], a.to!) : null;
      // A50 'on-entering': an Idle Move into the fort may end the game.
      if (u.hex !== null && !s.result) {
        beginActivation(s, [u]);
        seen(s, [u]);
        // A16 'first-hex': the hex is the activation's first; its start (forest, A11) and ZOC test count for it.
        if (r && s.options.a16IdleMove === 'first-hex') {
          const act = s.act!;
          act.moved = 1;
          act.fromForest = terrainAt(s, from) === 'forest';
          if (zoc) act.zoc = 'passed';
          if (r.stop || (s.options.a18EnterZoc === 'stops' && inEnemyZoc(s, u.hex, army))) act.stopped = true;
          if (r.wire) act.noAttack = true;
        }
      }
      return;
    }
    case 'recovery': {
      // A42: the unit's whole activation, a marker spent; never above its starting strength.
      s.markersLeft--;
      s.activated.push(u.id);
      if (u.type === 'artillery') s.artilleryUsed = true;
      if (issue(s, army, 'recovery', [u])) {
        u.strength = Math.min(u.strength + 1, recoveryCap(s, u));
        logLine(s, 'log.recovered', { unit: u });
      }
      checkPositionVictory(s);
      if (!s.result && s.markersLeft === 0) endTurn(s);
      return;
    }
    case 'second-activation': {
      // A41: another marker, the one unit: an activation, or a charge or special action if its first used no special ability.
      issue(s, army, 'second-activation', [u]);
      if (a.to) beginCharge(s, u, a.to);
      else if (a.what) beginSpecial(s, u, a.what);
      else beginActivation(s, [u], s.orders.abilities.includes(u.id) ? { second: true } : undefined);
      seen(s, [u]);
      return;
    }
  }
  throw new Error(`order ${a.order} in a turn`);
}

export function applyActivationOrder(s: BWState, army: Army, a: Action): void {
  if (a.type !== 'order') return;
  const act = s.act!;
  switch (a.order) {
    case 'look':
      applyLook(s, army, a);
      break;
    case 'forced-march': {
      // A16: one more hex under the normal rules, and no attack afterwards.
      // A19 'each': the units that failed their test stay behind (still activated), as with A18 'each'.
      const go = issueToUnits(s, army, 'forced-march', actUnits(s));
      if (go.length > 0) {
        act.units = go.map((u) => u.id);
        act.orders = { ...act.orders, extraMove: 1 };
        act.noAttack = true;
      }
      break;
    }
    case 'reconnaissance':
      if (issue(s, army, 'reconnaissance', [unitById(s, a.unit!)])) learn(s, army, unitById(s, a.target!));
      break;
    case 'surge-of-strength':
      if (issue(s, army, 'surge-of-strength', [unitById(s, a.unit!)])) act.orders = { ...act.orders, surge: true };
      break;
    case 'battle-frenzy':
      if (issue(s, army, 'battle-frenzy', [unitById(s, a.unit!)])) act.orders = { ...act.orders, frenzy: true };
      break;
    case 'paralysis':
    case 'fear': {
      const u = unitById(s, a.unit!);
      const target = unitById(s, a.target!);
      if (!issue(s, army, a.order, [u]) || !enemyMustFail(s, target)) break;
      if (a.order === 'paralysis') {
        // Through the opponent's next turn only (A47).
        s.orders.paralysed.push({ unit: target.id, turn: s.turn + 1 });
        logLine(s, 'log.paralysed', { unit: target });
      } else {
        // A47: a retreat under A23 measured from the ordering unit; not an attack, so fortified units go too.
        logLine(s, 'log.fear', { unit: target });
        s.pending.push({ army: target.army, unit: target.id, step: 'must-retreat', cause: 'melee', from: u.id, fromHex: u.hex!, fortified: false, mayCounter: false });
      }
      break;
    }
    default:
      throw new Error(`order ${a.order} in an activation`);
  }
  afterResolution(s);
}

/** A42: the highest strength Recovery may give: the unit's starting strength, or 4 with `a42RecoveryCap: 'four'`. */
function recoveryCap(s: BWState, u: Unit): number {
  return s.options.a42RecoveryCap === 'four' ? 4 : kindCard(s, u.kind).strength;
}
