// Runs before app.js, as a classic script (the page's policy allows no inline script):
// when app.js cannot load, or the browser cannot run modules, the loading line says so.
(function () {
  'use strict';
  function say(text, failed) {
    var app = document.getElementById('app');
    if (!app || !app.firstElementChild) return;
    if (failed) app.setAttribute('data-failed', failed);
    app.firstElementChild.textContent = text;
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
        say('页面脚本 app.js 没有加载成功。· The page script app.js could not be loaded.', 'app.js');
      }
    },
    true,
  );
})();
