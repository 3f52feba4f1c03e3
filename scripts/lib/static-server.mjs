// A static file server for the built site (dist/), with no dependency: what scripts/serve,
// the browser tests (playwright.config.js) and the bench (scripts/bench-lib/serve.mjs) use.
// It does what docs/hosting.md asks of a host, so that the figures measured here are the
// ones a learner gets from a well-set host:
//   - a file with a precompressed copy beside it (FILE.br, FILE.gz, written by scripts/build)
//     is sent as that copy, with Content-Encoding: br (or gzip), when the request's
//     Accept-Encoding allows it; the Content-Type is the original file's (application/wasm
//     for the engine, which streaming compilation needs), and Vary: Accept-Encoding tells a
//     cache that the answer depends on that header; a copy older than its file (edited
//     after the build) is stale and not sent;
//   - Content-Type by extension, X-Content-Type-Options: nosniff, Referrer-Policy:
//     no-referrer, Cache-Control: no-cache with an ETag (a repeat request costs a 304);
//   - GET and HEAD only; a path outside the folder, or a hidden file, is a 404.
// usage: node scripts/lib/static-server.mjs [--dir DIR] [--port N] [--host H] [--log]
//        (defaults: dist, 8000, 127.0.0.1; --log prints one line per request on stderr)
// As a module: startServer({ dir, port, host }) -> Promise<http.Server>.

import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.br': 'application/octet-stream',
  '.gz': 'application/gzip',
};

// Encodings in the order the server prefers them, with the suffix of their precompressed copy.
const ENCODINGS = [['br', '.br'], ['gzip', '.gz']];

/** The codings an Accept-Encoding header allows (q > 0), lower-cased. */
export function acceptedEncodings(header) {
  const ok = new Set();
  for (const part of String(header || '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    ok.add(name);
  }
  return ok;
}

async function statFile(path) {
  try {
    const st = await fs.stat(path);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

/** The request's path as a file under root, or null when it cannot be one. */
function fileFor(root, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split(/[?#]/, 1)[0]);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.split('/').some((seg) => seg.startsWith('.') && seg !== '')) return null;
  const full = resolve(root, `.${path.startsWith('/') ? path : `/${path}`}`);
  if (full !== root && !full.startsWith(root + sep)) return null;
  return { full, dirLike: path.endsWith('/') };
}

export function makeHandler(dir, { log = false } = {}) {
  const root = resolve(dir);
  return async (req, res) => {
    const done = (status, extra = {}, body = '') => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...extra });
      res.end(req.method === 'HEAD' ? undefined : body);
      if (log) process.stderr.write(`${req.method} ${req.url} ${status}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return done(405, { Allow: 'GET, HEAD' }, 'Method Not Allowed\n');
    const target = fileFor(root, req.url || '/');
    if (!target) return done(404, {}, 'Not Found\n');
    let { full } = target;
    let st = await statFile(full);
    if (!st) {
      // A folder: its index.html, at an address that ends in '/' (so relative links work).
      const index = join(full, 'index.html');
      const isDir = await fs.stat(full).then((s) => s.isDirectory(), () => false);
      if (!isDir || !(st = await statFile(index))) return done(404, {}, 'Not Found\n');
      if (!target.dirLike) {
        const [path, query = ''] = (req.url || '/').split('?');
        return done(301, { Location: `${path}/${query ? `?${query}` : ''}` });
      }
      full = index;
    }

    const headers = {
      'Content-Type': TYPES[extname(full).toLowerCase()] || 'application/octet-stream',
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    };
    let sendPath = full;
    let sendStat = st;
    let coding = null;
    const accepted = acceptedEncodings(req.headers['accept-encoding']);
    for (const [name, suffix] of ENCODINGS) {
      const cst = await statFile(full + suffix);
      // A copy older than its file is stale (the file was edited after the build, say a
      // lesson a teacher fixed in place): the file itself is sent, never the old text.
      if (!cst || cst.mtimeMs < st.mtimeMs) continue;
      headers.Vary = 'Accept-Encoding';
      if (!coding && accepted.has(name)) [coding, sendPath, sendStat] = [name, full + suffix, cst];
    }
    if (coding) headers['Content-Encoding'] = coding;
    const etag = `"${sendStat.size.toString(36)}-${Math.floor(sendStat.mtimeMs).toString(36)}${coding ? `-${coding}` : ''}"`;
    headers.ETag = etag;
    headers['Last-Modified'] = sendStat.mtime.toUTCString();
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').map((s) => s.trim().replace(/^W\//, '')).includes(etag)) {
      res.writeHead(304, { ETag: etag, 'Cache-Control': 'no-cache', ...(headers.Vary ? { Vary: headers.Vary } : {}) });
      res.end();
      if (log) process.stderr.write(`${req.method} ${req.url} 304\n`);
      return undefined;
    }
    headers['Content-Length'] = String(sendStat.size);
    res.writeHead(200, headers);
    if (log) process.stderr.write(`${req.method} ${req.url} 200${coding ? ` (${coding})` : ''}\n`);
    if (req.method === 'HEAD') return res.end();
    const stream = createReadStream(sendPath);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
    return undefined;
  };
}

/** Serves `dir` on host:port; resolves with the listening server. */
export function startServer({ dir = 'dist', port = 8000, host = '127.0.0.1', log = false } = {}) {
  const server = http.createServer(makeHandler(dir, { log }));
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolvePromise(server));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const opts = { dir: 'dist', port: 8000, host: '127.0.0.1', log: false };
  const args = process.argv.slice(2);
  const usage = 'usage: node scripts/lib/static-server.mjs [--dir DIR] [--port N] [--host H] [--log]';
  while (args.length) {
    const a = args.shift();
    if (a === '--dir') opts.dir = args.shift();
    else if (a === '--port') opts.port = Number(args.shift());
    else if (a === '--host') opts.host = args.shift();
    else if (a === '--log') opts.log = true;
    else if (a === '-h' || a === '--help') { console.log(usage); process.exit(0); }
    else { console.error(`static-server: unknown argument '${a}' (${usage})`); process.exit(2); }
  }
  if (!opts.dir || !Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    console.error(usage);
    process.exit(2);
  }
  startServer(opts).catch((e) => {
    console.error(`static-server: ${e.message}`);
    process.exit(1);
  });
}
