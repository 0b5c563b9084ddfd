// The choice tree and action ids (src/service/choices.ts), pure: over random
// games every legal action of every active seat is one leaf of the tree,
// reached by exactly one path, no step offers more than 25 options, and ids
// are unique in each list, the same when asked again and found again by
// actionById. A synthetic module with hundreds of actions exercises the
// alphabetical ranges.
import t from 'tap';
import { randomInt, seedRng } from '../../src/engine/rng.ts';
import type { GameModule } from '../../src/engine/types.ts';
import { LANGUAGES } from '../../src/i18n/index.ts';
import { SCENARIOS } from '../../src/games/richard-iii/data.ts';
import { richardIII } from '../../src/games/richard-iii/index.ts';
import { MAX_CHOICES, actionById, actionIds, choiceTree, labelledActions, readableId, type ChoiceNode } from '../../src/service/choices.ts';
import type { Json } from '../../src/bus/bus.ts';

const m = richardIII as unknown as GameModule;

/** Problems of a tree against the ids it must hold exactly once. */
function checkTree(tree: ChoiceNode, ids: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Map<string, number>();
  const walk = (n: ChoiceNode, depth: number): void => {
    if (n.id !== undefined) {
      if (n.children) out.push(`leaf ${n.id} has children`);
      seen.set(n.id, (seen.get(n.id) ?? 0) + 1);
      if (!n.label) out.push(`leaf ${n.id} has no label`);
      return;
    }
    const kids = n.children ?? [];
    if (kids.length > MAX_CHOICES) out.push(`a step of ${kids.length} options ("${n.label}")`);
    if (kids.length === 0 && depth > 0) out.push(`an empty group "${n.label}"`);
    for (const k of kids) walk(k, depth + 1);
  };
  walk(tree, 0);
  for (const id of ids) if (seen.get(id) !== 1) out.push(`${id} reached ${seen.get(id) ?? 0} times`);
  for (const id of seen.keys()) if (!ids.includes(id)) out.push(`leaf ${id} is no legal action`);
  return out;
}

t.test('random games: every action reachable exactly once, no step over 25, stable unique ids', async (t) => {
  const games = Number(process.env.CHOICE_GAMES ?? 30);
  const problems: string[] = [];
  let trees = 0, largest = 0;
  for (let g = 0; g < games && problems.length < 10; g++) {
    const sc = SCENARIOS[g % SCENARIOS.length]!;
    const rng = seedRng(`choices-${g}`);
    let s = m.setup({ scenario: sc.id, seed: `choices-${g}` });
    for (let step = 0; step < 3000 && !m.status(s).over && problems.length < 10; step++) {
      const roles = m.activeRoles(s);
      for (const role of roles) {
        const legal = m.legalActions(s, role) as Json[];
        const ids = actionIds(legal);
        if (new Set(ids).size !== ids.length) problems.push(`duplicate ids ${ids.join(' ')}`);
        if (JSON.stringify(actionIds(m.legalActions(s, role) as Json[])) !== JSON.stringify(ids)) problems.push('ids differ when asked again');
        legal.forEach((a, i) => { if (actionById(legal, ids[i]!) !== a) problems.push(`actionById(${ids[i]}) is another action`); });
        const lang = LANGUAGES[step % LANGUAGES.length]!;
        const choices = labelledActions(m, s, role, legal, lang);
        problems.push(...checkTree(choiceTree(m, s, role, choices, lang), ids));
        trees++;
        largest = Math.max(largest, legal.length);
      }
      const role = roles[randomInt(rng, roles.length)]!;
      const legal = m.legalActions(s, role);
      s = m.apply(s, role, legal[randomInt(rng, legal.length)]!);
    }
  }
  t.same(problems.slice(0, 10), []);
  t.ok(trees > 1000, `${trees} trees checked, the longest legal list ${largest} actions`);
});

t.test('a long flat list is split into alphabetical ranges of at most 25, nested as needed', async (t) => {
  const n = 700;
  const actions: Json[] = Array.from({ length: n }, (_, i) => ({ type: 'pick', n: i }));
  const flat: GameModule = {
    ...m,
    describeAction: (_s, _r, a) => ({ key: 'action.other', params: { type: `option ${String((a as { n: number }).n).padStart(3, '0')}` } }),
    actionGroups: () => [],
  };
  const choices = labelledActions(flat, null, 'York', actions, 'en');
  const tree = choiceTree(flat, null, 'York', choices, 'en');
  t.same(checkTree(tree, actionIds(actions)), []);
  t.ok(tree.children!.length <= 25 && tree.children!.every((c) => c.children && /^option \d{3} … option \d{3}$/.test(c.label)), 'the top step is ranges');
  t.equal(tree.children![0]!.label, 'option 000 … option 349', 'a range of ranges is named by its first and last choice');
  t.equal(tree.children![0]!.children![0]!.label, 'option 000 … option 024', 'alphabetical pages of 25');
  t.equal(tree.children!.length, 2, '700 choices: 28 pages, in 2 ranges of 14 pages');
  t.equal(readableId({ type: 'pick', n: 3 }), 'pick:3');
  t.equal(readableId({ type: 'retreat', to: 'kent', block: 'warwick-y' }), 'retreat:warwick-y:kent', 'values in key order');
  t.match(readableId({ type: 'say', text: 'hello world' }), /^say:h-[0-9a-f]{16}$/, 'a value that is not a short word: a hash');
  t.same(actionIds([{ type: 'a', x: 'k' }, { type: 'a', y: 'k' }]).map((id) => id.startsWith('h-')), [true, true], 'colliding readable ids become hashes');
});
