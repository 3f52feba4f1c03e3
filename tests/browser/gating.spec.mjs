// The knowledge grid, the truth and the narration never give away an open question's
// answer: what stays hidden is what the engine says each question hides ("hides" in the
// run's questions), for as long as the question is open (not answered right, nor its answer
// shown). Steps are read from the engine's run, never written here.

import { test, expect, LESSON, useEnglish, openLesson, currentStep, lastStep, questionCard, answerRightly, openQuestions } from './helpers.mjs';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

async function runOf(page, id) {
  return page.evaluate(async (x) => {
    const l = window.__idemlab.lesson(x);
    return await window.__idemlab.call('run', { file: l.file, text: l.text });
  }, id);
}

const covers = (r, step) => step >= r.from && (r.to === null || step <= r.to);

/** What the engine says must be hidden at `step` while the questions `open` are open. */
function hiddenByEngine(open, step, moments) {
  const sides = new Set();
  let truth = false;
  const moment = moments.filter((m) => m.step <= step).at(-1);
  let narration = false;
  for (const q of open) {
    for (const c of q.hides.cells) if (covers(c, step)) sides.add(c.side);
    if (q.hides.truth.some((r) => covers(r, step))) truth = true;
    if (moment && q.hides.narration.includes(moment.step)) narration = true;
  }
  return { sides, truth, narration };
}

/** What the page hides at its current step. */
async function hiddenOnPage(page) {
  const sides = new Set();
  for (const side of ['client', 'service']) {
    const st = await page.locator(`[data-testid^="kcell-${side}-"]`).evaluateAll((els) => els.map((e) => e.dataset.status));
    expect(st.length).toBeGreaterThan(0);
    // A side's column is hidden as a whole or not at all.
    expect(st.every((s) => s === 'hidden') || st.every((s) => s !== 'hidden'), `${side}: ${st}`).toBe(true);
    if (st[0] === 'hidden') sides.add(side);
  }
  const truth = (await page.getByTestId('truth-column').count()) === 0;
  if (truth) await expect(page.getByTestId('truth-gated')).toBeVisible();
  const narration = (await page.getByTestId('narration-gated').count()) > 0;
  return { sides, truth, narration };
}

async function expectSame(page, open, run, label) {
  const step = await currentStep(page);
  const want = hiddenByEngine(open, step, run.lesson.moments);
  const got = await hiddenOnPage(page);
  expect([...got.sides].sort(), `${label}: hidden columns at step ${step}`).toEqual([...want.sides].sort());
  expect(got.truth, `${label}: truth hidden at step ${step}`).toBe(want.truth);
  expect(got.narration, `${label}: narration waits at step ${step}`).toBe(want.narration);
  // Every hidden cell names a question still open.
  const openIds = open.map((q) => q.id);
  for (const named of await page.locator('[data-testid^="kcell-"][data-status="hidden"]').evaluateAll((els) => els.map((e) => e.dataset.question))) {
    expect(openIds).toContain(named);
  }
}

for (const id of [LESSON, 'stale-pending']) {
  test(`${id}: at every step walked, the page hides exactly what the engine says the open questions hide`, async ({ page }) => {
    test.setTimeout(120_000);
    await openLesson(page, id, 0);
    const run = await runOf(page, id);
    const questions = run.lesson.questions;
    const settled = new Set();
    const open = () => questions.filter((q) => !settled.has(q.id));
    const last = await lastStep(page);
    for (let guard = 0; guard <= last + 1; guard++) {
      await expectSame(page, open(), run, 'before answering');
      while ((await openQuestions(page).count()) > 0) {
        const qid = await openQuestions(page).first().getAttribute('data-question');
        await answerRightly(page, questionCard(page, qid));
        settled.add(qid);
        await expectSame(page, open(), run, `after ${qid}`);
      }
      const before = await currentStep(page);
      if (before >= last) break;
      await page.getByTestId('next').click();
      await expect.poll(() => currentStep(page)).toBe(before + 1);
    }
    expect(open()).toEqual([]);
    // Everything answered: nothing is hidden anywhere, back at the start either.
    await page.getByTestId('first').click();
    await expect.poll(() => currentStep(page)).toBe(0);
    await expectSame(page, [], run, 'all answered');
  });
}

/** From the lesson's last reachable step, answer open questions while one still keeps the truth hidden. */
async function settleWhileTruthLocked(page) {
  await page.getByTestId('last').click();
  while ((await page.getByTestId('truth-toggle').isDisabled()) && (await openQuestions(page).count()) > 0) {
    await answerRightly(page, questionCard(page, await openQuestions(page).first().getAttribute('data-question')));
  }
  await expect(page.getByTestId('truth-toggle')).toBeEnabled();
}

test('while an open question hides the truth, its switch is drawn off and disabled and names the question; settled, the truth shows', async ({ page }) => {
  await openLesson(page, LESSON, 0);
  const toggle = page.getByTestId('truth-toggle');
  const gated = page.getByTestId('truth-gated');
  await expect(gated).toBeVisible();
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  // What the switch says is what the learner sees: off, and it cannot be turned on.
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeDisabled();
  // The reason is the switch's description, for a screen reader too.
  await expect(toggle).toHaveAccessibleDescription(await gated.innerText());
  await settleWhileTruthLocked(page);
  await expect(toggle).toBeChecked();
  await expect(page.getByTestId('truth-column')).toBeVisible();
  await expect(page.getByTestId('truth')).toBeVisible();
  await expect(gated).toHaveCount(0);
  await expect(toggle).not.toHaveAttribute('aria-describedby');
});

test('the truth the learner turned off stays off, and says why, whatever the questions', async ({ page }) => {
  // Turned off on an earlier visit.
  await page.addInitScript(() => localStorage.setItem('idemlab.prefs.v1', JSON.stringify({ showTruth: false })));
  await openLesson(page, LESSON, 0);
  const toggle = page.getByTestId('truth-toggle');
  // While a question hides it, the reason shown is the question.
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeDisabled();
  await expect(page.getByTestId('truth-gated')).toBeVisible();
  // Settled, it stays off: the learner's choice, and the note says so.
  await settleWhileTruthLocked(page);
  await expect(toggle).not.toBeChecked();
  await expect(page.getByTestId('truth-column')).toHaveCount(0);
  await expect(page.getByTestId('truth-gated')).toHaveCount(0);
  await expect(page.locator('.truth-note')).toHaveText('Truth hidden: reason from what each side sees first.');
  await toggle.check();
  await expect(page.getByTestId('truth-column')).toBeVisible();
});
