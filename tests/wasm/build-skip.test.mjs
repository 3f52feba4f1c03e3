// scripts/build when nothing it reads changed since the last build does nothing (and says
// so), and scripts/serve then serves at once, saying what it does; a touched file still
// counts as a change. Each test's first build brings dist/ up to date (under scripts/test,
// which has just built, it does nothing).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import test from 'node:test';
import { REPO } from './engine-node.mjs';

const build = () => spawnSync(resolve(REPO, 'scripts/build'), [], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const built = ['dist/index.html', 'dist/app.js', 'dist/sw.js', 'dist/lessons/index.json', 'build/native/idemlab', 'build/wasm/idemlab.wasm'];
const mtimes = () => built.map((f) => `${f} ${statSync(resolve(REPO, f)).mtimeMs}`);

test('scripts/build with nothing changed since the last build leaves dist/ and the engine as they are, and says so', { timeout: 20 * 60_000 }, () => {
  const first = build();
  assert.equal(first.status, 0, first.stderr);
  const before = mtimes();
  const again = build();
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /dist\/ is up to date/);
  assert.doesNotMatch(again.stderr, /==> site/);
  assert.deepEqual(mtimes(), before);
});

test('a lesson file touched since the last build makes dist/ out of date, and scripts/build would build it', () => {
  assert.equal(build().status, 0);
  const check = () => spawnSync(resolve(REPO, 'scripts/build'), ['--check'], { cwd: REPO, encoding: 'utf8' });
  assert.equal(check().status, 0, 'up to date after a build');
  const lesson = resolve(REPO, 'lessons/01-lost-receipt.json');
  // Its times kept on a file of their own (touch -r: to the nanosecond, as the build reads them).
  const kept = join(mkdtempSync(join(tmpdir(), 'idemlab-')), 'times');
  writeFileSync(kept, '');
  assert.equal(spawnSync('touch', ['-r', lesson, kept]).status, 0);
  try {
    const later = new Date(statSync(lesson).mtimeMs + 60_000);
    utimesSync(lesson, later, later);
    const r = check();
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /not up to date/);
  } finally {
    // Back as it was (no build here: dist/ is read by the other test files meanwhile).
    assert.equal(spawnSync('touch', ['-r', kept, lesson]).status, 0);
  }
  assert.equal(check().status, 0);
});

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

test('scripts/serve with dist/ up to date says what it does and serves at once, without building the site', { timeout: 20 * 60_000 }, async (t) => {
  assert.equal(build().status, 0);
  const port = await freePort();
  const serve = spawn(resolve(REPO, 'scripts/serve'), ['--port', String(port)], { cwd: REPO });
  t.after(() => serve.kill());
  let out = '';
  let err = '';
  serve.stderr.on('data', (d) => (err += d));
  await new Promise((ok, fail) => {
    serve.stdout.on('data', (d) => {
      out += d;
      if (/serving dist\//.test(out)) ok();
    });
    serve.once('exit', (code) => fail(new Error(`scripts/serve ended (${code}): ${out}${err}`)));
  });
  // The line comes as the server starts: its first answer follows within moments.
  let res = null;
  for (let i = 0; i < 100 && !res; i++) {
    res = await fetch(`http://127.0.0.1:${port}/`).catch(() => new Promise((ok) => setTimeout(() => ok(null), 100)));
  }
  assert.equal(res && res.status, 200);
  assert.match(out, /checking that dist\/ is up to date/);
  assert.match(err, /dist\/ is up to date/);
  assert.doesNotMatch(err, /==> (native build|wasm build|site)/);
});
