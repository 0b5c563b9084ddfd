// What each seat may know of where the other's blocks stand (whereabouts.ts): the printed
// set-up at the start, then only what public facts allow. Checked: exact at the start; always
// holding the truth in random games of every scenario (with both ambiguity and places settled
// again); the same whatever hidden block made a move; the computer players' sampled states
// within it; games stored without it play on untracked.
import t from 'tap';
import { seedRng } from '../../../src/engine/rng.ts';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { BLOCK_INDEX, BLOCKS, NUM_BLOCKS, SCENARIO, SCENARIOS, SIDES, other } from '../../../src/games/richard-iii/data.ts';
import { setupState } from '../../../src/games/richard-iii/setup.ts';
import { cloneState, type R3State } from '../../../src/games/richard-iii/state.ts';
import { PLACES, updateWhereabouts } from '../../../src/games/richard-iii/whereabouts.ts';
import type { R3View } from '../../../src/games/richard-iii/view.ts';
import { playout } from './playout-helpers.ts';

const viewOf = (s: R3State, seat: 'York' | 'Lancaster') => richardIII.view(s, seat) as R3View;

t.test('at the start each seat knows where every enemy block stands: the scenario\'s printed set-up', async (t) => {
  for (const sc of SCENARIOS) {
    const s = setupState(sc.id, `w-${sc.id}`);
    for (const seat of SIDES) {
      const enemy = other(seat);
      const want: Record<string, string[]> = {};
      for (const b of BLOCKS) {
        const at = SCENARIO[sc.id]!.locations[b.id]!;
        if (b.side === enemy && PLACES.includes(at)) want[b.id] = [at];
      }
      t.same(viewOf(s, seat).whereabouts, want, `${sc.id}, ${seat}: ${Object.keys(want).length} blocks, each where the set-up puts it`);
    }
  }
});

t.test('random games of every scenario: the truth is always within; places become uncertain and settle again', async (t) => {
  let checks = 0, uncertain = 0, settled = 0;
  const misses: string[] = [];
  for (const sc of SCENARIOS) {
    for (let g = 0; g < 4; g++) {
      let before: Record<string, Record<string, string[]>> | null = null;
      playout({
        scenario: sc.id, seed: `where-${sc.id}-${g}`, check: false, maxDecisions: 1500,
        onState: (s, step) => {
          const now: Record<string, Record<string, string[]>> = {};
          for (const seat of SIDES) {
            const w = viewOf(s, seat).whereabouts ?? {};
            now[seat] = w;
            for (const [id, places] of Object.entries(w)) {
              checks++;
              const at = s.loc[BLOCK_INDEX[id]!]!;
              if (!places.includes(at)) misses.push(`${sc.id} ${g} step ${step}, ${seat}: ${id} in ${at}, not in ${places.join(', ')}`);
              if (places.length > 1) uncertain++;
              if (places.length === 1 && (before?.[seat]?.[id]?.length ?? 1) > 1) settled++;
            }
          }
          before = now;
        },
      });
    }
  }
  t.same(misses.slice(0, 5), [], `${checks} whereabouts checked`);
  t.ok(uncertain > 1000, `places uncertain ${uncertain} times`);
  t.ok(settled > 20, `places settled again ${settled} times (a battle, an emptied area, counts)`);
});

t.test('a move is known by where from and where to only, never by which block made it', async (t) => {
  // Kingmaker: York blocks stand together in one area at the start; two of them in turn move to the same
  // neighbour. Lancaster's whereabouts come out the same, and both blocks may be in either place.
  const s0 = setupState('kingmaker', 'w-move');
  const byArea = new Map<string, number[]>();
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const at = s0.loc[b]!;
    if (BLOCKS[b]!.side === 'York' && PLACES.includes(at) && at !== 'pool') byArea.set(at, [...(byArea.get(at) ?? []), b]);
  }
  const [area, pair] = [...byArea].find(([, bs]) => bs.length >= 2)!;
  const [a, b] = pair;
  const to = PLACES.find((p) => p !== area && p !== 'pool' && !byArea.has(p))!;
  const moved = (who: number) => {
    const s = cloneState(s0);
    s.loc[who] = to;
    updateWhereabouts(s0, s);
    return s;
  };
  const sa = moved(a!), sb = moved(b!);
  t.same(viewOf(sa, 'Lancaster').whereabouts, viewOf(sb, 'Lancaster').whereabouts, `${BLOCKS[a!]!.id} or ${BLOCKS[b!]!.id} from ${area} to ${to}: the same knowledge`);
  for (const x of pair) t.same(viewOf(sa, 'Lancaster').whereabouts![BLOCKS[x]!.id], [area, to].sort((p, q) => PLACES.indexOf(p) - PLACES.indexOf(q)), `${BLOCKS[x]!.id}: either place`);
  t.same(viewOf(sa, 'York').whereabouts, viewOf(s0, 'York').whereabouts, 'York\'s knowledge of Lancaster is unchanged');
  // Then the last York blocks leave that area too: it holds none, so nobody may be there.
  const s2 = cloneState(sa);
  for (const x of pair) if (s2.loc[x] === area) s2.loc[x] = to;
  updateWhereabouts(sa, s2);
  for (const x of pair) t.same(viewOf(s2, 'Lancaster').whereabouts![BLOCKS[x]!.id], [to], `${BLOCKS[x]!.id}: ${area} emptied, so in ${to}`);
});

t.test('computer players draw hidden blocks within their seat\'s whereabouts', async (t) => {
  let draws = 0;
  const misses: string[] = [];
  for (const sc of SCENARIOS) {
    playout({
      scenario: sc.id, seed: `where-sample-${sc.id}`, check: false, maxDecisions: 1200,
      onState: (s, step) => {
        if (step % 9 !== 0 || s.result) return;
        for (const seat of SIDES) {
          const v = viewOf(s, seat);
          const drawn = richardIII.sampleState!(v, seat, seedRng(`draw:${step}:${seat}`));
          draws++;
          for (const [id, places] of Object.entries(v.whereabouts ?? {})) {
            const at = drawn.loc[BLOCK_INDEX[id]!]!;
            if (!places.includes(at)) misses.push(`${sc.id} step ${step}, ${seat}: ${id} drawn in ${at}, not in ${places.join(', ')}`);
          }
        }
      },
    });
  }
  t.ok(draws > 100, `${draws} draws`);
  t.same(misses.slice(0, 5), []);
});

t.test('a game stored before whereabouts were tracked plays on untracked', async (t) => {
  const s = setupState('richard-iii', 'w-old');
  delete s.whereabouts;
  const v = viewOf(s, 'Lancaster');
  t.equal(v.whereabouts, undefined, 'no whereabouts in its views');
  const next = richardIII.apply(s, 'York', richardIII.legalActions(s, 'York')[0]!);
  t.equal(next.whereabouts, undefined, 'none after a move either');
  const drawn = richardIII.sampleState!(v, 'Lancaster', seedRng('old'));
  t.equal(drawn.whereabouts, undefined);
});
