// Runs before app.js (a deferred classic script, first in index.html: deferred scripts and
// the app.js module run in the page's order, so this one always runs first), while app.js's
// chunks are still on their way: it starts the fetches the first view will make, so that
// they do not wait for the page's code to run first. (Async, it usually ran first, but
// nothing made it: whenever app.js had been ready before it, the lesson's data would have
// waited for app.js to run.)
//   - the strings of the language the page will show (a chunk named by the build in this
//     script's data-strings-<lang> attributes, scripts/lib/page-bundle.mjs), as a
//     modulepreload: the page's import of it then finds it loaded;
//   - for a lesson's address (#/lesson/ID...), the lesson index, the build's runs, the
//     lesson's file and its run: window.__idemlabEarly maps each URL to a promise of {bytes}
//     or {error}, which web/src/lessons.js takes as its own fetch's answer. The build names each
//     lesson's file on this script's tag (data-lessons="ID=NAME;...": lessons/NAME.json,
//     its run lessons/NAME.run.json; scripts/lib/lesson-runs.mjs), so both start beside
//     the index instead of after it; a lesson not named there is found in the index.
// A guess here that is wrong costs a fetch and nothing else: web/src/lessons.js takes an
// early answer only for the URL it asks for, validates it as any other, and fetches what
// is not here. The language is picked as web/src/i18n.js picks it (?lang=, the saved
// choice, the browser's language). Nothing here runs in the offline copy (it has no
// network to start), which leaves this script out.
(function () {
  'use strict';
  var me = document.currentScript;
  if (!window.fetch || !window.Promise || !/^https?:$/.test(window.location.protocol)) return;

  // zh, zh-cn, ZH-CN, zh-Hant-TW give zh-CN; en, EN, en-US give en; another language null.
  function langOfTag(tag) {
    var m = typeof tag === 'string' ? /^([a-z]+)(?:[-_]|$)/i.exec(tag) : null;
    var primary = m ? m[1].toLowerCase() : null;
    return primary === 'zh' ? 'zh-CN' : primary === 'en' ? 'en' : null;
  }

  function firstLang() {
    var asked = null;
    try {
      asked = langOfTag(new URLSearchParams(window.location.search).get('lang'));
    } catch (_) {
      /* no query */
    }
    if (asked) return asked;
    try {
      var saved = window.localStorage.getItem('idemlab.lang');
      if (saved === 'zh-CN' || saved === 'en') return saved;
    } catch (_) {
      /* no storage */
    }
    var nav = window.navigator;
    var first = (nav.languages && nav.languages[0]) || nav.language;
    if (typeof first !== 'string' || !first) return 'zh-CN';
    return langOfTag(first) === 'zh-CN' ? 'zh-CN' : 'en';
  }

  var strings = me && me.getAttribute('data-strings-' + firstLang());
  if (strings && /^chunks\/[A-Za-z0-9._-]+\.js$/.test(strings)) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = strings;
    document.head.appendChild(link);
  }

  var m = /^#\/lesson\/([^/?#]+)/.exec(window.location.hash || '');
  if (!m) return;
  var id;
  try {
    id = decodeURIComponent(m[1]);
  } catch (_) {
    return;
  }
  var early = (window.__idemlabEarly = {});
  function get(url) {
    if (Object.prototype.hasOwnProperty.call(early, url)) return early[url];
    early[url] = fetch(url, { cache: 'no-cache' }).then(
      function (res) {
        if (!res.ok) return { error: { kind: 'http', status: res.status } };
        // Bytes: web/src/lessons.js decodes them as it decodes its own fetches (UTF-8 or an error).
        return res.arrayBuffer().then(
          function (bytes) {
            return { bytes: bytes };
          },
          function (e) {
            return { error: { kind: 'fetch', reason: (e && e.message) || String(e) } };
          }
        );
      },
      function (e) {
        return { error: { kind: 'fetch', reason: (e && e.message) || String(e) } };
      }
    );
    return early[url];
  }
  function json(got) {
    try {
      return got.bytes ? JSON.parse(new TextDecoder().decode(got.bytes)) : null;
    } catch (_) {
      return null;
    }
  }
  var FILE = /^lessons\/[A-Za-z0-9][A-Za-z0-9._-]*\.json$/;
  var NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
  var named = ((me && me.getAttribute('data-lessons')) || '').split(';');
  for (var n = 0; n < named.length; n++) {
    var pair = named[n].split('=');
    if (pair.length === 2 && pair[0] === id && NAME.test(pair[1])) {
      get('lessons/' + pair[1] + '.json');
      get('lessons/' + pair[1] + '.run.json');
      break;
    }
  }
  var runs = get('lessons/runs.json');
  get('lessons/index.json').then(function (got) {
    var index = json(got);
    var list = index && index.lessons && index.lessons.length ? index.lessons : [];
    for (var i = 0; i < list.length; i++) {
      var e = list[i];
      if (e && e.ok === true && e.id === id && typeof e.file === 'string' && FILE.test(e.file)) {
        var file = e.file;
        get(file);
        runs.then(function (r) {
          var all = json(r);
          var run = all && all.runs && all.runs[file];
          if (run && typeof run.file === 'string' && FILE.test(run.file)) get(run.file);
        });
        return;
      }
    }
  });
})();
