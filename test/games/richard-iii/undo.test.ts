// The undo stack as diffs (undo.ts): in random games of every scenario, every
// undo restores exactly the state before the undone action, also after the
// state went through Postgres (jsonb: keys reordered) between any two actions;
// a stack of whole snapshots (states stored before the change) still restores;
// and the stack stays small however deep it gets.
import t from 'tap';
import { randomInt, seedRng } from '../../../src/engine/rng.ts';
import { SCENARIOS } from '../../../src/games/richard-iii/data.ts';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { sameJson, type R3State } from '../../../src/games/richard-iii/state.ts';
import { snapshotAt, snapshotOf } from '../../../src/games/richard-iii/undo.ts';

const m = richardIII;

/** A JSON round trip with every object's keys reordered, as jsonb does. */
function throughJsonb<T>(v: T): T {
  const shuffle = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(shuffle);
    if (x === null || typeof x !== 'object') return x;
    const keys = Object.keys(x).sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    return Object.fromEntries(keys.map((k) => [k, shuffle((x as Record<string, unknown>)[k])]));
  };
  return shuffle(JSON.parse(JSON.stringify(v))) as T;
}

/** The state with its log window set aside: an undo restores everything else. */
const position = (s: R3State) => ({ ...s, log: null, logFrom: null });

for (const sc of SCENARIOS) {
  t.test(`${sc.name}: undo restores the state before the undone action`, async (t) => {
    const problems: string[] = [];
    let undos = 0;
    let deepest = 0;
    let biggest = 0;
    for (let g = 0; g < 8; g++) {
      const rng = seedRng(`undo-test-${sc.id}-${g}`);
      let s = m.setup({ scenario: sc.id, seed: `undo-${sc.id}-${g}` }) as R3State;
      const shadow: R3State[] = []; // the state before each undoable action still on the stack
      for (let step = 0; step < 4000 && !s.result && problems.length < 10; step++) {
        if (randomInt(rng, 3) === 0) s = throughJsonb(s);
        const roles = m.activeRoles(s);
        const role = roles[randomInt(rng, roles.length)]!;
        const legal = m.legalActions(s, role);
        const undo = legal.find((a) => a.type === 'undo');
        // Undo rarely, so stacks grow deep.
        const action = undo && randomInt(rng, 8) === 0 ? undo : legal[randomInt(rng, legal.length)]!;
        const next = m.apply(s, role, action) as R3State;
        if (action.type === 'undo') {
          undos++;
          const want = shadow.pop();
          if (!want) problems.push(`undo at step ${step} with nothing recorded`);
          else if (!sameJson(position(next), { ...position(want), undo: next.undo })) problems.push(`undo at step ${step} restored another state`);
          else if (next.logFrom !== want.logFrom + want.log.length) problems.push(`undo at step ${step}: log cut to ${next.logFrom}`);
          // Each remaining entry still stands for the state it was taken of.
          for (let i = 0; i < next.undo.length; i++) {
            if (!sameJson(snapshotAt(next.undo, i), snapshotOf(shadow[i]!))) problems.push(`entry ${i} changed by an undo`);
          }
        } else if (next.undo.length === s.undo.length + 1) shadow.push(s);
        else if (next.undo.length === 0) shadow.length = 0;
        if (next.undo.length !== shadow.length) problems.push(`stack of ${next.undo.length}, expected ${shadow.length}`);
        deepest = Math.max(deepest, next.undo.length);
        biggest = Math.max(biggest, JSON.stringify(next.undo).length);
        s = next;
      }
    }
    t.same(problems, [], 'every undo gives back the state before the undone action');
    t.ok(undos > 20, `${undos} undos`);
    t.ok(deepest >= 4, `stacks up to ${deepest} deep`);
    // A whole snapshot is about 3 kB; a stack of whole ones grew by that per entry.
    t.ok(biggest < 3000 + deepest * 1500, `the largest stack is ${biggest} bytes (${deepest} entries at most)`);
  });
}

t.test('a stack of whole snapshots (as stored before diffs) still restores', async (t) => {
  const rng = seedRng('legacy');
  let s = m.setup({ scenario: 'wars-of-the-roses', seed: 'legacy' }) as R3State;
  const before: R3State[] = [];
  // Play until two undoable actions are on the stack.
  for (let step = 0; step < 4000 && s.undo.length < 2 && !s.result; step++) {
    const roles = m.activeRoles(s);
    const role = roles[randomInt(rng, roles.length)]!;
    const legal = m.legalActions(s, role).filter((a) => a.type !== 'undo');
    const next = m.apply(s, role, legal[randomInt(rng, legal.length)]!) as R3State;
    if (next.undo.length === s.undo.length + 1) before.push(s);
    else if (next.undo.length === 0) before.length = 0;
    s = next;
  }
  t.equal(s.undo.length, 2);
  t.ok('set' in s.undo[1]!, 'the second entry is a diff');
  // The old form: every entry whole.
  const legacy: R3State = { ...s, undo: [snapshotAt(s.undo, 0), snapshotAt(s.undo, 1)] };
  const one = m.apply(legacy, m.activeRoles(s)[0]!, { type: 'undo' }) as R3State;
  t.ok(sameJson(position(one), { ...position(before[1]!), undo: one.undo }), 'undo of a whole snapshot');
  const two = m.apply(one, m.activeRoles(one)[0]!, { type: 'undo' }) as R3State;
  t.ok(sameJson(position(two), { ...position(before[0]!), undo: [] }), 'and of the one below it');
});
