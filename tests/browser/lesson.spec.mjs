// The lesson view as a learner uses it: stepping, the diagram and panels,
// the knowledge grid, questions that gate the timeline, verdicts from the engine.

import { test, expect, LESSON, useEnglish, openLesson, currentStep, lastStep, walk, answerRightly, answerWrongly, openQuestions, questionCard, settleLessons } from './helpers.mjs';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

test('after the lost response the client is UNKNOWN and cannot know whether the effect exists', async ({ page }) => {
  // The grid column is hidden while a question about it is open: this walk reads the grid
  // of a lesson whose questions are settled.
  await settleLessons(page, [LESSON]);
  await page.goto('./');
  await page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"] [data-testid="lesson-open"]`).click();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');

  const clientStatus = page.getByTestId('panel-client').getByTestId('client-status');
  const reached = await walk(page, async () => ((await clientStatus.count()) ? /UNKNOWN/.test(await clientStatus.innerText()) : false));
  expect(reached, 'the client reaches UNKNOWN').toBe(true);

  // A dropped message has been drawn (an X where it was lost) by now.
  expect(await page.locator('[data-testid="diagram"] .drop-x').count()).toBeGreaterThanOrEqual(1);

  await expect(clientStatus).toContainText('UNKNOWN');
  const cell = page.getByTestId('kcell-client-effect_exists');
  await expect(cell).toHaveAttribute('data-status', 'cannot_know');
  await expect(cell).toContainText('cannot know');

  // The witness is shown on keyboard focus (and described for screen readers).
  const body = cell.locator('[tabindex="0"]');
  await body.focus();
  const tipId = await body.getAttribute('aria-describedby');
  const tip = page.locator(`[id="${tipId}"]`);
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('Witness');
  await page.getByTestId('lesson-title').click();
  await expect(tip).toBeHidden();
  await cell.hover();
  await expect(tip).toBeVisible();

  // The text timeline is in step with the diagram.
  const step = await currentStep(page);
  await expect(page.getByTestId('timeline-line')).toHaveCount(step + 1);
  await expect(page.locator('[data-testid="timeline-line"][aria-current="step"]')).toHaveAttribute('data-step', String(step));
  await expect(page.locator('[data-testid="timeline-line"][aria-current="step"]')).toContainText(/t=\d+ms · client · /);
  await expect(page).toHaveURL(new RegExp(`#/lesson/${LESSON}/step/${step}$`));
});

test('the service panel shows its dedup record and its delivery, both new at the commit', async ({ page }) => {
  await openLesson(page);
  // The commit step, as the engine computes the run.
  const commit = await page.evaluate(async (id) => {
    const l = window.__idemlab.lesson(id);
    const run = await window.__idemlab.call('run', { file: l.file, text: l.text });
    return run.steps.find((st) => st.event.kind === 'commit').i;
  }, LESSON);
  await openLesson(page, LESSON, commit);
  expect(await currentStep(page)).toBe(commit);
  const panel = page.getByTestId('panel-service');
  const tables = panel.locator('table.rows-table');
  await expect(tables).toHaveCount(2);
  await expect(tables.nth(0).locator('caption')).toContainText('idempotency_keys');
  await expect(tables.nth(1).locator('caption')).toContainText('deliveries');
  for (const i of [0, 1]) {
    await expect(tables.nth(i).locator('tbody tr')).toHaveCount(1);
    await expect(tables.nth(i).locator('tbody tr')).toHaveAttribute('data-changed', 'true');
  }
  await expect(panel.locator('.volatile')).toContainText('not processing any request');
});

test('content changed under the same key: the client keeps its first version beside the row, as it knew it then', async ({ page }) => {
  const CHANGED = 'same-key-changed-intent';
  await openLesson(page, CHANGED, 0);
  // The step that replaces the content, as the engine computes the run.
  const kept = await page.evaluate(async (id) => {
    const l = window.__idemlab.lesson(id);
    const run = await window.__idemlab.call('run', { file: l.file, text: l.text });
    return run.steps.find((st) => st.client && Array.isArray(st.client.earlier_versions)).i;
  }, CHANGED);
  const panel = page.getByTestId('panel-client');
  const earlier = panel.locator('table.rows-table').filter({ has: page.locator('caption', { hasText: 'earlier_versions' }) });
  await expect(earlier).toHaveCount(0);
  await walk(page, async () => (await currentStep(page)) >= kept);
  await expect(earlier.locator('tbody tr')).toHaveCount(1);
  await expect(earlier.locator('tbody tr')).toHaveAttribute('data-changed', 'true');
  // Version 1 was sent and its response lost: the client still does not know its outcome.
  await expect(earlier.locator('tbody tr')).toContainText('UNKNOWN');
  const intents = panel.locator('table.rows-table').filter({ has: page.locator('caption', { hasText: 'intents' }) }).first();
  const firstHash = (await earlier.locator('tbody tr td.mono').nth(1).textContent()).trim();
  await expect(intents.locator('tbody tr').first()).not.toContainText(firstHash);
});

test('a question blocks the timeline until it is answered; wrong then right shows both verdicts', async ({ page }) => {
  await openLesson(page);
  let seen = false;
  await walk(page, async () => seen, {
    onQuestion: async (card) => {
      if (seen) return answerRightly(page, card);
      seen = true;
      const step = await currentStep(page);
      // Blocked: the card says so, and "next" does not move on.
      await expect(card.getByTestId('blocked-note')).toBeVisible();
      // "Next" is marked unavailable (aria-disabled) but still says why when pressed.
      await expect(page.getByTestId('next')).toHaveAttribute('aria-disabled', 'true');
      await page.getByTestId('next').click({ force: true });
      await expect(page.getByTestId('gate-msg')).toBeVisible();
      expect(await currentStep(page)).toBe(step);
      await page.keyboard.press('ArrowRight');
      expect(await currentStep(page)).toBe(step);
      await page.keyboard.press('End');
      expect(await currentStep(page)).toBe(step);

      const { expected } = await answerWrongly(page, card);
      const verdicts = card.getByTestId('verdict');
      await expect(verdicts).toHaveCount(1);
      await expect(verdicts.nth(0)).toHaveAttribute('data-correct', 'false');
      await expect(verdicts.nth(0)).toContainText('Not right');
      // A first wrong try gets a hint, not the answer (feedback.spec.mjs has the rest).
      await expect(verdicts.nth(0)).toContainText('Hint:');
      await expect(verdicts.nth(0)).not.toContainText('Why:');
      await expect(card.getByTestId('verdict-expected')).toHaveCount(0);
      expect(expected).toBeTruthy();
      await answerRightly(page, card);
      await expect(verdicts).toHaveCount(2);
      await expect(verdicts.nth(0)).toHaveAttribute('data-correct', 'false');
      await expect(verdicts.nth(1)).toHaveAttribute('data-correct', 'true');
      await expect(verdicts.nth(1)).toContainText('Right');
      await expect(card.getByTestId('verdicts')).toHaveAttribute('aria-live', 'polite');
    },
  });
  expect(seen, 'the lesson has a question').toBe(true);
});

test('controls: next, previous, scrubber, keyboard and the URL follow the step', async ({ page }) => {
  await openLesson(page, LESSON, 0);
  expect(await currentStep(page)).toBe(0);
  await page.getByTestId('next').click();
  expect(await currentStep(page)).toBe(1);
  await expect(page).toHaveURL(new RegExp(`#/lesson/${LESSON}/step/1$`));
  await page.getByTestId('prev').click();
  expect(await currentStep(page)).toBe(0);

  await page.getByTestId('lesson-title').click(); // focus outside form fields
  await page.keyboard.press('ArrowRight');
  expect(await currentStep(page)).toBe(1);
  await page.keyboard.press('ArrowLeft');
  expect(await currentStep(page)).toBe(0);
  await page.keyboard.press('End');
  const end = await currentStep(page);
  expect(end).toBeGreaterThan(0); // the last step or the first unanswered question
  await page.keyboard.press('Home');
  expect(await currentStep(page)).toBe(0);

  await page.getByTestId('scrubber').fill('2');
  expect(await currentStep(page)).toBe(Math.min(2, end));
  await expect(page.getByTestId('scrubber')).toHaveValue(String(Math.min(2, end)));

  // Only what happened so far is listed or drawn.
  const step = await currentStep(page);
  await expect(page.getByTestId('timeline-line')).toHaveCount(step + 1);
  await expect(page.locator('[data-testid="diagram"] .row')).toHaveCount(step + 1);

  // History is not spammed by stepping.
  const length = await page.evaluate(() => history.length);
  await page.getByTestId('next').click();
  await page.getByTestId('prev').click();
  expect(await page.evaluate(() => history.length)).toBe(length);
});

test('play runs the timeline and stops at a question or the end', async ({ page }) => {
  await openLesson(page, LESSON, 0);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => currentStep(page), { timeout: 10000 }).toBeGreaterThan(1);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
});

test('a deep link opens that step; beyond an unanswered question it opens at the question', async ({ page }) => {
  await openLesson(page, LESSON, 1);
  expect(await currentStep(page)).toBe(1);
  await expect(page.locator('[data-testid="timeline-line"][aria-current="step"]')).toHaveAttribute('data-step', '1');

  const last = await lastStep(page);
  await page.goto('about:blank');
  await page.goto(`./#/lesson/${LESSON}/step/${last}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  const step = await currentStep(page);
  expect(step).toBeLessThan(last);
  await expect(page.getByTestId('notice-gated')).toBeVisible();
  expect(await openQuestions(page).count()).toBeGreaterThan(0);
  await expect(page).toHaveURL(new RegExp(`/step/${step}$`));
});

test('the observer truth can be hidden and is then nowhere on the page', async ({ page }) => {
  // The first cards stand at the response-lost step, and one of them is a prediction,
  // which keeps the truth hidden on the way to it: answer them, then look.
  await openLesson(page, LESSON, 0);
  await page.getByTestId('last').click();
  while ((await openQuestions(page).count()) > 0) {
    await answerRightly(page, questionCard(page, await openQuestions(page).first().getAttribute('data-question')));
    if ((await page.getByTestId('truth-column').count()) > 0) break;
  }
  const toggle = page.getByTestId('truth-toggle');
  await expect(toggle).toBeChecked();
  await expect(page.getByTestId('truth-column')).toBeVisible();
  await expect(page.getByTestId('truth')).toBeVisible();
  await toggle.uncheck();
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  await expect(page.getByTestId('truth')).toHaveCount(0);
  await expect(page.locator('[data-testid^="truth-"]:not([data-testid="truth-toggle"])')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('truth-toggle')).not.toBeChecked();
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
});

test('at an unanswered knowledge question its cell stays hidden until answered', async ({ page }) => {
  await openLesson(page);
  // The last knowledge question: once it and the questions at its step are answered, no
  // open question is left to hide its side's column (earlier ones stay hidden while a later
  // question asks about the same side).
  const last = await page.evaluate((id) => window.__idemlab.lesson(id).questions.filter((x) => x.kind === 'knowledge').at(-1).id, LESSON);
  let checked = false;
  await walk(page, async () => checked, {
    onQuestion: async (card) => {
      if (checked || (await card.getAttribute('data-question')) !== last) return answerRightly(page, card);
      const qid = await card.getAttribute('data-question');
      const q = await page.evaluate(([id, qq]) => window.__idemlab.lesson(id).questions.find((x) => x.id === qq), [LESSON, qid]);
      const cell = page.getByTestId(`kcell-${q.side}-${q.fact}`);
      await expect(cell).toHaveAttribute('data-status', 'hidden');
      await expect(page.getByTestId('truth-column')).toHaveCount(0);
      await answerRightly(page, card);
      // Other open questions here (and a moment-table moment) may still cover the column;
      // with this step's questions answered, the step before shows the cell.
      while ((await openQuestions(page).count()) > 0) {
        await answerRightly(page, questionCard(page, await openQuestions(page).first().getAttribute('data-question')));
      }
      await page.getByTestId('prev').click();
      await expect(cell).not.toHaveAttribute('data-status', 'hidden');
      checked = true;
    },
  });
  expect(checked, 'the lesson has a knowledge question').toBe(true);
});

test('crashes and commits are marked in the diagram, and the crashed side says so', async ({ page }) => {
  await openLesson(page, LESSON, 0);
  const steps = await page.evaluate(async (id) => {
    const l = window.__idemlab.lesson(id);
    const run = await window.__idemlab.call('run', { file: l.file, text: l.text });
    return run.steps.map((s) => ({ kind: s.event.kind, side: s.event.side, client: s.client.alive, service: s.service.alive }));
  }, LESSON);
  const crash = steps.findIndex((s) => s.client === false || s.service === false);
  test.skip(crash < 0, 'this lesson has no crash');
  const side = steps[crash].client === false ? 'client' : 'service';
  const commit = steps.findIndex((s) => s.kind === 'commit');

  await walk(page, async () => (await currentStep(page)) >= crash);
  await expect(page.getByTestId(`panel-${side}`).getByTestId('alive')).toContainText('crashed');
  await expect(page.locator('[data-testid="diagram"] .ev-crash')).toHaveCount(steps.slice(0, crash + 1).filter((s) => s.kind === 'crash').length);
  if (commit >= 0 && commit <= crash) expect(await page.locator('[data-testid="diagram"] .ev-commit').count()).toBeGreaterThan(0);

  // Back at the start none of it is drawn yet.
  await page.getByTestId('first').click();
  await expect(page.locator('[data-testid="diagram"] .ev-crash, [data-testid="diagram"] .ev-commit, [data-testid="diagram"] .msg')).toHaveCount(0);
});
