/**
 * A turn (§8): its start (markers back, Domination check), the choice of the
 * next activation (a unit, a detachment, a charge or a special action, §9),
 * and its end (fire losses, the Defence turn counter, A54 'hide').
 */
import type { Army } from './data-format.ts';
import type { Action, StepHandler } from './flow.ts';
import { armyRef, logLine } from './msg.ts';
import { other, unitById, type BWState, type Unit } from './state.ts';
import { hasFeature } from './board.ts';
import { expireMarkers } from './artillery.ts';
import { ordersStartTurn, paralysed } from './orders.ts';
import { checkDomination, checkTimeLimit, loseSteps } from './victory.ts';
import { beginActivation, beginCharge, chargeDestinations, specialActions, beginSpecial } from './activation.ts';

export function startTurn(s: BWState, army: Army): void {
  s.player = army;
  s.turn++;
  s.markersLeft = s.markers[army];
  s.activated = [];
  s.unseen = [];
  s.artilleryUsed = false;
  s.act = null;
  s.undo = [];
  logLine(s, 'log.turn', { army: armyRef(army), turn: s.turn });
  ordersStartTurn(s);
  checkDomination(s, army);
}

export function endTurn(s: BWState): void {
  const army = s.player!;
  s.act = null;
  // §12.3: units of the player on burning hexes lose 1 strength.
  for (const u of s.units) if (u.army === army && u.hex !== null && hasFeature(s, u.hex, 'fire')) loseSteps(s, u);
  if (s.result) return;
  if (s.scenario.family === 'defence' && s.scenario.attacker === army) {
    s.attackerTurns++;
    checkTimeLimit(s);
    if (s.result) return;
  }
  expireMarkers(s, army);
  if (s.options.a54Revealed === 'hide') {
    // The cards go face down again; players must remember what they saw.
    for (const u of s.units) if (u.hex !== null) u.revealed = false;
    s.cardsShown = { Thargaton: [], Vesania: [] };
  }
  startTurn(s, other(army));
}

/** Units of the army on the board that may still be activated this turn. */
export function activatable(s: BWState, army: Army): Unit[] {
  return s.units.filter(
    (u) => u.army === army && u.hex !== null && !s.activated.includes(u.id) && !(u.type === 'artillery' && s.artilleryUsed) && !paralysed(s, u),
  );
}

/** Every choice of 2–3 infantry or 2 cavalry of one hex (A14). */
function detachments(units: Unit[]): string[][] {
  const out: string[][] = [];
  const byHex = new Map<string, Unit[]>();
  for (const u of units) if (u.type !== 'artillery') byHex.set(`${u.hex}|${u.type}`, [...(byHex.get(`${u.hex}|${u.type}`) ?? []), u]);
  for (const group of byHex.values()) {
    const ids = group.map((u) => u.id);
    if (ids.length >= 2) for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) out.push([ids[i]!, ids[j]!]);
    if (ids.length === 3) out.push(ids);
  }
  return out;
}

export const turnStep: StepHandler = {
  actors: (s) => (s.player ? [s.player] : []),
  actions(s, army) {
    if (army !== s.player) return [];
    const out: Action[] = [];
    let mayEnd = true;
    if (s.markersLeft > 0) {
      const units = activatable(s, army);
      // A17: with 'every-marker' the turn ends only when no marker is left or no unit can be activated.
      if (s.options.a17Unused === 'every-marker' && units.length > 0) mayEnd = false;
      for (const u of units) out.push({ type: 'activate', units: [u.id] });
      for (const d of detachments(units)) out.push({ type: 'activate', units: d });
      for (const u of units) for (const to of chargeDestinations(s, u)) out.push({ type: 'charge', unit: u.id, to });
      for (const u of units) for (const what of specialActions(s, u)) out.push({ type: 'special', unit: u.id, what });
    }
    if (mayEnd) out.push({ type: 'end-turn' });
    return out;
  },
  apply(s, _army, a) {
    switch (a.type) {
      case 'activate':
        return beginActivation(s, a.units.map((id) => unitById(s, id)));
      case 'charge':
        return beginCharge(s, unitById(s, a.unit), a.to);
      case 'special':
        return beginSpecial(s, unitById(s, a.unit), a.what);
      case 'end-turn':
        return endTurn(s);
    }
    throw new Error(`${a.type} in a turn`);
  },
  // Choosing what to activate rolls and reveals nothing; a charge and a special action reveal, the turn's end hands over.
  undoable: (_s, a) => a.type === 'activate',
};
