// Runs before app.js, as a classic script (the page's policy allows no inline script):
// when app.js cannot load, or the browser cannot run modules, the loading line says so.
// Opened from a file (file://), browsers refuse to run app.js: the page then says what to
// do instead (serve the folder with one command, or open the one-file offline copy), in
// both languages, the learner's first.
(function () {
  'use strict';
  function say(text, failed) {
    var app = document.getElementById('app');
    if (!app || !app.firstElementChild) return;
    if (failed) app.setAttribute('data-failed', failed);
    app.firstElementChild.textContent = text;
  }
  function el(tag, attrs, parts) {
    var e = document.createElement(tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    for (var i = 0; i < (parts || []).length; i++) {
      var p = parts[i];
      e.appendChild(typeof p === 'string' ? document.createTextNode(p) : p);
    }
    return e;
  }
  function folder() {
    var path = window.location.pathname;
    try {
      path = decodeURIComponent(path);
    } catch (_) {
      /* keep it encoded */
    }
    path = path.replace(/\/[^/]*$/, '') || '/';
    // file:///C:/site/ on Windows: the drive letter without the leading slash.
    if (/^\/[A-Za-z]:/.test(path)) path = path.slice(1);
    return path;
  }
  function firstLang() {
    try {
      var saved = window.localStorage.getItem('idemlab.lang');
      if (saved === 'en' || saved === 'zh-CN') return saved;
    } catch (_) {
      /* no storage: the default */
    }
    return 'zh-CN';
  }
  var TEXT = {
    'zh-CN': {
      title: '这个页面是作为文件打开的（file://），浏览器不会在这里运行它的脚本。',
      choose: '有两种办法：',
      serve: '在这个文件夹里启动一个本地服务器（需要 Python 3），然后在浏览器里打开 ',
      serveCmd: '在终端里运行这一行：',
      offline: '或者直接打开离线版 ',
      offlineTail: '：它是同一个文件夹里的一个文件，包含全部课程、沙盒和模拟引擎，双击就能用，不需要服务器。',
    },
    en: {
      title: 'This page was opened as a file (file://), and browsers do not run its scripts from there.',
      choose: 'Two ways to open it:',
      serve: 'Serve this folder with a local server (needs Python 3), then open ',
      serveCmd: 'Run this one line in a terminal:',
      offline: 'Or open the offline copy ',
      offlineTail: ': one file in the same folder with every lesson, the sandbox and the engine; it opens with a double click, no server needed.',
    },
  };
  function fileHelp() {
    var app = document.getElementById('app');
    if (!app) return;
    var cmd = 'python3 -m http.server 8000 --directory "' + folder() + '"';
    var url = 'http://127.0.0.1:8000/';
    var order = firstLang() === 'en' ? ['en', 'zh-CN'] : ['zh-CN', 'en'];
    var box = el('article', { class: 'card file-help', 'data-testid': 'file-help', role: 'alert' }, []);
    for (var i = 0; i < order.length; i++) {
      var s = TEXT[order[i]];
      box.appendChild(
        el('section', { lang: order[i] }, [
          el('h2', { class: 'card-title' }, [s.title]),
          el('p', {}, [s.choose]),
          el('ol', {}, [
            el('li', {}, [s.serve, el('a', { href: url }, [url]), '. ', s.serveCmd, el('br'), el('code', { 'data-testid': 'file-help-command' }, [cmd])]),
            el('li', {}, [s.offline, el('a', { href: 'idemlab-offline.html', 'data-testid': 'file-help-offline' }, ['idemlab-offline.html']), s.offlineTail]),
          ]),
        ]),
      );
    }
    app.setAttribute('data-failed', 'file');
    while (app.firstChild) app.removeChild(app.firstChild);
    app.appendChild(box);
  }
  if (!('noModule' in HTMLScriptElement.prototype)) {
    document.addEventListener('DOMContentLoaded', function () {
      say('这个浏览器太旧，无法运行 idemlab。· This browser is too old to run idemlab.');
    });
    return;
  }
  // A script's load error does not bubble: listen in the capture phase.
  window.addEventListener(
    'error',
    function (ev) {
      var el = ev.target;
      if (el && el.tagName === 'SCRIPT' && el.type === 'module' && /(^|\/)app\.js$/.test(el.getAttribute('src') || '')) {
        if (window.location.protocol === 'file:') fileHelp();
        else say('页面脚本 app.js 没有加载成功。· The page script app.js could not be loaded.', 'app.js');
      }
    },
    true,
  );
})();
