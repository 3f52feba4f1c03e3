// Lesson text is data: it is always rendered as text, never parsed as HTML;
// and every UI string exists in both languages.

import { test, expect, LESSON, useEnglish, waitReady, serveLessons, builtLesson, lessonFile } from './helpers.mjs';
import { missingKeys } from '../../web/src/i18n.js';

test('every UI string exists in zh-CN and en', () => {
  expect(missingKeys()).toEqual([]);
});

test('markup in a lesson title is shown as text, not inserted as HTML', async ({ page }) => {
  await useEnglish(page);
  const markup = '<img src="x" data-injected="1"><b>bold</b>';
  const lesson = builtLesson();
  lesson.title.en = markup + lesson.title.en;
  await serveLessons(page, { [lessonFile().replace('lessons/', '')]: JSON.stringify(lesson) });
  await page.goto('./');
  const card = page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`);
  await expect(card.locator('h3')).toContainText(markup);
  await card.getByTestId('lesson-open').click();
  await waitReady(page);
  await expect(page.getByTestId('lesson-title')).toContainText(markup);
  await expect(page.locator('[data-injected]')).toHaveCount(0);
  await expect(page.locator('main b')).toHaveCount(0);
});
