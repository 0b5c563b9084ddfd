/**
 * Random playouts: complete games played with random legal actions from a
 * seeded RNG (never Math.random) — uniform, except that undo is rare and "end"
 * may be made rare (endWeight) — checking the engine's invariants after every
 * action (src/games/richard-iii/README.md §5 lists them). A test harness, not
 * part of the rules (so it lives under test/): used by fuzz.test.ts,
 * fog.test.ts and scripts/fuzz.ts. Pure: no I/O, no clock.
 *
 * A failure carries everything needed to reproduce it: scenario, game seed,
 * play seed and the action trail (replay() re-runs it).
 */
import { nextUint32, randomInt, seedRng, type RngState } from '../../../src/engine/rng.ts';
import {
  AREA, BLOCKS, BORDER, BORDER_LIMIT, CARDS, HAND_SIZE, NUM_BLOCKS, SIDES, other, type Side,
} from '../../../src/games/richard-iii/data.ts';
import type { Action } from '../../../src/games/richard-iii/flow.ts';
import { IllegalActionError } from '../../../src/engine/types.ts';
import { applyAction, legalActionsOf, richardIII } from '../../../src/games/richard-iii/index.ts';
import { setupState } from '../../../src/games/richard-iii/setup.ts';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { startPoliticalTurn } from '../../../src/games/richard-iii/political-turn.ts';
import { limitOf as mapLimitOf } from '../../../src/games/richard-iii/supply.ts';
import { ownerOf, top, type R3State } from '../../../src/games/richard-iii/state.ts';
import { viewFor } from '../../../src/games/richard-iii/view.ts';

export interface TrailStep {
  role: Side;
  action: Action;
}

export interface PlayoutOptions {
  scenario: string;
  /** Game seed (setup): cards and dice. */
  seed: string;
  /**
   * Play from this state instead of setupState(scenario, seed) (e.g. a position from
   * buildPosition with a phase started): the state's own RNG is used; replay needs it too.
   */
  start?: R3State;
  /** How to rebuild `start`, for failure reports, e.g. "crowdedPoliticalTurn('political-3')". */
  startLabel?: string;
  /** Seed of the random player; defaults to `play:${seed}`. */
  playSeed?: string;
  /** Give up (and report a failure) after this many decisions. */
  maxDecisions?: number;
  /** Check invariants after every action (default true). Off for benchmarks. */
  check?: boolean;
  /** Compare the input's JSON before and after apply() every n-th action (0 = never; default 7). */
  purityEvery?: number;
  /** Build all three views every n-th action and scan them for RNG words (0 = never; default 25). */
  viewEvery?: number;
  /** Replay the trail at the end and compare final JSON byte for byte (default true when checking). */
  checkDeterminism?: boolean;
  /**
   * Relative weight of {"type":"undo"} and {"type":"take_back"} against 1 for any
   * other action (default 0.1): uniform choice would let random play bounce
   * between a move and its undo for a long time; the actions are still exercised.
   */
  undoWeight?: number;
  /**
   * Relative weight of actions that end or abandon something ({"type":"end"},
   * "cancel", "end_regroup") when other actions exist (default 1: uniform). A small
   * weight makes random players use their AP, reach more battles and deeper
   * positions (usurpations, heir deaths); the fuzz runs both kinds of game.
   */
  endWeight?: number;
  /** Called with every state reached (after setup and after each action). */
  onState?: (s: R3State, step: number) => void;
  /** Keep the trail (default true; replay and failure reports need it). */
  keepTrail?: boolean;
}

export interface PlayoutFailure {
  message: string;
  /** Number of actions applied before the failure was seen. */
  step: number;
  /** The action being applied (or just applied) when it was seen. */
  action?: TrailStep;
  /** Top frame name when it was seen. */
  state?: string;
  stack?: string;
}

export interface PlayoutResult {
  scenario: string;
  seed: string;
  playSeed: string;
  endWeight: number;
  startLabel?: string;
  decisions: number;
  /** The game reached a result with no failure. */
  finished: boolean;
  result: R3State['result'];
  trail: TrailStep[];
  failure: PlayoutFailure | null;
  final: R3State;
}

const UNDO_TYPES = new Set(['undo', 'take_back']);
const END_TYPES = new Set(['end', 'cancel', 'end_regroup']);

/** Where a block may be: a land or exile area, or one of the off-map places. */
const OFF_MAP = new Set(['pool', 'minor', 'off', 'dead']);

/** The two-version pairs (each once). */
const PAIRS: readonly [number, number][] = (() => {
  const out: [number, number][] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const e = BLOCKS[b]!.enemyVersionId;
    if (!e) continue;
    const o = BLOCKS.findIndex((x) => x.id === e);
    if (o > b) out.push([b, o]);
  }
  return out;
})();

const CARD_IDS = new Set(CARDS.map((c) => c.id));

/**
 * Supply limit of a land area / exile limit of an exile area (7.1, 7.2): the
 * map's own figure, read as the game reads it (no default: supply.ts fails at
 * load when the map lacks one).
 */
const limitOf = (area: string): number => mapLimitOf(AREA[area]!);

/**
 * Blocks of `side` counting against the limit of `area` (face-down blocks and the
 * exile's own mercenaries excluded, 7.2 [R-28]), less those that already lost
 * their step for it this Supply Phase (7.1: each excess block loses one step).
 */
function supplyCount(s: R3State, area: string, side: Side, reduced: ReadonlySet<number>): number {
  const own = AREA[area]!.homeMercenaries ?? [];
  let n = 0;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.loc[b] !== area || s.down[b] || ownerOf(s, b) !== side) continue;
    if (own.includes(BLOCKS[b]!.id) || reduced.has(b)) continue;
    n++;
  }
  return n;
}

/**
 * What must hold when a Supply Phase ends (7.1, 7.2): no contested area, and in
 * every area each side holds no more than its limit once the blocks that were
 * reduced this phase (`reduced`) are set aside.
 */
export function checkSupply(s: R3State, reduced: ReadonlySet<number> = new Set()): string[] {
  const out: string[] = [];
  const none = new Set<number>();
  for (const area of Object.keys(AREA)) {
    if (AREA[area]!.kind === 'sea') continue;
    const y = supplyCount(s, area, 'York', none), l = supplyCount(s, area, 'Lancaster', none);
    if (y > 0 && l > 0) out.push(`area ${area} is contested after the battle phase (York ${y}, Lancaster ${l})`);
    for (const side of SIDES) {
      const n = supplyCount(s, area, side, reduced);
      if (n > limitOf(area)) out.push(`supply: ${side} has ${n} unreduced blocks in ${area} (limit ${limitOf(area)})`);
    }
  }
  return out;
}

/** Invariants that hold in every state the engine can reach. Returns the violations. */
export function checkInvariants(s: R3State): string[] {
  const out: string[] = [];
  // Every block in exactly one valid place.
  if (s.loc.length !== NUM_BLOCKS || s.steps.length !== NUM_BLOCKS || s.down.length !== NUM_BLOCKS || s.acted.length !== NUM_BLOCKS) {
    out.push('block arrays do not have one entry per block');
  }
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const id = BLOCKS[b]!.id;
    const loc = s.loc[b]!;
    const area = AREA[loc];
    if (!OFF_MAP.has(loc) && (!area || area.kind === 'sea')) out.push(`${id} is in an invalid place "${loc}"`);
    if (area && area.kind === 'exile' && area.exileOf !== ownerOf(s, b)) out.push(`${id} (${ownerOf(s, b)}) is in enemy exile ${loc}`);
    const st = s.steps[b]!;
    if (!Number.isInteger(st) || st < 0 || st > BLOCKS[b]!.maxSteps) out.push(`${id} has ${st} steps (max ${BLOCKS[b]!.maxSteps})`);
    if (area && st < 1 && !s.down[b]) out.push(`${id} stands upright in ${loc} with ${st} steps`);
  }
  for (const [a, b] of PAIRS) {
    const live = [a, b].filter((x) => s.loc[x] !== 'off' && s.loc[x] !== 'dead');
    if (live.length > 1) out.push(`both versions ${BLOCKS[a]!.id} (${s.loc[a]}) and ${BLOCKS[b]!.id} (${s.loc[b]}) are in play`);
  }
  // Border limits (5.21), +1 for the Surprise card (event text).
  for (const [key, n] of Object.entries(s.borderUse)) {
    const parts = key.split('|');
    const side = parts[2] as Side;
    const type = BORDER[`${parts[0]}|${parts[1]}`];
    if (!type || (side !== 'York' && side !== 'Lancaster')) {
      out.push(`borderUse key "${key}" is not borderId|side`);
      continue;
    }
    // Counts of the last Game Turn stay until startGameTurn resets them (Political Turn, redeal).
    if (s.turn === 0 || s.played[side] === null) continue;
    const limit = BORDER_LIMIT[type] + (s.played[side] === 'surprise' ? 1 : 0);
    if (n > limit) out.push(`border ${parts[0]}|${parts[1]} (${type}) crossed ${n} times by ${side} (limit ${limit})`);
  }
  // Cards: every card at most once; hand sizes follow the game turn (INTERPRETATIONS 4).
  const seen = new Set<string>();
  const all = [...s.deck, ...s.hands.York, ...s.hands.Lancaster];
  for (const side of SIDES) if (s.played[side] !== null) all.push(s.played[side]!);
  for (const c of all) {
    if (!CARD_IDS.has(c)) out.push(`unknown card "${c}"`);
    if (seen.has(c)) out.push(`card ${c} is in two places`);
    seen.add(c);
  }
  if (!s.result) {
    for (const side of SIDES) {
      const held = s.hands[side].length + (s.played[side] !== null ? 1 : 0);
      const want = s.turn === 0 ? HAND_SIZE : HAND_SIZE + 1 - s.turn;
      if (held !== want) out.push(`${side} holds ${held} cards (hand + played) in game turn ${s.turn}; expected ${want}`);
    }
    if (s.turn < 0 || s.turn > 7) out.push(`game turn ${s.turn} out of range`);
  }
  // Flow and roles.
  if (s.flow.length === 0) out.push('empty flow stack');
  if (s.result && top(s).s !== 'game_over') out.push(`result set but top state is ${top(s).s}`);
  const roles = richardIII.activeRoles(s);
  if (!s.result && roles.length === 0) out.push(`nobody may act in ${top(s).s} but the game is not over`);
  for (const role of roles) {
    if (legalActionsOf(s, role).length === 0) out.push(`${role} is active in ${top(s).s} with no legal action`);
  }
  for (const side of SIDES) {
    const c = s.crown[side];
    if (c !== null && (c < 0 || c >= NUM_BLOCKS || BLOCKS[c]!.type !== 'heir')) out.push(`crown of ${side} is not an heir block (${c})`);
  }
  if (s.campaign > s.endCampaign && !s.result) out.push(`campaign ${s.campaign} is after the last (${s.endCampaign})`);
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const d = BLOCKS[b]!, loc = s.loc[b]!;
    // Face-down only in the pool, a mercenary in its home exile (6.85), or the Kingmaker prisoner.
    if (s.down[b] && loc !== 'pool' && b !== s.prisoner && !(AREA[loc]?.homeMercenaries ?? []).includes(d.id)) {
      out.push(`${d.id} is face-down in ${loc}`);
    }
    // Heirs never go to a pool (G-7). (The Rebel may march into the Pretender's Scotland:
    // 5.4 keeps it out of exile only when recruited.)
    if (d.type === 'heir' && loc === 'pool') out.push(`heir ${d.id} is in the pool`);
  }
  for (const side of SIDES) {
    const c = s.crown[side];
    if (c === null || c < 0 || c >= NUM_BLOCKS) continue;
    if (BLOCKS[c]!.side !== side) out.push(`the ${side} crown is on ${BLOCKS[c]!.id}, a ${BLOCKS[c]!.side} block`);
    if (!AREA[s.loc[c]!] && s.loc[c] !== 'minor') out.push(`the ${side} crown block ${BLOCKS[c]!.id} is ${s.loc[c]}`);
  }
  // A Contested area is a pending battle (movement records it) or the battle being fought.
  const battle = s.flow.find((f) => f.s === 'battle');
  const mine = new Map<string, number>();
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const loc = s.loc[b]!;
    if (!AREA[loc] || s.down[b]) continue;
    mine.set(loc, (mine.get(loc) ?? 0) | (ownerOf(s, b) === 'York' ? 1 : 2));
  }
  for (const [area, m] of mine) {
    if (m === 3 && !s.attacks[area] && battle?.['area'] !== area) out.push(`${area} is contested with no pending battle`);
  }
  for (const area of Object.keys(s.attacks)) {
    if (!AREA[area] || AREA[area]!.kind === 'sea') out.push(`attack record for "${area}", not a land area`);
  }
  return out;
}

const MOVE_STATES = new Set(['action_phase', 'move_to', 'sea_move_to', 'recruit_where', 'muster_who', 'muster_move', 'muster_event']);
const SEA_ZONES = new Set(Object.values(AREA).filter((a) => a.kind === 'sea').map((a) => a.id));

/** Every id in an action names a thing of the right kind (actions are self-explanatory JSON). */
export function checkActionShapes(s: R3State, side: Side, list: readonly Action[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const a of list) {
    const key = JSON.stringify(a);
    if (seen.has(key)) out.push(`duplicate legal action ${key} in ${top(s).s}`);
    seen.add(key);
    for (const k of ['block', 'target', 'heir'] as const) {
      if (a[k] !== undefined && (typeof a[k] !== 'string' || !BLOCKS.some((x) => x.id === a[k]))) out.push(`${key}: "${k}" is not a block id`);
    }
    for (const k of ['area', 'to'] as const) {
      if (a[k] !== undefined && (typeof a[k] !== 'string' || !AREA[a[k] as string] || SEA_ZONES.has(a[k] as string))) out.push(`${key}: "${k}" is not a land or exile area id`);
    }
    if (a['zone'] !== undefined && !SEA_ZONES.has(a['zone'] as string)) out.push(`${key}: "zone" is not a sea zone id`);
    if (a['card'] !== undefined && !s.hands[side].includes(a['card'] as string)) out.push(`${key}: card not in ${side}'s hand`);
  }
  return out;
}

const ix = (id: unknown): number => (typeof id === 'string' ? BLOCKS.findIndex((x) => x.id === id) : -1);

/** Player 1 by [R-2]: an event beats an action card, then the higher AP, a tie to the Pretender. */
function expectedP1(s: R3State): Side {
  const score = (side: Side): number => {
    const c = CARDS.find((x) => x.id === s.played[side])!;
    return (c.kind === 'event' ? 100 : 0) + c.ap * 2 + (side !== s.king ? 1 : 0);
  };
  return score('York') > score('Lancaster') ? 'York' : 'Lancaster';
}

/**
 * Rules visible in a legal-action list: who may select, recruit, sea-move (5.2–5.4),
 * where recruits and Plague may go; in a battle (6.2–6.9) which blocks may act,
 * no retreat in round 1, only retreats for the attacker in round 4, retreats to
 * adjacent Friendly or Vacant areas, charge by the senior heir only, treachery
 * by the King/Pretender/Warwick only, hits offered among the tied strongest.
 */
export function checkRulesInList(s: R3State, side: Side, list: readonly Action[]): string[] {
  const out: string[] = [];
  const f = top(s);
  const bad = (a: Action, why: string) => out.push(`${f.s}: ${side} offered ${JSON.stringify(a)}: ${why}`);
  for (const a of list) {
    const b = ix(a['block']);
    switch (`${f.s}/${a.type}`) {
      case 'action_phase/select':
      case 'muster_who/select':
        if (s.acted[b] !== 0 || s.down[b] || ownerOf(s, b) !== side || !AREA[s.loc[b]!]) bad(a, 'not an own upright block on the map that has not acted');
        break;
      case 'action_phase/recruit':
        if (s.loc[b] !== 'pool' || s.down[b] || ownerOf(s, b) !== side) bad(a, 'not an own upright pool block');
        break;
      case 'move_to/sea': {
        const mb = ix(f['block']);
        if (!BLOCKS[mb]!.canSeaMove) bad(a, `${BLOCKS[mb]!.id} may never sea-move (5.3)`);
        break;
      }
      case 'move_to/step': {
        const p = s.flow.find((x) => x.s === 'action_phase');
        const max = p && p['ev'] === 'force-march' ? 3 : 2;
        const path = f['path'] as string[];
        const here = path[path.length - 1]!, to = a['area'] as string;
        if (path.length > max) bad(a, `a ${path.length}th area (max ${max})`);
        if (!(AREA[here]!.landNeighbours ?? []).includes(to)) bad(a, `${to} is not a land neighbour of ${here}`);
        if (path.length >= 2 && path[path.length - 2] === to) bad(a, 'straight back into the area just left (INTERPRETATIONS 6)');
        if (path.length >= 2 && BORDER[`${path[path.length - 2]}|${here}`] === 'red') bad(a, 'a further step after crossing a red border (5.21)');
        if (path.length >= 2 && !noEnemyIn(s, here, side)) bad(a, 'a further step after entering an area with enemy blocks (5.2)');
        const type = BORDER[`${here}|${to}`];
        const key = `${here < to ? `${here}|${to}` : `${to}|${here}`}|${side}`;
        const limit = type ? BORDER_LIMIT[type] + (p && p['ev'] === 'surprise' ? 1 : 0) : 0;
        if ((s.borderUse[key] ?? 0) >= limit) bad(a, `border ${here}|${to} already crossed ${s.borderUse[key] ?? 0} times (limit ${limit}, 5.21)`);
        break;
      }
      case 'sea_move_to/land': {
        const zone = f['zone'] as string, from = f['from'] as string, to = AREA[a['area'] as string]!;
        if (!to.seas.includes(zone) || !AREA[from]!.seas.includes(zone)) bad(a, `${to.id} and ${from} are not both on the ${zone} (5.3)`);
        if (to.id === from) bad(a, 'a sea move back to its own area');
        break;
      }
      case 'recruit_where/place':
        if (!noEnemyIn(s, a['area'] as string, side)) bad(a, 'recruit into an area holding enemy blocks (5.4)');
        break;
      case 'plague_event/plague': {
        const area = AREA[a['area'] as string]!;
        let enemy = false;
        for (let x = 0; x < NUM_BLOCKS; x++) if (s.loc[x] === area.id && !s.down[x] && ownerOf(s, x) !== side) enemy = true;
        if (!area.city || !enemy || !noEnemyIn(s, area.id, other(side))) bad(a, 'not an Enemy area with a city');
        break;
      }
    }
  }
  if (f.s === 'battle') {
    const area = f['area'] as string, round = f['round'] as number, attacker = f['attacker'] as Side;
    const reserves = f['reserves'] as number[], acted = f['acted'] as number[];
    if (round < 1 || round > 4) out.push(`battle in round ${round}`);
    for (const a of list) {
      const b = ix(a['block']);
      if (b < 0 || ownerOf(s, b) !== side || s.loc[b] !== area || s.down[b] || reserves.includes(b) || acted.includes(b)) {
        bad(a, 'the block may not act now (own, in the battle, not a Reserve, not yet acted)');
      }
      if (round === 4 && side === attacker && a.type !== 'retreat') bad(a, 'an attacker may only retreat in round 4 (6.6)');
      if (round === 1 && a.type === 'retreat') bad(a, 'no retreat in round 1 (6.6)');
      if (a.type === 'retreat') {
        const to = a['to'] as string;
        const pirate = (f['pirates'] as number[]).includes(b);
        if (!noEnemyIn(s, to, side)) bad(a, 'retreat into an area holding enemy blocks');
        if (!pirate && !(AREA[area]!.landNeighbours ?? []).includes(to)) bad(a, 'retreat to a non-adjacent area');
      }
      if (a.type === 'charge' || a.type === 'treachery') {
        const tg = ix(a['target']);
        if (tg < 0 || ownerOf(s, tg) === side || s.loc[tg] !== area || reserves.includes(tg)) bad(a, 'target is not an enemy block in the battle proper');
        if (a.type === 'charge' && BLOCKS[b]!.type !== 'heir') bad(a, 'only an heir charges (6.5)');
        if (a.type === 'treachery') {
          if (b !== s.crown[side] && !BLOCKS[b]!.id.startsWith('warwick-')) bad(a, 'only the King, the Pretender or Warwick roll (6.9)');
          if (tg === s.crown[other(side)]) bad(a, 'the enemy King/Pretender cannot be targeted (6.9)');
        }
      }
    }
  }
  if (f.s === 'battle_hits') {
    const bf = s.flow.find((x) => x.s === 'battle');
    if (bf) {
      const reserves = bf['reserves'] as number[];
      let max = 0;
      for (let x = 0; x < NUM_BLOCKS; x++) {
        if (s.loc[x] === bf['area'] && !s.down[x] && ownerOf(s, x) === side && !reserves.includes(x)) max = Math.max(max, s.steps[x]!);
      }
      for (const a of list) {
        const b = ix(a['block']);
        if (ownerOf(s, b) !== side || s.steps[b] !== max) bad(a, `hits go to the strongest block (${max} steps) (6.4)`);
      }
    }
  }
  return out;
}

/**
 * A block's fire (6.4): as many dice as its strength, a hit for each die ≤ its
 * firepower (printed, plus a Defender's bonus: +1, +2 for an heir), and the hits taken one at
 * a time by the strongest enemy block in the battle proper — so the enemy's
 * strengths after the fire are fixed whatever the owner chose among ties.
 */
export function checkFire(prev: R3State, next: R3State, side: Side, a: Action): string[] {
  const out: string[] = [];
  if (a.type !== 'fire' || top(prev).s !== 'battle' || next.result) return out;
  const bf = top(prev);
  const area = bf['area'] as string, reserves = bf['reserves'] as number[], attacker = bf['attacker'] as Side;
  const b = ix(a['block']);
  const added = next.log.map((e) => e.pub);
  const line = added.find((l) => / fires at [A-D]\d: /.test(l));
  if (!line) return [`fire by ${a['block']} logged no roll`];
  const m = / fires at [A-D](\d): ([\d ]+) — (\d+) hits?\./.exec(line);
  if (!m) return [`cannot read the roll "${line}"`];
  const fp = Number(m[1]), dice = m[2]!.trim().split(' ').map(Number), hits = Number(m[3]);
  const base = BLOCKS[b]!.firepower;
  if (dice.length !== prev.steps[b]) out.push(`${a['block']} (${prev.steps[b]} steps) rolled ${dice.length} dice`);
  if (dice.some((d) => d < 1 || d > 6)) out.push(`impossible die in "${line}"`);
  if (hits !== dice.filter((d) => d <= fp).length) out.push(`"${line}": hits miscounted`);
  // Defender only; +1 per symbol, and only an heir can have two (shield and crown, 6.4).
  const maxBonus = side === attacker ? 0 : BLOCKS[b]!.type === 'heir' ? 2 : 1;
  if (fp < base || fp > base + maxBonus) out.push(`"${line}": firepower ${fp} for ${a['block']} (printed ${base}, ${side === attacker ? 'attacker: no bonus' : `defender: at most +${maxBonus}`})`);
  // Hit distribution, unless the owner still has to choose or other eliminations ran in the same apply.
  if (top(next).s === 'battle_hits' || added.some((l) => /unable to retreat/.test(l))) return out;
  const enemy = other(side);
  const before: number[] = [], after: number[] = [];
  for (let x = 0; x < NUM_BLOCKS; x++) {
    if (prev.loc[x] !== area || prev.down[x] || ownerOf(prev, x) !== enemy || reserves.includes(x)) continue;
    before.push(prev.steps[x]!);
    after.push(next.loc[x] === area && !next.down[x] ? next.steps[x]! : 0);
  }
  const want = before.slice();
  for (let h = 0; h < hits; h++) {
    let k = -1;
    for (let i = 0; i < want.length; i++) if (want[i]! > 0 && (k < 0 || want[i]! > want[k]!)) k = i;
    if (k < 0) break;
    want[k]!--;
  }
  const sorted = (x: number[]) => x.slice().sort((p, q) => p - q).join(',');
  if (sorted(want) !== sorted(after)) out.push(`${hits} hits on strengths [${before}] left [${after}], expected [${sorted(want)}] (6.4)`);
  return out;
}

/**
 * A treason roll (6.9, the Treason card): dice = the target's loyalty (1 for
 * Kent/Salisbury against Warwick, 6.91), success iff every die is even; on
 * success the target is replaced in place by its other version at the same
 * strength and its old version goes off the map, else nothing changes.
 */
export function checkTreason(prev: R3State, next: R3State, side: Side, a: Action): string[] {
  const out: string[] = [];
  if ((a.type !== 'treachery' && a.type !== 'treason') || next.result) return out;
  const target = ix(a['target']);
  const line = next.log.map((e) => e.pub).find((l) => /treason roll on /.test(l));
  if (!line) return [`${a.type} on ${a['target']} logged no roll`];
  const m = /treason roll on .*?: ([\d ]+) — /.exec(line);
  if (!m) return [`cannot read the roll "${line}"`];
  const dice = m[1]!.trim().split(' ').map(Number);
  const d = BLOCKS[target]!;
  const byWarwick = a.type === 'treachery' && BLOCKS[ix(a['block'])]!.id.startsWith('warwick-');
  const kin = ['kent-y', 'kent-l', 'salisbury-y', 'salisbury-l'].includes(d.id);
  const want = byWarwick && kin ? 1 : typeof d.loyalty === 'number' ? d.loyalty : -1;
  if (dice.length !== want) out.push(`"${line}": ${dice.length} dice, loyalty gives ${want} (6.9, 6.91)`);
  const ok = dice.every((x) => x % 2 === 0);
  const nb = d.enemyVersionId ? ix(d.enemyVersionId) : -1;
  if (ok) {
    if (nb < 0 || next.loc[nb] !== prev.loc[target] || next.loc[target] !== 'off' || next.steps[nb] !== prev.steps[target] || ownerOf(next, nb) !== side) {
      out.push(`"${line}": the defection did not put ${d.enemyVersionId} in ${prev.loc[target]} at ${prev.steps[target]} steps for ${side}`);
    }
  } else if (next.loc[target] !== prev.loc[target] || next.steps[target] !== prev.steps[target]) {
    out.push(`"${line}": a failed roll changed ${d.id}`);
  }
  return out;
}

/**
 * A charge (6.5): the heir's hits go to the named target only (excess lost); a
 * surviving target fires back at the heir only, and nobody else loses a step.
 */
export function checkCharge(prev: R3State, next: R3State, _side: Side, a: Action): string[] {
  if (a.type !== 'charge' || next.result) return [];
  const out: string[] = [];
  const heir = ix(a['block']), target = ix(a['target']);
  const lines = next.log.map((e) => e.pub);
  const hitsOf = (re: RegExp): number | null => {
    const l = lines.find((x) => re.test(x));
    const m = l ? / — (\d+) hits?\./.exec(l) : null;
    return m ? Number(m[1]) : null;
  };
  const h1 = hitsOf(/ charges .* at [A-D]\d: /);
  if (h1 === null) return [`charge by ${a['block']} logged no roll`];
  // Round 4: attackers that cannot retreat are eliminated in the same apply (6.6).
  if (lines.some((l) => /unable to retreat/.test(l))) return out;
  const left = Math.max(0, prev.steps[target]! - h1);
  const after = (b: number) => (next.loc[b] === prev.loc[b] && !next.down[b] ? next.steps[b]! : 0);
  if (after(target) !== left) out.push(`charge: ${a['target']} had ${prev.steps[target]}, took ${h1} hits, has ${after(target)}`);
  let h2 = 0;
  if (left > 0) {
    const back = hitsOf(/ fires back at /);
    if (back === null) out.push(`charge: ${a['target']} survived but did not fire back (6.5)`);
    else h2 = back;
  }
  if (after(heir) !== Math.max(0, prev.steps[heir]! - h2)) out.push(`charge: ${a['block']} had ${prev.steps[heir]}, took ${h2} hits back, has ${after(heir)}`);
  const area = prev.loc[heir]!;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (b === heir || b === target || prev.loc[b] !== area || prev.down[b]) continue;
    if (after(b) !== prev.steps[b] && !lines.some((l) => /defects|reserves/.test(l))) out.push(`charge: bystander ${BLOCKS[b]!.id} changed`);
  }
  return out;
}

/** Does `side` have no upright enemy block in `area`? */
function noEnemyIn(s: R3State, area: string, side: Side): boolean {
  for (let b = 0; b < NUM_BLOCKS; b++) if (s.loc[b] === area && !s.down[b] && ownerOf(s, b) !== side) return false;
  return true;
}

/**
 * Rules checked on one transition: a block moves at most once per Game Turn in the
 * Action Phase (5.2) and only its owner moves it; recruits arrive at full strength
 * (5.4); AP never go negative; retreats and regroups end in Friendly or Vacant
 * areas (6.6, 6.7); sea moves land in Friendly or Vacant areas except with Piracy (5.3).
 */
export function checkTransition(prev: R3State, next: R3State, side: Side, a: Action): string[] {
  const out: string[] = [];
  if (a.type === 'undo') return out;
  const f = top(prev);
  // ("end" may run the battle and supply phases in the same apply: not a movement.)
  if (MOVE_STATES.has(f.s) && a.type !== 'end' && MOVE_STATES.has(top(next).s)) {
    for (let b = 0; b < NUM_BLOCKS; b++) {
      const from = prev.loc[b]!, to = next.loc[b]!;
      if (from === to || !AREA[from] || !AREA[to]) continue;
      const id = BLOCKS[b]!.id;
      if (ownerOf(prev, b) !== side) out.push(`${side} moved ${id}, an enemy block, in ${f.s}`);
      if (prev.acted[b] !== 0 && f['block'] !== id) out.push(`${id} moved again this Game Turn (acted ${prev.acted[b]})`);
    }
  }
  if (a.type === 'place' && typeof f['block'] === 'string') {
    const b = BLOCKS.findIndex((x) => x.id === f['block']);
    if (next.steps[b] !== BLOCKS[b]!.maxSteps) out.push(`${f['block']} recruited at ${next.steps[b]} steps`);
    if (next.loc[b] !== a['area']) out.push(`${f['block']} recruited to ${next.loc[b]}, not ${a['area']}`);
  }
  if (!prev.revealed && next.revealed && next.p1 !== expectedP1(next)) {
    out.push(`Player 1 is ${next.p1}; by [R-2] it is ${expectedP1(next)} (York ${next.played.York}, Lancaster ${next.played.Lancaster})`);
  }
  for (const fr of next.flow) {
    if (typeof fr['ap'] === 'number' && (fr['ap'] as number) < 0) out.push(`${fr.s} has ${fr['ap']} AP`);
  }
  if ((a.type === 'retreat' || a.type === 'regroup') && typeof a['to'] === 'string' && typeof a['block'] === 'string') {
    const b = BLOCKS.findIndex((x) => x.id === a['block']);
    if (next.loc[b] === a['to'] && !noEnemyIn(next, a['to'], side)) out.push(`${a.type} of ${a['block']} into ${a['to']}, which holds enemy blocks`);
  }
  if (a.type === 'land' && typeof a['area'] === 'string' && prev.played[side] !== 'piracy' && !noEnemyIn(prev, a['area'], side)) {
    out.push(`sea move into ${a['area']}, which holds enemy blocks, without Piracy`);
  }
  return out;
}

/**
 * At the start of a Game Turn, after the Supply Phase's succession (6.81, 3.21):
 * each side's King/Pretender is its most senior heir in play. And while the game
 * goes on, each side has a living heir (9.0: on the map, in exile or a minor).
 */
export function checkCrowns(s: R3State, diedInSupply: ReadonlySet<Side> = new Set()): string[] {
  const out: string[] = [];
  for (const side of SIDES) {
    let senior = -1, living = false;
    for (let b = 0; b < NUM_BLOCKS; b++) {
      const d = BLOCKS[b]!;
      if (d.type !== 'heir' || d.side !== side) continue;
      const loc = s.loc[b]!;
      if (loc !== 'dead' && loc !== 'off') living = true;
      if (AREA[loc] && (senior < 0 || (d.heirRank ?? 99) < (BLOCKS[senior]!.heirRank ?? 99))) senior = b;
    }
    if (!living && !s.result) out.push(`${side} has no living heir but the game goes on (9.0)`);
    const c = s.crown[side];
    // A crown lost during this Supply Phase's limits (after succession) waits for the next one (6.81).
    if (c === null && !diedInSupply.has(side)) out.push(`${side} has no King/Pretender after the Supply Phase`);
    else if (c !== null && senior >= 0 && c !== senior) out.push(`${side} crown is ${BLOCKS[c]!.id} but its senior heir in play is ${BLOCKS[senior]!.id}`);
  }
  return out;
}

/** Usurpation counts (8.2): nobles, church and heirs on the map (not exile, Isle of Man, pools), +1 for London. */
export function usurpationCounts(s: R3State): Record<Side, number> {
  const n: Record<Side, number> = { York: 0, Lancaster: 0 };
  const london: Record<Side, boolean> = { York: false, Lancaster: false };
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const loc = s.loc[b]!, a = AREA[loc];
    if (!a || a.kind !== 'land' || loc === 'isle-of-man') continue;
    const side = ownerOf(s, b), type = BLOCKS[b]!.type;
    if ((type === 'noble' || type === 'church' || type === 'heir') && (!s.down[b] || b === s.prisoner)) n[side]++;
    if (loc === 'middlesex' && !s.down[b]) london[side] = true;
  }
  for (const side of SIDES) if (london[side] && !london[other(side)]) n[side]++;
  return n;
}

/** The game ended at the last campaign's Usurpation (9.0 [R-39]): the winner is the King after 8.2. */
export function checkFinalUsurpation(prev: R3State, next: R3State): string[] {
  if (prev.result || !next.result || next.campaign !== next.endCampaign || prev.turn !== 7) return [];
  if (!/[Uu]surpation/.test(next.result.reason)) return [];
  // 8.1 disbanded only blocks that do not count: the counts are those of the Usurpation step.
  const n = usurpationCounts(next);
  const king = prev.king, pretender = other(king);
  const want = n[pretender] > n[king] ? pretender : king;
  return next.result.winner === want ? [] : [`final Usurpation: counts York ${n.York}, Lancaster ${n.Lancaster}, King was ${king}: ${want} should win, not ${next.result.winner}`];
}

/** After a Campaign Reset (8.5) every block in play or in a pool is upright at full strength. */
export function checkReset(s: R3State): string[] {
  const out: string[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const loc = s.loc[b]!;
    if (!(AREA[loc] || loc === 'pool') || b === s.prisoner) continue;
    if (s.down[b]) out.push(`${BLOCKS[b]!.id} is still face-down after the Campaign Reset`);
    if (s.steps[b] !== BLOCKS[b]!.maxSteps) out.push(`${BLOCKS[b]!.id} has ${s.steps[b]}/${BLOCKS[b]!.maxSteps} steps after the Campaign Reset`);
  }
  // 7.2/8.5 [G-7]: every exile within its limit, unless only heirs (never pooled) are left over.
  for (const a of Object.values(AREA)) {
    if (a.kind !== 'exile') continue;
    let n = 0, nonHeirs = 0;
    for (let b = 0; b < NUM_BLOCKS; b++) {
      if (s.loc[b] !== a.id || s.down[b] || (a.homeMercenaries ?? []).includes(BLOCKS[b]!.id)) continue;
      n++;
      if (BLOCKS[b]!.type !== 'heir') nonHeirs++;
    }
    if (n > limitOf(a.id) && nonHeirs > 0) out.push(`${a.id} holds ${n} blocks after the Campaign Reset (limit ${limitOf(a.id)})`);
  }
  return out;
}

/** Block names that are also area or side names ("Warwick", "York") cannot be searched for in text. */
const AMBIGUOUS_NAMES = new Set<string>([...Object.values(AREA).map((a) => a.name), 'York', 'Lancaster']);
/** States whose actions never reveal the block they concern (moves, recruits, going home, reductions). */
const QUIET_STATES = new Set([
  'action_phase', 'move_to', 'sea_move_to', 'recruit_where', 'muster_who', 'muster_move', 'regroup',
  'supply_limits', 'pretender_goes_home', 'king_goes_home', 'pretender_goes_home_to', 'king_goes_home_to',
  'exile_limits_pretender', 'exile_limits_king',
]);

/**
 * Public log lines written by an action that reveals nothing (a move, recruit,
 * regroup of a block not seen in battle, go-home choice, non-lethal supply
 * reduction) must not name the block concerned (fog of war; common brief
 * "public text must never name a hidden block").
 */
export function checkLogPrivacy(prev: R3State, next: R3State, action: Action): string[] {
  const f = top(prev);
  if (!QUIET_STATES.has(f.s) || prev.flow.some((x) => x.s === 'battle')) return [];
  const id = (typeof action.block === 'string' ? action.block : typeof f['block'] === 'string' ? f['block'] : null) as string | null;
  if (id === null || id === 'rebel' || action.type === 'end' || action.type.startsWith('end_')) return [];
  const b = BLOCKS.findIndex((x) => x.id === id);
  if (b < 0) return [];
  if (f.s === 'regroup' && Array.isArray(f['seen']) && (f['seen'] as number[]).includes(b)) return [];
  if (action.type === 'reduce' && next.loc[b] !== prev.loc[b]) return []; // eliminated: its name is public (6.8)
  if (b === prev.prisoner) return [];
  const d = BLOCKS[b]!;
  const needles = [d.id, d.fullName, ...(AMBIGUOUS_NAMES.has(d.name) ? [] : [d.name])];
  const out: string[] = [];
  for (const e of next.log) {
    const text = e.pub.replace(/Force March/g, '');
    const hit = needles.find((n) => new RegExp(`\\b${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text));
    if (hit) out.push(`public log names hidden block ${id} ("${hit}") after ${JSON.stringify(action)} in ${f.s}: "${e.pub}"`);
  }
  return out;
}

/**
 * apply() rejects, with IllegalActionError and without touching the state, an
 * action from a side that may not act, an unknown verb, and a known verb with a
 * forged argument (design-lessons.md "Validate the action, not only its name").
 */
export function checkRejections(s: R3State): string[] {
  const out: string[] = [];
  if (s.result) return out;
  const before = fingerprint(s);
  const active = richardIII.activeRoles(s) as Side[];
  const tryIllegal = (role: string, a: Action, what: string) => {
    try {
      applyAction(s, role, a);
      out.push(`apply accepted ${what}: ${role} ${JSON.stringify(a)} in ${top(s).s}`);
    } catch (e) {
      if (!(e instanceof IllegalActionError)) out.push(`apply threw ${(e as Error).name} instead of IllegalActionError for ${what}`);
    }
  };
  for (const side of SIDES) {
    if (active.includes(side)) continue;
    if (legalActionsOf(s, side).length > 0) out.push(`${side} is not active but has legal actions`);
    const other = active[0] ? legalActionsOf(s, active[0])[0] : undefined;
    if (other) tryIllegal(side, other, 'an action from a side that may not act');
  }
  for (const side of active) {
    tryIllegal(side, { type: 'no_such_verb' }, 'an unknown verb');
    const a = legalActionsOf(s, side).find((x) => typeof x['block'] === 'string' || typeof x['area'] === 'string');
    if (a) {
      const forged = { ...a, ...(typeof a['block'] === 'string' ? { block: 'no-such-block' } : { area: 'no-such-area' }) };
      tryIllegal(side, forged, 'a forged argument');
    }
  }
  tryIllegal('Burgundy', { type: 'end' }, 'an unknown role');
  if (fingerprint(s) !== before) out.push('a rejected action changed the state');
  return out;
}

/** RNG words and the seed must never appear in a view. */
export function checkViews(s: R3State, seed: string): string[] {
  const out: string[] = [];
  for (const seat of [null, 'York', 'Lancaster'] as const) {
    const json = JSON.stringify(viewFor(s, seat));
    for (const w of s.rng) if (json.includes(String(w))) out.push(`view of ${seat ?? 'spectator'} contains RNG word ${w}`);
    if (seed.length >= 6 && json.includes(seed)) out.push(`view of ${seat ?? 'spectator'} contains the seed`);
    if (/"(rng|undo|deck)"/.test(json)) out.push(`view of ${seat ?? 'spectator'} has a secret key`);
  }
  return out;
}

/** The whole state, for purity checks (states are small: they hold one change's log lines). */
function fingerprint(s: R3State): string {
  return JSON.stringify(s);
}

/**
 * A state for undo checks: an undo restores everything but the log window,
 * which describes the undo itself (the lines it took back), so that is
 * compared by the log's length.
 */
function positionPrint(s: R3State): string {
  return `${JSON.stringify({ ...s, log: null, logFrom: null })}|${s.logFrom + s.log.length}`;
}

/** Picks an action: a role uniformly among the active ones, then an action (undo and end weighted). */
function choose(rng: RngState, s: R3State, undoWeight: number, endWeight: number): { role: Side; action: Action; choices: number } | null {
  const roles = richardIII.activeRoles(s) as Side[];
  if (roles.length === 0) return null;
  const role = roles[roles.length === 1 ? 0 : randomInt(rng, roles.length)]!;
  const list = legalActionsOf(s, role);
  if (list.length === 0) return { role, action: { type: '(none)' }, choices: 0 };
  if (list.length === 1 || (undoWeight === 1 && endWeight === 1)) return { role, action: list[randomInt(rng, list.length)]!, choices: list.length };
  const weight = (a: Action): number => (UNDO_TYPES.has(a.type) ? undoWeight : END_TYPES.has(a.type) ? endWeight : 1);
  let total = 0;
  for (const a of list) total += weight(a);
  if (total <= 0) return { role, action: list[randomInt(rng, list.length)]!, choices: list.length };
  let x = (nextUint32(rng) / 0x100000000) * total;
  for (const a of list) {
    x -= weight(a);
    if (x < 0) return { role, action: a, choices: list.length };
  }
  return { role, action: list[list.length - 1]!, choices: list.length };
}

function frameName(s: R3State): string {
  return s.flow.length ? top(s).s : '(empty)';
}

/**
 * The per-game invariant checks of a playout, with what they remember between
 * actions: our own copy of the undo stack, the blocks reduced this Supply Phase,
 * crowns lost in it.
 */
class Checker {
  private readonly undoShadow: { json: string; side: Side }[] = [];
  private readonly diedInSupply = new Set<Side>();
  private reduced: Record<Side, Set<number>> = { York: new Set(), Lancaster: new Set() };
  /** Pinning records of the Action Phase under way (5.22): per attacked area. */
  private pins: { side: Side; list: { area: string; defenders: number[]; free: number; closed: string[] }[] } | null = null;
  private readonly seed: string;
  private readonly viewEvery: number;
  constructor(seed: string, viewEvery: number) {
    this.seed = seed;
    this.viewEvery = viewEvery;
  }

  /** Checks the transition prevS → s made by `role` playing `action` (the step-th action). */
  step(prevS: R3State, s: R3State, role: Side, action: Action, prevState: string, step: number): string[] {
    const v: string[] = [];
    const pick = { role, action };
    const { undoShadow, diedInSupply, reduced } = this;
    const prevTurn = prevS.turn, prevCampaign = prevS.campaign;
    v.push(...checkInvariants(s));
    v.push(...checkLogPrivacy(prevS, s, pick.action));
    v.push(...checkTransition(prevS, s, pick.role, pick.action));
    v.push(...checkFire(prevS, s, pick.role, pick.action));
    v.push(...checkTreason(prevS, s, pick.role, pick.action));
    v.push(...checkCharge(prevS, s, pick.role, pick.action));
    for (const side of richardIII.activeRoles(s) as Side[]) {
      const list = legalActionsOf(s, side);
      v.push(...checkActionShapes(s, side, list), ...checkRulesInList(s, side, list));
    }
    // Undo (INTERPRETATIONS 54): restores exactly the state before the undone action; is
    // offered only to the side that took it; never survives a die roll (flow.ts clearUndo).
    if (pick.action.type === 'undo') {
      const want = undoShadow.pop();
      if (!want) v.push('undo applied with no undoable action recorded');
      else if (positionPrint(s) !== want.json) v.push('undo did not restore the state before the undone action');
    } else if (s.undo.length === prevS.undo.length + 1) {
      undoShadow.push({ json: positionPrint(prevS), side: pick.role });
    } else if (s.undo.length === 0) {
      undoShadow.length = 0;
    } else if (s.undo.length !== prevS.undo.length) {
      v.push(`undo stack went from ${prevS.undo.length} to ${s.undo.length} entries`);
    }
    if (s.undo.length !== undoShadow.length) v.push(`undo stack has ${s.undo.length} entries, expected ${undoShadow.length}`);
    const rolled = s.rng.some((w, i) => w !== prevS.rng[i]);
    if (rolled && s.undo.length > 0) v.push('the RNG advanced (dice or shuffle) but the undo stack was kept');
    for (const side of SIDES) {
      if (legalActionsOf(s, side).some((a) => a.type === 'undo') && undoShadow[undoShadow.length - 1]?.side !== side) {
        v.push(`${side} is offered undo of an action taken by ${undoShadow[undoShadow.length - 1]?.side ?? 'nobody'}`);
      }
    }
    v.push(...this.checkPins(prevS, s, action));
    if (s.campaign !== prevCampaign && !s.result) v.push(...checkReset(s));
    v.push(...checkFinalUsurpation(prevS, s));
    const name = frameName(s);
    for (const side of SIDES) {
      const c = prevS.crown[side];
      if (c !== null && s.crown[side] === null && (prevState === 'supply_limits' || prevState === 'execute_defector')) diedInSupply.add(side);
    }
    const f = top(s);
    if (f.s === 'supply_limits' && Array.isArray(f['reduced'])) {
      reduced[f.side as Side] = new Set(f['reduced'] as number[]);
    } else if (pick.action.type === 'reduce' && typeof pick.action.block === 'string') {
      const b = BLOCKS.findIndex((x) => x.id === pick.action.block);
      if (b >= 0) reduced[pick.role].add(b);
    }
    // A Supply Phase has just ended when a new Game Turn begins in the same campaign. (The
    // 7th turn's leads into the Political Turn, whose automatic disbands and moves home
    // run in the same apply: not checked.)
    const newTurn = s.campaign === prevCampaign && s.turn > prevTurn && prevTurn >= 1;
    if (newTurn) {
      const all = new Set([...reduced.York, ...reduced.Lancaster]);
      for (const m of checkSupply(s, all)) v.push(`after the supply phase (${prevState} -> ${name}): ${m}`);
      for (const m of checkCrowns(s, diedInSupply)) v.push(`after the supply phase (${prevState} -> ${name}): ${m}`);
    }
    if (s.turn !== prevTurn || s.campaign !== prevCampaign) {
      diedInSupply.clear();
      this.reduced = { York: new Set(), Lancaster: new Set() };
    }
    if (step % 11 === 0) v.push(...checkRejections(s));
    if (this.viewEvery && step % this.viewEvery === 0) {
      try {
        v.push(...checkViews(s, this.seed));
      } catch (e) {
        v.push(`viewFor threw: ${(e as Error).message}`);
      }
    }
    return v;
  }

  /**
   * Pinning (5.22 [R-21]): when a side's Action Phase starts, in every area the
   * enemy attacked, its defenders beyond the number of Main Attack blocks may
   * leave; the others are pinned. Leavers may not cross a border the enemy used
   * to enter that battle.
   */
  private checkPins(prev: R3State, s: R3State, action: Action): string[] {
    const out: string[] = [];
    const phaseSide = (st: R3State): Side | null => {
      for (const f of st.flow) if (f['phase'] === true && (f.side === 'York' || f.side === 'Lancaster')) return f.side;
      return null;
    };
    const was = phaseSide(prev), now = phaseSide(s);
    if (now === null) {
      this.pins = null;
      return out;
    }
    if (was !== now || this.pins === null || this.pins.side !== now) {
      const list: { area: string; defenders: number[]; free: number; closed: string[] }[] = [];
      for (const [area, at] of Object.entries(s.attacks)) {
        if (at.attacker === now) continue;
        const defenders: number[] = [];
        let main = 0;
        for (let b = 0; b < NUM_BLOCKS; b++) {
          if (s.loc[b] !== area || s.down[b]) continue;
          if (ownerOf(s, b) === now) defenders.push(b);
          else if (!at.reserves.includes(b)) main++;
        }
        if (defenders.length > 0 && main > 0) list.push({ area, defenders, free: Math.max(0, defenders.length - main), closed: [...at.entries[at.attacker]] });
      }
      this.pins = { side: now, list };
      return out;
    }
    for (const p of this.pins.list) {
      const gone = p.defenders.filter((b) => s.loc[b] !== p.area);
      if (gone.length > p.free) out.push(`pinning (5.22): ${gone.length} defenders left ${p.area}, only ${p.free} were free`);
      for (const b of gone) {
        // A land step (a sea move crosses no land border).
        if (action.type === 'step' && prev.loc[b] === p.area && p.closed.includes(s.loc[b]!)) {
          out.push(`pinning (5.22): ${BLOCKS[b]!.id} left ${p.area} across the border the enemy entered by (${s.loc[b]})`);
        }
      }
    }
    return out;
  }
}

/** Plays one complete game. Never throws: a problem is returned as `failure`. */
export function playout(o: PlayoutOptions): PlayoutResult {
  const playSeed = o.playSeed ?? `play:${o.seed}`;
  const rng = seedRng(playSeed);
  const check = o.check ?? true;
  const purityEvery = check ? (o.purityEvery ?? 7) : 0;
  const viewEvery = check ? (o.viewEvery ?? 25) : 0;
  const maxDecisions = o.maxDecisions ?? 50_000;
  const undoWeight = o.undoWeight ?? 0.1;
  const endWeight = o.endWeight ?? 1;
  const keepTrail = o.keepTrail ?? true;
  const trail: TrailStep[] = [];
  let s: R3State;
  const res = (failure: PlayoutFailure | null, st: R3State, decisions: number): PlayoutResult => ({
    scenario: o.scenario, seed: o.seed, playSeed, endWeight, ...(o.start ? { startLabel: o.startLabel ?? '(a custom start state)' } : {}), decisions, finished: !!st?.result && !failure,
    result: st?.result ?? null, trail, failure, final: st,
  });
  try {
    s = o.start ? structuredClone(o.start) : setupState(o.scenario, o.seed);
  } catch (e) {
    const err = e as Error;
    return res({ message: `setup threw: ${err.message}`, step: 0, stack: err.stack }, undefined as unknown as R3State, 0);
  }
  o.onState?.(s, 0);
  if (check) {
    const v = checkInvariants(s);
    if (v.length) return res({ message: v.join('; '), step: 0, state: frameName(s) }, s, 0);
  }
  let step = 0;
  const checker = new Checker(o.seed, viewEvery);
  while (!s.result) {
    if (step >= maxDecisions) {
      return res({ message: `no result after ${maxDecisions} decisions (state ${frameName(s)})`, step, state: frameName(s) }, s, step);
    }
    let pick: ReturnType<typeof choose>;
    try {
      pick = choose(rng, s, undoWeight, endWeight);
    } catch (e) {
      const err = e as Error;
      return res({ message: `legalActions/activeRoles threw: ${err.message}`, step, state: frameName(s), stack: err.stack }, s, step);
    }
    if (!pick) return res({ message: `no active role in ${frameName(s)}`, step, state: frameName(s) }, s, step);
    const ts: TrailStep = { role: pick.role, action: pick.action };
    if (pick.choices === 0) return res({ message: `${pick.role} active with no legal action in ${frameName(s)}`, step, action: ts, state: frameName(s) }, s, step);
    const before = purityEvery && step % purityEvery === 0 ? fingerprint(s) : null;
    let next: R3State;
    try {
      next = applyAction(s, pick.role, pick.action);
    } catch (e) {
      const err = e as Error;
      if (keepTrail) trail.push(ts);
      return res({ message: `apply threw: ${err.message}`, step, action: ts, state: frameName(s), stack: err.stack }, s, step);
    }
    if (keepTrail) trail.push(ts);
    step++;
    if (before !== null && fingerprint(s) !== before) {
      return res({ message: 'apply() mutated its input state', step, action: ts, state: frameName(s) }, next, step);
    }
    const prevState = frameName(s);
    const prevS = s;
    s = next;
    o.onState?.(s, step);
    if (check) {
      let v: string[];
      try {
        v = checker.step(prevS, s, pick.role, pick.action, prevState, step);
      } catch (e) {
        v = [`an invariant check threw: ${(e as Error).stack}`];
      }
      if (v.length) return res({ message: v.join('; '), step, action: ts, state: prevState }, s, step);
    }
  }
  if (check && (o.checkDeterminism ?? true) && keepTrail) {
    try {
      const again = replay(o.scenario, o.seed, trail, o.start);
      if (JSON.stringify(again) !== JSON.stringify(s)) {
        return res({ message: 'replaying the trail from the seed gave a different final state', step }, s, step);
      }
    } catch (e) {
      return res({ message: `replay threw: ${(e as Error).message}`, step }, s, step);
    }
  }
  return res(null, s, step);
}

/** Re-runs a trail from the seed (or from `start`); returns the final state. */
export function replay(scenario: string, seed: string, trail: readonly TrailStep[], start?: R3State): R3State {
  let s = start ? structuredClone(start) : setupState(scenario, seed);
  for (const t of trail) s = applyAction(s, t.role, t.action);
  return s;
}

/** A short, copyable description of a failure: seeds, state, message and the last actions. */
export function describeFailure(r: PlayoutResult, lastN = 12): string {
  const f = r.failure;
  if (!f) return 'ok';
  const tail = r.trail.slice(-lastN).map((t, i) => `  #${r.trail.length - Math.min(lastN, r.trail.length) + i + 1} ${t.role} ${JSON.stringify(t.action)}`);
  return [
    `scenario=${r.scenario} seed=${JSON.stringify(r.seed)} playSeed=${JSON.stringify(r.playSeed)} step=${f.step} state=${f.state ?? '?'}`,
    `  ${f.message}`,
    `  reproduce: playout({ scenario: '${r.scenario}', seed: ${JSON.stringify(r.seed)}, endWeight: ${r.endWeight}${r.startLabel ? `, start: ${r.startLabel}` : ''} })`,
    ...(f.action ? [`  action: ${f.action.role} ${JSON.stringify(f.action.action)}`] : []),
    `  last actions (of ${r.trail.length}):`,
    ...tail,
    ...(f.stack ? [`  ${f.stack.split('\n').slice(0, 6).join('\n  ')}`] : []),
  ].join('\n');
}

/**
 * A random position at the end of a Wars of the Roses campaign 1 (Game Turn 7
 * played, no Contested area, exiles crowded on both sides, a random King) with
 * the Political Turn started: for playouts that reach 8.3–8.5 and the exile
 * limits, which random play from the start seldom does.
 */
export function crowdedPoliticalTurn(seed: string): R3State {
  const rng = seedRng(`${seed}/layout`);
  const s = buildPosition({ scenario: 'wars-of-the-roses', seed });
  const owner: Record<string, Side> = {};
  for (let b = 0; b < NUM_BLOCKS; b++) if (BLOCKS[b]!.type === 'heir' && AREA[s.loc[b]!]) owner[s.loc[b]!] = ownerOf(s, b);
  const land = Object.values(AREA).filter((a) => a.kind === 'land').map((a) => a.id);
  for (const a of land) owner[a] ??= randomInt(rng, 2) ? 'York' : 'Lancaster';
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const d = BLOCKS[b]!;
    if (d.type === 'heir' || d.type === 'rebel' || !(AREA[s.loc[b]!] || s.loc[b] === 'pool')) continue;
    const side = ownerOf(s, b);
    const exiles = Object.values(AREA).filter((a) => a.kind === 'exile' && a.exileOf === side).map((a) => a.id);
    const mine = land.filter((a) => owner[a] === side);
    const r = randomInt(rng, 20);
    s.loc[b] = r < 7 ? 'pool' : r < 14 ? exiles[randomInt(rng, exiles.length)]! : mine[randomInt(rng, mine.length)] ?? 'pool';
    s.steps[b] = 1 + randomInt(rng, d.maxSteps);
  }
  s.king = randomInt(rng, 2) ? 'York' : 'Lancaster';
  for (const side of ['York', 'Lancaster'] as const) {
    let senior: number | null = null;
    for (let b = 0; b < NUM_BLOCKS; b++) {
      const d = BLOCKS[b]!;
      if (d.type === 'heir' && d.side === side && AREA[s.loc[b]!] && (senior === null || (d.heirRank ?? 9) < (BLOCKS[senior]!.heirRank ?? 9))) senior = b;
    }
    s.crown[side] = senior;
  }
  s.turn = 7;
  s.played = { York: 'ap2-1', Lancaster: 'ap2-2' };
  s.revealed = true;
  s.p1 = 'York';
  s.deck = CARDS.map((c) => c.id).filter((c) => c !== 'ap2-1' && c !== 'ap2-2');
  startPoliticalTurn(s);
  return s;
}
