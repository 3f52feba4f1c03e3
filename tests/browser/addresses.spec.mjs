// Addresses a newcomer typed or kept from an old link: a lesson id that does not exist, a
// sandbox step with no scenario in the address, a step past a run's end, and times typed
// into the sandbox past what the engine accepts (its limit, from `vocabulary`).

import { test, expect, LESSON, useEnglish, openLesson } from './helpers.mjs';

const sandboxStep = async (page) => Number(await page.getByTestId('scrubber').inputValue());
const sandboxLast = async (page) => Number(await page.getByTestId('scrubber').getAttribute('max'));

for (const [lang, says, listTitle] of [
  ['en', /no such lesson/i, /no lesson with id/i],
  ['zh-CN', /没有这一课/, /没有 id 为/],
]) {
  test(`#/lesson/nope, after a lesson, says no such lesson in the tab and the page, and shows the list (${lang})`, async ({ page }) => {
    if (lang === 'en') await useEnglish(page);
    await openLesson(page, LESSON);
    const lessonTitle = await page.title();
    await page.evaluate(() => (window.location.hash = '#/lesson/nope'));
    await expect(page.getByTestId('route-message')).toContainText('nope');
    await expect(page.getByTestId('route-message')).toContainText(listTitle);
    // The tab no longer names the lesson shown before, and the address no longer names the missing one.
    await expect(page).not.toHaveTitle(lessonTitle);
    await expect(page).toHaveTitle(says);
    await expect(page).not.toHaveURL(/nope/);
    // The list is offered: the lesson that exists opens from it.
    await page.locator(`[data-lesson="${LESSON}"] [data-testid="lesson-open"]`).click();
    await expect(page.getByTestId('lesson-view')).toBeVisible();
    await expect(page).not.toHaveTitle(says);
  });
}

test('#/sandbox/step/3 opens the default scenario at step 3; a step past its end shows the last step and says so', async ({ page }) => {
  await useEnglish(page);
  await page.goto('./#/sandbox/step/3');
  await page.locator('body[data-ready="true"]').waitFor();
  await expect(page.getByTestId('sandbox-view')).toBeVisible();
  expect(await sandboxLast(page)).toBeGreaterThan(3);
  expect(await sandboxStep(page)).toBe(3);
  await expect(page.getByTestId('sb-no-step')).toHaveCount(0);
  // The address keeps the step, beside the scenario the sandbox writes into it.
  await page.evaluate(() => window.__idemlab.hashSettled());
  expect(page.url()).toMatch(/#\/sandbox\/[^/]+\/step\/3$/);

  await page.goto('./#/sandbox/step/999');
  await page.locator('body[data-ready="true"]').waitFor();
  await expect(page.getByTestId('sb-no-step')).toContainText('999');
  expect(await sandboxStep(page)).toBe(await sandboxLast(page));
  await expect(page.getByTestId('sb-no-step')).toContainText(String(await sandboxLast(page)));
});

test('times typed into the sandbox stay within the engine\'s limit: the run is not refused', async ({ page }) => {
  await useEnglish(page);
  await page.goto('./#/sandbox');
  await page.locator('body[data-ready="true"]').waitFor();
  const limit = (await page.evaluate(() => window.__idemlab.call('vocabulary', {}))).limits.max_virtual_ms;
  expect(limit).toBeGreaterThan(0);
  // A script action's time, far past the limit: kept at the limit, and the engine runs it.
  const at = page.locator('[data-testid="sb-script-list"] input[data-at="0"]');
  await expect(at).toHaveAttribute('max', String(limit));
  await at.fill(String(limit * 10));
  await at.press('Enter');
  await page.locator('[data-testid="sandbox-view"]:not([aria-busy])').waitFor();
  await expect(page.getByTestId('sb-edit-error')).toHaveCount(0);
  await expect(at).toHaveValue(String(limit));
  // The field for a new action offers no more either.
  await expect(page.locator('input[data-fkey="new-at"]')).toHaveAttribute('max', String(limit));
});

test('keyboard: stepping back to the start with Enter leaves the focus on a step button, not the page', async ({ page }) => {
  await useEnglish(page);
  await page.goto('./#/sandbox/step/2');
  await page.locator('body[data-ready="true"]').waitFor();
  expect(await sandboxStep(page)).toBe(2);
  await page.getByTestId('prev').focus();
  while ((await sandboxStep(page)) > 0) await page.keyboard.press('Enter');
  await expect(page.getByTestId('prev')).toBeDisabled();
  // The focus moved to the button that still goes somewhere; Enter there steps forward.
  await expect(page.getByTestId('next')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(() => sandboxStep(page)).toBe(1);
  // And at the other end, from "last", back to "previous".
  await page.getByTestId('last').focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await sandboxStep(page)) === (await sandboxLast(page))).toBe(true);
  await expect(page.getByTestId('prev')).toBeFocused();
});

test('switching the language in a page whose address names one (?lang=) names the new one, so a reload keeps it', async ({ page }) => {
  await page.goto(`/?lang=zh-CN#/lesson/${LESSON}`);
  await expect(page.locator('body[data-ready="true"]')).toBeAttached();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect.poll(() => new URL(page.url()).searchParams.get('lang')).toBe('en');
  expect(new URL(page.url()).hash).toContain(`#/lesson/${LESSON}`);
  await page.reload();
  await expect(page.locator('body[data-ready="true"]')).toBeAttached();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('lang-switch')).toHaveText('中文');
});
