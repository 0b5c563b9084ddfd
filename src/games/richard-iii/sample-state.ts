/**
 * Determinization for computer players (GameModule.sampleState, src/ai): a full
 * R3State that one seat's view could have come from, every fact the view hides
 * drawn with the caller's RNG. It reads nothing but (view, seat, rng).
 *
 * What is copied from the view: everything public (turn, crowns, counts, card
 * counts, attacks, borders, the battle's face-up blocks, the flow frames as
 * flow-view.ts shows them) and everything the seat owns (its blocks, hand and
 * played card, its parts of the frames).
 *
 * What is drawn (README.md "Sampling states for computer players"):
 * - which enemy block stands where: the enemy blocks whose place the view does
 *   not give are dealt to the places the counts leave open (per area: upright
 *   and face-down; the pool: upright and face-down), each within the places the
 *   view's `whereabouts` allow it (what public facts tell the seat, whereabouts.ts)
 *   and as the rules allow (face-down in an area: a mercenary in its home exile
 *   or the Kingmaker prisoner; face-down in the pool: a block that goes there
 *   when eliminated; never an heir in the pool): a random matching of blocks to
 *   open places (dealSlots);
 * - which of the enemy blocks in an area acted this turn (the view counts them),
 *   and among those the Reserves and Piracy attackers of pending battles (the
 *   view counts them per attack);
 * - enemy strengths: uniform 1..max for upright blocks on the map (full for
 *   upright pool blocks, as the rules leave them); a block reduced by the
 *   enemy's supply limits this phase at most max − 1;
 * - the enemy hand and face-down card, uniformly from the cards the seat cannot
 *   account for (not its own, not played earlier this campaign, not the enemy's
 *   revealed card); the deck is the rest, shuffled;
 * - hidden parts of the flow: the enemy's block in mid-move or being recruited
 *   (uniformly among those it could have picked), its hidden redeal answer, its
 *   hidden Reserves and pirates in the battle being fought;
 * - a fresh RNG state from the caller's RNG.
 * The undo stack is empty (so `undo` is never legal in a sampled state) and the
 * log is empty, starting where the view's log ends (logFrom + log.length).
 *
 * Not a posterior: the draw is random within what the view allows, not weighted
 * by how likely each position is given the game so far (beyond `whereabouts`
 * the view does not carry the history: a strength shown in an earlier battle is
 * forgotten once the battle ends).
 * A few constraints are met by rejection: a draw whose own view differs from the
 * given one (say an exile count that an unlucky draw changes) is drawn again,
 * up to MAX_TRIES times.
 */
import { nextUint32, randomInt, seedRng, shuffle, type RngState } from '../../engine/rng.ts';
import { AREA, BLOCK_INDEX, BLOCKS, CARDS, NUM_BLOCKS, REDEAL_THRESHOLD_AP, SIDES, other, type Side } from './data.ts';
import { Acted, sameJson, type Attack, type Frame, type R3State } from './state.ts';
import { viewFor, type R3View } from './view.ts';
import type { FrameView } from './flow-view.ts';
import { HANDLERS } from './index.ts';
import { occupancy } from './occupancy.ts';
import { seaZoneOptions } from './sea-move.ts';
import { mercenaryHome, pendingHomes } from './homes.ts';
import { destinationOf } from './elimination.ts';
import { handAp } from './cards.ts';
import type { PhaseFrame } from './action-frames.ts';
import { PLACE_INDEX } from './whereabouts.ts';

/** Draws per call before giving up on an exact match of the view (see the header). */
const MAX_TRIES = 40;

const CARD_ORDER: Readonly<Record<string, number>> = Object.fromEntries(CARDS.map((c, i) => [c.id, i]));
const byDeckOrder = (a: string, b: string): number => CARD_ORDER[a]! - CARD_ORDER[b]!;
const ix = (id: string): number => {
  const b = BLOCK_INDEX[id];
  if (b === undefined) throw new Error(`sampleState: unknown block ${id}`);
  return b;
};

/** The side a block fights for under this King (the Rebel serves the Pretender). */
function sideUnder(king: Side, b: number): Side {
  const x = BLOCKS[b]!.side;
  return x === 'Rebel' ? other(king) : (x as Side);
}

/** Uniform sample of k items of `list` (a copy is shuffled), or null when there are fewer. */
function pick<T>(rng: RngState, list: readonly T[], k: number): T[] | null {
  if (k > list.length) return null;
  if (k === 0) return [];
  return shuffle(rng, list.slice()).slice(0, k);
}

const uniform = (rng: RngState, lo: number, hi: number): number => lo + randomInt(rng, hi - lo + 1);

/** A view without its log lines (a sampled state has none; see the header). */
function comparable(v: R3View): Omit<R3View, 'log' | 'logFrom'> {
  const { log: _l, logFrom: _f, ...rest } = v;
  return rest;
}

/**
 * A state that `seat`'s view could have come from (see the header); `rng` is
 * advanced. Throws when the view is not a seat's view of a Richard III game.
 */
export function sampleState(view: unknown, seat: string, rng: RngState): R3State {
  const v = view as R3View;
  if (v?.game !== 'richard-iii' || (seat !== 'York' && seat !== 'Lancaster') || v.seat !== seat) {
    throw new Error('sampleState: expects a seat\'s own Richard III view');
  }
  const want = comparable(v);
  let last: R3State | null = null;
  for (let i = 0; i < MAX_TRIES; i++) {
    const s = drawOnce(v, seat, rng);
    if (!s) continue;
    last = s;
    if (sameJson(comparable(viewFor(s, seat)), want)) return s;
  }
  if (last) return last;
  throw new Error('sampleState: no state consistent with this view');
}

/* ------------------------------------------------------------------ one draw */

interface Draw {
  v: R3View;
  seat: Side;
  enemy: Side;
  rng: RngState;
  s: R3State;
  /** Blocks whose place is settled. */
  placed: boolean[];
  /** Enemy blocks upright in the battle area drawn as its hidden pirates (battle frame). */
  battlePirates: number[];
}

function drawOnce(v: R3View, seat: Side, rng: RngState): R3State | null {
  const enemy = other(seat);
  const s = baseState(v, rng);
  const d: Draw = { v, seat, enemy, rng, s, placed: new Array<boolean>(NUM_BLOCKS).fill(false), battlePirates: [] };
  placeKnown(d);
  if (!placeHidden(d)) return null;
  if (!drawActedAndAttacks(d)) return null;
  drawCards(d);
  if (!rebuildFlow(d)) return null;
  return s;
}

function baseState(v: R3View, rng: RngState): R3State {
  const crown = (id: string | null): number | null => (id === null ? null : ix(id));
  return {
    game: 'richard-iii',
    v: 1,
    scenario: v.scenario,
    // A fresh RNG for the sampled world's dice and shuffles, drawn from the caller's.
    rng: seedRng(`${nextUint32(rng)}:${nextUint32(rng)}:${nextUint32(rng)}:${nextUint32(rng)}`),
    campaign: v.campaign,
    endCampaign: v.endCampaign,
    turn: v.turn,
    king: v.king,
    crown: { York: crown(v.crown.York), Lancaster: crown(v.crown.Lancaster) },
    prisoner: v.prisoner === null ? null : ix(v.prisoner),
    heirsToEnter: { York: v.heirsToEnter.York, Lancaster: v.heirsToEnter.Lancaster },
    loc: new Array<string>(NUM_BLOCKS).fill('off'),
    steps: new Array<number>(NUM_BLOCKS).fill(0),
    down: new Array<boolean>(NUM_BLOCKS).fill(false),
    acted: new Array<number>(NUM_BLOCKS).fill(0),
    deck: [],
    hands: { York: [], Lancaster: [] },
    played: { York: null, Lancaster: null },
    revealed: v.cards.revealed,
    mulligan: { York: v.cards.mulligan.York, Lancaster: v.cards.mulligan.Lancaster },
    p1: v.cards.p1,
    borderUse: { ...v.borderUse },
    attacks: {},
    treason: v.cards.treason,
    flow: [],
    log: [],
    // The sampled world's log goes on where the view's ends.
    logFrom: v.logFrom + v.log.length,
    undo: [],
    result: v.result ? { winner: v.result.winner, reason: v.result.reason } : null,
    // The seat's own knowledge of the enemy's blocks, as its view gives it (the enemy's of its
    // blocks is not in the view, and nothing below reads it: left out).
    ...(v.whereabouts && (v.seat === 'York' || v.seat === 'Lancaster') ? { whereabouts: { [v.seat]: whereaboutsFromView(v.whereabouts) } } : {}),
  };
}

/** The state's form of a view's whereabouts: per block, place indices; [] for blocks the view leaves out. */
function whereaboutsFromView(w: Record<string, string[]>): number[][] {
  const out: number[][] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const places = w[BLOCKS[b]!.id];
    out.push(places ? places.map((p) => PLACE_INDEX[p]).filter((i) => i !== undefined) : []);
  }
  return out;
}

/** Own blocks, and every block whose place is public: dead, off-map, minors, the Rebel, the battle's face-up blocks. */
function placeKnown(d: Draw): void {
  const { s, v, placed } = d;
  const put = (b: number, loc: string, steps: number, down = false): void => {
    s.loc[b] = loc;
    s.steps[b] = steps;
    s.down[b] = down;
    placed[b] = true;
  };
  for (const o of v.blocks ?? []) {
    const b = ix(o.id);
    put(b, o.loc, o.steps, o.down);
    s.acted[b] = o.acted;
  }
  for (const id of v.dead) if (!placed[ix(id)]) put(ix(id), 'dead', 0);
  for (const id of v.off) if (!placed[ix(id)]) put(ix(id), 'off', BLOCKS[ix(id)]!.maxSteps);
  for (const side of SIDES) for (const id of v.minors[side]) if (!placed[ix(id)]) put(ix(id), 'minor', BLOCKS[ix(id)]!.maxSteps);
  const rebel = ix('rebel');
  if (!placed[rebel]) {
    const { loc, down } = v.rebel;
    // Its strength on the map is drawn with the other hidden strengths (placeHidden).
    put(rebel, loc, down || loc === 'dead' ? 0 : BLOCKS[rebel]!.maxSteps, down);
    if (AREA[loc] && !down) s.steps[rebel] = -1;
  }
  for (const r of v.battle?.blocks ?? []) if (!placed[ix(r.id)] || s.steps[ix(r.id)] === -1) put(ix(r.id), r.loc, r.steps);
}

/**
 * The enemy blocks the view does not place, dealt to the places its counts leave
 * open: uniform among the assignments the rules allow (see the header). Face-down
 * places first (only some blocks can fill them), then heirs (never in the pool),
 * then everything else.
 */
function placeHidden(d: Draw): boolean {
  const { s, v, enemy, rng, placed } = d;
  const hidden: number[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) if (!placed[b] && sideUnder(v.king, b) === enemy) hidden.push(b);
  // Places left open per area: counts minus the enemy blocks already placed there.
  const up: Record<string, number> = {};
  const down: Record<string, number> = {};
  for (const [area, bySide] of Object.entries(v.areas)) {
    const c = bySide[enemy];
    if (!c) continue;
    up[area] = c.n - c.down;
    down[area] = c.down;
  }
  let poolUp = v.pools[enemy].n - v.pools[enemy].down;
  let poolDown = v.pools[enemy].down;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (!placed[b] || sideUnder(v.king, b) !== enemy) continue;
    const at = s.loc[b]!;
    if (AREA[at]) {
      if (s.down[b]) down[at] = (down[at] ?? 0) - 1;
      else up[at] = (up[at] ?? 0) - 1;
    } else if (at === 'pool') {
      if (s.down[b]) poolDown--;
      else poolUp--;
    }
  }
  const left = new Set(hidden);
  // Where the seat knows each block may stand (whereabouts.ts); untracked: anywhere.
  const known = s.whereabouts?.[d.seat];
  const may = (b: number, loc: string): boolean => {
    const places = known?.[b];
    return !places || places.length === 0 || places.includes(PLACE_INDEX[loc]!);
  };
  const place = (b: number, loc: string, isDown: boolean): void => {
    s.loc[b] = loc;
    s.down[b] = isDown;
    s.steps[b] = isDown ? 0 : loc === 'pool' ? BLOCKS[b]!.maxSteps : -1;
    placed[b] = true;
    left.delete(b);
  };
  // The Kingmaker prisoner: face-down in a land area (mercenaries lie face-down only in their home exile).
  const pr = s.prisoner;
  if (pr !== null && left.has(pr)) {
    const areas = Object.keys(down).filter((a) => down[a]! > 0 && AREA[a]!.kind === 'land' && may(pr, a));
    if (areas.length === 0) return false;
    const a = areas[randomInt(rng, areas.length)]!;
    place(pr, a, true);
    // A prisoner keeps his strength (he is face-down, not eliminated): full, as he was taken.
    s.steps[pr] = BLOCKS[pr]!.maxSteps;
    down[a]!--;
  }
  // Every other place left open is a slot that only some blocks may fill: dealt as one
  // matching (dealSlots), so no block is spent on a slot another needed.
  const slots: Slot[] = [];
  for (const [area, k] of Object.entries(down)) {
    // Face-down in an area: a mercenary eliminated to its home exile.
    for (let i = 0; i < k; i++) slots.push({ loc: area, down: true, fits: (b) => mercenaryHome(b) === area });
  }
  // Face-down in the pool: a block that goes there when eliminated.
  for (let i = 0; i < poolDown; i++) slots.push({ loc: 'pool', down: true, fits: (b) => destinationOf(b) === 'pool' });
  // Upright home mercenaries in their exile (counted by the view): from that exile's own.
  for (const [area, bySide] of Object.entries(v.exileMercenaries)) {
    let k = bySide[enemy] ?? 0;
    for (let b = 0; b < NUM_BLOCKS; b++) if (placed[b] && s.loc[b] === area && !s.down[b] && mercenaryHome(b) === area && sideUnder(v.king, b) === enemy) k--;
    for (let i = 0; i < k; i++) slots.push({ loc: area, down: false, fits: (b) => mercenaryHome(b) === area });
    up[area] = (up[area] ?? 0) - Math.max(0, k);
  }
  // The other upright blocks in an area: not its own mercenaries (the view counts those); an heir
  // never stands in the pool.
  for (const [area, k] of Object.entries(up)) for (let i = 0; i < k; i++) slots.push({ loc: area, down: false, fits: (b) => mercenaryHome(b) !== area });
  for (let i = 0; i < poolUp; i++) slots.push({ loc: 'pool', down: false, fits: (b) => BLOCKS[b]!.type !== 'heir' });
  const deal = dealSlots(rng, [...left], slots, may);
  if (!deal) return false;
  for (const [b, slot] of deal) place(b, slot.loc, slot.down);
  for (let b = 0; b < NUM_BLOCKS; b++) if (s.steps[b] === -1) s.steps[b] = uniform(rng, 1, BLOCKS[b]!.maxSteps);
  return true;
}

/** A place left open for one hidden block: where, face-down or not, and which blocks may fill it. */
interface Slot {
  loc: string;
  down: boolean;
  fits: (b: number) => boolean;
}

/**
 * Every block to a slot it fits and the seat's whereabouts allow (`may`), each slot
 * filled once: a bipartite matching (Kuhn's augmenting paths), blocks and slots
 * taken in a random order, so the deal is random (not uniform over the matchings
 * when whereabouts constrain it) and found whenever one exists; the real state is one, so a view
 * of a real game always has a deal. Null when there is none (blocks and slots
 * differ in number, or the view's counts cannot be met).
 */
function dealSlots(rng: RngState, blocks: number[], slots: Slot[], may: (b: number, loc: string) => boolean): Map<number, Slot> | null {
  if (blocks.length !== slots.length) return null;
  const order = shuffle(rng, blocks.slice());
  // One shuffled order of the slots for every block: first fit in it, over a random order of
  // blocks, is a random deal (uniform where nothing constrains it).
  const slotOrder = shuffle(rng, slots.map((_, i) => i));
  const options = new Map<number, number[]>();
  for (const b of order) options.set(b, slotOrder.filter((i) => slots[i]!.fits(b) && may(b, slots[i]!.loc)));
  const holder = new Array<number>(slots.length).fill(-1);
  const tryPlace = (b: number, seen: boolean[]): boolean => {
    for (const i of options.get(b)!) {
      if (seen[i]) continue;
      seen[i] = true;
      if (holder[i] === -1 || tryPlace(holder[i]!, seen)) {
        holder[i] = b;
        return true;
      }
    }
    return false;
  };
  for (const b of order) if (!tryPlace(b, new Array<boolean>(slots.length).fill(false))) return null;
  const out = new Map<number, Slot>();
  holder.forEach((b, i) => out.set(b, slots[i]!));
  return out;
}

/* ------------------------------------------------- acted, Reserves, pirates */

/** The battle frame of the view's flow, if a battle is being fought. */
const battleView = (v: R3View): FrameView | undefined => v.flow.find((f) => f.s === 'battle');

/** Enemy blocks upright in the battle area that the seat cannot see: the enemy's hidden Reserves. */
function hiddenInBattle(d: Draw, area: string): number[] {
  const shown = new Set((d.v.battle?.blocks ?? []).map((r) => ix(r.id)));
  const out: number[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (d.s.loc[b] === area && !d.s.down[b] && sideUnder(d.v.king, b) === d.enemy && !shown.has(b)) out.push(b);
  }
  return out;
}

function drawActedAndAttacks(d: Draw): boolean {
  const { s, v, enemy, rng } = d;
  const king = v.king;
  // Which enemy blocks in each area acted this turn.
  for (const [area, bySide] of Object.entries(v.areas)) {
    const c = bySide[enemy];
    if (!c || c.acted === 0) continue;
    const here: number[] = [];
    for (let b = 0; b < NUM_BLOCKS; b++) if (s.loc[b] === area && sideUnder(king, b) === enemy) here.push(b);
    const chosen = pick(rng, here, c.acted);
    if (!chosen) return false;
    for (const b of chosen) s.acted[b] = Acted.Moved;
  }
  const bfv = battleView(v);
  const battleArea = bfv ? (bfv['area'] as string) : null;
  if (battleArea) {
    const hp = (bfv!['hiddenPirates'] as Record<Side, number>)[enemy];
    const cands = hiddenInBattle(d, battleArea).filter((b) => BLOCKS[b]!.canSeaMove);
    const chosen = pick(rng, cands, hp);
    if (!chosen) return false;
    d.battlePirates = chosen;
  }
  // Own blocks marked Reserve/pirate belong to the attack where they stand, else to the
  // battle being fought (they left it, or fell in it).
  const ownMarks = (kind: 'reserve' | 'pirate', area: string): number[] => {
    const out: number[] = [];
    for (const o of v.blocks ?? []) {
      if (!o[kind]) continue;
      const where = v.attacks[o.loc] ? o.loc : battleArea;
      if (where === area) out.push(ix(o.id));
    }
    return out;
  };
  for (const [area, a] of Object.entries(v.attacks)) {
    const rec: Attack = {
      attacker: a.attacker,
      main: a.main,
      entries: { York: [...a.entries.York], Lancaster: [...a.entries.Lancaster] },
      reserves: ownMarks('reserve', area),
      pirates: ownMarks('pirate', area),
    };
    const nr = a.reserves[enemy], np = a.pirates[enemy];
    if (area === battleArea) {
      // After the battle has started the record only feeds the view's counts (battle.ts copies
      // it into the frame when the battle starts): the hidden Reserves and pirates first, then
      // any enemy blocks.
      const hiddenR = hiddenInBattle(d, area);
      const fill = (first: number[], n: number): number[] | null => {
        const out = first.slice(0, n);
        for (let b = 0; b < NUM_BLOCKS && out.length < n; b++) {
          if (sideUnder(king, b) === enemy && !out.includes(b)) out.push(b);
        }
        return out.length === n ? out : null;
      };
      const r = fill(hiddenR, nr);
      const p = fill(d.battlePirates, np);
      if (!r || !p) return false;
      rec.reserves.push(...r);
      rec.pirates.push(...p);
    } else {
      // A pending battle: the enemy's Reserves and pirates entered the area this turn.
      const movers: number[] = [];
      for (let b = 0; b < NUM_BLOCKS; b++) {
        if (s.loc[b] === area && !s.down[b] && s.acted[b] !== 0 && sideUnder(king, b) === enemy) movers.push(b);
      }
      const r = pick(rng, movers, nr);
      const p = pick(rng, movers.filter((b) => BLOCKS[b]!.canSeaMove), np);
      if (!r || !p) return false;
      rec.reserves.push(...r);
      rec.pirates.push(...p);
      for (const b of p) s.acted[b] = Acted.SeaMoved;
    }
    rec.reserves.sort((x, y) => x - y);
    rec.pirates.sort((x, y) => x - y);
    s.attacks[area] = rec;
  }
  return true;
}

/* -------------------------------------------------------------------- cards */

function drawCards(d: Draw): void {
  const { s, v, seat, enemy, rng } = d;
  s.hands[seat] = [...(v.hand ?? [])];
  s.played[seat] = v.cards.played[seat];
  const theirs = v.cards.played[enemy];
  const known = new Set<string>([...s.hands[seat], ...v.cards.discards]);
  if (s.played[seat] !== null) known.add(s.played[seat]!);
  if (theirs !== null && theirs !== 'hidden') known.add(theirs);
  // A lone demand for a redeal shows the demander's hand (redeal_answer).
  const answer = v.flow.find((f) => f.s === 'redeal_answer');
  const shown = answer && answer['demander'] === enemy ? (answer['demanderHand'] as string[]) : null;
  if (shown) for (const c of shown) known.add(c);
  const unknown = shuffle(rng, CARDS.map((c) => c.id).filter((c) => !known.has(c)));
  let i = 0;
  if (shown) s.hands[enemy] = [...shown];
  else {
    s.hands[enemy] = unknown.slice(0, v.cards.handSize[enemy]).sort(byDeckOrder);
    i = v.cards.handSize[enemy];
  }
  s.played[enemy] = theirs === 'hidden' ? unknown[i++]! : theirs;
  s.deck = unknown.slice(i);
}

/* --------------------------------------------------------------------- flow */

/**
 * The flow stack from the view's frames, bottom first, each with its hidden
 * parts drawn in the position below it (the enemy's picks are drawn among the
 * actions the frame below would have offered it).
 */
function rebuildFlow(d: Draw): boolean {
  const { s, v } = d;
  for (const fv of v.flow) {
    const f = frameOf(d, fv);
    if (!f) return false;
    s.flow.push(f);
  }
  return true;
}

const ids = (list: unknown): number[] => ((list ?? []) as string[]).map(ix);

function frameOf(d: Draw, fv: FrameView): Frame | null {
  const { s, seat, enemy, rng } = d;
  const mine = fv.side === seat;
  const base = { s: fv.s, side: fv.side };
  switch (fv.s) {
    case 'redeal_offer': {
      const answers: Partial<Record<Side, string>> = {};
      for (const x of fv['answered'] as Side[]) {
        if (x === seat) answers[x] = fv['answer'] as string;
        // The enemy's hidden answer: either answer its (drawn) hand allows, at even odds.
        else answers[x] = !s.mulligan[x] && handAp(s.hands[x]) <= REDEAL_THRESHOLD_AP && randomInt(rng, 2) === 1 ? 'demand' : 'keep';
      }
      return { ...base, ask: [...(fv['ask'] as Side[])], answers };
    }
    case 'redeal_answer':
      return { ...base, demander: fv['demander'] };
    case 'action_phase':
      return {
        ...base, phase: true, ev: fv['ev'], ap: fv['ap'], active: [...(fv['active'] as string[])],
        ports: { ...(fv['ports'] as Record<string, number>) },
      };
    case 'move_to': {
      if (mine) return { ...base, block: fv['block'], path: [...(fv['path'] as string[])] };
      const path = fv['path'] as string[] | undefined;
      if (path) {
        const b = movedTo(d, path[path.length - 1]!);
        return b === null ? null : { ...base, block: BLOCKS[b]!.id, path: [...path] };
      }
      // Picked, not moved yet: any block the enemy could have picked.
      const picks = enemyActions(d, 'select');
      if (picks.length === 0) return null;
      const id = picks[randomInt(rng, picks.length)]!;
      return { ...base, block: id, path: [s.loc[ix(id)]!] };
    }
    case 'sea_move_to': {
      if (mine) return { ...base, block: fv['block'], from: fv['from'], zone: fv['zone'] };
      const p = phaseFrame(s);
      if (!p) return null;
      const o = occupancy(s);
      const options: { b: number; zones: string[] }[] = [];
      for (const id of enemyActions(d, 'select')) {
        const b = ix(id);
        const zones = seaZoneOptions(s, o, p, enemy, b, s.loc[b]!);
        if (zones.length > 0) options.push({ b, zones });
      }
      if (options.length === 0) return null;
      const { b, zones } = options[randomInt(rng, options.length)]!;
      return { ...base, block: BLOCKS[b]!.id, from: s.loc[b]!, zone: zones[randomInt(rng, zones.length)]! };
    }
    case 'recruit_where': {
      if (mine) return { ...base, block: fv['block'] };
      const picks = enemyActions(d, 'recruit');
      if (picks.length === 0) return null;
      return { ...base, block: picks[randomInt(rng, picks.length)]! };
    }
    case 'muster_event':
    case 'plague_event':
      return { ...base, phase: true };
    case 'muster_who':
      return { ...base, phase: true, area: fv['area'] };
    case 'muster_move': {
      const area = fv['area'];
      if (mine) return { ...base, block: fv['block'], area, path: [...(fv['path'] as string[])] };
      const path = fv['path'] as string[] | undefined;
      if (path) {
        const b = movedTo(d, path[path.length - 1]!);
        return b === null ? null : { ...base, block: BLOCKS[b]!.id, area, path: [...path] };
      }
      const picks = enemyActions(d, 'select');
      if (picks.length === 0) return null;
      const id = picks[randomInt(rng, picks.length)]!;
      return { ...base, block: id, area, path: [s.loc[ix(id)]!] };
    }
    case 'battle':
      return battleFrameOf(d, fv);
    case 'battle_hits':
      return { ...base, hits: fv['hits'] };
    case 'regroup': {
      const area = fv['area'] as string;
      let pirates: number[];
      let seen: number[];
      if (mine) {
        pirates = ids(fv['pirates']);
        seen = ids(fv['seen']);
      } else {
        // The victor's pirates: drawn among its sea-capable blocks there. Which blocks were
        // seen in the battle only words later log lines: none is assumed.
        const cands: number[] = [];
        for (let b = 0; b < NUM_BLOCKS; b++) {
          if (s.loc[b] === area && !s.down[b] && sideUnder(s.king, b) === enemy && BLOCKS[b]!.canSeaMove) cands.push(b);
        }
        const chosen = pick(rng, cands, fv['hiddenPirates'] as number);
        if (!chosen) return null;
        pirates = chosen.sort((x, y) => x - y);
        seen = [];
      }
      return {
        ...base, area, pirates, entries: [...(fv['entries'] as string[])],
        use: { ...(fv['use'] as Record<string, number>) }, seen,
      };
    }
    case 'enter_heir':
      return { ...base, stage: fv['stage'], heir: fv['heir'], areas: [...(fv['areas'] as string[])] };
    case 'execute_defector':
      // Stage 3 offers a defected Clarence, stage 4 a defected Exeter (supply.ts).
      return { ...base, stage: fv['stage'], block: fv['block'] ?? (fv['stage'] === 3 ? 'clarence-l' : 'exeter-y') };
    case 'supply_limits': {
      if (mine) return { ...base, stage: fv['stage'], reduced: ids(fv['reduced']) };
      // The enemy's reductions so far: that many of its counted blocks in each area, each
      // left with at most max − 1 steps.
      const reduced: number[] = [];
      for (const [area, k] of Object.entries(fv['reducedIn'] as Record<string, number>)) {
        const own = AREA[area]!.homeMercenaries ?? [];
        const cands: number[] = [];
        for (let b = 0; b < NUM_BLOCKS; b++) {
          if (s.loc[b] === area && !s.down[b] && sideUnder(s.king, b) === enemy && !own.includes(BLOCKS[b]!.id)) cands.push(b);
        }
        const chosen = pick(rng, cands, k);
        if (!chosen) return null;
        for (const b of chosen) {
          reduced.push(b);
          s.steps[b] = uniform(rng, 1, Math.max(1, BLOCKS[b]!.maxSteps - 1));
        }
      }
      return { ...base, stage: fv['stage'], reduced };
    }
    case 'pretender_goes_home':
    case 'king_goes_home':
      // The enemy's blocks already sent home are not known: none is assumed (they may be
      // offered to move again, which changes only the enemy's options).
      return { ...base, moved: mine ? [...(fv['moved'] as string[])] : [] };
    case 'pretender_goes_home_to':
    case 'king_goes_home_to': {
      if (mine) return { ...base, block: fv['block'] };
      const below = s.flow[s.flow.length - 1];
      const p = pendingHomes(s, enemy, (below?.['moved'] as string[] | undefined) ?? []);
      const cands = [...p.must, ...p.may];
      if (cands.length === 0) return null;
      return { ...base, block: BLOCKS[cands[randomInt(rng, cands.length)]!]!.id };
    }
    default:
      // play_card, battle_phase, treason_event, exile_limits_*, game_over.
      return { ...base };
  }
}

/** The innermost action_phase frame built so far. */
function phaseFrame(s: R3State): PhaseFrame | null {
  for (let i = s.flow.length - 1; i >= 0; i--) if (s.flow[i]!.s === 'action_phase') return s.flow[i] as unknown as PhaseFrame;
  return null;
}

/** The block ids of the enemy's `type` actions in the frame on top of the stack built so far. */
function enemyActions(d: Draw, type: string): string[] {
  const f = d.s.flow[d.s.flow.length - 1];
  if (!f) return [];
  const h = HANDLERS[f.s];
  if (!h) return [];
  return h.actions(d.s, f, d.enemy).filter((a) => a.type === type).map((a) => a['block'] as string);
}

/** An enemy block that acted and stands in `area`: the one in mid-move there. */
function movedTo(d: Draw, area: string): number | null {
  const cands: number[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (d.s.loc[b] === area && !d.s.down[b] && d.s.acted[b] !== 0 && sideUnder(d.s.king, b) === d.enemy) cands.push(b);
  }
  if (cands.length === 0) return null;
  const b = cands[randomInt(d.rng, cands.length)]!;
  d.s.acted[b] = Acted.Moved;
  return b;
}

/** The battle frame: the view's lists, and the enemy's hidden Reserves (and pirates among them). */
function battleFrameOf(d: Draw, fv: FrameView): Frame {
  const area = fv['area'] as string;
  const hidden = hiddenInBattle(d, area);
  const named = ids(fv['members']);
  const turned = ids(fv['turned']);
  // Members: the blocks there when the battle started, in block order, then the defectors in
  // the order they defected (battle.ts, treachery.ts).
  const first = [...named.filter((b) => !turned.includes(b)), ...hidden].sort((x, y) => x - y);
  const members = [...first, ...named.filter((b) => turned.includes(b))];
  const entries = fv['entries'] as { York: string[]; Lancaster: string[] };
  return {
    s: 'battle',
    side: fv.side,
    area,
    members,
    attacker: fv['attacker'],
    round: fv['round'],
    revealed: ids(fv['revealed']),
    reserves: [...ids(fv['reserves']), ...hidden],
    acted: ids(fv['acted']),
    fromReserve: ids(fv['fromReserve']),
    defectedNow: ids(fv['defectedNow']),
    turned,
    used: [...(fv['used'] as string[])],
    rolls: { ...(fv['rolls'] as Record<string, number>) },
    retreatUse: { ...(fv['retreatUse'] as Record<string, number>) },
    entries: { York: [...entries.York], Lancaster: [...entries.Lancaster] },
    pirates: [...ids(fv['pirates']), ...d.battlePirates],
  };
}

/** For tests and benchmarks: the cards a seat's view cannot account for (the enemy hand, its face-down card, the deck). */
export function unknownCards(v: R3View): string[] {
  const known = new Set<string>([...(v.hand ?? []), ...v.cards.discards]);
  for (const side of SIDES) {
    const c = v.cards.played[side];
    if (c !== null && c !== 'hidden') known.add(c);
  }
  return CARDS.map((c) => c.id).filter((c) => !known.has(c));
}
