// tests/golden/answers.json holds every computed answer of every shipped lesson, with its
// explanation and a choose question's judgement of each option. A change that alters any
// of them fails here, printing what changed, until `scripts/golden` rewrites the file and
// the change is committed with it, so that a reviewer sees every changed answer in the
// diff. Both front ends are held to it: the native CLI (`idemlab answers`) and the WASM
// engine's API method `answers`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';
import { loadEngine, REPO } from './engine-node.mjs';

const GOLDEN = 'tests/golden/answers.json';
const golden = JSON.parse(readFileSync(resolve(REPO, GOLDEN), 'utf8'));
// The shipped lessons in byte order, as scripts/golden and scripts/build list them.
const lessons = readdirSync(resolve(REPO, 'lessons'))
  .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
  .sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1))
  .map((f) => `lessons/${f}`);

// Where `computed` differs from `expected`: one entry per place (its keys joined by "/"),
// the golden value first.
function differences(expected, computed, path = '', out = []) {
  const isObj = (v) => v !== null && typeof v === 'object';
  if (isObj(expected) && isObj(computed) && Array.isArray(expected) === Array.isArray(computed)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(computed)])];
    for (const k of keys) differences(expected[k], computed[k], `${path}/${k}`, out);
  } else if (JSON.stringify(expected) !== JSON.stringify(computed)) {
    out.push(`${path || '/'}\n    golden:   ${JSON.stringify(expected)}\n    computed: ${JSON.stringify(computed)}`);
  }
  return out;
}

function assertMatchesGolden(computed, who) {
  const diff = differences(golden, computed);
  if (diff.length === 0) return;
  const shown = diff.slice(0, 20).join('\n  ');
  const more = diff.length > 20 ? `\n  ... and ${diff.length - 20} more` : '';
  assert.fail(`${who} computes answers that differ from ${GOLDEN} at ${diff.length} place(s):\n  ${shown}${more}\n` +
    'If the change is intended, run scripts/golden and commit the file with it.');
}

test('the golden file covers exactly the shipped lessons', () => {
  assert.deepEqual(Object.keys(golden).sort(), [...lessons].sort(), `run scripts/golden after adding or removing a lesson`);
});

test('the native CLI computes the answers of the golden file', () => {
  const r = spawnSync(resolve(REPO, 'build/native/idemlab'), ['answers', ...lessons], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, r.stderr);
  assertMatchesGolden(JSON.parse(r.stdout), 'idemlab answers');
});

test('the WASM engine computes the answers of the golden file', async () => {
  const engine = await loadEngine();
  const computed = {};
  for (const file of lessons) {
    const text = readFileSync(resolve(REPO, file), 'utf8');
    computed[file] = JSON.parse(engine.call('answers', JSON.stringify({ file, text })));
  }
  assertMatchesGolden(computed, 'the WASM engine');
});

test('a changed answer is reported with its JSON path and both values', () => {
  const changed = structuredClone(golden);
  const q = changed['lessons/01-lost-receipt.json'].questions.find((x) => x.kind === 'choose');
  q.expected = 'something-else';
  const diff = differences(golden, changed);
  assert.equal(diff.length, 1);
  assert.match(diff[0], /^\/lessons\/01-lost-receipt\.json\/questions\/\d+\/expected\n {4}golden: {3}"[^"]+"\n {4}computed: "something-else"$/);
});
