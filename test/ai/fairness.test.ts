// Fair play, proved (issue 20): the computer player cannot use what its seat
// may not see. At positions from random Richard III games (every scenario,
// both seats) we build other full states that differ from the real one only
// in hidden facts — enemy blocks swapped between areas (identity and
// strength), a card swapped between the opponent's hand and the deck, another
// RNG state, and a whole other state drawn by sampleState — check that each
// really differs, that the seat's view of each is the same, and that the AI
// with the same seed picks the same action in all of them.
import t from 'tap';
import { chooseAction, type AiLevel, type AnyGameModule } from '../../src/ai/index.ts';
import { nextMover } from '../../src/ai/ismcts.ts';
import { sameJson } from '../../src/engine/json.ts';
import { randomInt, seedRng } from '../../src/engine/rng.ts';
import { AREA, NUM_BLOCKS, other, type Side } from '../../src/games/richard-iii/data.ts';
import { richardIII } from '../../src/games/richard-iii/index.ts';
import { ownerOf, type R3State } from '../../src/games/richard-iii/state.ts';

const M = richardIII as unknown as AnyGameModule;
const copy = (s: R3State): R3State => structuredClone(s);

/** Enemy blocks (upright, on land) of two different areas exchange places: other identities and strengths there. */
function swapEnemyBlocks(s: R3State, me: Side, k: number): R3State | null {
  const opp = other(me);
  const enemy: number[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) if (!s.down[b] && AREA[s.loc[b]!]?.kind === 'land' && ownerOf(s, b) === opp) enemy.push(b);
  const pairs: [number, number][] = [];
  for (const x of enemy) for (const y of enemy) if (x < y && s.loc[x] !== s.loc[y]) pairs.push([x, y]);
  // Several tries: a swap the view would show (a block revealed in battle, a crown) is not a hidden difference.
  for (let i = 0; i < Math.min(pairs.length, 12); i++) {
    const [x, y] = pairs[(k * 7 + i * 13) % pairs.length]!;
    const s2 = copy(s);
    [s2.loc[x], s2.loc[y]] = [s2.loc[y]!, s2.loc[x]!];
    [s2.acted[x], s2.acted[y]] = [s2.acted[y]!, s2.acted[x]!];
    if (sameJson(M.view(s2, me), M.view(s, me))) return s2;
  }
  return null;
}

/** A card of the opponent's hand exchanged with a different card of the deck. */
function swapOpponentCard(s: R3State, me: Side): R3State | null {
  const hand = s.hands[other(me)];
  for (let h = 0; h < hand.length; h++) {
    const d = s.deck.findIndex((c) => c !== hand[h]);
    if (d < 0) continue;
    const s2 = copy(s);
    [s2.hands[other(me)][h], s2.deck[d]] = [s2.deck[d]!, s2.hands[other(me)][h]!];
    if (sameJson(M.view(s2, me), M.view(s, me))) return s2;
  }
  return null;
}

function otherRng(s: R3State): R3State {
  const s2 = copy(s);
  s2.rng = seedRng(`fairness-other-rng:${s.rng.join(',')}`);
  return s2;
}

function withoutLog(v: unknown): unknown {
  const { log: _log, logFrom: _from, ...rest } = v as Record<string, unknown>;
  return rest;
}

/** Positions where the seat to move has a real choice, from random games. */
function positions(): { state: R3State; role: Side; label: string }[] {
  const out: { state: R3State; role: Side; label: string }[] = [];
  for (const sc of M.scenarios) {
    for (let g = 0; g < 2; g++) {
      const rng = seedRng(`fairness:${sc.id}:${g}`);
      let s = M.setup({ scenario: sc.id, seed: `fairness:${sc.id}:${g}` }) as R3State;
      const bySeat = { York: 0, Lancaster: 0 };
      for (let i = 0; i < 600 && !M.status(s).over; i++) {
        const m = nextMover(M, s, i % 2 ? 'York' : 'Lancaster')!;
        const role = m.actor as Side;
        if (i % 11 === 5 && m.actions.length > 1 && bySeat[role] < 3) {
          bySeat[role]++;
          out.push({ state: s, role, label: `${sc.id}#${g} step ${i} ${role}` });
        }
        s = M.apply(s, role, m.actions[randomInt(rng, m.actions.length)]) as R3State;
      }
    }
  }
  return out;
}

t.test('the AI picks the same action in states that differ only in what its seat may not see', async (t) => {
  const ps = positions();
  const kinds = { blocks: 0, card: 0, rng: 0, sampled: 0 };
  const seats = new Set<string>();
  for (const [k, { state, role, label }] of ps.entries()) {
    const alts: [keyof typeof kinds, R3State | null][] = [
      ['blocks', swapEnemyBlocks(state, role, k)],
      ['card', swapOpponentCard(state, role)],
      ['rng', otherRng(state)],
      ['sampled', M.sampleState!(M.view(state, role), role, seedRng(`fairness-sample:${k}`)) as R3State],
    ];
    const view = M.view(state, role);
    const legalActions = M.legalActions(state, role);
    const level: AiLevel = k % 2 ? 'easy' : 'normal';
    const seed = `fairness:${k}`;
    const budget = { simulations: 6 };
    const base = chooseAction(M, { gameType: M.id, role, view, legalActions, level, seed }, budget);
    for (const [kind, alt] of alts) {
      if (!alt) continue;
      t.notOk(sameJson(alt, state), `${label}: the ${kind} state really differs`);
      const altView = M.view(alt, role);
      // A sampled state has no log (GameModule.sampleState): its view matches but for the log lines.
      const seen = kind === 'sampled' ? withoutLog : (v: unknown) => v;
      t.ok(sameJson(seen(altView), seen(view)), `${label}: the seat's view is the same (${kind})`);
      const d = chooseAction(M, { gameType: M.id, role, view: altView, legalActions: M.legalActions(alt, role), level, seed }, budget);
      t.same(d.action, base.action, `${label}: same action (${kind}, ${level})`);
      kinds[kind]++;
    }
    seats.add(`${state.scenario}:${role}`);
  }
  t.ok(kinds.blocks >= 3, `enemy blocks swapped at ${kinds.blocks} positions`);
  t.ok(kinds.card >= 3, `opponent's cards swapped at ${kinds.card} positions`);
  t.equal(kinds.rng, ps.length);
  t.equal(kinds.sampled, ps.length);
  t.equal(seats.size, 2 * M.scenarios.length, 'every scenario from both seats');
});
