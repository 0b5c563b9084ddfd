/**
 * Secret purchase (§7, A55) and hidden deployment (§7, A56), both seats at
 * once, step by step; when both have deployed, the blocks get their ids and
 * the first player is rolled (§7.11, A58).
 */
import { rollD6, shuffle } from '../../engine/rng.ts';
import { ARMIES, type Army, type KindId } from './data-format.ts';
import type { Action, StepHandler } from './flow.ts';
import { canEnterTerrain, stackingOk } from './board.ts';
import { logLine, logOwn, msg, kindRef, armyRef } from './msg.ts';
import { kindCard, type BWState, type Unit } from './state.ts';
import { startTurn } from './turn.ts';

const spent = (s: BWState, army: Army): number => s.bought[army].reduce((n, k) => n + kindCard(s, k).cost, 0);

export const purchase: StepHandler = {
  actors: (s) => ARMIES.filter((a) => !s.done[a]),
  actions(s, army) {
    if (s.done[army]) return [];
    const out: Action[] = [];
    const left = s.budget - spent(s, army);
    for (const k of s.kinds) {
      if (k.army !== army) continue;
      const have = s.bought[army].filter((x) => x === k.id).length;
      // Only a kind that has a first-row hex to stand on (§11, §12): else its block could never be placed.
      if (k.cost <= left && have < k.blocks && deploymentHexes(s, army).some((h) => canEnterTerrain(s, { type: k.type, kind: k.id }, h))) out.push({ type: 'buy', kind: k.id });
    }
    for (const k of new Set(s.bought[army])) out.push({ type: 'return', kind: k });
    if (s.bought[army].length > 0) out.push({ type: 'done' });
    return out;
  },
  apply(s, army, a) {
    if (a.type === 'buy') s.bought[army].push(a.kind as KindId);
    else if (a.type === 'return') s.bought[army].splice(s.bought[army].lastIndexOf(a.kind as KindId), 1);
    else if (a.type === 'done') {
      s.done[army] = true;
      logOwn(
        s,
        army,
        msg('log.bought', { army: armyRef(army), kinds: { list: s.bought[army].map(kindRef) } }),
        msg('log.boughtHidden', { army: armyRef(army) }),
      );
      if (ARMIES.every((x) => s.done[x])) {
        s.phase = 'deploy';
        s.done = { Thargaton: false, Vesania: false };
        for (const x of ARMIES) s.placed[x] = s.bought[x].map(() => null);
      }
    }
  },
};

/** The hexes an army may deploy on (A56): its first row, Behind Enemy Lines defenders off the arrows. */
export function deploymentHexes(s: BWState, army: Army): string[] {
  const sc = s.scenario;
  const rows = sc.firstRows[army];
  if (sc.family === 'behind-enemy-lines' && sc.attacker && sc.attacker !== army) {
    const arrows = new Set(sc.arrows ?? []);
    return rows.filter((h) => !arrows.has(h));
  }
  return rows;
}

function typeOf(s: BWState, kind: KindId) {
  return kindCard(s, kind).type;
}

export const deploy: StepHandler = {
  actors: (s) => ARMIES.filter((a) => !s.done[a]),
  actions(s, army) {
    if (s.done[army]) return [];
    const out: Action[] = [];
    const placed = s.placed[army];
    const bought = s.bought[army];
    const seen = new Set<KindId>();
    const hexes = deploymentHexes(s, army);
    for (let i = 0; i < bought.length; i++) {
      // Unplaced units of one kind are alike: offer the first of each.
      if (placed[i] !== null || seen.has(bought[i]!)) continue;
      seen.add(bought[i]!);
      const kind = { type: typeOf(s, bought[i]!), kind: bought[i]! };
      for (const hex of hexes) {
        // §11, §12: only on a hex its type (and kind) may stand on, as for any unit entering it.
        if (!canEnterTerrain(s, kind, hex)) continue;
        const types = bought.filter((_, j) => placed[j] === hex).map((k) => typeOf(s, k));
        if (stackingOk([...types, typeOf(s, bought[i]!)])) out.push({ type: 'place', index: i, hex });
      }
    }
    // Placed units of one kind on one hex are alike too.
    const lifted = new Set<string>();
    for (let i = 0; i < bought.length; i++) {
      const key = `${bought[i]}@${placed[i]}`;
      if (placed[i] === null || lifted.has(key)) continue;
      lifted.add(key);
      out.push({ type: 'lift', index: i });
    }
    if (placed.every((h) => h !== null)) out.push({ type: 'done' });
    return out;
  },
  apply(s, army, a) {
    if (a.type === 'place') s.placed[army][a.index] = a.hex;
    else if (a.type === 'lift') s.placed[army][a.index] = null;
    else if (a.type === 'done') {
      s.done[army] = true;
      logLine(s, 'log.deployed', { army: armyRef(army) });
      if (ARMIES.every((x) => s.done[x])) endDeployment(s);
    }
  },
};

/**
 * The blocks get ids from public facts only: shuffled with the seeded RNG,
 * then sorted by hex and type (a stable sort keeps the shuffle within a hex),
 * so an id says nothing about the kind or the purchase order.
 */
function endDeployment(s: BWState): void {
  for (const army of ARMIES) {
    const list = s.bought[army].map((kind, i) => ({ kind, hex: s.placed[army][i]!, type: typeOf(s, kind) }));
    shuffle(s.rng, list);
    list.sort((p, q) => (p.hex < q.hex ? -1 : p.hex > q.hex ? 1 : p.type < q.type ? -1 : p.type > q.type ? 1 : 0));
    list.forEach((x, i) => {
      const u: Unit = {
        id: `${army[0]}${String(i + 1).padStart(2, '0')}`,
        army,
        kind: x.kind,
        type: x.type,
        hex: x.hex,
        strength: kindCard(s, x.kind).strength,
        revealed: false,
      };
      s.units.push(u);
    });
  }
  s.bought = { Thargaton: [], Vesania: [] };
  s.placed = { Thargaton: [], Vesania: [] };
  s.done = { Thargaton: false, Vesania: false };
  s.phase = 'play';
  // §7.11: each rolls a die, the higher goes first; ties are rolled again (A58).
  for (;;) {
    const t = rollD6(s.rng);
    const v = rollD6(s.rng);
    logLine(s, 'log.firstRoll', { t, v });
    if (t !== v) {
      startTurn(s, t > v ? 'Thargaton' : 'Vesania');
      return;
    }
  }
}
