/**
 * Readable actions and log lines (engine/types.ts describeAction,
 * actionGroups, logMessage): message keys and references, worded in
 * messages/<lang>/*.json. An action names only what its seat may see.
 */
import type { Message } from '../../engine/types.ts';
import type { Army } from './data-format.ts';
import type { Action } from './flow.ts';
import { kindRef, lineOf, msg, unitRef } from './msg.ts';
import type { BWState, LogEntry } from './state.ts';

function unitP(s: BWState, id: string, seat: Army) {
  const u = s.units.find((x) => x.id === id);
  return u ? unitRef(u, seat) : id;
}

export function describeAction(s: BWState, seat: Army, a: Action): Message {
  switch (a.type) {
    case 'buy':
    case 'return':
      return msg(`action.${a.type}`, { kind: kindRef(a.kind) });
    case 'place':
      return msg('action.place', { kind: kindRef(s.bought[seat][a.index] ?? ''), hex: a.hex });
    case 'lift':
      return msg('action.lift', { kind: kindRef(s.bought[seat][a.index] ?? ''), hex: s.placed[seat][a.index] ?? '' });
    case 'activate':
      return msg('action.activate', { units: { list: a.units.map((id) => unitP(s, id, seat)) } });
    case 'charge':
      return msg('action.charge', { unit: unitP(s, a.unit, seat), hex: a.to });
    case 'special':
      return msg('action.special', { unit: unitP(s, a.unit, seat), what: { ref: 'special', id: a.what } });
    case 'move':
      return msg('action.move', { hex: a.to });
    case 'move-unit':
      return msg('action.moveUnit', { unit: unitP(s, a.unit, seat), hex: a.to });
    case 'leave':
      return msg('action.leave', { unit: unitP(s, a.unit, seat), hex: s.units.find((x) => x.id === a.unit)?.hex ?? '' });
    case 'melee':
    case 'fire':
      return msg(`action.${a.type}`, { unit: unitP(s, a.unit, seat), target: unitP(s, a.target, seat) });
    case 'bombard':
      // A29 'chosen-unit': the unit aimed at, as the attacker sees it (its type until revealed).
      if (a.target) return msg('action.bombardUnit', { unit: unitP(s, a.unit, seat), target: unitP(s, a.target, seat), hex: a.hex, ammo: { ref: 'ammo', id: a.ammo } });
      return msg('action.bombard', { unit: unitP(s, a.unit, seat), hex: a.hex, ammo: { ref: 'ammo', id: a.ammo } });
    case 'retreat':
      return msg('action.retreat', { hex: a.to });
    case 'counterattack': {
      // A28 'any-unit': the chosen unit as the defender sees it (its type until revealed) and its hex.
      if (!a.target) return msg('action.counterattack');
      const target = s.units.find((x) => x.id === a.target);
      return msg('action.counterattackUnit', { target: unitP(s, a.target, seat), hex: target?.hex ?? '' });
    }
    case 'commander':
      return msg('action.commander', { commander: { ref: 'commander', id: a.commander } });
    case 'order': {
      const order = { ref: 'order', id: a.order };
      if (a.what) return msg('action.orderSpecial', { order, unit: unitP(s, a.unit!, seat), what: { ref: 'special', id: a.what } });
      if (a.to) return msg(a.order === 'second-activation' ? 'action.orderCharge' : 'action.orderMove', { order, unit: unitP(s, a.unit!, seat), hex: a.to });
      if (a.target) return msg('action.orderTarget', { order, unit: unitP(s, a.unit!, seat), target: unitP(s, a.target, seat) });
      if (a.unit) return msg('action.orderUnit', { order, unit: unitP(s, a.unit, seat) });
      return msg('action.order', { order });
    }
    default:
      return msg(`action.${a.type}`);
  }
}

export function actionGroups(s: BWState, seat: Army, a: Action): Message[] {
  switch (a.type) {
    case 'buy':
    case 'return':
      return [msg(`group.${a.type}`)];
    case 'place':
      return [msg('group.place', { kind: kindRef(s.bought[seat][a.index] ?? '') })];
    case 'activate':
    case 'charge':
    case 'special':
      return [msg(`group.${a.type}`)];
    case 'melee':
    case 'fire':
    case 'bombard':
      return [msg('group.attack', { unit: unitP(s, a.unit, seat) })];
    case 'retreat':
      return [msg('group.retreat')];
    case 'counterattack':
      return a.target ? [msg('group.counterattack')] : [];
    case 'order':
      return [msg('group.order')];
    default:
      return [];
  }
}

export function logMessage(e: LogEntry, seat: Army | null): Message {
  return lineOf(e, seat);
}
