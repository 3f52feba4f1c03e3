// The lesson list reads the built index alone (no lesson file is fetched until one is
// opened), a broken lesson is an error card from the index, and the side-by-side view
// shows a lesson's fault plan under two policies with the engine's effect counters.

import { test, expect, LESSON, useEnglish, waitReady, serveLessons, builtLesson, builtLessons, engineIndex, lessonFile, settleLessons } from './helpers.mjs';

const COMPARE = 'retry-duplicates';

/** Paths of the lesson files (not the index) the page requests, as they happen. */
function lessonRequests(page) {
  const seen = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.includes('/lessons/') && !path.endsWith('/lessons/index.json')) seen.push(path);
  });
  return seen;
}

test('the list shows every lesson of the index without fetching a lesson file', async ({ page, request }) => {
  await useEnglish(page);
  const seen = lessonRequests(page);
  const index = await (await request.get('./lessons/index.json')).json();
  const ok = index.lessons.filter((e) => e.ok);
  expect(ok.length).toBe(builtLessons().length);

  await page.goto('./');
  await expect(page.getByTestId('lesson-card')).toHaveCount(ok.length);
  for (const e of ok) {
    const card = page.locator(`[data-testid="lesson-card"][data-lesson="${e.id}"]`);
    await expect(card.locator('h3')).toHaveText(e.title.en);
    await expect(card.locator('.lesson-summary')).toHaveText(e.summary.en);
    await expect(card.getByTestId('lesson-progress')).toContainText(`answered 0/${e.question_count}`);
    await expect(card.getByTestId('lesson-compare')).toHaveCount(e.compare ? 1 : 0);
  }
  // The engine is loaded and the page has settled: still no lesson file.
  await page.waitForLoadState('networkidle');
  expect(seen).toEqual([]);

  // Opening a lesson fetches that one lesson file, once; besides it only the build's list of
  // lesson runs and that lesson's run (lessons/runs.json names it), once each.
  await page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"] [data-testid="lesson-open"]`).click();
  await waitReady(page, LESSON);
  const { runs } = await (await request.get('./lessons/runs.json')).json();
  expect([...seen].sort()).toEqual([`/${lessonFile()}`, '/lessons/runs.json', `/${runs[lessonFile()].file}`].sort());
});

test("a lesson's address asks for the lesson's file and its run beside the index, not after it, and each once", async ({ page, request }) => {
  await useEnglish(page);
  const { runs } = await (await request.get('./lessons/runs.json')).json();
  const file = `/${lessonFile()}`;
  const run = `/${runs[lessonFile()].file}`;
  // The index is held back until both are asked for (or 10 s pass): what is asked for
  // before it is answered did not wait for it.
  const order = [];
  let bothAsked;
  const asked = new Promise((resolve) => (bothAsked = resolve));
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === file || path === run) order.push(path);
    if (order.includes(file) && order.includes(run)) bothAsked();
  });
  await page.route('**/lessons/index.json', async (route) => {
    await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    order.push('index answered');
    await route.continue();
  });
  await page.goto(`./#/lesson/${LESSON}`);
  await waitReady(page, LESSON);
  await expect(page.getByTestId('step-label')).not.toBeEmpty();
  expect(order.slice(0, 3).sort()).toEqual([file, run, 'index answered'].sort());
  expect(order.indexOf('index answered')).toBe(2);
  await page.waitForLoadState('networkidle');
  expect(order.filter((p) => p === file)).toHaveLength(1);
  expect(order.filter((p) => p === run)).toHaveLength(1);
});

test('a broken lesson is an error card naming the file, path and reason the engine gives; the list fetches it not', async ({ page }) => {
  await useEnglish(page);
  const seen = lessonRequests(page);
  const lesson = builtLesson();
  lesson.id = 'broken-fact';
  const i = lesson.questions.findIndex((q) => typeof q.fact === 'string');
  lesson.questions[i].fact = 'no_such_fact';
  const index = await serveLessons(page, { 'broken-fact.json': JSON.stringify(lesson) });
  const entry = index.lessons.find((e) => e.file === 'lessons/broken-fact.json');
  expect(entry.ok).toBe(false);

  await page.goto('./');
  const card = page.locator('[data-testid="lesson-error"][data-file="lessons/broken-fact.json"]');
  await expect(card.getByTestId('error-file')).toHaveText('lessons/broken-fact.json');
  await expect(card.getByTestId('error-path')).toHaveText(entry.errors[0].path);
  await expect(card.getByTestId('error-reason')).toContainText(entry.errors[0].reason);
  await expect(card.getByTestId('error-reason')).toContainText('no_such_fact');
  await expect(page.getByTestId('lesson-card')).toHaveCount(index.lessons.filter((e) => e.ok).length);
  await page.waitForLoadState('networkidle');
  expect(seen).toEqual([]);
});

test('an index entry the page cannot use is named with its place in the index', async ({ page }) => {
  await useEnglish(page);
  const index = engineIndex(builtLessons());
  index.lessons.push({ ok: true, file: 'https://example.com/x.json', id: 'x' });
  await page.route('**/lessons/index.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(index) }));
  await page.goto('./');
  const card = page.locator('[data-testid="lesson-error"][data-file="lessons/index.json"]');
  await expect(card.getByTestId('error-path')).toHaveText(`/lessons/${index.lessons.length - 1}`);
  await expect(page.getByTestId('lesson-card')).toHaveCount(index.lessons.length - 1);
});

/** The engine's side-by-side output for a lesson, asked through the page's test hook. */
async function engineCompare(page, id) {
  return page.evaluate(async (lessonId) => {
    const l = window.__idemlab.lesson(lessonId);
    return await window.__idemlab.call('compare', { file: l.file, text: l.text });
  }, id);
}

/** Per policy, what the engine says at virtual time `time` (its last step at or before it): effects of the intent and the client's status. */
function shownAt(data, time) {
  return data.policies.map((p) => {
    const s = p.steps.filter((x) => x.t <= time).pop();
    return { effects: s ? s.truth.by_intent[data.intent] || 0 : 0, status: (s && s.client.status[data.intent]) || '' };
  });
}

test('side by side: two timelines stepped together by virtual time, each with the engine\'s effect counter and client status', async ({ page }) => {
  await useEnglish(page);
  await settleLessons(page, [COMPARE]);
  await page.goto('./');
  await page.locator(`[data-testid="lesson-card"][data-lesson="${COMPARE}"] [data-testid="lesson-compare"]`).click();
  await page.locator('body[data-ready="true"]').waitFor();
  const view = page.getByTestId('compare-view');
  await expect(view).toHaveAttribute('data-lesson', COMPARE);
  await expect(page).toHaveURL(new RegExp(`#/lesson/${COMPARE}/compare/step/0$`));

  const data = await engineCompare(page, COMPARE);
  expect(data.error).toBeUndefined();
  const timelines = page.getByTestId('compare-timeline');
  await expect(timelines).toHaveCount(2);
  expect(await timelines.evaluateAll((els) => els.map((e) => e.dataset.policy))).toEqual(data.policies.map((p) => p.id));
  // The caption says which policy is which.
  for (const p of data.policies) await expect(page.getByTestId('compare-caption')).toContainText(p.label.en);

  // Every virtual time of either run, in order: both columns show the engine's count and status there.
  const times = [...new Set(data.policies.flatMap((p) => p.steps.map((s) => s.t)))].sort((a, b) => a - b);
  await expect(view).toHaveAttribute('data-last', String(times.length - 1));
  await page.getByTestId('compare-title').focus();
  for (let i = 0; i < times.length; i++) {
    if (i > 0) await page.keyboard.press('ArrowRight');
    await expect(view).toHaveAttribute('data-step', String(i));
    const shown = shownAt(data, times[i]);
    for (let k = 0; k < 2; k++) {
      const col = timelines.nth(k);
      await expect(col.getByTestId('effect-counter')).toHaveAttribute('data-effects', String(shown[k].effects));
      await expect(col.getByTestId('client-status')).toHaveAttribute('data-status', shown[k].status);
      await expect(col.getByTestId('compare-events').locator('li')).toHaveCount(data.policies[k].steps.filter((s) => s.t <= times[i]).length);
    }
  }
  // At the end the counters differ, as the engine computes them.
  const finals = shownAt(data, times[times.length - 1]).map((x) => x.effects);
  expect(finals[0]).not.toBe(finals[1]);
  for (let k = 0; k < 2; k++) await expect(timelines.nth(k).getByTestId('effect-counter')).toHaveAttribute('data-effects', String(finals[k]));
  await page.keyboard.press('Home');
  await expect(view).toHaveAttribute('data-step', '0');
  await page.keyboard.press('End');
  await expect(view).toHaveAttribute('data-step', String(times.length - 1));
  await expect(page).toHaveURL(new RegExp(`/compare/step/${times.length - 1}$`));

  // The deep link keeps the position across a reload and a language switch.
  await page.reload();
  await page.locator('body[data-ready="true"]').waitFor();
  await expect(view).toHaveAttribute('data-step', String(times.length - 1));
  await page.getByTestId('lang-switch').click();
  await expect(page.getByTestId('compare-caption')).toContainText(data.policies[0].label['zh-CN']);
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-step', String(times.length - 1));
});

test('side by side: the lesson links to it, and on a narrow screen the two timelines stack', async ({ page }) => {
  await useEnglish(page);
  await settleLessons(page, [COMPARE]);
  await page.setViewportSize({ width: 400, height: 900 });
  await page.goto(`./#/lesson/${COMPARE}/step/0`);
  await waitReady(page, COMPARE);
  await expect(page.getByTestId('tab-lesson')).toHaveAttribute('aria-current', 'page');
  await page.getByTestId('tab-compare').click();
  await page.getByTestId('compare-view').waitFor();
  await expect(page.getByTestId('tab-compare')).toHaveAttribute('aria-current', 'page');
  const [a, b] = await page.getByTestId('compare-timeline').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  expect(b.top).toBeGreaterThanOrEqual(a.bottom);
  expect(b.left).toBe(a.left);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
  // The buttons step it too.
  await page.getByTestId('compare-next').click();
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-step', '1');

  // A lesson without a compare block has no such link; its side-by-side address (typed,
  // or an old link) opens the lesson itself and says why, not a "could not be loaded" card.
  await page.goto(`./#/lesson/${LESSON}/step/0`);
  await waitReady(page, LESSON);
  await expect(page.getByTestId('tab-compare')).toHaveCount(0);
  await page.goto(`./#/lesson/${LESSON}/compare`);
  await waitReady(page, LESSON);
  await expect(page.getByTestId('lesson-error')).toHaveCount(0);
  await expect(page.getByTestId('notice-no-compare')).toContainText('no side-by-side view');
  await expect(page).toHaveURL(new RegExp(`#/lesson/${LESSON}/step/\\d+$`));
});
