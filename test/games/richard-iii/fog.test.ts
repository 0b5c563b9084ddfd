/**
 * Fog of war (RULES.md Introduction and 6.1; INTERPRETATIONS 53): a seat's view
 * must not change when anything that seat may not see changes. For many states
 * (random play in every scenario, and random positions) and for each seat, we
 * build variants that differ only in hidden things — which enemy block stands
 * where and at what strength (swapping places among the enemy's unrevealed
 * blocks, pool and map alike), the enemy hand and unrevealed card, the deck,
 * the RNG, the undo stack, the enemy's private log lines — and require the
 * view, and the seat's legal actions, to be identical. Spectators are checked
 * with both sides hidden.
 */
import t from 'tap';
import { isDeepStrictEqual } from 'node:util';
import { randomInt, seedRng, shuffle, type RngState } from '../../../src/engine/rng.ts';
import {
  AREA, BLOCK_INDEX, BLOCKS, CARDS, NUM_BLOCKS, SCENARIOS, SIDES, other, type Side,
} from '../../../src/games/richard-iii/data.ts';
import type { HandlerTable } from '../../../src/games/richard-iii/flow.ts';
import { crowdedPoliticalTurn, playout } from './playout-helpers.ts';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { ownerOf, type Frame, type R3State } from '../../../src/games/richard-iii/state.ts';
import { snapshotOf } from '../../../src/games/richard-iii/undo.ts';
import { battleReveal, viewFor } from '../../../src/games/richard-iii/view.ts';
import { legalActionsOf } from '../../../src/games/richard-iii/index.ts';

const REBEL = BLOCK_INDEX['rebel']!;
const CARD_ORDER: Record<string, number> = Object.fromEntries(CARDS.map((c, i) => [c.id, i]));
const byDeck = (a: string, b: string) => CARD_ORDER[a]! - CARD_ORDER[b]!;

/** Frame fields that name blocks (ids or indexes) — remapped when identities are permuted. */
const BLOCK_KEYS = new Set([
  'block', 'blocks', 'heir', 'target', 'targets', 'b', 'who', 'reserves', 'acted', 'fromReserve',
  'defectedNow', 'turned', 'pirates', 'reduced', 'revealed', 'done', 'moved', 'chosen', 'tied', 'hit',
  'firer', 'charger', 'mustered', 'pending', 'todo', 'seen', 'members',
]);

/**
 * Frames whose block fields name a block by its public identity rather than "the
 * block standing there": a defected Clarence/Exeter offered for execution (9.1;
 * the defection was public), a minor heir entering (4.5). Not remapped.
 */
const IDENTITY_FRAMES = new Set(['execute_defector', 'enter_heir']);

/** First path at which two JSON values differ (for readable failures). */
function diffPath(a: unknown, b: unknown, path = '$'): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return `${path}: ${JSON.stringify(a)?.slice(0, 200)} != ${JSON.stringify(b)?.slice(0, 200)}`;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const d = diffPath((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return `${path}: differ`;
}

/** Blocks named by frame fields we do not know how to remap: kept in place. */
function pinnedByFrames(s: R3State): Set<number> {
  const out = new Set<number>();
  const walk = (v: unknown, key: string | null): void => {
    if (typeof v === 'string') {
      if (BLOCK_INDEX[v] !== undefined && !AREA[v] && (key === null || !BLOCK_KEYS.has(key))) out.add(BLOCK_INDEX[v]!);
    } else if (Array.isArray(v)) {
      for (const x of v) walk(x, key);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        // Object keys that are block ids (e.g. treason rolls per target) pin the block.
        if (BLOCK_INDEX[k] !== undefined && !AREA[k]) out.add(BLOCK_INDEX[k]!);
        walk(x, BLOCK_KEYS.has(k) ? k : key === null || !BLOCK_KEYS.has(key) ? k : key);
      }
    }
  };
  for (const f of s.flow) walk(f, null);
  return out;
}

/** Rewrites block references under BLOCK_KEYS through `m` (old index -> new index). */
function remapFrames(flow: Frame[], m: Map<number, number>): void {
  const mapVal = (v: unknown): unknown => {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < NUM_BLOCKS) return m.get(v) ?? v;
    if (typeof v === 'string' && BLOCK_INDEX[v] !== undefined) {
      const n = m.get(BLOCK_INDEX[v]!);
      return n === undefined ? v : BLOCKS[n]!.id;
    }
    if (Array.isArray(v)) return v.map(mapVal);
    return v;
  };
  const walk = (o: Record<string, unknown>): void => {
    for (const [k, v] of Object.entries(o)) {
      if (BLOCK_KEYS.has(k) && (typeof v !== 'object' || Array.isArray(v) || v === null)) o[k] = mapVal(v);
      else if (v && typeof v === 'object' && !Array.isArray(v)) walk(v as Record<string, unknown>);
    }
  };
  for (const f of flow) if (!IDENTITY_FRAMES.has(f.s)) walk(f as Record<string, unknown>);
}

/** Is b one of the mercenaries whose home is the exile area `loc` (free of its limit, 7.2 )? */
const homeMercAt = (b: number, loc: string): boolean => (AREA[loc]?.homeMercenaries ?? []).includes(BLOCKS[b]!.id);

/**
 * A random reassignment of the places of `cand` (result[i] = the block that takes
 * cand[i]'s place) that keeps what is public about a place: heirs only take places
 * on the map (the engine never pools an heir, G-7), and whether the block in an
 * exile area is that exile's own mercenary stays the same — exile limits are
 * enforced in the open (7.2: the owner must give up a block, or not), so that much
 * is known to the opponent, and the engine's prompts rightly depend on it.
 */
function assignPlaces(s0: R3State, cand: readonly number[], rng: RngState): number[] {
  const allowed = (place: number, block: number): boolean => {
    const loc = s0.loc[place]!;
    if (BLOCKS[block]!.type === 'heir' && !AREA[loc]) return false;
    return homeMercAt(block, loc) === homeMercAt(place, loc);
  };
  for (let attempt = 0; attempt < 30; attempt++) {
    const free = shuffle(rng, cand.slice());
    const out: number[] = [];
    let ok = true;
    for (const place of cand) {
      const k = free.findIndex((b) => allowed(place, b));
      if (k < 0) { ok = false; break; }
      out.push(free.splice(k, 1)[0]!);
    }
    if (ok) return out;
  }
  return cand.slice();
}

/**
 * A state that `hidden` sides' opponents cannot tell from `s0`: the hidden sides'
 * unrevealed blocks swap places (loc, face-down, acted) and get random strengths,
 * with every reference to a block following its place; cards nobody on the other
 * side may see are reshuffled; RNG, undo and private log lines are replaced.
 */
function scramble(s0: R3State, hidden: readonly Side[], rng: RngState): R3State {
  const s = structuredClone(s0);
  const shown = new Set(battleReveal(s0)?.blocks ?? []);
  const pinned = pinnedByFrames(s0);
  const m = new Map<number, number>();
  for (const side of hidden) {
    const cand: number[] = [];
    for (let b = 0; b < NUM_BLOCKS; b++) {
      if (ownerOf(s0, b) !== side || b === REBEL || b === s0.prisoner || shown.has(b) || pinned.has(b)) continue;
      const loc = s0.loc[b]!;
      if (AREA[loc] || (loc === 'pool' && BLOCKS[b]!.type !== 'heir')) cand.push(b);
    }
    const targets = assignPlaces(s0, cand, rng);
    for (let i = 0; i < cand.length; i++) {
      const from = cand[i]!, to = targets[i]!;
      m.set(from, to);
      s.loc[to] = s0.loc[from]!;
      s.down[to] = s0.down[from]!;
      s.acted[to] = s0.acted[from] ? 1 + randomInt(rng, 3) : 0;
      s.steps[to] = 1 + randomInt(rng, BLOCKS[to]!.maxSteps);
    }
  }
  for (const a of Object.values(s.attacks)) {
    a.reserves = a.reserves.map((b) => m.get(b) ?? b);
    a.pirates = a.pirates.map((b) => m.get(b) ?? b);
  }
  remapFrames(s.flow, m);

  // Cards: the deck plus the hidden sides' hands and unrevealed played cards. A side
  // that demanded a redeal alone has shown its hand (5.1) until the answer.
  const unknown = [...s.deck];
  const shownHand = s.flow.find((f) => f.s === 'redeal_answer')?.['demander'];
  const cardSides = hidden.filter((side) => side !== shownHand);
  for (const side of cardSides) {
    unknown.push(...s.hands[side]);
    if (!s.revealed && s.played[side] !== null) unknown.push(s.played[side]!);
  }
  shuffle(rng, unknown);
  let i = 0;
  for (const side of cardSides) {
    const n = s.hands[side].length;
    s.hands[side] = unknown.slice(i, i + n).sort(byDeck);
    i += n;
    if (!s.revealed && s.played[side] !== null) s.played[side] = unknown[i++]!;
  }
  s.deck = unknown.slice(i);
  // Hidden answers in simultaneous prompts (redeal offer).
  for (const f of s.flow) {
    const ans = f['answers'] as Record<string, string> | undefined;
    if (ans && typeof ans === 'object') {
      for (const side of hidden) if (ans[side]) ans[side] = ans[side] === 'keep' ? 'demand' : 'keep';
    }
  }
  s.rng = [randomInt(rng, 2 ** 31), randomInt(rng, 2 ** 31), randomInt(rng, 2 ** 31), randomInt(rng, 2 ** 31)];
  // Same number of snapshots (whether undo is offered is the acting side's own business), other contents.
  s.undo = s0.undo.map((u) => ('set' in u ? { set: { turn: randomInt(rng, 7) + 1 }, at: { steps: [[0, randomInt(rng, 4) + 1]] }, logLength: randomInt(rng, 1e9) } : { ...u, steps: u.steps.map(() => randomInt(rng, 4) + 1), logLength: randomInt(rng, 1e9) }));
  s.log = s.log.map((e) => (e.own && hidden.includes(e.own.side) ? { pub: e.pub, own: { side: e.own.side, text: `secret ${randomInt(rng, 1e9)}` } } : e));
  return s;
}

/** Enemy block ids a seat must never see outside the log. */
function hiddenIds(s: R3State, hidden: readonly Side[]): Set<string> {
  const shown = new Set(battleReveal(s)?.blocks ?? []);
  const out = new Set<string>();
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const id = BLOCKS[b]!.id;
    if (!hidden.includes(ownerOf(s, b)) || shown.has(b) || b === REBEL || b === s.prisoner) continue;
    if (b === s.crown.York || b === s.crown.Lancaster || AREA[id]) continue;
    if (AREA[s.loc[b]!] || s.loc[b] === 'pool') out.add(id);
  }
  return out;
}

function stringsIn(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsIn(x, out);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push(k); stringsIn(x, out); }
  return out;
}

interface Case { name: string; s: R3State; seed: string; handlers?: HandlerTable }

/** Random positions: blocks scattered, cards dealt, card play in progress. */
function randomPositions(n: number): Case[] {
  const out: Case[] = [];
  const landOrOwnExile = (side: Side) =>
    Object.values(AREA).filter((a) => a.kind === 'land' || (a.kind === 'exile' && a.exileOf === side)).map((a) => a.id);
  for (let k = 0; k < n; k++) {
    const sc = SCENARIOS[k % SCENARIOS.length]!.id;
    const seed = `fog-position-${k}`;
    const rng = seedRng(`${seed}/layout`);
    const s = buildPosition({ scenario: sc, seed });
    for (let b = 0; b < NUM_BLOCKS; b++) {
      const loc = s.loc[b]!;
      if (b === s.prisoner || !(AREA[loc] || loc === 'pool')) continue;
      const side = ownerOf(s, b);
      const places = landOrOwnExile(side);
      if (BLOCKS[b]!.type !== 'heir' && randomInt(rng, 3) === 0) s.loc[b] = 'pool';
      else s.loc[b] = places[randomInt(rng, places.length)]!;
      s.steps[b] = 1 + randomInt(rng, BLOCKS[b]!.maxSteps);
      s.down[b] = s.loc[b] === 'pool' && randomInt(rng, 4) === 0;
      s.acted[b] = AREA[s.loc[b]!] && randomInt(rng, 3) === 0 ? 1 + randomInt(rng, 3) : 0;
    }
    const cards = shuffle(rng, CARDS.map((c) => c.id));
    const turn = 1 + randomInt(rng, 7);
    const inHand = 8 - turn;
    s.turn = turn;
    s.hands.York = cards.slice(0, inHand - 1).sort(byDeck);
    s.hands.Lancaster = cards.slice(inHand - 1, 2 * inHand - 2).sort(byDeck);
    let i = 2 * inHand - 2;
    const mode = randomInt(rng, 3); // 0 nobody played, 1 one side played, 2 both revealed
    for (const side of SIDES) {
      const plays = mode === 2 || (mode === 1 && side === 'York') ? true : false;
      if (plays) s.played[side] = cards[i++]!;
      else s.hands[side].push(cards[i++]!), s.hands[side].sort(byDeck);
    }
    s.deck = cards.slice(i);
    s.revealed = mode === 2;
    s.p1 = mode === 2 ? (randomInt(rng, 2) ? 'York' : 'Lancaster') : null;
    s.log.push({ pub: 'York recruits a block in Kent.', own: { side: 'York', text: 'York recruits Essex in Kent.' } });
    s.log.push({ pub: 'Lancaster recruits a block in Lincoln.', own: { side: 'Lancaster', text: 'Lancaster recruits Beaumont in Lincoln.' } });
    s.undo = [{ ...snapshotOf(s), logLength: k }];
    // An attack with reserves of both sides, and a battle with some blocks revealed.
    const area = s.loc.find((l, b) => AREA[l]?.kind === 'land' && s.loc.some((l2, b2) => l2 === l && ownerOf(s, b2) !== ownerOf(s, b)));
    if (area) {
      const there = s.loc.map((l, b) => (l === area ? b : -1)).filter((b) => b >= 0);
      s.attacks[area] = {
        attacker: ownerOf(s, there[0]!),
        main: AREA[area]!.landNeighbours?.[0] ?? null,
        entries: { York: [], Lancaster: [] },
        reserves: there.filter((_, j) => j % 3 === 1),
        pirates: [],
      };
    }
    if (mode === 2 && area && randomInt(rng, 2) === 0) {
      const there = s.loc.map((l, b) => (l === area ? b : -1)).filter((b) => b >= 0);
      const reserves = s.attacks[area]!.reserves;
      s.flow = [{ s: 'battle', side: s.p1, area, revealed: there.filter((b) => !reserves.includes(b)), reserves: [...reserves] }];
      out.push({ name: `position ${k} (${sc}, battle in ${area})`, s, seed, handlers: {} });
    } else {
      s.flow = [{ s: 'play_card', side: 'both' }];
      out.push({ name: `position ${k} (${sc}, turn ${turn}, cards ${['none played', 'York played', 'revealed'][mode]})`, s, seed });
    }
  }
  return out;
}

/**
 * States from random play: each game contributes states whose top frame is still
 * rare in the sample (so that short prompts such as battle_hits are covered), plus
 * one every `every` decisions, at most `cap` per game.
 */
function playedStates(gamesPerScenario: number, every: number, cap: number): { cases: Case[]; notes: string[] } {
  const cases: Case[] = [];
  const notes: string[] = [];
  const seen: Record<string, number> = {};
  for (const sc of SCENARIOS) {
    for (let g = 0; g < gamesPerScenario; g++) {
      const seed = `fog-${sc.id}-${g}`;
      let taken = 0;
      const r = playout({
        // Odd games rarely end their phases early: more battles, deaths and usurpations.
        scenario: sc.id, seed, check: false, maxDecisions: 6000, endWeight: g % 2 === 0 ? 1 : 0.05,
        onState: (s, step) => {
          const name = s.flow[s.flow.length - 1]?.s ?? '(none)';
          if (taken < cap && ((seen[name] ?? 0) < 8 || step % every === 0)) {
            seen[name] = (seen[name] ?? 0) + 1;
            cases.push({ name: `${sc.id} game ${g} step ${step} (${name})`, s, seed });
            taken++;
          }
        },
      });
      if (r.failure) notes.push(`${sc.id} seed ${seed}: stopped at step ${r.failure.step}: ${r.failure.message}`);
    }
  }
  // Political Turns with crowded exiles (go-home and exile-limit prompts).
  for (let g = 0; g < Math.ceil(gamesPerScenario / 2); g++) {
    const seed = `fog-political-${g}`;
    let taken = 0;
    playout({
      scenario: 'wars-of-the-roses', seed, start: crowdedPoliticalTurn(seed), check: false, maxDecisions: 60,
      onState: (s, step) => {
        const name = s.flow[s.flow.length - 1]?.s ?? '(none)';
        if (taken < cap && /home|exile/.test(name)) {
          cases.push({ name: `political position ${g} step ${step} (${name})`, s, seed });
          taken++;
        }
      },
    });
  }
  return { cases, notes };
}

function checkCase(tt: { fail(message: string): unknown }, c: Case, variants: number): boolean {
  const rng = seedRng(`variants/${c.name}`);
  for (const seat of [...SIDES, null] as const) {
    const hidden = seat === null ? SIDES : [other(seat)];
    const v0 = viewFor(c.s, seat, c.handlers);
    const json = JSON.stringify(v0);
    for (const w of c.s.rng) {
      if (json.includes(String(w))) return tt.fail(`${c.name}: view of ${seat ?? 'spectator'} contains RNG word ${w}`), false;
    }
    if (json.includes(c.seed)) return tt.fail(`${c.name}: view of ${seat ?? 'spectator'} contains the seed`), false;
    if (/"(rng|undo|deck|seed)"/.test(json)) return tt.fail(`${c.name}: view of ${seat ?? 'spectator'} has a secret key`), false;
    const secret = hiddenIds(c.s, hidden);
    // whereabouts names every enemy block by design (what public facts tell of each, whereabouts.ts,
    // tested in whereabouts.test.ts); here only that it holds the truth.
    const { log: _log, whereabouts, ...noLog } = v0;
    const leak = stringsIn(noLog).find((x) => secret.has(x));
    if (leak) return tt.fail(`${c.name}: view of ${seat ?? 'spectator'} names hidden enemy block ${leak}`), false;
    for (const [id, places] of Object.entries(whereabouts ?? {})) {
      const at = c.s.loc[BLOCK_INDEX[id]!]!;
      if (!places.includes(at)) return tt.fail(`${c.name}: ${seat}'s whereabouts of ${id} (${places.join(', ')}) miss where it is (${at})`), false;
    }
    for (let k = 0; k < variants; k++) {
      const variant = scramble(c.s, hidden, rng);
      const v1 = viewFor(variant, seat, c.handlers);
      const d = diffPath(v0, v1);
      if (d) return tt.fail(`${c.name}: view of ${seat ?? 'spectator'} changes with hidden information at ${d}`), false;
      // What a seat may do is part of what it sees.
      if (seat !== null && !c.handlers) {
        const l0 = legalActionsOf(c.s, seat), l1 = legalActionsOf(variant, seat);
        const dl = diffPath(l0, l1);
        if (dl) return tt.fail(`${c.name}: legal actions of ${seat} change with hidden information at ${dl}`), false;
      }
    }
  }
  return true;
}

t.test('Introduction, fog of war: random positions — views ignore everything hidden', async (tt) => {
  const cases = randomPositions(120);
  let ok = 0;
  for (const c of cases) if (checkCase(tt, c, 4)) ok++;
  tt.equal(ok, cases.length, `${ok}/${cases.length} positions`);
});

t.test('Introduction and 6.1, fog of war: states from random play in every scenario', async (tt) => {
  const { cases, notes } = playedStates(8, 30, 40);
  for (const n of notes) tt.comment(`random play: ${n}`);
  let ok = 0;
  for (const c of cases) if (checkCase(tt, c, 3)) ok++;
  tt.equal(ok, cases.length, `${ok}/${cases.length} states`);
  const names = new Set(cases.map((c) => c.s.flow[c.s.flow.length - 1]?.s));
  tt.comment(`states covered: ${[...names].sort().join(', ')}`);
  tt.ok(names.has('battle') && names.has('move_to') && names.has('play_card'), 'battles, moves and card play are covered');
  // The variants do move hidden blocks: otherwise the property is empty.
  const c = cases.find((x) => x.s.flow.some((f) => f.s === 'battle'))!;
  const v = scramble(c.s, ['York'], seedRng('probe'));
  tt.not(JSON.stringify(v.loc), JSON.stringify(c.s.loc), 'variants permute block places');
});

t.test('a seat sees its own hand, blocks and card; the enemy card only once revealed', async (tt) => {
  const s = buildPosition({
    hands: { York: ['ap4-1', 'ap3-1'], Lancaster: ['ap2-1', 'surprise'] },
    played: { York: 'ap3-2', Lancaster: 'ap2-2' },
    revealed: false,
    flow: [{ s: 'play_card', side: 'both' }],
    turn: 6,
  });
  const y = viewFor(s, 'York');
  tt.same(y.hand, ['ap4-1', 'ap3-1']);
  tt.same(y.cards.played, { York: 'ap3-2', Lancaster: 'hidden' });
  tt.same(y.cards.handSize, { York: 2, Lancaster: 2 });
  tt.ok(y.blocks!.every((b) => ownerOf(s, BLOCK_INDEX[b.id]!) === 'York'), 'only own blocks are listed');
  tt.ok(y.blocks!.some((b) => b.id === 'march'), 'own heir listed');
  const spec = viewFor(s, null);
  tt.equal(spec.hand, undefined, 'spectator: no hand');
  tt.equal(spec.blocks, undefined, 'spectator: no block list');
  tt.same(spec.cards.played, { York: 'hidden', Lancaster: 'hidden' });
  s.revealed = true;
  tt.same(viewFor(s, 'York').cards.played, { York: 'ap3-2', Lancaster: 'ap2-2' }, 'both shown after the reveal');
  tt.same(viewFor(s, null).cards.played, { York: 'ap3-2', Lancaster: 'ap2-2' });
});

t.test('enemy blocks appear only as counts per area; dead blocks and the Rebel are public', async (tt) => {
  const s = buildPosition({
    clear: true,
    blocks: {
      'warwick-y': { loc: 'kent', steps: 2 },
      'norfolk': { loc: 'kent', steps: 1, acted: 1 },
      'oxford': { loc: 'essex', steps: 3 },
      'beaumont': { loc: 'dead', steps: 0 },
      'rebel': { loc: 'sussex', steps: 2 },
    },
    flow: [{ s: 'play_card', side: 'both' }],
  });
  const l = viewFor(s, 'Lancaster', {});
  tt.same(l.areas['kent']?.York, { n: 2, down: 0, acted: 1 });
  tt.ok(!JSON.stringify(l).includes('norfolk'), 'York block ids are not shown to Lancaster');
  tt.ok(l.dead.includes('beaumont'));
  tt.same(l.rebel, { loc: 'sussex', down: false }, 'the black block is recognisable');
  const essex = l.blocks!.find((b) => b.id === 'oxford');
  tt.same(essex, { id: 'oxford', loc: 'essex', steps: 3, down: false, acted: 0 });
});

t.test('6.1: blocks in the battle being fought are revealed with their strength, reserves are not', async (tt) => {
  const s = buildPosition({
    clear: true,
    blocks: {
      'warwick-y': { loc: 'kent', steps: 2 },
      'norfolk': { loc: 'kent', steps: 1 },
      'oxford': { loc: 'kent', steps: 3 },
      'pembroke': { loc: 'kent', steps: 2 },
    },
    revealed: true,
    attacks: { kent: { attacker: 'York', main: 'sussex', reserves: ['norfolk'] } },
  });
  const W = BLOCK_INDEX['warwick-y']!, O = BLOCK_INDEX['oxford']!, P = BLOCK_INDEX['pembroke']!, N = BLOCK_INDEX['norfolk']!;
  s.flow = [{ s: 'battle', side: 'York', area: 'kent', revealed: [W, O, P], reserves: [N] }];
  const l = viewFor(s, 'Lancaster', {});
  tt.same(l.battle, {
    area: 'kent',
    blocks: [
      { id: 'warwick-y', side: 'York', loc: 'kent', steps: 2 },
      { id: 'oxford', side: 'Lancaster', loc: 'kent', steps: 3 },
      { id: 'pembroke', side: 'Lancaster', loc: 'kent', steps: 2 },
    ],
  });
  tt.ok(!JSON.stringify(l).includes('norfolk'), 'the York reserve stays hidden');
  tt.same(l.attacks['kent']!.reserves, { York: 1, Lancaster: 0 });
  tt.same(viewFor(s, null, {}).battle, l.battle, 'spectators see the battle too');
});

t.test('log: owner text for the owner, public text for everyone else', async (tt) => {
  const s = buildPosition({ flow: [{ s: 'play_card', side: 'both' }] });
  s.log = [{ pub: 'York recruits a block in Kent.', own: { side: 'York', text: 'York recruits Norfolk in Kent.' } }];
  tt.same(viewFor(s, 'York', {}).log, ['York recruits Norfolk in Kent.']);
  tt.same(viewFor(s, 'Lancaster', {}).log, ['York recruits a block in Kent.']);
  tt.same(viewFor(s, null, {}).log, ['York recruits a block in Kent.']);
});

t.test('spectators see exactly the public part that both seats share', async (tt) => {
  const { cases } = playedStates(2, 20, 30);
  const shared = ['areas', 'pools', 'minors', 'dead', 'off', 'rebel', 'battle', 'attacks', 'crown', 'prisoner',
    'borderUse', 'king', 'turn', 'campaign', 'result', 'heirsToEnter'] as const;
  let bad = 0;
  for (const c of cases) {
    const [y, l, spec] = [viewFor(c.s, 'York'), viewFor(c.s, 'Lancaster'), viewFor(c.s, null)];
    for (const k of shared) {
      if (!isDeepStrictEqual(spec[k], y[k]) || !isDeepStrictEqual(spec[k], l[k])) {
        if (bad++ < 5) tt.fail(`${c.name}: "${k}" differs between seats and spectators`);
      }
    }
    if (spec.hand !== undefined || spec.blocks !== undefined) bad++;
    const pubLog = c.s.log.map((e) => e.pub);
    if (!isDeepStrictEqual(spec.log, pubLog)) bad++;
    if (c.s.revealed && !isDeepStrictEqual(spec.cards.played, c.s.played)) bad++;
  }
  tt.equal(bad, 0, `${cases.length} states`);
});
