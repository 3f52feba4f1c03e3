// Challenges: a lesson ends with "break it" or "fix it"; the learner works in the sandbox
// and the engine checks the attempt. Solutions come from the engine (`answers`), never
// from this file.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, useEnglish, openLesson, completeLesson, openEmbedded, sandboxReady, settleLessons } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

/** The lesson's challenge as the engine states it, and the solution `check` found. */
async function challengeOf(page, id) {
  return page.evaluate(async (lessonId) => {
    const rec = window.__idemlab.lesson(lessonId);
    const run = await window.__idemlab.call('run', { file: rec.file, text: rec.text });
    const answers = await window.__idemlab.call('answers', { file: rec.file, text: rec.text });
    return { view: run.lesson.challenge, solution: answers.challenge };
  }, id);
}

/** The sandbox address of a lesson's challenge, as the lesson's end card links it. */
async function openChallenge(page, id) {
  await openLesson(page, id);
  const c = await challengeOf(page, id);
  const code = await page.evaluate(([s, lessonId]) => window.__idemlab.sandboxCode({ v: 1, s, ch: lessonId }), [c.view.scenario, id]);
  await page.goto(`./#/sandbox/${code}`);
  await sandboxReady(page);
  await expect(page.getByTestId('sb-challenge')).toBeVisible();
  await page.getByTestId('controls').focus();
  await page.keyboard.press('End');
  return c;
}

/** The target id of a fault of the engine's solution, from the engine's own targets. */
async function targetOf(page, scenario, fault) {
  return page.evaluate(async ([s, f]) => {
    const run = await window.__idemlab.call('run', { scenario: s });
    const same = (a, b) => ['drop', 'crash_client', 'crash_service', 'intent', 'attempt'].every((k) => a[k] === b[k]);
    const t = run.targets.find((x) => same(x.fault, f));
    return t ? t.id : null;
  }, [scenario, fault]);
}

async function check(page) {
  await page.getByTestId('sb-check').click();
  const result = page.getByTestId('sb-check-result');
  await expect(result).toBeVisible({ timeout: 60_000 });
  return result;
}

test('the end of a lesson offers its challenge, which opens in the sandbox', async ({ page }) => {
  await openLesson(page, 'lost-receipt');
  await expect(page.getByTestId('challenge-card')).toHaveCount(0);
  await completeLesson(page);
  const card = page.getByTestId('challenge-card');
  await expect(card).toBeVisible();
  const c = await challengeOf(page, 'lost-receipt');
  await expect(card).toContainText(c.view.prompt.en);
  await card.getByTestId('start-challenge').click();
  await expect(page.getByTestId('sb-challenge-prompt')).toHaveText(c.view.prompt.en);
  await expect(page.getByTestId('sb-challenge')).toHaveAttribute('data-kind', c.view.kind);
});

test('break it (lost-receipt): a fault that does not produce the goal is refused; the engine\'s solution is solved and recorded', async ({ page }) => {
  test.setTimeout(90_000); // it asks the engine for a run per injection point, ~20 s alone on a shared machine
  const c = await openChallenge(page, 'lost-receipt');
  expect(c.view.kind).toBe('break');
  // The policy is given: its controls cannot be changed.
  await expect(page.locator('[data-knob="client.key_scope"]')).toBeDisabled();
  // No fault: nothing breaks.
  let result = await check(page);
  await expect(result).toHaveAttribute('data-solved', 'false');
  // A fault the engine's solution does not use, whose run does not break the goal.
  const solutionId = await targetOf(page, c.view.scenario, c.solution.faults[0]);
  expect(solutionId).toBeTruthy();
  const others = await page.evaluate(async ([s, goal, sol]) => {
    const run = await window.__idemlab.call('run', { scenario: s });
    const ids = [];
    for (const t of run.targets.filter((x) => x.id !== sol)) {
      const r = await window.__idemlab.call('run', { scenario: { ...s, faults: [t.fault] } });
      if (!r.verdict.violations.some((v) => v.invariant === goal)) ids.push(t.id);
    }
    return ids;
  }, [c.view.scenario, c.view.goal, solutionId]);
  expect(others.length).toBeGreaterThan(0);
  await page.locator(`[data-testid="sb-target"][data-target="${others[0]}"]`).click();
  result = await check(page);
  await expect(result).toHaveAttribute('data-solved', 'false');
  // The solution.
  await page.locator(`[data-testid="sb-target"][data-target="${others[0]}"]`).click();
  await page.locator(`[data-testid="sb-target"][data-target="${solutionId}"]`).click();
  result = await check(page);
  await expect(result).toHaveAttribute('data-solved', 'true');
  await expect(result).toContainText('Challenge solved');
  // It counts: the lesson's end card says it is solved, and so does its completion card, in
  // the words of the lesson's card in the list (and with no link to start it again).
  await openLesson(page, 'lost-receipt');
  await completeLesson(page);
  await expect(page.getByTestId('challenge-solved')).toBeVisible();
  const state = page.getByTestId('lesson-end').getByTestId('end-challenge');
  await expect(state).toHaveAttribute('data-state', 'solved');
  await expect(state.getByTestId('challenge-state')).toHaveText('Challenge: break it · ✓ solved');
  await expect(state.getByTestId('end-challenge-start')).toHaveCount(0);
  await page.getByTestId('back').click();
  await expect(page.locator('[data-testid="lesson-card"][data-lesson="lost-receipt"] [data-testid="lesson-challenge"] [data-testid="challenge-state"]')).toHaveText('Challenge: break it · ✓ solved');
});

test('fix it (retry-duplicates): the right key alone still tells the user "failed" and is refused with a counterexample; the engine\'s changes are solved, one more is not allowed', async ({ page }) => {
  const c = await openChallenge(page, 'retry-duplicates');
  expect(c.view.kind).toBe('fix');
  let result = await check(page);
  await expect(result).toHaveAttribute('data-solved', 'false');
  // The knobs the challenge does not list are fixed.
  const fixed = await page.locator('.sb-knob[data-fixed="true"]').count();
  expect(fixed).toBeGreaterThan(0);
  const select = (knob, value) => page.locator(`[data-knob="${knob}"]`).selectOption(String(value));
  // The engine's solution writes UNKNOWN on a timeout; every other change of it alone keeps
  // FAILED on the timeout, and the explorer finds the run where the user was told "failed"
  // while the report was sent.
  const changes = c.solution.changes;
  const onTimeout = changes.find((ch) => ch.knob === 'client.on_timeout');
  expect(onTimeout && onTimeout.from).toBe('mark_failed_and_resend');
  for (const ch of changes) if (ch !== onTimeout) await select(ch.knob, ch.to);
  result = await check(page);
  await expect(result).toHaveAttribute('data-solved', 'false');
  const falseFailure = await page.evaluate(async () => (await window.__idemlab.call('vocabulary', {})).invariants.find((i) => i.name === 'false_failure').title.en);
  await expect(result).toContainText(falseFailure);
  await expect(result).not.toContainText("breaks the challenge's rules");
  await select(onTimeout.knob, onTimeout.to);
  // A change beyond the limit: not allowed, whatever it does.
  const extra = c.view.knobs.find((k) => !changes.some((ch) => ch.knob === k));
  const other = await page.evaluate(async (k) => {
    const v = await window.__idemlab.call('vocabulary', {});
    const [g, n] = k.split('.');
    return v.knobs.find((x) => x.group === g && x.name === n);
  }, extra);
  const current = await page.locator(`[data-knob="${extra}"]`).inputValue();
  await select(extra, other.values.map((x) => x.name).find((x) => x !== current));
  result = await check(page);
  await expect(result).toHaveAttribute('data-solved', 'false');
  await expect(result).toContainText("breaks the challenge's rules");
  await page.getByTestId('sb-undo').click();
  result = await check(page);
  await expect(result).toHaveAttribute('data-solved', 'true');
  await expect(result).toContainText(/No violation in [\d,]+ schedules/i);
});

test('a checked challenge is reported to an embedding course page', async ({ page }) => {
  const { frame, ctx } = await openEmbedded(page, '#/lesson/retry-duplicates');
  const c = await challengeOf(ctx, 'retry-duplicates');
  const code = await ctx.evaluate(([s]) => window.__idemlab.sandboxCode({ v: 1, s, ch: 'retry-duplicates' }), [c.view.scenario]);
  await ctx.evaluate((h) => { window.location.hash = h; }, `#/sandbox/${code}`);
  await frame.getByTestId('sb-check').click();
  await expect(frame.getByTestId('sb-check-result')).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => page.evaluate(() => window.msgs.filter((m) => m && m.type === 'challenge-checked').length)).toBe(1);
  const msg = await page.evaluate(() => window.msgs.find((m) => m.type === 'challenge-checked'));
  expect(msg).toMatchObject({ source: 'idemlab', version: 1, type: 'challenge-checked', lesson: 'retry-duplicates', kind: 'fix', solved: false, allowed: true });
});

test('the lesson list says which lessons end with a challenge and whether it is solved', async ({ page }) => {
  await page.goto('./#/');
  await page.locator('[data-testid="lesson-list"][data-ready="true"]').waitFor();
  const withChallenge = page.locator('[data-testid="lesson-card"]:has([data-testid="lesson-challenge"])');
  // As many as the engine says end with one (the index holds its kind).
  const kinds = await page.evaluate(async () => (await (await fetch('lessons/index.json')).json()).lessons.filter((e) => e.challenge).length);
  expect(kinds).toBeGreaterThanOrEqual(6);
  await expect(withChallenge).toHaveCount(kinds);
  await expect(page.locator('[data-lesson="retry-duplicates"] [data-testid="lesson-challenge"]')).toHaveAttribute('data-solved', 'false');
});

test('a fix-it challenge does not give its answer away: no right/wrong labels, the script stays as given', async ({ page }) => {
  await openChallenge(page, 'retry-duplicates');
  await expect(page.locator('[data-testid="knob-setting"]:visible')).toHaveCount(0);
  await expect(page.getByTestId('sb-add-action')).toBeDisabled();
  await expect(page.getByTestId('sb-allowed-knobs')).toBeVisible();
  // In free play the labels are there.
  await page.goto('./#/sandbox');
  await sandboxReady(page);
  expect(await page.locator('[data-testid="knob-setting"]:visible').count()).toBeGreaterThan(5);
});

/** The lessons the built index says end with a challenge, in the course's order. */
function indexChallenges() {
  const index = JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8'));
  return index.lessons.filter((e) => e.ok !== false && e.challenge);
}

// A fresh load of the page (so that progress stored before it is read again).
async function openChallengesPage(page) {
  await page.goto('./#/challenges');
  await page.reload();
  await page.locator('[data-testid="challenge-levels"][data-ready="true"]').waitFor();
}

test('the challenges page lists every challenge by level; one opens once its lesson is settled, and solving it moves "next" on', async ({ page }) => {
  test.setTimeout(120_000);
  const expected = indexChallenges();
  expect(expected.length).toBeGreaterThan(1);
  // The list links the page, with how many are solved.
  await page.goto('./');
  await expect(page.getByTestId('challenges-link')).toHaveText(`Challenges · 0 of ${expected.length} solved`);
  await page.getByTestId('challenges-link').click();
  await page.locator('[data-testid="challenge-levels"][data-ready="true"]').waitFor();
  // Every challenge, in the course's order, under its lesson's level; none open yet.
  const items = page.getByTestId('challenge-item');
  expect(await items.evaluateAll((els) => els.map((e) => e.dataset.lesson))).toEqual(expected.map((e) => e.id));
  for (const e of expected) {
    const item = page.locator(`[data-testid="challenge-item"][data-lesson="${e.id}"]`);
    await expect(item).toHaveAttribute('data-state', 'none');
    await expect(item).toHaveAttribute('data-open', 'false');
    await expect(item.getByTestId('challenge-lesson')).toHaveAttribute('href', `#/lesson/${e.id}`);
    await expect(page.locator(`[data-testid="challenge-level"][data-level="${e.level}"] [data-lesson="${e.id}"]`)).toHaveCount(1);
  }
  await expect(page.getByTestId('challenge-next')).toHaveCount(0);

  // The first two lessons' questions settled: their challenges open, the first is next.
  const [first, second] = expected;
  await settleLessons(page, [first.id, second.id]);
  await openChallengesPage(page);
  const firstItem = page.locator(`[data-testid="challenge-item"][data-lesson="${first.id}"]`);
  await expect(firstItem).toHaveAttribute('data-open', 'true');
  await expect(firstItem).toHaveAttribute('data-next', 'true');
  await expect(page.getByTestId('challenge-next')).toHaveCount(1);

  // Start it, and solve it with the engine's own solution.
  await firstItem.getByTestId('challenge-start').click();
  await sandboxReady(page);
  await expect(page.getByTestId('sb-challenge')).toHaveAttribute('data-kind', first.challenge);
  const c = await challengeOf(page, first.id);
  if (c.view.kind === 'break') {
    await page.getByTestId('controls').focus();
    await page.keyboard.press('End');
    const id = await targetOf(page, c.view.scenario, c.solution.faults[0]);
    await page.locator(`[data-testid="sb-target"][data-target="${id}"]`).click();
  } else {
    for (const ch of c.solution.changes) await page.locator(`[data-knob="${ch.knob}"]`).selectOption(String(ch.to));
  }
  await expect(await check(page)).toHaveAttribute('data-solved', 'true');

  // Back on the page: solved at the first try, and "next" has moved on to the second.
  await openChallengesPage(page);
  await expect(firstItem).toHaveAttribute('data-state', 'solved');
  await expect(firstItem.getByTestId('challenge-standing')).toHaveText('✓ solved at try 1');
  await expect(page.locator(`[data-testid="challenge-item"][data-lesson="${second.id}"]`)).toHaveAttribute('data-next', 'true');
  const level = page.locator(`[data-testid="challenge-level"][data-level="${first.level}"]`);
  const ofLevel = expected.filter((e) => e.level === first.level).length;
  await expect(level.getByTestId('challenge-level-solved')).toHaveText(`1 of ${ofLevel} solved`);
});

test('a lesson\'s end names its challenge and links every challenge of the course', async ({ page }) => {
  await openLesson(page, 'lost-receipt');
  await completeLesson(page);
  const line = page.getByTestId('lesson-end').getByTestId('end-challenge');
  await expect(line.getByTestId('challenge-state')).toHaveText('Challenge: break it · not tried yet');
  await line.getByTestId('end-challenges-all').click();
  await page.locator('[data-testid="challenge-levels"][data-ready="true"]').waitFor();
  // The lesson just finished: its challenge is open, and it is the next one.
  await expect(page.locator('[data-testid="challenge-item"][data-lesson="lost-receipt"]')).toHaveAttribute('data-next', 'true');
});

test('a challenge\'s link opened before its lesson\'s questions are settled says so; settled, it does not', async ({ page }) => {
  await openChallenge(page, 'lost-receipt');
  await expect(page.getByTestId('sb-spoiler')).toContainText('the sandbox shows how the run ends');
  await settleLessons(page, ['lost-receipt']);
  await page.reload();
  await sandboxReady(page);
  await expect(page.getByTestId('sb-challenge')).toBeVisible();
  await expect(page.getByTestId('sb-spoiler')).toHaveCount(0);
});
