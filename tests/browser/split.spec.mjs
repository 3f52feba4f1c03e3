// The page in parts (scripts/lib/page-bundle.mjs): a lesson opened from its address waits
// only for the code it shows, and its data is asked for before app.js runs;
// the sandbox and the lesson list arrive when the learner goes there; the other language's
// strings only when the language switch is about to be used. And when a part cannot be
// fetched, the page says so.

import { test, expect, LESSON, waitReady, sandboxReady, settleLessons, lessonFile } from './helpers.mjs';

/** The part a chunk file is ("sandbox", "list", "en", "zh-CN", "chunk" for shared code), or null. */
function partOf(url) {
  const m = /\/chunks\/([A-Za-z-]+?)-[a-z0-9]+\.js$/.exec(new URL(url).pathname);
  return m ? m[1] : null;
}

function watchParts(page) {
  const parts = [];
  page.on('request', (r) => {
    const p = partOf(r.url());
    if (p && p !== 'chunk' && !parts.includes(p)) parts.push(p);
  });
  return parts;
}

test('a lesson is ready with only its own parts; the sandbox and the list come when asked for, the other language when the switch is reached', async ({ page }) => {
  // The sandbox opens from a lesson once its questions are settled.
  await settleLessons(page, [LESSON]);
  const parts = watchParts(page);
  // When <body> is marked ready, in page time.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (!window.__readyAt && document.body && document.body.dataset.ready === 'true') window.__readyAt = performance.now();
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });
  });
  await page.goto(`./#/lesson/${LESSON}`);
  await waitReady(page, LESSON);
  const beforeReady = await page.evaluate(() =>
    performance.getEntriesByType('resource').filter((e) => e.startTime <= window.__readyAt).map((e) => e.name),
  );
  // The browser's language (zh-CN) is the only part of its own fetched until then.
  expect(beforeReady.map(partOf).filter((p) => p && p !== 'chunk')).toEqual(['zh-CN']);
  await page.getByTestId('next').click();
  await expect(page.getByTestId('lesson-view')).toHaveAttribute('data-step', '1');

  expect(parts).not.toContain('sandbox');
  await page.getByTestId('open-in-sandbox').click();
  await sandboxReady(page);
  expect(parts).toContain('sandbox');

  expect(parts).not.toContain('list');
  await page.locator('header a.brand').click();
  await expect(page.locator('[data-testid="lesson-card"]').first()).toBeVisible();
  expect(parts).toContain('list');

  // A lesson, the sandbox and the list, all in one language: one language's strings fetched.
  expect(parts.filter((p) => p === 'en' || p === 'zh-CN')).toEqual(['zh-CN']);
  // The pointer on the language switch fetches the other one; the switch then shows it.
  await page.getByTestId('lang-switch').hover();
  await expect.poll(() => parts.includes('en')).toBe(true);
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('lang-switch')).toHaveText('中文');
});

test('a lesson\'s data is asked for before app.js runs, not by it', async ({ page }) => {
  await page.goto(`./#/lesson/${LESSON}`);
  await waitReady(page, LESSON);
  const file = lessonFile(LESSON);
  const { entries, app } = await page.evaluate(() => ({
    entries: performance.getEntriesByType('resource').map((e) => ({ path: new URL(e.name).pathname, start: e.startTime })),
    // main.js marks when the page's script begins to run
    app: performance.getEntriesByName('idemlab-app')[0].startTime,
  }));
  const at = (path) => entries.find((e) => e.path === `/${path}`);
  // The lesson's file, its run and the index were each asked for before the page's script
  // ran (web/early.js): none of them waits for app.js to load and run first.
  for (const path of [file, file.replace(/\.json$/, '.run.json'), 'lessons/index.json']) {
    expect(at(path), path).toBeTruthy();
    expect(at(path).start, path).toBeLessThan(app);
  }
});

test('when the shown language\'s strings cannot be fetched, the page says so in both languages', async ({ page, guard }) => {
  guard.allowErrors(); // the browser logs the refused file
  await page.route((url) => partOf(url.href) === 'zh-CN', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`./#/lesson/${LESSON}`);
  const card = page.getByTestId('fatal-error');
  await expect(card).toContainText('页面的文字没有加载成功。');
  await expect(card).toContainText("The page's text could not be loaded.");
  await expect(card.getByRole('button')).toHaveText('刷新页面 · Reload the page');
});

test('a language whose strings cannot be fetched leaves the page in its language; asked again, it switches', async ({ page, guard }) => {
  guard.allowErrors(); // the browser logs the refused file
  const refuse = (route) => route.fulfill({ status: 404, body: 'gone' });
  const isEnglish = (url) => partOf(url.href) === 'en';
  await page.route(isEnglish, refuse);
  await page.goto(`./#/lesson/${LESSON}`);
  await waitReady(page, LESSON);
  const title = await page.locator('h1, h2').first().innerText();

  const warned = page.waitForEvent('console', (m) => m.type() === 'warning' && m.text().includes('strings did not load'));
  await page.getByTestId('lang-switch').click();
  await warned;
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('lang-switch')).toHaveText('English');
  expect(await page.locator('h1, h2').first().innerText()).toBe(title);
  await page.getByTestId('next').click();
  await expect(page.getByTestId('lesson-view')).toHaveAttribute('data-step', '1');

  await page.unroute(isEnglish, refuse);
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('lang-switch')).toHaveText('中文');
});
