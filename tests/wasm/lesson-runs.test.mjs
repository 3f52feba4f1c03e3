// The lesson runs the build computed (scripts/lib/lesson-runs.mjs): the page opens a
// lesson from dist/lessons/<name>.run.json when the lesson text's SHA-256 is the one
// dist/lessons/runs.json names for it, without asking its engine. So each run must be exactly what the
// page's own engine (the WebAssembly build, here in node) answers for that text, and the
// hash must be the text's: a stale or wrong run would show a learner a timeline the
// engine does not compute, and the page could not tell.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';
import { loadEngine, REPO } from './engine-node.mjs';

const dist = (p) => resolve(REPO, 'dist', p);
const index = JSON.parse(readFileSync(dist('lessons/index.json'), 'utf8'));
const { runs } = JSON.parse(readFileSync(dist('lessons/runs.json'), 'utf8'));
const working = index.lessons.filter((e) => e.ok === true).map((e) => ({ ...e, run: runs[e.file] }));

test('every working lesson of the built index has a run, and nothing else has one', () => {
  assert.ok(working.length > 0, 'the built index lists no working lesson');
  for (const e of working) assert.ok(e.run && typeof e.run.file === 'string', `${e.file}: no run in lessons/runs.json`);
  assert.deepEqual(Object.keys(runs).sort(), working.map((e) => e.file).sort());
});

test('each run is named by the SHA-256 of its lesson file as built, beside it in lessons/', () => {
  for (const e of working) {
    assert.equal(e.run.file, e.file.replace(/\.json$/, '.run.json'));
    assert.ok(existsSync(dist(e.run.file)), `${e.run.file} is missing`);
    const sha = createHash('sha256').update(readFileSync(dist(e.file))).digest('hex');
    assert.equal(e.run.text_sha256, sha, `${e.file}: lessons/runs.json names another text's hash`);
    // The site's lesson file is the repository's (what the author wrote).
    assert.ok(readFileSync(dist(e.file)).equals(readFileSync(resolve(REPO, e.file))), `${e.file} differs from the repository's`);
  }
});

test("each run is, byte for byte, the page's engine's run of that lesson text", async () => {
  const engine = await loadEngine();
  for (const e of working) {
    const text = readFileSync(dist(e.file), 'utf8');
    const computed = engine.call('run', JSON.stringify({ file: e.file, text }));
    const stored = readFileSync(dist(e.run.file), 'utf8');
    if (stored !== computed) {
      const a = JSON.parse(stored);
      const b = JSON.parse(computed);
      assert.deepEqual(a, b, `${e.run.file} is not the engine's run of ${e.file}`);
      assert.fail(`${e.run.file}: the same run, written differently from the engine's output`);
    }
    assert.equal(JSON.parse(stored).lesson.id, e.id);
  }
});
