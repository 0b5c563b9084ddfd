// Black & White's leak rules (examples/leak-scan/black-and-white.ts) find
// what they are meant to find: on seeded random games on the invented data,
// the seats' own views are clean at every version, and planted payloads are
// found: an enemy block's kind before it was revealed (as a view names it and
// as a log line does), an enemy block's strength, the enemy's purchase and
// kinds before deployment ends, engine internals; with a54Revealed 'hide', a
// kind hidden again is found in a view-like payload but not in a log message.
import t from 'tap';
import { LEAK_RULES, scanGame, type LogEntry, type Received } from '../../examples/leak-scan/index.ts';
import type { GameModule } from '../../src/engine/types.ts';
import type { BWState } from '../../src/games/black-and-white/state.ts';
import { allGameModules } from '../helpers/games/index.ts';
import { blackAndWhiteDeadEnd, blackAndWhiteWeight } from '../helpers/games/black-and-white.ts';
import { contractPlayout } from '../helpers/games/playout.ts';

const m = allGameModules()['black-and-white'] as GameModule;
const modules = { 'black-and-white': m };

interface Played {
  record: { gameType: string; scenario: string; seed: string; options: Record<string, unknown>; entries: LogEntry[] };
  /** states[v]: the state at version v (1 = the start). */
  states: BWState[];
}

function play(seed: string, options: Record<string, unknown>): Played {
  const r = contractPlayout(m, blackAndWhiteWeight, { scenario: 's01', seed, endWeight: 1, maxDecisions: 6000, options, deadEnd: blackAndWhiteDeadEnd });
  if (r.failure) throw new Error(r.failure);
  const entries: LogEntry[] = [{ seq: 1, kind: 'start', role: null, action: null }, ...r.trail.map((x, i) => ({ seq: i + 2, kind: 'action', role: x.role, action: x.action }))];
  const states: BWState[] = [];
  let s = m.setup({ scenario: 's01', seed, options }) as BWState;
  states[1] = s;
  r.trail.forEach((x, i) => (states[i + 2] = s = m.apply(s, x.role, x.action) as BWState));
  return { record: { gameType: 'black-and-white', scenario: 's01', seed, options, entries }, states };
}

const scan = (p: Played, received: Received[]) => scanGame(p.record, received, modules).findings.map((f) => `${f.source}: ${f.problem}`);

t.test('the rules are registered', async (t) => {
  t.ok(Object.hasOwn(LEAK_RULES, 'black-and-white'));
});

t.test('a54Revealed keep: own views clean, planted leaks found', async (t) => {
  const p = play('rules-keep', { a54Revealed: 'keep' });
  const last = p.states.length - 1;
  const views: Received[] = [];
  for (let v = 1; v <= last; v++) for (const role of m.roles) views.push({ role, version: v, source: 'view', payload: m.view(p.states[v], role) });
  t.same(scan(p, views), [], `${views.length} views of both seats clean`);

  // Purchase: the first version where Vesania has bought something.
  const pv = p.states.findIndex((s) => s && s.phase === 'purchase' && s.bought.Vesania.length > 0);
  t.ok(pv > 0, `Vesania has bought by version ${pv}`);
  const kind = p.states[pv]!.bought.Vesania[0]!;
  t.same(scan(p, [
    { role: 'Thargaton', version: pv, source: 'bought', payload: { armies: { Vesania: (m.view(p.states[pv], 'Vesania') as { armies: Record<string, unknown> }).armies.Vesania } } },
    { role: 'Thargaton', version: pv, source: 'kind', payload: { note: kind } },
  ]), [
    `bought: the enemy's army building before deployment ends: Vesania.bought`,
    `bought: the enemy's army building before deployment ends: Vesania.budgetLeft`,
    `bought: an enemy kind before deployment ends: ${kind}`,
    `kind: an enemy kind before deployment ends: ${kind}`,
  ]);

  // Play: a Vesania block Thargaton had not been shown at the first version of play.
  const first = p.states.findIndex((s) => s && s.phase === 'play');
  const hidden = p.states[first]!.units.find((u) => u.army === 'Vesania' && !u.revealed)!;
  const label = hidden.kind;
  t.ok(hidden, `${hidden.id} hidden at version ${first}`);
  const found = scan(p, [
    { role: 'Thargaton', version: first, source: 'view-like', payload: { units: [{ id: hidden.id, kind: hidden.kind }] } },
    { role: 'Thargaton', version: first, source: 'message', payload: { key: 'unit.known', params: { id: hidden.id, kind: { ref: 'kind', id: hidden.kind } } } },
    { role: 'Thargaton', version: first, source: 'strength', payload: { unit: hidden.id, strength: hidden.strength } },
    { role: 'Thargaton', version: first, source: 'internals', payload: { rng: 1, undo: [] } },
    { role: 'Vesania', version: first, source: 'own', payload: { units: [{ id: hidden.id, kind: hidden.kind, strength: hidden.strength }] } },
  ]);
  t.same(found, [
    `view-like: the kind of ${hidden.id} (${label}), never shown to Thargaton`,
    `message: the kind of ${hidden.id} (${label}), never shown to Thargaton`,
    `strength: an enemy block's strength: ${hidden.id} strength ${hidden.strength}`,
    'internals: engine internals: key "rng"',
    'internals: engine internals: key "undo"',
  ], 'the seat itself may know its own');
  // As a log line names it, in text.
  const line = m.logLine({ pub: { key: 'log.charge', params: { hex: '1,1', unit: { msg: { key: 'unit.known', params: { id: hidden.id, kind: { ref: 'kind', id: hidden.kind } } } } } } }, 'Thargaton');
  const inText = scan(p, [{ role: 'Thargaton', version: first, source: 'log', payload: [line] }]);
  t.match(inText, [new RegExp(`^log: the kind of ${hidden.id} \\(${hidden.kind}\\) in text, never shown to Thargaton$`)], line);
  // Once revealed (a version whose view shows it), the same payloads are clean.
  const rv = p.states.findIndex((s, v) => v > first && s.units.find((u) => u.id === hidden.id)?.revealed);
  if (rv > 0) t.same(scan(p, [{ role: 'Thargaton', version: rv, source: 'view-like', payload: { units: [{ id: hidden.id, kind: hidden.kind }] } }]), [], `revealed at ${rv}`);
});

t.test('a54Revealed hide: a kind hidden again is found in a view, not in a log message', async (t) => {
  // A game where some Vesania block is revealed, then hidden again.
  let p: Played | null = null;
  let id = '', kind = '', at = 0;
  for (let g = 0; g < 20 && !at; g++) {
    p = play(`rules-hide-${g}`, { a54Revealed: 'hide' });
    for (let v = 2; v < p.states.length && !at; v++) {
      const before = p.states[v - 1]!, s = p.states[v]!;
      const u = s.units.find((x) => x.army === 'Vesania' && x.hex && !x.revealed && before.units.find((y) => y.id === x.id)?.revealed);
      if (u) [id, kind, at] = [u.id, u.kind, v];
    }
  }
  t.ok(at > 0, `${id} hidden again at version ${at}`);
  t.same(scan(p!, [
    { role: 'Thargaton', version: at, source: 'view-like', payload: { units: [{ id, kind }] } },
    { role: 'Thargaton', version: at, source: 'message', payload: { key: 'unit.known', params: { id, kind: { ref: 'kind', id: kind } } } },
  ]), [`view-like: the kind of ${id} (${kind}), hidden again (a54Revealed hide)`]);
});
