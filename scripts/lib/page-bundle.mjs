// Bundles the page (web/src/main.js) twice, and names the served bundle's files in
// SITE/index.html:
//   - for the served site, SITE/app.js (an ES module, built with Rollup and minified with
//     esbuild) and SITE/chunks/: the code a lesson does not need to open and step (the
//     sandbox, the side-by-side view, the lesson list, import, a language's strings...) is
//     split off where main.js imports it dynamically. Every module app.js loads anyway is
//     in app.js itself, the one file on a lesson's way (esbuild's splitting put each module
//     shared by app.js and a lazy part in a chunk of its own: app.js and ~8 small files); a
//     chunk that needs one of those imports it from app.js, so there is one instance of every
//     module (the page keeps state in modules). Any chunk app.js still imports statically
//     gets a <link rel="modulepreload"> in index.html, so the browser fetches it beside
//     app.js, and web/early.js's tag names each language's strings chunk, which it preloads
//     for the language shown;
//   - for the offline copy (scripts/lib/offline.mjs), OFFLINE_JS: one classic script with
//     every part inside (a page opened from file:// cannot fetch chunks), its dynamic
//     imports resolved in place, built with esbuild.
// With --analyze, prints what the served critical path holds, largest module first.
// Usage: node scripts/lib/page-bundle.mjs SITE OFFLINE_JS [--analyze]

import { build, transform } from 'esbuild';
import { rollup } from 'rollup';
import json from '@rollup/plugin-json';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const [site, offlineJs, flag] = process.argv.slice(2);
if (!site || !offlineJs) {
  console.error('usage: node scripts/lib/page-bundle.mjs SITE OFFLINE_JS [--analyze]');
  process.exit(2);
}
// charset utf8: the Chinese strings as they are, not as \uXXXX escapes (the zh-CN strings'
// file is 25 KB instead of 40 KB, 9.4 KB gzip instead of 10.1). Modules are always read as
// UTF-8, and the offline copy is a UTF-8 page.
const minifyOptions = { minify: true, target: 'es2020', charset: 'utf8', logLevel: 'warning' };

const bundle = await rollup({
  input: { app: 'web/src/main.js' },
  // fflate as the browser's import of it; each strings file (web/src/i18n/*.json) a module
  // whose default export is its object.
  plugins: [
    nodeResolve({ browser: true }),
    json({ preferConst: true, namedExports: false }),
    {
      // Each output file minified by esbuild as Rollup writes it: the file's hash in its name
      // is that of the minified code.
      name: 'esbuild-minify',
      async renderChunk(code) {
        return { code: (await transform(code, { ...minifyOptions, format: 'esm' })).code, map: null };
      },
    },
  ],
  onwarn(warning) {
    console.warn(`page-bundle: ${warning.message}`);
  },
});
const { output } = await bundle.write({
  dir: site,
  format: 'es',
  entryFileNames: '[name].js',
  // Chunk names carry their content's hash: a page left open across an update asks for the
  // chunks of the version it runs, never a newer file under an old name (base36: lower-case
  // letters and digits, tests/browser/split.spec.mjs reads them). A part is named after the
  // file main.js (or i18n.js) imports; code only parts share is a "chunk".
  chunkFileNames: (chunk) => (chunk.isDynamicEntry ? 'chunks/[name]-[hash].js' : 'chunks/chunk-[hash].js'),
  hashCharacters: 'base36',
  generatedCode: 'es2015',
});
await bundle.close();
await build({ ...minifyOptions, bundle: true, entryPoints: ['web/src/main.js'], format: 'iife', outfile: offlineJs });

// The chunks app.js imports statically, and theirs, in the order the browser meets them
// (Rollup names each file by its path in SITE).
const chunks = Object.fromEntries(output.filter((o) => o.type === 'chunk').map((o) => [o.fileName, o]));
const app = 'app.js';
if (!chunks[app]) throw new Error(`page-bundle: Rollup wrote no ${join(site, app)}`);
const preload = [];
const visit = (k) => {
  for (const imp of chunks[k].imports) {
    if (preload.includes(imp)) continue;
    preload.push(imp);
    visit(imp);
  }
};
visit(app);

const indexPath = join(site, 'index.html');
const html = readFileSync(indexPath, 'utf8');
const tag = '<script type="module" src="app.js"></script>';
if (html.split(tag).length !== 2) throw new Error(`index.html: expected one ${tag}`);
const links = preload.map((p) => `<link rel="modulepreload" href="${p}">\n  `).join('');
// Each language's strings chunk, named on web/early.js's tag (data-strings-<lang>): it
// preloads the one the page will show before app.js has loaded and asked for it.
const earlyTag = '<script src="early.js" defer></script>';
if (html.split(earlyTag).length !== 2) throw new Error(`index.html: expected one ${earlyTag}`);
const i18nDir = resolve('web/src/i18n');
const strings = Object.values(chunks)
  .map((c) => [c.fileName, c.isDynamicEntry && c.facadeModuleId && /^([A-Za-z-]+)\.json$/.exec(relative(i18nDir, c.facadeModuleId))])
  .filter(([, m]) => m)
  .map(([f, m]) => ` data-strings-${m[1]}="${f}"`)
  .join('');
if (!strings) throw new Error('page-bundle: no strings chunk (web/src/i18n/*.json) in the served bundle');
writeFileSync(indexPath, html.replace(tag, () => `${links}${tag}`).replace(earlyTag, () => `<script src="early.js" defer${strings}></script>`));

if (flag === '--analyze') {
  // Each module's share of the critical path, before minification (Rollup's rendered length).
  const rows = [app, ...preload].flatMap((f) => Object.entries(chunks[f].modules).map(([id, m]) => [f, relative('.', id).split(sep).join('/'), m.renderedLength]));
  rows.sort((a, b) => b[2] - a[2]);
  for (const [f, id, n] of rows) console.log(`${String(n).padStart(8)}  ${id}  (${f})`);
}
console.log(`app.js and ${Object.keys(chunks).length - 1} chunks (${preload.length} preloaded with it); the offline copy's script ${offlineJs}`);
