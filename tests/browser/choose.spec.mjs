// A "choose the next action" card: answered with the keyboard; after a wrong first choice
// the card shows that option's judgement only (its runs, the one where it goes wrong);
// once the answer is revealed, every option's judgement as the engine gave it (which
// options are unsafe, the run where each duplicates or lies, how every run ends). Kept
// across a reload.

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
  // The others at its step too: while one of them is open, the engine withholds a choice
  // whose run would answer it (secrecy.spec.mjs shows that).
  for (const other of questions.filter((x) => x.step === q.step && x.id !== q.id)) await answerRightly(page, questionCard(page, other.id));
  return { q, card: questionCard(page, q.id) };
}

/** The engine's verdict for answering `option` at try `n` (from 2 on, every option's judgement). */
async function engineVerdict(page, qid, option, n) {
  return page.evaluate(async ([id, qq, a, k]) => {
    const l = window.__idemlab.lesson(id);
    const settled = l.questions.filter((x) => x.id !== qq).map((x) => x.id);
    return await window.__idemlab.call('answer', { file: l.file, text: l.text, question: qq, answer: a, try: k, settled });
  }, [LESSON, qid, option, n]);
}

test('a wrong choice shows that option\'s runs and where it goes wrong; a second shows every option\'s judgement', async ({ page }) => {
  const { q, card } = await chooseCard(page);
  await expect(card).toHaveAttribute('data-kind', 'choose');
  await expect(card.getByTestId('judgements')).toHaveCount(0);

  const { expected } = await engineExpected(page, LESSON, q.id);
  const [wrong, wrong2] = q.options.filter((o) => o.id !== expected).map((o) => o.id);
  const first = await engineVerdict(page, q.id, wrong, 1);
  expect(first.revealed).toBe(false);
  const chosen = first.options.find((o) => o.id === wrong);
  expect(chosen.safe).toBe(false);

  // With the keyboard: focus the option and press Enter.
  await card.locator(`button[data-answer="${wrong}"]`).focus();
  await page.keyboard.press('Enter');
  await expect(card).toHaveAttribute('data-answered', 'true');
  await expect(card).toHaveAttribute('data-solved', 'false');

  // Only the chosen option is judged, its runs open, the run where it goes wrong named.
  await expect(card.getByTestId('judgement')).toHaveCount(1);
  const item = card.locator(`[data-testid="judgement"][data-option="${wrong}"]`);
  await expect(item).toHaveAttribute('data-safe', 'false');
  await expect(item).toContainText('Unsafe');
  const runs = item.locator('details li');
  await expect(runs).toHaveCount(chosen.runs.length);
  const witness = chosen.runs.find((r) => r.world === chosen.witness);
  await expect(item.getByTestId('judgement-witness')).toContainText(witness.run.en);
  await expect(runs.nth(chosen.runs.indexOf(witness))).toContainText(witness.run.en);
  // The disclosure still closes and opens from the keyboard.
  await item.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(runs.first()).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(runs.first()).toBeVisible();

  // The judgement is kept with the try: it is still there after a reload.
  await page.reload();
  await expect(questionCard(page, q.id).getByTestId('judgement')).toHaveCount(1);

  // A second wrong choice reveals: every option, as the engine judged it.
  const all = await engineVerdict(page, q.id, wrong2 || wrong, 2);
  expect(all.revealed).toBe(true);
  expect(all.options.map((o) => o.id)).toEqual(q.options.map((o) => o.id));
  if (wrong2) {
    await questionCard(page, q.id).locator(`button[data-answer="${wrong2}"]`).click();
  } else {
    await questionCard(page, q.id).getByTestId('reveal').click();
  }
  await expect(questionCard(page, q.id).getByTestId('judgement')).toHaveCount(q.options.length);
  for (const o of all.options) {
    const it = questionCard(page, q.id).locator(`[data-testid="judgement"][data-option="${o.id}"]`);
    await expect(it).toHaveAttribute('data-safe', String(o.safe));
    await expect(it).toContainText(o.safe ? 'Safe' : 'Unsafe');
    await expect(it).toContainText(o.explanation.en);
  }
  // The feedback leads with the run where the chosen option duplicates or lies.
  await expect(questionCard(page, q.id).getByTestId('verdict').last().locator('.verdict-why')).not.toBeEmpty();

  await expect(questionCard(page, q.id).locator(`[data-testid="judgement"][data-option="${expected}"]`)).toHaveAttribute('data-safe', 'true');
  // Shown: no more tries (picking the shown answer now would be copying it).
  await expect(questionCard(page, q.id).locator(`button[data-answer="${expected}"]`)).toBeDisabled();
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
