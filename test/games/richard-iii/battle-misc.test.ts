/**
 * Loose ends of the Battle Phase: three rolls per target, instant victory
 * in battle (9.0), a contested area without a movement record, undo, views, and a
 * deterministic random playout of many battles (nobody is ever left without a
 * legal action; every battle ends; no Contested area is left behind).
 */
import t from 'tap';
import { act, actors, battle, bf, frame, legal, where, withDice } from './battle-helpers.ts';
import { battleRevealed, contestedAreas } from '../../../src/games/richard-iii/battle.ts';
import { battleReveal } from '../../../src/games/richard-iii/view.ts';
import { AREAS, BLOCKS, BLOCK_INDEX } from '../../../src/games/richard-iii/data.ts';
import { top, type R3State } from '../../../src/games/richard-iii/state.ts';
import { randomInt, seedRng } from '../../../src/engine/rng.ts';

const pass = (s: R3State): R3State => act(s, { type: 'pass', block: actors(s)[0]! });
const odd = (d: number[]): boolean => d.some((x) => x % 2 === 1);

t.test('6.9 [R-26] — one target may receive the Treason card, King/Pretender and Warwick rolls in one battle', (t) => {
  let s = battle({
    treason: 'Lancaster',
    blocks: { 'stanley-y': { loc: 'chester' }, 'henry-vi': { loc: 'chester' }, 'warwick-l': { loc: 'chester' } },
    attacks: { chester: { attacker: 'Lancaster', main: 'derby', entries: { Lancaster: ['derby'] } } },
  });
  t.equal(frame(s).s, 'treason_event');
  s = withDice(s, 1, odd);
  s = act(s, { type: 'treason', target: 'stanley-y' });
  s = pass(s); // Stanley (defending B)
  s = withDice(s, 1, odd);
  s = act(s, { type: 'treachery', block: 'henry-vi', target: 'stanley-y' });
  s = withDice(s, 1, odd);
  s = act(s, { type: 'treachery', block: 'warwick-l', target: 'stanley-y' });
  t.equal(bf(s).rolls['stanley-y'], 3, 'three rolls, one from each source');
  t.equal(where(s, 'stanley-y'), 'chester');
  t.same(bf(s).used.sort(), ['crown-Lancaster', 'warwick']);
  // Round 2: no source left.
  while (!actors(s).includes('henry-vi')) s = pass(s);
  t.notOk(legal(s).some((a) => a.type === 'treachery'));
  t.end();
});

t.test('9.0 — killing the last enemy heir in battle ends the game at once', (t) => {
  let s = battle({
    crown: { York: 'march', Lancaster: 'henry-vi' },
    blocks: {
      'duke-of-york': { loc: 'dead' }, rutland: { loc: 'dead' }, 'clarence-y': { loc: 'dead' }, gloucester: { loc: 'dead' },
      march: { loc: 'lincoln', steps: 1 }, clifford: { loc: 'lincoln' },
    },
    attacks: { lincoln: { attacker: 'York', main: 'rutland', entries: { York: ['rutland'] } } },
  });
  t.same(actors(s), ['clifford']);
  s = withDice(s, 3, (d) => d[0]! <= 2);
  s = act(s, { type: 'fire', block: 'clifford' });
  t.equal(where(s, 'march'), 'dead');
  t.ok(s.result);
  t.equal(s.result?.winner, 'Lancaster');
  t.equal(top(s).s, 'game_over', 'nothing else happens');
  t.end();
});

t.test('6.1 — a Contested area without a movement record: the side that moved in attacks', (t) => {
  const s = battle({
    p1: 'York',
    blocks: { herbert: { loc: 'lincoln' }, clifford: { loc: 'lincoln', acted: 1 } },
  });
  t.equal(bf(s).attacker, 'Lancaster');
  t.same(actors(s), ['herbert'], 'the defender acts first within A');
  t.end();
});

t.test('Views — revealed blocks are listed in the battle frame; Reserves only once they join', (t) => {
  let s = battle({
    blocks: { herbert: { loc: 'lincoln' }, hastings: { loc: 'lincoln' }, clifford: { loc: 'lincoln' } },
    attacks: { lincoln: { attacker: 'York', main: 'rutland', entries: { York: ['rutland', 'leicester'] }, reserves: ['hastings'] } },
  });
  const ids = (l: number[]): string[] => l.map((b) => BLOCKS[b]!.id).sort();
  t.same(ids(battleRevealed(s)), ['clifford', 'herbert']);
  t.same(ids(battleReveal(s)!.blocks), ['clifford', 'herbert'], 'view.ts reads the same list');
  t.equal(s.undo.length, 0);
  while (bf(s).round === 1) s = pass(s);
  t.same(ids(battleRevealed(s)), ['clifford', 'hastings', 'herbert']);
  t.end();
});

t.test('random playouts — every battle ends, someone can always act, no Contested area is left', (t) => {
  const land = AREAS.filter((a) => a.kind === 'land' && a.id !== 'isle-of-man');
  const pieces = BLOCKS.filter((b) => b.type !== 'heir');
  const r = seedRng('battle-playouts');
  let battles = 0;
  for (let g = 0; g < 300; g++) {
    const area = land[randomInt(r, land.length)]!;
    const used = new Set<string>();
    const pick = (side: string, n: number): string[] => {
      const out: string[] = [];
      for (let i = 0; i < 60 && out.length < n; i++) {
        const b = pieces[randomInt(r, pieces.length)]!;
        if (b.side !== side || used.has(b.id) || (b.enemyVersionId && used.has(b.enemyVersionId))) continue;
        used.add(b.id);
        out.push(b.id);
      }
      return out;
    };
    const y = pick('York', 1 + randomInt(r, 4));
    const l = pick('Lancaster', 1 + randomInt(r, 4));
    const blocks: Record<string, { loc: string; steps: number }> = {};
    for (const id of [...y, ...l]) blocks[id] = { loc: area.id, steps: 1 + randomInt(r, BLOCKS[BLOCK_INDEX[id]!]!.maxSteps) };
    if (randomInt(r, 3) === 0) blocks['march'] = { loc: area.id, steps: 3 };
    if (randomInt(r, 3) === 0) blocks['henry-vi'] = { loc: area.id, steps: 4 };
    const attacker = randomInt(r, 2) ? 'York' : 'Lancaster';
    const [att, def] = attacker === 'York' ? [y, l] : [l, y];
    const nb = area.landNeighbours ?? [];
    const entries = { York: [] as string[], Lancaster: [] as string[] };
    entries[attacker] = nb.slice(0, 2);
    const pirates = randomInt(r, 4) === 0 && area.seas.length > 0 ? [att[0]!] : [];
    if (pirates.length) entries[attacker].push(area.seas[0]!);
    if (randomInt(r, 2)) entries[attacker === 'York' ? 'Lancaster' : 'York'] = nb.slice(1, 3);
    const reserves = [...att.slice(1).filter(() => randomInt(r, 2) === 0), ...def.filter(() => randomInt(r, 3) === 0)];
    let s = battle({
      seed: `playout-${g}`,
      p1: randomInt(r, 2) ? 'York' : 'Lancaster',
      treason: randomInt(r, 3) === 0 ? 'Lancaster' : null,
      blocks,
      attacks: { [area.id]: { attacker, main: nb[0] ?? null, entries, reserves, pirates } },
    });
    let steps = 0;
    while (!s.result && ['battle_phase', 'battle', 'battle_hits', 'treason_event', 'regroup'].includes(top(s).s)) {
      const list = legal(s);
      if (list.length === 0) {
        t.fail(`no legal action in ${top(s).s} (playout ${g})`);
        break;
      }
      s = act(s, list[randomInt(r, list.length)]!);
      if (++steps > 400) {
        t.fail(`playout ${g} does not end`);
        break;
      }
    }
    battles++;
    if (!s.result) t.same(contestedAreas(s), [], `playout ${g}: no Contested area left`);
  }
  t.equal(battles, 300);
  t.end();
});
