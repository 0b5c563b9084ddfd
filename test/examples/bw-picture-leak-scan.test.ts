// Fog of war on Black & White board pictures, engine level: random games on
// the invented data (every scenario in turn), and at sampled versions of each
// — evenly spread, plus versions with an activation or a pending decision,
// plus the last — the picture of Thargaton's seat, Vesania's and the
// spectator's (the four languages in turn) must render and
// show nothing the view does not (test/helpers/bw-picture-leaks.ts).
// BW_PICTURE_LEAK_GAMES games (default 40); no new game starts after
// PICTURE_LEAK_SECONDS (default 300); the number played is printed.
// Then through the service: REST-bot games of the Defence scenario (the one
// random play finishes in a few hundred actions: the attacker's turn limit)
// on a server given the invented data, every payload scanned and each seat's
// and the spectator's pictures drawn by the service and scanned
// (PICTURE_LEAK_RULES in harness-helpers.ts).
import t from 'tap';
import { bwPictureLeaks, pictureBlocks } from '../helpers/bw-picture-leaks.ts';
import { INVENTED, INVENTED_FILE, bw, randomGame } from '../render/black-and-white-helpers.ts';
import type { Army } from '../../src/games/black-and-white/data-format.ts';
import type { BWState } from '../../src/games/black-and-white/state.ts';
import { renderBoardSvg, turnKey, type BWPictureView } from '../../src/render/black-and-white.ts';
import { LANGUAGES, translator } from '../../src/render/messages.ts';
import type { GameModule } from '../../src/engine/types.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { listen, playMany } from './harness-helpers.ts';

t.setTimeout(600_000);
const GAMES = Number(process.env.BW_PICTURE_LEAK_GAMES ?? 40);
const stopAt = Date.now() + Number(process.env.PICTURE_LEAK_SECONDS ?? 300) * 1000;
const SEATS: readonly (Army | null)[] = ['Thargaton', 'Vesania', null];
const view = (s: BWState, seat: Army | null) => bw.view(s, seat) as BWPictureView;

/** The versions drawn: 8 spread over the game, up to 4 mid-activation or with a decision pending, and the last. */
function sample(states: readonly BWState[], g: number): number[] {
  const out = new Set<number>();
  for (let k = 0; k < 8; k++) out.add(Math.floor(((k + 0.5) / 8) * states.length));
  const busy = states.map((s, i) => (s.pending.length > 0 || s.act ? i : -1)).filter((i) => i >= 0);
  for (let k = 0; k < Math.min(4, busy.length); k++) out.add(busy[(g * 7 + k * 13) % busy.length]!);
  out.add(states.length - 1);
  return [...out].sort((a, b) => a - b);
}

/** The seat's views of the versions before `v` in its turn and the one before (oldest first), as the service passes them. */
function earlierViews(states: readonly BWState[], v: number, seat: Army | null): BWPictureView[] {
  const out: BWPictureView[] = [];
  const turns = new Set<string>([turnKey(view(states[v]!, seat))]);
  for (let i = v - 1; i >= Math.max(0, v - 200); i--) {
    const e = view(states[i]!, seat);
    turns.add(turnKey(e));
    if (turns.size > 2) break;
    out.push(e);
  }
  return out.reverse();
}

let games = 0;
let pictures = 0;
let enemyBlocks = 0;
let labelled = 0;
const findings: string[] = [];
for (let g = 0; g < GAMES && Date.now() < stopAt; g++) {
  const scenario = INVENTED.scenarios[g % INVENTED.scenarios.length]!.id;
  const seed = `bw-picture-leaks-${g}`;
  const states = randomGame(scenario, seed, 1200);
  const lang = LANGUAGES[g % LANGUAGES.length]!;
  const tr = translator('black-and-white', lang);
  for (const v of sample(states, g)) {
    for (const seat of SEATS) {
      const vw = view(states[v]!, seat);
      const svg = renderBoardSvg({ view: vw, version: v, earlier: earlierViews(states, v, seat), t: tr });
      pictures++;
      for (const b of pictureBlocks(svg)) {
        if (b.own) continue;
        enemyBlocks++;
        if (b.texts.length > 0) labelled++;
      }
      if (!svg.startsWith('<svg') || !svg.endsWith('</svg>')) findings.push(`${seed} v${v} ${seat}: not an SVG document`);
      for (const f of bwPictureLeaks(svg, vw, states[v]!, tr)) findings.push(`${seed} v${v} ${seat ?? 'spectator'} (${lang}): ${f}`);
    }
  }
  games++;
}

t.ok(games >= Math.min(GAMES, 5), `${games} random games played`);
t.ok(enemyBlocks > 100 && labelled > 0, `${enemyBlocks} enemy blocks drawn, ${labelled} of them with a revealed kind`);
t.same(findings.slice(0, 20), [], 'no picture shows anything hidden');
t.comment(`Black & White picture leak scan: ${games} of ${GAMES} games, ${pictures} pictures, ${findings.length} findings`);

t.test('the check finds planted leaks', async (t) => {
  const states = randomGame('s01', 'bw-picture-plant', 1200);
  const tr = translator('black-and-white', 'en');
  // A version where Vesania has a block on the board whose kind Thargaton's view does not show.
  const v = states.findIndex((s) => s.phase === 'play' && s.units.some((u) => u.army === 'Vesania' && u.hex !== null && !u.revealed));
  t.ok(v > 0, `a version with a hidden Vesania block (${v})`);
  const s = states[v]!;
  const tv = view(s, 'Thargaton');
  const clean = renderBoardSvg({ view: tv, version: v, earlier: [], t: tr });
  t.same(bwPictureLeaks(clean, tv, s, tr), [], 'the real picture is clean');
  // Thargaton's picture drawn from Vesania's view (enemy blocks with kinds and strengths).
  const wrong = renderBoardSvg({ view: { ...view(s, 'Vesania'), seat: 'Thargaton' }, version: v, earlier: [], t: tr });
  t.ok(bwPictureLeaks(wrong, tv, s, tr).some((f) => /^own block /.test(f)), 'enemy blocks drawn as own');
  const hidden = s.units.find((u) => u.army === 'Vesania' && u.hex !== null && !u.revealed)!;
  const withKind = renderBoardSvg({
    view: { ...tv, armies: { ...tv.armies, Vesania: { ...tv.armies.Vesania, units: tv.armies.Vesania.units.map((u) => (u.id === hidden.id ? { ...u, kind: hidden.kind } : u)) } } },
    version: v,
    earlier: [],
    t: tr,
  });
  const found = bwPictureLeaks(withKind, tv, s, tr);
  t.ok(found.some((f) => f.startsWith(`enemy block ${hidden.id} `)), `a hidden block labelled: ${found.join('; ')}`);
  const strength = clean.replace(`data-unit="${hidden.id}">`, `data-unit="${hidden.id}"><text x="1" y="1">${hidden.strength}</text>`);
  t.ok(bwPictureLeaks(strength, tv, s, tr).some((f) => f.includes('shows a number')), 'an enemy strength');
  const marked = clean.replace(`data-unit="${hidden.id}">`, `data-unit="${hidden.id}"><rect class="mark-active"/>`);
  t.ok(bwPictureLeaks(marked, tv, s, tr).some((f) => f === `block ${hidden.id} marked active, the view does not say so`), 'a block marked active that the view does not name');
  const shown = new Set([...tv.armies.Vesania.units.map((u) => u.kind), ...(tv.armies.Vesania.cardsShown ?? [])]);
  const secret = s.kinds.find((k) => k.army === 'Vesania' && !shown.has(k.id))!;
  t.ok(bwPictureLeaks(clean.replace('</svg>', `<text x="1" y="1">${tr(`kind.${secret.id}`)}</text></svg>`), tv, s, tr).some((f) => f.startsWith(`hidden kind ${secret.id}`)), 'a hidden kind by name');
  t.ok(bwPictureLeaks(clean.replace('</svg>', `<g data-x="${secret.id}"/></svg>`), tv, s, tr).includes(`hidden kind id ${secret.id}`), 'a hidden kind id in an attribute');
  // In each language the scan looks for that language's words.
  for (const lang of LANGUAGES) {
    const tl = translator('black-and-white', lang);
    const picture = renderBoardSvg({ view: tv, version: v, earlier: [], t: tl });
    t.same(bwPictureLeaks(picture, tv, s, tl), [], `${lang}: the real picture is clean`);
    for (const word of [tl(`kind.${secret.id}`), tl(`short.${secret.id}`)]) {
      const planted = picture.replace('</svg>', `<text x="1" y="1">${word}</text></svg>`);
      t.ok(bwPictureLeaks(planted, tv, s, tl).some((f) => f.startsWith(`hidden kind ${secret.id}`)), `${lang}: a hidden kind as "${word}"`);
    }
  }
});

t.test('through the service: REST-bot games, payloads and pictures scanned', async (t) => {
  const { store, databaseUrl } = await openTestStore(t);
  const { app, baseUrl } = await listen(testConfig({ databaseUrl, gameDataFiles: { HERALD_BLACK_AND_WHITE_DATA: INVENTED_FILE } }), { store });
  t.teardown(() => app.close());
  t.ok(app.gameService.hasBoardPictures('black-and-white'), 'Black & White has pictures');
  const modules = { 'black-and-white': bw as unknown as GameModule };
  const r = await playMany(app, baseUrl, { n: 3, concurrency: 3, gameType: 'black-and-white', games: modules, scenarios: ['s06'], seedPrefix: 'bw-picture-service' });
  t.equal(r.games, 3, `${r.games} games played to the end (${r.actions} actions)`);
  t.ok(r.pictures >= r.games * 3, `${r.pictures} pictures drawn by the service and scanned`);
  t.same(r.findings, [], 'no finding');
});
