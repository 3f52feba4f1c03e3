// The space-time diagram as the learner reads it: what each message's drawing says about
// where it ended. What a run holds is asked of the engine (window.__idemlab), never
// written here.

import { test, expect, useEnglish, openLesson, settleLessons, LESSON } from './helpers.mjs';
import { sandboxFromLesson, settledUrl } from './sandbox-helpers.mjs';

async function engineRun(page) {
  const code = new URL(await settledUrl(page)).hash.split('/')[2];
  return page.evaluate(async (c) => {
    const { state } = await window.__idemlab.sandboxState(c);
    return window.__idemlab.call('run', { scenario: state.s });
  }, code);
}

for (const lang of ['en', 'zh-CN']) {
  test(`a reply that reaches a crashed client is drawn arriving at a dead process, not lost on the way (${lang})`, async ({ page }) => {
    if (lang === 'en') await useEnglish(page);
    else await page.addInitScript(() => localStorage.setItem('idemlab.lang', 'zh-CN'));
    // stale-pending: the client crashes after it sends; the service's reply finds it down.
    await sandboxFromLesson(page, 'stale-pending');
    const run = await engineRun(page);
    const dead = run.messages.filter((m) => m.fate === 'dropped' && m.drop_reason === 'receiver_down');
    expect(dead.length).toBeGreaterThan(0);
    const words = lang === 'en' ? { down: 'process down', lost: 'lost' } : { down: '进程已崩溃', lost: '丢失' };
    for (const m of dead) {
      const drawn = page.locator(`[data-testid="diagram"] .msg[data-message="${m.id}"]`).first();
      await expect(drawn).toHaveClass(/msg-to-dead/);
      await expect(drawn).toContainText(words.down);
      await expect(drawn).not.toContainText(words.lost);
      // It is drawn all the way to the receiver's lane: it ends nearer to it than to the sender's.
      const [x1, x2] = await drawn.locator('line.msg-line').evaluate((l) => [Number(l.getAttribute('x1')), Number(l.getAttribute('x2'))]);
      const lane = await drawn.locator('.dead-end circle').evaluate((c) => Number(c.getAttribute('cx')));
      expect(Math.abs(x2 - lane)).toBeLessThan(Math.abs(x1 - x2) / 4);
    }
  });
}

test('a response lost in the network is still drawn lost midway, with the receiver alive', async ({ page }) => {
  await useEnglish(page);
  await sandboxFromLesson(page, 'lost-receipt');
  const run = await engineRun(page);
  const lost = run.messages.filter((m) => m.fate === 'dropped' && m.drop_reason === 'fault');
  expect(lost.length).toBeGreaterThan(0);
  for (const m of lost) {
    const drawn = page.locator(`[data-testid="diagram"] .msg[data-message="${m.id}"]`).first();
    await expect(drawn).not.toHaveClass(/msg-to-dead/);
    await expect(drawn).toContainText('lost');
  }
});

for (const size of [{ width: 1280, height: 800 }, { width: 375, height: 812 }]) {
  test(`Play and Next are told apart by their shape and their names, at ${size.width} px`, async ({ page }) => {
    await page.setViewportSize(size);
    await useEnglish(page);
    await openLesson(page, LESSON);
    const play = page.getByTestId('play');
    const next = page.getByTestId('next');
    await expect(play).toHaveAccessibleName('Play');
    await expect(next).toHaveAccessibleName('Next step');
    // The icons' shapes, filled on one grid: they overlap in under half of what they cover
    // together (two triangles of slightly different widths would overlap in most of it).
    const overlap = await page.evaluate(() => {
      const mask = (sel) => {
        const c = document.createElement('canvas');
        c.width = c.height = 96;
        const g = c.getContext('2d');
        g.scale(4, 4);
        for (const p of document.querySelectorAll(`${sel} svg path`)) g.fill(new Path2D(p.getAttribute('d')));
        return g.getImageData(0, 0, 96, 96).data;
      };
      const [a, b] = [mask('[data-testid="play"]'), mask('[data-testid="next"]')];
      let both = 0;
      let either = 0;
      for (let i = 3; i < a.length; i += 4) {
        if (a[i] > 127 && b[i] > 127) both++;
        if (a[i] > 127 || b[i] > 127) either++;
      }
      return both / either;
    });
    expect(overlap).toBeLessThan(0.5);
  });
}

// The sticky step bar on a phone (375 x 812): under 15% of the screen's height, with Play,
// Next, Next question and the speed in view, at a step a question holds (its status still
// said to a screen reader), in the lesson, the sandbox and the side-by-side view.
const PHONE = { width: 375, height: 812 };
for (const lang of ['en', 'zh-CN']) {
  test(`on a phone the step bar stays under 15% of the screen, every control in view (${lang})`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.addInitScript((l) => localStorage.setItem('idemlab.lang', l), lang);
    await openLesson(page, LESSON);
    // Step on until a question holds the timeline, and try to go past it.
    const next = page.getByTestId('next');
    while (await next.isEnabled()) await next.click();
    await page.getByTestId('controls').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('gate-msg')).toHaveClass(/is-shown/);
    await expect(page.getByTestId('gate-msg')).not.toBeEmpty();
    const bar = page.getByTestId('controls');
    expect((await bar.boundingBox()).height).toBeLessThan(0.15 * PHONE.height);
    for (const id of ['prev', 'play', 'next', 'next-question', 'play-speed', 'scrubber']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box, id).not.toBeNull();
      expect(box.x + box.width, id).toBeLessThanOrEqual(PHONE.width);
    }
    await expect(page.getByTestId('play-speed')).toHaveAccessibleName(lang === 'en' ? 'Speed' : /.+/);
  });
}

test('on a phone the sandbox\'s and the side-by-side view\'s step bars stay under 15% of the screen', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await useEnglish(page);
  await page.goto('./#/sandbox');
  await page.locator('body[data-ready="true"]').waitFor();
  await expect(page.getByTestId('controls')).toBeVisible();
  expect((await page.getByTestId('controls').boundingBox()).height).toBeLessThan(0.15 * PHONE.height);
  await page.goto(`./#/lesson/${LESSON}/compare`);
  await expect(page.getByTestId('controls')).toBeVisible();
  expect((await page.getByTestId('controls').boundingBox()).height).toBeLessThan(0.15 * PHONE.height);
});

for (const lang of ['en', 'zh-CN']) {
  test(`on a phone the knowledge grid fits its card, the truth column too (${lang})`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.addInitScript((l) => localStorage.setItem('idemlab.lang', l), lang);
    await settleLessons(page, [LESSON]);
    await openLesson(page, LESSON);
    await page.getByTestId('controls').focus();
    await page.keyboard.press('End');
    await page.getByTestId('truth-toggle').check();
    const grid = page.getByTestId('knowledge-grid');
    await expect(grid.locator('thead th')).toHaveCount(4);
    const [table, box] = await grid.evaluate((t) => [t.scrollWidth, t.parentElement.clientWidth]);
    expect(table).toBeLessThanOrEqual(box);
  });
}
