// The sandbox (#/sandbox/...): a learner edits the policy, places faults by clicking the
// run's injection points, explores every schedule in the engine's Web Worker and shares
// the run by its address. What a run ends with is read from the page and compared with
// what the engine says (window.__idemlab), never with numbers written here.

import { deflateRawSync } from 'node:zlib';
import { test, expect, useEnglish, openLesson, settleLessons } from './helpers.mjs';
import { LOST, waitSandbox, sandboxFromLesson, settledUrl, ending, violation, planItems, answered, shownRun, holdRuns, openKnobs, closeKnobs } from './sandbox-helpers.mjs';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

test('open lost-receipt in the sandbox, click away the lost response: DELIVERED with one effect; a new key per attempt that resends, with the fault back: a duplicate effect', async ({ page }) => {
  await sandboxFromLesson(page);
  // The lesson's own fault is in the plan and drawn as a placed target on the diagram.
  await expect(planItems(page)).toHaveCount(1);
  const placed = page.locator(`[data-testid="diagram-target"][data-target="${LOST}"]`);
  await expect(placed).toHaveClass(/target-planned/);
  await placed.click();
  await expect(planItems(page)).toHaveCount(0);
  await expect(ending(page)).toHaveAttribute('data-status', 'DELIVERED');
  await expect(ending(page)).toHaveAttribute('data-effects', '1');
  await expect(page.locator('[data-testid="sb-verdict"] li')).toHaveCount(0);

  // The controls come from the engine's knob table, with its judgement of each value.
  const keyScope = page.locator('[data-knob="client.key_scope"]');
  await keyScope.selectOption('attempt');
  await expect(keyScope.locator('xpath=ancestor::div[contains(@class,"sb-knob")]').getByTestId('knob-setting')).toHaveText('wrong alone');
  await page.locator('[data-knob="client.recovery"]').selectOption('resend');
  await page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`).click();
  await expect(planItems(page)).toHaveCount(1);
  await expect(ending(page)).toHaveAttribute('data-effects', '2');
  await expect(violation(page, 'duplicate_effect')).toContainText('weekly-report');

  // The page shows what the engine computes for the scenario its address holds.
  const code = new URL(await settledUrl(page)).hash.split('/')[2];
  const engineSays = await page.evaluate(async (c) => {
    const { state } = await window.__idemlab.sandboxState(c);
    return (await window.__idemlab.call('run', { scenario: state.s })).ending;
  }, code);
  expect(engineSays.intents).toEqual([{ intent: 'weekly-report', status: await ending(page).getAttribute('data-status'), effects: 2 }]);
});

test('a shared address opens the same run, in another browser context', async ({ page, browser, baseURL }) => {
  await sandboxFromLesson(page);
  await page.locator('[data-knob="client.key_scope"]').selectOption('attempt');
  await page.locator('[data-knob="client.recovery"]').selectOption('resend');
  await page.locator('[data-testid="sb-target"][data-target^="crash:service:after_commit"]').first().click();
  const shown = await shownRun(page);
  const url = await settledUrl(page);
  const other = await browser.newContext({ baseURL });
  const p2 = await other.newPage();
  await useEnglish(p2);
  await p2.goto(url);
  await waitSandbox(p2);
  await p2.getByTestId('controls').focus();
  await p2.keyboard.press('End');
  await page.keyboard.press('End');
  expect(await shownRun(p2)).toEqual(await shownRun(page));
  expect(shown.plan).toEqual((await shownRun(p2)).plan);
  // A reload keeps it too.
  await p2.reload();
  await waitSandbox(p2);
  expect((await shownRun(p2)).ending).toEqual(shown.ending);
  await other.close();
});

test('after edits that lengthen, change and shorten the run, the text timeline lists the run shown, as its address opened anew does', async ({ page, browser, baseURL }) => {
  await sandboxFromLesson(page);
  await page.getByTestId('controls').focus();
  await page.keyboard.press('End');
  const start = (await shownRun(page)).timeline;
  // The lost response taken away (the run changes from that step on), a resend on a new key
  // per attempt with the fault back (longer), then the last edit undone.
  await page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`).click();
  await page.locator('[data-knob="client.key_scope"]').selectOption('attempt');
  await page.locator('[data-knob="client.recovery"]').selectOption('resend');
  await page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`).click();
  await page.getByTestId('sb-undo').click();
  await page.getByTestId('controls').focus();
  await page.keyboard.press('End');
  const edited = await shownRun(page);
  expect(edited.timeline).not.toEqual(start);
  const other = await browser.newContext({ baseURL });
  const fresh = await other.newPage();
  await useEnglish(fresh);
  await fresh.goto(await settledUrl(page));
  await waitSandbox(fresh);
  await fresh.getByTestId('controls').focus();
  await fresh.keyboard.press('End');
  expect((await shownRun(fresh)).timeline).toEqual(edited.timeline);
  await other.close();
});

test('undo and redo, by button and by Ctrl+Z / Ctrl+Shift+Z', async ({ page }) => {
  await sandboxFromLesson(page);
  const start = await shownRun(page);
  await expect(page.getByTestId('sb-undo')).toBeDisabled();
  await page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`).click();
  const edited = await shownRun(page);
  expect(edited.plan).not.toEqual(start.plan);
  await page.getByTestId('sb-undo').click();
  expect((await shownRun(page)).plan).toEqual(start.plan);
  await page.getByTestId('sb-redo').click();
  expect((await shownRun(page)).plan).toEqual(edited.plan);
  await page.getByTestId('controls').focus();
  await page.keyboard.press('Control+z');
  expect((await shownRun(page)).plan).toEqual(start.plan);
  await page.keyboard.press('Control+Shift+z');
  expect((await shownRun(page)).plan).toEqual(edited.plan);
  // With a checkbox in focus (it has no typing of its own to undo), Ctrl+Z undoes the edit it made.
  await page.locator('[data-knob="client.retry_layers"] [data-fkey$="-add"]').click();
  await answered(page);
  const box = page.locator('[data-knob="client.retry_layers"] [data-fkey$="-key-0"]');
  await box.click();
  await answered(page);
  await expect(box).toBeChecked();
  await expect(box).toBeFocused();
  await page.keyboard.press('Control+z');
  await answered(page);
  await expect(page.locator('[data-knob="client.retry_layers"] [data-fkey$="-key-0"]')).not.toBeChecked();
});

test('keyboard only: open the sandbox from the list, place and remove a fault from the target list', async ({ page }) => {
  await page.goto('./#/');
  await page.locator('[data-testid="lesson-list"][data-ready="true"]').waitFor();
  await page.getByTestId('open-sandbox').focus();
  await page.keyboard.press('Enter');
  await waitSandbox(page);
  await expect(page.getByTestId('sb-plan-empty')).toBeVisible();
  const first = page.getByTestId('sb-target').first();
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(planItems(page)).toHaveCount(1);
  // The list was redrawn with the run: the same point is now pressed.
  const id = await page.locator('[data-testid="sb-target"][aria-pressed="true"]').getAttribute('data-target');
  expect(id).toBeTruthy();
  const remove = planItems(page).first().getByRole('button', { name: /Remove/ });
  await remove.focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('sb-plan-empty')).toBeVisible();
});

test('each button of the target list is described by the point it is for, so buttons of one name are told apart', async ({ page }) => {
  await sandboxFromLesson(page);
  const buttons = page.getByTestId('sb-target');
  const count = await buttons.count();
  expect(count).toBeGreaterThan(1);
  const byName = new Map();
  for (let i = 0; i < count; i += 1) {
    const button = buttons.nth(i);
    // What a sighted learner reads beside the button is what a screen reader hears with it.
    const beside = await button.evaluate((b) => b.closest('li').textContent.slice(b.textContent.length).replace(/\s+/g, ' ').trim());
    expect(beside).not.toBe('');
    await expect(button).toHaveAccessibleDescription(beside);
    const name = (await button.textContent()).trim();
    byName.set(name, [...(byName.get(name) || []), beside]);
  }
  // Some names are shared by several buttons (the run has more than one point of a kind).
  expect([...byName.values()].some((d) => d.length > 1)).toBe(true);
  for (const descriptions of byName.values()) expect(new Set(descriptions).size).toBe(descriptions.length);
});

/** A sandbox code as the page writes one, for a state given as JSON text (it may be one JSON.stringify cannot make). */
function codeOfText(text) {
  return `1${deflateRawSync(Buffer.from(text, 'utf8'), { level: 9 }).toString('base64url')}`;
}

/** A state whose client holds `depth` nested objects: a crafted link (the page never writes one). */
function deepState(depth) {
  const script = '[{"at": 0, "do": "deliver", "intent": "weekly-report", "payload": "p"}]';
  return `{"v": 1, "s": {"client": {"zz": ${'{"a": '.repeat(depth)}1${'}'.repeat(depth)}}, "script": ${script}}}`;
}

test('broken sandbox addresses say why and show the default scenario, never a blank page', async ({ page }) => {
  const long = `1${'A'.repeat(40000)}`;
  for (const [hash, words] of [
    ['#/sandbox/1garbage!!', /holds characters it should not/],
    ['#/sandbox/1AAAA', /does not decode/],
    ['#/sandbox/1', /does not decode/],
    ['#/sandbox/9abc', /not in a format this page writes/],
    [`#/sandbox/${long}`, /too long/],
    // Nested thousands deep, such links hung the page on "Loading" or ended in the error page.
    [`#/sandbox/${codeOfText(deepState(3000))}`, /nests its data more than 64 levels deep/],
    [`#/sandbox/${codeOfText(deepState(20000))}`, /nests its data more than 64 levels deep/],
    // Deeper than a scenario may be, but within the link's bound: the engine names where.
    [`#/sandbox/${codeOfText(deepState(40))}`, /nest more than 32 levels deep/],
  ]) {
    await page.goto(`./${hash}`);
    await waitSandbox(page);
    await expect(page.getByTestId('sb-bad-link')).toContainText(words);
    await expect(page.getByTestId('sb-default-shown')).toBeVisible();
    await expect(page.getByTestId('sb-ending')).toContainText('weekly-report');
    // The address now holds the scenario shown, not the broken one.
    expect((await settledUrl(page)).length).toBeLessThan(2000);
  }
  // A link that decodes but that the engine refuses (a latency of 0 ms) names the reason.
  const code = await page.evaluate(() => window.__idemlab.sandboxCode({ v: 1, s: { timing: { latency_ms: 0 }, script: [{ at: 0, do: 'deliver', intent: 'x', payload: 'p' }] } }));
  await page.goto(`./#/sandbox/${code}`);
  await waitSandbox(page);
  await expect(page.getByTestId('sb-bad-link')).toContainText('latency_ms');
  await expect(page.getByTestId('sb-default-shown')).toBeVisible();
  // A step the broken link named is not dropped unsaid: the default run is shown at its end.
  // The step asked for is one the default run has, before its end (from the run shown now).
  const range = page.getByTestId('scrubber');
  const middle = Math.floor(Number(await range.getAttribute('max')) / 2);
  await page.goto(`./#/sandbox/1garbage!!/step/${middle}`);
  await waitSandbox(page);
  await expect(page.getByTestId('sb-default-shown')).toContainText(`the link’s step “${middle}” was a step of the run that did not open`);
  await expect(range).toHaveValue(await range.getAttribute('max'));
});

test('a knob change that bypasses a planned fault takes it out of the plan and says so', async ({ page }) => {
  await sandboxFromLesson(page);
  await page.locator('[data-testid="sb-target"][data-target^="drop:lookup:"]').click();
  await expect(planItems(page)).toHaveCount(2);
  await page.locator('[data-knob="client.recovery"]').selectOption('resend');
  await expect(page.getByTestId('sb-unfired')).toContainText('lookup 1 is lost');
  await expect(planItems(page)).toHaveCount(1);
});

test('an edit the engine refuses is named and changes nothing', async ({ page }) => {
  await sandboxFromLesson(page);
  const before = await shownRun(page);
  const url = await settledUrl(page);
  const latency = page.locator('[data-knob="timing.latency_ms"]');
  await latency.fill('0');
  await latency.press('Enter');
  await expect(page.getByTestId('sb-edit-error')).toContainText('latency_ms');
  expect(await shownRun(page)).toEqual(before);
  expect(await settledUrl(page)).toBe(url);
});

test('a fraction where the engine counts whole virtual ms is refused by name, not rounded to a value the learner did not type', async ({ page }) => {
  await sandboxFromLesson(page);
  const before = await shownRun(page);
  const latency = page.locator('[data-knob="timing.latency_ms"]');
  const inForce = await latency.inputValue();
  await latency.fill(`${Number(inForce) + 0.5}`);
  await latency.press('Enter');
  await expect(page.getByTestId('sb-edit-error')).toContainText('latency_ms');
  await expect(page.getByTestId('sb-edit-error')).toContainText('integer');
  expect(await shownRun(page)).toEqual(before);
  await expect(latency).toHaveValue(inForce);
  // Said beside the box too (the page's notice is far above it), until a value is taken.
  const beside = page.locator('.sb-knob', { has: latency }).getByTestId('sb-knob-refused');
  await expect(beside).toBeVisible();
  await expect(beside).toContainText('timing.latency_ms');
  // One alert, beside the box: the page's notice above is a status (not read out twice).
  await expect(page.locator('[data-testid="sandbox-view"] [role="alert"]:visible')).toHaveCount(1);
  await expect(page.getByTestId('sb-edit-error')).toHaveAttribute('role', 'status');
  await latency.fill(String(Number(inForce) + 1));
  await latency.press('Enter');
  await expect(beside).toBeHidden();
  await expect(page.getByTestId('sb-edit-error')).toHaveCount(0);
});

test('a script time or a restart delay out of range is refused by name, not clamped to one the learner did not type; an emptied box shows the value in force', async ({ page }) => {
  await sandboxFromLesson(page);
  const before = await shownRun(page);
  const at = page.locator('[data-fkey="at-0"]');
  const inForce = await at.inputValue();
  for (const typed of ['-1', '99999999999']) {
    await at.fill(typed);
    await at.press('Enter');
    await expect(page.getByTestId('sb-edit-error')).toContainText('at: expected an integer');
    expect(await shownRun(page)).toEqual(before);
  }
  await expect(at).toHaveValue(inForce);
  // Emptied: nothing is asked of the engine, and the box shows the time in force again.
  await at.fill('');
  await at.press('Enter');
  await expect(at).toHaveValue(inForce);
  expect(await shownRun(page)).toEqual(before);
  // A crash's restart delay of 0 ms.
  const crash = page.locator('[data-testid="sb-target"]', { hasText: 'Crash here' }).first();
  await crash.click();
  await answered(page);
  const planned = await shownRun(page);
  const restart = page.locator('[data-fkey^="restart-"]').first();
  const delay = await restart.inputValue();
  await restart.fill('0');
  await restart.press('Enter');
  await expect(page.getByTestId('sb-edit-error')).toContainText('restart_after_ms');
  expect(await shownRun(page)).toEqual(planned);
  await expect(restart).toHaveValue(delay);
  // A retry layer's attempts emptied: its attempts stay as they are (they were set to 1).
  await page.locator('[data-knob="client.retry_layers"] [data-fkey$="-add"]').click();
  const layered = await shownRun(page);
  const attempts = page.locator('[data-knob="client.retry_layers"] [data-fkey*="-layer-0"]');
  const layerInForce = await attempts.inputValue();
  await attempts.fill('');
  await attempts.press('Enter');
  await expect(attempts).toHaveValue(layerInForce);
  expect(await shownRun(page)).toEqual(layered);
});

test('a reload keeps the undo history of the scenario in the address; another scenario starts with none', async ({ page }) => {
  await sandboxFromLesson(page);
  const start = await shownRun(page);
  await page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`).click();
  const one = await shownRun(page);
  await page.getByTestId('sb-undo').click();
  await page.getByTestId('sb-redo').click();
  await page.locator('[data-knob="client.retry_layers"] [data-fkey$="-add"]').click();
  await answered(page);
  const two = await shownRun(page);
  expect(two.plan).toEqual(one.plan);
  await settledUrl(page);

  await page.reload();
  await waitSandbox(page);
  await answered(page);
  await expect(page.getByTestId('sb-undo')).toBeEnabled();
  await expect(page.getByTestId('sb-redo')).toBeDisabled();
  await page.getByTestId('sb-undo').click();
  await answered(page);
  await expect(page.locator('[data-knob="client.retry_layers"] [data-fkey$="-key-0"]')).toHaveCount(0);
  expect((await shownRun(page)).plan).toEqual(one.plan);
  await page.getByTestId('sb-undo').click();
  expect((await shownRun(page)).plan).toEqual(start.plan);
  await expect(page.getByTestId('sb-undo')).toBeDisabled();
  await expect(page.getByTestId('sb-redo')).toBeEnabled();

  // Another scenario (the default one) opens with nothing to undo.
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await expect(page.getByTestId('sb-undo')).toBeDisabled();
  await expect(page.getByTestId('sb-redo')).toBeDisabled();
});

test('keyboard: Undo pressed until nothing is left to undo hands the focus to Redo, not to the top of the page', async ({ page }) => {
  await sandboxFromLesson(page);
  await page.locator('[data-testid="sb-target"]').first().click();
  await answered(page);
  const undo = page.getByTestId('sb-undo');
  await undo.focus();
  await page.keyboard.press('Enter');
  await answered(page);
  await expect(undo).toBeDisabled();
  await expect(page.getByTestId('sb-redo')).toBeFocused();
  await page.keyboard.press('Enter');
  await answered(page);
  await expect(page.getByTestId('sb-redo')).toBeDisabled();
  await expect(undo).toBeFocused();
});

test('pin as A, edit B: both run under the same fault plan with their counters', async ({ page }) => {
  await sandboxFromLesson(page);
  await page.getByTestId('sb-pin').click();
  await page.locator('[data-knob="client.key_scope"]').selectOption('attempt');
  await page.locator('[data-knob="client.recovery"]').selectOption('resend');
  const a = page.getByTestId('sb-col-A');
  const b = page.getByTestId('sb-col-B');
  await expect(a.locator('li[data-intent="weekly-report"]')).toHaveAttribute('data-effects', '1');
  await expect(b.locator('li[data-intent="weekly-report"]')).toHaveAttribute('data-effects', '2');
  await expect(b).toContainText('client.key_scope: attempt');
  await expect(page.getByTestId('sb-compare')).toContainText('the response of attempt 1 is lost');
  // The pin travels in the address.
  await settledUrl(page);
  await page.reload();
  await waitSandbox(page);
  await expect(page.getByTestId('sb-col-A')).toBeVisible();
  await page.getByTestId('sb-unpin').click();
  await expect(page.getByTestId('sb-compare')).toHaveCount(0);
});

for (const size of [{ width: 1280, height: 800 }, { width: 375, height: 812 }]) {
  test(`A against B with two knobs changed fits a ${size.width} px window: no column is cut off`, async ({ page }) => {
    await page.setViewportSize(size);
    await sandboxFromLesson(page);
    await page.getByTestId('sb-pin').click();
    await openKnobs(page);
    await page.locator('[data-knob="client.key_scope"]').selectOption('attempt');
    await page.locator('[data-knob="client.recovery"]').selectOption('resend');
    await closeKnobs(page);
    await expect(page.getByTestId('sb-col-B')).toContainText('client.recovery: resend');
    await answered(page);
    for (const col of ['sb-col-A', 'sb-col-B']) {
      const box = await page.getByTestId(col).boundingBox();
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
  });
}

test('a link whose fields were changed by hand says so instead of opening as something else', async ({ page }) => {
  await useEnglish(page);
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  const s = { script: [{ at: 0, do: 'deliver', intent: 'weekly-report', payload: 'p' }] };
  const code = (state) => page.evaluate((st) => window.__idemlab.sandboxCode(st), state);
  // A later format, a pinned policy that is no policy: refused, the default scenario shown.
  for (const [state, words] of [
    [{ v: 999, s }, /not in a format this page writes/],
    [{ v: 1, s, a: 5 }, /does not decode to a scenario/],
    [{ v: 1, s, from: 7 }, /does not decode to a scenario/],
  ]) {
    await page.goto(`./#/sandbox/${await code(state)}`);
    await waitSandbox(page);
    await expect(page.getByTestId('sb-bad-link')).toContainText(words);
    await expect(page.getByTestId('sb-default-shown')).toBeVisible();
    await expect(page.getByTestId('sb-compare')).toHaveCount(0);
  }
  // A lesson it came from that does not exist: the scenario opens, the back link goes to the list.
  await page.goto(`./#/sandbox/${await code({ v: 1, s, from: 'nope' })}`);
  await waitSandbox(page);
  await expect(page.getByTestId('sb-bad-link')).toContainText('"nope" the link came from cannot be found');
  await expect(page.getByTestId('sb-default-shown')).toHaveCount(0);
  await expect(page.getByTestId('back')).toHaveAttribute('href', /^#\/?$/);
});

test('a link pinning a policy A the engine refuses names the setting in A\'s column, as B\'s refusals do', async ({ page }) => {
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  const code = await page.evaluate(() =>
    window.__idemlab.sandboxCode({ v: 1, s: { script: [{ at: 0, do: 'deliver', intent: 'weekly-report', payload: 'p' }] }, a: { client: { key_scope: 'galaxy' } } }),
  );
  await page.goto(`./#/sandbox/${code}`);
  await waitSandbox(page);
  await expect(page.getByTestId('sb-col-A')).toContainText("client.key_scope: unknown value 'galaxy'");
  // B, the scenario itself, runs.
  await expect(page.getByTestId('sb-col-B').locator('li[data-intent="weekly-report"]')).toHaveAttribute('data-effects', '1');
});

test('from a side-by-side view, each policy opens in the sandbox with its own knobs', async ({ page }) => {
  await settleLessons(page, ['retry-duplicates']);
  await page.goto('./#/lesson/retry-duplicates/compare');
  await page.locator('body[data-ready="true"]').waitFor();
  for (const [name, index] of [['A', 0], ['B', 1]]) {
    await page.goto('./#/lesson/retry-duplicates/compare');
    await page.locator('[data-testid="compare-view"]').waitFor();
    const expected = await page.evaluate(async (i) => {
      const rec = window.__idemlab.lesson('retry-duplicates');
      const compare = await window.__idemlab.call('compare', { file: rec.file, text: rec.text });
      const policy = compare.policies[i].id;
      return (await window.__idemlab.call('scenario', { file: rec.file, text: rec.text, policy })).scenario.client;
    }, index);
    // A moment in the middle of the runs: the sandbox opens at that virtual time, not at the end.
    const range = page.getByTestId('compare-scrubber');
    const middle = Math.floor(Number(await range.getAttribute('max')) / 2);
    await range.fill(String(middle));
    const time = /t=(\d+)ms/.exec(await page.getByTestId('compare-time').innerText())[1];
    await page.getByTestId(`open-in-sandbox-${name}`).click();
    await waitSandbox(page);
    for (const knob of ['key_scope', 'on_timeout', 'recovery']) {
      await expect(page.locator(`[data-knob="client.${knob}"]`)).toHaveValue(String(expected[knob]));
    }
    const sbRange = page.getByTestId('scrubber');
    expect(Number(await sbRange.inputValue())).toBeLessThan(Number(await sbRange.getAttribute('max')));
    const sbTime = Number(/t=(\d+)ms/.exec(await page.getByTestId('step-label').innerText())[1]);
    expect(sbTime).toBeLessThanOrEqual(Number(time));
    // Every question of the lesson is settled (side by side opens only then): nothing to warn of.
    await expect(page.getByTestId('sb-spoiler')).toHaveCount(0);
    // Back returns to the side-by-side view.
    await expect(page.getByTestId('back')).toHaveAttribute('href', `#/lesson/retry-duplicates/compare/step/${middle}`);
    await expect(page.getByTestId('back')).toContainText('side-by-side');
  }
});

test('a sandbox link from a lesson whose questions are open says that it shows how the run ends', async ({ page }) => {
  await openLesson(page, 'retry-duplicates');
  const code = await page.evaluate(async (id) => {
    const l = window.__idemlab.lesson(id);
    const out = await window.__idemlab.call('scenario', { file: l.file, text: l.text });
    return window.__idemlab.sandboxCode({ v: 1, s: out.scenario, from: id });
  }, 'retry-duplicates');
  await page.goto(`./#/sandbox/${code}`);
  await waitSandbox(page);
  await expect(page.getByTestId('sb-spoiler')).toBeVisible();
});

test('keyboard: leaving a changed number field with Tab moves on to the next control, not to the top of the page', async ({ page }) => {
  await sandboxFromLesson(page);
  const timeout = page.locator('[data-knob="timing.timeout_ms"]');
  await timeout.focus();
  await timeout.fill('150');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('sb-undo')).toBeEnabled(); // the edit happened
  const focused = await page.evaluate(() => document.activeElement && document.activeElement !== document.body && document.activeElement.closest('[data-testid="sandbox-view"]') !== null);
  expect(focused).toBe(true);
  await expect(timeout).toHaveValue('150');
});

test('a click on a diagram target leaves the focus on it, drawn again for the new run, so Tab goes on from there', async ({ page }) => {
  await sandboxFromLesson(page);
  await answered(page);
  await page.locator('.diagram-card [data-testid="palette-kind"][data-kind="drop"]').click();
  const open = page.locator('[data-testid="diagram-target"].target-open').first();
  const id = await open.getAttribute('data-target');
  await open.click();
  const target = page.locator(`[data-testid="diagram-target"][data-target="${id}"]`);
  await expect(target).toHaveClass(/target-planned/);
  await answered(page);
  await expect(target).toBeFocused();
});

test('a learner at the end of the run stays at its end after an edit that makes the run longer', async ({ page }) => {
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  const label = page.getByTestId('step-label');
  const last = () => page.evaluate(() => Number(document.querySelector('[data-testid="scrubber"]').max));
  const before = await last();
  await expect(label).toContainText(`Step ${before} of ${before}`);
  await page.locator('[data-testid="sb-target"][data-target^="drop:response:"]').click();
  await answered(page);
  const after = await last();
  expect(after).toBeGreaterThan(before);
  await expect(label).toContainText(`Step ${after} of ${after}`);
});

test('switching the language keeps the sandbox: its state, its undo history and an explore result', async ({ page }) => {
  await sandboxFromLesson(page);
  await page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`).click();
  await page.getByTestId('sb-explore-k').selectOption('1');
  await page.getByTestId('sb-explore-run').click();
  await expect(page.getByTestId('sb-explore-summary')).toBeVisible({ timeout: 60_000 });
  const plan = await page.getByTestId('sb-plan').innerText();
  await page.getByTestId('lang-switch').click();
  await expect(page.getByTestId('sandbox-title')).toHaveText('沙盒');
  await expect(page.getByTestId('sb-explore-summary')).toBeVisible();
  await expect(page.getByTestId('sb-undo')).toBeEnabled();
  await page.getByTestId('sb-undo').click();
  await page.getByTestId('lang-switch').click();
  expect(await page.getByTestId('sb-plan').innerText()).not.toEqual(plan);
});

test('a language switch between the answers to two quick edits leaves a learner at the end of the run at the end of the new run', async ({ page }) => {
  // The default scenario, no fault: a lost response (the first edit) makes its run longer.
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await answered(page);
  const range = page.getByTestId('scrubber');
  await expect(range).toHaveValue(await range.getAttribute('max'));
  const lastBefore = Number(await range.getAttribute('max'));
  // The engine's answers are held back: the first until the second edit has been asked (so
  // the first is taken in but not drawn), the second for a second, so that the switch comes
  // between them.
  await page.evaluate(() => {
    const engine = window.__idemlab.engine();
    const call = engine.call.bind(engine);
    let runs = 0;
    window.__asked = new Promise((r) => (window.__askedSecond = r));
    window.__held = new Promise((release) => {
      engine.call = async (method, input, opts) => {
        const n = method === 'run' ? ++runs : 0;
        if (n === 2) release(); // the first edit's answer is taken in: its successor's call starts
        const out = await call(method, input, opts);
        if (n === 1) await window.__asked;
        if (n === 2) await new Promise((r) => setTimeout(r, 1000));
        return out;
      };
    });
  });
  const scope = page.locator('[data-knob="client.key_scope"]');
  const other = await scope.evaluate((sel) => [...sel.options].map((o) => o.value).find((v) => v !== sel.value));
  await page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`).click();
  await scope.selectOption(other);
  await page.evaluate(() => window.__askedSecond());
  await page.evaluate(() => window.__held);
  await page.getByTestId('lang-switch').click();
  await answered(page);
  await expect(scope).toHaveValue(other);
  expect(Number(await range.getAttribute('max'))).toBeGreaterThan(lastBefore);
  await expect(range).toHaveValue(await range.getAttribute('max'));
});

test('Undo and another edit made fast, while the redraw of a longer run is still to come, are taken in without breaking the page', async ({ page }) => {
  // The default scenario, no fault; a lost response makes its run longer.
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await answered(page);
  // Frames are run by the test (so the redraw after an answer waits for it), and the
  // engine's answers to runs are held until the test lets each go.
  await page.evaluate(() => {
    window.__frames = [];
    window.requestAnimationFrame = (fn) => window.__frames.push(fn);
    window.__runFrames = () => {
      const fns = window.__frames.splice(0);
      for (const fn of fns) fn(performance.now());
      return fns.length;
    };
  });
  const release = await holdRuns(page);
  const longer = page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`);
  await longer.click();
  // Its answer is the latest: the view is drawn with the longer run at its end, and the
  // rest of the view waits for a frame. Meanwhile Undo is pressed twice more quickly...
  await release();
  await page.getByTestId('sb-undo').click(); // back to no fault (shorter)
  const scope = page.locator('[data-knob="client.key_scope"]');
  const other = await scope.evaluate((sel) => [...sel.options].map((o) => o.value).find((v) => v !== sel.value));
  await scope.selectOption(other); // and another edit at once (the latest)
  // ...and the answer to the first (the shorter run, superseded) comes before that frame.
  await release();
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  await page.evaluate(() => window.__runFrames());
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  await page.evaluate(() => window.__runFrames());
  await release();
  for (let i = 0; i < 5; i += 1) {
    await page.evaluate(() => new Promise((r) => setTimeout(r, 20)));
    await page.evaluate(() => window.__runFrames());
  }
  await expect(page.getByTestId('fatal-error')).toHaveCount(0);
  await expect(page.getByTestId('sandbox-view')).toBeVisible();
  await expect(page.locator('[data-testid="sb-plan-list"] li')).toHaveCount(0);
  await expect(scope).toHaveValue(other);
});

test('plan and script edits made before the view is drawn again change the row they were made on', async ({ page }) => {
  // Edits wait for the engine one after the other (and behind an explore): a second click
  // lands on rows drawn before the first edit was answered.
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await page.getByTestId('sb-new-action').selectOption('deliver');
  await page.getByTestId('sb-add-action').click();
  const actions = page.locator('[data-testid="sb-script-list"] > li');
  await expect(actions).toHaveCount(2);
  await answered(page);
  const kept = await actions.nth(1).innerText();
  // Two faults: the lost response, then a crash (it has a restart delay).
  await page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`).click();
  await answered(page);
  await page.locator('[data-testid="sb-target"][data-target^="crash:"]').last().click();
  await answered(page);
  await expect(planItems(page)).toHaveCount(2);
  await expect(planItems(page).nth(0)).toHaveAttribute('data-fault', LOST);
  const keptKey = await planItems(page).nth(1).getAttribute('data-fault');
  const restart = page.locator(`[data-testid="sb-plan-list"] li[data-fault="${keptKey}"] input`);
  // The engine's answers are held, so the view is not drawn again between the clicks.
  const release = await holdRuns(page);
  await planItems(page).nth(0).getByRole('button', { name: /Remove/ }).click();
  await restart.fill('300');
  await page.keyboard.press('Tab');
  await actions.nth(0).getByRole('button', { name: /Remove/ }).click();
  await actions.nth(1).locator('input[data-at]').fill('250');
  await page.keyboard.press('Tab');
  for (let i = 0; i < 4; i += 1) await release();
  await answered(page);
  await expect(page.getByTestId('fatal-error')).toHaveCount(0);
  // The fault and the action not clicked away are the ones left, with the values typed on their rows.
  await expect(planItems(page)).toHaveCount(1);
  await expect(planItems(page).first()).toHaveAttribute('data-fault', keptKey);
  await expect(restart).toHaveValue('300');
  await expect(actions).toHaveCount(1);
  await expect(actions.first().locator('input[data-at]')).toHaveValue('250');
  expect((await actions.first().innerText()).replace(/\s+/g, ' ')).toBe(kept.replace(/\s+/g, ' '));
});

test('Remove pressed twice on one row before the view is drawn again removes it once, and the plan shown and the address say so', async ({ page }) => {
  await sandboxFromLesson(page);
  await expect(planItems(page)).toHaveCount(1);
  const before = await settledUrl(page);
  const release = await holdRuns(page);
  const remove = planItems(page).first().getByRole('button', { name: /Remove/ });
  await remove.click();
  await remove.click(); // the same row, still drawn: by its turn, its fault is gone
  await release();
  await answered(page);
  await expect(page.getByTestId('sb-plan-empty')).toBeVisible();
  const after = await settledUrl(page);
  expect(after).not.toBe(before);
  // The address holds the plan shown: no fault.
  const code = new URL(after).hash.split('/')[2];
  const faults = await page.evaluate(async (c) => (await window.__idemlab.sandboxState(c)).state.s.faults || [], code);
  expect(faults).toEqual([]);
});

test('a number field emptied and left shows the value still in force again', async ({ page }) => {
  await sandboxFromLesson(page);
  const timeout = page.locator('[data-knob="timing.timeout_ms"]');
  const before = await timeout.inputValue();
  expect(before).not.toBe('');
  await timeout.fill('');
  await page.keyboard.press('Tab');
  await expect(timeout).toHaveValue(before);
});

test('the Azure incident in the sandbox: its 500 is a planned fault, reading "409 already exists" as a reason to look up turns a false failure into DELIVERED, and a layer that makes its own key shows it on the wire', async ({ page }) => {
  await sandboxFromLesson(page, 'incident-azure-blob-409');
  await expect(planItems(page)).toHaveCount(1);
  await expect(planItems(page).first()).toContainText('500');
  // The service stays up: its error targets answer, they do not crash it.
  await expect(page.locator('[data-testid="sb-target"][data-target="error:service:after_commit:invoice-blob:1"]')).toHaveText('Answer normally');
  await expect(page.locator('[data-testid="sb-target"][data-target="error:service:refused:invoice-blob:2"]')).toHaveText('Answer with this error');
  await expect(ending(page, 'invoice-blob')).toHaveAttribute('data-status', 'FAILED');
  await expect(violation(page, 'false_failure')).toContainText('invoice-blob');

  await page.locator('[data-knob="client.on_already_exists"]').selectOption('reconcile');
  await answered(page);
  await expect(ending(page, 'invoice-blob')).toHaveAttribute('data-status', 'DELIVERED');
  await expect(ending(page, 'invoice-blob')).toHaveAttribute('data-effects', '1');
  await expect(page.locator('[data-testid="sb-verdict"] li')).toHaveCount(0);

  // The SDK layer sends its own key instead of the one the client stored.
  const ownKey = page.locator('[data-knob="client.retry_layers"] input[type="checkbox"]').first();
  await ownKey.check();
  const shown = await shownRun(page);
  expect(shown.timeline).toContain('which a retry layer made itself');
});

test('a retry layer that no longer retries timeouts: the myplanet interceptor leaves a lost response to a person instead of saving a second document', async ({ page }) => {
  await sandboxFromLesson(page, 'incident-myplanet-submission');
  await expect(ending(page, 'submission')).toHaveAttribute('data-effects', '2');
  await expect(violation(page, 'duplicate_effect')).toContainText('submission');
  // The layer's error kinds come from the engine; every one is ticked by default.
  const kinds = page.locator('[data-knob="client.retry_layers"] .sb-retry-on input[type="checkbox"]');
  const engineKinds = await page.evaluate(async () => {
    const v = await window.__idemlab.call('vocabulary', {});
    return v.knobs.find((k) => k.group === 'client' && k.name === 'retry_layers').retry_on;
  });
  expect(engineKinds).toContain('connect');
  await expect(kinds).toHaveCount(engineKinds.length);
  await expect(page.getByTestId('sb-knobs').getByRole('checkbox', { name: 'the "interceptor" layer retries connect' })).toBeChecked();
  const timeout = page.getByTestId('sb-knobs').getByRole('checkbox', { name: 'the "interceptor" layer retries timeout' });
  await expect(timeout).toBeChecked();
  await timeout.uncheck();
  await answered(page);
  await expect(ending(page, 'submission')).toHaveAttribute('data-effects', '1');
  await expect(ending(page, 'submission')).toHaveAttribute('data-status', 'NEEDS_HUMAN');
  await expect(page.locator('[data-testid="sb-verdict"] li')).toHaveCount(0);
  const shown = await shownRun(page);
  expect(shown.timeline).toContain('no retry layer retries a timeout');
  // The choice is in the shared address: reloading keeps it.
  await page.goto(await settledUrl(page));
  await waitSandbox(page);
  await expect(page.getByTestId('sb-knobs').getByRole('checkbox', { name: 'the "interceptor" layer retries timeout' })).not.toBeChecked();
  await expect(ending(page, 'submission')).toHaveAttribute('data-effects', '1');
});

test('a layer\'s own timeout in the sandbox: dust\'s scheduler gives up on a running step and starts a copy; clearing the timeout leaves one execution', async ({ page }) => {
  await sandboxFromLesson(page, 'incident-dust-activity');
  await expect(violation(page, 'concurrent_execution')).toBeVisible();
  const timeout = page.getByTestId('sb-knobs').getByRole('spinbutton', { name: 'the "temporal" layer\'s own timeout for one call, in virtual ms (empty: none)' });
  await expect(timeout).toHaveValue('100');
  const shown = await shownRun(page);
  expect(shown.timeline).toContain("the temporal layer's timeout (100 ms) passes");
  await timeout.fill('');
  await timeout.press('Enter');
  await answered(page);
  await expect(page.locator('[data-testid="sb-verdict"] li')).toHaveCount(0);
  await expect(ending(page, 'index-documents')).toHaveAttribute('data-status', 'DELIVERED');
});

test('a refused connection in the sandbox: the request never leaves, so even a new key per attempt makes one effect, where a lost response made two', async ({ page }) => {
  await sandboxFromLesson(page);
  await page.locator('[data-knob="client.key_scope"]').selectOption('attempt');
  await page.locator('[data-knob="client.recovery"]').selectOption('resend');
  await answered(page);
  // The lesson's lost response, under a key per attempt: the resend is a second effect.
  await expect(ending(page)).toHaveAttribute('data-effects', '2');
  await page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`).click();
  const refuse = page.locator('[data-testid="sb-target"][data-target="connect_error:request:weekly-report:1"]');
  await expect(refuse).toHaveText('Refuse the connection');
  await refuse.click();
  await expect(planItems(page)).toHaveCount(1);
  const shown = await shownRun(page);
  expect(shown.plan).toContain('cannot connect');
  expect(shown.timeline).toContain('never leaves');
  await expect(ending(page)).toHaveAttribute('data-status', 'DELIVERED');
  await expect(ending(page)).toHaveAttribute('data-effects', '1');
  await expect(page.locator('[data-testid="sb-verdict"] li')).toHaveCount(0);
});

test('on a phone-wide screen the sandbox shows how the run ends and its diagram, the knobs that change it one button away', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  await answered(page);
  const top = async (sel) => (await page.locator(sel).first().boundingBox()).y;
  const summary = await top('[data-testid="sb-summary"]');
  const button = await top('[data-testid="sb-drawer-open"]');
  const diagram = await top('.sandbox-view .diagram-card');
  const timeline = await top('.sandbox-view .timeline-card');
  expect(summary).toBeLessThan(button);
  expect(button).toBeLessThan(diagram);
  expect(diagram).toBeLessThan(timeline);
  await expect(page.getByTestId('sb-knobs')).toBeHidden();
  await openKnobs(page);
  await expect(page.getByTestId('sb-knobs')).toBeVisible();
  // Nothing is wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test('a shared link whose fault names no intent (as lesson files may write it) lists it by what it does, and its target takes it away', async ({ page }) => {
  await page.goto('./#/sandbox');
  await waitSandbox(page);
  const code = await page.evaluate(() =>
    window.__idemlab.sandboxCode({ v: 1, s: { script: [{ at: 0, do: 'deliver', intent: 'weekly-report', payload: 'p' }], faults: [{ drop: 'response', attempt: 1 }] } }),
  );
  await page.goto(`./#/sandbox/${code}`);
  await waitSandbox(page);
  await answered(page);
  await expect(planItems(page)).toHaveCount(1);
  await expect(planItems(page).first()).toContainText('the response of attempt 1 is lost');
  await expect(planItems(page).first()).not.toContainText('drop:response::1');
  await page.locator(`[data-testid="sb-target"][data-target="${LOST}"]`).click();
  await answered(page);
  await expect(page.getByTestId('sb-plan-empty')).toBeVisible();
});

for (const size of [{ width: 1280, height: 800 }, { width: 375, height: 812 }]) {
  test(`at ${size.width} px an edit deep in the knobs shows how the run ends beside it, as the summary says`, async ({ page }) => {
    await page.setViewportSize(size);
    await sandboxFromLesson(page);
    await openKnobs(page); // a phone's drawer
    // Two knobs down the list, changed where they are: the lost response becomes a second effect.
    for (const [knob, value] of [['client.key_scope', 'attempt'], ['client.recovery', 'resend']]) {
      await page.locator(`[data-knob="${knob}"]`).scrollIntoViewIfNeeded();
      await page.locator(`[data-knob="${knob}"]`).selectOption(value);
      await answered(page);
    }
    const now = page.getByTestId('sb-now');
    // In view, below the sticky step bar, while the knob just changed is in view too.
    // (On a phone, in the drawer that covers the page, below its title bar.)
    const over = size.width > 1000 ? page.getByTestId('controls') : page.locator('.sb-drawer-bar');
    const [box, bar] = [await now.boundingBox(), await over.boundingBox()];
    expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
    expect(box.y + box.height).toBeLessThanOrEqual(size.height);
    await expect(page.locator('[data-knob="client.recovery"]')).toBeInViewport();
    // It says what the summary says.
    const summary = ending(page);
    await expect(now.locator('[data-intent="weekly-report"]')).toHaveAttribute('data-effects', await summary.getAttribute('data-effects'));
    await expect(now.locator('[data-intent="weekly-report"]')).toHaveAttribute('data-status', await summary.getAttribute('data-status'));
    await expect(now.getByTestId('sb-now-verdict')).toHaveAttribute('data-broken', 'true');
    await expect(now.getByTestId('sb-now-verdict')).toContainText('duplicate effect');
    // One click to the full summary.
    await now.getByTestId('sb-now-more').click();
    await expect(page.getByTestId('sb-summary')).toBeFocused();
    await expect(page.getByTestId('sb-summary')).toBeInViewport();
  });
}
