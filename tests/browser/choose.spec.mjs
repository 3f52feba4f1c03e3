// A "choose the next action" card: answered with the keyboard; after the answer the card
// shows every option's judgement as the engine gave it (which options are unsafe, the run
// where each duplicates or lies, how every run ends), and keeps it across a reload.

import { test, expect, LESSON, useEnglish, openLesson, currentStep, questionCard, answerRightly, engineExpected } from './helpers.mjs';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

async function goTo(page, step) {
  await page.evaluate(([id, n]) => (location.hash = `#/lesson/${id}/step/${n}`), [LESSON, step]);
  await expect.poll(() => currentStep(page)).toBe(step);
}

/** The choose question's card, reached by answering the cards before it. */
async function chooseCard(page) {
  await openLesson(page, LESSON, 0);
  const questions = await page.evaluate((id) => window.__idemlab.lesson(id).questions, LESSON);
  const q = questions.find((x) => x.kind === 'choose');
  for (const earlier of questions.filter((x) => x.step < q.step)) {
    await goTo(page, earlier.step);
    await answerRightly(page, questionCard(page, earlier.id));
  }
  await goTo(page, q.step);
  return { q, card: questionCard(page, q.id) };
}

/** The engine's verdict for answering `option` at try `n` (a first wrong try judges only that option). */
async function engineVerdict(page, qid, option, n = 1) {
  return page.evaluate(([id, qq, a, tryNumber]) => {
    const l = window.__idemlab.lesson(id);
    return window.__idemlab.call('answer', { file: l.file, text: l.text, question: qq, answer: a, try: tryNumber });
  }, [LESSON, qid, option, n]);
}

test('after a wrong choice the card names the run where that option fails, and only that one', async ({ page }) => {
  const { q, card } = await chooseCard(page);
  await expect(card).toHaveAttribute('data-kind', 'choose');
  await expect(card.getByTestId('judgements')).toHaveCount(0);

  const { expected } = await engineExpected(page, LESSON, q.id);
  const wrong = q.options.find((o) => o.id !== expected).id;
  const verdict = await engineVerdict(page, q.id, wrong);
  expect(verdict.options.map((o) => o.id)).toEqual([wrong]);

  // With the keyboard: focus the option and press Enter.
  await card.locator(`button[data-answer="${wrong}"]`).focus();
  await page.keyboard.press('Enter');
  await expect(card).toHaveAttribute('data-answered', 'true');
  await expect(card).toHaveAttribute('data-solved', 'false');

  const chosen = verdict.options[0];
  expect(chosen.safe).toBe(false);
  // The feedback shows the run where the chosen option duplicates or lies, not the others'
  // judgements (they would tell which one is safe), and a hint instead of the answer.
  const shown = card.getByTestId('judgement');
  await expect(shown).toHaveCount(1);
  const mine = card.locator(`[data-testid="judgement"][data-option="${wrong}"]`);
  await expect(mine).toHaveAttribute('data-safe', 'false');
  await expect(mine).toContainText('Unsafe');
  await expect(mine).toContainText(chosen.explanation.en);
  await expect(card.getByTestId('verdict-hint')).toContainText(verdict.hint.en);
  await expect(card.getByTestId('verdict-expected')).toHaveCount(0);

  // Run by run, behind a disclosure the keyboard opens.
  const item = card.locator(`[data-testid="judgement"][data-option="${wrong}"]`);
  const summary = item.locator('summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  const runs = item.locator('details li');
  await expect(runs).toHaveCount(chosen.runs.length);
  await expect(runs.nth(chosen.runs.findIndex((r) => r.world === chosen.witness))).toContainText(chosen.runs.find((r) => r.world === chosen.witness).run.en);

  // The judgement is kept with the try: it is still there after a reload.
  await page.reload();
  await expect(questionCard(page, q.id).getByTestId('judgement')).toHaveCount(1);

  // Right at the second try: every option's judgement, each with its verdict.
  await answerRightly(page, questionCard(page, q.id));
  const all = await engineVerdict(page, q.id, expected, 2);
  await expect(questionCard(page, q.id).getByTestId('judgement')).toHaveCount(q.options.length);
  for (const o of all.options) {
    const item = questionCard(page, q.id).locator(`[data-testid="judgement"][data-option="${o.id}"]`);
    await expect(item).toHaveAttribute('data-safe', String(o.safe));
    await expect(item).toContainText(o.safe ? 'Safe' : 'Unsafe');
    await expect(item).toContainText(o.explanation.en);
  }
});

test('the choose card and its judgements read in Chinese too', async ({ page }) => {
  const { q, card } = await chooseCard(page);
  const { expected } = await engineExpected(page, LESSON, q.id);
  await card.locator(`button[data-answer="${expected}"]`).click();
  await page.getByTestId('lang-switch').click();
  const again = questionCard(page, q.id);
  await expect(again.locator('.qcard-kind')).toContainText('选下一步');
  await expect(again.locator(`[data-testid="judgement"][data-option="${expected}"]`)).toContainText('安全');
  await expect(again.getByTestId('judgements')).toContainText('每一次运行');
});
