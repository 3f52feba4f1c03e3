// Play animates the run in virtual time on the diagram: a message travels along its arrow
// between its send and its arrival (or loss), a crash flashes on its lane, Pause freezes
// what travels, Next and the scrubber land at once, reduced motion lands steps without
// travel, and the speed the learner picks sets how far a message gets in the same time.
// Time is the page's fake clock (page.clock): nothing here waits on the wall clock.

import { test, expect, LESSON, useEnglish, openLesson, currentStep } from './helpers.mjs';
import { sandboxFromLesson } from './sandbox-helpers.mjs';

const MARKER = '[data-testid="anim-marker"]';

/** The page's clock, faked and stopped: from now on only runFor moves it. */
async function stopClock(page) {
  await page.clock.install();
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
}

/** The first travelling response's marker: its message and where it is (SVG units), or null. */
async function responseMarker(page) {
  return page.evaluate(() => {
    const c = document.querySelector('.anim-response [data-testid="anim-marker"]');
    return c ? { id: c.getAttribute('data-message'), x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')) } : null;
  });
}

/** Advance the fake clock by `ms` at a time until `cond()` holds (at most `max` times). */
async function runUntil(page, cond, { ms = 16, max = 600 } = {}) {
  for (let i = 0; i < max; i++) {
    const got = await cond();
    if (got) return got;
    await page.clock.runFor(ms);
  }
  throw new Error('the page never got there');
}

/** Where the message's arrow is drawn, once it has arrived or been lost. */
async function arrowOf(page, id) {
  return page.evaluate((mid) => {
    const g = document.querySelector(`[data-testid="diagram"] .messages > .msg[data-message="${mid}"]`);
    const line = g && g.querySelector('line.msg-line');
    if (!line) return null;
    const n = (a) => Number(line.getAttribute(a));
    return { x1: n('x1'), y1: n('y1'), x2: n('x2'), y2: n('y2'), lost: !!g.querySelector('.drop-x') };
  }, id);
}

/** A time label's virtual ms ("t=15ms"). */
const msOf = async (locator) => Number((await locator.textContent()).match(/t=(\d+)ms/)[1]);
const shownTime = (page) => msOf(page.locator('[data-testid="diagram"] .time-current'));

const strictlyBetween = (v, a, b) => v > Math.min(a, b) && v < Math.max(a, b);
const along = (p, a) => Math.hypot(p.x - a.x1, p.y - a.y1);

async function playFromStart(page, id = LESSON) {
  await useEnglish(page);
  await openLesson(page, id, 0);
  await stopClock(page);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
}

test('Play: the lost response travels along its arrow in virtual time, and Pause freezes it', async ({ page }) => {
  await playFromStart(page);
  const first = await runUntil(page, () => responseMarker(page));
  const stepWhileTravelling = await currentStep(page);
  await page.clock.runFor(64);
  const later = await responseMarker(page);
  expect(later && later.id).toBe(first.id);
  // The virtual clock runs on the diagram too, between the time shown and the next step's.
  const [tBefore, tNow] = [await shownTime(page), await msOf(page.getByTestId('anim-now'))];

  // Pause: it stays where it is, and the step stays.
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  const paused = await responseMarker(page);
  expect(paused, 'still on its way').not.toBeNull();
  await page.clock.runFor(2000);
  expect(await responseMarker(page)).toEqual(paused);
  expect(await currentStep(page)).toBe(stepWhileTravelling);

  // Play again: it goes on from there and lands; the step drawn then is its arrow.
  await page.getByTestId('play').click();
  await runUntil(page, async () => (await currentStep(page)) > stepWhileTravelling);
  await expect(page.locator(MARKER)).toHaveCount(0);
  const arrow = await arrowOf(page, first.id);
  expect(arrow, 'the response is drawn once it has landed').not.toBeNull();
  expect(arrow.lost, 'the first response of this lesson is lost').toBe(true);
  expect(strictlyBetween(tNow, tBefore, await shownTime(page)), `t=${tNow}ms between the steps' times`).toBe(true);
  for (const p of [first, later, paused]) {
    expect(strictlyBetween(p.x, arrow.x1, arrow.x2) && strictlyBetween(p.y, arrow.y1, arrow.y2), `(${p.x}, ${p.y}) on the way from (${arrow.x1}, ${arrow.y1}) to (${arrow.x2}, ${arrow.y2})`).toBe(true);
  }
  expect(along(later, arrow)).toBeGreaterThan(along(first, arrow));
  expect(along(paused, arrow)).toBeGreaterThanOrEqual(along(later, arrow));
});

test('Next and the scrubber land at once, taking away what was travelling', async ({ page }) => {
  await playFromStart(page);
  await runUntil(page, async () => (await page.locator(MARKER).count()) > 0);
  const before = await currentStep(page);
  await page.getByTestId('next').click();
  // No clock advanced: the step is there already, nothing travels and Play has stopped.
  expect(await currentStep(page)).toBe(before + 1);
  await expect(page.locator(MARKER)).toHaveCount(0);
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');

  await page.getByTestId('play').click();
  await runUntil(page, async () => (await page.locator(MARKER).count()) > 0);
  await page.getByTestId('scrubber').fill('0');
  expect(await currentStep(page)).toBe(0);
  await expect(page.locator(MARKER)).toHaveCount(0);
  await expect(page.locator('[data-testid="diagram"] .msg')).toHaveCount(0);
});

test('a crash flashes on its lane as its step lands', async ({ page }) => {
  await playFromStart(page, 'stale-pending');
  const crash = page.locator('[data-testid="diagram"] .ev-crash .crash-x');
  await runUntil(page, async () => (await crash.count()) > 0);
  const flash = page.getByTestId('diagram-flash');
  await expect(flash).toHaveCount(1);
  const [f, c] = [await flash.boundingBox(), await crash.first().boundingBox()];
  const cx = c.x + c.width / 2;
  const cy = c.y + c.height / 2;
  expect(cx > f.x && cx < f.x + f.width && cy > f.y && cy < f.y + f.height, 'the flash is over the crash mark').toBe(true);
  await page.clock.runFor(3000);
  await expect(flash).toHaveCount(0);
});

test('with reduced motion, Play lands each step without anything travelling', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await useEnglish(page);
  await openLesson(page, LESSON, 0);
  await page.evaluate(() => {
    window.__sawMarker = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="anim-marker"], [data-testid="anim-now"]')) window.__sawMarker = true;
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await stopClock(page);
  await page.getByTestId('play').click();
  // Play goes on until the first question stops it.
  await runUntil(page, async () => (await page.getByTestId('play').getAttribute('aria-pressed')) === 'false', { ms: 50 });
  expect(await currentStep(page)).toBeGreaterThan(3);
  await expect(page.locator('[data-testid="diagram"] .msg .drop-x')).toHaveCount(1);
  expect(await page.evaluate(() => window.__sawMarker)).toBe(false);
});

test('the speed the learner picks sets how far a message travels in the same time', async ({ page }) => {
  await playFromStart(page);
  const distance = async (speed) => {
    await page.getByTestId('scrubber').fill('0');
    await page.getByTestId('play-speed').selectOption(speed);
    await page.getByTestId('play').click();
    const a = await runUntil(page, () => page.evaluate(() => {
      const c = document.querySelector('[data-testid="anim-marker"]');
      return c ? { id: c.getAttribute('data-message'), x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')) } : null;
    }), { ms: 16, max: 1000 });
    await page.clock.runFor(96);
    const b = await page.evaluate((id) => {
      const c = document.querySelector(`[data-testid="anim-marker"][data-message="${id}"]`);
      return c ? { x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')) } : null;
    }, a.id);
    expect(b, 'still travelling').not.toBeNull();
    return Math.hypot(b.x - a.x, b.y - a.y);
  };
  const slow = await distance('0.5');
  const fast = await distance('2');
  expect(slow).toBeGreaterThan(0);
  expect(fast).toBeGreaterThan(2 * slow);
});

test('in the sandbox, Play animates the run as well, and Next lands at once', async ({ page }) => {
  await useEnglish(page);
  await sandboxFromLesson(page);
  await page.getByTestId('first').click();
  const shown = () => page.getByTestId('diagram').getAttribute('data-step').then(Number);
  await stopClock(page);
  await page.getByTestId('play').click();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  const first = await runUntil(page, () => responseMarker(page));
  const from = await shown();
  await page.clock.runFor(64);
  const later = await responseMarker(page);
  await page.getByTestId('next').click();
  expect(await shown()).toBe(from + 1);
  await expect(page.locator(MARKER)).toHaveCount(0);
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  const arrow = await arrowOf(page, first.id);
  for (const p of [first, later]) expect(strictlyBetween(p.x, arrow.x1, arrow.x2) && strictlyBetween(p.y, arrow.y1, arrow.y2)).toBe(true);
  expect(along(later, arrow)).toBeGreaterThan(along(first, arrow));
});
