// Every lesson the site ships loads, steps and can be completed in the page,
// in both languages. Lessons are read from the built index, not listed here.

import fs from 'node:fs';
import { test, expect, useEnglish, waitReady, completeLesson, currentStep, lastStep } from './helpers.mjs';

// One test per lesson of the built index (each with its own time: a long lesson does not
// eat another's), read when the suite is collected.
const index = JSON.parse(fs.readFileSync('dist/lessons/index.json', 'utf8'));
const ids = index.lessons.map((entry) => entry.id);

test('the lesson list shows every lesson of the index, none with an error card', async ({ page }) => {
  expect(ids.length).toBeGreaterThan(0);
  await useEnglish(page);
  await page.goto('./');
  await expect(page.getByTestId('lesson-card')).toHaveCount(ids.length);
  await expect(page.getByTestId('lesson-error')).toHaveCount(0);
  expect(await page.getByTestId('lesson-card').evaluateAll((cards) => cards.map((c) => c.dataset.lesson))).toEqual(ids);
});

for (const id of ids) {
  test(`lesson ${id} opens in both languages and can be completed`, async ({ page }) => {
    test.setTimeout(90_000);
    await useEnglish(page);
    await page.goto(`./#/lesson/${id}/step/0`);
    await waitReady(page, id);
    // Both languages have text for the title and the first step.
    const en = await page.getByTestId('lesson-title').innerText();
    await page.getByTestId('lang-switch').click();
    // The first switch may wait for the other language's strings (a file of their own).
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    const zh = await page.getByTestId('lesson-title').innerText();
    expect(zh).not.toBe(en);
    expect(zh.length).toBeGreaterThan(0);
    await page.getByTestId('lang-switch').click();

    await completeLesson(page);
    expect(await currentStep(page)).toBe(await lastStep(page));
    await expect(page.getByTestId('lesson-completed-banner')).toBeVisible();
    await page.goto('./');
    await expect(page.locator(`[data-testid="lesson-card"][data-lesson="${id}"] [data-testid="lesson-completed"]`)).toHaveCount(1);
  });
}
