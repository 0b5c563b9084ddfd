// The public league page (GET /leagues/{id}/page): standings with their
// tie-breaks, every published round with its pairings and links to the games,
// and for knockout and pools leagues the bracket. Built only from what the
// league API answers (League, LeagueStandings, Round[]): the page shows nothing
// the API does not, to anyone who may read the league by id.
import type { Entrant, League, LeagueFormat, LeagueStandings, Pairing, PairingResult, Round, StandingRow, TieBreak } from '../../service/api.ts';
import { html, path, type Html } from './html.ts';
import { layout, type Page } from './layout.ts';

export interface LeaguePageData {
  league: League;
  /** The game type's title (Richard III: …), or null when it is no longer installed. */
  gameTitle: string | null;
  standings: LeagueStandings;
  /** Published and complete rounds (drafts are the organisers' alone). */
  rounds: Round[];
  /** Only read during registration, when there are no standings yet. */
  entrants: Entrant[] | null;
}

/** Where a pairing's game is watched: the spectator page (GET /watch/{gameId}). */
export const watchUrl = (gameId: string): string => path('watch', gameId);

const FORMATS: Record<LeagueFormat, string> = {
  'round-robin': 'Round robin',
  'double-round-robin': 'Double round robin',
  swiss: 'Swiss',
  knockout: 'Knockout',
  pools: 'Pools, then knockout',
};

/** Abbreviation (as in the FIDE handbook where it has one) and meaning of each tie-break. */
export const TIE_BREAK_NAMES: Record<TieBreak, [string, string]> = {
  buchholz: ['BH', 'Buchholz: the sum of the opponents’ scores'],
  'buchholz-cut1': ['BH-C1', 'Buchholz without the lowest opponent score'],
  'median-buchholz': ['BH-M1', 'Median Buchholz: without the lowest and the highest opponent score'],
  'sonneborn-berger': ['SB', 'Sonneborn–Berger: opponents’ scores weighted by the points taken from them'],
  'direct-encounter': ['DE', 'Direct encounter: points against the other tied players'],
  wins: ['WIN', 'Rounds won, forfeit wins and full-point byes included'],
  'wins-played': ['WON', 'Games won over the board'],
  'harder-side-wins': ['BWG', 'Games won with the harder side'],
  'harder-side-games': ['BPG', 'Games played with the harder side'],
  progressive: ['PS', 'Progressive score: the running score summed after each round'],
};

/** Numbers as the API gives them (the browser test compares the two). */
const num = (n: number | undefined): string => (n === undefined ? '–' : String(n));

const nameOf = (p: { name: string; isBot: boolean }): Html => html`${p.name}${p.isBot ? html` <span class="tag">bot</span>` : ''}`;

/** Who won a board: first, second, or nobody (yet, or a draw, or a double forfeit). */
function winnerOf(result: PairingResult | null, hasSecond: boolean): 'first' | 'second' | null {
  switch (result) {
    case 'first':
    case 'forfeit-first':
      return 'first';
    case 'second':
    case 'forfeit-second':
      return 'second';
    case 'bye-full':
    case 'bye-half':
    case 'bye-zero':
      return hasSecond ? null : 'first';
    default:
      return null;
  }
}

function resultText(p: Pairing): string {
  switch (p.result) {
    case 'first': return '1–0';
    case 'second': return '0–1';
    case 'draw': return '½–½';
    case 'forfeit-first': return '1–0 forfeit';
    case 'forfeit-second': return '0–1 forfeit';
    case 'double-forfeit': return 'double forfeit';
    case 'bye-full': return 'bye, full point';
    case 'bye-half': return 'bye, half point';
    case 'bye-zero': return 'bye, no points';
    case null:
      if (p.report) return `reported ${p.report.result === 'first' ? '1–0' : p.report.result === 'second' ? '0–1' : '½–½'}, unconfirmed`;
      return p.second === null ? 'bye' : p.gameId ? 'playing' : 'to play';
  }
}

function standingsTable(rows: StandingRow[], tieBreaks: readonly TieBreak[]): Html {
  return html`<div class="scroll"><table class="standings">
<thead><tr><th class="num">#</th><th>Player</th><th class="num">Pts</th>${tieBreaks.map((tb) => html`<th class="num"><abbr title="${TIE_BREAK_NAMES[tb][1]}">${TIE_BREAK_NAMES[tb][0]}</abbr></th>`)}<th class="num wide-only">Played</th><th class="num"><abbr title="won – drawn – lost">W–D–L</abbr></th></tr></thead>
<tbody>
${rows.map(
  (r) => html`<tr data-player="${r.player.id}">
<td class="num" data-col="rank">${r.rank}${r.decidedByFinalOrder ? html`<abbr title="still tied after every tie-break: placed by the final order">†</abbr>` : ''}</td>
<td class="name" data-col="player">${nameOf(r.player)}${r.status !== 'active' ? html` <span class="tag">${r.status}</span>` : ''}</td>
<td class="num" data-col="points"><strong>${num(r.points)}</strong></td>
${tieBreaks.map((tb) => html`<td class="num" data-col="tb-${tb}">${num(r.tieBreaks[tb])}</td>`)}
<td class="num wide-only" data-col="played">${r.played}</td>
<td class="num" data-col="wdl">${r.won}–${r.drawn}–${r.lost}</td>
</tr>
`,
)}</tbody>
</table></div>`;
}

function standingsSection(d: LeaguePageData): Html {
  const s = d.standings;
  // Before the start every entrant would tie at 0: the entrants section lists them instead.
  if (s.standings.length === 0 || d.league.status === 'registration') return html``;
  const pools = [...new Set(s.standings.map((r) => r.pool))];
  const tables =
    pools.length > 1 || pools[0] !== null
      ? pools.map((pool) => html`<h3>Pool ${pool ?? ''}</h3>
${standingsTable(s.standings.filter((r) => r.pool === pool), s.tieBreaks)}`)
      : standingsTable(s.standings, s.tieBreaks);
  return html`<section id="standings" aria-labelledby="standings-h">
<h2 id="standings-h">Standings</h2>
<p class="muted">After ${s.rounds} ${s.rounds === 1 ? 'round' : 'rounds'}. Win ${num(s.points.win)}, draw ${num(s.points.draw)}, loss ${num(s.points.loss)}${s.tieBreaks.length ? '; ties broken by, in order:' : '.'}</p>
${s.tieBreaks.length ? html`<dl class="legend">${s.tieBreaks.map((tb) => html`<dt>${TIE_BREAK_NAMES[tb][0]}</dt><dd>${TIE_BREAK_NAMES[tb][1]}</dd>`)}</dl>` : ''}
${tables}
${s.standings.some((r) => r.decidedByFinalOrder) ? html`<p class="muted">† Still tied after every tie-break: placed by the final order.</p>` : ''}
</section>`;
}

function pairingRow(p: Pairing, roles: { first: string; second: string }): Html {
  const w = winnerOf(p.result, p.second !== null);
  return html`<tr data-pairing="${p.id}">
<td class="num board">${p.pool !== null ? html`<span class="tag">P${p.pool}</span> ` : ''}${p.board}</td>
<td class="name first${w === 'first' ? ' win' : ''}" data-label="${roles.first}">${nameOf(p.first)}</td>
<td class="result" data-col="result">${resultText(p)}</td>
<td class="name second${w === 'second' ? ' win' : ''}" data-label="${roles.second}">${p.second ? nameOf(p.second) : html`<span class="muted">—</span>`}</td>
<td class="game">${p.gameId ? html`<a href="${watchUrl(p.gameId)}">Watch</a>` : ''}</td>
</tr>
`;
}

function roundsSection(d: LeaguePageData): Html {
  if (d.rounds.length === 0) return html``;
  const { first, second } = d.league.roles;
  return html`<section id="rounds" aria-labelledby="rounds-h">
<h2 id="rounds-h">Rounds</h2>
${[...d.rounds].reverse().map(
  (r) => html`<section class="round" id="round-${r.number}">
<h3>Round ${r.number} <span class="tag">${r.stage}</span> <span class="tag">${r.status === 'complete' ? 'complete' : 'in play'}</span></h3>
<div class="scroll"><table class="pairings">
<thead><tr><th class="num board">Board</th><th>${first}</th><th class="result">Result</th><th>${second}</th><th class="game">Game</th></tr></thead>
<tbody>
${r.pairings.map((p) => pairingRow(p, d.league.roles))}</tbody>
</table></div>
</section>
`,
)}</section>`;
}

export function knockoutRoundName(boards: number): string {
  return boards === 1 ? 'Final' : boards === 2 ? 'Semi-finals' : boards === 4 ? 'Quarter-finals' : `Round of ${boards * 2}`;
}

/** Each side's mark in a bracket box. */
function bracketScores(result: PairingResult | null): [string, string] {
  switch (result) {
    case 'first': return ['1', '0'];
    case 'second': return ['0', '1'];
    case 'draw': return ['½', '½'];
    case 'forfeit-first': return ['+', '−'];
    case 'forfeit-second': return ['−', '+'];
    case 'double-forfeit': return ['−', '−'];
    case null: return ['', ''];
    default: return ['', ''];
  }
}

function bracketSlot(name: Html | null, won: boolean, score: string): Html {
  return html`<li class="${won ? 'win' : ''}"><span class="who">${name ?? html`<span class="muted">to be decided</span>`}</span><span class="score">${score}</span></li>`;
}

function bracketMatch(p: Pairing): Html {
  const w = winnerOf(p.result, p.second !== null);
  const [a, b] = bracketScores(p.result);
  return html`<div class="match" data-pairing="${p.id}">
<ol>${bracketSlot(nameOf(p.first), w === 'first', a ?? '')}${p.second ? bracketSlot(nameOf(p.second), w === 'second', b ?? '') : html`<li><span class="who muted">bye</span><span class="score"></span></li>`}</ol>
${p.gameId ? html`<a href="${watchUrl(p.gameId)}">Watch</a>` : ''}
</div>`;
}

function bracketSection(d: LeaguePageData): Html {
  if (d.league.format !== 'knockout' && d.league.format !== 'pools') return html``;
  const ko = d.rounds.filter((r) => r.stage === 'knockout');
  if (ko.length === 0) {
    return html`<section id="bracket" aria-labelledby="bracket-h"><h2 id="bracket-h">Knockout</h2>
<p class="muted">The bracket is drawn ${d.league.format === 'pools' ? 'when the pools are complete' : 'when the league starts'}.</p></section>`;
  }
  // Rounds still to come: half as many boards each, down to the final.
  const later: number[] = [];
  for (let n = Math.floor(ko.at(-1)!.pairings.length / 2); n >= 1; n = Math.floor(n / 2)) later.push(n);
  const final = ko.at(-1)!.pairings.length === 1 ? ko.at(-1)!.pairings[0]! : null;
  const champion = final ? winnerOf(final.result, final.second !== null) : null;
  return html`<section id="bracket" aria-labelledby="bracket-h">
<h2 id="bracket-h">Knockout</h2>
${champion ? html`<p class="champion">Winner: <strong class="win">${nameOf(champion === 'first' ? final!.first : final!.second!)}</strong></p>` : ''}
<div class="bracket">
${ko.map((r) => html`<div class="column" data-round="${r.number}"><h3>${knockoutRoundName(r.pairings.length)}</h3><div class="matches">${r.pairings.map(bracketMatch)}</div></div>
`)}${later.map((n) => html`<div class="column future"><h3>${knockoutRoundName(n)}</h3><div class="matches">${Array.from({ length: n }, () => html`<div class="match"><ol>${bracketSlot(null, false, '')}${bracketSlot(null, false, '')}</ol></div>`)}</div></div>
`)}</div>
</section>`;
}

function entrantsSection(d: LeaguePageData): Html {
  if (!d.entrants || d.entrants.length === 0 || d.league.status !== 'registration') return html``;
  return html`<section id="entrants" aria-labelledby="entrants-h">
<h2 id="entrants-h">Entrants</h2>
<ol>${d.entrants.map((e) => html`<li>${nameOf(e.player)}${e.rating !== null ? html` <span class="muted">${num(e.rating)}</span>` : ''}</li>`)}</ol>
</section>`;
}

const LEAGUE_CSS = `
.description { white-space: pre-line; }
table.pairings { table-layout: fixed; }
/* The same column widths in every pool's table. */
@media (min-width: 40rem) { .standings th.num { width: 4.5rem; } .standings th.num:first-child { width: 3rem; } }
.pairings th.board { width: 4.5rem; }
.pairings th.result { width: 9.5rem; }
.pairings th.game { width: 4.5rem; }
.pairings td.result { white-space: nowrap; }
/* A phone: each board is a small card, the two players one above the other, each named by side. */
@media (max-width: 40rem) {
  table.pairings, table.pairings tbody { display: block; }
  table.pairings thead { display: none; }
  table.pairings tr { display: grid; grid-template-columns: 2.5rem 1fr auto; grid-template-areas: "board first result" "board second game"; padding: .35rem 0; border-bottom: 1px solid var(--line); }
  table.pairings td { border: 0; padding: .1rem .3rem; }
  .pairings td.board { grid-area: board; }
  .pairings td.first { grid-area: first; }
  .pairings td.second { grid-area: second; }
  .pairings td.result { grid-area: result; text-align: right; }
  .pairings td.game { grid-area: game; text-align: right; }
  .pairings td.name::before { content: attr(data-label) ": "; color: var(--muted); font-weight: 400; font-size: .85rem; }
}
.bracket { display: flex; gap: 1rem; align-items: stretch; overflow-x: auto; padding-bottom: .5rem; }
.bracket .column { display: flex; flex-direction: column; min-width: 12rem; flex: 1 1 0; }
.bracket .matches { display: flex; flex-direction: column; justify-content: space-around; gap: .6rem; flex: 1; }
.bracket h3 { margin: 0 0 .2rem; font-size: .95rem; }
.match { border: 1px solid var(--line); border-radius: .35rem; padding: .3rem .45rem; background: var(--soft); font-size: .92rem; }
.match ol { list-style: none; margin: 0; padding: 0; }
.match li { display: flex; justify-content: space-between; gap: .5rem; }
.match li + li { border-top: 1px solid var(--line); }
.match .who { overflow-wrap: anywhere; }
.match .score { font-variant-numeric: tabular-nums; flex: none; white-space: nowrap; }
.match a { font-size: .8rem; }
.champion { font-size: 1.1rem; }
@media (max-width: 40rem) {
  .bracket { flex-direction: column; overflow-x: visible; }
  .bracket .column { min-width: 0; }
}
`;

export function leaguePage(d: LeaguePageData): Page {
  const l = d.league;
  const api = path('leagues', l.id);
  const rounds = l.plannedRounds !== null ? `${l.roundCount} of ${l.plannedRounds}` : String(l.roundCount);
  const body = html`<h1>${l.name}</h1>
<ul class="facts">
<li>${d.gameTitle ?? l.gameType}</li>
<li>${FORMATS[l.format]}</li>
<li><span class="tag" data-status="${l.status}">${l.status}</span></li>
<li>${l.entrantCount} ${l.entrantCount === 1 ? 'entrant' : 'entrants'}</li>
<li>Rounds: ${rounds}</li>
${l.settings.rated ? html`<li>Rated</li>` : ''}
</ul>
${l.description ? html`<p class="description">${l.description}</p>` : ''}
${l.organisers.length ? html`<p class="muted">Organised by ${l.organisers.map((o, i) => html`${i ? ', ' : ''}${o.player.name}`)}.</p>` : ''}
${bracketSection(d)}
${standingsSection(d)}
${entrantsSection(d)}
${roundsSection(d)}
<footer class="muted"><p>The same data as JSON: <a href="${api}">league</a>, <a href="${api}/standings">standings</a> (<a href="${api}/standings?format=csv">CSV</a>), <a href="${api}/rounds">rounds</a>.</p></footer>`;
  return layout({ title: `${l.name} – Herald`, body, css: LEAGUE_CSS });
}
