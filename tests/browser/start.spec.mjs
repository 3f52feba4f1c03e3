// The sandbox's start block (issue 33, "Start small"): opened from a lesson, the sandbox
// shows the knobs that decide it, presets and first experiments. Which preset is in force
// and which goal a run reaches are the engine's answers (`start`); the goals read here are
// the lesson file's own words.

import { readFileSync } from 'node:fs';
import { test, expect, useEnglish } from './helpers.mjs';
import { sandboxFromLesson, answered, violation } from './sandbox-helpers.mjs';

const lesson = JSON.parse(readFileSync(new URL('../../lessons/01-lost-receipt.json', import.meta.url), 'utf8'));

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

test('start small: change the deciding knobs until an experiment is done, take the right design (a clean run), undo it', async ({ page }) => {
  await sandboxFromLesson(page, 'lost-receipt');
  const start = page.getByTestId('sb-start');
  await expect(start).toBeVisible();
  const experiments = start.getByTestId('sb-start-experiment');
  await expect(experiments).toHaveCount(lesson.sandbox.experiments.length);
  const first = experiments.filter({ hasText: lesson.sandbox.experiments[0].goal.en });
  await expect(first).toHaveAttribute('data-reached', 'false');
  // The lesson's design is the one in force.
  await expect(start.getByTestId('sb-preset-lesson')).toHaveAttribute('aria-pressed', 'true');

  // The block's own controls are the knob panel's: a new key per attempt, a timeout taken
  // for a failure, recovery by resending.
  // Named in one closed line first: it opens to their controls, and stays open across edits.
  const focus = start.getByTestId('sb-start-focus');
  for (const path of lesson.sandbox.focus) await expect(focus.locator('summary')).toContainText(path.split('.')[1]);
  const knobs = start.getByTestId('sb-start-knobs');
  await expect(knobs).toBeHidden();
  await focus.locator('summary').click();
  await expect(knobs.locator('[data-start-knob]')).toHaveCount(lesson.sandbox.focus.length);
  await knobs.locator('[data-start-knob="client.key_scope"]').selectOption('attempt');
  await answered(page);
  await knobs.locator('[data-start-knob="client.on_timeout"]').selectOption('mark_failed_and_resend');
  await answered(page);
  await knobs.locator('[data-start-knob="client.recovery"]').selectOption('resend');
  await answered(page);
  await expect(violation(page, 'duplicate_effect')).toHaveCount(1);
  await expect(first).toHaveAttribute('data-reached', 'true');
  await expect(start.getByTestId('sb-preset-lesson')).toHaveAttribute('aria-pressed', 'false');

  // The right design, by keyboard: one edit, and the run breaks nothing.
  const right = start.getByTestId('sb-preset-right');
  await right.focus();
  await page.keyboard.press('Enter');
  await answered(page);
  await expect(page.locator('[data-testid="sb-verdict"].inv-ok')).toBeVisible();
  await expect(right).toHaveAttribute('aria-pressed', 'true');
  await expect(first).toHaveAttribute('data-reached', 'false');
  await expect(knobs.locator('[data-start-knob="client.key_scope"]')).toHaveValue('intent');

  // One Undo takes the whole preset back.
  await page.getByTestId('sb-undo').click();
  await answered(page);
  await expect(violation(page, 'duplicate_effect')).toHaveCount(1);
  await expect(first).toHaveAttribute('data-reached', 'true');
  await expect(knobs.locator('[data-start-knob="client.key_scope"]')).toHaveValue('attempt');
  await expect(knobs.locator('[data-start-knob="client.recovery"]')).toHaveValue('resend');
});

test('each control of the start block has its own id: its label names it, not the knob panel\'s copy', async ({ page }) => {
  await sandboxFromLesson(page, 'lost-receipt');
  const start = page.getByTestId('sb-start');
  await start.getByTestId('sb-start-focus').locator('summary').click();
  await expect(start.getByTestId('sb-start-knobs')).toBeVisible();
  const ids = await page.locator('[id*="knob-"]').evaluateAll((els) => els.map((e) => e.id));
  expect(ids.length).toBeGreaterThan(0);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  await expect(start.getByLabel('key_scope')).toHaveCount(1);
});

test('a sandbox opened with no lesson shows no start block', async ({ page }) => {
  await page.goto('#/sandbox');
  await page.locator('body[data-ready="true"]').waitFor();
  await answered(page);
  await expect(page.getByTestId('sb-start')).toBeHidden();
});
