// Honest questions: before a knowledge or table question is answered, no step the learner
// can reach shows the cells it asks. Each shipped lesson (and incident) is walked as a
// learner would, answering in order; before each such question the walk visits every step
// it can reach (the timeline stops at the question) and reads the knowledge grid. The
// answers are asked of the engine through the page; steps are found from the run.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, useEnglish, openLesson, waitReady, currentStep, lastStep, openQuestions, answerRightly, engineExpected, completeLesson } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';

const asksCells = (e) => JSON.parse(readFileSync(resolve(REPO, 'dist', e.file), 'utf8')).questions.some((q) => q.kind === 'knowledge' || q.kind === 'table');
const lessons = JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8')).lessons.filter((e) => e.ok && asksCells(e));

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

/** The grid cells a question asks, as [side, fact id, the verdict the engine expects]. */
function askedCells(q, expected) {
  if (q.kind === 'knowledge') return [[q.side, q.fact, expected]];
  const cells = [];
  for (const [key, verdict] of Object.entries(expected)) {
    const [, side, fact] = key.split('/');
    cells.push([side, fact, verdict]);
  }
  return cells;
}

/**
 * Moves the scrubber (as a learner drags it) to every step 0..`to`+1 and reads, at each
 * step the page shows, the grid's cells for `cells` ("hidden" when held back): [{step, seen}].
 * The page draws a step as the scrubber moves, so one call reads them all.
 */
async function readSteps(page, to, cells, later = []) {
  return page.evaluate(
    ([last, asked, prompts]) => {
      const range = document.querySelector('[data-testid="scrubber"]');
      const view = document.querySelector('[data-testid="lesson-view"]');
      const out = [];
      for (let s = 0; s <= last + 1; s++) {
        range.value = String(s);
        range.dispatchEvent(new Event('input', { bubbles: true }));
        const seen = asked.map(([side, fact]) => {
          const cell = document.querySelector(`[data-testid="kcell-${side}-${fact}"]`);
          return cell ? cell.dataset.status : 'absent';
        });
        // Every text on the page, titles and labels included: a question the learner cannot
        // reach yet is never quoted (its prompt often says what happens before it).
        const texts = [document.body.innerText, ...[...document.querySelectorAll('[title],[aria-label]')].map((e) => `${e.title} ${e.getAttribute('aria-label') || ''}`)].join('\n');
        const quoted = prompts.filter((p) => texts.includes(p));
        out.push({ step: Number(view.dataset.step), seen, quoted });
      }
      return out;
    },
    [to, cells, later],
  );
}

async function go(page, testid, want) {
  await page.getByTestId(testid).click();
  await expect.poll(() => currentStep(page)).toBe(want);
}

for (const entry of lessons) {
  test(`${entry.id}: no reachable step shows an open knowledge or table question's cells`, async ({ page }) => {
    test.setTimeout(240_000);
    await openLesson(page, entry.id);
    const last = await lastStep(page);
    const kinds = JSON.parse(readFileSync(resolve(REPO, 'dist', entry.file), 'utf8')).questions.map((q) => q.kind);
    const asked = kinds.filter((k) => k === 'knowledge' || k === 'table').length;
    let checked = 0;
    for (let guard = 0; guard <= last + 2; guard++) {
      while ((await openQuestions(page).count()) > 0) {
        const card = openQuestions(page).first();
        const qid = await card.getAttribute('data-question');
        const card_step = await currentStep(page);
        const { q, expected } = await engineExpected(page, entry.id, qid);
        if (q.kind === 'knowledge' || q.kind === 'table') {
          const cells = askedCells(q, expected);
          // Every step the learner can reach while the question is open: 0 .. its card,
          // and one more try past it, which the timeline refuses.
          // The start of every question whose card stands after this one (the page quotes
          // about this much of a prompt).
          const later = (await page.evaluate((x) => window.__idemlab.lesson(x).questions, entry.id))
            .filter((x) => x.step > card_step)
            .map((x) => x.prompt.en.slice(0, 24));
          const steps = await readSteps(page, card_step, cells, later);
          expect(steps.map((x) => x.step), `${qid}: the steps the scrubber reaches`).toEqual([...Array(card_step + 1).keys(), card_step]);
          for (const { step, seen, quoted } of steps) {
            expect(quoted, `${qid}: a later question quoted at step ${step}`).toEqual([]);
            cells.forEach(([side, fact, verdict], k) => {
              expect(seen[k], `${qid}: the ${side}'s "${fact}" at step ${step}, before it is answered`).not.toBe(verdict);
              expect(seen[k], `${qid}: the ${side}'s "${fact}" at step ${step}`).not.toBe('absent');
            });
          }
          checked++;
        }
        await answerRightly(page, page.locator(`[data-testid="question"][data-question="${qid}"]`), entry.id);
      }
      const before = await currentStep(page);
      if (before >= last || checked === asked) break;
      await go(page, 'next', before + 1);
    }
    expect(checked).toBe(asked);
  });
}

test('side by side and the sandbox opened from a lesson show how its runs end: they wait until every question is settled', async ({ page }) => {
  test.setTimeout(240_000);
  const id = 'retry-duplicates';
  await openLesson(page, id);
  const open = page.getByTestId('open-in-sandbox');
  await expect(open).toBeDisabled();
  await expect(page.getByTestId('open-in-sandbox-locked')).toBeVisible();
  await expect(open).toHaveAttribute('aria-describedby', 'sb-open-note');

  await page.getByTestId('tab-compare').click();
  const locked = page.getByTestId('compare-locked');
  await expect(locked).toBeVisible();
  const count = (await page.evaluate((x) => window.__idemlab.lesson(x).questions.length, id));
  await expect(locked).toContainText(`${count} questions are still open`);
  await expect(page.getByTestId('compare-timeline')).toHaveCount(0);
  await expect(page.getByTestId('compare-scrubber')).toHaveCount(0);
  await page.getByTestId('compare-back-to-lesson').click();
  await waitReady(page, id);

  await completeLesson(page);
  await expect(open).toBeEnabled();
  await expect(page.getByTestId('open-in-sandbox-locked')).toBeHidden();
  await page.getByTestId('tab-compare').click();
  await expect(page.getByTestId('compare-timeline')).toHaveCount(2);
  await expect(page.getByTestId('compare-locked')).toHaveCount(0);
});

test('a choice whose run a question still open asks about is withheld until that question is answered', async ({ page }) => {
  await openLesson(page, 'lost-receipt');
  const questions = await page.evaluate(() => window.__idemlab.lesson('lost-receipt').questions);
  // The choose question, and the predict question at its step that asks what one option does.
  const choose = questions.find((q) => q.kind === 'choose');
  const predict = questions.find((q) => q.kind === 'predict' && q.step === choose.step);
  for (const q of questions.filter((x) => x.step < choose.step)) {
    await page.evaluate(([n]) => (location.hash = `#/lesson/lost-receipt/step/${n}`), [q.step]);
    await answerRightly(page, page.locator(`[data-testid="question"][data-question="${q.id}"]`), 'lost-receipt');
  }
  await page.evaluate(([n]) => (location.hash = `#/lesson/lost-receipt/step/${n}`), [choose.step]);
  await expect.poll(() => currentStep(page)).toBe(choose.step);
  const card = page.locator(`[data-testid="question"][data-question="${choose.id}"]`);
  const number = questions.indexOf(predict) + 1;
  // The option that resends under a new key: its run is the one the predict question asks about.
  const option = choose.options.find((o) => o.do === 'resend_new_key').id;
  await card.locator(`button[data-answer="${option}"]`).click();
  const judged = card.locator(`[data-testid="judgement"][data-option="${option}"]`);
  await expect(judged).toHaveAttribute('data-withheld', predict.id);
  await expect(judged).toContainText(`question ${number}`);
  await expect(judged.locator('details')).toHaveCount(0);
  await expect(card).not.toContainText('2 effects');

  // Answered, the predict question's own answer is out: the next choice shows its runs.
  await answerRightly(page, page.locator(`[data-testid="question"][data-question="${predict.id}"]`), 'lost-receipt');
  await card.getByTestId('reveal').click();
  const shown = card.locator(`[data-testid="judgement"][data-option="${option}"]`);
  await expect(shown).not.toHaveAttribute('data-withheld', /.*/);
  await expect(shown.locator('details li')).not.toHaveCount(0);
});
