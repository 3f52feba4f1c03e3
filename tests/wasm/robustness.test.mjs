// The WebAssembly engine cannot be poisoned (issue 9): a lesson nested 3,500 levels deep
// made idemlab_call throw a JavaScript RangeError and leak, and after 25 such calls every
// call trapped. Now every bad input is an {"error"} or {"ok": false} answer, and after
// 1,000 of them a good call gives the same bytes as before.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';
import { loadEngine, REPO } from './engine-node.mjs';

const engine = await loadEngine();
const lessonText = readFileSync(resolve(REPO, 'lessons/01-lost-receipt.json'), 'utf8');
const good = JSON.stringify({ file: 'lessons/01-lost-receipt.json', text: lessonText });
const nested = (n) => '['.repeat(n) + ']'.repeat(n);

// The lesson with its first moment's event replaced by `raw` JSON text.
function withEvent(raw) {
  const lesson = JSON.parse(lessonText);
  lesson.moments[0].at.event = '@@';
  return JSON.stringify(lesson).replace('"@@"', raw);
}

test('3,500 and 100,000 nested levels in a lesson: refused at the JSON path, not thrown', () => {
  for (const depth of [3500, 100000]) {
    const out = JSON.parse(engine.call('check', JSON.stringify({ file: 'deep.json', text: withEvent(nested(depth)) })));
    assert.equal(out.ok, false);
    assert.match(out.errors[0].path, /^\/moments\/0\/at\/event\/0\/0\//);
    assert.match(out.errors[0].reason, /nest more than 32 levels deep/);
  }
});

test('1,000 bad calls, then a good one: the same bytes as the good call alone', () => {
  const alone = engine.call('run', good);
  assert.ok(JSON.parse(alone).steps.length > 0);
  const bad = [
    ['run', JSON.stringify({ file: 'deep.json', text: withEvent(nested(3500)) })],
    ['check', JSON.stringify({ file: 'comma.json', text: '{"id": "x"，"level": 1}' })],
    ['answers', JSON.stringify({ file: 'huge.json', text: withEvent('1e400') })],
    ['compare', `{"scenario": ${nested(5000)}}`],
    ['explore', '\u0001garbage{{{'],
    ['run', '{"file": "x", "text": "\udc00"}'],   // a lone surrogate: not UTF-8 once encoded
    ['simulate', nested(10000)],
    ['nope', good],
  ];
  const badCalls = (n) => {
    for (let i = 0; i < n; i++) {
      const [method, input] = bad[i % bad.length];
      const out = JSON.parse(engine.call(method, input));
      assert.ok(out.error || out.ok === false, `${method}: ${JSON.stringify(out).slice(0, 200)}`);
    }
  };
  badCalls(bad.length * 4);  // the memory the bad calls need, once
  const memory = engine.memoryBytes();
  badCalls(1000);
  assert.equal(engine.call('run', good), alone);
  // A leak of what a bad call parses (KBs each) would have grown it by 1,000 calls: it stays.
  assert.equal(engine.memoryBytes(), memory);
});

test('a full-width comma: line and column in characters, and the character', () => {
  const out = JSON.parse(engine.call('check', JSON.stringify({ file: 'l.json', text: '{\n  "title": {"zh-CN": "回执"，"en": "x"}}' })));
  assert.equal(out.ok, false);
  assert.deepEqual([out.errors[0].line, out.errors[0].column, out.errors[0].path], [2, 26, "/title"]);
  assert.match(out.errors[0].reason, /^line 2, column 26: not valid JSON: unexpected character '，' \(U\+FF0C\)/);
});

// In the WASM build most of the engine is compiled without unwinding (CMakeLists.txt,
// IDEMLAB_NO_UNWIND_PARTS): an input error thrown across it would keep that code's memory.
// A learner is refused all the time (a sandbox edit, a wrong answer's shape, an attempt
// at a challenge), so each kind of refusal, repeated, must leave the memory as it was.
test('refused lessons, scenarios, answers, attempts and challenges, repeated: the memory stays', () => {
  const lesson = JSON.parse(lessonText);
  const file = 'lessons/01-lost-receipt.json';
  const withLesson = (extra, text = lessonText) => JSON.stringify({ file, text, ...extra });
  const badKind = structuredClone(lesson);
  badKind.questions[0].kind = 'nonsense';
  const unsolvable = structuredClone(lesson);
  unsolvable.challenge.policy = {};  // the default policy: no single fault breaks it
  const refused = [
    ['check', withLesson({}, JSON.stringify(badKind)), /unknown value 'nonsense'/],
    ['run', JSON.stringify({ scenario: { policy: 'x' } }), /unknown field 'policy'/],
    ['run', JSON.stringify({ scenario: { client: { key_scope: 'sometimes' } } }), /key_scope/],
    ['answer', withLesson({ question: 'nope', answer: 'x' }), /unknown question 'nope'/],
    ['answer', withLesson({ question: 'moment-table', answer: 'x' }), /a table answer is an object/],
    ['answer', withLesson({ question: 'client-knows-request-arrived', answer: 'maybe' }), /knows_true, knows_false or cannot_know/],
    ['answer', withLesson({ question: 'status-after-timeout', answer: 3 }), /is a string/],
    ['challenge', withLesson({ attempt: { faults: [{ kind: 'nonsense' }] } }), /\/attempt/],
    ['explore', withLesson({ policy: 'nope' }), /unknown policy 'nope'/],
  ];
  const slow = ['check', withLesson({}, JSON.stringify(unsolvable)), /breaks duplicate_effect/];
  const reasonOf = (out) => JSON.stringify(out.error || out.errors);
  const refuse = ([method, input, why]) => {
    const out = JSON.parse(engine.call(method, input));
    assert.ok(out.error || out.ok === false, `${method} was not refused: ${JSON.stringify(out).slice(0, 200)}`);
    assert.match(reasonOf(out), why);
  };
  for (let i = 0; i < 3; i++) [...refused, slow].forEach(refuse);  // the memory they need, once
  const memory = engine.memoryBytes();
  for (let i = 0; i < 300; i++) refused.forEach(refuse);
  for (let i = 0; i < 20; i++) refuse(slow);
  assert.equal(engine.memoryBytes(), memory);
});
