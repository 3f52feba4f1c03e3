// The self-check list (issue 30, rule 2: earned, not given): the lesson's goals, shown from
// the start, ticked only once every question is settled (answered right, or its answer
// shown), and the ticks kept.

import { test, expect, LESSON, useEnglish, openLesson, waitReady, walk, answerRightly, openQuestions, questionCard, currentStep, lastStep } from './helpers.mjs';

const KEY = 'idemlab.progress.v1';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

/** Neither a click nor the keyboard ticks `box`: it stays unticked and nothing is saved. */
async function cannotTick(page, box) {
  await expect(box).toBeDisabled();
  await box.click({ force: true });
  await expect(box).not.toBeChecked();
  // Not reachable by the keyboard, and Space on it does nothing.
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  await box.focus();
  await expect(box).not.toBeFocused();
  await box.press('Space');
  await expect(box).not.toBeChecked();
  const saved = await page.evaluate((k) => JSON.parse(localStorage.getItem(k) || '{}'), KEY);
  const ticks = (saved.lessons && saved.lessons[LESSON] && saved.lessons[LESSON].self_check) || {};
  expect(Object.values(ticks).filter(Boolean)).toEqual([]);
}

test('the goals show from the start and cannot be ticked until every question is settled; then a tick is kept across a reload', async ({ page }) => {
  test.setTimeout(120_000);
  await openLesson(page, LESSON, 0);
  const list = page.getByTestId('self-check');
  await expect(list).toBeVisible();
  await expect(list.locator('h3')).toHaveText('By the end of this lesson you can…');
  await expect(page.getByTestId('self-check-note')).toContainText('once every question is answered right or has had its answer shown');
  const boxes = page.getByTestId('self-check-item');
  expect(await boxes.count()).toBeGreaterThan(1);
  await cannotTick(page, boxes.first());

  // Still closed before each question is answered, the last one included.
  const onQuestion = async (card) => {
    await expect(list).toHaveAttribute('data-open', 'false');
    await expect(boxes.last()).toBeDisabled();
    await answerRightly(page, card);
  };
  await walk(page, async () => (await currentStep(page)) >= (await lastStep(page)), { onQuestion });
  while ((await openQuestions(page).count()) > 0) await onQuestion(questionCard(page, await openQuestions(page).first().getAttribute('data-question')));

  // Every question settled: the boxes open, by keyboard and by click.
  await expect(list).toHaveAttribute('data-open', 'true');
  await expect(page.getByTestId('self-check-note')).not.toContainText('once every question is answered right or has had its answer shown');
  await boxes.first().focus();
  await expect(boxes.first()).toBeFocused();
  await page.keyboard.press('Space');
  await expect(boxes.first()).toBeChecked();
  await boxes.nth(1).click();
  await expect(boxes.nth(1)).toBeChecked();

  await page.reload();
  await waitReady(page, LESSON);
  await expect(page.getByTestId('self-check-item').first()).toBeChecked();
  await expect(page.getByTestId('self-check-item').nth(1)).toBeChecked();
  await expect(page.getByTestId('self-check-item').first()).toBeEnabled();
  const saved = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)).lessons, KEY);
  expect(saved[LESSON].self_check).toMatchObject({ 0: true, 1: true });
});
