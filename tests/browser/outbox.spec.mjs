// The notification email across the next boundary: the outbox table in the service's
// panel, the mail provider's inbox and its lane in the diagram. Steps are found in the
// engine's run, never written here.
import { test, expect, useEnglish, openLesson, currentStep, walk, LESSON } from './helpers.mjs';

const OUTBOX = 'outbox';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

async function stepOf(page, id, kind, side) {
  return page.evaluate(async ([lid, k, s]) => {
    const l = window.__idemlab.lesson(lid);
    const run = await window.__idemlab.call('run', { file: l.file, text: l.text });
    return run.steps.find((st) => st.event.kind === k && st.event.side === s).i;
  }, [id, kind, side]);
}

test('the outbox row stays pending across the relay crash, is marked sent at the end, and the inbox holds the email', async ({ page }) => {
  await openLesson(page, OUTBOX, 0);
  const restart = await stepOf(page, OUTBOX, 'restart', 'service');
  const marked = await stepOf(page, OUTBOX, 'mark_sent', 'service');

  // Before any email: a provider lane, an empty inbox.
  await expect(page.locator('.diagram-head .lane-provider')).toHaveCount(1);
  await expect(page.getByTestId('panel-provider')).toContainText('(empty)');

  await walk(page, async () => (await currentStep(page)) >= restart);
  const outbox = page.getByTestId('panel-service').locator('table.rows-table').filter({ has: page.locator('caption', { hasText: 'outbox' }) });
  await expect(outbox.locator('tbody tr')).toHaveCount(1);
  await expect(outbox.locator('tbody tr')).toContainText('pending');
  await expect(page.getByTestId('panel-provider').locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('[data-testid="diagram"] .msg-email')).toHaveCount(1);
  // The provider's ack reaches the relay while its service is down: drawn arriving at the
  // dead process, not lost in the network.
  await expect(page.locator('[data-testid="diagram"] .msg-email_ack.msg-to-dead')).toHaveCount(1);
  await expect(page.locator('[data-testid="diagram"] .msg-email_ack .drop-x')).toHaveCount(0);

  await walk(page, async () => (await currentStep(page)) >= marked);
  await expect(outbox.locator('tbody tr')).toContainText('sent');
  await expect(outbox.locator('tbody tr')).toHaveAttribute('data-changed', 'true');
  await expect(page.getByTestId('panel-provider').locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('[data-testid="diagram"] .msg-email')).toHaveCount(2);
  await expect(page.getByTestId('truth-emails')).toContainText('1');
  await expect(page.getByTestId('inv-duplicate-email')).toContainText('no duplicate email');
});

test('a lesson whose service sends no email shows no provider, no outbox and three lanes', async ({ page }) => {
  await openLesson(page, LESSON, 0);
  await expect(page.getByTestId('panel-service')).toBeVisible();
  await expect(page.getByTestId('panel-provider')).toHaveCount(0);
  await expect(page.getByTestId('panel-service').locator('caption', { hasText: 'outbox' })).toHaveCount(0);
  await expect(page.locator('.diagram-head .lane-head')).toHaveCount(3);
});
