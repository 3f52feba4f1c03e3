// The native CLI as an author uses it: `check` names file, JSON path and reason, and
// refuses two files that share a lesson id; bad arguments get a message, not a crash.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'node:test';
import { REPO } from './engine-node.mjs';

function cli(...args) {
  const r = spawnSync(resolve(REPO, 'build/native/idemlab'), args, { cwd: REPO, encoding: 'utf8' });
  if (r.error) throw r.error;
  return r;
}

test('check passes the shipped lessons together', () => {
  const r = cli('check', 'lessons/01-lost-receipt.json', 'lessons/02-retry-duplicates.json');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /lessons\/01-lost-receipt\.json: ok \(lost-receipt\)/);
});

test('check refuses a second file with a lesson id already used', () => {
  const copy = join(mkdtempSync(join(tmpdir(), 'idemlab-')), 'copy.json');
  copyFileSync(resolve(REPO, 'lessons/01-lost-receipt.json'), copy);
  const r = cli('check', 'lessons/01-lost-receipt.json', copy);
  assert.equal(r.status, 1);
  assert.match(r.stderr, new RegExp(`${copy.replace(/[.]/g, '\\.')}: /id: lesson id 'lost-receipt' is used twice \\(also in lessons/01-lost-receipt\\.json\\)`));
});

test('index: a summary per lesson, the problems of a broken file, a repeated id and an unreadable file refused, and still an index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-'));
  const lesson = JSON.parse(readFileSync(resolve(REPO, 'lessons/01-lost-receipt.json'), 'utf8'));
  const broken = join(dir, 'broken.json');
  writeFileSync(broken, JSON.stringify({ ...lesson, id: 'broken', summary: { en: lesson.summary.en } }));
  const copy = join(dir, 'copy.json');
  copyFileSync(resolve(REPO, 'lessons/01-lost-receipt.json'), copy);
  const gone = join(dir, 'gone.json');
  const r = cli('index', 'lessons/01-lost-receipt.json', broken, copy, gone, 'lessons/02-retry-duplicates.json');
  assert.equal(r.status, 0, r.stderr);
  const [ok, bad, dup, unread, compared] = JSON.parse(r.stdout).lessons;

  assert.equal(ok.ok, true);
  assert.equal(ok.file, 'lessons/01-lost-receipt.json');
  assert.deepEqual([ok.id, ok.level, ok.title, ok.summary], [lesson.id, lesson.level, lesson.title, lesson.summary]);
  assert.deepEqual(ok.question_ids, lesson.questions.map((q) => q.id));
  assert.equal(ok.question_count, lesson.questions.length);
  assert.equal(ok.compare, false);

  assert.equal(bad.ok, false);
  assert.deepEqual(bad.errors.map((e) => [e.file, e.path]), [[broken, '/summary']]);
  const esc = (s) => s.replace(/[.]/g, '\\.');
  assert.match(r.stderr, new RegExp(`${esc(broken)}: /summary: missing language 'zh-CN'`));

  assert.equal(dup.ok, false);
  assert.deepEqual(dup.errors[0], { file: copy, path: '/id', kind: 'duplicate', id: 'lost-receipt', other: 'lessons/01-lost-receipt.json',
    reason: "lesson id 'lost-receipt' is used twice (also in lessons/01-lost-receipt.json)" });

  assert.equal(unread.ok, false);
  assert.equal(unread.errors[0].reason, 'cannot read the file');
  assert.equal(compared.ok, true);
  assert.equal(compared.compare, true);
});

test('compare names a lesson without a compare block', () => {
  const r = cli('compare', 'lessons/01-lost-receipt.json');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /lessons\/01-lost-receipt\.json: \/compare: /);
});

test('bad arguments are named', () => {
  const lang = cli('run', 'lessons/01-lost-receipt.json', '--lang', 'fr');
  assert.equal(lang.status, 2);
  assert.match(lang.stderr, /--lang is en or zh-CN, not 'fr'/);
  const runs = cli('bench', '--runs', 'abc');
  assert.equal(runs.status, 2);
  assert.match(runs.stderr, /--runs is a whole number/);
});

test('check and answers refuse a choose question with two safe options, naming file, path and the safe ones', () => {
  const lesson = JSON.parse(readFileSync(resolve(REPO, 'lessons/01-lost-receipt.json'), 'utf8'));
  const i = lesson.questions.findIndex((q) => q.kind === 'choose');
  // Resending under the intent's own key is as safe as reconciling: the service deduplicates.
  lesson.questions[i].options.push({ id: 'same-key', label: lesson.title, do: 'resend_same_key' });
  const file = join(mkdtempSync(join(tmpdir(), 'idemlab-')), 'two-safe.json');
  writeFileSync(file, JSON.stringify(lesson));
  for (const cmd of ['check', 'answers']) {
    const r = cli(cmd, file);
    assert.equal(r.status, 1, `${cmd}: ${r.stdout}`);
    assert.match(r.stderr, new RegExp(`two-safe\\.json: /questions/${i}/options: options '[^']+', 'same-key' are all safe, and exactly one must be`));
  }
});

test('explore: a side-by-side mistake yields a counterexample whose scenario, saved as a file, replays the failure', () => {
  const r = cli('explore', 'lessons/07-service-ordering.json', '--policy', 'key-first');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.complete, true);
  assert.equal(out.no_violation_up_to, null);
  assert.equal('safe' in out, false);
  assert.match(r.stderr, /07-service-ordering\.json: \d+ of \d+ schedules of up to 2 faults break an invariant/);
  const first = out.counterexamples[0];
  assert.equal(first.invariant, 'false_success');
  assert.deepEqual(first.fault_ids, ['crash:service:between_writes:weekly-report:1']);
  // The scenario it carries is a file of its own: run it, and the run's verdict names the
  // same violation at the same step.
  const file = join(mkdtempSync(join(tmpdir(), 'idemlab-')), 'counterexample.json');
  writeFileSync(file, JSON.stringify(first.scenario));
  const run = cli('run', file, '--json');
  assert.equal(run.status, 0, run.stderr);
  const verdict = JSON.parse(run.stdout).verdict;
  assert.ok(verdict.violations.some((v) => v.invariant === 'false_success' && v.step === first.step), JSON.stringify(verdict));
  // The fix has none.
  const fixed = cli('explore', 'lessons/07-service-ordering.json', '--policy', 'atomic');
  const right = JSON.parse(fixed.stdout);
  assert.equal(right.no_violation_up_to, 2);
  assert.deepEqual(right.counterexamples, []);
  // Worded for what it is: a bounded search, not a proof of safety.
  assert.match(fixed.stderr, /no violation in \d+ schedules of up to 2 faults: that is what was searched, not a proof/);
  assert.doesNotMatch(fixed.stderr + fixed.stdout, /"safe"|\bsafe: true/);
});

test('explore: retry layers that absorb K faults are named, with the K that reaches past them, and that K finds the duplicate', () => {
  // An SDK that makes its own key per call and tries 3 times, inside an app retry (issue 36).
  const file = join(mkdtempSync(join(tmpdir(), 'idemlab-')), 'layers.json');
  writeFileSync(file, JSON.stringify({
    client: { retry_layers: [{ layer: 'sdk', attempts: 3, key: 'per_call' }, { layer: 'app', attempts: 2 }] },
    script: [{ at: 0, do: 'deliver', intent: 'weekly-report', payload: 'p' }],
  }));
  const r = cli('explore', file);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.violating, 0);
  assert.equal(out.no_violation_up_to, 2);
  assert.equal(out.layers_absorb.faults, 3);
  assert.match(r.stderr, /no schedule of up to 2 faults made the "app" layer retry: the layers inside it \("sdk"\) make up to 3 sends per call.*explore with K = 3/);
  const k3 = cli('explore', file, '--faults', '3');
  const deeper = JSON.parse(k3.stdout);
  assert.ok(deeper.violating > 0);
  assert.equal(deeper.layers_absorb, null);
  assert.ok(deeper.counterexamples.some((c) => c.invariant === 'duplicate_effect'));
});

test('run, explore and challenge read a scenario wrapped as the API takes it, {"scenario": ...}, as the scenario itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-'));
  const scenario = JSON.parse(readFileSync(resolve(REPO, 'lessons/02-retry-duplicates.json'), 'utf8')).scenario;
  const bare = join(dir, 'bare.json');
  writeFileSync(bare, JSON.stringify(scenario));
  const wrapped = join(dir, 'wrapped.json');
  writeFileSync(wrapped, JSON.stringify({ scenario }));
  const run = cli('run', wrapped, '--json');
  assert.equal(run.status, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /missing required field 'id'/);
  assert.deepEqual(JSON.parse(run.stdout), JSON.parse(cli('run', bare, '--json').stdout));
  const explored = cli('explore', wrapped);
  assert.equal(explored.status, 0, explored.stderr);
  assert.deepEqual(JSON.parse(explored.stdout), JSON.parse(cli('explore', bare).stdout));
  const attempt = cli('challenge', 'lessons/02-retry-duplicates.json', wrapped);
  assert.deepEqual(JSON.parse(attempt.stdout), JSON.parse(cli('challenge', 'lessons/02-retry-duplicates.json', bare).stdout));
  assert.doesNotMatch(attempt.stdout, /unknown field 'scenario'/);
  // A problem inside it is named where it is in the file: under /scenario.
  const typo = join(dir, 'typo.json');
  writeFileSync(typo, JSON.stringify({ scenario: { ...scenario, client: { key_scop: 'intent' } } }));
  const bad = cli('run', typo);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /typo\.json: \/scenario\/client\/key_scop: unknown field 'key_scop'/);
});

test('explore and fuzz: bad input is named with its file, its own path and the reason; fuzz --out makes its folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-'));
  const bare = join(dir, 'bare.json');
  writeFileSync(bare, JSON.stringify({ script: [{ at: 0, do: 'deliver', intent: 'a', payload: 'x' }], client: { key_scop: 'intent' } }));
  let r = cli('explore', bare);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /bare\.json: \/client\/key_scop: unknown field 'key_scop'; allowed: key_scope,/);
  r = cli('explore', 'lessons/07-service-ordering.json', '--policy', 'nope');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /unknown policy 'nope'; the lesson's policies: key-first, atomic/);
  r = cli('explore', 'lessons/07-service-ordering.json', '--faults', '9');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--faults is a whole number from 1 to 3, not '9'/);
  const out = join(dir, 'not', 'yet');
  r = cli('fuzz', '--seed', '3', '--runs', '300', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  const written = Number(/wrote (\d+) scenario files/.exec(r.stderr)[1]);
  assert.ok(written > 0, r.stderr);
  assert.equal(readdirSync(out).length, written);
});

test('check: a file with invalid UTF-8 between two good ones is named with line and column, and both good ones are checked', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-'));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, Buffer.concat([Buffer.from('{\n  "id": "x'), Buffer.from([0xff]), Buffer.from('"\n}\n')]));
  const r = cli('check', 'lessons/01-lost-receipt.json', bad, 'lessons/02-retry-duplicates.json');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /lessons\/01-lost-receipt\.json: ok \(lost-receipt\)/);
  assert.match(r.stdout, /lessons\/02-retry-duplicates\.json: ok \(retry-duplicates\)/);
  assert.match(r.stderr, new RegExp(`${bad.replace(/[.]/g, '\\.')}: /id: line 2, column 11: not valid UTF-8: byte 0xFF`));
});

test('index: an incident is marked with the report it replays, and check refuses one that does not reproduce its report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-'));
  const lesson = JSON.parse(readFileSync(resolve(REPO, 'lessons/02-retry-duplicates.json'), 'utf8'));
  const report = { source: 'example/shop #12', url: 'https://github.com/example/shop/issues/12', title: 'Report submitted twice' };
  const incident = { ...lesson, id: 'incident-shop',
    incident: { ...report, expected: { 'zh-CN': '一份', en: 'One report' }, seen: { 'zh-CN': '两份', en: 'Two reports' },
      fix: { 'zh-CN': '每个意图一个操作标识', en: 'One key per intent' }, reported: { effects: 2 } } };
  const file = join(dir, 'incident-shop.json');
  writeFileSync(file, JSON.stringify(incident));
  const r = cli('index', 'lessons/02-retry-duplicates.json', file);
  assert.equal(r.status, 0, r.stderr);
  const [plain, replayed] = JSON.parse(r.stdout).lessons;
  assert.equal(plain.incident, null);
  assert.deepEqual(replayed.incident, report);

  // The report saw three: the reported behaviour here makes two, and check says so.
  writeFileSync(file, JSON.stringify({ ...incident, incident: { ...incident.incident, reported: { effects: 3 } } }));
  const c = cli('check', file);
  assert.equal(c.status, 1);
  assert.match(c.stderr, /\/incident\/reported\/effects: the reported run \(policy '[a-z-]+', in the lesson's own run\) ends with 2 effects for [a-z-]+, not the 3 the report saw/);
});

test('check and index: a full-width comma and 100,000 nested brackets are problems, and the index is still written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-'));
  const text = readFileSync(resolve(REPO, 'lessons/01-lost-receipt.json'), 'utf8');
  const comma = join(dir, 'comma.json');
  writeFileSync(comma, text.replace('"level": "intro",', '"level": "intro"，'));
  const deep = join(dir, 'deep.json');
  const lesson = JSON.parse(text);
  lesson.moments[0].at.event = '@@';
  writeFileSync(deep, JSON.stringify(lesson).replace('"@@"', '['.repeat(100000) + ']'.repeat(100000)));
  const line = text.slice(0, text.indexOf('"level": "intro",')).split('\n').length;

  const r = cli('check', comma, deep, 'lessons/01-lost-receipt.json');
  assert.equal(r.status, 1);
  assert.match(r.stderr, new RegExp(`comma\\.json: /: line ${line}, column \\d+: not valid JSON: unexpected character '，' \\(U\\+FF0C\\)`));
  assert.match(r.stderr, /deep\.json: \/moments\/0\/at\/event\/0\/0\/[0/]*: line 1, column \d+: arrays and objects nest more than 32 levels deep/);
  assert.match(r.stdout, /lost-receipt\.json: ok/);

  const index = cli('index', comma, deep, 'lessons/01-lost-receipt.json');
  assert.equal(index.status, 0, index.stderr);
  const [c, d, ok] = JSON.parse(index.stdout).lessons;
  assert.equal(c.ok, false);
  assert.equal(c.errors[0].line, line);
  assert.equal(d.ok, false);
  assert.equal(ok.ok, true);
});

test('grade: one bad submission does not stop the class; each file gets its line, notes are skipped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-class-'));
  writeFileSync(join(dir, 'a-empty.lua'), '');
  writeFileSync(join(dir, 'b-long.lua'), '-- x\n'.repeat(5000));
  writeFileSync(join(dir, 'c-latin1.lua'), Buffer.from('-- \xc9l\xe8ve\nfunction on_deliver() end\n', 'latin1'));
  copyFileSync(resolve(REPO, 'tests/exercises/lost-response/reference.lua'), join(dir, 'd-good.lua'));
  writeFileSync(join(dir, 'notes.txt'), 'marks go here');
  const r = cli('grade', 'lessons/exercises/lost-response.json', dir);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.file), ['a-empty.lua', 'b-long.lua', 'c-latin1.lua', 'd-good.lua']);
  assert.equal(lines[0].passed, false);
  assert.equal(lines[0].counterexample.requirement, 'delivered');
  assert.equal(lines[1].error.kind, 'too_long');
  assert.equal(lines[2].error.kind, 'encoding');
  assert.equal(lines[3].passed, true);
  // A line per file a teacher reads at a glance, on stderr.
  assert.match(r.stderr, /^d-good\.lua: passed$/m);
  assert.match(r.stderr, /^c-latin1\.lua: not passed: encoding$/m);
});
