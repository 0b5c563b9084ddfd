/**
 * Seeded random games with commanders on (§18), every commander in turn:
 * every legal action applies (orders, windows, going on), anything else is
 * refused, and no seat's view or log holds an enemy kind it was not shown or
 * did not look at itself, an enemy strength, or the enemy's commander before
 * the screen is removed (A37); what one seat looked at stays out of the
 * other's view (Reconnaissance, Rafael's look).
 */
import t from 'tap';
import { seedRng } from '../../../src/engine/rng.ts';
import type { Message } from '../../../src/engine/types.ts';
import { Formatter, loadCatalogues } from '../../../src/i18n/index.ts';
import { ARMIES, KINDS, type Army } from '../../../src/games/black-and-white/data-format.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { DATA, game } from './fixture-helpers.ts';
import { mostly, outOfTurn, pickOne, playsOn, randomTestGame, undoWatcher } from '../../helpers/games/black-and-white.ts';

const formatter = new Formatter(loadCatalogues(game.messagesDir!));
const KIND_NAMES = new Map<string, string>();
for (const a of ARMIES) for (const k of Object.keys(KINDS[a])) KIND_NAMES.set(k, formatter.format('en', { key: `kind.${k}` }));

/** Kinds of the other army `seat` may know: cards shown, blocks revealed, blocks it looked at itself. */
function knownKinds(s: BWState, seat: Army): Set<string> {
  const enemy = ARMIES.find((x) => x !== seat)!;
  const out = new Set<string>(s.cardsShown[enemy]);
  for (const u of s.units) if (u.army === enemy && (u.revealed || s.orders.learned[seat].includes(u.id))) out.add(u.kind);
  return out;
}

interface OrdersView {
  commander: Record<Army, string | null>;
  learned: Record<string, string>;
}

function checkView(t: { fail: (m: string) => unknown }, s: BWState, seat: Army | null): void {
  const v = game.view(s, seat) as { armies: Record<Army, { units: Record<string, unknown>[]; bought?: unknown }>; orders: OrdersView };
  const learned = new Set(seat ? s.orders.learned[seat] : []);
  for (const id of Object.keys(v.orders.learned)) if (!learned.has(id)) t.fail(`${seat} sees a look it did not take at ${id}`);
  for (const a of ARMIES) {
    if (a === seat) continue;
    if ((s.phase === 'purchase' || s.phase === 'deploy') && v.orders.commander[a] !== null) t.fail(`${seat} sees ${a}'s commander behind the screen`);
    for (const u of v.armies[a].units) {
      const real = s.units.find((x) => x.id === u.id)!;
      if ('strength' in u) t.fail(`${seat} sees the strength of ${u.id}`);
      if ('kind' in u && !real.revealed) t.fail(`${seat} sees the kind of unrevealed ${u.id}`);
    }
  }
  const text = JSON.stringify({ ...v, kinds: undefined, scenario: undefined });
  for (const u of s.units) {
    if (u.army === seat || u.revealed || learned.has(u.id)) continue;
    if (s.cardsShown[u.army].includes(u.kind) || s.units.some((x) => x.kind === u.kind && (x.revealed || x.army === seat || learned.has(x.id)))) continue;
    if (text.includes(`"${u.kind}"`)) t.fail(`${seat} view names ${u.kind}`);
  }
}

t.test('random games with commanders: legal actions only, no leak', async (t) => {
  const seen = new Set<string>();
  const distinct = new Map<string, Message>();
  const problems: string[] = [];
  let finished = 0;
  let steps = 0;
  const games = 24;
  for (let g = 0; g < games; g++) {
    const sc = DATA.scenarios[g % DATA.scenarios.length]!.id;
    const pick = seedRng(`orders-pick${g}`);
    const options: Record<string, unknown> = { commanders: true, ...(g % 4 === 3 ? { a37Commander: 'first-order', a54Revealed: 'hide', a22CounterAfterMiss: true, a40BaronDodge: 'after-roll', a47FearFortified: 'no', a48ReRoll: 'not-artillery' } : {}) };
    const known: Record<Army, Set<string>> = { Thargaton: new Set(), Vesania: new Set() };
    const undoRestores = undoWatcher();
    const s = randomTestGame(game, {
      scenario: sc,
      seed: `orders${g}`,
      options,
      rng: pick,
      maxSteps: 1500,
      fail: (m) => t.fail(m),
      choose: (all, s, role) => {
        let legal = all;
        // Commanders in turn: game g gives each army its (g mod 3)-th commander.
        const chooses = legal.filter((a) => a.type === 'commander');
        if (chooses.length) {
          const want = s.orders.choices[role][g % 3];
          const mine = chooses.find((a) => a.type === 'commander' && a.commander === want);
          if (mine) legal = [mine];
          else legal = legal.filter((a) => a.type !== 'commander');
        }
        // Orders are offered often and taken more often than not, so that every order gets issued.
        const a = pickOne(pick, mostly(pick, legal, (x) => x.type === 'order', 3, () => mostly(pick, legal, playsOn, 10)));
        // No two choices read alike.
        const texts = legal.map((x) => formatter.format('en', game.describeAction!(s, role, x)));
        if (new Set(texts).size !== texts.length) problems.push(`two of ${role}'s actions read alike: ${texts.join(' | ')}`);
        return a;
      },
      onStep: (x) => {
        const { step, role, action: a, before, after: s } = x;
        for (const m of [game.describeAction!(before, role, a), ...game.actionGroups!(before, role, a)]) distinct.set(JSON.stringify(m), m);
        const wrong = outOfTurn(game, x);
        if (wrong) t.fail(wrong);
        steps++;
        // Undo gives back exactly the state before the last undoable action.
        if (!undoRestores(x)) t.fail('undo did not restore the earlier state');
        seen.add(a.type === 'order' ? `order:${a.order}` : a.type);
        if (step % 5 === 0 || a.type === 'order') for (const seat of [...ARMIES, null]) checkView(t, s, seat);
        for (const seat of ARMIES) for (const k of knownKinds(s, seat)) known[seat].add(k);
        for (const e of game.logChange(s).entries) {
          for (const seat of [...ARMIES, null]) {
            game.logLine(e, seat);
            const m = game.logMessage!(e, seat)!;
            distinct.set(JSON.stringify(m), m);
            if (seat === null) continue;
            const text = formatter.format('en', m);
            const enemy = ARMIES.find((y) => y !== seat)!;
            for (const k of Object.keys(KINDS[enemy])) {
              if (!known[seat].has(k) && text.includes(KIND_NAMES.get(k)!)) problems.push(`${seat} reads "${text}" naming ${k}`);
            }
          }
        }
      },
    });
    if (game.status(s).over) finished++;
  }
  t.same(problems.slice(0, 10), [], 'no log line names an enemy kind its reader does not know');
  const missing: string[] = [];
  const left = [...distinct.values()].map((m) => formatter.format('en', m, missing)).filter((text) => /[{}]/.test(text));
  t.same([...new Set(missing)], [], 'every message has an en wording');
  t.same(left, [], 'no placeholder left');
  t.ok(finished > games / 3, `${finished} of ${games} games finished`);
  t.ok(steps > 1000);
  t.comment(`seen: ${[...seen].sort().join(' ')}`);
  // Every order but the Baron's automatic special one is issued somewhere in these games.
  for (const type of ['commander', 'go-on', 'order:look', 'order:motivation', 'order:finish-them', 'order:idle-move', 'order:forced-march', 'order:aiming-reroll', 'order:reroll', 'order:for-the-queen', 'order:reconnaissance', 'order:second-activation', 'order:recovery', 'order:pursuit', 'order:withdrawal', 'order:battle-frenzy', 'order:paralysis', 'order:take-aim', 'order:fear']) {
    t.ok(seen.has(type), `random play reached ${type}`);
  }
});
