// Writes a brotli (FILE.br, quality 11) and a gzip (FILE.gz, level 9) copy beside every
// text or WebAssembly file of the built site, for a host that serves precompressed files
// (docs/hosting.md; scripts/lib/static-server.mjs does). A copy that would not be smaller
// than the file is not written. The service worker's list leaves the copies out
// (scripts/lib/service-worker.mjs): a browser asks for FILE and gets the copy's bytes
// decoded, so the hash of FILE is the one that counts.
// Brotli at quality 11 takes ~20 s for the engine on a busy 2-core machine, so each copy is
// also kept in CACHE under the SHA-256 of its file: an unchanged file costs nothing on the
// next build.
// usage: node scripts/lib/precompress.mjs SITE [CACHE]   (prints one summary line)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import zlib from 'node:zlib';

const [site, cache] = process.argv.slice(2);
if (!site) {
  console.error('usage: node scripts/lib/precompress.mjs SITE [CACHE]');
  process.exit(2);
}
if (cache) mkdirSync(cache, { recursive: true });

const used = new Set();

/** compress(data) from CACHE when a copy of these bytes is there; else computed and kept. */
function cached(data, suffix, compress) {
  if (!cache) return compress(data);
  const name = createHash('sha256').update(data).digest('hex') + suffix;
  used.add(name);
  const path = join(cache, name);
  if (existsSync(path)) return readFileSync(path);
  const out = compress(data);
  writeFileSync(`${path}.tmp`, out);
  renameSync(`${path}.tmp`, path);
  return out;
}
/** gzip -9 (Debian's gzip, ~0.1% smaller than node's zlib at level 9), or zlib's without it. */
function gzip9(data) {
  const out = spawnSync('gzip', ['-9', '-n', '-c'], { input: data, maxBuffer: 1 << 30 });
  return out.status === 0 ? out.stdout : zlib.gzipSync(data, { level: 9, memLevel: 9 });
}

const TEXT = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.md', '.webmanifest']);
const BINARY = new Set(['.wasm']);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

let files = 0;
let raw = 0;
let br = 0;
let gz = 0;
for (const file of walk(site)) {
  const ext = extname(file).toLowerCase();
  if (!TEXT.has(ext) && !BINARY.has(ext)) continue;
  const data = readFileSync(file);
  const brotli = cached(data, '.br', () => zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: TEXT.has(ext) ? zlib.constants.BROTLI_MODE_TEXT : zlib.constants.BROTLI_MODE_GENERIC,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      // The largest window brotli's standard decoders take (16 MB): the engine is ~1 MB.
      [zlib.constants.BROTLI_PARAM_LGWIN]: zlib.constants.BROTLI_MAX_WINDOW_BITS,
    },
  }));
  const gzip = cached(data, '.gz', gzip9);
  files += 1;
  raw += data.length;
  if (brotli.length < data.length) {
    writeFileSync(`${file}.br`, brotli);
    br += brotli.length;
  } else br += data.length;
  if (gzip.length < data.length) {
    writeFileSync(`${file}.gz`, gzip);
    gz += gzip.length;
  } else gz += data.length;
}
// Copies of files no longer in the site go (the cache holds one build's worth).
if (cache) for (const name of readdirSync(cache)) if (!used.has(name)) rmSync(join(cache, name), { force: true });
console.log(`precompressed ${files} files: ${raw} bytes, ${br} as brotli, ${gz} as gzip`);
