// Writes SITE/idemlab-offline.html: the whole site in one file that works opened from
// file:// with no server and no network (web/src/bundled.js reads it back). From the built
// SITE (index.html, style.css, engine/, lessons/) and APP_JS, the page in one classic script
// (scripts/lib/page-bundle.mjs: the served app.js is a module that fetches chunks, which a
// page from file:// cannot):
//   - the stylesheet in a <style>, APP_JS as an inline script;
//   - every lesson file (and each one's run, computed at build time: lessons/*.run.json),
//     the lesson index and engine/worker.js as one JSON data block, the engine's wasm as a
//     base64 data block and the engine's JS glue as a text data block (data blocks are never
//     run: the glue and the wasm go to the engine's worker, never to the page's thread);
//   - its own Content Security Policy: the served page's policy allows scripts and styles
//     from 'self' only, which a file:// page cannot use (its origin is opaque) and which
//     would refuse the inline code; this one allows exactly this inline script and this
//     style by their SHA-256 hashes, the engine's compilation, a blob: worker (the engine's
//     worker, built from the page's own code) and nothing from anywhere.
// Usage: node scripts/lib/offline.mjs SITE APP_JS

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [site, appJs] = process.argv.slice(2);
if (!site || !appJs) {
  console.error('usage: node scripts/lib/offline.mjs SITE APP_JS');
  process.exit(2);
}
const read = (p) => readFileSync(join(site, p), 'utf8');
const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** JS to put between <script> and </script>: nothing in it may end or confuse the element. */
function inlineJs(name, text) {
  if (text.includes('<!--')) throw new Error(`${name}: contains "<!--", which an inline script cannot hold`);
  // "</script" can only be inside a string, regexp or comment, where "<\/" means the same.
  return text.replace(/<\/(script)/gi, '<\\/$1');
}

function inlineCss(text) {
  if (/<\/style/i.test(text)) throw new Error('style.css: contains "</style"');
  return text;
}

/** Replace exactly one match of `pattern` in `html`, or fail the build. */
function replaceOnce(html, pattern, by, what) {
  const found = html.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)) || [];
  if (found.length !== 1) throw new Error(`index.html: expected one ${what}, found ${found.length}`);
  return html.replace(pattern, () => by);
}

const files = {};
const lessonFiles = readdirSync(join(site, 'lessons')).filter((f) => f.endsWith('.json')).sort();
for (const f of lessonFiles) files[`lessons/${f}`] = read(`lessons/${f}`);
files['engine/worker.js'] = read('engine/worker.js');

const css = inlineCss(read('style.css'));
const glue = inlineJs('engine/idemlab.js', read('engine/idemlab.js'));
const app = inlineJs(appJs, readFileSync(appJs, 'utf8'));
const wasm = readFileSync(join(site, 'engine/idemlab.wasm')).toString('base64');
const filesJson = JSON.stringify(files).replace(/</g, '\\u003c');

const csp = [
  "default-src 'none'",
  `script-src ${sha(app)} 'wasm-unsafe-eval'`,
  `style-src ${sha(css)}`,
  'img-src data:',
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

let html = read('index.html');
html = replaceOnce(
  html,
  /<!-- Everything comes from this folder[\s\S]*?-->\s*<meta http-equiv="Content-Security-Policy" content="[^"]*">/,
  `<!-- The offline copy: everything is in this file. Its policy allows this inline script and
       this style by their hashes, the engine's compilation and a blob: worker; nothing else. -->
  <meta http-equiv="Content-Security-Policy" content="${csp}">`,
  'policy meta and its comment',
);
html = replaceOnce(html, /<link rel="stylesheet" href="style.css">/, '<style>@@CSS@@</style>', 'stylesheet link');
html = html.replace(/\s*<!-- The engine is not on the way to the first view[\s\S]*?-->/, '');
html = html.replace(/\s*<link rel="(preload|modulepreload)"[^>]*>/g, '');
html = html.replace(/\s*<!-- boot\.js says so[^>]*-->/, '');
// No early fetches in a file with no network (web/early.js).
html = html.replace(/\s*<!-- early\.js starts[^>]*-->/, '');
html = replaceOnce(html, /<script src="early.js" defer[^>]*><\/script>/, '', 'early.js script');
html = replaceOnce(html, /<script src="boot.js" defer><\/script>/, '', 'boot.js script');
html = replaceOnce(html, /<script type="module" src="app.js"><\/script>/, '@@SCRIPTS@@', 'app.js script');
// The markup itself (not what goes in its elements) loads nothing.
const loads = html.match(/(src|href)="(?!data:)[^"]*"/);
if (loads) throw new Error(`idemlab-offline.html would still load a file: ${loads[0]}`);
const scripts = [
  "<!-- The offline copy (scripts/lib/offline.mjs): the site's files and the engine (its glue and wasm, for its worker) as data blocks, then the page. -->",
  `<script type="application/json" id="idemlab-files">${filesJson}</script>`,
  `<script type="application/octet-stream" id="idemlab-wasm">${wasm}</script>`,
  `<script type="text/plain" id="idemlab-engine">${glue}</script>`,
  `<script>${app}</script>`,
].join('\n  ');
html = html.replace('@@CSS@@', () => css).replace('@@SCRIPTS@@', () => scripts);
writeFileSync(join(site, 'idemlab-offline.html'), html);
console.log(`idemlab-offline.html: ${Buffer.byteLength(html)} bytes (${lessonFiles.length} lesson files, wasm ${wasm.length} base64 characters)`);
