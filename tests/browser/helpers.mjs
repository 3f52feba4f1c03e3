// Shared helpers for the browser tests. Expected answers are never written
// here: they are asked of the engine through the page (window.__idemlab).

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { REPO } from '../wasm/engine-node.mjs';

export { expect };

/**
 * Every test is guarded: no request may leave the page's own origin (or an origin the
 * test serves itself, guard.allowOrigin), no console error may appear unless the test
 * expects one (guard.allowErrors()), and nothing may break the Content Security Policy
 * in any frame of any page of the test, expected errors or not.
 */
export const test = base.extend({
  guard: [
    async ({ context, page, baseURL }, use) => {
      const origins = [new URL(baseURL).origin];
      const errors = [];
      const external = [];
      const violations = [];
      let allowErrors = false;
      // Every frame reports what its policy refused, as the browser tells the page.
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          console.error(`[csp-violation] ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile || e.documentURI}:${e.lineNumber}`);
        });
      });
      context.on('console', (m) => {
        if (m.type() !== 'error' && m.type() !== 'warning') return;
        const text = m.text();
        if (/\[csp-violation\]|Content Security Policy/.test(text)) violations.push(text);
      });
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('request', (r) => {
        const u = r.url();
        if (!origins.some((o) => u.startsWith(o + '/')) && !/^(data|blob|about|file):/.test(u)) external.push(u);
      });
      await use({ allowErrors: () => (allowErrors = true), allowOrigin: (o) => origins.push(o) });
      expect(violations, 'Content Security Policy violations').toEqual([]);
      expect(external, 'requests that left 127.0.0.1').toEqual([]);
      if (!allowErrors) expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export const LESSON = 'lost-receipt';

/** Start every page load in English (the default is zh-CN; one test checks that). */
export async function useEnglish(page) {
  await page.addInitScript(() => {
    try {
      window.localStorage.setItem('idemlab.lang', 'en');
    } catch (_) {
      /* ignore */
    }
  });
}

export async function openLesson(ctx, id = LESSON, step = null) {
  await ctx.goto(step === null ? `./#/lesson/${id}` : `./#/lesson/${id}/step/${step}`);
  await waitReady(ctx, id);
}

export async function waitReady(ctx, id = null) {
  await ctx.locator('body[data-ready="true"]').waitFor();
  await ctx.locator(id ? `[data-testid="lesson-view"][data-lesson="${id}"]` : '[data-testid="lesson-view"]').waitFor();
}

/**
 * Waits until the sandbox view is built and has the engine's answer to every edit made
 * so far: it opens in stages (summary and diagram first, knobs last) and says aria-busy
 * until the last stage is in and no edit is still out.
 */
export async function sandboxReady(ctx) {
  await ctx.locator('[data-testid="sandbox-view"]:not([aria-busy])').waitFor();
}

/**
 * From a lesson at step 0: step once, open it in the sandbox and explore at K = 1 (in the
 * engine's worker); the summary says what was searched.
 */
export async function stepThenExplore(page) {
  await expect(page.getByTestId('open-in-sandbox'), 'the lesson is settled (settleLessons) before it opens in the sandbox').toBeEnabled();
  await page.getByTestId('next').click();
  await expect(page.getByTestId('lesson-view')).toHaveAttribute('data-step', '1');
  await page.getByTestId('open-in-sandbox').click();
  await sandboxReady(page);
  await page.getByTestId('sb-explore-k').selectOption('1');
  await page.getByTestId('sb-explore-run').click();
  await expect(page.getByTestId('sb-explore-summary')).toContainText('schedules of up to 1 fault', { timeout: 60_000 });
}

export async function currentStep(ctx) {
  return Number(await ctx.locator('[data-testid="lesson-view"]').getAttribute('data-step'));
}

export async function lastStep(ctx) {
  return Number(await ctx.locator('[data-testid="lesson-view"]').getAttribute('data-last'));
}

/** A well-formed answer of the right shape for a question (right or wrong, we don't know). */
function probeAnswer(q) {
  if (q.kind === 'knowledge') return 'knows_true';
  if (q.kind === 'table') {
    const out = {};
    for (const m of q.moments) for (const s of q.sides) for (const f of q.facts) out[`${m.id}/${s}/${f.id}`] = 'knows_true';
    return out;
  }
  return q.options[0].id;
}

/** Ask the engine (through the page) for the expected answer of a question ("show the answer"). */
export async function engineExpected(ctx, lessonId, qid) {
  const q = await ctx.evaluate(
    ([id, qq]) => window.__idemlab.lesson(id).questions.find((x) => x.id === qq),
    [lessonId, qid],
  );
  // Asked as "show the answer": the engine reveals it whatever the probe (a wrong first
  // try would get a hint instead).
  const answer = probeAnswer(q);
  const out = await ctx.evaluate(
    async ([id, qq, a]) => {
      const l = window.__idemlab.lesson(id);
      return await window.__idemlab.call('answer', { file: l.file, text: l.text, question: qq, answer: a, reveal: true });
    },
    [lessonId, qid, answer],
  );
  expect(out.error, `engine answer for ${qid}`).toBeUndefined();
  return { q, expected: out.expected };
}

/** Some option that the engine says is not the expected one. */
function wrongOption(q, expected) {
  const ids = q.kind === 'knowledge' ? ['knows_true', 'knows_false', 'cannot_know'] : q.options.map((o) => o.id);
  return ids.find((id) => id !== expected);
}

async function shownLesson(ctx) {
  return ctx.locator('[data-testid="lesson-view"]').getAttribute('data-lesson');
}

export async function answerRightly(ctx, card, lessonId = null) {
  lessonId = lessonId || (await shownLesson(ctx));
  const qid = await card.getAttribute('data-question');
  const { q, expected } = await engineExpected(ctx, lessonId, qid);
  if (q.kind === 'table') {
    for (const [cell, value] of Object.entries(expected)) {
      await card.locator(`select[data-cell="${cell}"]`).selectOption(value);
    }
    await card.getByTestId('table-check').click();
  } else {
    await card.locator(`button[data-answer="${expected}"]`).click();
  }
  await expect(card).toHaveAttribute('data-solved', 'true');
  return { q, expected };
}

export async function answerWrongly(ctx, card, lessonId = null) {
  lessonId = lessonId || (await shownLesson(ctx));
  const qid = await card.getAttribute('data-question');
  const { q, expected } = await engineExpected(ctx, lessonId, qid);
  if (q.kind === 'table') {
    let first = true;
    for (const [cell, value] of Object.entries(expected)) {
      const wrong = first ? ['knows_true', 'knows_false', 'cannot_know'].find((v) => v !== value) : value;
      first = false;
      await card.locator(`select[data-cell="${cell}"]`).selectOption(wrong);
    }
    await card.getByTestId('table-check').click();
  } else {
    await card.locator(`button[data-answer="${wrongOption(q, expected)}"]`).click();
  }
  await expect(card).toHaveAttribute('data-answered', 'true');
  return { q, expected };
}

/** A question card by id (stays the same card once answered). */
export function questionCard(ctx, qid) {
  return ctx.locator(`[data-testid="question"][data-question="${qid}"]`);
}

/** Question cards at the current step not yet settled (answered right, or their answer shown). */
export function openQuestions(ctx) {
  return ctx.locator('[data-testid="question"][data-settled="false"]');
}

/** Press "next" until `done()` is true, answering (rightly) every question met on the way. */
export async function walk(ctx, done, { onQuestion } = {}) {
  const last = await lastStep(ctx);
  for (let guard = 0; guard <= last + 2; guard++) {
    while ((await openQuestions(ctx).count()) > 0) {
      const qid = await openQuestions(ctx).first().getAttribute('data-question');
      const card = ctx.locator(`[data-testid="question"][data-question="${qid}"]`);
      if (onQuestion) await onQuestion(card);
      else await answerRightly(ctx, card);
    }
    if (await done()) return true;
    const before = await currentStep(ctx);
    if (before >= last) return false;
    await ctx.getByTestId('next').click();
    await expect.poll(() => currentStep(ctx)).toBe(before + 1);
  }
  return false;
}

/** Step to the end answering every question rightly; then the lesson is complete. */
export async function completeLesson(ctx) {
  await walk(ctx, async () => (await currentStep(ctx)) >= (await lastStep(ctx)));
  while ((await openQuestions(ctx).count()) > 0) {
    const qid = await openQuestions(ctx).first().getAttribute('data-question');
    await answerRightly(ctx, questionCard(ctx, qid));
  }
}

/**
 * Open the page inside a course page (an iframe) that keeps every message it hears in
 * window.msgs. Returns the frame locator, its Frame and a page-like handle for walk().
 */
export async function openEmbedded(page, hash, width = 420) {
  await page.route('**/course-host.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><meta charset="utf-8"><title>course</title>
        <script>window.msgs = []; addEventListener('message', (e) => window.msgs.push(e.data));</script>
        <iframe src="index.html${hash}" style="width:${width}px;height:900px" title="idemlab"></iframe>`,
    }),
  );
  await page.addInitScript(() => localStorage.setItem('idemlab.lang', 'en'));
  await page.goto('./course-host.html');
  const frame = page.frameLocator('iframe');
  await frame.locator('body[data-ready="true"]').waitFor();
  const ctx = page.frames().find((x) => x !== page.mainFrame());
  const f = { locator: (sel) => frame.locator(sel), getByTestId: (id) => frame.getByTestId(id), evaluate: (fn, arg) => ctx.evaluate(fn, arg) };
  return { frame, ctx, f };
}

/**
 * The lesson index the build writes for these files ([{file, text}], file names in
 * lessons/), computed as the build computes it: by the native CLI, `idemlab index`.
 */
export function engineIndex(files) {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-index-'));
  mkdirSync(join(dir, 'lessons'));
  for (const { file, text } of files) writeFileSync(join(dir, file), text);
  const r = spawnSync(resolve(REPO, 'build/native/idemlab'), ['index', ...files.map((f) => f.file)], { cwd: dir, encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`idemlab index: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The built site's lesson files, in index order: [{file, text}]. */
export function builtLessons() {
  const index = JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8'));
  return index.lessons.map((e) => ({ file: e.file, text: readFileSync(resolve(REPO, 'dist', e.file), 'utf8') }));
}

/**
 * Serve the site as if lessons/ held these files too: `files` maps a name in lessons/ to
 * its text (a built lesson's name replaces it; a new name comes last). The index is the
 * one the build would write for them, computed by the engine. Returns that index.
 */
export async function serveLessons(page, files) {
  const lessons = builtLessons();
  for (const [name, text] of Object.entries(files)) {
    const known = lessons.find((x) => x.file === `lessons/${name}`);
    if (known) known.text = text;
    else lessons.push({ file: `lessons/${name}`, text });
  }
  const index = engineIndex(lessons);
  await page.route('**/lessons/index.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(index) }));
  for (const [name, text] of Object.entries(files)) {
    await page.route(`**/lessons/${name}`, (route) => route.fulfill({ contentType: 'application/json', body: text }));
  }
  return index;
}

/** The file of the built lesson with this id, from the built index: "lessons/01-lost-receipt.json". */
export function lessonFile(id = LESSON) {
  const index = JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8'));
  const entry = index.lessons.find((e) => e.id === id);
  if (!entry) throw new Error(`no built lesson with id ${id}`);
  return entry.file;
}

/**
 * Before the page loads, every question of the lessons `ids` (built lessons' ids, or parsed
 * lesson files a test serves) stored as settled (its answer
 * shown), unless the browser already keeps an answer to it: the views that show
 * how a lesson's runs end (side by side, the sandbox opened from the lesson) open only then.
 */
export async function settleLessons(ctx, ids) {
  const lessons = {};
  for (const x of ids) {
    // A built lesson's id, or a lesson the test serves itself (its parsed file).
    const lesson = typeof x === 'string' ? builtLesson(x) : x;
    const id = lesson.id;
    const answers = {};
    for (const q of lesson.questions) {
      answers[q.id] = { tries: [], correct: false, reveal: { expected: null, explanation: null, cells: null, options: null, after: 0, at: null } };
    }
    lessons[id] = { answers, reached: 0, completed: false, self_check: {} };
  }
  await ctx.addInitScript(([key, ls]) => {
    try {
      const data = JSON.parse(localStorage.getItem(key) || '{"version":1,"lessons":{}}');
      for (const [id, l] of Object.entries(ls)) {
        const kept = data.lessons[id] || (data.lessons[id] = { answers: {}, reached: 0, completed: false, self_check: {} });
        kept.answers = kept.answers || {};
        for (const [qid, a] of Object.entries(l.answers)) if (!kept.answers[qid]) kept.answers[qid] = a;
      }
      localStorage.setItem(key, JSON.stringify(data));
    } catch (_) {
      /* a test that breaks the storage on purpose */
    }
  }, ['idemlab.progress.v1', lessons]);
}

/** A built lesson's file, found by its id, parsed. */
export function builtLesson(id = LESSON) {
  return JSON.parse(readFileSync(resolve(REPO, 'dist', lessonFile(id)), 'utf8'));
}

/** Serve an extra lesson file `name`, last in the index: a copy of lesson `from` changed by `edit`. */
export async function addLessonCopy(page, name, edit = (lesson) => lesson, from = LESSON) {
  return serveLessons(page, { [name]: JSON.stringify(edit(builtLesson(from))) });
}

/**
 * The step where a built lesson's question card stands, as the engine resolves it (the
 * native CLI's `run`): tests find steps from the run, never write them.
 */
export function questionStep(id, qid) {
  const r = spawnSync(resolve(REPO, 'build/native/idemlab'), ['run', lessonFile(id), '--json'], {
    cwd: resolve(REPO, 'dist'),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`idemlab run: ${r.stderr}`);
  const q = JSON.parse(r.stdout).lesson.questions.find((x) => x.id === qid);
  if (!q) throw new Error(`no question ${qid} in ${id}`);
  return q.step;
}
