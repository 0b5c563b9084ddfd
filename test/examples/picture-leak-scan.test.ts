// Fog of war on board pictures, engine level: random complete games (the
// fuzz's playouts, all three scenarios), and at sampled versions of each —
// evenly spread, plus versions with a battle being fought, plus the last —
// the picture of York's seat, Lancaster's and the spectator's (languages in
// turn) must render and show nothing hidden (test/helpers/picture-leaks.ts).
// PICTURE_LEAK_GAMES games (default 200); no new game starts after
// PICTURE_LEAK_SECONDS (default 300), the number played is printed.
import t from 'tap';
import { playout } from '../games/richard-iii/playout-helpers.ts';
import { pictureLeaks, shownBlocks } from '../helpers/picture-leaks.ts';
import { SCENARIOS } from '../../src/games/richard-iii/data.ts';
import type { R3State } from '../../src/games/richard-iii/state.ts';
import { viewFor, type R3View } from '../../src/games/richard-iii/view.ts';
import { renderBoardSvg } from '../../src/render/richard-iii.ts';
import { LANGUAGES, translator } from '../../src/render/messages.ts';

t.setTimeout(600_000);
const GAMES = Number(process.env.PICTURE_LEAK_GAMES ?? 200);
const stopAt = Date.now() + Number(process.env.PICTURE_LEAK_SECONDS ?? 300) * 1000;
const turnOf = (s: R3State) => `${s.campaign}:${s.turn}`;

/** The versions drawn: 10 spread over the game, up to 5 with a battle being fought, and the last. */
function sample(states: readonly R3State[], g: number): number[] {
  const out = new Set<number>();
  for (let k = 0; k < 10; k++) out.add(Math.floor(((k + 0.5) / 10) * states.length));
  const battles = states.map((s, i) => (s.flow.length > 0 && s.flow[s.flow.length - 1]!.s === 'battle' ? i : -1)).filter((i) => i >= 0);
  for (let k = 0; k < Math.min(5, battles.length); k++) out.add(battles[(g * 7 + k * 13) % battles.length]!);
  out.add(states.length - 1);
  return [...out].sort((a, b) => a - b);
}

/** The seat's views of the versions before `v` in its game turn and the one before (oldest first). */
function earlierViews(states: readonly R3State[], v: number, seat: 'York' | 'Lancaster' | null): R3View[] {
  const out: R3View[] = [];
  const turns = new Set<string>([turnOf(states[v]!)]);
  for (let i = v - 1; i >= 0; i--) {
    turns.add(turnOf(states[i]!));
    if (turns.size > 2) break;
    out.push(viewFor(states[i]!, seat));
  }
  return out.reverse();
}

let games = 0;
let pictures = 0;
const findings: string[] = [];
for (let g = 0; g < GAMES && Date.now() < stopAt; g++) {
  const states: R3State[] = [];
  const scenario = SCENARIOS[g % SCENARIOS.length]!.id;
  const seed = `picture-leaks-${g}`;
  const r = playout({ scenario, seed, endWeight: g % 2 === 0 ? 0.1 : 1, check: false, onState: (s) => states.push(s) });
  if (r.failure) throw new Error(`playout ${seed} failed: ${r.failure.message}`);
  const lang = LANGUAGES[g % LANGUAGES.length]!;
  const tr = translator('richard-iii', lang);
  for (const v of sample(states, g)) {
    for (const seat of ['York', 'Lancaster', null] as const) {
      const view = viewFor(states[v]!, seat);
      const svg = renderBoardSvg({ view, version: v, earlier: earlierViews(states, v, seat), t: tr });
      pictures++;
      if (!svg.startsWith('<svg') || !svg.endsWith('</svg>')) findings.push(`${seed} v${v} ${seat}: not an SVG document`);
      for (const f of pictureLeaks(svg, view, states[v]!, tr)) findings.push(`${seed} v${v} ${seat ?? 'spectator'} (${lang}): ${f}`);
    }
  }
  games++;
}

t.ok(games >= Math.min(GAMES, 10), `${games} random games played`);
t.same(findings.slice(0, 20), [], 'no picture shows anything hidden');
t.comment(`picture leak scan: ${games} of ${GAMES} games, ${pictures} pictures, ${findings.length} findings`);

t.test('the check finds planted leaks', async (t) => {
  const states: R3State[] = [];
  playout({ scenario: 'wars-of-the-roses', seed: 'picture-plant', endWeight: 0.1, check: false, onState: (s) => states.push(s) });
  const v = states.findIndex((s) => s.flow.length > 0 && s.flow[s.flow.length - 1]!.s === 'battle');
  const s = states[v]!;
  const tr = translator('richard-iii', 'en');
  const york = viewFor(s, 'York');
  const lancasterView = viewFor(s, 'Lancaster');
  const clean = renderBoardSvg({ view: york, version: v, earlier: [], t: tr });
  t.same(pictureLeaks(clean, york, s, tr), [], 'the real picture is clean');
  // York's picture drawn from Lancaster's view (own blocks with names and strengths).
  const wrong = renderBoardSvg({ view: { ...lancasterView, seat: 'York' }, version: v, earlier: [], t: tr });
  t.ok(pictureLeaks(wrong, york, s, tr).some((f) => /^chip /.test(f)), 'enemy chips with names and strengths');
  const hiddenId = (lancasterView.blocks ?? []).find((b) => !shownBlocks(york).has(b.id))!.id;
  t.ok(pictureLeaks(clean.replace('</svg>', `<g data-x="${hiddenId}"/></svg>`), york, s, tr).includes(`hidden block id ${hiddenId}`), 'a hidden id in an attribute');
  const hiddenName = (lancasterView.blocks ?? []).map((b) => b.id).find((id) => (id === 'clifford' || id === 'beaumont' || id === 'devon') && !shownBlocks(york).has(id));
  if (hiddenName) {
    const name = hiddenName === 'clifford' ? 'Clifford' : hiddenName === 'beaumont' ? 'Beaumont' : 'Devon';
    t.ok(pictureLeaks(clean.replace('</svg>', `<text x="1" y="1">${name}</text></svg>`), york, s, tr).some((f) => f.includes(`"${name}"`)), 'a hidden name in a text');
  }
  const card = s.hands.Lancaster.find((c) => !/^ap/.test(c));
  if (card) {
    const name = tr('card', { card: card.replace(/-(.)/g, (_, ch: string) => ch.toUpperCase()), ap: 0 });
    t.ok(pictureLeaks(clean.replace('</svg>', `<text x="1" y="1">${name}</text></svg>`), york, s, tr).some((f) => f.startsWith('secret card')), 'a card of the enemy hand');
  }
});
