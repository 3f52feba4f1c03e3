// Writes SITE/sw.js, the service worker that keeps the site working offline after a first
// visit (web/src/service-worker.js says how): the list of the site's files with their
// SHA-256 hashes (as Subresource Integrity values), then the worker's code. Every file in
// SITE is listed but sw.js itself, the offline copy (idemlab-offline.html holds the
// whole site again, for a download) and the code-mode module (engine/idemlab-code.js and
// .wasm, the engine with Lua: fetched on the first use of code mode, not precached for every
// visitor; a request for it goes to the network). Run it last, when SITE is complete.
// Usage: node scripts/lib/service-worker.mjs SITE

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const site = process.argv[2];
if (!site) {
  console.error('usage: node scripts/lib/service-worker.mjs SITE');
  process.exit(2);
}
const SKIP = new Set(['sw.js', 'idemlab-offline.html', 'engine/idemlab-code.js', 'engine/idemlab-code.wasm']);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

const files = {};
for (const full of walk(site).sort()) {
  const path = relative(site, full).split(sep).join('/');
  // Precompressed copies are for the host to serve in place of the file, never asked by name.
  if (SKIP.has(path) || /\.(br|gz)$/.test(path)) continue;
  files[path] = `sha256-${createHash('sha256').update(readFileSync(full)).digest('base64')}`;
}
const list = JSON.stringify(files);
const version = createHash('sha256').update(list).digest('hex').slice(0, 16);
const code = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../web/src/service-worker.js'), 'utf8');
writeFileSync(join(site, 'sw.js'), `const SITE = ${JSON.stringify({ version, files }, null, 1)};\n\n${code}`);
console.log(`sw.js: ${Object.keys(files).length} files, version ${version}`);
