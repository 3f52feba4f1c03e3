// The page runs under its own Content Security Policy (web/index.html): the guard in
// helpers.mjs fails any test in which something breaks it. These tests check what the
// policy could silently take away: styles set from script, and the word when app.js fails.

import { test, expect, LESSON, useEnglish, openLesson, walk } from './helpers.mjs';

test.beforeEach(async ({ page }) => useEnglish(page));

test('the page declares its policy: scripts and styles from its own folder only, the engine allowed to compile', async ({ page }) => {
  await page.goto('./');
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  expect(directives['default-src']).toEqual(["'self'"]);
  expect(directives['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(directives['style-src']).toEqual(["'self'"]);
  expect(directives['worker-src']).toEqual(["'self'"]);
  expect(csp).not.toContain('unsafe-inline');
  expect(await page.locator('script:not([src])').count()).toBe(0);
});

test('under the policy, the scrubber\'s marks sit where their steps are and the list\'s progress bar fills', async ({ page }) => {
  await openLesson(page, LESSON, 0);
  const last = Number(await page.getByTestId('lesson-view').getAttribute('data-last'));
  const track = await page.locator('.ticks').boundingBox();
  const marks = page.locator('.ticks .tick');
  expect(await marks.count()).toBeGreaterThan(1);
  const xs = [];
  for (const box of await marks.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left + e.getBoundingClientRect().width / 2))) xs.push(box);
  // Marks spread along the track (a blocked style would stack them all at its start).
  expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(track.width / 4);
  expect(last).toBeGreaterThan(0);

  // Answer the first question: the list's bar for this lesson is then partly filled.
  await walk(page, async () => (await page.locator('[data-testid="question"][data-answered="true"]').count()) > 0);
  await page.goto('./#/');
  const card = page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`);
  const bar = await card.locator('.bar').boundingBox();
  const fill = await card.locator('.bar-fill').boundingBox();
  expect(fill.width).toBeGreaterThan(0);
  expect(fill.width).toBeLessThan(bar.width);
});

test('with no inline script, a page script that cannot load is still said on the page', async ({ page, guard }) => {
  guard.allowErrors();
  await page.route('**/app.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('./');
  await expect(page.locator('#app')).toHaveAttribute('data-failed', 'app.js');
  await expect(page.locator('#app .loading')).toContainText('The page script app.js could not be loaded.');
});
