// The page's engine stays within its memory budget (issue 32): 64 MiB, the WebAssembly
// module's maximum (engine/scenario/limits.hpp, kMaxMemoryMiB; CMakeLists.txt reads it).
// Eight prepared lessons of any size used to be cached (ten large scenarios took the module
// to 248 MiB), an `explore` of K = 3 kept every plan's next faults (281 MiB), a scenario
// within every limit could take 53 MiB (more with long names), and an `answer` whose
// question was a number threw across code without unwinding, keeping ~30 KB a call. Here
// every method of the API (engine/api/API.md), accepted and refused, with the largest
// shipped lessons and scenarios of 8 intents near the limits, is called over and over: the
// memory never passes the budget, nothing runs out of it, and every answer is the same each
// time. Then the engine is brought to its maximum on purpose: a call that does not fit is
// answered "out of memory", and once there is room again the engine answers as before.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';
import { loadEngine, REPO } from './engine-node.mjs';

const MiB = 1024 * 1024;
const limitsText = readFileSync(resolve(REPO, 'engine/scenario/limits.hpp'), 'utf8');
const BUDGET = Number(limitsText.match(/constexpr int kMaxMemoryMiB = (\d+);/)[1]) * MiB;

const engine = await loadEngine();
const lessonText = (name) => readFileSync(resolve(REPO, 'lessons', name), 'utf8');
const asLesson = (name, extra = {}) => JSON.stringify({ file: `lessons/${name}`, text: lessonText(name), ...extra });
// The shipped lessons whose prepared runs are largest, with a side-by-side block, a
// challenge or an incident among them.
const LESSONS = ['09-retry-layers.json', '11-outbox.json', '01-lost-receipt.json', 'incident-akash-topup.json'];

// A bare scenario of 8 intents, each delivered, then `extra` reapplied, any one message
// possibly lost (and, with `crash`, the service crashing at any of three points): with 24
// reapplies 65 runs of 187 steps, near the work limit (kMaxCheckWork) and the memory a
// fault space may hold (kMaxFaultSpaceBytes). `seed` makes each one's content its own.
function bigScenario(seed, { outbox = false, extra = 24, crash = false } = {}) {
  const s = JSON.parse(lessonText('01-lost-receipt.json')).scenario;
  s.seed = seed;
  s.script = [];
  for (let i = 0; i < 8; i++) s.script.push({ at: i, do: 'deliver', intent: `r${seed}-${i}`, payload: `v${seed}-${i}` });
  for (let i = 0; i < extra; i++) s.script.push({ at: 300 + 50 * i, do: 'reapply', intent: `r${seed}-${i % 8}` });
  if (outbox) s.service = { ...s.service, notify: 'outbox' };
  s.fault_space = { lose_any_one_message: true, client_crash_points: [],
    service_crash_points: crash ? ['before_commit', 'between_writes', 'after_commit'] : [] };
  return s;
}
// Two too large for the cache of prepared lessons (kMaxPreparedCacheBytes), prepared for each
// call; one it keeps, beside which the others are prepared; and one with an outbox.
const BIG = [bigScenario(1), bigScenario(2, { extra: 16, crash: true }), bigScenario(3, { extra: 8 }),
  bigScenario(4, { outbox: true, extra: 10 })];

const parse = (out) => JSON.parse(out);
const refusedOrError = (o) => o.error !== undefined || o.ok === false;
// "path: reason" of each problem of a refusal.
const problems = (o) => (o.error ? [o.error] : o.errors).map((e) => `${e.path}: ${e.reason}`).join('; ');

// Every accepted call: [method, input]. Each answer must be the same every time it is asked.
function acceptedCalls() {
  const calls = [];
  for (const s of BIG) {
    const input = JSON.stringify({ scenario: s });
    calls.push(['run', input], ['check', input], ['answers', input], ['scenario', input]);
    calls.push(['explore', JSON.stringify({ scenario: s, faults: 3, limit: 60 })]);
  }
  for (const name of LESSONS) {
    const lesson = JSON.parse(lessonText(name));
    calls.push(['run', asLesson(name)], ['check', asLesson(name)], ['answers', asLesson(name)], ['scenario', asLesson(name)]);
    calls.push(['explore', asLesson(name, { faults: 3, limit: 300 })]);
    if (lesson.compare) calls.push(['compare', asLesson(name)]);
    // Each question: its answer shown, then that answer given.
    for (const q of lesson.questions) {
      const shown = parse(engine.call('answer', asLesson(name, { question: q.id, reveal: true })));
      assert.ok(shown.revealed, `${name} ${q.id}: ${JSON.stringify(shown).slice(0, 200)}`);
      calls.push(['answer', asLesson(name, { question: q.id, reveal: true })]);
      calls.push(['answer', asLesson(name, { question: q.id, answer: shown.expected, try: 1 })]);
    }
    if (lesson.challenge) {
      const start = parse(engine.call('run', asLesson(name))).lesson.challenge.scenario;
      calls.push(['challenge', asLesson(name, { attempt: { ...start, faults: [{ drop: 'response', attempt: 1 }] } })]);
    }
  }
  calls.push(['seed_lab', '{}'], ['seed_experiment', '{}'], ['vocabulary', '{}']);
  calls.push(['simulate', '{"runs": 40}'], ['simulate', '{"runs": 40, "sql_only": true}']);
  return calls;
}

// Refused calls of every method that reads its input (seed_lab, seed_experiment and
// vocabulary take none): [method, input, what the refusal names].
function refusedCalls() {
  const name = '01-lost-receipt.json';
  // Names and payloads at their limits, each reapply a new key: a fault space holding too much.
  const heavy = bigScenario(6);
  heavy.client = { ...heavy.client, key_scope: 'attempt' };
  for (const a of heavy.script) a.intent = a.intent.padEnd(40, 'n');
  for (const a of heavy.script) if (a.payload) a.payload = a.payload.padEnd(100, 'p');
  // One run of 383 steps showing every intent's keys, effects, outbox rows and emails at each.
  const long = structuredClone(heavy);
  long.fault_space = { lose_any_one_message: false };
  long.client.max_attempts = 20;
  long.service = { processing_ms: 500, notify: 'outbox' };
  const longName = bigScenario(7, { extra: 0 });
  longName.script[0].intent = 'x'.repeat(41);
  const tooMany = bigScenario(5, { extra: 0 });
  tooMany.script.push({ at: 9, do: 'deliver', intent: 'ninth', payload: 'x' });  // 9 intents
  const tooMuchWork = bigScenario(6);
  tooMuchWork.fault_space.service_crash_points = ['before_commit', 'between_writes', 'after_commit'];
  const nested = (n) => '['.repeat(n) + ']'.repeat(n);
  return [
    ['answer', asLesson(name, { question: 5, answer: 'x' }), /^\/question: a question is named by its id/],
    ['answer', asLesson(name, { question: null, answer: 'x' }), /^\/question: a question is named by its id/],
    ['answer', asLesson(name, { question: ['status-after-timeout'], answer: 'x' }), /\/question/],
    ['answer', asLesson(name, { answer: 'x' }), /^\/question: missing required field 'question'/],
    ['answer', asLesson(name, { question: 'nope', answer: 'x' }), /unknown question 'nope'/],
    ['answer', asLesson(name, { question: 'status-after-timeout', answer: { a: [1] } }), /string/],
    ['answer', asLesson(name, { question: 'moment-table', answer: ['x'] }), /a table answer is an object/],
    ['answer', asLesson(name, { question: 'status-after-timeout', answer: 'x', try: 'two' }), /\/try/],
    ['answer', asLesson(name, { question: 'status-after-timeout', answer: 'x', settled: [1] }), /\/settled\/0/],
    ['run', JSON.stringify({ scenario: tooMany }), /delivers 9 intents/],
    ['run', JSON.stringify({ scenario: heavy }), /^\/scenario\/fault_space: .*MiB of memory in the page's engine/],
    ['run', JSON.stringify({ scenario: long }), /^\/scenario\/script: the lesson's run shows \d+ table rows/],
    ['check', JSON.stringify({ scenario: longName }), /^\/scenario\/script\/0\/intent: an intent's name of 41 bytes/],
    ['check', JSON.stringify({ scenario: tooMuchWork }), /at most 100 runs and 15000 steps/],
    ['answers', JSON.stringify({ scenario: { client: { key_scope: 'sometimes' } } }), /key_scope/],
    ['compare', JSON.stringify({ scenario: BIG[0] }), /no "compare" block/],
    ['scenario', asLesson(name, { policy: { client: { nonsense: 1 } } }), /nonsense/],
    ['explore', asLesson(name, { faults: 9 }), /\/faults/],
    ['explore', asLesson(name, { policy: 'nope' }), /unknown policy 'nope'/],
    ['challenge', asLesson(name, { attempt: { faults: [{ kind: 'nonsense' }] } }), /\/attempt/],
    ['challenge', JSON.stringify({ scenario: BIG[0], attempt: {} }), /no "challenge" block/],
    ['simulate', '{"runs": 0}', /runs is from 1/],
    ['simulate', '{"runs": 1, "sql_only": 1}', /sql_only/],
    ['check', JSON.stringify({ file: 'x', text: 'x'.repeat(300 * 1024) }), /bytes; at most/],
    ['run', JSON.stringify({ file: 'deep.json', text: nested(100000) }), /nest more than/],
    ['check', '{"file": 5, "text": 5}', /no "text"/],
    ['nope', '{}', /unknown method 'nope'/],
  ];
}

test('every method, accepted and refused, over and over: never past the budget, and the same answers', () => {
  const accepted = acceptedCalls();
  const refused = refusedCalls();
  const first = new Map();
  let highest = engine.memoryBytes();
  for (let round = 0; round < 2; round++) {
    for (const [method, input] of accepted) {
      const out = engine.call(method, input);
      const key = `${method} ${input}`;
      const o = parse(out);
      assert.ok(!refusedOrError(o), `${method} refused: ${out.slice(0, 300)}`);
      if (!first.has(key)) first.set(key, out);
      else assert.equal(out, first.get(key), `${method}: another answer the second time`);
      highest = Math.max(highest, engine.memoryBytes());
      assert.ok(highest <= BUDGET, `${method}: ${highest / MiB} MiB`);
    }
    for (let i = 0; i < 40; i++) {
      for (const [method, input, why] of refused) {
        const out = engine.call(method, input);
        const o = parse(out);
        assert.ok(refusedOrError(o), `${method} not refused: ${out.slice(0, 300)}`);
        assert.match(problems(o), why);
        assert.doesNotMatch(out, /out of memory|internal error/);
        highest = Math.max(highest, engine.memoryBytes());
      }
    }
  }
  assert.ok(highest <= BUDGET, `the engine took ${highest / MiB} MiB; its budget is ${BUDGET / MiB} MiB`);
});

test('at its maximum a call that does not fit is answered "out of memory", and the engine answers after', () => {
  const small = asLesson('01-lost-receipt.json');
  const alone = engine.call('run', small);
  // Take all the memory the module can give, in 1 MiB blocks: it stops at the budget.
  const held = [];
  for (let p = engine.malloc(MiB); p; p = engine.malloc(MiB)) held.push(p);
  assert.ok(engine.memoryBytes() <= BUDGET);
  assert.ok(engine.memoryBytes() > BUDGET - 2 * MiB, `grew to ${engine.memoryBytes() / MiB} MiB only`);
  // Leave room for a shipped lesson, not for a scenario of 8 intents.
  for (let i = 0; i < 4; i++) engine.free(held.pop());
  const big = parse(engine.call('run', JSON.stringify({ scenario: bigScenario(8) })));
  assert.match(big.error.reason, /^out of memory: /);
  // What the failed call held in code without unwinding stays held (CMakeLists.txt): with
  // the memory taken here given back, there is room again.
  for (const p of held) engine.free(p);
  assert.equal(engine.call('run', small), alone);
  assert.ok(parse(engine.call('run', JSON.stringify({ scenario: bigScenario(8) }))).steps.length > 100);
  assert.equal(engine.call('run', small), alone);
  assert.ok(engine.memoryBytes() <= BUDGET);
});
