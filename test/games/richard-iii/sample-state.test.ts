/**
 * Determinization (GameModule.sampleState, sample-state.ts): over positions from
 * random games of every scenario and from crowded Political Turns, for each seat
 * r and s' = sampleState(view(s, r), r, rng):
 *  a. view(s', r) equals view(s, r), except the log lines: a sample has none and
 *     its log starts where the view's ends (logFrom' = logFrom + log.length);
 *  b. activeRoles agree; when r is active its legal actions agree (bar undo: a
 *     sample has no undo history);
 *  c. s' is sound: it passes the engine's invariant checks, and random play from
 *     it runs to the end of the game (for one seat of two, with the engine's
 *     checks after every action);
 *  d. it samples: over several rngs the enemy's places, strengths and hand vary
 *     where the view leaves room, the enemy hand near the uniform rate;
 *  e. it depends only on the view: a different state with the same view gives
 *     the same sample for the same rng.
 * Also: every kind of flow state the positions reach is listed, so a gap shows.
 */
import t from 'tap';
import { seedRng } from '../../../src/engine/rng.ts';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { BLOCKS, NUM_BLOCKS, SCENARIOS, SIDES, other, type Side } from '../../../src/games/richard-iii/data.ts';
import { sampleState, unknownCards } from '../../../src/games/richard-iii/sample-state.ts';
import { ownerOf, sameJson, top, type R3State } from '../../../src/games/richard-iii/state.ts';
import { battleFrame } from '../../../src/games/richard-iii/battle-state.ts';
import { mercenaryHome } from '../../../src/games/richard-iii/homes.ts';
import type { R3View } from '../../../src/games/richard-iii/view.ts';
import { checkInvariants, crowdedPoliticalTurn, describeFailure, playout } from './playout-helpers.ts';

const m = richardIII;
const GAMES_PER_SCENARIO = Number(process.env['R3_SAMPLE_GAMES'] ?? 2);
/** Positions spread over a game, besides the first of each kind. */
const POSITIONS_PER_GAME = 6;

interface Position {
  name: string;
  s: R3State;
}

const kindOf = (s: R3State): string => (s.flow.length > 0 ? top(s).s : 'none');

/**
 * Positions of one random game: the first state of each kind of top frame (both
 * the acting side's and the other's view are checked for each), then others
 * spread over the game, up to POSITIONS_PER_GAME.
 */
function positionsOf(label: string, o: Parameters<typeof playout>[0]): Position[] {
  const all: { s: R3State; step: number }[] = [];
  const r = playout({ ...o, check: false, keepTrail: false, onState: (s, step) => all.push({ s, step }) });
  if (r.failure) throw new Error(describeFailure(r));
  const seen = new Set<string>();
  const out: Position[] = [];
  for (const { s, step } of all) {
    const k = kindOf(s);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ name: `${label} step ${step} (${k})`, s });
  }
  const stride = Math.max(1, Math.floor(all.length / POSITIONS_PER_GAME));
  for (let i = stride >> 1, n = 0; i < all.length && n < POSITIONS_PER_GAME; i += stride, n++) {
    out.push({ name: `${label} step ${all[i]!.step} (${kindOf(all[i]!.s)})`, s: all[i]!.s });
  }
  return out;
}

function allPositions(): Position[] {
  const out: Position[] = [];
  for (const sc of SCENARIOS) {
    for (let g = 0; g < GAMES_PER_SCENARIO; g++) {
      const seed = `sample-${sc.id}-${g}`;
      out.push(...positionsOf(`${sc.id} game ${g}`, { scenario: sc.id, seed, endWeight: g % 2 === 0 ? 0.05 : 1 }));
    }
  }
  for (let g = 0; g < 1; g++) {
    const seed = `sample-political-${g}`;
    out.push(...positionsOf(`political ${g}`, { scenario: 'wars-of-the-roses', seed, start: crowdedPoliticalTurn(seed), endWeight: 0.3 }));
  }
  out.push(...rarePositions());
  return out;
}

/** Kinds of top frame random play reaches seldom: the first of each in more games (unchecked, fast). */
const RARE = ['treason_event', 'exile_limits_pretender', 'exile_limits_king', 'execute_defector', 'enter_heir', 'supply_limits', 'battle_hits'];

/** A battle with Reserves not yet revealed (round 1 of a battle entered across several borders). */
const RESERVES = 'battle with hidden Reserves';
function hiddenReserves(s: R3State): boolean {
  const bf = battleFrame(s);
  return bf !== null && top(s).s === 'battle' && bf.reserves.some((b) => !bf.revealed.includes(b) && s.loc[b] === bf.area);
}

function rarePositions(): Position[] {
  const want = new Set([...RARE, RESERVES]);
  const out: Position[] = [];
  const reserveGames = new Set<number>();
  for (let g = 0; g < 80 && want.size > 0; g++) {
    const seed = `sample-rare-${g}`;
    const political = g % 2 === 1;
    playout({
      scenario: political ? 'wars-of-the-roses' : SCENARIOS[g % 3]!.id, seed, endWeight: 0.05, check: false, keepTrail: false,
      ...(political ? { start: crowdedPoliticalTurn(seed) } : {}),
      onState: (s, step) => {
        const k = want.has(RESERVES) && hiddenReserves(s) ? RESERVES : kindOf(s);
        if (!want.has(k)) return;
        // Battles with hidden Reserves from four games, one position of each other kind.
        if (k === RESERVES) {
          if (reserveGames.has(g)) return;
          reserveGames.add(g);
          if (reserveGames.size >= 4) want.delete(k);
        } else want.delete(k);
        out.push({ name: `rare game ${g} step ${step} (${k})`, s });
      },
    });
  }
  return out;
}

const withoutLog = (v: unknown): unknown => {
  const { log: _l, logFrom: _f, ...rest } = v as R3View;
  return rest;
};
const withoutUndo = (list: unknown[]): unknown[] => list.filter((a) => (a as { type: string }).type !== 'undo');

/** First path where two JSON values differ, for readable failures. */
function diffPath(a: unknown, b: unknown, path = '$'): string | null {
  if (sameJson(a, b)) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return `${path}: ${JSON.stringify(a)?.slice(0, 160)} != ${JSON.stringify(b)?.slice(0, 160)}`;
  }
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = diffPath((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return `${path}: differ`;
}

/** The enemy's hidden facts in a sample: where each enemy block stands, its strength, the enemy hand. */
function enemyFacts(s: R3State, seat: Side): { places: string; steps: string; hand: string } {
  const places: string[] = [], steps: number[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (ownerOf(s, b) === seat) continue;
    places.push(s.loc[b]!);
    steps.push(s.steps[b]!);
  }
  return { places: places.join(','), steps: steps.join(','), hand: s.hands[other(seat)].join(',') };
}

const positions = allPositions();

t.test('sampled states: same view, same choices, sound (a, b, c, e)', async (t) => {
  const kinds = new Map<string, number>();
  let checked = 0, playouts = 0;
  const failures: string[] = [];
  for (const [pi, p] of positions.entries()) {
    for (const seat of SIDES) {
      const name = `${p.name}, ${seat}`;
      const v = m.view(p.s, seat) as R3View;
      const rng = seedRng(`sample:${pi}:${seat}`);
      let s2: R3State;
      try {
        s2 = m.sampleState!(v, seat, rng);
      } catch (e) {
        failures.push(`${name}: sampleState threw ${(e as Error).stack}`);
        continue;
      }
      const bfv = v.flow.find((f) => f.s === 'battle');
      if (bfv && (bfv['hiddenReserves'] as Record<Side, number>)[other(seat)] > 0) kinds.set('hidden enemy Reserves in battle', (kinds.get('hidden enemy Reserves in battle') ?? 0) + 1);
      const key = `${kindOf(p.s)}${top(p.s)?.side === seat ? ' (own)' : top(p.s)?.side === other(seat) ? ' (enemy)' : ''}`;
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
      checked++;
      // a. the same view (log aside).
      const v2 = m.view(s2, seat) as R3View;
      const d = diffPath(withoutLog(v2), withoutLog(v));
      if (d) failures.push(`${name}: view differs at ${d}`);
      if (s2.log.length !== 0 || s2.logFrom !== v.logFrom + v.log.length) failures.push(`${name}: log not empty from ${v.logFrom + v.log.length}`);
      if (s2.undo.length !== 0) failures.push(`${name}: undo stack not empty`);
      // b. who acts, and what the seat may do.
      if (!sameJson(m.activeRoles(s2), m.activeRoles(p.s))) failures.push(`${name}: activeRoles ${m.activeRoles(s2)} != ${m.activeRoles(p.s)}`);
      if (m.activeRoles(p.s).includes(seat)) {
        const dl = diffPath(m.legalActions(s2, seat), withoutUndo(m.legalActions(p.s, seat)));
        if (dl) failures.push(`${name}: legal actions differ at ${dl}`);
      }
      // c. sound: the engine's invariants, and random play to the end (checked as it goes).
      const inv = checkInvariants(s2);
      if (inv.length > 0) failures.push(`${name}: invariants: ${inv.slice(0, 3).join('; ')}`);
      // One playout per sample, so two per position: every other one checked after each action
      // (the checks cost more than the play), end weights alternating.
      const k = (pi + (seat === 'York' ? 0 : 1)) % 2;
      const r = playout({
        scenario: s2.scenario, seed: `sampled-${pi}-${seat}`, start: s2, endWeight: k === 0 ? 1 : 0.2,
        checkDeterminism: false, viewEvery: 0, purityEvery: 0, keepTrail: false, check: k === 0,
      });
      playouts++;
      if (r.failure || !r.finished) failures.push(`${name}: playout from the sample: ${r.failure ? describeFailure(r) : 'did not finish'}`);
      // e. only the view: another state with this view (a sample of it) gives the same sample.
      const other2 = m.view(s2, seat) as R3View;
      const sameView = { ...JSON.parse(JSON.stringify(other2)), log: v.log, logFrom: v.logFrom };
      const x = m.sampleState!(JSON.parse(JSON.stringify(v)), seat, seedRng(`again:${pi}`));
      const y = m.sampleState!(sameView, seat, seedRng(`again:${pi}`));
      if (!sameJson(x, y)) failures.push(`${name}: two states with one view give different samples`);
    }
  }
  for (const f of failures.slice(0, 20)) t.fail(f);
  t.equal(failures.length, 0, `${checked} samples, ${playouts} playouts from them, ${failures.length} failures`);
  t.comment(`positions by top frame (seat's relation to it): ${[...kinds].sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
  // Every named state random play reaches in these games is covered, for both relations where both exist.
  for (const k of ['play_card', 'redeal_offer', 'action_phase (own)', 'action_phase (enemy)', 'move_to (own)', 'move_to (enemy)',
    'battle (own)', 'battle (enemy)', 'battle_hits (own)', 'battle_hits (enemy)', 'regroup (own)', 'regroup (enemy)',
    'supply_limits (own)', 'supply_limits (enemy)', 'pretender_goes_home (own)', 'pretender_goes_home (enemy)',
    'king_goes_home (own)', 'king_goes_home (enemy)', 'recruit_where (enemy)', 'sea_move_to (enemy)', 'muster_move (enemy)',
    'plague_event (own)', 'treason_event (own)', 'treason_event (enemy)', 'exile_limits_pretender (own)',
    'exile_limits_pretender (enemy)', 'game_over', 'hidden enemy Reserves in battle']) {
    t.ok(kinds.has(k), `positions include ${k}`);
  }
});

t.test('sampling samples (d)', async (t) => {
  let roomy = 0, varied = 0, handRoom = 0, handVaried = 0, stepRoom = 0, stepVaried = 0;
  for (const [pi, p] of positions.entries()) {
    if (p.s.result) continue;
    for (const seat of SIDES) {
      const v = m.view(p.s, seat) as R3View;
      const rng = seedRng(`vary:${pi}:${seat}`);
      const facts = Array.from({ length: 6 }, () => enemyFacts(m.sampleState!(v, seat, rng), seat));
      const distinct = (k: 'places' | 'steps' | 'hand') => new Set(facts.map((f) => f[k])).size;
      // Room for places: two hidden enemy blocks of different kinds on the map or in the pool.
      const enemy = other(seat);
      const hiddenBlocks: number[] = [];
      for (let b = 0; b < NUM_BLOCKS; b++) {
        if (ownerOf(p.s, b) === enemy && (p.s.loc[b] === 'pool' || /^[a-z]/.test(p.s.loc[b]!)) &&
          !['dead', 'off', 'minor'].includes(p.s.loc[b]!) && b !== p.s.prisoner && BLOCKS[b]!.id !== 'rebel' &&
          !(v.battle?.blocks ?? []).some((r) => r.id === BLOCKS[b]!.id)) hiddenBlocks.push(b);
      }
      // Room: two of them in different places, each of which the seat's whereabouts (what public
      // facts tell it, whereabouts.ts) allow for the other, so a swap is another state it may face.
      const where = v.whereabouts ?? {};
      const mayBe = (b: number, loc: string): boolean => (where[BLOCKS[b]!.id] ?? [loc]).includes(loc);
      const swappable = (a: number, b: number): boolean => {
        const la = p.s.loc[a]!, lb = p.s.loc[b]!;
        if (la === lb || p.s.down[a] || p.s.down[b] || !mayBe(a, lb) || !mayBe(b, la)) return false;
        const heirToPool = (x: number, loc: string) => loc === 'pool' && BLOCKS[x]!.type === 'heir';
        return !heirToPool(a, lb) && !heirToPool(b, la) && mercenaryHome(a) !== lb && mercenaryHome(b) !== la && mercenaryHome(a) !== la && mercenaryHome(b) !== lb;
      };
      if (hiddenBlocks.some((a) => hiddenBlocks.some((b) => swappable(a, b)))) {
        roomy++;
        if (distinct('places') > 1) varied++;
      }
      if (hiddenBlocks.some((b) => p.s.loc[b] !== 'pool' && !p.s.down[b] && BLOCKS[b]!.maxSteps > 1)) {
        stepRoom++;
        if (distinct('steps') > 1) stepVaried++;
      }
      const u = unknownCards(v).length;
      if (v.cards.handSize[enemy] > 0 && u > v.cards.handSize[enemy] + 1 && !v.flow.some((f) => f.s === 'redeal_answer' && f['demander'] === enemy)) {
        handRoom++;
        if (distinct('hand') > 1) handVaried++;
      }
    }
  }
  // Six draws may all deal a position's one swappable pair alike (1 in 32 for a single pair).
  t.ok(roomy > 30 && varied >= 0.9 * roomy, `enemy places vary in ${varied} of ${roomy} positions with room`);
  t.ok(stepRoom > 30 && stepVaried === stepRoom, `enemy strengths vary in ${stepVaried} of ${stepRoom}`);
  t.ok(handRoom > 30 && handVaried === handRoom, `enemy hands vary in ${handVaried} of ${handRoom}`);

  // The enemy hand is uniform among the cards the seat cannot account for: each of them is
  // in it at rate handSize / unknown (here at the first card play of a game).
  const p = positions.find((x) => kindOf(x.s) === 'play_card' && x.s.hands.York.length === 7)!;
  const v = m.view(p.s, 'York') as R3View;
  const unknown = unknownCards(v);
  const n = 1000;
  const count = new Map<string, number>();
  const rng = seedRng('uniform-hand');
  for (let i = 0; i < n; i++) for (const c of m.sampleState!(v, 'York', rng).hands.Lancaster) count.set(c, (count.get(c) ?? 0) + 1);
  const rate = v.cards.handSize.Lancaster / unknown.length;
  const worst = Math.max(...unknown.map((c) => Math.abs((count.get(c) ?? 0) / n - rate)));
  // Binomial standard deviation at n = 1000 is about 0.015; 0.07 is far outside chance.
  t.ok(worst < 0.07, `each unknown card is in the enemy hand at ${rate.toFixed(3)} ± ${worst.toFixed(3)}`);
});

t.test('sampleState refuses what is not a seat\'s own view', async (t) => {
  const s = m.setup({ scenario: 'wars-of-the-roses', seed: 'refuse' });
  t.throws(() => m.sampleState!(m.view(s, 'York'), 'Lancaster', seedRng('x')));
  t.throws(() => m.sampleState!(m.view(s, null), 'York', seedRng('x')));
  t.throws(() => m.sampleState!({ game: 'black-and-white' }, 'York', seedRng('x')));
});
