// A player's page (GET /play/{gameId}#key=<key>[&role=<role>]; served inline,
// no build step). The key comes from the URL fragment, which browsers never
// send to a server (so it is in no access log and no Referer), is kept in this
// tab's sessionStorage, and is removed from the address bar at once. Every
// request sends it as `Authorization: Bearer`, the live stream included (read
// with fetch, since EventSource cannot send headers, so the key never goes
// into a URL). Moves are the labelled legal actions as buttons, submitted by
// actionId through POST /games/{id}/actions, the API's one write path.
// Only text goes into the page (textContent), never markup.
'use strict';
(function () {
  var root = document.getElementById('game');
  var id = root.dataset.game;
  var lang = root.dataset.lang;
  var base = '/games/' + encodeURIComponent(id);
  var store = 'herald-key:' + id;
  var params = new URLSearchParams(location.hash.slice(1));
  var key = params.get('key') || sessionStorage.getItem(store) || '';
  var role = params.get('role') || sessionStorage.getItem(store + ':role') || '';
  var last = null;
  var over = false;
  // True once the event stream has been started (by the first refresh that showed the game).
  var streaming = false;
  var gameTitle = null;
  // False once the server says this game type has no pictures (problem reason no_pictures).
  var pictures = true;
  // A refused move's reason, shown once the page has been refreshed after it.
  var refused = '';
  function $(x) { return document.getElementById(x); }
  var pace = Herald.pacer(update, 4, function (seconds) {
    if (seconds > 0) $('live').textContent = '(many moves: next update in ' + seconds + ' s)';
    else if ($('live').textContent.indexOf('(many moves') === 0) $('live').textContent = '(live)';
  });
  var refresh = pace.ask;

  if (location.hash) history.replaceState(null, '', location.pathname + location.search);

  function showError(text) {
    $('error').textContent = text;
    $('error').hidden = text === '';
  }

  function headers(more) {
    var h = { authorization: 'Bearer ' + key, accept: 'application/json' };
    for (var k in more) h[k] = more[k];
    return h;
  }

  /** Whether a 404 answer says the game type has no pictures (rather than no such game). */
  async function noPictures(res) {
    try {
      return (await res.clone().json()).reason === 'no_pictures';
    } catch (e) {
      return false;
    }
  }

  /** A problem+json answer as a sentence. */
  async function problemText(res) {
    try {
      var p = await res.json();
      return (p.title || 'Error') + ': ' + (p.detail || '') + (p.code ? ' (' + p.code + ')' : '');
    } catch (e) {
      return 'The server answered ' + res.status + '.';
    }
  }

  async function getJson(url) {
    var res = await pace.fetch(url, { headers: headers({}) });
    if (!res.ok) {
      var err = new Error(await problemText(res));
      err.status = res.status;
      throw err;
    }
    return res.json();
  }

  function roleQuery() { return role ? '&role=' + encodeURIComponent(role) : ''; }

  async function submit(actionId, version) {
    for (var b of $('choices').querySelectorAll('button')) b.disabled = true;
    try {
      var res = await fetch(base + '/actions', {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify(Object.assign({ actionId: actionId, expectedVersion: version }, role ? { role: role } : {})),
      });
      refused = res.ok ? '' : await problemText(res);
    } catch (err) {
      refused = 'The move was not sent: ' + err.message;
    }
    refresh();
  }

  /** One refresh: the game, your moves, the log and the picture, all of one version. */
  async function update() {
    try {
      var g = await getJson(base);
      var a = g.status === 'active' ? await getJson(base + '/actions?lang=' + encodeURIComponent(lang) + roleQuery()) : null;
      // A move landed between the two reads: again, through the pacer (see
      // watch.js: unpaced retries in a fast game ran the budget out).
      if (a && a.version !== g.version) return pace.ask();
      if (a && !role) role = a.role;
      var log = await getJson(base + '/log?lang=' + encodeURIComponent(lang) + roleQuery());
      if (!role && log.role) role = log.role;
      // The current picture (an earlier version is only for games that are over); it says which version it drew.
      if (pictures) {
        var pic = await pace.fetch(base + '/board.svg?lang=' + encodeURIComponent(lang) + roleQuery(), { headers: headers({}), cache: 'no-store' });
        if (pic.status === 404 && (await noPictures(pic))) {
          // A game type without pictures: the log alone, and no more asking.
          pictures = false;
          $('board').parentNode.hidden = true;
        } else {
          if (!pic.ok) throw new Error(await problemText(pic));
          var blob = await pic.blob();
          if (pic.headers.get('x-game-version') !== String(g.version)) return pace.ask();
          Herald.showPicture($('board'), blob);
        }
      }

      if (gameTitle === null) {
        var types = await getJson('/game-types');
        var type = types.find(function (x) { return x.id === g.gameType; });
        gameTitle = type ? type.title : g.gameType;
      }
      $('title').textContent = gameTitle + ' – ' + g.scenario;
      // The tab says when it is your move.
      document.title = (a && a.active ? '● ' : '') + gameTitle + ' – Herald';
      $('status').textContent = Herald.statusText(g);
      $('seat').textContent = role ? 'your seat: ' + role : 'spectator';
      Herald.showLog($('log'), log.lines);

      var box = $('choices');
      var buttons = [];
      // The same moves at the same version (a refresh asked for by the event
      // of a version this page already shows): the buttons stay as they are.
      // Replacing them under a click that is half done (pressed on one
      // button, released on its copy) lost the click without a word.
      var shown = a && a.active ? a.version + ':' + a.choices.map(function (c) { return c.id; }).join(',') : '';
      var keep = shown !== '' && shown === box.dataset.shown && !box.querySelector('button:disabled');
      box.dataset.shown = shown;
      if (keep) {
        buttons = null;
      } else if (a && a.active) {
        var version = a.version;
        buttons = a.choices.map(function (c) {
          var b = document.createElement('button');
          b.type = 'button';
          b.textContent = c.label;
          b.dataset.action = c.id;
          b.addEventListener('click', function () { void submit(c.id, version); });
          return b;
        });
        $('movesTitle').textContent = 'Your moves';
      } else {
        $('movesTitle').textContent = g.status === 'active' ? 'Waiting for the other side' : 'No moves';
      }
      if (buttons) box.replaceChildren.apply(box, buttons);
      $('version').textContent = String(g.version);
      // Last: a reader (the browser test) that sees this version sees its moves too.
      root.dataset.version = String(g.version);
      root.dataset.status = g.status;
      root.dataset.active = a && a.active ? 'true' : 'false';
      over = g.status === 'finished' || g.status === 'abandoned';
      $('play').hidden = false;
      showError(refused);
      refused = '';
      // The event stream starts after the first refresh that showed the game,
      // whichever run that was: a first refresh that finds a move landed
      // between its reads ends early and asks again through the pacer.
      if (!streaming) {
        streaming = true;
        if (role) sessionStorage.setItem(store + ':role', role);
        void stream();
      }
    } catch (err) {
      showError(err.message);
      // A failed read (the network, a rate limit) is tried again rather than leaving a stale page.
      if (!over && (err.status === undefined || err.status === 429 || err.status >= 500)) setTimeout(refresh, 2000);
    }
  }

  function handle(block) {
    var event = 'message';
    var eventId = null;
    for (var line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('id:')) eventId = line.slice(3).trim();
    }
    if (eventId !== null && /^\d+$/.test(eventId)) last = Number(eventId);
    if (event === 'version') refresh();
    else if (event === 'end') { over = true; refresh(); }
    else if (event === 'problem') showError('The live stream stopped; reload the page.');
  }

  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }

  /** The game's event stream, read with fetch so the key goes in a header; resumes after a break. */
  async function stream() {
    while (!over) {
      try {
        var h = headers({ accept: 'text/event-stream' });
        if (last !== null) h['last-event-id'] = String(last);
        var res = await fetch(base + '/events' + (role ? '?role=' + encodeURIComponent(role) : ''), { headers: h });
        if (res.status === 204) return;
        if (!res.ok) {
          showError(await problemText(res));
          if (res.status === 401 || res.status === 403 || res.status === 404) return;
        } else {
          $('live').textContent = '(live)';
          var reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          var buf = '';
          for (;;) {
            var r = await reader.read();
            if (r.done) break;
            buf += r.value.replace(/\r\n?/g, '\n');
            var i;
            while ((i = buf.indexOf('\n\n')) >= 0) {
              handle(buf.slice(0, i));
              buf = buf.slice(i + 2);
            }
          }
        }
      } catch (err) { /* the connection broke: try again */ }
      if (over) break;
      $('live').textContent = '(reconnecting…)';
      await sleep(1000);
    }
    $('live').textContent = '';
  }

  function begin() {
    sessionStorage.setItem(store, key);
    if (role) sessionStorage.setItem(store + ':role', role);
    $('keyform').hidden = true;
    refresh();
  }

  $('usekey').addEventListener('click', function () {
    key = $('key').value.trim();
    $('key').value = '';
    if (key) begin();
  });
  if (key) begin();
  else $('keyform').hidden = false;
})();
