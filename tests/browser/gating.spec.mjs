// The knowledge grid never gives away an open question's answer: not on the way to
// the question, not beside the asked cell, not in the truth before a prediction.
// lost-receipt: two knowledge questions (client, service) at the response's loss, a
// prediction at the same step, a prediction and a choice at the timeout, a prediction when
// the client reconciles, then a knowledge question and the moment table at the end. Every
// step comes from the engine's run (its moments' and questions' steps), never written here.

import { test, expect, LESSON, useEnglish, openLesson, currentStep, questionCard, answerRightly } from './helpers.mjs';

/** The steps of the lesson's moments and question cards, as the engine resolves them. */
async function stepsOf(page) {
  return page.evaluate((id) => {
    const l = window.__idemlab.lesson(id);
    const run = window.__idemlab.call('run', { file: l.file, text: l.text });
    const moment = Object.fromEntries(run.lesson.moments.map((m) => [m.id, m.step]));
    const question = Object.fromEntries(run.lesson.questions.map((q) => [q.id, q.step]));
    const table = run.lesson.questions.find((q) => q.kind === 'table');
    return { moment, question, tableMoments: table.moments.map((m) => m.step) };
  }, LESSON);
}

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

/** Status of every cell in a side's column ('hidden' when covered). */
async function column(page, side) {
  return page.locator(`[data-testid^="kcell-${side}-"]`).evaluateAll((cells) => cells.map((c) => c.dataset.status));
}

async function goTo(page, step) {
  await page.evaluate((n) => (location.hash = `#/lesson/lost-receipt/step/${n}`), step);
  await expect.poll(() => currentStep(page)).toBe(step);
}

test('on the way to a knowledge question, the asked side\'s whole column says "answer first"', async ({ page }) => {
  await openLesson(page, LESSON, 0);
  const at = await stepsOf(page);
  const asked = at.question['client-knows-effect-after-loss'];
  const commit = at.moment.service_commits;
  // A step on the way that no moment of the table stands at (its cells wait for the table).
  const between = [...Array(asked).keys()].reverse().find((n) => n > 0 && !at.tableMoments.includes(n));
  expect(commit).toBeLessThan(asked);
  for (const step of [0, commit, between]) {
    await goTo(page, step);
    const client = await column(page, 'client');
    expect(client.length).toBeGreaterThan(1);
    expect(client.every((s) => s === 'hidden'), `client column at step ${step}`).toBe(true);
    await expect(page.getByTestId('kcell-client-effect_exists')).toContainText('shown after you answer');
    await expect(page.getByTestId('kcell-client-effect_exists')).not.toContainText('cannot know');
  }
  await goTo(page, asked);
  // Beside the asked cell, "number of effects" tells the answer as well: hidden too.
  expect((await column(page, 'client')).every((s) => s === 'hidden')).toBe(true);
  await expect(page.getByTestId('kcell-client-effect_count')).toHaveAttribute('data-status', 'hidden');

  await answerRightly(page, questionCard(page, 'client-knows-effect-after-loss'));
  await answerRightly(page, questionCard(page, 'service-knows-response'));
  // This step is also a moment of the (unanswered) moment table: still hidden there.
  expect(at.tableMoments).toContain(asked);
  expect((await column(page, 'client')).every((s) => s === 'hidden')).toBe(true);
  await goTo(page, between);
  expect((await column(page, 'client')).includes('hidden')).toBe(false);
  expect((await column(page, 'service')).includes('hidden')).toBe(false);
});

test('a prediction keeps the truth hidden from the previous question on; later questions hide their columns', async ({ page }) => {
  await openLesson(page, LESSON, 0);
  const at = await stepsOf(page);
  const lost = at.question['client-knows-effect-after-loss'];
  const timeout = at.question['predict-new-key'];
  const keys = at.question['keys-across-attempts'];
  const end = at.question['moment-table'];
  expect(at.question['status-after-timeout']).toBe(lost);
  expect(at.question['next-step-after-timeout']).toBe(timeout);
  expect(lost + 1).toBeLessThan(timeout);
  expect(at.question['client-knows-after-reconcile']).toBe(end);
  await goTo(page, lost);
  await answerRightly(page, questionCard(page, 'client-knows-effect-after-loss'));
  await answerRightly(page, questionCard(page, 'service-knows-response'));
  await answerRightly(page, questionCard(page, 'status-after-timeout'));
  await page.getByTestId('next').click();
  await expect.poll(() => currentStep(page)).toBe(lost + 1);
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  await expect(page.getByTestId('truth')).toHaveCount(0);
  await expect(page.getByTestId('truth-gated')).toBeVisible();
  await goTo(page, timeout);
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  await answerRightly(page, questionCard(page, 'predict-new-key'));
  // The choose card at the same step is about the future too: the truth waits for it.
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  await answerRightly(page, questionCard(page, 'next-step-after-timeout'));
  await expect(page.getByTestId('truth-column')).toBeVisible();

  // The steps after the timeout lead to a prediction (how many keys the attempts carry): the truth waits.
  await goTo(page, keys);
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  await answerRightly(page, questionCard(page, 'keys-across-attempts'));
  // The steps after it lead to the client question and the moment table: both columns hidden.
  for (const step of [keys + 1, Math.floor((keys + 1 + end) / 2), end]) {
    await goTo(page, step);
    expect((await column(page, 'client')).every((s) => s === 'hidden'), `client at ${step}`).toBe(true);
    expect((await column(page, 'service')).every((s) => s === 'hidden'), `service at ${step}`).toBe(true);
  }
  // At the end, "number of effects: knows 1" would say "knows true": hidden while either is open.
  await answerRightly(page, questionCard(page, 'client-knows-after-reconcile'));
  await expect(page.getByTestId('kcell-client-effect_count')).toHaveAttribute('data-status', 'hidden');
  await answerRightly(page, questionCard(page, 'moment-table'));
  await expect(page.getByTestId('kcell-client-effect_count')).not.toHaveAttribute('data-status', 'hidden');
  await goTo(page, at.moment.service_commits);
  expect((await column(page, 'service')).includes('hidden')).toBe(false);
});
