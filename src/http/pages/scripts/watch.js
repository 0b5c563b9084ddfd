// The spectator page, live (GET /watch/{gameId}; served inline, no build step).
// On each version from the game's event stream: the picture at that version,
// whose turn, and the spectator's log, from the same REST routes as any client,
// paced to stay within the rate limit (Herald.pacer in common.js).
// Only text goes into the page (textContent), never markup.
'use strict';
(function () {
  var root = document.getElementById('game');
  var id = root.dataset.game;
  var lang = root.dataset.lang;
  var base = '/games/' + encodeURIComponent(id);
  var shown = Number(root.dataset.version);
  function $(x) { return document.getElementById(x); }
  var pace = Herald.pacer(update, 3, function (seconds) {
    if (seconds > 0) $('live').textContent = '(many moves: next update in ' + seconds + ' s)';
    else if (events && events.readyState === 1) $('live').textContent = '(live)';
  });
  var events = null;

  async function getJson(url) {
    var res = await pace.fetch(url, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(url + ': ' + res.status);
    return res.json();
  }

  /**
   * One refresh: the game, the log and the picture, all of one version. When
   * a move lands between the reads, the refresh is asked for again through
   * the pacer rather than looped here: a retry is reads like any other, and
   * in a fast game unpaced retries were what ran the budget out (a 429).
   */
  async function update() {
    try {
      var both = await Promise.all([getJson(base), getJson(base + '/log?lang=' + encodeURIComponent(lang))]);
      var g = both[0];
      var log = both[1];
      // A move landed between the two reads: again, paced.
      if (log.version !== g.version) return pace.ask();
      // The current picture (earlier versions are only for games that are over); it says which version it drew.
      var blob = null;
      // No #board: the game type has no pictures (the page says so); the log alone.
      if (g.status !== 'setup' && $('board')) {
        var pic = await pace.fetch(base + '/board.svg?lang=' + encodeURIComponent(lang), { cache: 'no-store' });
        if (!pic.ok) throw new Error('the picture: ' + pic.status);
        if (pic.headers.get('x-game-version') !== String(g.version)) return pace.ask();
        blob = await pic.blob();
      }
      if (g.version >= shown) show(g, log, blob);
    } catch (err) {
      $('live').textContent = '(could not refresh: ' + err.message + ')';
      setTimeout(pace.ask, 3000);
    }
  }

  function show(g, log, blob) {
    shown = g.version;
    if (blob) {
      Herald.showPicture($('board'), blob);
      $('board').dataset.version = String(g.version);
      $('board').hidden = false;
      if ($('board-none')) $('board-none').remove();
    }
    $('status').textContent = Herald.statusText(g);
    $('version').textContent = String(g.version);
    root.dataset.version = String(g.version);
    root.dataset.status = g.status;
    Herald.showLog($('log'), log.lines);
  }

  if (root.dataset.status === 'finished' || root.dataset.status === 'abandoned') return;
  // EventSource reconnects by itself and resumes from the last id it saw.
  events = new EventSource(base + '/events?lastEventId=' + shown);
  events.addEventListener('open', function () { $('live').textContent = '(live)'; });
  events.addEventListener('error', function () { $('live').textContent = '(reconnecting…)'; });
  events.addEventListener('version', pace.ask);
  events.addEventListener('end', function () {
    events.close();
    $('live').textContent = '';
    pace.ask();
  });
})();
