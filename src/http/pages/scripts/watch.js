// The spectator page, live (GET /watch/{gameId}; served inline, no build step).
// On each version from the game's event stream: the picture at that version,
// whose turn, and the spectator's log, from the same REST routes as any client.
// Only text goes into the page (textContent), never markup.
'use strict';
(function () {
  var root = document.getElementById('game');
  var id = root.dataset.game;
  var lang = root.dataset.lang;
  var base = '/games/' + encodeURIComponent(id);
  var shown = Number(root.dataset.version);
  var busy = false;
  var again = false;
  var pictureUrl = null;
  function $(x) { return document.getElementById(x); }

  function statusText(g) {
    function who(role) {
      var seat = g.seats.find(function (s) { return s.role === role; });
      return seat && seat.player ? role + ' (' + seat.player.name + ')' : role;
    }
    if (g.status === 'setup') return 'Waiting for players';
    if (g.status === 'active') return g.activeRoles.length === 0 ? 'In play' : 'To play: ' + g.activeRoles.map(who).join(', ');
    if (g.status === 'finished') {
      if (g.result && g.result.winner) return 'Finished: ' + who(g.result.winner) + ' won (' + g.result.reason + ')';
      return 'Finished: no winner' + (g.result ? ' (' + g.result.reason + ')' : '');
    }
    return 'Abandoned';
  }

  async function getJson(url) {
    var res = await fetch(url, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(url + ': ' + res.status);
    return res.json();
  }

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      do {
        again = false;
        var both = await Promise.all([getJson(base), getJson(base + '/log?lang=' + encodeURIComponent(lang))]);
        var g = both[0];
        var log = both[1];
        // The current picture (earlier versions are only for games that are over); it says which version it drew.
        if (log.version !== g.version) { again = true; continue; }
        var blob = null;
        if (g.status !== 'setup') {
          var pic = await fetch(base + '/board.svg?lang=' + encodeURIComponent(lang), { cache: 'no-store' });
          if (!pic.ok) throw new Error('the picture: ' + pic.status);
          if (pic.headers.get('x-game-version') !== String(g.version)) { again = true; continue; }
          blob = await pic.blob();
        }
        if (g.version >= shown) {
          shown = g.version;
          if (blob) {
            if (pictureUrl) URL.revokeObjectURL(pictureUrl);
            pictureUrl = URL.createObjectURL(blob);
            $('board').src = pictureUrl;
            $('board').dataset.version = String(g.version);
            $('board').hidden = false;
            if ($('board-none')) $('board-none').remove();
          }
          $('status').textContent = statusText(g);
          $('version').textContent = String(g.version);
          root.dataset.version = String(g.version);
          root.dataset.status = g.status;
          var ol = $('log');
          ol.replaceChildren.apply(ol, log.lines.map(function (line) {
            var li = document.createElement('li');
            li.textContent = line;
            return li;
          }));
          ol.scrollTop = ol.scrollHeight;
        }
      } while (again);
    } catch (err) {
      $('live').textContent = '(could not refresh: ' + err.message + ')';
      setTimeout(function () { void refresh(); }, 3000);
    } finally {
      busy = false;
    }
  }

  if (root.dataset.status === 'finished' || root.dataset.status === 'abandoned') return;
  // EventSource reconnects by itself and resumes from the last id it saw.
  var events = new EventSource(base + '/events?lastEventId=' + shown);
  events.addEventListener('open', function () { $('live').textContent = '(live)'; });
  events.addEventListener('error', function () { $('live').textContent = '(reconnecting…)'; });
  events.addEventListener('version', function () { void refresh(); });
  events.addEventListener('end', function () {
    events.close();
    $('live').textContent = '';
    void refresh();
  });
})();
