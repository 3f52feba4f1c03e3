// How the site is served (scripts/lib/static-server.mjs, what scripts/serve and the browser
// tests use) and the precompressed copies scripts/build writes beside the files of dist/:
// a browser that accepts brotli gets the engine as brotli with the engine's own type, one
// that accepts only gzip gets gzip, any other gets the file; each copy decodes to exactly
// the bytes of its file (a stale copy would hand the learner an old engine).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'node:test';
import zlib from 'node:zlib';
import { startServer } from '../../scripts/lib/static-server.mjs';
import { REPO } from './engine-node.mjs';

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

test('every precompressed copy in dist/ decodes to its file, and the engine has both', () => {
  const dist = resolve(REPO, 'dist');
  for (const f of ['engine/idemlab.wasm', 'engine/idemlab.js', 'engine/worker.js', 'app.js', 'index.html']) {
    assert.ok(existsSync(join(dist, `${f}.br`)), `${f}.br`);
    assert.ok(existsSync(join(dist, `${f}.gz`)), `${f}.gz`);
  }
  let copies = 0;
  for (const file of walk(dist)) {
    const m = /^(.*)\.(br|gz)$/.exec(file);
    if (!m) continue;
    const data = readFileSync(file);
    const decoded = m[2] === 'br' ? zlib.brotliDecompressSync(data) : zlib.gunzipSync(data);
    assert.ok(decoded.equals(readFileSync(m[1])), `${file} is not ${m[1]}`);
    assert.ok(data.length < decoded.length, `${file} is no smaller than its file`);
    copies += 1;
  }
  assert.ok(copies >= 10, `${copies} copies`);
  // The service worker never fetches a copy by name.
  assert.doesNotMatch(readFileSync(join(dist, 'sw.js'), 'utf8'), /\.(br|gz)"/);
});

test('the server sends the copy a request accepts, with the file\'s type and Vary', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-serve-'));
  mkdirSync(join(dir, 'engine'));
  const wasm = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...Array(4000).fill(7)]);
  writeFileSync(join(dir, 'engine/idemlab.wasm'), wasm);
  writeFileSync(join(dir, 'engine/idemlab.wasm.br'), zlib.brotliCompressSync(wasm));
  writeFileSync(join(dir, 'engine/idemlab.wasm.gz'), zlib.gzipSync(wasm));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(join(dir, 'plain.json'), '{"a":1}');
  const server = await startServer({ dir, port: 0 });
  t.after(() => server.close());
  const origin = `http://127.0.0.1:${server.address().port}`;
  // fetch() decodes on its own and hides Content-Encoding; node's http does not.
  const { request } = await import('node:http');
  const get = (path, headers = {}, method = 'GET') => new Promise((ok, fail) => {
    const req = request(`${origin}${path}`, { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });

  const br = await get('/engine/idemlab.wasm', { 'accept-encoding': 'gzip, deflate, br, zstd' });
  assert.equal(br.status, 200);
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers['content-type'], 'application/wasm');
  assert.match(br.headers.vary, /accept-encoding/i);
  assert.ok(zlib.brotliDecompressSync(br.body).equals(wasm));
  assert.equal(Number(br.headers['content-length']), br.body.length);

  const gz = await get('/engine/idemlab.wasm', { 'accept-encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.ok(zlib.gunzipSync(gz.body).equals(wasm));
  const refused = await get('/engine/idemlab.wasm', { 'accept-encoding': 'br;q=0, gzip;q=0.5' });
  assert.equal(refused.headers['content-encoding'], 'gzip');

  const none = await get('/engine/idemlab.wasm');
  assert.equal(none.headers['content-encoding'], undefined);
  assert.ok(none.body.equals(wasm));
  assert.match(none.headers.vary, /accept-encoding/i);

  // A repeat request with the ETag costs no body.
  const again = await get('/engine/idemlab.wasm', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.notEqual(br.headers.etag, none.headers.etag);

  const page = await get('/?lang=en');
  assert.equal(page.status, 200);
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(page.headers['x-content-type-options'], 'nosniff');
  const json = await get('/plain.json', { 'accept-encoding': 'br' });
  assert.equal(json.headers['content-encoding'], undefined);
  assert.equal(json.headers['content-type'], 'application/json');
  assert.equal((await get('/engine')).status, 404);
  assert.equal((await get('/missing.js')).status, 404);
  assert.equal((await get('/../package.json')).status, 404);
  assert.equal((await get('/%2e%2e/package.json')).status, 404);
  assert.equal((await get('/', {}, 'POST')).status, 405);
});

test('a file edited after its copies were made is sent itself, not its stale copy', async (t) => {
  // A teacher fixes a lesson in dist/lessons/ by hand: its .br and .gz still hold the old text.
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-stale-'));
  const file = join(dir, 'lesson.json');
  writeFileSync(file, '{"v": "old"}');
  writeFileSync(`${file}.br`, zlib.brotliCompressSync(Buffer.from('{"v": "old"}')));
  writeFileSync(`${file}.gz`, zlib.gzipSync(Buffer.from('{"v": "old"}')));
  const later = new Date(Date.now() + 5000);
  writeFileSync(file, '{"v": "fixed"}');
  utimesSync(file, later, later);
  const server = await startServer({ dir, port: 0 });
  t.after(() => server.close());
  const res = await fetch(`http://127.0.0.1:${server.address().port}/lesson.json`, { headers: { 'accept-encoding': 'br, gzip' } });
  assert.equal(await res.text(), '{"v": "fixed"}');
});
