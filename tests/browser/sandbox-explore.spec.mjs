// The sandbox's explorer: a search of every fault schedule up to K in the engine's Web
// Worker, what it says of what it searched, its counterexamples loaded into the sandbox,
// and the page while it runs (input answered, cancel, edits that stop it). What a run
// shows is compared with what the engine says, never with numbers written here.

import { test, expect, useEnglish } from './helpers.mjs';
import { waitSandbox, sandboxFromLesson, settledUrl, violation, planItems, answered, openKnobs, closeKnobs } from './sandbox-helpers.mjs';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

test('explore at K = 2 in a worker, then load a counterexample into the sandbox and its address', async ({ page }) => {
  await sandboxFromLesson(page);
  await page.locator('[data-knob="client.key_scope"]').selectOption('attempt');
  await page.locator('[data-knob="client.recovery"]').selectOption('resend');
  await answered(page); // the address then holds both edits
  const before = await settledUrl(page);
  await page.getByTestId('sb-explore-k').selectOption('2');
  await page.getByTestId('sb-explore-run').click();
  const summary = page.getByTestId('sb-explore-summary');
  await expect(summary).toBeVisible({ timeout: 60_000 });
  await expect(summary).toContainText('schedules of up to 2 faults');
  const cex = page.locator('[data-testid="sb-cex"] > li');
  expect(await cex.count()).toBeGreaterThan(0);
  const reason = (await cex.first().locator('p').first().innerText()).trim();
  await cex.first().getByTestId('sb-cex-load').click();
  await answered(page); // the load is an edit: the engine runs it before the view and address show it
  // The counterexample's violation is now the sandbox's own run's, and the address holds it.
  await expect(page.getByTestId('sb-verdict')).toContainText(reason.split(':')[0]);
  expect(await planItems(page).count()).toBeGreaterThan(0);
  expect(await settledUrl(page)).not.toBe(before);
});

/** Where the focused element's top is, against the bottom of every sticky bar on the page (viewport px). */
async function focusedBelowStickyBars(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    // Sticky elements stuck where they cover the page (at their own `top`), not those further
    // down that only stick once their box scrolls up (the knobs' "now" line).
    const stuck = (x) => {
      const r = x.getBoundingClientRect();
      return r.height > 0 && r.top <= (parseFloat(getComputedStyle(x).top) || 0) + 1;
    };
    const bars = [...document.querySelectorAll('body *')].filter((x) => getComputedStyle(x).position === 'sticky' && stuck(x));
    return {
      focused: el && el !== document.body ? (el.getAttribute('data-testid') || el.id || el.tagName) : null,
      top: el.getBoundingClientRect().top,
      barBottom: Math.max(0, ...bars.map((b) => b.getBoundingClientRect().bottom)),
      bars: bars.length,
      height: window.innerHeight,
    };
  });
}

for (const [screen, size] of [['a desktop', { width: 1280, height: 800 }], ['a phone', { width: 390, height: 844 }]]) {
  test(`on ${screen}, a counterexample loaded into the sandbox takes the focus to how the run ends, in view below the sticky step bar`, async ({ page }) => {
    await page.setViewportSize(size);
    await sandboxFromLesson(page);
    await openKnobs(page); // a phone's drawer
    await page.locator('[data-knob="client.key_scope"]').selectOption('attempt');
    await page.locator('[data-knob="client.recovery"]').selectOption('resend');
    await answered(page);
    await closeKnobs(page);
    await page.getByTestId('sb-explore-k').selectOption('1');
    await page.getByTestId('sb-explore-run').click();
    await expect(page.getByTestId('sb-explore-summary')).toBeVisible({ timeout: 60_000 });
    const load = page.locator('[data-testid="sb-cex"] > li').getByTestId('sb-cex-load').first();
    await load.scrollIntoViewIfNeeded();
    await load.click();
    await answered(page);
    await expect(page.getByTestId('sb-summary')).toBeFocused();
    const at = await focusedBelowStickyBars(page);
    expect(at.bars, 'the step bar is sticky').toBeGreaterThan(0);
    expect(at.top, JSON.stringify(at)).toBeGreaterThanOrEqual(at.barBottom);
    expect(at.top, JSON.stringify(at)).toBeLessThan(at.height);
  });
}

test('on a phone, Explore tapped at the screen\'s bottom brings its verdict into view', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await sandboxFromLesson(page);
  await page.getByTestId('sb-explore-k').selectOption('1');
  // The button at the bottom edge, as a learner scrolling down meets it: the verdict is below.
  await page.getByTestId('sb-explore-run').evaluate((b) => window.scrollBy(0, b.getBoundingClientRect().bottom - window.innerHeight + 4));
  await expect(page.getByTestId('sb-explore-run')).toBeInViewport();
  await page.getByTestId('sb-explore-run').click();
  await expect(page.getByTestId('sb-explore-summary')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('sb-explore-summary')).toBeInViewport();
});

test('explore\'s outcome lines say in how many of their schedules something breaks, and those add up to the schedules that break', async ({ page }) => {
  // In the akash incident some runs that end alike overlap two executions and some do not:
  // a ⚠ on the whole line would read as if all of them broke.
  await sandboxFromLesson(page, 'incident-akash-topup');
  await page.getByTestId('sb-explore-k').selectOption('2');
  await page.getByTestId('sb-explore-run').click();
  const summary = page.getByTestId('sb-explore-summary');
  await expect(summary).toBeVisible({ timeout: 60_000 });
  const num = (x) => Number(x.replace(/,/g, ''));
  const [, v] = (await summary.innerText()).match(/([\d,]+) of [\d,]+ schedules/);
  let breaking = 0;
  let some = 0;
  for (const line of await page.locator('[data-testid="sb-outcomes"] > li').allInnerTexts()) {
    const count = num(line.match(/^([\d,]+)/)[1]);
    const part = line.match(/in ([\d,]+) of these ([\d,]+) schedules/);
    if (part) {
      expect(num(part[2])).toBe(count);
      expect(num(part[1])).toBeLessThan(count);
      breaking += num(part[1]);
      some += 1;
    } else if (line.includes('⚠')) {
      breaking += count;
    }
  }
  expect(some).toBeGreaterThan(0);
  expect(breaking).toBe(num(v));
});

test('a counterexample with no fault, in a sandbox with none planned, says it is the run shown instead of offering to load it', async ({ page }) => {
  await sandboxFromLesson(page, 'incident-akash-topup');
  await expect(planItems(page)).toHaveCount(0);
  await expect(page.getByTestId('sb-verdict')).toContainText('concurrent'); // it breaks as opened
  await page.getByTestId('sb-explore-k').selectOption('1');
  await page.getByTestId('sb-explore-run').click();
  await expect(page.getByTestId('sb-explore-summary')).toBeVisible({ timeout: 60_000 });
  const noFault = page.locator('[data-testid="sb-cex"] > li', { hasText: 'no fault' });
  expect(await noFault.count()).toBeGreaterThan(0);
  await expect(noFault.first().getByTestId('sb-cex-shown')).toBeVisible();
  await expect(noFault.first().getByTestId('sb-cex-load')).toHaveCount(0);
  // One with a fault still loads.
  await page.locator('[data-testid="sb-cex"] > li', { hasNotText: 'no fault' }).first().getByTestId('sb-cex-load').click();
  await expect(planItems(page)).not.toHaveCount(0);
});

test('a fault-free right policy: explore says what it searched, never "safe"', async ({ page }) => {
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await page.getByTestId('sb-explore-k').selectOption('1');
  await page.getByTestId('sb-explore-run').click();
  const summary = page.getByTestId('sb-explore-summary');
  await expect(summary).toBeVisible({ timeout: 60_000 });
  await expect(summary).toHaveText(/No violation in [\d,]+ schedules of up to 1 faults?/);
  await expect(summary).not.toContainText(/\bsafe\b/i);
});

test('the page answers input while the largest lesson is explored, and the search can be cancelled', async ({ page }) => {
  await sandboxFromLesson(page, 'retry-layers');
  await page.getByTestId('sb-explore-k').selectOption('3');
  await page.getByTestId('sb-explore-run').click();
  await expect(page.getByTestId('sb-explore-progress')).toBeVisible();
  // While the worker searches, stepping the timeline still works at once.
  await page.getByTestId('first').click();
  await expect(page.getByTestId('step-label')).toContainText(/^Step 0 /);
  await page.getByTestId('next').click();
  await expect(page.getByTestId('step-label')).toContainText(/^Step 1 /);
  await expect(page.getByTestId('sb-explore-progress')).toContainText(/Depth \d of 3/);
  await page.getByTestId('sb-explore-cancel').click();
  await expect(page.getByTestId('sb-explore-progress')).toHaveCount(0);
  await expect(page.getByTestId('sb-explore-run')).toBeEnabled();
});

test('keyboard: Enter on Explore keeps the focus in the explore card while the search runs and once it ends', async ({ page }) => {
  await sandboxFromLesson(page);
  await page.getByTestId('sb-explore-run').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sb-explore-summary')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('sb-explore-run')).toBeFocused();
  // From Cancel, a search that ends by itself hands the focus back to Explore.
  await page.getByTestId('sb-explore-k').selectOption('3');
  await page.getByTestId('sb-explore-run').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('sb-explore-cancel').focus();
  await expect(page.getByTestId('sb-explore-summary')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('sb-explore-run')).toBeFocused();
});

test('a change of the fault plan while a search runs waits for it, and the page says so until the change is drawn', async ({ page }) => {
  await sandboxFromLesson(page, 'retry-layers');
  const waiting = page.getByTestId('sb-waiting');
  await expect(waiting).toBeHidden();
  await page.getByTestId('sb-explore-k').selectOption('3');
  await page.getByTestId('sb-explore-run').click();
  await expect(page.getByTestId('sb-explore-progress')).toBeVisible();
  // A fault placed or taken away changes only the plan: the search goes on, and the edit waits.
  const before = await planItems(page).count();
  await page.getByTestId('sb-target').first().click();
  await expect(waiting).toBeVisible();
  await expect(waiting).toContainText('search');
  // In view wherever the learner has scrolled to (Undo/Redo, beside it, is at the top).
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(waiting).toBeInViewport();
  await expect(page.getByTestId('sb-explore-progress')).toBeVisible();
  await page.getByTestId('sb-explore-cancel').click();
  await answered(page);
  await expect(waiting).toBeHidden();
  expect(await planItems(page).count()).not.toBe(before);
});

test('an edit of the scenario while a search runs stops the search and says why, and the edit is drawn; the chosen number of faults stays', async ({ page }) => {
  await sandboxFromLesson(page, 'retry-layers');
  await page.getByTestId('sb-explore-k').selectOption('3');
  await page.getByTestId('sb-explore-run').click();
  await expect(page.getByTestId('sb-explore-progress')).toBeVisible();
  // Another key scope than the one in force: a change beyond the fault plan.
  const scope = page.locator('[data-knob="client.key_scope"]');
  const other = await scope.evaluate((sel) => [...sel.options].map((o) => o.value).find((v) => v !== sel.value));
  await scope.selectOption(other);
  await expect(page.getByTestId('sb-explore-cancelled')).toContainText('the scenario changed');
  await expect(page.getByTestId('sb-explore-progress')).toHaveCount(0);
  await answered(page);
  await expect(scope).toHaveValue(other);
  // Once the edit is drawn, the card still says why there is no result.
  await expect(page.getByTestId('sb-explore-cancelled')).toContainText('the scenario changed');
  // The number of faults chosen for the search is still the learner's choice.
  await expect(page.getByTestId('sb-explore-k')).toHaveValue('3');
  await page.getByTestId('sb-undo').click();
  await answered(page);
  await expect(page.getByTestId('sb-explore-k')).toHaveValue('3');
});

test('Undo while a search runs stops the search, and no result of the scenario before the undo is shown', async ({ page }) => {
  await sandboxFromLesson(page, 'retry-layers');
  const scope = page.locator('[data-knob="client.key_scope"]');
  const first = await scope.inputValue();
  const other = await scope.evaluate((sel) => [...sel.options].map((o) => o.value).find((v) => v !== sel.value));
  await scope.selectOption(other);
  await answered(page);
  await page.getByTestId('sb-explore-k').selectOption('3');
  await page.getByTestId('sb-explore-run').click();
  await expect(page.getByTestId('sb-explore-progress')).toBeVisible();
  await page.getByTestId('sb-undo').click();
  await expect(page.getByTestId('sb-explore-cancelled')).toContainText('the scenario changed');
  await answered(page);
  await expect(scope).toHaveValue(first);
  await expect(page.getByTestId('sb-explore-summary')).toHaveCount(0);
  await expect(page.getByTestId('sb-explore-cancelled')).toContainText('the scenario changed');
  // Redo brings the edit back; a search then is of the scenario on screen.
  await page.getByTestId('sb-redo').click();
  await answered(page);
  await expect(scope).toHaveValue(other);
  await page.getByTestId('sb-explore-k').selectOption('1');
  await page.getByTestId('sb-explore-run').click();
  await expect(page.getByTestId('sb-explore-summary')).toBeVisible({ timeout: 30000 });
  // Undo of a change beyond the fault plan drops that result: it was of the other key scope.
  await page.getByTestId('sb-undo').click();
  await answered(page);
  await expect(scope).toHaveValue(first);
  await expect(page.getByTestId('sb-explore-summary')).toHaveCount(0);
});

test('a delivery at the horizon: the run and the search say they did not settle and were not checked, with no ✓ (issue 32)', async ({ page }) => {
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  const limit = (await page.evaluate(() => window.__idemlab.call('vocabulary', {}))).limits.max_virtual_ms;
  // One more delivery, at the last time a script may name: its request is still on the way
  // when the run reaches the horizon, so no run of this scenario settles.
  await page.getByTestId('sb-new-action').selectOption('deliver');
  await page.locator('input[data-fkey="new-intent"]').fill('late-report');
  await page.locator('input[data-fkey="new-at"]').fill(String(limit));
  await page.getByTestId('sb-add-action').click();
  await answered(page);
  const verdict = page.getByTestId('sb-verdict');
  await expect(verdict).toHaveAttribute('data-stop', 'horizon');
  await expect(verdict).toContainText('did not settle');
  await expect(verdict).not.toContainText('✓');
  await expect(page.getByTestId('sb-stop')).toContainText('horizon');

  await page.getByTestId('sb-explore-k').selectOption('1');
  await page.getByTestId('sb-explore-run').click();
  const summary = page.getByTestId('sb-explore-summary');
  await expect(summary).toBeVisible({ timeout: 60_000 });
  await expect(summary).toHaveText(/^\? No violation found in [\d,]+ schedules of up to 1 fault, but the search has no verdict/);
  await expect(summary).not.toHaveClass(/inv-ok/);
  const note = page.getByTestId('sb-explore-inconclusive');
  await expect(note).toBeVisible();
  const n = Number(await note.getAttribute('data-count'));
  expect(n).toBeGreaterThan(0);
  await expect(note).toContainText(`${n.toLocaleString('en')} schedule`);
  await expect(note).toContainText('did not settle within the 600 s virtual-time horizon');
  await expect(note).toContainText('not checked');
  // Nothing is said of the wrong-alone settings: the search has no verdict to lend them.
  await expect(page.getByTestId('sb-wrong-alone')).toHaveCount(0);
  // The first of them is one click away, or is the run shown.
  expect(await note.getByTestId('sb-unsettled-load').count() + await note.getByTestId('sb-unsettled-shown').count()).toBe(1);

  // In Chinese too, the same counts.
  await page.getByTestId('lang-switch').click();
  await expect(summary).toContainText('没有结论');
  await expect(note).toContainText(`有 ${n.toLocaleString('zh-CN')} 个组合`);
  await expect(note).toContainText('没有结束');
  await expect(verdict).toContainText('没有跑完');
});
