// Every lesson the site ships loads, steps and can be completed in the page,
// in both languages. Lessons are read from the built index, not listed here.

import { test, expect, useEnglish, waitReady, completeLesson, currentStep, lastStep } from './helpers.mjs';

test('every lesson in the index opens without an error card and can be completed', async ({ page, request }) => {
  test.setTimeout(120_000);
  const index = await (await request.get('./lessons/index.json')).json();
  expect(index.lessons.length).toBeGreaterThan(0);
  await useEnglish(page);
  await page.goto('./');
  await expect(page.getByTestId('lesson-card')).toHaveCount(index.lessons.length);
  await expect(page.getByTestId('lesson-error')).toHaveCount(0);
  const ids = await page.getByTestId('lesson-card').evaluateAll((cards) => cards.map((c) => c.dataset.lesson));

  for (const id of ids) {
    await page.goto(`./#/lesson/${id}/step/0`);
    await waitReady(page, id);
    // Both languages have text for the title and the first step.
    const en = await page.getByTestId('lesson-title').innerText();
    await page.getByTestId('lang-switch').click();
    const zh = await page.getByTestId('lesson-title').innerText();
    expect(zh).not.toBe(en);
    expect(zh.length).toBeGreaterThan(0);
    await page.getByTestId('lang-switch').click();

    await completeLesson(page);
    expect(await currentStep(page)).toBe(await lastStep(page));
    await expect(page.getByTestId('lesson-completed-banner')).toBeVisible();
  }

  await page.goto('./');
  await expect(page.getByTestId('lesson-completed')).toHaveCount(ids.length);
});
