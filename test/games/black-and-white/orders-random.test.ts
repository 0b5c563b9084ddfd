/**
 * Seeded random games with commanders on (§18), every commander in turn:
 * every legal action applies (orders, windows, going on), anything else is
 * refused, and no seat's view or log holds an enemy kind it was not shown or
 * did not look at itself, an enemy strength, or the enemy's commander before
 * the screen is removed (A37); what one seat looked at stays out of the
 * other's view (Reconnaissance, Rafael's look).
 */
import t from 'tap';
import { randomInt, seedRng } from '../../../src/engine/rng.ts';
import { IllegalActionError } from '../../../src/engine/types.ts';
import type { Message } from '../../../src/engine/types.ts';
import { Formatter, loadCatalogues } from '../../../src/i18n/index.ts';
import { ARMIES, KINDS, type Army } from '../../../src/games/black-and-white/data-format.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { DATA, game } from './fixture-helpers.ts';

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
    let s = game.setup({ scenario: sc, seed: `orders${g}`, options });
    const known: Record<Army, Set<string>> = { Thargaton: new Set(), Vesania: new Set() };
    const mine: BWState[] = [];
    for (let step = 0; step < 1500 && !game.status(s).over; step++) {
      const roles = game.activeRoles(s);
      if (roles.length === 0) {
        t.fail('nobody may act in a game not over');
        break;
      }
      const role = roles[randomInt(pick, roles.length)]!;
      let legal = game.legalActions(s, role);
      if (legal.length === 0) {
        t.fail(`no legal action for active ${role}`);
        break;
      }
      // Commanders in turn: game g gives each army its (g mod 3)-th commander.
      const chooses = legal.filter((a) => a.type === 'commander');
      if (chooses.length) {
        const want = s.orders.choices[role as Army][g % 3];
        const mine = chooses.find((a) => a.type === 'commander' && a.commander === want);
        if (mine) legal = [mine];
        else legal = legal.filter((a) => a.type !== 'commander');
      }
      // Orders are offered often and taken more often than not, so that every order gets issued.
      const orders = legal.filter((a) => a.type === 'order');
      const weighted = legal.filter((a) => a.type !== 'end-turn' && a.type !== 'end-activation' && a.type !== 'undo');
      const pool = orders.length && randomInt(pick, 3) > 0 ? orders : weighted.length && randomInt(pick, 10) > 0 ? weighted : legal;
      const a = pool[randomInt(pick, pool.length)]!;
      // No two choices read alike.
      const texts = legal.map((x) => formatter.format('en', game.describeAction!(s, role, x)));
      if (new Set(texts).size !== texts.length) problems.push(`two of ${role}'s actions read alike: ${texts.join(' | ')}`);
      for (const m of [game.describeAction!(s, role, a), ...game.actionGroups!(s, role, a)]) distinct.set(JSON.stringify(m), m);
      const other = ARMIES.find((x) => x !== role)!;
      if (!roles.includes(other)) {
        try {
          game.apply(s, other, a);
          t.fail(`${other} applied ${JSON.stringify(a)} out of turn`);
        } catch (e) {
          if (!(e instanceof IllegalActionError)) throw e;
        }
      }
      const before = s;
      s = game.apply(s, role, a);
      steps++;
      // Undo gives back exactly the state before the last undoable action.
      if (a.type === 'undo') {
        const back = mine.pop()!;
        const strip = (x: BWState) => JSON.stringify({ ...x, log: [], logFrom: 0, undo: x.undo.length });
        if (strip(back) !== strip(s)) t.fail('undo did not restore the earlier state');
      } else if (s.undo.length > before.undo.length) mine.push(before);
      else if (s.undo.length === 0) mine.length = 0;
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
          const enemy = ARMIES.find((x) => x !== seat)!;
          for (const k of Object.keys(KINDS[enemy])) {
            if (!known[seat].has(k) && text.includes(KIND_NAMES.get(k)!)) problems.push(`${seat} reads "${text}" naming ${k}`);
          }
        }
      }
    }
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
