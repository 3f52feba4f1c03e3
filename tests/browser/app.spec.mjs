// The page around the lessons: the list and progress, languages, bad input of
// every kind, the embedded mode and the narrow layout.

import { test, expect, LESSON, useEnglish, openLesson, waitReady, walk, answerRightly, answerWrongly, openQuestions, questionCard, currentStep, lastStep, openEmbedded, serveLessons, addLessonCopy, builtLesson } from './helpers.mjs';

test('the list shows each lesson with its progress, and progress survives a reload', async ({ page }) => {
  await useEnglish(page);
  await page.goto('./');
  const card = page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`);
  await expect(card.getByTestId('lesson-progress')).toContainText(/answered 0\/\d+/);

  await card.getByTestId('lesson-open').click();
  await waitReady(page);
  let qid = null;
  let answered = 0;
  await walk(page, async () => qid !== null, {
    onQuestion: async (c) => {
      answered += 1;
      if (qid !== null) return answerRightly(page, c);
      qid = await c.getAttribute('data-question');
      await answerWrongly(page, c);
      await answerRightly(page, c);
    },
  });
  expect(qid).not.toBeNull();
  const step = await currentStep(page);

  await page.reload();
  await waitReady(page);
  expect(await currentStep(page)).toBe(step);
  const kept = page.locator(`[data-testid="question"][data-question="${qid}"]`);
  await expect(kept).toHaveAttribute('data-solved', 'true');
  await expect(kept.getByTestId('verdict')).toHaveCount(2);

  await page.getByTestId('back').click();
  await expect(card.getByTestId('lesson-progress')).toContainText(new RegExp(`^answered ${answered}/\\d+$`));
  await expect(card.getByTestId('lesson-score')).toContainText(`right at the first try: ${answered - 1} of `);

  // Export downloads the same progress as JSON.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-progress').click()]);
  const text = await (await download.createReadStream()).toArray();
  const data = JSON.parse(Buffer.concat(text).toString('utf8'));
  expect(data.lessons[LESSON].answers[qid].tries).toHaveLength(2);

  // Import puts it back after the storage is cleared.
  await page.evaluate(() => localStorage.removeItem('idemlab.progress.v1'));
  await page.reload();
  await expect(card.getByTestId('lesson-progress')).toContainText(/answered 0\//);
  await page.getByTestId('import-input').setInputFiles({ name: 'p.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(data)) });
  // It asks first (tests/browser/bad-input.spec.mjs has the preview itself).
  await page.getByTestId('import-confirm').click();
  await expect(card.getByTestId('lesson-progress')).toContainText(`answered ${answered}/`);
});

test('a first visit speaks the browser\'s language; a choice made on the page wins after that', async ({ browser }) => {
  for (const [locale, lang, heading] of [['en-US', 'en', 'Lessons'], ['fr-FR', 'en', 'Lessons'], ['zh-TW', 'zh-CN', '课程']]) {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    await page.goto('./');
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.locator('h2.view-title')).toHaveText(heading);
    if (locale === 'en-US') {
      await page.getByTestId('lang-switch').click();
      await expect(page.locator('h2.view-title')).toHaveText('课程');
      await page.reload();
      await expect(page.locator('h2.view-title')).toHaveText('课程');
    }
    await context.close();
  }
});

test('the interface starts in Chinese and switches to English, and remembers it', async ({ page }) => {
  await page.goto('./');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.locator('h2.view-title')).toHaveText('课程');
  await expect(page.getByTestId('lesson-open').first()).toHaveText(/开始|继续|回顾/);
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('h2.view-title')).toHaveText('Lessons');
  await expect(page.getByTestId('lesson-open').first()).toHaveText(/Start|Continue|Review/);

  await page.getByTestId('lesson-open').first().click();
  await waitReady(page);
  await expect(page.getByTestId('next')).toHaveAccessibleName('Next step');
  await page.getByTestId('lang-switch').click();
  await expect(page.getByTestId('next')).toHaveAccessibleName('下一步');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await page.reload();
  await waitReady(page);
  await expect(page.getByTestId('next')).toHaveAccessibleName('下一步');
});

/** The real lesson file with one language removed from its first bilingual text. */
function dropOneLanguage(lesson) {
  let path = null;
  const visit = (v, p) => {
    if (path || !v || typeof v !== 'object') return;
    if (!Array.isArray(v) && 'zh-CN' in v && 'en' in v) {
      delete v.en;
      path = p;
      return;
    }
    for (const [k, x] of Object.entries(v)) visit(x, `${p}/${k}`);
  };
  visit(lesson, '');
  return path;
}

test('a lesson file that fails validation shows an error card; the other lesson still opens', async ({ page }) => {
  await useEnglish(page);
  await addLessonCopy(page, 'broken-copy.json', (lesson) => {
    lesson.id = 'broken-copy';
    expect(dropOneLanguage(lesson)).not.toBeNull();
    return lesson;
  });
  await page.goto('./');
  const err = page.locator('[data-testid="lesson-error"][data-file="lessons/broken-copy.json"]');
  await expect(err).toBeVisible();
  await expect(err.getByTestId('error-file')).toHaveText('lessons/broken-copy.json');
  await expect(err.getByTestId('error-path')).toHaveText(/^\//);
  await expect(err.getByTestId('error-reason')).not.toBeEmpty();

  await page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"] [data-testid="lesson-open"]`).click();
  await waitReady(page);
  await page.getByTestId('next').click();
  expect(await currentStep(page)).toBeGreaterThan(0);
});

test('a lesson file broken after its index was built (a full-width comma) is named by line, column and character, as idemlab check names it', async ({ page }) => {
  await useEnglish(page);
  const good = JSON.stringify({ ...builtLesson(), id: 'comma' }, null, 2);
  await serveLessons(page, { 'comma.json': good }); // the index says the lesson is fine
  const at = good.indexOf(',', good.indexOf('"summary"'));
  const broken = `${good.slice(0, at)}，${good.slice(at + 1)}`;
  await page.route('**/lessons/comma.json', (route) => route.fulfill({ contentType: 'application/json', body: broken }));
  await page.goto('./#/lesson/comma');
  const reason = page.locator('[data-testid="lesson-error"][data-file="lessons/comma.json"]').getByTestId('error-reason');
  await expect(reason).toContainText(`line ${broken.slice(0, at).split('\n').length}`);
  await expect(reason).toContainText('U+FF0C');
});

test('a lesson file that is not JSON is an error card; a listed file gone when opened is named with its status', async ({ page, guard }) => {
  guard.allowErrors(); // the browser logs the 404 itself
  await useEnglish(page);
  const gone = { ...builtLesson(), id: 'gone' };
  await serveLessons(page, { 'not-json.json': '{"id": "oops", ', 'gone.json': JSON.stringify(gone) });
  await page.route('**/lessons/gone.json', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto('./');
  const bad = page.locator('[data-testid="lesson-error"][data-file="lessons/not-json.json"]');
  await expect(bad.getByTestId('error-reason')).toContainText('not valid JSON');
  await expect(page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`)).toBeVisible();

  // The index was built when the file was there; it is gone by the time it is opened.
  await page.locator('[data-testid="lesson-card"][data-lesson="gone"] [data-testid="lesson-open"]').click();
  const missing = page.locator('[data-testid="lesson-error"][data-file="lessons/gone.json"]');
  await expect(missing.getByTestId('error-reason')).toContainText('404');
  await page.getByTestId('back').click();
  await expect(page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`)).toBeVisible();
});

test('a lesson file saved in another encoding than UTF-8 is said to be so, with the line of the first wrong byte', async ({ page }) => {
  await useEnglish(page);
  const good = JSON.stringify({ ...builtLesson(), id: 'gbk-copy' }, null, 2);
  await serveLessons(page, { 'gbk-copy.json': good }); // the index says the lesson is fine
  // Line 3 as a GBK editor would save "你好" (C4 E3 BA C3): not UTF-8.
  const lines = good.split('\n');
  const bytes = Buffer.concat([Buffer.from(lines.slice(0, 2).join('\n') + '\n'), Buffer.from([0x20, 0x20, 0x22, 0xc4, 0xe3, 0xba, 0xc3, 0x22, 0x3a, 0x20, 0x31, 0x2c, 0x0a]), Buffer.from(lines.slice(2).join('\n'))]);
  await page.route('**/lessons/gbk-copy.json', (route) => route.fulfill({ contentType: 'application/json', body: bytes }));
  await page.goto('./#/lesson/gbk-copy');
  const reason = page.locator('.lesson-error-view').getByTestId('error-reason');
  await expect(reason).toContainText('not UTF-8 text: line 3');
  await expect(reason).not.toContainText('\ufffd');
});

test('a lesson found broken when opened from the list takes the keyboard to its error, said as an alert under a view title', async ({ page }) => {
  await useEnglish(page);
  const good = JSON.stringify({ ...builtLesson(), id: 'late-break' }, null, 2);
  await serveLessons(page, { 'late-break.json': good }); // the index says the lesson is fine
  await page.route('**/lessons/late-break.json', (route) => route.fulfill({ contentType: 'application/json', body: good.slice(0, good.length / 2) }));
  await page.goto('./');
  // Opened from the list, by keyboard.
  await page.locator('[data-testid="lesson-card"][data-lesson="late-break"] [data-testid="lesson-open"]').focus();
  await page.keyboard.press('Enter');
  const view = page.locator('.lesson-error-view');
  await expect(view.getByTestId('error-reason')).toContainText('not valid JSON');
  // The error is announced, and the keyboard starts at its title, a view title as on other views.
  await expect(view.getByRole('alert')).toContainText('lessons/late-break.json');
  const title = view.getByRole('heading', { level: 2 });
  await expect(title).toContainText('lessons/late-break.json');
  await expect(title).toBeFocused();
  // The other views' titles are h2 too, and take the keyboard the same way.
  await page.getByTestId('back').click();
  await page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"] [data-testid="lesson-open"]`).click();
  await waitReady(page, LESSON);
  await expect(page.getByRole('heading', { level: 2 }).and(page.getByTestId('lesson-title'))).toBeFocused();
});

test('corrupt saved progress is set aside with a notice, not lost', async ({ page }) => {
  await useEnglish(page);
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('idemlab.progress.v1', '{"version": 1, "lessons": [oops');
    }
  });
  await page.goto('./');
  await expect(page.getByTestId('notice-corrupt')).toBeVisible();
  await expect(page.getByTestId('notice-corrupt')).toContainText('set aside');
  const kept = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('idemlab.progress.corrupt.'));
    return key ? localStorage.getItem(key) : null;
  });
  expect(kept).toBe('{"version": 1, "lessons": [oops');
  await expect(page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`)).toBeVisible();
  await openLesson(page);
  await expect(page.getByTestId('diagram')).toBeVisible();
});

test('an unknown lesson id shows a message and the list', async ({ page }) => {
  await useEnglish(page);
  await page.goto('./#/lesson/no-such-lesson/step/3');
  await expect(page.getByTestId('route-message')).toContainText('no-such-lesson');
  await expect(page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`)).toBeVisible();
});

test('a WASM file that fails to load says which file and why', async ({ page, guard }) => {
  guard.allowErrors();
  await useEnglish(page);
  await page.route('**/engine/idemlab.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('./');
  const card = page.getByTestId('engine-error');
  await expect(card).toBeVisible({ timeout: 20000 });
  await expect(card.getByTestId('error-file')).toContainText('idemlab.wasm');
  await expect(card.getByTestId('error-reason')).not.toBeEmpty();
});

test('embedded in a course page: the host hears about checked answers and a completed lesson', async ({ page }) => {
  test.setTimeout(90_000); // the whole lesson is walked and answered, which a loaded machine takes over 30 s to do
  const { frame, f } = await openEmbedded(page, `#/lesson/${LESSON}`);

  let wrongDone = false;
  const done = async () => Number(await frame.getByTestId('lesson-view').getAttribute('data-step')) >= Number(await frame.getByTestId('lesson-view').getAttribute('data-last'));
  await walk(f, done, {
    onQuestion: async (card) => {
      if (!wrongDone && (await card.getAttribute('data-kind')) !== 'table') {
        wrongDone = true;
        await answerWrongly(f, card);
      }
      await answerRightly(f, card);
    },
  });
  while ((await openQuestions(f).count()) > 0) {
    const qid = await openQuestions(f).first().getAttribute('data-question');
    await answerRightly(f, questionCard(f, qid));
  }
  await expect(frame.getByTestId('lesson-completed-banner')).toBeVisible();

  const msgs = await page.evaluate(() => window.msgs);
  const checked = msgs.filter((m) => m.source === 'idemlab' && m.type === 'answer-checked');
  expect(checked.length).toBeGreaterThan(0);
  expect(checked.some((m) => m.correct === false)).toBe(true);
  expect(checked.every((m) => m.lesson === LESSON && typeof m.question === 'string' && typeof m.correct === 'boolean')).toBe(true);
  const completed = msgs.filter((m) => m.type === 'lesson-completed');
  expect(completed).toHaveLength(1);
  expect(completed[0]).toMatchObject({ source: 'idemlab', type: 'lesson-completed', lesson: LESSON });
  // One question was answered wrongly first: not every question was right at the first try.
  expect(completed[0].first_try_right).toBeLessThan(completed[0].questions);
  expect(completed[0].score).toBe(completed[0].first_try_right / completed[0].questions);

  await frame.getByTestId('back').click();
  await expect(frame.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"] [data-testid="lesson-completed"]`)).toBeVisible();
});

for (const width of [1280, 800, 420]) {
  test(`the lesson view fits ${width}px without sideways scrolling`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await useEnglish(page);
    await openLesson(page);
    await page.getByTestId('next').click();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.getByTestId('diagram')).toBeVisible();
    await expect(page.getByTestId('knowledge-grid')).toBeVisible();
  });
}

test('last step and total are consistent with the scrubber', async ({ page }) => {
  await useEnglish(page);
  await openLesson(page, LESSON, 0);
  const last = await lastStep(page);
  await expect(page.getByTestId('scrubber')).toHaveAttribute('max', String(last));
});

test('with storage blocked the page still works and says progress will not be kept', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
  });
  await page.goto('./');
  await expect(page.getByTestId('notice')).toContainText('本地存储不可用');
  await openLesson(page);
  await page.getByTestId('next').click();
  expect(await currentStep(page)).toBe(1);
});

test('a missing engine script or a broken lesson index is named, never a blank page', async ({ page, guard }) => {
  guard.allowErrors();
  await useEnglish(page);
  await page.route('**/engine/idemlab.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('./');
  const card = page.getByTestId('engine-error');
  await expect(card.getByTestId('error-file')).toHaveText('engine/idemlab.js');
  await expect(card.getByTestId('error-reason')).toContainText('404');

  const other = await page.context().newPage();
  await other.route('**/lessons/index.json', (route) => route.fulfill({ contentType: 'application/json', body: '{"lessons": "all of them"}' }));
  await other.goto('./');
  await expect(other.getByTestId('index-error').getByTestId('error-file')).toHaveText('lessons/index.json');
  await other.close();
});
