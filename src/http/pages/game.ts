// The spectator page (GET /watch/{gameId}) and a player's page
// (GET /play/{gameId}#key=<key>): server-rendered shells around the same REST
// routes any client uses. The spectator page is filled in on the server from
// the spectator's reads (anonymous: a page never shows a seat's view to
// whoever happens to send a header), then kept live by its script from the
// game's event stream. The player's page knows nothing of the player on the
// server: the key travels in the URL fragment, which browsers never send, and
// the script sends it as a Bearer header with each fetch (see scripts/play.js).
import { readFileSync } from 'node:fs';
import type { GameLog, GameSummary } from '../../service/api.ts';
import { html, path, type Html } from './html.ts';
import { layout, type Page } from './layout.ts';

// Plain JavaScript, sent as it is (no build step); constants, so their CSP
// hashes are too. common.js (status words, pacing within the rate limit)
// goes first in each page's one script.
const script = (file: string) => readFileSync(new URL(`./scripts/${file}`, import.meta.url), 'utf8');
const COMMON_SCRIPT = script('common.js');
const WATCH_SCRIPT = `${COMMON_SCRIPT}\n${script('watch.js')}`;
const PLAY_SCRIPT = `${COMMON_SCRIPT}\n${script('play.js')}`;

const GAME_CSS = `
.board { margin: .75rem 0; }
.board img { display: block; width: 100%; height: auto; max-width: 60rem; border: 1px solid var(--line); background: #fff; }
ol.log { margin: .25rem 0; padding-left: 2.2rem; font-size: .95rem; max-height: 28rem; overflow-y: auto; }
ol.log li { padding: .1rem 0; }
.status { font-weight: 600; }
.live { font-size: .8rem; color: var(--muted); }
.choices { display: flex; flex-wrap: wrap; gap: .4rem; margin: .5rem 0; }
.choices button { font: inherit; font-size: .95rem; padding: .45rem .7rem; border: 1px solid var(--line); border-radius: .35rem; background: var(--soft); color: var(--fg); cursor: pointer; text-align: left; max-width: 100%; overflow-wrap: anywhere; }
.choices button:hover, .choices button:focus { border-color: var(--accent); }
.choices button:disabled { opacity: .5; cursor: wait; }
.error { color: var(--accent); font-weight: 600; overflow-wrap: anywhere; }
.keyform { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
.keyform input { font: inherit; padding: .35rem; min-width: 0; flex: 1 1 12rem; }
.keyform button { font: inherit; padding: .35rem .7rem; }
[hidden] { display: none !important; }
`;

/** Whose turn, in words: the active seats with their players, or how the game ended. */
export function statusText(g: Pick<GameSummary, 'status' | 'activeRoles' | 'seats' | 'result'>): string {
  const who = (role: string) => {
    const p = g.seats.find((s) => s.role === role)?.player;
    return p ? `${role} (${p.name})` : role;
  };
  switch (g.status) {
    case 'setup': return 'Waiting for players';
    case 'active': return g.activeRoles.length === 0 ? 'In play' : `To play: ${g.activeRoles.map(who).join(', ')}`;
    case 'finished': return g.result?.winner ? `Finished: ${who(g.result.winner)} won (${g.result.reason})` : `Finished: no winner${g.result ? ` (${g.result.reason})` : ''}`;
    case 'abandoned': return 'Abandoned';
  }
}

function seatsLine(g: GameSummary): Html {
  return html`<ul class="facts">${g.seats.map((s) => html`<li>${s.role}: ${s.player ? s.player.name : html`<span class="muted">open</span>`}${s.player?.isBot ? html` <span class="tag">bot</span>` : ''}</li>`)}</ul>`;
}

/** The spectator's picture: of this version once the game is over (cached for good), else the current one. */
export const boardUrl = (gameId: string, lang: string, version: number | null): string =>
  `${path('games', gameId, 'board.svg')}?lang=${encodeURIComponent(lang)}${version === null ? '' : `&version=${version}`}`;

export interface WatchPageData {
  game: GameSummary;
  /** The game type's title, or null when it is no longer installed. */
  gameTitle: string | null;
  /** The spectator's log, worded in the page's language. */
  log: GameLog;
  /** Whether the game type has board pictures (false: the page shows the log alone). */
  pictures: boolean;
}

export function watchPage({ game, gameTitle, log, pictures }: WatchPageData): Page {
  const title = `${gameTitle ?? game.gameType} – ${game.scenario}`;
  const body = html`<div id="game" data-game="${game.id}" data-lang="${log.lang}" data-version="${game.version}" data-status="${game.status}">
<h1>${title}</h1>
${seatsLine(game)}
<p><span class="status" id="status">${statusText(game)}</span> · version <span id="version">${game.version}</span> <span class="live" id="live"></span></p>
${pictures ? html`<div class="board">${game.status === 'setup' ? html`<p class="muted" id="board-none">The board is drawn once the game starts.</p>` : ''}<img id="board" src="${game.status === 'setup' ? 'data:,' : boardUrl(game.id, log.lang, game.status === 'active' ? null : game.version)}" data-version="${game.version}" alt="The board as a spectator sees it" width="800"${game.status === 'setup' ? html` hidden` : ''}></div>` : html`<p class="muted" id="no-pictures">This game type has no board pictures: follow it by its log.</p>`}
<h2>Log</h2>
<ol class="log" id="log">${log.lines.map((l) => html`<li>${l}</li>`)}</ol>
<p class="muted">You see what a spectator sees: what each seat keeps hidden stays hidden until the game is over. <a href="${path('games', game.id)}">Game data (JSON)</a></p>
</div>`;
  return layout({ title: `${title} – Herald`, body, css: GAME_CSS, script: WATCH_SCRIPT, lang: log.lang });
}

/** The player's page: a shell the script fills in with the key from the fragment. */
export function playPage(gameId: string, lang: string): Page {
  const body = html`<div id="game" data-game="${gameId}" data-lang="${lang}">
<h1 id="title">Your game</h1>
<div id="keyform" hidden>
<p>Open this page with your key after a <code>#</code> (<code>/play/${gameId}#key=…</code>), or give it here. It stays in this tab and is sent only to this server, in a header.</p>
<div class="keyform"><input id="key" type="password" autocomplete="off" aria-label="Your API key" placeholder="Your API key"><button id="usekey" type="button">Open</button></div>
</div>
<p class="error" id="error" role="alert" hidden></p>
<div id="play" hidden>
<p><span class="status" id="status"></span> · <span id="seat"></span> · version <span id="version"></span> <span class="live" id="live"></span></p>
<h2 id="movesTitle">Your moves</h2>
<div class="choices" id="choices"></div>
<div class="board"><img id="board" alt="The board as your seat sees it" width="800"></div>
<h2>Log</h2>
<ol class="log" id="log"></ol>
<p class="muted"><a href="${path('watch', gameId)}">Spectator page</a></p>
</div>
</div>`;
  return layout({ title: 'Your game – Herald', body, css: GAME_CSS, script: PLAY_SCRIPT, lang });
}
