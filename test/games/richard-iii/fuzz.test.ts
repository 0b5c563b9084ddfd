/**
 * Random playouts (playout-helpers.ts): complete games of every
 * scenario with random legal actions, checking after every action that each
 * block is in one valid place, no two versions of a block are in play, no block
 * stands in an enemy exile (2.7), border limits hold (5.21), supply and exile
 * limits are met when a Supply Phase ends (7.1, 7.2), hand sizes follow the game
 * turn (5.1), an active side always has a legal action, undo restores exactly the
 * previous state and never survives a die roll (INTERPRETATIONS 54), quiet actions
 * keep block names out of the public log, apply() leaves its input untouched,
 * views carry no RNG; and that replaying a game from its seed gives the same final
 * state byte for byte. Half the games are uniformly random; the other half rarely
 * choose "end"/"cancel", so that players spend their AP and reach deeper positions.
 * Long soaks: `npx tsx scripts/fuzz.ts --games N`.
 */
import t from 'tap';
import { BLOCK_INDEX, SCENARIOS } from '../../../src/games/richard-iii/data.ts';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { ownerOf, type R3State } from '../../../src/games/richard-iii/state.ts';
import { checkFire, checkLogPrivacy, checkRulesInList, crowdedPoliticalTurn, describeFailure, playout, replay } from './playout-helpers.ts';

const GAMES_PER_SCENARIO = Number(process.env['R3_FUZZ_GAMES'] ?? 100);

for (const sc of SCENARIOS) {
  t.test(`random play: ${GAMES_PER_SCENARIO} complete games of ${sc.name} keep every invariant`, async (tt) => {
    let decisions = 0, finished = 0;
    const failures: string[] = [];
    const t0 = performance.now();
    for (let g = 0; g < GAMES_PER_SCENARIO; g++) {
      // Replay (determinism) on every third game and views every 50 actions keep CI time down;
      // scripts/fuzz.ts checks everything in every game.
      const r = playout({
        scenario: sc.id, seed: `fuzz-${sc.id}-${g}`, endWeight: g % 2 === 0 ? 1 : 0.05,
        checkDeterminism: g % 3 === 0, viewEvery: 50,
      });
      decisions += r.decisions;
      if (r.failure) failures.push(describeFailure(r));
      else if (r.finished) finished++;
    }
    tt.comment(`${sc.id}: ${GAMES_PER_SCENARIO} games, ${decisions} decisions, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const f of failures.slice(0, 5)) {
      tt.comment(f);
      tt.fail(f.split('\n').slice(0, 2).join(' — '));
    }
    tt.equal(failures.length, 0, `${failures.length} failing games`);
    tt.equal(finished, GAMES_PER_SCENARIO, 'every game reached a result');
  });
}

t.test('a game is determined by its seed and actions: replay gives the same state', async (tt) => {
  const r = playout({ scenario: 'wars-of-the-roses', seed: 'replay-check', endWeight: 0.05 });
  tt.equal(r.failure, null);
  tt.equal(JSON.stringify(replay('wars-of-the-roses', 'replay-check', r.trail)), JSON.stringify(r.final));
  const other = playout({ scenario: 'wars-of-the-roses', seed: 'replay-check-2', endWeight: 0.05 });
  tt.not(JSON.stringify(other.final), JSON.stringify(r.final), 'another seed plays another game');
});

t.test('the log-privacy check flags a recruit that names its block publicly', async (tt) => {
  const before = buildPosition({ flow: [{ s: 'recruit_where', side: 'York', block: 'norfolk' }] });
  const quiet = structuredClone(before);
  quiet.log.push({ pub: 'York recruits a block in East Anglia.', own: { side: 'York', text: 'York recruits Norfolk in East Anglia.' } });
  tt.same(checkLogPrivacy(before, quiet, { type: 'place', area: 'east-anglia' }), []);
  const loud = structuredClone(before);
  loud.log.push({ pub: 'York recruits Norfolk in East Anglia.' });
  tt.equal(checkLogPrivacy(before, loud, { type: 'place', area: 'east-anglia' }).length, 1);
});

t.test('the rule checks flag illegal offers (6.6 round-1 retreat, 6.4 hits, 5.3 sea move)', async (tt) => {
  const s = buildPosition({
    clear: true,
    blocks: { 'warwick-y': { loc: 'kent', steps: 3 }, 'norfolk': { loc: 'kent', steps: 2 }, 'oxford': { loc: 'kent', steps: 3 } },
  });
  const W = BLOCK_INDEX['warwick-y']!, N = BLOCK_INDEX['norfolk']!, O = BLOCK_INDEX['oxford']!;
  s.flow = [{ s: 'battle', side: 'York', area: 'kent', attacker: 'York', round: 1, revealed: [W, N, O], reserves: [], acted: [], pirates: [], members: [W, N, O] }];
  tt.same(checkRulesInList(s, 'York', [{ type: 'fire', block: 'warwick-y' }]), []);
  tt.equal(checkRulesInList(s, 'York', [{ type: 'retreat', block: 'warwick-y', to: 'sussex' }]).length, 1, 'no retreat in round 1');
  tt.equal(checkRulesInList(s, 'York', [{ type: 'fire', block: 'oxford' }]).length, 1, 'an enemy block cannot act');
  s.flow.push({ s: 'battle_hits', side: 'York', hits: 1 });
  tt.same(checkRulesInList(s, 'York', [{ type: 'hit', block: 'warwick-y' }]), []);
  tt.equal(checkRulesInList(s, 'York', [{ type: 'hit', block: 'norfolk' }]).length, 1, 'hits go to the strongest');
  s.flow = [{ s: 'move_to', side: 'York', block: 'london-levy', path: ['middlesex'] }];
  tt.equal(checkRulesInList(s, 'York', [{ type: 'sea', zone: 'north-sea' }]).length, 1, 'levies never sea-move');
});

/**
 * Political Turns that random play rarely reaches: exiles over their limits on both
 * sides (7.2, 8.5 [G-7]), many blocks to send home (8.3, 8.4). A random position at
 * the end of campaign 1 (no Contested area), then random play to the end of the game.
 */
t.test('8.1–8.5: political turns from random positions with crowded exiles, then to the end of the game', async (tt) => {
  const failures: string[] = [];
  const reached = new Set<string>();
  const N = Math.max(10, Math.round(GAMES_PER_SCENARIO * 0.6));
  for (let k = 0; k < N; k++) {
    const seed = `political-${k}`;
    const s = crowdedPoliticalTurn(seed);
    const r = playout({
      scenario: 'wars-of-the-roses', seed, start: s, startLabel: `crowdedPoliticalTurn('${seed}')`, endWeight: k % 2 ? 0.05 : 1,
      onState: (x) => { reached.add(x.flow[x.flow.length - 1]?.s ?? ''); },
    });
    if (r.failure) failures.push(describeFailure(r));
  }
  for (const f of failures.slice(0, 5)) {
    tt.comment(f);
    tt.fail(f.split('\n').slice(0, 2).join(' — '));
  }
  tt.equal(failures.length, 0, `${failures.length}/${N} failing games`);
  tt.ok(reached.has('exile_limits_king') || reached.has('exile_limits_pretender'), 'exile limits were asked for');
  tt.comment(`political states reached: ${[...reached].filter((x) => /home|exile/.test(x)).sort().join(', ')}`);
});

t.test('6.4: the fire check reads the roll and catches a misallocated hit', async (tt) => {
  let found = 0, caught = 0, clean = 0;
  for (let g = 0; g < 10 && found < 20; g++) {
    const states: R3State[] = [];
    const r = playout({ scenario: 'wars-of-the-roses', seed: `fire-check-${g}`, check: false, endWeight: 0.05, onState: (s) => { states.push(s); } });
    r.trail.forEach((step, i) => {
      const prev = states[i]!, next = states[i + 1]!;
      if (step.action.type !== 'fire' || next.flow[next.flow.length - 1]?.s !== 'battle' || next.result) return;
      if (checkFire(prev, next, step.role, step.action).length === 0) clean++;
      // Move one lost step from the block that was hit to another enemy block in the battle.
      const area = prev.flow[prev.flow.length - 1]!['area'] as string;
      const enemy = next.loc.map((l, b) => (l === area && ownerOf(next, b) !== step.role ? b : -1)).filter((b) => b >= 0);
      const hit = enemy.find((b) => next.steps[b]! < prev.steps[b]!);
      const other = enemy.find((b) => b !== hit && next.steps[b]! > 1);
      if (hit === undefined || other === undefined) return;
      found++;
      const bad = structuredClone(next);
      bad.steps[hit]!++;
      bad.steps[other]!--;
      if (checkFire(prev, bad, step.role, step.action).length > 0) caught++;
    });
  }
  tt.ok(clean > 0, `${clean} real fires pass`);
  tt.ok(found > 0, `${found} fires tampered`);
  tt.ok(caught >= found * 0.7, `${caught}/${found} tampered fires flagged`);
});
