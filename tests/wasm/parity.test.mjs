// The WebAssembly engine (dist/engine) and the native CLI (build/native/idemlab) are one
// engine: for every lesson they must print the same bytes. Run after scripts/build.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';
import { loadEngine, REPO } from './engine-node.mjs';

const engine = await loadEngine();
const lessons = readdirSync(resolve(REPO, 'lessons'))
  .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
  .sort()
  .map((f) => `lessons/${f}`);

// The CLI's stdout, less the one newline it ends with. Its exit status is not checked
// here: a lesson that does not validate may exit non-zero and still print the answer.
function cli(...args) {
  const r = spawnSync(resolve(REPO, 'build/native/idemlab'), args,
    { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  return r.stdout.endsWith('\n') ? r.stdout.slice(0, -1) : r.stdout;
}

function wasmRun(file, text = readFileSync(resolve(REPO, file), 'utf8')) {
  return engine.call('run', JSON.stringify({ file, text }));
}

// assert.equal on megabytes of JSON prints megabytes; show where the two part instead.
function assertSameBytes(actual, expected, what) {
  if (actual === expected) return;
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i += 1;
  const around = (s) => JSON.stringify(s.slice(Math.max(0, i - 80), i + 80));
  assert.fail(`${what}: outputs differ at character ${i} (lengths ${actual.length} and ${expected.length})\n`
    + `  wasm:   ${around(actual)}\n  native: ${around(expected)}`);
}

test('there are lessons to compare', () => {
  assert.ok(lessons.length > 0, 'no lessons/*.json');
});

for (const file of lessons) {
  test(`run ${file}: WASM and native CLI give the same bytes`, () => {
    const wasm = wasmRun(file);
    assertSameBytes(wasm, cli('run', file, '--json'), file);
    const out = JSON.parse(wasm);
    assert.equal(out.error, undefined, `${file}: ${JSON.stringify(out.error)}`);
    assert.ok(Array.isArray(out.steps) && out.steps.length > 0, `${file}: no steps`);
  });
}

test('every service knob, service crash runs and the service facts: WASM and native CLI give the same bytes', () => {
  const lesson = JSON.parse(readFileSync(resolve(REPO, 'lessons/01-lost-receipt.json'), 'utf8'));
  lesson.scenario.service = { lookup: true, ordering: 'key_first', dedup: 'fingerprint', lookup_lag_ms: 5, retention_ms: 300, processing_ms: 20 };
  lesson.scenario.client.on_not_found = 'retry_lookup';
  lesson.scenario.fault_space.service_crash_points = ['before_commit', 'between_writes', 'after_commit'];
  // The lesson's choose question is written for its own contract; under these knobs it has
  // no single safe option, which check rightly refuses. This test is about the run.
  // So is what the client knows after reconciling: under these knobs it stays as unsure as
  // the moment table's cells, and check would refuse the repeat.
  lesson.questions = lesson.questions.filter((q) => q.kind !== 'choose' && q.id !== 'client-knows-after-reconcile');
  lesson.facts = ['effect_exists', 'response_arrived', 'request_arrived', 'client_has_receipt', 'key_registered',
    'lookup_authoritative', 'retention_passed'].map((fact) => ({ fact }));
  const file = 'build/test-tmp/service-contract.json';
  const text = JSON.stringify(lesson, null, 2);
  mkdirSync(resolve(REPO, 'build/test-tmp'), { recursive: true });
  writeFileSync(resolve(REPO, file), text);
  const wasm = wasmRun(file, text);
  const out = JSON.parse(wasm);
  assert.equal(out.error ?? out.errors, undefined, JSON.stringify(out.error || out.errors));
  assert.ok(out.worlds.some((w) => w.faults.includes('crash:service:between_writes:weekly-report:1')));
  assert.ok(out.steps.some((st) => st.event.kind === 'expire'));
  assertSameBytes(wasm, cli('run', file, '--json'), file);
});

const compared = lessons.filter((f) => 'compare' in JSON.parse(readFileSync(resolve(REPO, f), 'utf8')));

test('a shipped lesson has a side-by-side (compare) block', () => {
  assert.ok(compared.length > 0, 'no lesson has "compare"');
});

for (const file of compared) {
  test(`compare ${file}: WASM and native CLI give the same bytes`, () => {
    const text = readFileSync(resolve(REPO, file), 'utf8');
    const wasm = engine.call('compare', JSON.stringify({ file, text }));
    assertSameBytes(wasm, cli('compare', file), `compare ${file}`);
    const out = JSON.parse(wasm);
    assert.equal(out.error, undefined, `${file}: ${JSON.stringify(out.error)}`);
    assert.equal(out.policies.length, 2);
  });
}

test('the built lesson index is what the CLI computes, and each entry is what the WASM engine runs', () => {
  const built = readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8');
  assertSameBytes(built, `${cli('index', ...lessons)}\n`, 'dist/lessons/index.json');
  const index = JSON.parse(built);
  assert.deepEqual(index.lessons.map((e) => e.file), lessons);
  for (const entry of index.lessons) {
    assert.ok(entry.ok, JSON.stringify(entry));
    const input = JSON.stringify({ file: entry.file, text: readFileSync(resolve(REPO, entry.file), 'utf8') });
    const { lesson } = JSON.parse(engine.call('run', input));
    assert.deepEqual(
      { id: entry.id, level: entry.level, title: entry.title, summary: entry.summary, question_ids: entry.question_ids },
      { id: lesson.id, level: lesson.level, title: lesson.title, summary: lesson.summary, question_ids: lesson.questions.map((q) => q.id) },
    );
    assert.equal(entry.question_count, lesson.questions.length);
    assert.equal(entry.compare, !JSON.parse(engine.call('compare', input)).error, `${entry.file}: compare`);
    assert.equal(entry.challenge, lesson.challenge ? lesson.challenge.kind : null, `${entry.file}: challenge`);
  }
});

test('the notification email, direct and without the provider\'s dedup: WASM and native CLI give the same bytes', () => {
  const lesson = JSON.parse(readFileSync(resolve(REPO, 'lessons/11-outbox.json'), 'utf8'));
  mkdirSync(resolve(REPO, 'build/test-tmp'), { recursive: true });
  const variants = {
    'no-dedup': (l) => {
      l.scenario.provider = { dedup: 'none' };
      l.moments = l.moments.filter((m) => m.id !== 'deduped');
    },
    direct: (l) => {
      l.scenario.service.notify = 'direct';
      l.scenario.faults = [{ crash_service: 'after_commit', attempt: 1 }];
      l.moments = l.moments.filter((m) => m.id === 'committed');
      // Only questions at the one moment kept (or at none: a concept question at the end).
      l.questions = l.questions.filter((q) => (q.moment ?? 'committed') === 'committed');
    },
  };
  for (const [name, change] of Object.entries(variants)) {
    const variant = structuredClone(lesson);
    change(variant);
    const file = `build/test-tmp/outbox-${name}.json`;
    const text = JSON.stringify(variant, null, 2);
    writeFileSync(resolve(REPO, file), text);
    const wasm = wasmRun(file, text);
    const out = JSON.parse(wasm);
    assert.equal(out.error ?? out.errors, undefined, JSON.stringify(out.error || out.errors));
    const end = out.steps[out.steps.length - 1];
    // Without dedup the relay's resend is a second email; a direct call lost to the crash, none.
    assert.equal(end.provider.emails.length, name === 'direct' ? 0 : 2, name);
    assertSameBytes(wasm, cli('run', file, '--json'), file);
  }
});

test('seed lab: WASM and native CLI give the same bytes', () => {
  const wasm = engine.call('seed_lab', '{}');
  assert.equal(JSON.parse(wasm).error, undefined, wasm);
  assertSameBytes(wasm, cli('seed-lab'), 'seed_lab');
});

test('a lesson missing a language is refused with its file and JSON path, not thrown', () => {
  const file = 'lessons/01-lost-receipt.json';
  const lesson = JSON.parse(readFileSync(resolve(REPO, file), 'utf8'));
  delete lesson.title.en;
  const out = JSON.parse(engine.call('check', JSON.stringify({ file, text: JSON.stringify(lesson) })));
  assert.equal(out.ok, false);
  assert.ok(out.errors.some((e) => e.file === file && e.path === '/title' && /\ben\b/.test(e.reason)),
    JSON.stringify(out.errors));
});

test('a question naming an unknown fact is refused at its path, natively and in WASM alike', () => {
  const lesson = JSON.parse(readFileSync(resolve(REPO, 'lessons/01-lost-receipt.json'), 'utf8'));
  const i = lesson.questions.findIndex((q) => typeof q.fact === 'string');
  assert.ok(i >= 0, 'lost-receipt has no question with a fact');
  lesson.questions[i].fact = 'no_such_fact';
  const file = 'build/test-tmp/unknown-fact.json';
  const text = JSON.stringify(lesson, null, 2);
  mkdirSync(resolve(REPO, 'build/test-tmp'), { recursive: true });
  writeFileSync(resolve(REPO, file), text);

  for (const method of ['check', 'run']) {
    const out = JSON.parse(engine.call(method, JSON.stringify({ file, text })));
    assert.equal(out.ok, false, `${method} accepted the lesson`);
    assert.ok(out.errors.some((e) => e.file === file && e.path === `/questions/${i}/fact`
      && e.reason.includes('no_such_fact')), `${method}: ${JSON.stringify(out.errors)}`);
  }
  const native = spawnSync(resolve(REPO, 'build/native/idemlab'), ['check', file], { cwd: REPO, encoding: 'utf8' });
  assert.equal(native.status, 1);
  assert.ok(native.stderr.includes(`${file}: /questions/${i}/fact: `), native.stderr);
});

test('text that is not JSON is refused, not thrown', () => {
  const file = 'lessons/broken.json';
  const out = JSON.parse(engine.call('check', JSON.stringify({ file, text: '{"id": "broken",' })));
  const errors = out.errors || [out.error];
  assert.notEqual(out.ok, true);
  assert.ok(errors.length > 0 && errors.every((e) => e.file === file && e.reason), JSON.stringify(out));
});
