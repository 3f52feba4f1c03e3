// How a lesson opens (issue 12): from the run the build computed for its exact text, without
// waiting for the engine, which loads in its Web Worker after the first view is drawn; the
// learner's first check waits for the engine; a lesson text the build did not run is run by
// the engine, never shown from a run of another text.

import { test, expect, LESSON, useEnglish, openLesson, currentStep, builtLesson, lessonFile, serveLessons } from './helpers.mjs';

test('a lesson opens and steps while its engine is still on the way; the first check waits for the engine, then gets its verdict', async ({ page }) => {
  await useEnglish(page);
  const held = [];
  await page.route('**/engine/idemlab.wasm', (route) => {
    held.push(route); // answered at the end of the test
  });
  await openLesson(page, LESSON, 0);
  await page.getByTestId('next').click();
  await expect.poll(() => currentStep(page)).toBe(1);
  // The first open question (End stops at it), answered while the engine is held back.
  await page.getByTestId('controls').focus();
  await page.keyboard.press('End');
  const card = page.locator('[data-testid="question"][data-settled="false"]').first();
  await card.locator('button[data-answer]').first().click();
  await expect(card).toHaveAttribute('aria-busy', 'true');
  await expect(card.getByTestId('verdict')).toHaveCount(0);
  await expect(card.getByTestId('answer-error')).toHaveCount(0);
  // The engine arrives: the answer is checked.
  await expect.poll(() => held.length).toBe(1);
  await held[0].continue();
  await expect(card.getByTestId('verdict').first()).toBeVisible({ timeout: 20_000 });
  await expect(card).not.toHaveAttribute('aria-busy', 'true');
});

for (const lang of ['en', 'zh-CN']) {
  test(`a lesson text changed after the build is run by the engine: the view shows the text the page fetched (${lang})`, async ({ page }) => {
    await page.addInitScript((l) => localStorage.setItem('idemlab.lang', l), lang);
    const lesson = builtLesson();
    const edited = { en: ' (edited after the build)', 'zh-CN': '（构建之后改过）' };
    lesson.title[lang] += edited[lang];
    await serveLessons(page, { [lessonFile().replace(/^lessons\//, '')]: JSON.stringify(lesson, null, 2) });
    await openLesson(page, LESSON, 0);
    await expect(page.getByTestId('lesson-title')).toHaveText(lesson.title[lang]);
    // The same lesson, unchanged, opens from the build's run with its own title.
    const other = await page.context().newPage();
    await other.goto(`./#/lesson/${LESSON}/step/0`);
    await expect(other.getByTestId('lesson-title')).toHaveText(builtLesson().title[lang]);
    await other.close();
  });
}
