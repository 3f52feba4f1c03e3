// Code mode (issue 34): the learner writes the client's decisions in Lua and Check has the
// code engine (engine/idemlab-code.wasm, loaded on first use) grade them over the
// exercise's fault space. Verdicts come from the engine: what the page shows is compared
// with the engine's own answer for the same code (window.__idemlab.callCode), never with
// text written here. The code typed is the exercise's test data (tests/exercises/<id>/),
// which is never shipped to the page.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, useEnglish, settleLessons } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';

const EXERCISE = 'lost-response';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

/** A solution of the exercise's test data, without its comment lines (less to type). */
function solution(name) {
  const text = readFileSync(resolve(REPO, 'tests/exercises', EXERCISE, `${name}.lua`), 'utf8');
  return `${text
    .split('\n')
    .filter((line) => !/^\s*--/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

/**
 * Presses Tab (Shift+Tab when `back`) until the element `selector` has the keyboard focus.
 * In the code editor Tab indents: Escape first, as the editor's hint says, to move on.
 */
async function tabTo(page, selector, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    const [found, inEditor] = await page.evaluate((sel) => [!!document.activeElement && document.activeElement.matches(sel), document.activeElement.getAttribute('data-testid') === 'code-editor'], selector);
    if (found) return;
    if (inEditor) await page.keyboard.press('Escape');
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${selector} never had the focus after ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`);
}

const focusedTestId = (page) => page.evaluate(() => document.activeElement && document.activeElement.getAttribute('data-testid'));

/** The engine's grade of `code` on the exercise, asked as the page asks it. */
async function engineGrade(page, code) {
  return page.evaluate(
    async ([id, source]) => {
      const ex = await (await fetch(`lessons/exercises/${id}.json`)).json();
      return window.__idemlab.callCode('grade', { exercise: ex, code: source });
    },
    [EXERCISE, code],
  );
}

/** Types `code` over the editor's text: select all, then type, as a learner would. */
async function typeCode(page, code) {
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(code);
  await expect(page.getByTestId('code-editor')).toHaveValue(code);
}

/** Check, from the editor: Escape, Tab (to Check), Enter; resolves to the result once drawn. */
async function checkFromEditor(page, outcome) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  expect(await focusedTestId(page)).toBe('code-check');
  await page.keyboard.press('Enter');
  const result = page.locator(`[data-testid="code-result"][data-outcome="${outcome}"]`);
  await expect(result).toBeVisible({ timeout: 120_000 });
  return result;
}

test('by keyboard: code the lost response from the skeleton, fail, read the counterexample, fix it and pass', async ({ page }) => {
  test.setTimeout(300_000); // two grades at K = 2 and some 2,500 keys typed, on a shared machine
  await page.goto('./#/');
  await page.locator('[data-testid="lesson-list"][data-ready="true"]').waitFor();
  // The lesson list leads to the exercises; the exercises to this one.
  await tabTo(page, '[data-testid="code-link"]');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="code-levels"][data-ready="true"]').waitFor();
  const item = page.locator(`[data-testid="code-item"][data-exercise="${EXERCISE}"]`);
  await expect(item).toHaveAttribute('data-state', 'none');
  await tabTo(page, `[data-exercise="${EXERCISE}"] [data-testid="code-open"]`);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('code-view')).toHaveAttribute('data-exercise', EXERCISE);
  const ex = await page.evaluate(async (id) => (await fetch(`lessons/exercises/${id}.json`)).json(), EXERCISE);
  await expect(page.getByTestId('code-title')).toHaveText(ex.title.en);
  await expect(page.getByTestId('code-editor')).toHaveValue(ex.skeleton);
  await expect(page.getByTestId('code-editor-hint')).toContainText('Escape');

  // The first hint, by keyboard.
  await tabTo(page, '[data-testid="code-hint-next"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('code-hint')).toHaveText([ex.hints[0].en]);

  // The naive fix: a new key on every retry.
  await tabTo(page, '[data-testid="code-editor"]', { back: true });
  const naive = solution('naive');
  await typeCode(page, naive);
  // Tab in the editor indents; it does not leave.
  await page.keyboard.press('Tab');
  expect(await focusedTestId(page)).toBe('code-editor');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('code-editor')).toHaveValue(naive);

  const failed = await checkFromEditor(page, 'counterexample');
  const want = await engineGrade(page, naive);
  expect(want.passed).toBe(false);
  expect(want.counterexample).toBeTruthy();
  // The counterexample, read: the broken invariant's reason and the plan, in the engine's words.
  await expect(failed.getByTestId('code-cex-reason')).toHaveText(want.counterexample.reason.en);
  await expect(failed.getByTestId('code-cex-plan')).toContainText(want.counterexample.plan.en);
  // Its run, opened at the step where the invariant breaks, and stepped back by keyboard.
  const label = failed.getByTestId('cex-step-label');
  await expect(label).toHaveAttribute('data-step', String(want.counterexample.step));
  await tabTo(page, '[data-testid="cex-prev"]');
  await page.keyboard.press('Enter');
  await expect(label).toHaveAttribute('data-step', String(want.counterexample.step - 1));

  // The fix: one key per intent, kept in the row; reconcile by lookup.
  await tabTo(page, '[data-testid="code-editor"]', { back: true });
  const reference = solution('reference');
  await typeCode(page, reference);
  const passed = await checkFromEditor(page, 'passed');
  const right = await engineGrade(page, reference);
  expect(right.passed).toBe(true);
  await expect(passed.getByTestId('code-text')).toHaveText(right.text.en);
  // An edit after the Check: the result is about the code as it was, and says so; the
  // same code again, and it is the current code's result once more.
  await expect(passed).not.toHaveAttribute('data-stale', 'true');
  await expect(passed.getByTestId('code-stale')).toBeHidden();
  await page.getByTestId('code-editor').focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('x');
  await expect(passed).toHaveAttribute('data-stale', 'true');
  await expect(passed.getByTestId('code-stale')).toHaveText('This result is for the code as it was at the last Check; press Check again.');
  await page.keyboard.press('Backspace');
  await expect(passed).not.toHaveAttribute('data-stale', 'true');
  await expect(passed.getByTestId('code-stale')).toBeHidden();

  // Kept: a reload shows the code as typed; the list says it is solved, at the second check.
  await page.reload();
  await expect(page.getByTestId('code-editor')).toHaveValue(reference);
  await tabTo(page, '[data-testid="back"]', { back: true });
  await page.keyboard.press('Enter');
  await expect(page.locator(`[data-testid="code-item"][data-exercise="${EXERCISE}"]`)).toHaveAttribute('data-state', 'solved');
  await expect(page.locator(`[data-testid="code-item"][data-exercise="${EXERCISE}"] [data-testid="code-standing"]`)).toHaveText('✓ passed at check 2');
});

test('a link that carries code shows it and runs nothing until Check; copy link makes one', async ({ page, context }) => {
  test.setTimeout(120_000);
  const code = solution('naive');
  await page.goto('./#/');
  await page.locator('[data-testid="lesson-list"][data-ready="true"]').waitFor();
  const carried = await page.evaluate((source) => window.__idemlab.codeLink(source), code);
  // Nothing runs until Check: the code engine is not even fetched.
  const fetched = [];
  context.on('request', (r) => {
    if (/idemlab-code\.(js|wasm)$/.test(r.url())) fetched.push(r.url());
  });
  await page.goto(`./#/code/${EXERCISE}?c=${carried}`);
  await expect(page.getByTestId('code-editor')).toHaveValue(code);
  await expect(page.getByTestId('code-carried-notice')).toBeVisible();
  await expect(page.getByTestId('code-result')).toBeHidden();
  await page.waitForTimeout(500); // a start after the first paint would have begun by now
  expect(fetched).toEqual([]);
  // Copy link: the address it writes opens the same code.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('code-copy').click();
  await expect(page.getByTestId('code-status')).not.toBeEmpty();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`#/code/${EXERCISE}?c=`);
  // Check runs it: the notice has done its work.
  await page.getByTestId('code-check').click();
  await expect(page.locator('[data-testid="code-result"][data-outcome="counterexample"]')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('code-carried-notice')).toHaveCount(0);
});

test('a code error names its line and column, and a button puts the caret there', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`./#/code/${EXERCISE}`);
  await page.getByTestId('code-view').waitFor();
  const code = 'function on_deliver(intent, payload)\n  local key = = 1\nend\n';
  await page.getByTestId('code-editor').fill(code);
  await page.getByTestId('code-check').click();
  const result = page.locator('[data-testid="code-result"][data-outcome="error"]');
  await expect(result).toBeVisible({ timeout: 90_000 });
  const want = await engineGrade(page, code);
  expect(want.error.kind).toBe('syntax');
  await expect(result.getByTestId('code-error-reason')).toHaveText(want.error.reason.en);
  await expect(result.getByTestId('code-error')).toHaveAttribute('data-kind', 'syntax');
  await expect(result.getByTestId('code-error-where')).toContainText(`line ${want.error.line}`);
  await result.getByTestId('code-goto-line').click();
  expect(await focusedTestId(page)).toBe('code-editor');
  const caretLine = await page.getByTestId('code-editor').evaluate((el) => el.value.slice(0, el.selectionStart).split('\n').length);
  expect(caretLine).toBe(want.error.line);
  await expect(page.locator('.code-ln.is-marked')).toHaveText(String(want.error.line));
});

test('code over the size the engine reads: its reason, no line; a verdict for code since edited says so', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`./#/code/${EXERCISE}`);
  await page.getByTestId('code-view').waitFor();
  const long = `-- ${'a'.repeat(17 * 1024)}\n`;
  const editor = page.getByTestId('code-editor');
  await editor.fill(long);
  await page.getByTestId('code-check').click();
  // Edited during the Check (or just after it, if it was quick): the verdict is about older code.
  await editor.fill(`${long}-- more\n`);
  await expect(page.getByTestId('code-check')).toHaveAttribute('aria-disabled', 'false', { timeout: 90_000 });
  const result = page.getByTestId('code-result');
  await expect(result).not.toContainText('no verdict');
  const want = await engineGrade(page, long);
  if (want.error && want.error.kind) {
    // A code error of the engine's (too_long): its reason, and no line to go to.
    await expect(result).toHaveAttribute('data-outcome', 'error');
    await expect(result.getByTestId('code-error-reason')).toHaveText(want.error.reason.en);
    await expect(result.getByTestId('code-error-where')).toHaveCount(0);
    await expect(result.getByTestId('code-goto-line')).toHaveCount(0);
    await expect(result).not.toContainText(/line [0?]/);
    // A verdict for code since edited says so.
    await expect(result).toHaveAttribute('data-stale', 'true');
    await expect(result.getByTestId('code-stale')).toBeVisible();
  } else {
    // An engine that refuses the input as too long: its reason, not "no verdict".
    expect(want.ok).toBe(false);
    await expect(result).toHaveAttribute('data-outcome', 'failed');
    await expect(result.getByTestId('code-check-failed')).toContainText(want.errors[0].reason);
  }
});

test('work left open (a requirement, no invariant): the run says it ends there, not that an invariant breaks', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`./#/code/${EXERCISE}`);
  await page.getByTestId('code-view').waitFor();
  const code = 'function on_deliver(intent, payload)\nend\n';
  await page.getByTestId('code-editor').fill(code);
  await page.getByTestId('code-check').click();
  const result = page.locator('[data-testid="code-result"][data-outcome="counterexample"]');
  await expect(result).toBeVisible({ timeout: 90_000 });
  const want = await engineGrade(page, code);
  expect(want.counterexample.invariant).toBeNull();
  expect(want.counterexample.requirement).toBeTruthy();
  await expect(result.locator('[data-testid="code-cex-run"][data-ready="true"]')).toBeVisible();
  const label = result.getByTestId('cex-step-label');
  await expect(label).toHaveAttribute('data-step', String(want.counterexample.step));
  await expect(label).toContainText('the run ends here with the work still open');
  await expect(result.getByTestId('code-cex-run')).not.toContainText('invariant breaks here');
  await expect(result.getByTestId('code-cex-run')).not.toContainText('invariant first breaks');
  // Checked again and edited during that Check (or just after it): the verdict says it is about older code.
  await page.getByTestId('code-check').click();
  await page.getByTestId('code-editor').fill(`${code}-- more\n`);
  await expect(page.getByTestId('code-check')).toHaveAttribute('aria-disabled', 'false', { timeout: 90_000 });
  await expect(result).toHaveAttribute('data-stale', 'true');
  await expect(result.getByTestId('code-stale')).toBeVisible();
});

test("a link's code, edited, keeps the learner's own code: put back after edits and a reload", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`./#/code/${EXERCISE}`);
  await page.getByTestId('code-view').waitFor();
  const ex = await page.evaluate(async (id) => (await fetch(`lessons/exercises/${id}.json`)).json(), EXERCISE);
  const own = `${ex.skeleton}-- mine\n`;
  await page.getByTestId('code-editor').fill(own);
  const linked = solution('naive');
  const carried = await page.evaluate((source) => window.__idemlab.codeLink(source), linked);
  await page.goto(`./#/code/${EXERCISE}?c=${carried}`);
  await expect(page.getByTestId('code-editor')).toHaveValue(linked);
  await expect(page.getByTestId('code-own')).toBeVisible();
  // One character typed: the link's code is the learner's now, and their own is kept aside.
  await page.getByTestId('code-editor').focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('x');
  await expect(page.getByTestId('code-carried-notice')).toHaveCount(0);
  await expect(page.getByTestId('code-own-notice')).toBeVisible();
  await expect(page.getByTestId('code-own')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('code-editor')).toHaveValue(`${linked}x`);
  await expect(page.getByTestId('code-own')).toBeVisible();
  await page.getByTestId('code-own').click();
  await expect(page.getByTestId('code-editor')).toHaveValue(own);
  await expect(page.getByTestId('code-own')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('code-editor')).toHaveValue(own);
  await expect(page.getByTestId('code-own')).toHaveCount(0);
});

test('storage that refuses the code keeps it on screen and says so', async ({ page }) => {
  await page.addInitScript(() => {
    const set = Storage.prototype.setItem;
    Storage.prototype.setItem = function (k, v) {
      if (String(k).startsWith('idemlab.code.')) throw new DOMException('full', 'QuotaExceededError');
      return set.call(this, k, v);
    };
  });
  await page.goto(`./#/code/${EXERCISE}`);
  await page.getByTestId('code-view').waitFor();
  await page.getByTestId('code-editor').focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('-- mine');
  await expect(page.getByTestId('code-saved')).toContainText('did not let the page keep your code');
  await expect(page.getByTestId('code-editor')).toHaveValue(/-- mine$/);
});

test('the exercises on a phone: the editor and Check fit the screen', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`./#/code/${EXERCISE}`);
  await page.getByTestId('code-view').waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await page.getByTestId('code-check').boundingBox();
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(box.height).toBeGreaterThanOrEqual(24);
  // A counterexample's run, with its long step label: still no sideways scroll.
  await page.getByTestId('code-editor').fill(solution('naive'));
  await page.getByTestId('code-check').click();
  const result = page.locator('[data-testid="code-result"][data-outcome="counterexample"]');
  await expect(result).toBeVisible({ timeout: 90_000 });
  await expect(result.locator('[data-testid="code-cex-run"][data-ready="true"]')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
  const toBroken = await page.getByTestId('cex-to-broken').boundingBox();
  expect(toBroken.x + toBroken.width).toBeLessThanOrEqual(375);
});

test('an exercise whose lesson has open questions says its hints may answer them; settled, it does not', async ({ page, context }) => {
  const ex = JSON.parse(readFileSync(resolve(REPO, 'lessons/exercises/stale-pending.json'), 'utf8'));
  await page.goto(`./#/code/${ex.id}`);
  await expect(page.getByTestId('code-editor')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('code-spoiler')).toContainText('not answered');
  // The lesson's questions answered (or their answers shown): nothing left to give away.
  await settleLessons(context, [ex.after]);
  await page.reload();
  await expect(page.getByTestId('code-editor')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('code-spoiler')).toHaveCount(0);
});
