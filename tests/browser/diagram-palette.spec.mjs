// The sandbox's fault palette (web/src/views/fault-palette.js) and the targets it shows on
// the diagram (diagram.js): on every shipped lesson's sandbox, desktop and phone, every
// kind picked in turn draws targets a finger can hit (at least 24×24 CSS px as rendered)
// that cover no other target and no text of the drawing; and a fault is placed by pointer,
// by touch and by keyboard, the page then showing what the engine says of the new run.

import { test, expect, useEnglish, settleLessons, builtLessons, lessonFile } from './helpers.mjs';
import { waitSandbox, settledUrl, planItems } from './sandbox-helpers.mjs';

const LESSONS = builtLessons();
const idOf = (file) => JSON.parse(LESSONS.find((x) => x.file === file).text).id;
const IDS = LESSONS.map((x) => idOf(x.file));
const palette = (page) => page.locator('.diagram-card [data-testid="fault-palette"]');
const kinds = (page) => page.locator('.diagram-card [data-testid="palette-kind"]');
const targets = (page) => page.locator('.diagram-card [data-testid="diagram-target"]');

/** Open lesson `id`'s scenario in the sandbox, at the address its "Open in sandbox" writes. */
async function openSandboxOf(page, id) {
  const file = lessonFile(id);
  const { text } = LESSONS.find((x) => x.file === file);
  const code = await page.evaluate(
    async ({ file, text, id }) => {
      const out = await window.__idemlab.call('scenario', { file, text });
      return window.__idemlab.sandboxCode({ v: 1, s: out.scenario, from: id });
    },
    { file, text, id },
  );
  await page.evaluate((c) => (window.location.hash = `#/sandbox/${c}`), code);
  await waitSandbox(page);
}

async function startAt(page) {
  await useEnglish(page);
  await settleLessons(page, IDS);
  await page.goto('./#/sandbox');
  await waitSandbox(page);
}

/** Every drawn target's box, and what it overlaps: another target, or a text of the drawing. */
function measure(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('.diagram-card [data-testid="diagram"]');
    const boxes = [...document.querySelectorAll('.diagram-card [data-testid="diagram-target"]')].map((b) => ({ id: b.dataset.target, r: b.getBoundingClientRect() }));
    const texts = [...svg.querySelectorAll('text')].map((x) => ({ text: x.textContent, r: x.getBoundingClientRect(), px: parseFloat(getComputedStyle(x).fontSize) * (svg.getBoundingClientRect().width / svg.viewBox.baseVal.width) }));
    const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const clashes = [];
    boxes.forEach((a, i) => {
      boxes.slice(i + 1).forEach((b) => hit(a.r, b.r) && clashes.push(`${a.id} on ${b.id}`));
      texts.forEach((x) => hit(a.r, x.r) && clashes.push(`${a.id} on "${x.text}"`));
    });
    return { sizes: boxes.map((b) => ({ id: b.id, w: b.r.width, h: b.r.height })), clashes, smallestText: Math.min(...texts.map((x) => x.px)) };
  });
}

for (const [name, viewport] of [
  ['phone', { width: 375, height: 812 }],
  ['desktop', { width: 1280, height: 800 }],
]) {
  test(`every lesson's sandbox, ${name}: each kind's targets are at least 24×24 and cover no target and no label`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await startAt(page);
    for (const id of IDS) {
      await openSandboxOf(page, id);
      const offered = await kinds(page).evaluateAll((ls) => ls.map((x) => x.dataset.kind));
      expect(offered.length, `${id}: the palette offers the run's fault kinds`).toBeGreaterThan(0);
      // With no kind picked only the faults already placed are drawn.
      const placed = await targets(page).evaluateAll((bs) => bs.every((b) => b.getAttribute('aria-pressed') === 'true'));
      expect(placed, `${id}: no open target before a kind is picked`).toBe(true);
      for (const kind of offered) {
        await kinds(page).and(page.locator(`[data-kind="${kind}"]`)).click();
        // The kind's targets are drawn (open, or placed already), and no other kind's open ones.
        await expect(targets(page).and(page.locator(`[data-kind="${kind}"]`)).first(), `${id}: ${kind} shows its targets`).toBeVisible();
        const open = targets(page).and(page.locator('[aria-pressed="false"]'));
        // Targets are laid out in the frame after the pick: a placed fault of this kind may
        // show before the kind picked last has gone.
        await expect.poll(() => open.evaluateAll((bs, k) => bs.filter((b) => b.dataset.kind !== k).length, kind), `${id}: only ${kind}'s open targets`).toBe(0);
        const m = await measure(page);
        for (const s of m.sizes) {
          expect(s.w, `${id} ${kind} ${s.id} width`).toBeGreaterThanOrEqual(24);
          expect(s.h, `${id} ${kind} ${s.id} height`).toBeGreaterThanOrEqual(24);
        }
        expect(m.clashes, `${id} ${kind}`).toEqual([]);
        if (name === 'phone') expect(m.smallestText, `${id}: labels legible on a phone`).toBeGreaterThanOrEqual(11);
      }
    }
  });
}

/** What the engine says of the sandbox's scenario now, and of the target `id` in it. */
async function engineRun(page, id) {
  const code = new URL(await settledUrl(page)).hash.split('/')[2];
  return page.evaluate(
    async ({ c, id }) => {
      const { state } = await window.__idemlab.sandboxState(c);
      const run = await window.__idemlab.call('run', { scenario: state.s });
      return { intents: run.ending.intents, target: run.targets.find((tg) => tg.id === id) || null };
    },
    { c: code, id },
  );
}

/**
 * The fault at `id` is placed: drawn as placed, in the plan in the engine's words, and the
 * ending is the engine's (a fault placed earlier may have left the plan: the run no longer
 * passes its point).
 */
async function expectPlaced(page, id) {
  const placed = targets(page).and(page.locator(`[data-target="${id}"]`));
  await expect(placed).toHaveAttribute('aria-pressed', 'true');
  const said = await engineRun(page, id);
  expect(said.target && said.target.planned, 'the engine has the fault in its plan').toBe(true);
  await expect(page.getByTestId('sb-plan')).toContainText(said.target.text.en);
  await expect(placed).toHaveAccessibleName(new RegExp(said.target.text.en.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  for (const e of said.intents) {
    const li = page.locator(`[data-testid="sb-ending"] li[data-intent="${e.intent}"]`);
    await expect(li).toHaveAttribute('data-status', e.status);
    await expect(li).toHaveAttribute('data-effects', String(e.effects));
  }
}

test('pointer: pick a kind, click one of its targets: the fault is placed; a click on it takes it out again; a kind dragged onto a target places it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await startAt(page);
  await openSandboxOf(page, 'lost-receipt');
  await kinds(page).and(page.locator('[data-kind="crash_service"]')).click();
  const open = targets(page).and(page.locator('[aria-pressed="false"]')).first();
  const id = await open.getAttribute('data-target');
  await open.click();
  await expectPlaced(page, id);
  // A placed fault stays drawn with no kind picked, and a click there removes it.
  await kinds(page).and(page.locator('[data-kind="crash_service"]')).click(); // the picked chip again: put down
  await expect(targets(page).and(page.locator('[aria-pressed="false"]'))).toHaveCount(0);
  const text = await targets(page).and(page.locator(`[data-target="${id}"]`)).getAttribute('aria-label');
  await targets(page).and(page.locator(`[data-target="${id}"]`)).click();
  await expect(planItems(page).filter({ hasText: text.slice(text.indexOf(': ') + 2) })).toHaveCount(0);
  await expect(targets(page).and(page.locator(`[data-target="${id}"]`))).toHaveCount(0);
  // Or drag a kind from the palette onto one of its targets.
  const chip = kinds(page).and(page.locator('[data-kind="drop"]'));
  await chip.click();
  const drop = targets(page).and(page.locator('[aria-pressed="false"][data-kind="drop"]')).first();
  const dropId = await drop.getAttribute('data-target');
  await chip.dragTo(drop);
  await expectPlaced(page, dropId);
});

test('touch: on a phone, tap a kind then tap a target: the fault is placed', async ({ browser, baseURL }) => {
  const ctx = await browser.newContext({ baseURL, viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: 'en' });
  const page = await ctx.newPage();
  await startAt(page);
  await openSandboxOf(page, 'retry-duplicates');
  const chip = kinds(page).and(page.locator('[data-kind="drop"]'));
  await chip.scrollIntoViewIfNeeded();
  await chip.tap();
  const open = targets(page).and(page.locator('[aria-pressed="false"]')).first();
  const id = await open.getAttribute('data-target');
  await open.scrollIntoViewIfNeeded();
  await open.tap();
  await expectPlaced(page, id);
  await ctx.close();
});

test('keyboard: arrows move among the kinds, Tab reaches the targets in diagram order, Enter places one, Escape puts the kind down', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await startAt(page);
  await openSandboxOf(page, 'lost-receipt');
  const offered = await kinds(page).evaluateAll((ls) => ls.map((x) => x.dataset.kind));
  expect(offered.length).toBeGreaterThan(1);
  await expect(palette(page).getByRole('radiogroup')).toBeVisible();
  await palette(page).getByRole('radio').first().focus();
  await page.keyboard.press('ArrowRight');
  const picked = offered[1];
  await expect(palette(page).getByRole('radio', { checked: true })).toHaveAttribute('value', picked);
  await expect(targets(page).and(page.locator(`[aria-pressed="false"][data-kind="${picked}"]`)).first()).toBeVisible();
  // Tab on: past the axis switch and the scroller, to the first open target of that kind.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement.dataset.testid === 'diagram-target' && document.activeElement.getAttribute('aria-pressed') === 'false')) break;
  }
  const focused = page.locator('.diagram-card [data-testid="diagram-target"]:focus');
  await expect(focused).toHaveAttribute('aria-pressed', 'false');
  const id = await focused.getAttribute('data-target');
  await expect(focused).toHaveAttribute('data-kind', picked);
  await page.keyboard.press('Enter');
  await expectPlaced(page, id);
  // The placed target keeps the focus; Escape puts the kind down and its open targets go.
  await expect(targets(page).and(page.locator(`[data-target="${id}"]`))).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(palette(page).getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(targets(page).and(page.locator('[aria-pressed="false"]'))).toHaveCount(0);
});
