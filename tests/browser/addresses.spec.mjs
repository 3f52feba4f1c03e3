// Addresses a newcomer typed or kept from an old link: a lesson id that does not exist, a
// sandbox step with no scenario in the address, a step past a run's end, and times typed
// into the sandbox past what the engine accepts (its limit, from `vocabulary`), a lesson's
// step that is no step number or too large, and ?lang= as a course page may write it (any
// case, a tag such as en-US).

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, LESSON, useEnglish, openLesson, waitReady, completeLesson, openQuestions, sandboxReady, settleLessons } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';

const sandboxStep = async (page) => Number(await page.getByTestId('scrubber').inputValue());
const sandboxLast = async (page) => Number(await page.getByTestId('scrubber').getAttribute('max'));
/** The step a lesson shows and its last, as its step label reads them ("Step 2 of 30", "第 2 步 / 共 30 步"). */
const stepLabel = async (page) => (await page.getByTestId('step-label').textContent()).match(/\d+/g).slice(0, 2).map(Number);

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
    // The keyboard starts at the message, not at the top of an empty page.
    await expect(page.getByTestId('route-message')).toBeFocused();
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

test('a sandbox link whose step is no step number, or a huge one, says so and names it as written; the run\'s last step is shown', async ({ page }) => {
  await useEnglish(page);
  for (const written of ['-3', 'abc', '1.5']) {
    await page.goto(`./#/sandbox/step/${written}`);
    await page.locator('body[data-ready="true"]').waitFor();
    const notice = page.getByTestId('sb-bad-step');
    await expect(notice).toContainText(`“${written}”`);
    // A hash-only address change keeps the page: wait for the new view's step.
    await expect.poll(async () => (await sandboxStep(page)) === (await sandboxLast(page))).toBe(true);
    await expect(notice).toContainText(`step ${await sandboxLast(page)}`);
  }
  // A good step, typed into the address of an open sandbox, clears it: one from the run's middle.
  const middle = Math.floor((await sandboxLast(page)) / 2);
  await page.evaluate((n) => (window.location.hash = `#/sandbox/step/${n}`), middle);
  await expect(page.getByTestId('sb-bad-step')).toHaveCount(0);
  await expect.poll(() => sandboxStep(page)).toBe(middle);
  await page.goto('./#/sandbox/step/99999999999999999999');
  await page.locator('body[data-ready="true"]').waitFor();
  await expect(page.getByTestId('sb-no-step')).toContainText('99999999999999999999');
  await expect(page.getByTestId('sb-no-step')).not.toContainText('e+');
  // The next move takes the notice away: it named the step the link opened, not this one.
  await page.getByTestId('controls').focus();
  await page.keyboard.press('Home');
  const first = Number(await page.getByTestId('scrubber').getAttribute('min'));
  await expect.poll(() => sandboxStep(page)).toBe(first);
  await expect(page.getByTestId('sb-no-step')).toHaveCount(0);
});

test('an address entered while the sandbox is about to write its own is the one that opens', async ({ page }) => {
  await useEnglish(page);
  await page.goto('./#/sandbox');
  await page.locator('body[data-ready="true"]').waitFor();
  await sandboxReady(page);
  // A move: the sandbox writes its address a little later. The learner enters a lesson's
  // address before that, and the write comes due before the address's hashchange is
  // handled (the page being left flushes it at once: the order the timer met by chance).
  await page.getByTestId('controls').focus();
  await page.keyboard.press('Home');
  await page.evaluate((id) => {
    window.location.hash = `#/lesson/${id}`;
    window.dispatchEvent(new Event('pagehide'));
  }, LESSON);
  await waitReady(page, LESSON);
  expect(new URL(page.url()).hash).toMatch(new RegExp(`^#/lesson/${LESSON}`));
});

test('times typed into the sandbox past the engine\'s limit are refused by name, never clamped; the boxes offer no more than the limit', async ({ page }) => {
  await useEnglish(page);
  await page.goto('./#/sandbox');
  await page.locator('body[data-ready="true"]').waitFor();
  const limit = (await page.evaluate(() => window.__idemlab.call('vocabulary', {}))).limits.max_virtual_ms;
  expect(limit).toBeGreaterThan(0);
  // A script action's time, far past the limit: the engine says why it is not taken, and
  // the box shows the time still in force (it was set to the limit without a word).
  const at = page.locator('[data-testid="sb-script-list"] input[data-at="0"]');
  await expect(at).toHaveAttribute('max', String(limit));
  const inForce = await at.inputValue();
  await at.fill(String(limit * 10));
  await at.press('Enter');
  await sandboxReady(page);
  await expect(page.getByTestId('sb-edit-error')).toContainText(`expected an integer from 0 to ${limit}`);
  await expect(at).toHaveValue(inForce);
  // At the limit itself, the engine runs it.
  await at.fill(String(limit));
  await at.press('Enter');
  await sandboxReady(page);
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

// The address may name the language as a host wrote it (en-us); a switch writes it as the page names it.
for (const [asked, shown, other] of [
  ['zh-CN', 'zh-CN', 'en'],
  ['en-us', 'en', 'zh-CN'],
]) {
  test(`switching the language in a page opened with ?lang=${asked} names the new one (${other}), so a reload keeps it`, async ({ page }) => {
    await page.goto(`/?lang=${asked}#/lesson/${LESSON}`);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    await expect(page.locator('html')).toHaveAttribute('lang', shown);
    await page.getByTestId('lang-switch').click();
    await expect(page.locator('html')).toHaveAttribute('lang', other);
    await expect.poll(() => new URL(page.url()).searchParams.get('lang')).toBe(other);
    expect(new URL(page.url()).hash).toContain(`#/lesson/${LESSON}`);
    await page.reload();
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    await expect(page.locator('html')).toHaveAttribute('lang', other);
    await expect(page.getByTestId('lang-switch')).toHaveText(other === 'en' ? '中文' : 'English');
  });
}

// A course page passes on the language tag it has (its own page's, its learner's): read in
// any case, by its first part. The browser speaks Chinese here (playwright.config.js), so
// the English tags are seen only if read; the Chinese ones are tried over a saved English.
for (const [tag, lang, saved] of [
  ['zh', 'zh-CN', 'en'],
  ['zh-cn', 'zh-CN', 'en'],
  ['ZH-CN', 'zh-CN', 'en'],
  ['zh-TW', 'zh-CN', 'en'],
  ['EN', 'en', null],
  ['en-US', 'en', null],
  ['fr', 'en', 'en'],
  ['fr', 'zh-CN', null],
]) {
  const what = tag === 'fr' ? `is ignored: the ${saved ? 'saved' : 'browser\'s'} language, ${lang}, is shown` : `shows the page in ${lang}`;
  test(`?lang=${tag} ${what}`, async ({ page }) => {
    if (saved) await useEnglish(page);
    await page.goto(`/?lang=${tag}#/lesson/${LESSON}`);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    // The button offers the other language, in that language's own name.
    await expect(page.getByTestId('lang-switch')).toHaveText(lang === 'en' ? '中文' : 'English');
    const chinese = expect(page.getByTestId('lesson-title'));
    await (lang === 'en' ? chinese.not : chinese).toHaveText(/[\u4e00-\u9fff]/);
    // The address names the language shown, as a switch writes it: a copied link says it plainly.
    expect(new URL(page.url()).searchParams.get('lang')).toBe(lang);
    // A language the page does not have is not swapped silently: the learner is told.
    const notice = page.getByTestId('notice-lang-unknown');
    if (tag === 'fr') await expect(notice).toContainText(lang === 'en' ? 'no language “fr”: it is shown in English' : '没有“fr”这种语言，现以中文显示');
    else await expect(notice).toHaveCount(0);
  });
}

for (const [saved, lang] of [
  [true, 'en'],
  [false, 'zh-CN'],
]) {
  test(`an empty ?lang= is no language asked for: the ${saved ? 'saved' : 'browser\'s'} language, ${lang}, is shown, with no notice`, async ({ page }) => {
    if (saved) await useEnglish(page);
    for (const empty of ['', '%20']) {
      await page.goto(`/?lang=${empty}#/lesson/${LESSON}`);
      await expect(page.locator('body[data-ready="true"]')).toBeAttached();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByTestId('global-notices')).toBeAttached();
      await expect(page.getByTestId('notice-lang-unknown')).toHaveCount(0);
      // Nor is a language written into the address in its place.
      expect(new URL(page.url()).searchParams.get('lang').trim()).toBe('');
    }
  });
}

test('an address naming two languages (?lang=en&lang=zh-CN) shows the first and names only it', async ({ page }) => {
  await page.goto(`/?lang=en&lang=zh-CN#/lesson/${LESSON}`);
  await expect(page.locator('body[data-ready="true"]')).toBeAttached();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(new URL(page.url()).searchParams.getAll('lang')).toEqual(['en']);
});

for (const bad of ['-3', 'abc', '1.5']) {
  test(`#/lesson/${LESSON}/step/${bad} says the link's step is not a step number and which step is shown`, async ({ page }) => {
    await useEnglish(page);
    await page.goto(`./#/lesson/${LESSON}/step/${bad}`);
    await waitReady(page, LESSON);
    const [shown] = await stepLabel(page);
    const notice = page.getByTestId('notice-bad-step');
    await expect(notice).toContainText(`“${bad}”`);
    await expect(notice).toContainText('not a step number');
    await expect(notice).toContainText(`step ${shown} is shown`);
    // The address names the step shown.
    await expect(page).toHaveURL(new RegExp(`#/lesson/${LESSON}/step/${shown}$`));

    // Typed while the lesson is open: it stays where it is and says so again.
    await page.getByTestId('next').click();
    await expect(notice).toHaveCount(0);
    const [here] = await stepLabel(page);
    expect(here).toBe(shown + 1);
    await page.evaluate((b) => (location.hash = `#/lesson/lost-receipt/step/${b}`), bad);
    await expect(notice).toContainText(`step ${here} is shown`);
    expect((await stepLabel(page))[0]).toBe(here);
    await expect(page).toHaveURL(new RegExp(`#/lesson/${LESSON}/step/${here}$`));
    // The notice is about the link: the next move takes it away.
    await page.getByTestId('prev').click();
    await expect(notice).toHaveCount(0);
  });
}

test('a step that is not a number is said in Chinese too', async ({ page }) => {
  await page.goto(`./#/lesson/${LESSON}/step/-3`);
  await waitReady(page, LESSON);
  const [shown] = await stepLabel(page);
  await expect(page.getByTestId('notice-bad-step')).toContainText(`“-3”不是有效的步数`);
  await expect(page.getByTestId('notice-bad-step')).toContainText(`第 ${shown} 步`);
});

const HUGE = '99999999999999999999';

test('a step far past the end stops at the first open question and names the step as written, not rounded', async ({ page }) => {
  await useEnglish(page);
  await page.goto(`./#/lesson/${LESSON}/step/${HUGE}`);
  await waitReady(page, LESSON);
  const notice = page.getByTestId('notice-gated');
  await expect(notice).toContainText(`step ${HUGE},`);
  const [shown, last] = await stepLabel(page);
  expect(shown).toBeLessThan(last);
  await expect(notice).toContainText(`question at step ${shown}`);
  await expect(openQuestions(page).first()).toBeVisible();
});

test('with every question answered, a step far past the end shows the last step and says the lesson ends there', async ({ page }) => {
  test.setTimeout(120_000);
  await useEnglish(page);
  await openLesson(page, LESSON, 0);
  await completeLesson(page);
  for (const asked of [HUGE, '100000']) {
    await page.getByTestId('first').click();
    await page.evaluate((s) => (location.hash = `#/lesson/lost-receipt/step/${s}`), asked);
    const notice = page.getByTestId('notice-past-end');
    await expect(notice).toContainText(`step ${asked},`);
    const [shown, last] = await stepLabel(page);
    expect(shown).toBe(last);
    await expect(notice).toContainText(`only steps 0 to ${last}`);
    await expect(page).toHaveURL(new RegExp(`#/lesson/${LESSON}/step/${last}$`));
  }
  await page.reload();
  await waitReady(page, LESSON);
  await expect(page.getByTestId('notice-past-end')).toHaveCount(0);
  // Opened afresh (not typed into an open lesson): the same.
  await page.goto('about:blank');
  await page.goto(`./#/lesson/${LESSON}/step/${HUGE}`);
  await waitReady(page, LESSON);
  await expect(page.getByTestId('notice-past-end')).toContainText(`step ${HUGE},`);
});

test('a link\'s notice stays through a language switch, said in the new language', async ({ page }) => {
  await useEnglish(page);
  await page.goto(`./#/lesson/${LESSON}/step/abc`);
  await waitReady(page, LESSON);
  await expect(page.getByTestId('notice-bad-step')).toContainText('“abc”');
  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('notice-bad-step')).toContainText('“abc”不是有效的步数');
});

for (const [lang, ignored] of [
  ['en', (extra) => `ends with “${extra}”, which this page has no use for: that part of the address was ignored`],
  ['zh-CN', (extra) => `链接末尾的“${extra}”不是本页地址的一部分，这一部分已被忽略`],
]) {
  test(`a lesson address with parts after its step says they were ignored, opened or typed in (${lang})`, async ({ page }) => {
    if (lang === 'en') await useEnglish(page);
    await openLesson(page, LESSON);
    await page.getByTestId('next').click();
    const [here] = await stepLabel(page);
    // Opened afresh.
    await page.goto('about:blank');
    await page.goto(`./#/lesson/${LESSON}/step/${here}/more/parts`);
    await waitReady(page, LESSON);
    const notice = page.getByTestId('notice-extra-path');
    await expect(notice).toContainText(ignored('more/parts'));
    expect((await stepLabel(page))[0]).toBe(here);
    await expect(page).toHaveURL(new RegExp(`#/lesson/${LESSON}/step/${here}$`));
    // The notice is about the link: the next move takes it away.
    await page.getByTestId('next').click();
    await expect(notice).toHaveCount(0);
    // Typed while the lesson is open.
    await page.evaluate(([id, s]) => (location.hash = `#/lesson/${id}/step/${s}/extra`), [LESSON, here]);
    await expect(notice).toContainText(ignored('extra'));
    expect((await stepLabel(page))[0]).toBe(here);
    await expect(page).toHaveURL(new RegExp(`#/lesson/${LESSON}/step/${here}$`));
  });
}

test('side-by-side and sandbox addresses with parts after their step say they were ignored', async ({ page }) => {
  await useEnglish(page);
  await settleLessons(page, JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8')).lessons.filter((e) => e.compare).map((e) => e.id));
  const said = (extra) => `ends with “${extra}”, which this page has no use for`;
  // The side-by-side view of the first lesson the list links one for.
  await page.goto('./');
  const compare = page.getByTestId('lesson-compare').first();
  await compare.click();
  await expect(page.getByTestId('compare-title')).toBeVisible();
  await page.getByTestId('compare-next').click();
  const moment = await page.getByTestId('compare-scrubber').inputValue();
  const address = new URL(page.url()).hash;
  expect(address).toMatch(new RegExp(`/compare/step/${moment}$`));
  await page.evaluate((h) => (location.hash = `${h}/extra`), address);
  await expect(page.getByTestId('notice-extra-path')).toContainText(said('extra'));
  expect(await page.getByTestId('compare-scrubber').inputValue()).toBe(moment);
  await page.goto('about:blank'); // opened afresh, not typed into the open view
  await page.goto(`./${address}/more`);
  await expect(page.getByTestId('notice-extra-path')).toContainText(said('more'));
  expect(await page.getByTestId('compare-scrubber').inputValue()).toBe(moment);

  // The sandbox: its address holds the scenario and the step shown.
  await page.goto('./#/sandbox');
  await page.locator('body[data-ready="true"]').waitFor();
  await sandboxReady(page);
  await page.evaluate(() => window.__idemlab.hashSettled());
  const sandbox = new URL(page.url()).hash;
  const step = await sandboxStep(page);
  await page.goto('about:blank');
  await page.goto(`./${sandbox}/extra`);
  await page.locator('body[data-ready="true"]').waitFor();
  await expect(page.getByTestId('notice-extra-path')).toContainText(said('extra'));
  expect(await sandboxStep(page)).toBe(step);
  await page.evaluate((h) => (location.hash = `${h}/more`), sandbox);
  await expect(page.getByTestId('notice-extra-path')).toContainText(said('more'));
});

test('a lesson link\'s step notices are alerts, as the page\'s other notices are, and one is said once, not again when the view is drawn again', async ({ page }) => {
  await useEnglish(page);
  // Settled, so that the truth's switch (which redraws the view below) is not held off by a question.
  await settleLessons(page, [LESSON]);
  for (const asked of ['abc', '99999']) {
    await page.goto('about:blank');
    await page.goto(`./#/lesson/${LESSON}/step/${asked}`);
    await waitReady(page, LESSON);
    const alert = page.getByRole('alert').filter({ hasText: asked });
    await expect(alert).toHaveCount(1);
    await expect(alert).toBeVisible();
  }
  // Drawn again without a move (the truth panel hidden and shown): the same alert, not a new one.
  const alert = page.getByRole('alert').filter({ hasText: '99999' });
  await alert.evaluate((el) => (window.__saidOnce = el));
  await page.getByTestId('truth-toggle').click();
  await page.getByTestId('truth-toggle').click();
  await expect(alert).toBeVisible();
  expect(await alert.evaluate((el) => el === window.__saidOnce)).toBe(true);
  // Dismissed, it is gone.
  await alert.getByRole('button').click();
  await expect(alert).toHaveCount(0);
});
