// What the spectator's and the player's page scripts share, sent before
// each of them in the same inline script (one CSP hash per page).
// - statusText: whose turn, in words (the same words the server renders).
// - pacer: keeps a page's refreshes within the server's rate limit. A page
//   makes a few reads per refresh and a fast game (two bots) makes many
//   versions a second; an anonymous spectator has 120 requests a minute per
//   address. The pacer reads the RateLimit-Remaining and RateLimit-Reset
//   headers of each answer: while more than half the window's budget is
//   left a refresh goes at once, below that the rest is spread evenly over
//   what is left of the window, and after a 429 the page waits Retry-After.
//   Refreshes asked for meanwhile fold into one (the latest version).
// - showLog, showPicture: put a log's lines and a board picture into the page
//   (text only, never markup; the previous picture's object URL is released).
'use strict';
var Herald = (function () {
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

  /**
   * Runs `work` (async) when asked, one at a time, no sooner than the rate
   * limit allows; `readsPerRun`: requests one run makes. `onWait(seconds)`
   * is told when a run waits for the limit (0: no longer waiting).
   */
  function pacer(work, readsPerRun, onWait) {
    var notBefore = 0;
    var busy = false;
    var again = false;
    var timer = null;
    var limit = null;

    function note(res) {
      var remaining = Number(res.headers.get('ratelimit-remaining'));
      var reset = Number(res.headers.get('ratelimit-reset'));
      var max = Number(res.headers.get('ratelimit-limit'));
      if (res.status === 429) {
        var after = Number(res.headers.get('retry-after')) || reset || 5;
        notBefore = Math.max(notBefore, Date.now() + after * 1000);
        return;
      }
      if (!res.headers.has('ratelimit-remaining') || !(reset > 0)) return;
      limit = max;
      var runsLeft = Math.floor(remaining / readsPerRun);
      if (remaining * 2 > max) return;
      var gap = runsLeft > 0 ? (reset * 1000) / runsLeft : reset * 1000;
      notBefore = Math.max(notBefore, Date.now() + gap);
    }

    async function run() {
      timer = null;
      var wait = notBefore - Date.now();
      if (wait > 0) {
        onWait(Math.ceil(wait / 1000));
        timer = setTimeout(function () { void run(); }, wait);
        return;
      }
      onWait(0);
      busy = true;
      try {
        do {
          again = false;
          await work();
        } while (again && notBefore <= Date.now());
      } finally {
        busy = false;
      }
      if (again) ask();
    }

    function ask() {
      if (busy) { again = true; return; }
      if (timer === null) void run();
    }

    /** fetch, with the answer's rate-limit headers noted. */
    async function fetchPaced(url, init) {
      var res = await fetch(url, init);
      note(res);
      return res;
    }

    return { ask: ask, fetch: fetchPaced, limit: function () { return limit; } };
  }

  /** The log's lines as the list items of `ol`, scrolled to the newest. */
  function showLog(ol, lines) {
    ol.replaceChildren.apply(ol, lines.map(function (line) {
      var li = document.createElement('li');
      li.textContent = line;
      return li;
    }));
    ol.scrollTop = ol.scrollHeight;
  }

  var pictureUrls = new WeakMap();
  /** A picture (a Blob) as the source of `img`; the URL it replaces is released. */
  function showPicture(img, blob) {
    var old = pictureUrls.get(img);
    if (old) URL.revokeObjectURL(old);
    var url = URL.createObjectURL(blob);
    pictureUrls.set(img, url);
    img.src = url;
  }

  return { statusText: statusText, pacer: pacer, showLog: showLog, showPicture: showPicture };
})();
