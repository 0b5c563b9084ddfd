// The game log as changes (engine/types.ts logChange): each state carries only
// the lines its change wrote, from the log's length before it; an undo takes
// back the lines written since its snapshot; the fold of the changes is the
// log. Random complete games of every scenario, undo included.
import t from 'tap';
import { randomInt, seedRng } from '../../../src/engine/rng.ts';
import { foldLog } from '../../../src/engine/types.ts';
import { SCENARIOS } from '../../../src/games/richard-iii/data.ts';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { logLength, type LogEntry, type R3State } from '../../../src/games/richard-iii/state.ts';

const m = richardIII;

for (const sc of SCENARIOS) {
  t.test(`${sc.name}: the log is the fold of every version's change`, async (t) => {
    let problems: string[] = [];
    let undos = 0;
    let maxState = 0;
    let maxLog = 0;
    for (let g = 0; g < 10; g++) {
      const rng = seedRng(`log-test-${g}`); // the engine's own seeded RNG
      let s = m.setup({ scenario: sc.id, seed: `log-${sc.id}-${g}` }) as R3State;
      const changes = [m.logChange(s)];
      t.equal(changes[0]!.from, 0);
      let log = foldLog(changes) as LogEntry[];
      const shadow: LogEntry[][] = []; // the log before each undoable action still on the undo stack
      for (let step = 0; step < 3000 && !s.result; step++) {
        const roles = m.activeRoles(s);
        const role = roles[randomInt(rng, roles.length)]!;
        const legal = m.legalActions(s, role);
        const undo = legal.find((a) => a.type === 'undo');
        const action = undo && randomInt(rng, 5) === 0 ? undo : legal[randomInt(rng, legal.length)]!;
        const before = log;
        const next = m.apply(s, role, action) as R3State;
        const c = m.logChange(next);
        log = foldLog([{ from: 0, entries: before }, c]) as LogEntry[];
        if (action.type === 'undo') {
          undos++;
          if (c.entries.length !== 0) problems.push(`undo wrote lines: ${JSON.stringify(c.entries)}`);
          const want = shadow.pop();
          if (!want || JSON.stringify(want) !== JSON.stringify(log)) problems.push(`undo at step ${step} did not restore the log before the undone action`);
        } else {
          if (c.from !== before.length) problems.push(`a change starts at ${c.from}, the log had ${before.length} lines`);
          if (next.undo.length > s.undo.length) shadow.push(before);
          else if (next.undo.length === 0) shadow.length = 0;
        }
        if (logLength(next) !== log.length) problems.push(`logLength ${logLength(next)} ≠ folded ${log.length}`);
        maxState = Math.max(maxState, JSON.stringify({ ...next, undo: [] }).length); // (undo snapshots hold no log either)
        s = next;
      }
      maxLog = Math.max(maxLog, JSON.stringify(log).length);
      // Every seat reads each line as its view shows it.
      for (const role of [...m.roles, null]) {
        const lines = (m.view(s, role) as { log: string[] }).log;
        const mine = m.logChange(s).entries.map((e) => m.logLine(e, role));
        if (JSON.stringify(lines) !== JSON.stringify(mine)) problems.push(`view log of ${role} ≠ logLine`);
      }
      problems = problems.slice(0, 10);
    }
    t.same(problems, [], 'every change continues the log; undo takes back exactly its lines');
    t.ok(undos > 0, `${undos} undos played`);
    t.ok(maxState < 8000, `states do not grow with the log: largest ${maxState} bytes without the undo stack; largest log ${maxLog} bytes`);
  });
}

t.test('a seat reads its own private text, others the public line', async (t) => {
  const e = { pub: 'York recruits a block in Kent.', own: { side: 'York', text: 'York recruits Norfolk in Kent.' } };
  t.equal(m.logLine(e, 'York'), 'York recruits Norfolk in Kent.');
  t.equal(m.logLine(e, 'Lancaster'), 'York recruits a block in Kent.');
  t.equal(m.logLine(e, null), 'York recruits a block in Kent.');
  t.same(foldLog([{ from: 0, entries: [1, 2, 3] }, { from: 3, entries: [4] }, { from: 1, entries: [] }, { from: 1, entries: [5] }]), [1, 5]);
});
