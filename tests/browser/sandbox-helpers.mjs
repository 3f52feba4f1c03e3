// What the sandbox's browser specs share: opening it, waiting for the engine's answers,
// reading what a run shows, holding the engine's answers back.

import { sandboxReady, settleLessons, openLesson } from './helpers.mjs';

export const LOST = 'drop:response:weekly-report:1';

export async function waitSandbox(page) {
  await page.locator('body[data-ready="true"]').waitFor();
  await sandboxReady(page);
}

/** The sandbox of lesson `id`'s scenario, at its last step (every target drawn). */
export async function sandboxFromLesson(page, id = 'lost-receipt') {
  await settleLessons(page, [id]);
  await openLesson(page, id);
  await page.getByTestId('open-in-sandbox').click();
  await waitSandbox(page);
  await page.getByTestId('controls').focus();
  await page.keyboard.press('End');
}

/** The address once the sandbox has written its latest state into it. */
export async function settledUrl(page) {
  await sandboxReady(page); // every edit asked for is answered (the address is written after)
  await page.evaluate(() => window.__idemlab.hashSettled());
  return page.url();
}

export const ending = (page, intent = 'weekly-report') => page.locator(`[data-testid="sb-ending"] li[data-intent="${intent}"]`);
export const violation = (page, name) => page.locator(`[data-testid="sb-verdict"] li[data-invariant="${name}"]`);
export const planItems = (page) => page.locator('[data-testid="sb-plan-list"] li');

/** Once the engine has answered every edit made so far (the view is busy until then). */
export async function answered(page) {
  await sandboxReady(page);
}

/** What the page shows of a run, once its edits are answered: its ending, verdict, plan and text timeline. */
export async function shownRun(page) {
  await answered(page);
  return {
    ending: await page.getByTestId('sb-ending').innerText(),
    verdict: await page.getByTestId('sb-verdict').innerText(),
    plan: await page.getByTestId('sb-plan').innerText(),
    timeline: await page.locator('.timeline-card').innerText(),
  };
}

/**
 * Holds the engine's answers to `run` (each edit's) until the test lets each go, so the view
 * is not drawn again in between: returns release(), which lets the oldest held answer go.
 */
export async function holdRuns(page) {
  await page.evaluate(() => {
    const engine = window.__idemlab.engine();
    const call = engine.call.bind(engine);
    window.__answers = [];
    engine.call = async (method, input, opts) => {
      const out = await call(method, input, opts);
      if (method !== 'run') return out;
      return new Promise((resolve) => window.__answers.push(() => resolve(out)));
    };
  });
  return () => page.waitForFunction(() => window.__answers.length > 0).then(() => page.evaluate(() => window.__answers.shift()()));
}

/** On a narrow screen the knobs, injection points and script are in a drawer: opens it (a wide screen shows them). */
export async function openKnobs(page) {
  const button = page.getByTestId('sb-drawer-open');
  if (await button.isVisible()) {
    await button.click();
    await page.getByTestId('sb-drawer').waitFor();
  }
}

/** Closes the drawer openKnobs opened (nothing on a wide screen). */
export async function closeKnobs(page) {
  if (await page.getByTestId('sb-drawer-close').isVisible()) await page.getByTestId('sb-drawer-close').click();
}
