// Bundles the page (web/src/main.js) twice with esbuild, and names the served bundle's
// files in SITE/index.html:
//   - for the served site, SITE/app.js (an ES module) and SITE/chunks/: the code a lesson
//     does not need to open and step (the sandbox, the side-by-side view, the lesson list,
//     import, a language's strings...) is split off where main.js imports it dynamically,
//     and shared code goes into chunks that app.js imports. Every chunk app.js imports
//     statically gets a <link rel="modulepreload"> in index.html, so the browser fetches
//     them beside app.js instead of after it (one round trip fewer), and web/early.js's tag
//     names each language's strings chunk, which it preloads for the language shown;
//   - for the offline copy (scripts/lib/offline.mjs), OFFLINE_JS: one classic script with
//     every part inside (a page opened from file:// cannot fetch chunks), its dynamic
//     imports resolved in place.
// With --analyze, prints what the served critical path holds, largest module first.
// Usage: node scripts/lib/page-bundle.mjs SITE OFFLINE_JS [--analyze]

import { build, analyzeMetafile } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const [site, offlineJs, flag] = process.argv.slice(2);
if (!site || !offlineJs) {
  console.error('usage: node scripts/lib/page-bundle.mjs SITE OFFLINE_JS [--analyze]');
  process.exit(2);
}
// charset utf8: the Chinese strings as they are, not as \uXXXX escapes (the zh-CN strings'
// file is 25 KB instead of 40 KB, 9.4 KB gzip instead of 10.1). Modules are always read as
// UTF-8, and the offline copy is a UTF-8 page.
const common = { bundle: true, minify: true, target: 'es2020', charset: 'utf8', logLevel: 'warning' };

const served = await build({
  ...common,
  entryPoints: { app: 'web/src/main.js' },
  format: 'esm',
  splitting: true,
  outdir: site,
  // Chunk names carry their content's hash: a page left open across an update asks for the
  // chunks of the version it runs, never a newer file under an old name.
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
});
await build({ ...common, entryPoints: ['web/src/main.js'], format: 'iife', outfile: offlineJs });

// The chunks app.js imports statically, and theirs, in the order the browser meets them
// (the metafile names outputs by their path from here, as SITE does).
const outputs = served.metafile.outputs;
const rel = (p) => relative(site, p).split(sep).join('/');
const app = Object.keys(outputs).find((k) => rel(k) === 'app.js');
if (!app) throw new Error(`page-bundle: esbuild wrote no ${join(site, 'app.js')}`);
const preload = [];
const visit = (k) => {
  for (const imp of outputs[k].imports) {
    if (imp.kind !== 'import-statement' || preload.includes(imp.path)) continue;
    preload.push(imp.path);
    visit(imp.path);
  }
};
visit(app);

const indexPath = join(site, 'index.html');
const html = readFileSync(indexPath, 'utf8');
const tag = '<script type="module" src="app.js"></script>';
if (html.split(tag).length !== 2) throw new Error(`index.html: expected one ${tag}`);
const links = preload.map((p) => `<link rel="modulepreload" href="${rel(p)}">\n  `).join('');
// Each language's strings chunk, named on web/early.js's tag (data-strings-<lang>): it
// preloads the one the page will show before app.js has loaded and asked for it.
const earlyTag = '<script src="early.js" async></script>';
if (html.split(earlyTag).length !== 2) throw new Error(`index.html: expected one ${earlyTag}`);
const strings = Object.keys(outputs)
  .map((k) => [k, /^web\/src\/i18n\/([A-Za-z-]+)\.json$/.exec(outputs[k].entryPoint || '')])
  .filter(([, m]) => m)
  .map(([k, m]) => ` data-strings-${m[1]}="${rel(k)}"`)
  .join('');
if (!strings) throw new Error('page-bundle: no strings chunk (web/src/i18n/*.json) in the served bundle');
writeFileSync(indexPath, html.replace(tag, () => `${links}${tag}`).replace(earlyTag, () => `<script src="early.js" async${strings}></script>`));

if (flag === '--analyze') {
  const critical = new Set([app, ...preload]);
  const only = { inputs: served.metafile.inputs, outputs: Object.fromEntries(Object.entries(outputs).filter(([k]) => critical.has(k))) };
  console.log(await analyzeMetafile(only));
}
console.log(`app.js and ${Object.keys(outputs).length - 1} chunks (${preload.length} preloaded with it); the offline copy's script ${offlineJs}`);
