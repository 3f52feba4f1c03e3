// One score per lesson (issue 30, rule 5): the completion card and the lesson's card in the
// list say the same thing in the same words, in both languages, and the completion card
// says where the lesson's challenge stands. Which questions are answered how is chosen
// from the lesson's run as the page meets them, never by step number.

import { test, expect, LESSON, useEnglish, openLesson, waitReady, walk, answerRightly, answerWrongly, openQuestions, questionCard, currentStep, lastStep, sandboxReady } from './helpers.mjs';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

/** A lesson's challenge as the engine's run states it (null: none). */
async function challengeOf(page, id) {
  return page.evaluate(async (x) => {
    const l = window.__idemlab.lesson(x);
    const run = await window.__idemlab.call('run', { file: l.file, text: l.text });
    return run.lesson.challenge || null;
  }, id);
}

/**
 * Walk lesson `id` to its end: the first question met is answered wrong once and then
 * right, the second is answered wrong and its answer shown, the others right at once.
 * Returns how many questions the lesson has.
 */
async function finishWithOneWrongAndOneShown(page, id) {
  await openLesson(page, id, 0);
  const total = await page.evaluate((x) => window.__idemlab.lesson(x).questions.length, id);
  expect(total).toBeGreaterThanOrEqual(3);
  let met = 0;
  const onQuestion = async (card) => {
    met += 1;
    if (met === 1) {
      await answerWrongly(page, card);
      await answerRightly(page, card);
    } else if (met === 2) {
      await answerWrongly(page, card);
      await card.getByTestId('reveal').click();
      await expect(card).toHaveAttribute('data-settled', 'true');
    } else {
      await answerRightly(page, card);
    }
  };
  await walk(page, async () => (await currentStep(page)) >= (await lastStep(page)), { onQuestion });
  while ((await openQuestions(page).count()) > 0) await onQuestion(questionCard(page, await openQuestions(page).first().getAttribute('data-question')));
  expect(met).toBe(total);
  await expect(page.getByTestId('lesson-end')).toBeVisible();
  return total;
}

test('the completion card and the lesson card give one score in the same words, in English and in Chinese', async ({ page }) => {
  test.setTimeout(120_000);
  const total = await finishWithOneWrongAndOneShown(page, LESSON);
  const end = page.getByTestId('lesson-end');
  // One question wrong at its first try and one shown: neither counts as right at the first try.
  await expect(end.getByTestId('end-score')).toHaveText(`right at the first try: ${total - 2} of ${total} · answers shown: 1`);
  // The banner above a completed lesson says it in the same words.
  await expect(page.getByTestId('completed-score')).toHaveText(await end.getByTestId('end-score').innerText());
  const endText = await end.getByTestId('end-score').innerText();

  await page.getByTestId('back').click();
  const listCard = page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`);
  await expect(listCard.getByTestId('lesson-completed')).toBeVisible();
  await expect(listCard.getByTestId('lesson-score')).toHaveText(endText);
  // No other count of right answers on the card to contradict it.
  await expect(listCard).not.toContainText('correct');

  // The same in Chinese.
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const zhList = await listCard.getByTestId('lesson-score').innerText();
  expect(zhList).not.toBe(endText);
  expect(zhList).toContain(`${total - 2}/${total}`);
  // Back into the lesson where the learner left it, its end.
  await listCard.getByTestId('lesson-open').click();
  await waitReady(page, LESSON);
  await expect(page.getByTestId('lesson-end').getByTestId('end-score')).toHaveText(zhList);
});

test('the completion card says where the lesson\'s challenge stands, as the lesson card does, and links into it', async ({ page }) => {
  test.setTimeout(120_000);
  await finishWithOneWrongAndOneShown(page, LESSON);
  const challenge = await challengeOf(page, LESSON);
  test.skip(!challenge, 'this lesson has no challenge');
  const end = page.getByTestId('lesson-end');
  const state = end.getByTestId('end-challenge');
  await expect(state).toHaveAttribute('data-state', 'none');
  await expect(state.getByTestId('challenge-state')).toHaveText(`Challenge: ${challenge.kind === 'break' ? 'break it' : 'fix it'} · not tried yet`);
  const said = await state.getByTestId('challenge-state').innerText();

  await page.getByTestId('back').click();
  const listCard = page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`);
  await expect(listCard.getByTestId('lesson-challenge').getByTestId('challenge-state')).toHaveText(said);

  // Not solved yet: the completion card opens the challenge in the sandbox.
  await listCard.getByTestId('lesson-open').click();
  await waitReady(page, LESSON);
  await page.getByTestId('lesson-end').getByTestId('end-challenge-start').click();
  await sandboxReady(page);
  await expect(page.getByTestId('sb-challenge')).toHaveAttribute('data-kind', challenge.kind);
  await expect(page.getByTestId('sb-challenge-prompt')).toHaveText(challenge.prompt.en);
});
