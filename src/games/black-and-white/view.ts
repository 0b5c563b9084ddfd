/**
 * What one seat may see of a game, built by allow-list: every field below was
 * added on purpose; a new field of the state stays invisible until it is
 * added here (richard-iii/view.ts, design-lessons "Views by allow-list").
 *
 * Hidden information (§7, §9.4, §16.8, A54):
 * - the purchase and the deployment of the other army until deployment ends
 *   (only whether it has finished);
 * - an enemy block's kind until it is revealed (and again after the turn
 *   with A54 'hide'); an enemy block's current strength, always;
 * - the RNG and the undo stack, always.
 * Everything else (the scenario, the board and its features, aiming markers,
 * the blocks' types and hexes, VP, markers left, what was activated, pending
 * decisions) lies on the table. A spectator sees what both seats see.
 */
import { ARMIES, type Army } from './data-format.ts';
import type { BWState, Unit } from './state.ts';
import { copyJson, kindCard } from './state.ts';
import { ordersView } from './orders-view.ts';

export interface OwnUnitView {
  id: string;
  kind: string;
  type: string;
  hex: string | null;
  strength: number;
  revealed: boolean;
}

export interface EnemyUnitView {
  id: string;
  army: Army;
  type: string;
  hex: string | null;
  /** Only once revealed. */
  kind?: string;
}

function ownUnit(u: Unit): OwnUnitView {
  return { id: u.id, kind: u.kind, type: u.type, hex: u.hex, strength: u.strength, revealed: u.revealed };
}

function enemyUnit(u: Unit): EnemyUnitView {
  const v: EnemyUnitView = { id: u.id, army: u.army, type: u.type, hex: u.hex };
  if (u.revealed) v.kind = u.kind;
  return v;
}

export function viewFor(s: BWState, seat: Army | null, canUndo: boolean): unknown {
  const own = (a: Army): boolean => a === seat;
  const armies: Record<string, unknown> = {};
  for (const a of ARMIES) {
    const building = s.phase === 'purchase' || s.phase === 'deploy';
    const entry: Record<string, unknown> = { markers: s.markers[a], vp: s.vp[a], done: building ? s.done[a] : undefined };
    if (own(a) && building) {
      entry.bought = s.bought[a].slice();
      entry.budgetLeft = s.budget - s.bought[a].reduce((n, k) => n + kindCard(s, k).cost, 0);
      if (s.phase === 'deploy') entry.placed = s.placed[a].slice();
    }
    entry.cardsShown = s.cardsShown[a].slice();
    entry.units = s.units.filter((u) => u.army === a).map((u) => (own(a) ? ownUnit(u) : enemyUnit(u)));
    armies[a] = entry;
  }
  // The opponent does not see which units of a stack act until they show themselves (s.unseen).
  const hidden = (id: string): boolean => s.player !== seat && s.unseen.includes(id);
  const act = s.act
    ? {
        units: s.act.units.filter((id) => !hidden(id)),
        startHex: s.act.startHex,
        count: s.act.units.length,
        moved: s.act.moved,
        stopped: s.act.stopped,
        zoc: s.act.zoc,
        charge: s.act.charge,
        attacked: s.act.attacked,
        // Which units may still join a group move tells which are Regular Infantry: the owner's alone.
        groupMove: s.act.groupMove && s.player === seat ? s.act.groupMove.slice() : null,
      }
    : null;
  // The attacking hex, not the attacking block: a hidden shooter (§16.8.3) stays hidden.
  const pending = s.pending.map((p) => ({ army: p.army, unit: p.unit, step: p.step, cause: p.cause, fromHex: p.fromHex, fortified: p.fortified }));
  return {
    game: 'black-and-white',
    seat,
    data: { title: s.dataTitle, invented: s.invented },
    scenario: s.scenario,
    board: s.board,
    kinds: s.kinds,
    aiming: s.aiming,
    markerCaps: s.markerCaps,
    budget: s.budget,
    options: { ...s.options },
    phase: s.phase,
    turn: s.turn,
    player: s.player,
    markersLeft: s.markersLeft,
    activated: s.activated.filter((id) => !hidden(id)),
    artilleryUsed: s.artilleryUsed,
    attackerTurns: s.attackerTurns,
    brokeThrough: s.brokeThrough.slice(),
    features: copyJson(s.features),
    aimingMarkers: s.aimingMarkers.map((m) => ({ ...m })),
    armies,
    activation: act,
    pending,
    result: s.result ? { ...s.result } : null,
    orders: ordersView(s, seat),
    canUndo: seat !== null && canUndo,
  };
}
