/**
 * Readable actions and log lines: every message random play produces is
 * worded by the `en` catalogue with no missing key or placeholder left, and a
 * seat's log lines never name an enemy kind that was not revealed to it.
 */
import t from 'tap';
import { seedRng } from '../../../src/engine/rng.ts';
import type { Message } from '../../../src/engine/types.ts';
import { Formatter, loadCatalogues } from '../../../src/i18n/index.ts';
import { ARMIES, KINDS, type Army } from '../../../src/games/black-and-white/data-format.ts';
import { DATA, game } from './fixture-helpers.ts';
import { mostly, pickOne, randomTestGame } from '../../helpers/games/black-and-white.ts';

const formatter = new Formatter(loadCatalogues(game.messagesDir!));
const KIND_NAMES = new Map<string, string>();
for (const a of ARMIES) for (const k of Object.keys(KINDS[a])) KIND_NAMES.set(k, formatter.format('en', { key: `kind.${k}` }));

t.test('every action and log line is worded in English; no line names a kind its reader was not shown', async (t) => {
  const distinct = new Map<string, Message>();
  const problems: string[] = [];
  for (let g = 0; g < 8; g++) {
    const pick = seedRng(`labels${g}`);
    // Kind cards each seat has been shown of the other army (attacks, moves, defences, eliminations, hidden shooters).
    const known: Record<Army, Set<string>> = { Thargaton: new Set(), Vesania: new Set() };
    randomTestGame(game, {
      scenario: DATA.scenarios[g % DATA.scenarios.length]!.id,
      seed: `labels${g}`,
      rng: pick,
      maxSteps: 800,
      fail: (m) => problems.push(m),
      choose: (legal, s, role) => {
        const labels = new Set<string>();
        for (const a of legal) {
          for (const m of [game.describeAction!(s, role, a), ...game.actionGroups!(s, role, a)]) distinct.set(JSON.stringify(m), m);
          const label = formatter.format('en', game.describeAction!(s, role, a));
          if (labels.has(label)) problems.push(`two actions read "${label}"`);
          labels.add(label);
        }
        return pickOne(pick, mostly(pick, legal, (a) => a.type !== 'end-turn' && a.type !== 'end-activation', 8));
      },
      onStep: ({ after: s }) => {
        for (const seat of ARMIES) {
          const enemy = ARMIES.find((x) => x !== seat)!;
          const v = game.view(s, seat) as { armies: Record<Army, { cardsShown: string[] }> };
          for (const k of v.armies[enemy].cardsShown) known[seat].add(k);
        }
        for (const e of game.logChange(s).entries) {
          for (const seat of [...ARMIES, null]) {
            const m = game.logMessage!(e, seat)!;
            distinct.set(JSON.stringify(m), m);
            if (seat === null) continue;
            const text = formatter.format('en', m);
            const enemy = ARMIES.find((x) => x !== seat)!;
            for (const k of Object.keys(KINDS[enemy])) {
              if (!known[seat].has(k) && text.includes(KIND_NAMES.get(k)!) && !Object.keys(KINDS[seat]).some((own) => KIND_NAMES.get(own) === KIND_NAMES.get(k))) {
                problems.push(`${seat} reads "${text}" naming ${k}`);
              }
            }
          }
        }
      },
    });
  }
  t.same(problems.slice(0, 10), []);
  const missing: string[] = [];
  const left: string[] = [];
  for (const m of distinct.values()) {
    const text = formatter.format('en', m, missing);
    if (/[{}]/.test(text)) left.push(`${m.key}: ${text}`);
  }
  t.same([...new Set(missing)], [], 'no missing key');
  t.same(left, [], 'no placeholder left');
  t.ok(distinct.size > 100, `${distinct.size} distinct messages`);
});
