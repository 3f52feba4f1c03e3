// What a newcomer's tour of both languages turned up: reasons written in English are
// introduced in the learner's language and never called something they are not.

import { test, expect } from './helpers.mjs';

for (const [lang, intro, notLesson] of [
  ['en', 'The lesson index lessons/index.json could not be read', 'lesson file'],
  ['zh-CN', '课程目录 lessons/index.json 读不出来', '课程文件'],
]) {
  test(`a broken lesson index is introduced as the index, not as a lesson file, and says where it breaks (${lang})`, async ({ page }) => {
    await page.addInitScript((l) => localStorage.setItem('idemlab.lang', l), lang);
    await page.route('**/lessons/index.json', (route) => route.fulfill({ contentType: 'application/json', body: '{"lessons": [' }));
    await page.goto('./');
    const reason = page.getByTestId('index-error').getByTestId('error-reason');
    await expect(reason.getByTestId('error-intro')).toContainText(intro);
    await expect(reason).not.toContainText(notLesson);
    // Where the text breaks, in the engine's words (the same in every browser), not the browser's.
    await expect(reason.locator('[lang="en"]')).toContainText('line 1, column 14: not valid JSON');
  });
}

test('in Chinese, a progress file that cannot be imported says its reason is in English and where the text breaks', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('idemlab.lang', 'zh-CN'));
  await page.goto('./');
  await page.locator('[data-testid="lesson-list"][data-ready="true"]').waitFor();
  // A comma left before the closing brace: the reason says where, as for a lesson file.
  const text = '{"version": 1,\n  "lessons": {},\n}';
  await page.getByTestId('import-input').setInputFiles({ name: 'progress.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByTestId('notice')).toContainText('无法导入 progress.json（原因，英文）：line 3, column 1: not valid JSON');
});

test('in Chinese, the notice about unreadable saved progress marks its English reason as English', async ({ page }) => {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('idemlab.lang', 'zh-CN');
      localStorage.setItem('idemlab.progress.v1', 'garbage{');
    }
  });
  await page.goto('./');
  const reason = page.getByTestId('notice-reason');
  await expect(reason).toContainText('原因，英文');
  await expect(reason.locator('[lang="en"]')).toContainText('not JSON');
});

test('a broken lesson index takes the keyboard to its error; a lesson address says which lesson it could not open', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('idemlab.lang', 'en'));
  await page.route('**/lessons/index.json', (route) => route.fulfill({ contentType: 'application/json', body: '{"lessons": [' }));
  await page.goto('./');
  await expect(page.getByTestId('index-error')).toBeFocused();
  // A lesson's address: the same error, and above it the lesson that was asked for, focused.
  await page.goto('./#/lesson/lost-receipt');
  const message = page.getByTestId('route-message');
  await expect(message).toContainText('lost-receipt');
  await expect(message).toContainText('lessons/index.json');
  await expect(message).toBeFocused();
  await expect(page.getByTestId('index-error')).toBeVisible();
  // The address is kept: once the index is readable again, a reload opens the lesson.
  expect(page.url()).toContain('#/lesson/lost-receipt');
});

test('an entry of the lesson index the page cannot use is said to be in the index, not in a lesson file', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('idemlab.lang', 'en'));
  await page.route('**/lessons/index.json', (route) => route.fulfill({ contentType: 'application/json', body: '{"lessons": [{"file": "elsewhere/x.json"}]}' }));
  await page.goto('./');
  const card = page.getByTestId('lesson-error');
  await expect(card.getByTestId('error-path')).toHaveText('/lessons/0');
  await expect(card.getByTestId('error-intro')).toContainText('The lesson index lessons/index.json');
  await expect(card.getByTestId('error-reason')).not.toContainText('lesson file');
});
