// A knob value the engine's table judges wrong is "wrong alone" (issue 30, rule 4): the
// sandbox never says "wrong" where the run and the explorer say the design holds. Under an
// ending that breaks nothing it says which wrong setting no fault of the run reaches, with
// one click that searches for a schedule that does; after a complete search that found
// nothing, it names each wrong-alone setting with what was searched and why. Every count
// and reason is read from the page or the engine (window.__idemlab), never written here.

import { test, expect, useEnglish, sandboxReady } from './helpers.mjs';

const deliver = [{ at: 0, do: 'deliver', intent: 'weekly-report', payload: 'Weekly report, version 1' }];

/** The sandbox opened at a scenario (a state as the page writes one), every edit answered. */
async function openScenario(page, s) {
  await page.goto('./#/sandbox');
  await page.locator('body[data-ready="true"]').waitFor();
  const code = await page.evaluate((st) => window.__idemlab.sandboxCode(st), { v: 1, s });
  await page.goto(`./#/sandbox/${code}`);
  await page.locator('body[data-ready="true"]').waitFor();
  await sandboxReady(page);
}

const badge = (page, knob) => page.locator(`[data-knob="${knob}"]`).locator('xpath=ancestor::div[contains(@class,"sb-knob")]').getByTestId('knob-setting');

/** Explores from the button given, and waits for the search's summary. */
async function searchFrom(button, page) {
  await button.click();
  await expect(page.getByTestId('sb-explore-summary')).toBeVisible({ timeout: 60_000 });
}

test('a wrong value is labelled "wrong alone", with what that means, in Chinese and in English', async ({ page }) => {
  await openScenario(page, { client: { key_scope: 'attempt' }, script: deliver });
  await expect(badge(page, 'client.key_scope')).toHaveText('单独看是错的');
  await page.evaluate(() => window.localStorage.setItem('idemlab.lang', 'en'));
  await page.reload();
  await page.locator('body[data-ready="true"]').waitFor();
  await sandboxReady(page);
  await expect(badge(page, 'client.key_scope')).toHaveText('wrong alone');
  await expect(badge(page, 'client.key_scope')).toHaveAttribute('title', /depends on the rest of the scenario and on the faults/);
  await expect(page.getByTestId('sb-knobs')).toContainText('wrong alone (wrong by itself');
  // A right value says so, and says nothing more.
  await expect(badge(page, 'client.persist')).toHaveText('right');
});

test.describe('in English', () => {
  test.beforeEach(async ({ page }) => {
    await useEnglish(page);
  });

  test('key_scope attempt with no fault: the ending says no fault of this run reaches it, and one click searches and finds a counterexample', async ({ page }) => {
    // One retry layer (right alone) retries a timeout under a new key per attempt (wrong alone).
    await openScenario(page, { client: { key_scope: 'attempt', retry_layers: [{ layer: 'sdk', attempts: 3 }] }, script: deliver });
    await expect(page.locator('[data-testid="sb-verdict"] li')).toHaveCount(0);
    const note = page.getByTestId('sb-unreached');
    await expect(note.locator('p[data-wrong="client.key_scope"]')).toContainText('No fault of this run reaches client.key_scope: attempt');
    // The engine says the same: with no fault, the setting is not reached.
    const code = new URL(page.url()).hash.split('/')[2];
    const wrong = await page.evaluate(async (c) => {
      const { state } = await window.__idemlab.sandboxState(c);
      return (await window.__idemlab.call('run', { scenario: state.s })).wrong_settings;
    }, code);
    expect(wrong.filter((w) => !w.reached).map((w) => w.knob)).toEqual(['client.key_scope']);

    await searchFrom(page.getByTestId('sb-unreached-search'), page);
    await expect(page.getByTestId('sb-explore')).toBeFocused();
    const cex = page.locator('[data-testid="sb-cex"] > li');
    expect(await cex.count()).toBeGreaterThan(0);
    const reason = (await cex.first().locator('p').first().innerText()).trim();
    // The counterexample is one click away: loaded, the run breaks, and the note is gone.
    await cex.first().getByTestId('sb-cex-load').click();
    await sandboxReady(page);
    await expect(page.getByTestId('sb-verdict')).toContainText(reason.split(':')[0]);
    await expect(note).toHaveCount(0);
  });

  test('key_scope attempt alone (no retry anywhere): the search from the note finds nothing, and says up to what, not "safe"', async ({ page }) => {
    await openScenario(page, { client: { key_scope: 'attempt' }, script: deliver });
    await expect(page.getByTestId('sb-unreached')).toContainText('client.key_scope: attempt');
    await searchFrom(page.getByTestId('sb-unreached-search'), page);
    const summary = await page.getByTestId('sb-explore-summary').innerText();
    expect(summary).toContain('No violation in');
    const line = page.locator('[data-testid="sb-wrong-alone"] li[data-wrong="client.key_scope"]');
    await expect(line).toContainText('client.key_scope: attempt is wrong alone; in this composition the explorer found no violation in');
    // The same count and K as the search's own summary, and the honest reason.
    const searched = /No violation in (.*?)\./.exec(summary)[1];
    await expect(line).toContainText(searched);
    await expect(line).toContainText('more faults or another composition may');
  });

  test('two retry layers under one key: wrong alone, and after a clean search the page says why it holds here', async ({ page }) => {
    await openScenario(page, { client: { retry_layers: [{ layer: 'sdk', attempts: 2 }, { layer: 'app', attempts: 2 }] }, script: deliver });
    await expect(badge(page, 'client.retry_layers')).toHaveText('wrong alone');
    await searchFrom(page.getByTestId('sb-explore-run'), page);
    await expect(page.getByTestId('sb-explore-summary')).toContainText('No violation in');
    const line = page.locator('[data-testid="sb-wrong-alone"] li[data-wrong="client.retry_layers"]');
    await expect(line).toContainText('client.retry_layers is wrong alone; in this composition the explorer found no violation in');
    // Why: the knob table's condition, as the engine gives it for this scenario.
    const why = await page.evaluate(async () => (await window.__idemlab.call('vocabulary', {})).knobs.find((k) => k.name === 'retry_layers').composes.en);
    await expect(line).toContainText(`Why: ${why}.`);

    // An SDK that makes its own key per call inside a retrying layer: the search finds a
    // duplicate, and no line says the composition holds.
    await page.locator('[data-fkey="knob-client-retry_layers-key-0"]').check();
    await sandboxReady(page);
    await searchFrom(page.getByTestId('sb-explore-run'), page);
    await expect(page.getByTestId('sb-explore-summary')).toContainText('break an invariant');
    await expect(page.getByTestId('sb-wrong-alone')).toHaveCount(0);
  });

  test('retry layers that absorb K faults: the search says so and names the K that reaches past them, which finds the duplicate', async ({ page }) => {
    // An SDK that makes its own key per call and tries 3 times, inside an app retry (issue 36).
    await openScenario(page, { client: { retry_layers: [{ layer: 'sdk', attempts: 3, key: 'per_call' }, { layer: 'app', attempts: 2 }] }, script: deliver });
    await page.getByTestId('sb-explore-k').selectOption('2');
    await searchFrom(page.getByTestId('sb-explore-run'), page);
    await expect(page.getByTestId('sb-explore-summary')).toContainText('No violation in');
    const absorb = page.getByTestId('sb-layers-absorb');
    await expect(absorb).toContainText('made the "app" layer retry');
    const k = /explore with K = (\d)/.exec(await absorb.innerText())[1];
    // Not "safe": the wrong-alone line says more faults may reach a violation.
    await expect(page.locator('[data-testid="sb-wrong-alone"] li[data-wrong="client.retry_layers"]')).toContainText('more faults or another composition may');
    await page.getByTestId('sb-explore-k').selectOption(k);
    await searchFrom(page.getByTestId('sb-explore-run'), page);
    await expect(page.getByTestId('sb-explore-summary')).toContainText('break an invariant');
    await expect(absorb).toHaveCount(0);
    await expect(page.locator('[data-testid="sb-cex"] > li').first()).toContainText('duplicate');
  });
});
