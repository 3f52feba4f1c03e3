// The space-time diagram as the learner reads it: what each message's drawing says about
// where it ended. What a run holds is asked of the engine (window.__idemlab), never
// written here.

import { test, expect, useEnglish } from './helpers.mjs';
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
