// Readable actions and log lines (issue 16): every legal action of 200 random
// games has a label and every log line a message, each renders in English,
// Polish, Czech and Russian with no missing key, and none names a block its
// reader may not see: a label's blocks (to the acting seat) and a log line's
// blocks (to each seat and the spectator) all appear in that reader's view
// before or after the change — except eliminations, public by rule 6.8, and
// the regroup of a block seen in the battle just fought (retreat.ts).
import t from 'tap';
import { randomInt, seedRng } from '../../../src/engine/rng.ts';
import type { Message } from '../../../src/engine/types.ts';
import { Formatter, LANGUAGES, loadCatalogues, refsOf } from '../../../src/i18n/index.ts';
import { SCENARIOS } from '../../../src/games/richard-iii/data.ts';
import { richardIII as m } from '../../../src/games/richard-iii/index.ts';
import { top, type LogEntry, type R3State } from '../../../src/games/richard-iii/state.ts';
import { cardRef } from '../../../src/games/richard-iii/msg.ts';
import { BLOCK_IDS } from '../../../src/games/richard-iii/data.ts';

const GAMES = Number(process.env.R3_LABEL_GAMES ?? 200);
const formatter = new Formatter(loadCatalogues(m.messagesDir!));
const SEATS = [...m.roles, null] as const;
/** Messages whose block is public by rule: eliminations (6.8) and a dead King/Pretender. */
const PUBLIC_BLOCK = new Set(['log.eliminated', 'log.kingDead', 'log.pretenderDead']);

function blockRefs(msg: Message): string[] {
  if (PUBLIC_BLOCK.has(msg.key)) return [];
  return refsOf(msg).filter((r) => r.ref === 'block').map((r) => r.id);
}

t.test(`labels and log lines of ${GAMES} random games`, async (t) => {
  const distinct = new Map<string, Message>();
  const problems: string[] = [];
  let labels = 0, lines = 0, decisions = 0;
  const note = (msg: Message): void => {
    const k = JSON.stringify(msg);
    if (!distinct.has(k)) distinct.set(k, msg);
  };
  for (let g = 0; g < GAMES; g++) {
    const sc = SCENARIOS[g % SCENARIOS.length]!;
    const rng = seedRng(`labels-${g}`);
    let s = m.setup({ scenario: sc.id, seed: `labels-${sc.id}-${g}` }) as R3State;
    const viewText = (st: R3State, seat: string | null): string => JSON.stringify(m.view(st, seat));
    for (const e of m.logChange(s).entries as LogEntry[]) for (const seat of SEATS) {
      const msg = m.logMessage!(e, seat);
      if (msg) note(msg); else problems.push(`setup entry without message: ${e.pub}`);
    }
    for (let step = 0; step < 4000 && !s.result; step++) {
      const roles = m.activeRoles(s);
      const views = new Map(SEATS.map((seat) => [seat, viewText(s, seat)]));
      for (const role of roles) {
        const legal = m.legalActions(s, role);
        const ids = new Set<string>();
        for (const a of legal) {
          const msg = m.describeAction!(s, role, a);
          labels++;
          note(msg);
          for (const grp of m.actionGroups!(s, role, a)) note(grp);
          for (const id of blockRefs(msg)) if (!views.get(role)!.includes(`"${id}"`)) problems.push(`${role}'s label ${JSON.stringify(msg)} names ${id}, not in its view`);
          ids.add(JSON.stringify(msg));
        }
      }
      const role = roles[randomInt(rng, roles.length)]!;
      const legal = m.legalActions(s, role);
      const undo = legal.find((a) => a.type === 'undo' || a.type === 'take_back');
      const pick = undo && legal.length > 1 && randomInt(rng, 10) !== 0 ? legal.filter((a) => a !== undo) : legal;
      const next = m.apply(s, role, pick[randomInt(rng, pick.length)]!) as R3State;
      const f = top(s);
      const seen = f.s === 'regroup' ? (f['seen'] as number[]).map((b) => BLOCK_IDS[b]!) : [];
      decisions++;
      for (const e of m.logChange(next).entries as LogEntry[]) {
        lines++;
        if (!e.m || (e.own && !e.own.m)) problems.push(`log entry without message: ${e.pub}`);
        for (const seat of SEATS) {
          const msg = m.logMessage!(e, seat);
          if (!msg) continue;
          note(msg);
          const after = viewText(next, seat);
          for (const id of blockRefs(msg)) {
            if (!views.get(seat)!.includes(`"${id}"`) && !after.includes(`"${id}"`) && !seen.includes(id)) problems.push(`${seat ?? 'spectator'} reads ${JSON.stringify(msg)} naming ${id}, in neither view`);
          }
        }
      }
      s = next;
      if (problems.length > 20) break;
    }
    if (problems.length > 20) break;
  }
  t.same(problems.slice(0, 20), [], 'every action and line has a message; none names a block its reader cannot see');

  const missing: string[] = [];
  const empty: string[] = [];
  let rendered = 0;
  for (const msg of distinct.values()) {
    for (const lang of LANGUAGES) {
      const text = formatter.format(lang, msg, missing);
      rendered++;
      if (text.trim() === '' && msg.key !== 'log.cause.none') empty.push(`${lang}: ${msg.key}`);
      if (/[{}]/.test(text)) empty.push(`${lang}: ${msg.key} left a placeholder: ${text}`);
    }
  }
  t.same([...new Set(missing)], [], 'no missing key in any language');
  t.same(empty.slice(0, 10), [], 'no empty text, no placeholder left');
  t.ok(labels > 0 && lines > 0, `${decisions} decisions, ${labels} labels and ${lines} log lines; ${distinct.size} distinct messages rendered ${rendered} times`);
});

t.test('catalogues: the same keys in every language, and the sample labels of the issue', async (t) => {
  const cats = formatter.catalogues;
  for (const lang of LANGUAGES) t.same(Object.keys(cats[lang]).sort(), Object.keys(cats.en).sort(), `${lang} has exactly the English keys`);
  const f = (lang: (typeof LANGUAGES)[number], msg: Message) => formatter.format(lang, msg);
  const step: Message = { key: 'action.step', params: { block: { ref: 'block', id: 'warwick-y' }, from: { ref: 'area', id: 'middlesex' }, to: { ref: 'area', id: 'kent' } } };
  t.equal(f('en', step), 'Move Warwick from Middlesex to Kent');
  t.equal(f('pl', step), 'Przesuń blok Warwick z obszaru Middlesex do obszaru Kent');
  t.equal(f('cs', step), 'Přesunout blok Warwick z území Middlesex na území Kent');
  t.equal(f('ru', step), 'Переместить блок Уорик из области Мидлсекс в область Кент');
  const play: Message = { key: 'action.play', params: { card: cardRef('ap3-1') } };
  t.equal(f('en', play), 'Play card: 3 AP');
  t.equal(f('ru', play), 'Сыграть карту: 3 ОД');
  const hit: Message = { key: 'action.hit', params: { block: { msg: { key: 'block.withStrength', params: { block: { ref: 'block', id: 'northumberland-l' }, steps: 3 } } } } };
  t.equal(f('en', hit), 'Take the hit on Northumberland (3)');
  const roll = (n: number): Message => ({ key: 'log.roll', params: { side: { ref: 'side', id: 'York' }, block: 'X', what: { msg: { key: 'log.verb.fires' } }, rating: 'B3', dice: '1', hits: n } });
  t.equal(f('pl', roll(2)), 'York: X walczy (B3): 1 — 2 trafienia.', 'Polish plural: few');
  t.equal(f('pl', roll(5)), 'York: X walczy (B3): 1 — 5 trafień.', 'Polish plural: many');
  t.equal(f('ru', roll(1)), 'Йорк: X атакует (B3): 1 — 1 хит.', 'Russian plural: one');
  t.equal(f('cs', roll(3)), 'York: X střílí (B3): 1 — 3 zásahy.', 'Czech plural: few');
  const missing: string[] = [];
  t.equal(f('en', { key: 'no.such.key' }), 'no.such.key', 'an unknown key shows itself');
  formatter.format('pl', { key: 'no.such.key' }, missing);
  t.same(missing, ['pl:no.such.key'], 'and is reported');
});
