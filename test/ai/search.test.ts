// The ISMCTS search (src/ai/ismcts.ts) on a tiny game whose best moves are
// known, and its contract: determinism per seed, the time cap, the fallback
// when sampled states disagree with the request, levels without sampleState.
import t from 'tap';
import { chooseAction, levelAvailable, type AiRequest, type AnyGameModule } from '../../src/ai/index.ts';
import { completeMove, ismcts, nextMover, onlyWaiting, searchActions } from '../../src/ai/ismcts.ts';
import { randomInt, seedRng, type RngState } from '../../src/engine/rng.ts';
import { IllegalActionError } from '../../src/engine/types.ts';
import { richardIII } from '../../src/games/richard-iii/index.ts';

/**
 * Nim with one heap: take 1–3 stones, whoever takes the last stone wins.
 * From n stones the mover wins by leaving a multiple of 4. Perfect
 * information, so the view is the state and sampleState returns it.
 */
interface Nim { n: number; toMove: 'A' | 'B' }
const nim = {
  id: 'nim',
  title: 'Nim',
  roles: ['A', 'B'],
  scenarios: [{ id: 'std', name: 'std', description: '', options: [] }],
  setup: () => ({ n: 10, toMove: 'A' }),
  activeRoles: (s: Nim) => (s.n === 0 ? [] : [s.toMove]),
  legalActions: (s: Nim, role: string) =>
    s.n === 0 || role !== s.toMove ? [] : [1, 2, 3].filter((k) => k <= s.n).map((k) => ({ type: 'take', k })),
  apply: (s: Nim, role: string, a: { type: string; k: number }) => {
    if (role !== s.toMove || a.k < 1 || a.k > Math.min(3, s.n)) throw new IllegalActionError('no');
    return { n: s.n - a.k, toMove: s.toMove === 'A' ? 'B' : 'A' };
  },
  view: (s: Nim) => ({ ...s }),
  logChange: () => ({ from: 0, entries: [] }),
  logLine: () => '',
  status: (s: Nim) => (s.n === 0 ? { over: true, winner: s.toMove === 'A' ? 'B' : 'A' } : { over: false, winner: null }),
  sampleState: (v: unknown) => ({ ...(v as Nim) }),
} as unknown as AnyGameModule;

function request(state: Nim, over: Partial<AiRequest> = {}): AiRequest {
  return {
    gameType: 'nim', role: state.toMove, view: nim.view(state, state.toMove),
    legalActions: nim.legalActions(state, state.toMove), level: 'normal', seed: 'nim', ...over,
  };
}

t.test('it takes the winning move: the last stones, or leaving a multiple of 4', async (t) => {
  for (const seed of ['a', 'b', 'c']) {
    t.same(chooseAction(nim, request({ n: 3, toMove: 'A' }, { seed })).action, { type: 'take', k: 3 }, `n=3 seed ${seed}`);
    t.same(chooseAction(nim, request({ n: 6, toMove: 'B' }, { seed })).action, { type: 'take', k: 2 }, `n=6 seed ${seed}`);
    t.same(chooseAction(nim, request({ n: 9, toMove: 'A' }, { seed }), { simulations: 400 }).action, { type: 'take', k: 1 }, `n=9 seed ${seed}`);
  }
});

t.test('the same request and seed give the same decision; the budget is spent in full without a cap', async (t) => {
  const req = request({ n: 10, toMove: 'A' });
  const a = ismcts(nim, req, { simulations: 150 });
  const b = ismcts(nim, req, { simulations: 150 });
  t.same(a, b);
  t.equal(a.simulations, 150);
  t.equal(a.cappedByTime, false);
  t.equal(a.sampleMismatches, 0);
  t.equal(a.root.reduce((x, r) => x + r.visits, 0), 150, 'every simulation went through one root action');
  t.ok(req.legalActions.includes(a.action), 'the answer is one of the request\'s own values');
});

t.test('the time cap stops the search and says so', async (t) => {
  let clock = 0;
  const now = () => (clock += 1); // 1 ms per reading
  const req = request({ n: 10, toMove: 'A' }, { timeCapMs: 20 });
  const d = chooseAction(nim, req, { simulations: 10_000, now });
  t.equal(d.cappedByTime, true);
  t.ok(d.simulations >= 1 && d.simulations < 30, `stopped after ${d.simulations} simulations`);
  const free = chooseAction(nim, { ...req, timeCapMs: 0 }, { simulations: 200, now });
  t.equal(free.cappedByTime, false);
  t.equal(free.simulations, 200);
});

t.test('levels need sampleState; random plays anything', async (t) => {
  const noSample = { ...nim, sampleState: undefined } as AnyGameModule;
  t.equal(levelAvailable(noSample, 'random'), true);
  t.equal(levelAvailable(noSample, 'easy'), false);
  t.equal(levelAvailable(nim, 'hard'), true);
  t.throws(() => chooseAction(noSample, request({ n: 5, toMove: 'A' })), /sampleState/);
  const r = chooseAction(noSample, request({ n: 5, toMove: 'A' }, { level: 'random' }));
  t.equal(r.simulations, 0);
});

t.test('sampled states that disagree with the request are counted; the answer is still legal', async (t) => {
  // A sampler that always returns 2 stones: legal takes {1,2} against the request's {1,2,3}.
  const liar = { ...nim, sampleState: () => ({ n: 2, toMove: 'A' }) } as AnyGameModule;
  const req = request({ n: 7, toMove: 'A' });
  const d = chooseAction(liar, req, { simulations: 50 });
  t.equal(d.sampleMismatches, 50);
  t.equal(d.simulations, 50, 'the actions legal in both were searched');
  t.ok(req.legalActions.includes(d.action));
  // Nothing in common (a sampled state where A has no move): no simulation, a random legal action.
  const none = { ...nim, sampleState: () => ({ n: 2, toMove: 'B' }) } as AnyGameModule;
  const e = chooseAction(none, req, { simulations: 20 });
  t.equal(e.simulations, 0);
  t.equal(e.sampleMismatches, 20);
  t.ok(req.legalActions.includes(e.action));
});

t.test('take-backs are not searched; a seat with only take-backs is waiting', async (t) => {
  t.same(searchActions([{ type: 'undo' }, { type: 'x' }]), [{ type: 'x' }]);
  t.same(searchActions([{ type: 'take_back' }]), [{ type: 'take_back' }]);
  t.equal(onlyWaiting([{ type: 'take_back' }]), true);
  t.equal(onlyWaiting([{ type: 'take_back' }, { type: 'x' }]), false);
  t.equal(onlyWaiting([]), false);
});

t.test('on Richard III it answers with one of the legal actions, from the view alone', async (t) => {
  const m = richardIII as unknown as AnyGameModule;
  for (const sc of m.scenarios) {
    const rng = seedRng(`search-${sc.id}`);
    let s = m.setup({ scenario: sc.id, seed: `search-${sc.id}` });
    let checked = 0;
    for (let i = 0; i < 400 && checked < 4 && !m.status(s).over; i++) {
      const mover = nextMover(m, s, m.roles[0]!)!;
      if (i % 23 === 0 && mover.actions.length > 1) {
        const role = mover.actor;
        const legalActions = m.legalActions(s, role);
        const r = ismcts(m, { role, view: m.view(s, role), legalActions, seed: `r3-${i}` }, { simulations: 10, playoutDepth: 12 });
        t.ok(legalActions.includes(r.action), `${sc.id} ${role} step ${i}`);
        t.equal(r.sampleMismatches, 0, 'sampled states agree with the view\'s legal actions');
        t.equal(r.simulations, 10);
        checked++;
      }
      s = m.apply(s, mover.actor, mover.actions[randomInt(rng, mover.actions.length)]);
    }
    t.ok(checked > 0, `${sc.id}: positions checked`);
  }
});

t.test('rewards are compared on the range seen: a lost-looking position still has a best move', async (t) => {
  // One decision of ten moves, scored by an evaluation that is near 0 for all
  // of them (a side far behind) but best for move 7: rescaled, the search
  // spends most of its budget there; on the raw scale the small differences
  // drown in UCB's exploration term.
  interface One { done: boolean; k: number }
  const one = {
    ...nim,
    id: 'one',
    setup: () => ({ done: false, k: -1 }),
    activeRoles: (s: One) => (s.done ? [] : ['A']),
    legalActions: (s: One, role: string) => (s.done || role !== 'A' ? [] : Array.from({ length: 10 }, (_, k) => ({ type: 'pick', k }))),
    apply: (_s: One, _role: string, a: { k: number }) => ({ done: true, k: a.k }),
    view: (s: One) => ({ ...s }),
    status: () => ({ over: false, winner: null }),
    sampleState: (v: unknown) => ({ ...(v as One) }),
    evaluate: (s: One, role: string) => (role === 'A' ? 0.01 + (s.k === 7 ? 0.004 : 0) : 0.99),
  } as unknown as AnyGameModule;
  const req = { role: 'A', view: { done: false, k: -1 }, legalActions: one.legalActions({ done: false, k: -1 }, 'A'), seed: 'one' };
  const scaled = ismcts(one, req, { simulations: 200, playoutDepth: 0 });
  const raw = ismcts(one, req, { simulations: 200, playoutDepth: 0, normalize: false });
  const visits7 = (r: typeof scaled) => r.root.find((x) => (x.action as { k: number }).k === 7)!.visits;
  t.same(scaled.action, { type: 'pick', k: 7 });
  t.ok(visits7(scaled) > 100, `rescaled: move 7 has ${visits7(scaled)} of 200 visits`);
  t.ok(visits7(raw) < 40, `raw: move 7 has ${visits7(raw)} of 200 visits`);
});

t.test('searchActions: no take-back, no cancel while something else is left; a lone cancel is played', async (t) => {
  const move = { type: 'move', to: 'x' };
  t.same(searchActions([{ type: 'undo' }, { type: 'cancel' }, move]), [move]);
  t.same(searchActions([{ type: 'undo' }, { type: 'cancel' }]), [{ type: 'cancel' }], 'a cancel before a take-back');
  t.same(searchActions([{ type: 'undo' }]), [{ type: 'undo' }]);
  t.notOk(onlyWaiting([{ type: 'cancel' }]), 'a seat whose only action is a cancel is not waiting');
  t.ok(onlyWaiting([{ type: 'undo' }]));
});

t.test('a half-made move is completed greedily: its first decision is worth its best completion', async (t) => {
  // Choose block A or B, then its destination (a half-made move until then).
  // A has one destination worth 0.9 among eleven worth 0.1; every destination
  // of B is worth 0.5. Valued by random completions (the mean), B looks
  // better; completed greedily, A is.
  interface Two { block: '' | 'A' | 'B'; dest: number }
  const value = (s: Two): number => (s.dest < 0 ? 0.3 : s.block === 'B' ? 0.5 : s.dest === 5 ? 0.9 : 0.1);
  const two = {
    ...nim,
    id: 'two',
    setup: () => ({ block: '', dest: -1 }),
    activeRoles: (s: Two) => (s.dest >= 0 ? [] : ['A']),
    legalActions: (s: Two, role: string) =>
      s.dest >= 0 || role !== 'A' ? []
        : s.block === '' ? [{ type: 'select', block: 'A' }, { type: 'select', block: 'B' }]
          : Array.from({ length: 12 }, (_, k) => ({ type: 'to', k })),
    apply: (s: Two, _role: string, a: { type: string; block?: 'A' | 'B'; k?: number }) =>
      (a.type === 'select' ? { block: a.block!, dest: -1 } : { block: s.block, dest: a.k! }),
    view: (s: Two) => ({ ...s }),
    status: () => ({ over: false, winner: null }),
    sampleState: (v: unknown) => ({ ...(v as Two) }),
    evaluate: (s: Two, role: string) => (role === 'A' ? value(s) : 1 - value(s)),
    partialMove: (s: Two, role: string) => role === 'A' && s.block !== '' && s.dest < 0,
  } as unknown as AnyGameModule;
  const req = { role: 'A', view: { block: '', dest: -1 }, legalActions: two.legalActions({ block: '', dest: -1 }, 'A'), seed: 'two' };
  for (const seed of ['a', 'b', 'c']) {
    const plain = ismcts(two, { ...req, seed }, { simulations: 40, playoutDepth: 0 });
    t.same(plain.action, { type: 'select', block: 'B' }, `seed ${seed}: without completion, B (the better mean)`);
    const done = ismcts(two, { ...req, seed }, { simulations: 40, playoutDepth: 0, completeMoves: 2 });
    t.same(done.action, { type: 'select', block: 'A' }, `seed ${seed}: completed, A (the better best)`);
    t.ok(Math.abs(done.root[0]!.mean - 0.9) < 1e-9, 'A is worth its best destination');
    // The same with the completion replayed on later visits, or only the searching side's moves completed (A is the searching side).
    for (const extra of [{ completeReuse: true }, { completeOwnOnly: true }, { completeReuse: true, completeOwnOnly: true }]) {
      const v = ismcts(two, { ...req, seed }, { simulations: 40, playoutDepth: 0, completeMoves: 2, ...extra });
      t.same(v.action, { type: 'select', block: 'A' }, `seed ${seed} ${JSON.stringify(extra)}: A`);
      t.ok(Math.abs(v.root[0]!.mean - 0.9) < 1e-9, `${JSON.stringify(extra)}: A is worth its best destination`);
    }
  }
  // A replayed completion that is not legal in a visit's determinization is redone greedily:
  // here the sample hides which destination is open (one of two, by the RNG); the open one is worth 0.9.
  const hidden = {
    ...two,
    legalActions: (s: Two & { open?: number }, role: string) =>
      s.dest >= 0 || role !== 'A' ? []
        : s.block === '' ? [{ type: 'select', block: 'A' }, { type: 'select', block: 'B' }]
          : [{ type: 'to', k: s.open ?? 5 }, { type: 'to', k: 11 }],
    apply: (s: Two & { open?: number }, _role: string, a: { type: string; block?: 'A' | 'B'; k?: number }) => {
      if (a.type === 'to' && a.k !== 11 && a.k !== (s.open ?? 5)) throw new Error('illegal');
      return a.type === 'select' ? { ...s, block: a.block!, dest: -1 } : { ...s, block: s.block, dest: a.k! };
    },
    evaluate: (s: Two & { open?: number }, role: string) => {
      const v = s.dest < 0 ? 0.3 : s.block === 'B' ? 0.5 : s.dest === s.open ? 0.9 : 0.1;
      return role === 'A' ? v : 1 - v;
    },
    sampleState: (v: unknown, _role: string, rng: RngState) => ({ ...(v as Two), open: randomInt(rng, 2) === 0 ? 5 : 6 }),
  } as unknown as AnyGameModule;
  for (const seed of ['a', 'b']) {
    const v = ismcts(hidden, { ...req, seed }, { simulations: 40, playoutDepth: 0, completeMoves: 2, completeReuse: true });
    t.same(v.action, { type: 'select', block: 'A' }, `hidden destination, seed ${seed}: A`);
    t.ok(Math.abs(v.root[0]!.mean - 0.9) < 1e-9, 'every visit of A found its open destination');
  }
  // A move the request itself leaves half made is still searched: the root branches.
  const half = ismcts(two, { ...req, view: { block: 'A', dest: -1 }, legalActions: two.legalActions({ block: 'A', dest: -1 }, 'A') },
    { simulations: 40, playoutDepth: 0, completeMoves: 2 });
  t.same(half.action, { type: 'to', k: 5 });
});

t.test('Richard III: a chosen block or recruit is a half-made move until it is placed', async (t) => {
  const m = richardIII as unknown as AnyGameModule;
  const rng = seedRng('partial-move');
  let s = m.setup({ scenario: 'kingmaker', seed: 'partial-move' });
  const seen = new Set<string>();
  for (let i = 0; i < 3000 && seen.size < 2 && !m.status(s).over; i++) {
    const mover = nextMover(m, s, m.roles[0]!)!;
    const enemy = m.roles.find((r) => r !== mover.actor)!;
    for (const type of ['select', 'recruit']) {
      const a = mover.actions.find((x) => (x as { type: string }).type === type);
      if (!a || seen.has(type)) continue;
      t.notOk(m.partialMove!(s, mover.actor), `before ${type}: nothing half made`);
      const half = m.apply(s, mover.actor, a);
      t.ok(m.partialMove!(half, mover.actor), `after ${type}: half made for ${mover.actor}`);
      t.notOk(m.partialMove!(half, enemy), `not for ${enemy}`);
      const done = completeMove(m, half, mover.actor, 3).state;
      t.notOk(m.partialMove!(done, mover.actor), `${type} completed greedily`);
      t.equal(completeMove(m, half, enemy, 3, true).state, half, `${type}: completeOwnOnly leaves the other side's half-made move`);
      t.notOk(m.partialMove!(completeMove(m, half, mover.actor, 3, true).state, mover.actor), `${type}: and completes its own`);
      seen.add(type);
    }
    s = m.apply(s, mover.actor, mover.actions[randomInt(rng, mover.actions.length)]);
  }
  t.same([...seen].sort(), ['recruit', 'select']);
});
