// The knowledge grid never gives away an open question's answer: not on the way to
// the question, not beside the asked cell, not in the truth before a prediction.
// lost-receipt: knowledge questions at step 7 (client, service), predict and choose at 9,
// knowledge (client), moment table and concept at 18.

import { test, expect, LESSON, useEnglish, openLesson, currentStep, questionCard, answerRightly } from './helpers.mjs';

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
  await openLesson(page, LESSON, 5);
  for (const step of [0, 5, 6]) {
    await goTo(page, step);
    const client = await column(page, 'client');
    expect(client.length).toBeGreaterThan(1);
    expect(client.every((s) => s === 'hidden'), `client column at step ${step}`).toBe(true);
    await expect(page.getByTestId('kcell-client-effect_exists')).toContainText('shown after you answer');
    await expect(page.getByTestId('kcell-client-effect_exists')).not.toContainText('cannot know');
  }
  await goTo(page, 7);
  // Beside the asked cell, "number of effects" tells the answer as well: hidden too.
  expect((await column(page, 'client')).every((s) => s === 'hidden')).toBe(true);
  await expect(page.getByTestId('kcell-client-effect_count')).toHaveAttribute('data-status', 'hidden');

  await answerRightly(page, questionCard(page, 'client-knows-effect-after-loss'));
  await answerRightly(page, questionCard(page, 'service-knows-response'));
  // Step 7 is also a moment of the (unanswered) moment table: still hidden there.
  expect((await column(page, 'client')).every((s) => s === 'hidden')).toBe(true);
  await goTo(page, 6);
  expect((await column(page, 'client')).includes('hidden')).toBe(false);
  expect((await column(page, 'service')).includes('hidden')).toBe(false);
});

test('a prediction keeps the truth hidden from the previous question on; later questions hide their columns', async ({ page }) => {
  await openLesson(page, LESSON, 7);
  await answerRightly(page, questionCard(page, 'client-knows-effect-after-loss'));
  await answerRightly(page, questionCard(page, 'service-knows-response'));
  await answerRightly(page, questionCard(page, 'status-after-timeout'));
  await page.getByTestId('next').click();
  await expect.poll(() => currentStep(page)).toBe(8);
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  await expect(page.getByTestId('truth')).toHaveCount(0);
  await expect(page.getByTestId('truth-gated')).toBeVisible();
  await page.getByTestId('next').click();
  await expect.poll(() => currentStep(page)).toBe(9);
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  await answerRightly(page, questionCard(page, 'predict-new-key'));
  // The choose card at the same step is about the future too: the truth waits for it.
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  await answerRightly(page, questionCard(page, 'next-step-after-timeout'));
  await expect(page.getByTestId('truth-column')).toBeVisible();

  // Steps 10..13 lead to a prediction (how many keys the attempts carry): the truth waits.
  await goTo(page, 13);
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  await answerRightly(page, questionCard(page, 'keys-across-attempts'));
  // Steps 14..18 lead to the client question and the moment table: both columns hidden.
  for (const step of [14, 16, 18]) {
    await goTo(page, step);
    expect((await column(page, 'client')).every((s) => s === 'hidden'), `client at ${step}`).toBe(true);
    expect((await column(page, 'service')).every((s) => s === 'hidden'), `service at ${step}`).toBe(true);
  }
  // At 18, "number of effects: knows 1" would say "knows true": hidden while either is open.
  await answerRightly(page, questionCard(page, 'client-knows-after-reconcile'));
  await expect(page.getByTestId('kcell-client-effect_count')).toHaveAttribute('data-status', 'hidden');
  await answerRightly(page, questionCard(page, 'moment-table'));
  await expect(page.getByTestId('kcell-client-effect_count')).not.toHaveAttribute('data-status', 'hidden');
  await goTo(page, 5);
  expect((await column(page, 'service')).includes('hidden')).toBe(false);
});
