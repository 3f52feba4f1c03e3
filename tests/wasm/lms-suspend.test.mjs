// The SCORM suspend data (web/src/lms.js, docs/lms.md "Resuming"): a lesson's progress
// record whole when it fits, else shortened in the documented order, never over the limit,
// and always a record progress.js accepts.
import assert from 'node:assert/strict';
import test from 'node:test';
import { encodeSuspend, decodeSuspend, SUSPEND_LIMIT } from '../../web/src/lms.js';
import { lessonProblem } from '../../web/src/progress.js';

const long = 'why '.repeat(150);
const record = () => ({
  answers: {
    q1: {
      tries: [1, 2, 3, 4].map((n) => ({ answer: 'a', correct: n === 4, revealed: n > 1, try: n, hint: n === 1 ? long : null, expected: n > 1 ? 'b' : undefined, explanation: n > 1 ? long : null, at: '2026-01-01T00:00:00Z' })),
      correct: true,
    },
    challenge: { tries: [{ answer: 'c'.repeat(900), correct: false, try: 1 }, { answer: 'd'.repeat(900), correct: true, try: 2 }], correct: true },
  },
  reached: 7,
  step: 5,
  completed: true,
  self_check: { 0: true, 1: false },
});

test('a record that fits is kept whole', () => {
  const r = record();
  const got = encodeSuspend('lost-receipt', r, SUSPEND_LIMIT['2004']);
  assert.equal(got.level, 0);
  assert.deepEqual(decodeSuspend(got.text, 'lost-receipt'), JSON.parse(JSON.stringify(r)));
});

test('over the limit: texts, then middle tries, then ticks, then challenge tries go; the rest is a valid record', () => {
  const seen = new Set();
  for (const limit of [SUSPEND_LIMIT['1.2'], 3000, 2500, 1700]) {
    const got = encodeSuspend('lost-receipt', record(), limit);
    assert.ok(got, `fits in ${limit}`);
    assert.ok(got.text.length <= limit);
    seen.add(got.level);
    const back = decodeSuspend(got.text, 'lost-receipt');
    assert.equal(lessonProblem(back), null);
    // Always kept: the verdicts, the step reached and shown, completion, a solved challenge.
    assert.equal(back.answers.q1.correct, true);
    assert.equal(back.answers.q1.tries[0].correct, false);
    assert.deepEqual([back.reached, back.step, back.completed], [7, 5, true]);
    assert.equal(back.answers.challenge.correct, true);
    assert.ok(back.answers.challenge.tries.some((tr) => tr.correct));
    assert.equal(back.answers.q1.tries.some((tr) => tr.explanation), false);
  }
  assert.ok(seen.size >= 2);
  assert.equal(encodeSuspend('lost-receipt', record(), 100), null);
});

test('suspend data of another lesson, or not ours, is not restored', () => {
  const got = encodeSuspend('lost-receipt', record(), 64000);
  assert.equal(decodeSuspend(got.text, 'outbox'), null);
  assert.equal(decodeSuspend('viewed=1,2,3', 'lost-receipt'), null);
  assert.equal(decodeSuspend('', 'lost-receipt'), null);
});
