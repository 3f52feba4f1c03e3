// The sandbox's code mode: the client written as Lua (the scenario's `code`), run by the
// code engine (engine/idemlab-code.wasm). What the page shows is compared with the engine's
// own answers (window.__idemlab.callCode), never with verdicts written here; the naive code
// typed is the exercise's test data (tests/exercises/lost-response/naive.lua).

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, useEnglish } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';
import { waitSandbox, settledUrl, openKnobs, answered, sandboxFromLesson } from './sandbox-helpers.mjs';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

const NAIVE = readFileSync(resolve(REPO, 'tests/exercises/lost-response/naive.lua'), 'utf8');

/** The state of the sandbox's address, decoded as the page decodes it. */
async function stateOf(page) {
  const url = await settledUrl(page);
  const code = /#\/sandbox\/([^/?]+)/.exec(url)[1];
  return page.evaluate((c) => window.__idemlab.sandboxState(c), code).then((got) => got.state);
}

/** A sandbox at the default scenario with the response of the first attempt lost. */
async function openLostResponse(page) {
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  const { s } = await stateOf(page);
  s.faults = [{ drop: 'response', intent: 'weekly-report', attempt: 1 }];
  const code = await page.evaluate((st) => window.__idemlab.sandboxCode(st), { v: 1, s });
  await page.goto(`./#/sandbox/${code}`);
  await waitSandbox(page);
}

/** Presses Tab until the element `selector` has the keyboard focus. */
async function tabTo(page, selector, max = 200) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((sel) => !!document.activeElement && document.activeElement.matches(sel), selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} never had the focus`);
}

/** Switches the client to code by keyboard; resolves once the code ran. */
async function switchToCode(page) {
  await openKnobs(page);
  await page.getByTestId('sandbox-title').focus();
  await tabTo(page, '[data-testid="sb-to-code"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sb-code-run')).toBeVisible({ timeout: 60_000 });
  await answered(page);
}

const editor = (page) => page.locator('[data-testid="sb-client"] [data-testid="code-editor"]');

test('switching to code by keyboard shows the engine preset and the run ends as before', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  const before = await page.getByTestId('sb-ending').innerText();
  const { s } = await stateOf(page);
  const preset = await page.evaluate((scenario) => window.__idemlab.callCode('preset', { scenario }), s);
  expect(typeof preset.code).toBe('string');
  await switchToCode(page);
  await expect(editor(page)).toHaveValue(preset.code);
  expect(await page.getByTestId('sb-ending').innerText()).toBe(before);
  const after = await stateOf(page);
  expect(after.s.code).toBe(preset.code);
  // Undo brings the built-in client back; Redo the code.
  await page.getByTestId('sb-undo').click();
  await answered(page);
  await expect(page.getByTestId('sb-to-code')).toBeVisible();
});

test('a client knob in code mode replaces the code, and Undo brings the previous code back', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await switchToCode(page);
  const first = await editor(page).inputValue();
  const select = page.locator('select[data-knob="client.recovery"]');
  const values = await select.locator('option').evaluateAll((os) => os.map((o) => o.value));
  const now = await select.inputValue();
  const other = values.find((v) => v !== now);
  await select.selectOption(other);
  await answered(page);
  const { s } = await stateOf(page);
  const preset = await page.evaluate((scenario) => window.__idemlab.callCode('preset', { scenario: { ...scenario, code: undefined } }), s);
  await expect(editor(page)).toHaveValue(preset.code);
  expect(preset.code).not.toBe(first);
  await expect(page.getByTestId('sb-code-status')).toContainText('Undo');
  await page.getByTestId('sb-undo').click();
  await answered(page);
  await expect(editor(page)).toHaveValue(first);
  await expect(select).toHaveValue(now);
});

test('switching a lesson scenario to code names the script actions it drops; Undo brings them back', async ({ page }) => {
  test.setTimeout(120_000);
  await sandboxFromLesson(page, 'cancel-not-undo');
  const { s } = await stateOf(page);
  const vocab = await page.evaluate(() => window.__idemlab.call('vocabulary', {}));
  const allowed = new Set(vocab.actions.filter((a) => a.with_code).map((a) => a.name));
  const dropped = s.script.filter((a) => !allowed.has(a.do));
  expect(dropped.length).toBeGreaterThan(0);
  await switchToCode(page);
  for (const a of dropped) await expect(page.getByTestId('sb-code-status')).toContainText(a.do);
  const after = await stateOf(page);
  expect(after.s.script.map((a) => a.do)).toEqual(s.script.filter((a) => allowed.has(a.do)).map((a) => a.do));
  await page.getByTestId('sb-undo').click();
  await answered(page);
  expect((await stateOf(page)).s.script).toEqual(s.script);
});

test('naive code runs on Run: the run breaks an invariant and the explorer finds a counterexample', async ({ page }) => {
  test.setTimeout(180_000);
  await openLostResponse(page);
  await expect(page.locator('[data-testid="sb-verdict"] li.inv-broken')).toHaveCount(0);
  await switchToCode(page);
  await editor(page).fill(NAIVE);
  await expect(page.getByTestId('sb-code-stale')).toBeVisible();
  await editor(page).focus();
  await page.keyboard.press('Control+Enter');
  await answered(page);
  await expect(page.getByTestId('sb-code-stale')).toBeHidden();
  const { s } = await stateOf(page);
  expect(s.code).toBe(NAIVE);
  const run = await page.evaluate((scenario) => window.__idemlab.callCode('run', { scenario }), s);
  const broken = run.verdict.violations.map((v) => v.invariant);
  expect(broken.length).toBeGreaterThan(0);
  for (const name of broken) await expect(page.locator(`[data-testid="sb-verdict"] li[data-invariant="${name}"]`)).toBeVisible();
  // The explorer, in the code engine.
  await page.getByTestId('sb-explore-k').selectOption('1');
  await page.getByTestId('sb-explore-run').click();
  await expect(page.getByTestId('sb-explore-summary')).toContainText('⚠', { timeout: 120_000 });
  await expect(page.getByTestId('sb-cex').first()).toBeVisible();
});

test('an engine refusal of the code is shown beside the editor with its line', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await switchToCode(page);
  const good = await editor(page).inputValue();
  await editor(page).fill(`${good}\nfunction on_deliver(intent, payload\n`);
  await page.getByTestId('sb-code-run').click();
  await answered(page);
  await expect(page.getByTestId('sb-code-error')).toBeVisible();
  await expect(page.getByTestId('sb-code-stale')).toBeVisible();
  // Said once, beside the editor: not again at the top of the page.
  await expect(page.getByTestId('sb-edit-error')).toHaveCount(0);
  await page.getByTestId('sb-code-goto').click();
  await expect(editor(page)).toBeFocused();
  // The code in force is still the one that ran.
  expect((await stateOf(page)).s.code).toBe(good);
});

test('a fault that makes the code fail is refused as that change, and the code that ran stays', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await switchToCode(page);
  // The preset, with a refused connection now never ending: it runs while no connection is refused.
  const looping = `${await editor(page).inputValue()}\nfunction on_connect_error(intent, attempt)\n  while true do end\nend\n`;
  await editor(page).fill(looping);
  await editor(page).press('Control+Enter');
  await answered(page);
  await expect(page.getByTestId('sb-code-error')).toBeHidden();
  // On a wide screen the run is beside the editor: the keyboard stays in the code.
  await expect(editor(page)).toBeFocused();
  expect((await stateOf(page)).s.code).toBe(looping);
  await page.locator('[data-testid="sb-target"][data-target^="connect_error:"]').first().click();
  await answered(page);
  // The change is what was not made: the code did run, and nothing says it did not.
  await expect(page.getByTestId('sb-code-error')).toContainText('That change was not made');
  await expect(page.getByTestId('sb-code-error-where')).toBeVisible();
  await expect(page.getByTestId('sb-code-stale')).toBeHidden();
  const after = await stateOf(page);
  expect(after.s.code).toBe(looping);
  expect(after.s.faults || []).toEqual([]);
});

test('code typed and not run survives a knob\'s preset (set aside, put back) and a reload', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await switchToCode(page);
  const typed = `-- my own change, not run yet\n${await editor(page).inputValue()}`;
  await editor(page).fill(typed);
  await expect(page.getByTestId('sb-code-stale')).toBeVisible();
  const select = page.locator('select[data-knob="client.recovery"]');
  const values = await select.locator('option').evaluateAll((os) => os.map((o) => o.value));
  const now = await select.inputValue();
  await select.selectOption(values.find((v) => v !== now));
  await answered(page);
  await expect(editor(page)).not.toHaveValue(typed);
  await expect(page.getByTestId('sb-code-status')).toContainText('set aside');
  await page.getByTestId('sb-code-put-back').click();
  await expect(editor(page)).toHaveValue(typed);
  await expect(editor(page)).toBeFocused();
  await expect(page.getByTestId('sb-code-stale')).toBeVisible();
  // A reload finds it again, still not run.
  await settledUrl(page);
  await page.reload();
  await waitSandbox(page);
  await openKnobs(page);
  await expect(editor(page)).toHaveValue(typed);
  await expect(page.getByTestId('sb-code-stale')).toBeVisible();
  expect((await stateOf(page)).s.code).not.toBe(typed);
});

test('a link with code opens a gate, runs nothing until Run it, then ends the same; or opens without the code', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await openLostResponse(page);
  await switchToCode(page);
  await editor(page).fill(NAIVE);
  await page.getByTestId('sb-code-run').click();
  await answered(page);
  const ending = await page.getByTestId('sb-ending').innerText();
  const verdict = await page.getByTestId('sb-verdict').innerText();
  const url = await settledUrl(page);
  // A reload in this tab is not gated: the code ran here.
  await page.reload();
  await waitSandbox(page);
  await expect(page.getByTestId('sb-gate')).toHaveCount(0);

  for (const choice of ['run', 'without']) {
    const context = await browser.newContext({ locale: 'en' });
    const other = await context.newPage();
    await useEnglish(other);
    await other.goto(url);
    await expect(other.getByTestId('sb-gate')).toBeVisible({ timeout: 60_000 });
    await expect(other.getByTestId('sb-gate-code')).toContainText('new_key(intent)');
    await expect(other.getByTestId('sb-summary')).toHaveCount(0);
    await expect(other.getByTestId('sandbox-view')).toHaveCount(0);
    await other.getByTestId(choice === 'run' ? 'sb-gate-run' : 'sb-gate-without').click();
    await waitSandbox(other);
    if (choice === 'run') {
      expect(await other.getByTestId('sb-ending').innerText()).toBe(ending);
      expect(await other.getByTestId('sb-verdict').innerText()).toBe(verdict);
      await openKnobs(other);
      await expect(other.getByTestId('sb-code-run')).toBeVisible();
    } else {
      await openKnobs(other);
      await expect(other.getByTestId('sb-to-code')).toBeVisible();
      expect((await stateOf(other)).s.code).toBeUndefined();
    }
    await context.close();
  }
});

test('a failing code exercise opens its counterexample in the sandbox, with the code', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('./#/code/lost-response');
  await page.getByTestId('code-view').waitFor();
  await page.getByTestId('code-editor').fill(NAIVE);
  await page.getByTestId('code-check').click();
  await expect(page.locator('[data-testid="code-result"][data-outcome="counterexample"]')).toBeVisible({ timeout: 180_000 });
  const invariant = await page.getByTestId('code-cex').locator('.code-verdict-head').innerText();
  await page.getByTestId('code-cex-sandbox').click();
  await waitSandbox(page);
  await expect(page.getByTestId('sb-gate')).toHaveCount(0);
  await expect(page.locator('[data-testid="sb-verdict"] li.inv-broken').first()).toBeVisible();
  expect(invariant.length).toBeGreaterThan(0);
  await openKnobs(page);
  await expect(editor(page)).toHaveValue(NAIVE);
  await expect(page.getByTestId('back')).toHaveAttribute('href', '#/code/lost-response');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test('code mode and the gate fit the screen: no sideways scroll', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('./#/sandbox');
    await waitSandbox(page);
    await openKnobs(page);
    await page.getByTestId('sb-to-code').click();
    await expect(page.getByTestId('sb-code-run')).toBeVisible({ timeout: 60_000 });
    await answered(page);
    const wide = () => page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth);
    expect(await wide()).toBeLessThanOrEqual(0);
    const area = page.locator('[data-testid="sb-client"] [data-testid="code-editor"]');
    const box = await area.boundingBox();
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    // In the drawer, Escape in the editor is the editor's (Escape, then Tab leaves it): the
    // drawer stays open; Escape outside the editor closes it.
    await area.focus();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('sb-drawer-close')).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(area).not.toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('sb-drawer-close')).toBeHidden();
    // The same state opened in a tab that never ran its code: the gate, as narrow.
    const url = await settledUrl(page);
    await page.evaluate(() => window.sessionStorage.clear());
    await page.goto('about:blank');
    await page.goto(url);
    await expect(page.getByTestId('sb-gate')).toBeVisible();
    expect(await wide()).toBeLessThanOrEqual(0);
  });
});

test('a code engine that does not load is said, never a blank page', async ({ page, guard }) => {
  test.setTimeout(120_000);
  guard.allowErrors(); // the failed fetch is logged by the browser
  await page.route('**/idemlab-code.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await openKnobs(page);
  await page.getByTestId('sb-to-code').click();
  await answered(page);
  // The switch is refused with the reason; the built-in client stays.
  await expect(page.getByTestId('sb-edit-error')).toBeVisible();
  await expect(page.getByTestId('sb-to-code')).toBeVisible();
  // A link with code, opened and run: the engine's error card, with the way without the code.
  const { s } = await stateOf(page);
  const code = await page.evaluate((st) => window.__idemlab.sandboxCode(st), { v: 1, s: { ...s, code: 'function on_deliver(i, p) end\n' } });
  await page.goto(`./#/sandbox/${code}`);
  await page.getByTestId('sb-gate-run').click();
  await expect(page.getByTestId('engine-error')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('sb-code-engine-without').click();
  await waitSandbox(page);
  expect((await stateOf(page)).s.code).toBeUndefined();
});
