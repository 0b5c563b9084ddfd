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
      // Only if the whole army, this unit too, can still stand on the first row at once (§5.1, §7, §11, §12):
      // else deployment could never end (its `done` needs every unit placed).
      if (k.cost <= left && have < k.blocks && deployable(s, army, [...s.bought[army], k.id])) out.push({ type: 'buy', kind: k.id });
    }
    const buying = out.length > 0;
    for (const k of new Set(s.bought[army])) out.push({ type: 'return', kind: k });
    // A55 'spend-down': done only once no unit can be bought any more (too dear, no block left, no room on the first row).
    if (s.bought[army].length > 0 && !(buying && s.options.a55Budget === 'spend-down')) out.push({ type: 'done' });
    return out;
  },
  refusal(s, army, a) {
    if (a.type === 'done' && !s.done[army] && s.options.a55Budget === 'spend-down' && s.bought[army].length > 0 && purchase.actions(s, army).some((x) => x.type === 'buy')) {
      return `the purchase is not done while a unit can still be bought (rule option a55Budget 'spend-down', A55)`;
    }
    if (a.type !== 'buy') return null;
    const k = s.kinds.find((x) => x.id === a.kind && x.army === army);
    if (!k || s.done[army] || k.cost > s.budget - spent(s, army) || s.bought[army].filter((x) => x === k.id).length >= k.blocks) return null;
    if (deployable(s, army, [...s.bought[army], k.id])) return null;
    return `${k.id} may not be bought: ${army}'s first row could not hold it with the units already bought, ` +
      'within the stacking limit and on hexes each unit may stand on (§5.1, §7, §11, §12)';
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

/** The combinations of (infantry, cavalry, artillery) one hex may hold (§5.1, stackingOk), largest first. */
const HEX_LOADS: readonly (readonly [number, number, number])[] = [
  [3, 0, 0], [2, 0, 0], [1, 1, 0], [1, 0, 1], [0, 2, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0],
];

/**
 * Whether every unit of `kinds` can stand on the army's deployment hexes at
 * once: each on a hex its type and kind may stand on (§11, §12), each hex
 * within the stacking limit (§5.1). Units are grouped by type and the set of
 * hexes they may stand on (Light Cavalry and the Scorpion also take swamp);
 * the search goes hex by hex over how many of each group the hex takes,
 * remembering the counts left at each hex, so it is exact and small (a first
 * row of h hexes and at most 24 units).
 */
export function deployable(s: BWState, army: Army, kinds: readonly KindId[]): boolean {
  const hexes = deploymentHexes(s, army);
  const groups = new Map<string, { type: number; hexes: boolean[]; n: number }>();
  for (const kind of kinds) {
    const type = typeOf(s, kind);
    const ok = hexes.map((h) => canEnterTerrain(s, { type, kind }, h));
    const key = `${type}:${ok.map((b) => (b ? 1 : 0)).join('')}`;
    const g = groups.get(key);
    if (g) g.n++;
    else groups.set(key, { type: type === 'infantry' ? 0 : type === 'cavalry' ? 1 : 2, hexes: ok, n: 1 });
  }
  const list = [...groups.values()];
  // Quick answers before the search, which walks its whole space when the army does not fit:
  // a group with no hex it may stand on, or more units than the hexes could hold at most.
  if (list.some((g) => !g.hexes.includes(true))) return false;
  if (kinds.length > hexes.length * MOST_PER_HEX) return false;
  const seen = new Set<string>();
  // Puts `want` units of one type on hex i from the groups of that type that may stand there, from group j on.
  const spread = (i: number, left: number[], type: number, want: number, j: number, then: (left: number[]) => boolean): boolean => {
    if (want === 0) return then(left);
    for (let g = j; g < list.length; g++) {
      if (list[g]!.type !== type || !list[g]!.hexes[i] || left[g] === 0) continue;
      for (let take = Math.min(want, left[g]!); take >= 1; take--) {
        const next = left.slice();
        next[g] = left[g]! - take;
        if (spread(i, next, type, want - take, g + 1, then)) return true;
      }
    }
    return false;
  };
  const fill = (i: number, left: number[]): boolean => {
    if (left.every((n) => n === 0)) return true;
    if (i === hexes.length) return false;
    const key = `${i}|${left.join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return HEX_LOADS.some(([inf, cav, art]) =>
      spread(i, left, 0, inf, 0, (l1) => spread(i, l1, 1, cav, 0, (l2) => spread(i, l2, 2, art, 0, (l3) => fill(i + 1, l3)))),
    );
  };
  return fill(0, list.map((g) => g.n));
}

/** The most units any one hex may hold (§5.1). */
const MOST_PER_HEX = Math.max(...HEX_LOADS.map(([inf, cav, art]) => inf + cav + art));

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
