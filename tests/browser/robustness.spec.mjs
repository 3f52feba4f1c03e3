// What a newcomer ran into: bad saved progress, faked verdicts, double clicks,
// first-try counts for teachers, play and the scrubber, keyboard focus, duplicate
// lesson ids, a missing wasm file, odd deep links and engine reasons in Chinese.

import { test, expect, LESSON, useEnglish, openLesson, waitReady, currentStep, lastStep, questionCard, answerRightly, answerWrongly, engineExpected, walk, openQuestions, openEmbedded, addLessonCopy, lessonFile } from './helpers.mjs';

const KEY = 'idemlab.progress.v1';
const Q7 = 'client-knows-request-arrived';

/** Seed saved progress once (not again on reload). */
async function seedProgress(page, data) {
  await page.addInitScript(([key, text]) => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem(key, text);
    }
  }, [KEY, JSON.stringify(data)]);
}

async function backups(page) {
  return page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('idemlab.progress.corrupt.')).map((k) => localStorage.getItem(k)));
}

for (const [name, record] of [
  ['a null try', { tries: [null] }],
  ['a faked verdict', { tries: [{}], correct: true }],
]) {
  test(`saved progress with ${name} is set aside with a notice; the lesson still works`, async ({ page }) => {
    await useEnglish(page);
    const data = { version: 1, lessons: { [LESSON]: { answers: { [Q7]: record }, reached: 7 }, 'retry-duplicates': { answers: {}, reached: 3 } } };
    await seedProgress(page, data);
    await page.goto(`./#/lesson/${LESSON}/step/7`);
    await waitReady(page, LESSON);
    await expect(page.getByTestId('notice-corrupt')).toContainText('set aside');
    await expect(page.getByTestId('notice-corrupt')).toContainText(LESSON);
    expect(await backups(page)).toEqual([JSON.stringify(data)]);
    const card = questionCard(page, Q7);
    await expect(card).toHaveAttribute('data-answered', 'false');
    await expect(card).toHaveAttribute('data-solved', 'false');
    await expect(page.locator('main')).not.toContainText('undefined');
    await expect(page.getByTestId('fatal-error')).toHaveCount(0);
    // The other lesson's record is kept.
    expect(await page.evaluate((k) => JSON.parse(localStorage.getItem(k)).lessons['retry-duplicates'].reached, KEY)).toBe(3);
    await page.reload();
    await waitReady(page, LESSON);
    await expect(page.getByTestId('fatal-error')).toHaveCount(0);
    await answerRightly(page, card);
  });
}

test('a double click records one try, right or wrong', async ({ page }) => {
  await useEnglish(page);
  await openLesson(page, LESSON, 7);
  const card = questionCard(page, Q7);
  const { expected } = await engineExpected(page, LESSON, Q7);
  const wrong = ['knows_true', 'knows_false', 'cannot_know'].find((a) => a !== expected);
  await card.locator(`button[data-answer="${wrong}"]`).dblclick();
  await expect(card.getByTestId('verdict')).toHaveCount(1);
  await card.locator(`button[data-answer="${expected}"]`).dblclick();
  await expect(card).toHaveAttribute('data-solved', 'true');
  await expect(card.getByTestId('verdict')).toHaveCount(2);
  const tries = await page.evaluate(([k, id, q]) => JSON.parse(localStorage.getItem(k)).lessons[id].answers[q].tries.length, [KEY, LESSON, Q7]);
  expect(tries).toBe(2);
});

test('teachers see right-at-the-first-try counts: on the card, at the end, in the list, the export and the host message', async ({ page }) => {
  test.setTimeout(90_000);
  const { frame, ctx, f } = await openEmbedded(page, `#/lesson/${LESSON}/step/0`, 1000);

  let total = 0;
  const done = async () => (await currentStep(f)) >= (await lastStep(f));
  const onQuestion = async (card) => {
    total += 1;
    if ((await card.getAttribute('data-question')) === Q7) {
      await answerWrongly(f, card);
      await answerRightly(f, card);
      await expect(card.getByTestId('solved-note')).toContainText('Right at try 2');
      await expect(card).toHaveAttribute('data-first-try', 'false');
    } else {
      await answerRightly(f, card);
      await expect(card.getByTestId('solved-note')).toContainText('Right at the first try');
    }
  };
  await walk(f, done, { onQuestion });
  while ((await openQuestions(f).count()) > 0) await onQuestion(questionCard(f, await openQuestions(f).first().getAttribute('data-question')));
  await expect(frame.getByTestId('lesson-completed-banner')).toBeVisible();
  await expect(frame.getByTestId('completed-score')).toHaveText(`right at the first try: ${total - 1} of ${total} · answers shown: 0`);

  const msgs = await page.evaluate(() => window.msgs.filter((m) => m.type === 'lesson-completed'));
  expect(msgs).toEqual([{ source: 'idemlab', version: 1, type: 'lesson-completed', lesson: LESSON, questions: total, first_try_right: total - 1, score: (total - 1) / total }]);

  await frame.getByTestId('back').click();
  const listCard = frame.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`);
  await expect(listCard.getByTestId('lesson-score')).toHaveText(`right at the first try: ${total - 1} of ${total} · answers shown: 0`);
  const text = await ctx.evaluate(async () => {
    // The export button's file, read back through the same Blob the page creates.
    let blob = null;
    const orig = URL.createObjectURL;
    URL.createObjectURL = (b) => ((blob = b), orig.call(URL, b));
    document.querySelector('[data-testid="export-progress"]').click();
    URL.createObjectURL = orig;
    return blob.text();
  });
  const exported = JSON.parse(text);
  expect(exported.summary[LESSON]).toEqual({ questions: total, right: total, first_try_right: total - 1, revealed: 0 });
  expect(exported.lessons[LESSON].answers[Q7].tries).toHaveLength(2);
});

test('dragging the scrubber stops play', async ({ page }) => {
  await useEnglish(page);
  await openLesson(page, LESSON, 0);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('scrubber').fill('3');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  await page.waitForTimeout(2500);
  expect(await currentStep(page)).toBe(3);
});

test('keyboard focus stays on a sensible element: language switch, a right answer, stepping away from a card', async ({ page }) => {
  await useEnglish(page);
  await openLesson(page, LESSON, 7);
  const active = () => page.evaluate(() => document.activeElement && (document.activeElement.dataset.testid || document.activeElement.tagName));

  await page.getByTestId('lang-switch').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('next')).toHaveAccessibleName('下一步');
  expect(await active()).toBe('lang-switch');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('next')).toHaveAccessibleName('Next step');

  const card = questionCard(page, Q7);
  const { expected } = await engineExpected(page, LESSON, Q7);
  await card.locator(`button[data-answer="${expected}"]`).focus();
  await page.keyboard.press('Enter');
  await expect(card).toHaveAttribute('data-solved', 'true');
  expect(await active()).toBe('solved-note');

  // Arrows on a card's options move between its options; the lesson stays at the card.
  const other = questionCard(page, 'service-knows-client-receipt');
  const atCard = await currentStep(page);
  await other.locator('button[data-answer="knows_true"]').focus();
  await page.keyboard.press('ArrowLeft');
  expect(await active()).toMatch(/^answer-/);
  expect(await active()).not.toBe('answer-knows_true');
  expect(await currentStep(page)).toBe(atCard);
  // Home steps away from the card: the focus goes to the step controls, not the page's top.
  await other.locator('button[data-answer="knows_true"]').focus();
  await page.keyboard.press('Home');
  await expect.poll(() => currentStep(page)).toBe(0);
  expect(await active()).toBe('controls');
});

test('a second file with the same lesson id is an error card naming both files and the id', async ({ page }) => {
  await useEnglish(page);
  await addLessonCopy(page, 'zz-copy.json');
  await page.goto('./');
  const err = page.locator('[data-testid="lesson-error"][data-file="lessons/zz-copy.json"]');
  await expect(err.getByTestId('error-reason')).toContainText(`“${LESSON}”`);
  await expect(err.getByTestId('error-reason')).toContainText(lessonFile());
  await expect(err.getByTestId('error-reason')).toContainText('lessons/zz-copy.json');
  await expect(page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`)).toHaveCount(1);
});

for (const [lang, words] of [['en', 'could not fetch'], ['zh-CN', '无法获取文件']]) {
  test(`a missing idemlab.wasm is named with its HTTP status (${lang})`, async ({ page, guard }) => {
    guard.allowErrors();
    await page.addInitScript((l) => localStorage.setItem('idemlab.lang', l), lang);
    await page.route('**/engine/idemlab.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto('./');
    const card = page.getByTestId('engine-error');
    await expect(card).toBeVisible({ timeout: 20000 });
    await expect(card.getByTestId('error-file')).toHaveText('engine/idemlab.wasm');
    await expect(card.getByTestId('error-reason')).toContainText('HTTP 404');
    await expect(card.getByTestId('error-reason')).toContainText(words);
    await expect(card).not.toContainText('Aborted');
  });
}

test('odd deep links: bad steps are normalised, the gated notice goes on the next step, #/garbage is named', async ({ page }) => {
  await useEnglish(page);
  await openLesson(page, LESSON, 2);
  for (const bad of ['-1', 'abc']) {
    await page.evaluate((b) => (location.hash = `#/lesson/lost-receipt/step/${b}`), bad);
    await expect(page).toHaveURL(new RegExp(`#/lesson/${LESSON}/step/2$`));
    expect(await currentStep(page)).toBe(2);
  }
  await page.evaluate(() => (location.hash = '#/lesson/lost-receipt/step/999'));
  await expect(page.getByTestId('notice-gated')).toBeVisible();
  const at = await currentStep(page);
  await page.getByTestId('prev').click();
  await expect.poll(() => currentStep(page)).toBe(at - 1);
  await expect(page.getByTestId('notice-gated')).toHaveCount(0);

  await page.evaluate(() => (location.hash = '#/garbage'));
  await expect(page.getByTestId('route-message')).toContainText('#/garbage');
  await expect(page).toHaveURL(/#\/$/);
  await page.getByTestId('lang-switch').click();
  // The other language's strings are fetched when the switch is about to be used: the
  // address changes once they are in (one that changes while they load can be drawn in the
  // language before: a race the page does not settle yet).
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.evaluate(() => (location.hash = '#/nonsense'));
  await expect(page.getByTestId('route-message')).toContainText('不是本页的链接');
});

test('in Chinese, an engine reason on an error card is introduced in Chinese', async ({ page }) => {
  await addLessonCopy(page, 'bad-scenario.json', (lesson) => {
    lesson.id = 'bad-scenario';
    delete lesson.title.en;
    return lesson;
  });
  await page.goto('./');
  const reason = page.locator('[data-testid="lesson-error"][data-file="lessons/bad-scenario.json"]').getByTestId('error-reason');
  await expect(reason.getByTestId('error-intro')).toContainText('课程文件有问题');
  await expect(reason.getByTestId('error-intro')).toContainText('lessons/bad-scenario.json');
  await expect(reason.locator('[lang="en"]')).not.toBeEmpty();
});
