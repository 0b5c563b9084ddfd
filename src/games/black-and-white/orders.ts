/**
 * Commanders and their orders (§7.7, §14, §18): which orders an army may
 * issue now (one numbered order per turn; order no. 1 any number of times,
 * Dominic's once, neither counted; only in the army's own turn), issuing
 * one (the receiving unit's command test, A19, A39), the commander chosen
 * behind the screen (A37), and how orders join the flow: as extra actions of
 * the purchase, the turn and the activation (withOrders), and as a window
 * step opened at a timing point only when an order is on offer there
 * (orders-combat.ts), so games without commanders keep their action lists.
 */
import type { MessageParam } from '../../engine/types.ts';
import { ARMIES, type Army, type CommanderId } from './data-format.ts';
import type { Action, HandlerTable, StepHandler } from './flow.ts';
import { commandTest } from './command-test.ts';
import { armyRef, logLine, logOwn, msg, sub } from './msg.ts';
import { unitById, type BWState, type Unit } from './state.ts';
import { movedMaximum } from './movement.ts';
import { COMMANDER_ORDERS, type OrderId } from './orders-state.ts';
import { applyActivationOrder, applyTurnOrder, activationOrders, turnOrders } from './orders-activation.ts';
import { applyWindow, windowOrders } from './orders-combat.ts';
import { seen } from './activation.ts';

/** Orders no. 1 (special orders): no test, not counted toward the one-order limit (§18.1). */
export const SPECIAL_ORDERS: ReadonlySet<OrderId> = new Set(['discipline', 'aiming-reroll', 'reroll', 'second-activation', 'look', 'ranged-reroll']);

export function commanderOf(s: BWState, army: Army): CommanderId | null {
  return s.options.commanders ? s.orders.commander[army] : null;
}

/**
 * Whether `army` may issue `order` now: its commander has it, it is the
 * army's own turn (§18.1), and the limits allow (one numbered order a turn,
 * Dominic's special order once a turn).
 */
export function mayIssue(s: BWState, army: Army, order: OrderId): boolean {
  const c = commanderOf(s, army);
  if (!c || s.player !== army || s.phase !== 'play' || !COMMANDER_ORDERS[c].includes(order)) return false;
  const mine = s.orders.issued.filter((o) => o.army === army);
  if (order === 'second-activation') return !mine.some((o) => o.order === order);
  if (SPECIAL_ORDERS.has(order)) return true;
  return !mine.some((o) => !SPECIAL_ORDERS.has(o.order));
}

/** Names a commander for a log line or a view. */
export const commanderRef = (c: CommanderId): MessageParam => ({ ref: 'commander', id: c });
export const orderRef = (o: string): MessageParam => ({ ref: 'order', id: o });

/** A37 'first-order': the commander becomes public with its army's first order. */
function showCommander(s: BWState, army: Army): void {
  if (s.orders.shown[army]) return;
  s.orders.shown[army] = true;
  if (s.options.a37Commander === 'first-order') logLine(s, 'log.commander', { army: armyRef(army), commander: commanderRef(s.orders.commander[army]!) });
}

/**
 * Issues an order to `units` (a detachment tests with its lowest
 * Discipline, A19): logged, counted whether or not it works (§18.1, A39);
 * a numbered order takes effect only on a passed command test. `shown`
 * names a hidden shooter by its hex (§16.8.3).
 */
export function issue(s: BWState, army: Army, order: OrderId, units: Unit[], shown?: MessageParam): boolean {
  announce(s, army, order, units, shown);
  const ok = SPECIAL_ORDERS.has(order) || commandTest(s, units, 'order', shown);
  s.orders.issued.push({ army, order, unit: shown || units.length === 0 ? null : units[0]!.id, ok });
  return ok;
}

function announce(s: BWState, army: Army, order: OrderId, units: Unit[], shown?: MessageParam): void {
  showCommander(s, army);
  // The player points at the block that receives the order: picked out of a stack, it is seen now.
  if (!shown) seen(s, units);
  const who: MessageParam = shown ?? { list: units.map((u) => u.id) };
  logLine(s, units.length ? 'log.order' : 'log.orderNoUnit', { army: armyRef(army), order: orderRef(order), units: who });
}

/**
 * An order to a detachment (A19): with 'lowest' as `issue`; with 'each'
 * every unit tests and the order works for those that pass (it counts as
 * working when one does). Returns the units it works for.
 */
export function issueToUnits(s: BWState, army: Army, order: OrderId, units: Unit[]): Unit[] {
  if (s.options.a19OrderTest !== 'each' || units.length < 2 || SPECIAL_ORDERS.has(order)) return issue(s, army, order, units) ? units : [];
  announce(s, army, order, units);
  const go = units.filter((u) => commandTest(s, [u], 'order'));
  s.orders.issued.push({ army, order, unit: units[0]!.id, ok: go.length > 0 });
  return go;
}

/** Paralysis and Fear (A47): the enemy unit must fail its own test for the order to work. */
export function enemyMustFail(s: BWState, target: Unit): boolean {
  const works = !commandTest(s, [target], 'resist');
  s.orders.issued[s.orders.issued.length - 1]!.ok = works;
  return works;
}

/** Baron Maximilian's special order: +1 Discipline for the units his army activated this turn, in its own turn only (§14, §18.1). */
export function orderDiscipline(s: BWState, u: Unit): number {
  return commanderOf(s, u.army) === 'baron-maximilian' && s.player === u.army && s.activated.includes(u.id) ? 1 : 0;
}

/** Paralysis: the unit may not be activated in this turn (§18.2 Rafael no. 4). */
export const paralysed = (s: BWState, u: Unit): boolean => s.orders.paralysed.some((p) => p.unit === u.id && p.turn === s.turn);

/** A new turn: nothing issued yet; paralysis of past turns over; looks forgotten with A54 'hide'. */
export function ordersStartTurn(s: BWState): void {
  s.orders.issued = [];
  s.orders.window = null;
  s.orders.abilities = [];
  s.orders.paralysed = s.orders.paralysed.filter((p) => p.turn >= s.turn);
  if (s.options.a54Revealed === 'hide') s.orders.learned = { Thargaton: [], Vesania: [] };
}

/** The seat alone looks at an enemy unit's kind (Reconnaissance, Rafael's special order; A54). */
export function learn(s: BWState, army: Army, target: Unit): void {
  if (!s.orders.learned[army].includes(target.id)) s.orders.learned[army].push(target.id);
  logOwn(
    s,
    army,
    msg('log.learned', { unit: sub(msg('unit.known', { id: target.id, kind: { ref: 'kind', id: target.kind } })) }),
    msg('log.lookedAt', { army: armyRef(army), unit: sub(msg('unit.hidden', { id: target.id, type: { ref: 'type', id: target.type } })) }),
  );
}

// --- The commander behind the screen (§7.7, A37) ---------------------------------------------

function purchaseWithCommander(base: StepHandler): StepHandler {
  return {
    ...base,
    actions(s, army) {
      const list = base.actions(s, army);
      if (!s.options.commanders || s.done[army]) return list;
      const chosen = s.orders.commander[army];
      const out = list.filter((a) => a.type !== 'done' || chosen !== null);
      for (const c of s.orders.choices[army]) if (c !== chosen) out.push({ type: 'commander', commander: c });
      return out;
    },
    apply(s, army, a) {
      if (a.type === 'commander') {
        s.orders.commander[army] = a.commander as CommanderId;
        return;
      }
      base.apply(s, army, a);
    },
  };
}

/** A37 'public': both commanders are shown when the screen is removed. */
function deployShowingCommanders(base: StepHandler): StepHandler {
  return {
    ...base,
    apply(s, army, a) {
      base.apply(s, army, a);
      if (s.phase !== 'play' || !s.options.commanders || s.options.a37Commander !== 'public') return;
      for (const x of ARMIES) {
        s.orders.shown[x] = true;
        logLine(s, 'log.commander', { army: armyRef(x), commander: commanderRef(s.orders.commander[x]!) });
      }
    },
  };
}

/** Orders offered as extra actions of a step; applied by `apply`, everything else by the step itself. */
function withExtra(base: StepHandler, extra: (s: BWState, army: Army) => Action[], apply: (s: BWState, army: Army, a: Action) => void): StepHandler {
  return {
    ...base,
    actions: (s, army) => {
      const list = base.actions(s, army);
      const more = extra(s, army);
      return more.length ? [...list, ...more] : list;
    },
    apply: (s, army, a) => (a.type === 'order' ? apply(s, army, a) : base.apply(s, army, a)),
  };
}

/**
 * A41: Dominic's army notes which units use a special ability (a charge, a
 * special action, the second shot, the Aquarius attack after a full move),
 * so that a second activation of one of them uses none.
 */
function noteAbilities(base: StepHandler): StepHandler {
  return {
    ...base,
    apply(s, army, a) {
      if (commanderOf(s, army) === 'inquisitor-dominic') {
        const act = s.act;
        let unit: string | null = null;
        if (a.type === 'charge' || a.type === 'special') unit = a.unit;
        else if (a.type === 'fire' && act?.secondShot?.unit === a.unit) unit = a.unit;
        else if (a.type === 'melee' && act && unitById(s, a.unit).kind === 'order-of-aquarius' && movedMaximum(s, act, unitById(s, a.unit))) unit = a.unit;
        if (unit && !s.orders.abilities.includes(unit)) s.orders.abilities.push(unit);
      }
      base.apply(s, army, a);
    },
  };
}

/** The flow's table with orders joined in. */
export function withOrders(t: HandlerTable): HandlerTable {
  return {
    ...t,
    purchase: purchaseWithCommander(t.purchase),
    deploy: deployShowingCommanders(t.deploy),
    turn: withExtra(noteAbilities(t.turn), turnOrders, applyTurnOrder),
    activation: withExtra(noteAbilities(t.activation), activationOrders, applyActivationOrder),
  };
}

/** The window step: issue one of the orders on offer here, or go on without (the roll or the result follows). */
export const orderStep: StepHandler = {
  actors: (s) => (s.player ? [s.player] : []),
  actions: (s, army) => (army === s.player ? [...windowOrders(s), { type: 'go-on' }] : []),
  apply: applyWindow,
};
