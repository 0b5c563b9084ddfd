/**
 * Readable actions and log lines: every message random play produces is
 * worded in English, Polish, Czech and Russian with no missing key, no
 * placeholder left and no empty text, no two actions of a choice read alike
 * in any language, and a seat's log lines never name an enemy kind that was
 * not revealed to it, in any language.
 */
import t from 'tap';
import { seedRng } from '../../../src/engine/rng.ts';
import type { Message } from '../../../src/engine/types.ts';
import { Formatter, LANGUAGES, loadCatalogues, type Language } from '../../../src/i18n/index.ts';
import { ARMIES, KINDS, type Army } from '../../../src/games/black-and-white/data-format.ts';
import { DATA, game } from './fixture-helpers.ts';
import { mostly, pickOne, randomTestGame } from '../../helpers/games/black-and-white.ts';

const formatter = new Formatter(loadCatalogues(game.messagesDir!));
/** Each kind's name, per language. */
const KIND_NAMES = new Map<Language, Map<string, string>>(LANGUAGES.map((lang) => [lang, new Map()]));
for (const lang of LANGUAGES) for (const a of ARMIES) for (const k of Object.keys(KINDS[a])) KIND_NAMES.get(lang)!.set(k, formatter.format(lang, { key: `kind.${k}` }));

t.test('every action and log line is worded in every language; no line names a kind its reader was not shown', async (t) => {
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
        for (const lang of LANGUAGES) {
          const labels = new Set<string>();
          for (const a of legal) {
            const label = formatter.format(lang, game.describeAction!(s, role, a));
            if (labels.has(label)) problems.push(`two actions read "${label}"`);
            labels.add(label);
          }
        }
        for (const a of legal) for (const m of [game.describeAction!(s, role, a), ...game.actionGroups!(s, role, a)]) distinct.set(JSON.stringify(m), m);
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
            const enemy = ARMIES.find((x) => x !== seat)!;
            for (const lang of LANGUAGES) {
              const text = formatter.format(lang, m);
              const names = KIND_NAMES.get(lang)!;
              for (const k of Object.keys(KINDS[enemy])) {
                if (!known[seat].has(k) && text.includes(names.get(k)!) && !Object.keys(KINDS[seat]).some((own) => names.get(own) === names.get(k))) {
                  problems.push(`${seat} reads "${text}" naming ${k}`);
                }
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
    for (const lang of LANGUAGES) {
      const text = formatter.format(lang, m, missing);
      if (/[{}]/.test(text)) left.push(`${lang}: ${m.key}: ${text}`);
      if (text.trim() === '') left.push(`${lang}: ${m.key} is empty`);
    }
  }
  t.same([...new Set(missing)], [], 'no missing key in any language');
  t.same(left.slice(0, 10), [], 'no placeholder left, no empty text');
  t.ok(distinct.size > 100, `${distinct.size} distinct messages, each in ${LANGUAGES.length} languages`);
});

t.test('kind names and short labels: distinct within each language; sample lines with their plurals', async (t) => {
  for (const lang of LANGUAGES) {
    const kinds = [...KIND_NAMES.get(lang)!.keys()];
    t.equal(new Set(kinds.map((k) => KIND_NAMES.get(lang)!.get(k))).size, 18, `${lang}: 18 kind names`);
    // The picture tells blocks apart by these labels, and the leak scans look for them as words.
    t.equal(new Set(kinds.map((k) => formatter.format(lang, { key: `short.${k}` }))).size, 18, `${lang}: 18 short labels`);
  }
  const f = (lang: Language, m: Message) => formatter.format(lang, m);
  const unit = (kind: string): Message => ({ key: 'unit.known', params: { id: 'T03', kind: { ref: 'kind', id: kind } } });
  const melee: Message = { key: 'action.melee', params: { unit: { msg: unit('heavy-cavalry') }, target: { msg: { key: 'unit.hidden', params: { id: 'V05', type: { ref: 'type', id: 'infantry' } } } } } };
  t.equal(f('en', melee), 'T03 (Heavy Cavalry) attacks V05 (infantry) in melee');
  t.equal(f('pl', melee), 'T03 (Ciężka kawaleria) atakuje w zwarciu: V05 (piechota)');
  t.equal(f('cs', melee), 'T03 (Těžká jízda) útočí zblízka na V05 (pěchota)');
  t.equal(f('ru', melee), 'T03 (Тяжёлая кавалерия) атакует в ближнем бою: V05 (пехота)');
  const loses = (n: number): Message => ({ key: 'log.loses', params: { unit: { msg: unit('sappers') }, n } });
  t.equal(f('pl', loses(1)), 'T03 (Saperzy) traci 1 punkt liczebności.', 'Polish plural: one');
  t.equal(f('pl', loses(2)), 'T03 (Saperzy) traci 2 punkty liczebności.', 'Polish plural: few');
  t.equal(f('pl', loses(5)), 'T03 (Saperzy) traci 5 punktów liczebności.', 'Polish plural: many');
  t.equal(f('cs', loses(3)), 'T03 (Ženisté) ztrácí 3 body síly.', 'Czech plural: few');
  t.equal(f('ru', loses(2)), 'T03 (Сапёры) теряет 2 единицы численности.', 'Russian plural: few');
  const inHex = (n: number): Message => ({ key: 'log.activatedInHex', params: { n, hex: '4,2' } });
  t.equal(f('en', inHex(2)), 'Activated: 2 unit(s) in 4,2.');
  t.equal(f('pl', inHex(2)), 'Aktywacja: 2 jednostki na heksie 4,2.');
  t.equal(f('ru', inHex(1)), 'Активация: 1 отряд на гексе 4,2.');
  t.equal(f('cs', inHex(3)), 'Aktivace: 3 jednotky na hexu 4,2.');
  const wins: Message = { key: 'log.wins', params: { army: { ref: 'army', id: 'Vesania' }, reason: { ref: 'reason', id: 'breakthrough' } } };
  t.equal(f('pl', wins), 'Vesania wygrywa (przełamanie).');
  t.equal(f('ru', wins), 'Везания побеждает (прорыв).');
  t.equal(f('pl', { key: 'order.until-death' }), 'Póki śmierć', "the rulebook's Polish order names");
  t.equal(f('pl', { key: 'pic.family', params: { family: 'behindEnemyLines' } }), 'Za liniami wroga', "and its families'");
});
