// Times the sandbox in Debian's chromium, on the lesson whose explore has the most
// schedules at K = 2 (09-retry-layers), opened in the sandbox at its last step, warm:
// - sandbox_edit_ms: a click on a diagram target that adds a fault no click added before
//   (a scenario the engine has not seen: nothing cached), until the next frame after the
//   run is recomputed (in the engine's Web Worker) and redrawn (the view's aria-busy is
//   gone); the median of EDITS such clicks (each fault is taken away again between them,
//   untimed);
// - sandbox_longest_task_ms: the longest main-thread task while the sandbox opened (from the
//   lesson's "open in the sandbox") and while those edits ran; 0 when there was none;
// - explore_ms_page: "explore, up to 2 faults" until its result is shown (median of 3,
//   after one run that starts the Web Worker);
// - explore_longest_task_ms: the longest main-thread task (Long Tasks API: tasks over
//   50 ms) while those explores ran; 0 when there was none;
// - in CPU time of the page's main thread (Chromium's trace, ./trace.mjs: on a shared
//   machine the wall times above count what the system gave to other processes):
//   sandbox_open_longest_task_cpu_ms (from the click on "open in the sandbox" until the
//   view is built), sandbox_edit_longest_task_cpu_ms (over the timed edits),
//   sandbox_edit_main_cpu_ms (the main thread's CPU per timed edit, median) and
//   explore_longest_task_cpu_ms (over the timed explores).
// usage: node sandbox.mjs PORT  ->  {"sandbox_edit_ms", "sandbox_longest_task_ms", "explore_ms_page", "explore_longest_task_ms", "lesson", ...}
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import config from '../../playwright.config.js';
import { serveDist } from './serve.mjs';
import { startTrace, longestOf } from './trace.mjs';

const port = Number(process.argv[2]);
const origin = `http://127.0.0.1:${port}`;
const LESSON = 'retry-layers';
const EDITS = 21;


const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist');
// "Open in sandbox" waits until every question of the lesson is settled (it would show
// their answers): the bench starts as a learner who has had every answer shown.
const settled = () => {
  const index = JSON.parse(readFileSync(resolve(DIST, 'lessons/index.json'), 'utf8'));
  const lesson = JSON.parse(readFileSync(resolve(DIST, index.lessons.find((e) => e.id === LESSON).file), 'utf8'));
  const answers = {};
  for (const q of lesson.questions) {
    answers[q.id] = { tries: [], correct: false, reveal: { expected: null, explanation: null, cells: null, options: null, after: 0, at: null } };
  }
  return { version: 1, lessons: { [LESSON]: { answers, reached: 0, completed: false, self_check: {} } } };
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const stopServer = await serveDist(port);
const browser = await chromium.launch({ ...config.use.launchOptions, headless: true });
let out;
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  await page.addInitScript((progress) => {
    if (!localStorage.getItem('idemlab.progress.v1')) localStorage.setItem('idemlab.progress.v1', JSON.stringify(progress));
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  }, settled());
  await page.goto(`${origin}/#/lesson/${LESSON}`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  const trace = await startTrace(page);
  const opened = await page.evaluate(() => { performance.mark('sb-open'); return performance.now(); });
  await page.click('[data-testid="open-in-sandbox"]');
  await page.waitForSelector('[data-testid="sandbox-view"]:not([aria-busy])', { state: 'attached' });
  await page.evaluate(() => performance.mark('sb-opened'));
  await page.focus('[data-testid="controls"]');
  await page.keyboard.press('End');
  // The diagram shows the targets of the fault kind picked on its palette: losing a message.
  await page.click('[data-testid="palette-kind"][data-kind="drop"]');
  await page.waitForSelector('[data-testid="diagram-target"].target-open', { state: 'attached' });
  const targets = await page.$$eval('[data-testid="diagram-target"].target-open', (gs) => gs.map((g) => g.getAttribute('data-target')));

  // One click on a diagram target, timed in the page until the frame after it.
  // The mark is made in a task of its own, so that the click's task begins after it (a
  // span of the trace holds the tasks that begin inside it).
  const timedClick = async ([tid, mark]) => {
    const g = document.querySelector(`[data-testid="diagram-target"][data-target="${tid}"]`);
    if (!g) return null; // not drawn in this run
    const t0 = performance.now();
    g.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const view = document.querySelector('[data-testid="sandbox-view"]');
    if (view.hasAttribute('aria-busy')) {
      await new Promise((r) => {
        const mo = new MutationObserver(() => { if (!view.hasAttribute('aria-busy')) { mo.disconnect(); r(); } });
        mo.observe(view, { attributes: true, attributeFilter: ['aria-busy'] });
      });
    }
    await new Promise((r) => requestAnimationFrame(() => r()));
    performance.mark(`${mark}-done`);
    return performance.now() - t0;
  };
  const click = async (id, n) => {
    await page.evaluate((mark) => { performance.mark(mark); }, `edit-${n}`);
    return page.evaluate(timedClick, [id, `edit-${n}`]);
  };
  const edits = [];
  const timed = []; // the marks of the timed edits
  for (const [i, id] of targets.entries()) {
    const ms = await click(id, i); // adds the fault
    if (ms === null) continue;
    if (i >= 2) { // the first two warm the code up
      edits.push(ms);
      timed.push(`edit-${i}`);
    }
    await page.click('[data-testid="sb-undo"]'); // and takes it away again, untimed
    await page.waitForSelector('[data-testid="sandbox-view"]:not([aria-busy])', { state: 'attached' });
    if (edits.length >= EDITS) break;
  }
  await page.waitForTimeout(100); // long tasks are reported after they end
  const edited = await page.evaluate(() => { performance.mark('sb-edited'); return performance.now(); });
  const sandboxTasks = await page.evaluate(() => window.__longTasks);
  const sandboxLongest = Math.round(Math.max(0, ...sandboxTasks.filter((t) => t.start + t.ms >= opened && t.start <= edited).map((t) => t.ms)));
  const explore = () => page.evaluate(async () => {
    const k = document.querySelector('[data-testid="sb-explore-k"]');
    k.value = '2';
    const t0 = performance.now();
    document.querySelector('[data-testid="sb-explore-run"]').click();
    await new Promise((resolve) => {
      const done = () => document.querySelector('[data-testid="sb-explore-summary"]');
      if (done()) return resolve();
      const mo = new MutationObserver(() => { if (done()) { mo.disconnect(); resolve(); } });
      mo.observe(document.body, { subtree: true, childList: true });
    });
    return { ms: performance.now() - t0, start: t0, end: performance.now() };
  });
  await explore(); // starts the worker and its engine
  const runs = [];
  await page.evaluate(() => performance.mark('sb-explore'));
  for (let i = 0; i < 3; i += 1) runs.push(await explore());
  await page.evaluate(() => performance.mark('sb-explored'));
  const t = await trace.stop();
  // IDEMLAB_BENCH_TRACE=FILE keeps the trace and the timed edits' mark names, to look into.
  if (process.env.IDEMLAB_BENCH_TRACE) writeFileSync(process.env.IDEMLAB_BENCH_TRACE, JSON.stringify({ events: t.events, timed }));
  const tasks = await page.evaluate(() => window.__longTasks);
  const during = tasks.filter((t) => runs.some((r) => t.start + t.ms >= r.start && t.start <= r.end));
  const schedules = await page.textContent('[data-testid="sb-explore-summary"]');
  out = {
    lesson: LESSON,
    sandbox_edit_ms: Math.round(median(edits) * 10) / 10,
    sandbox_edits: edits.length,
    sandbox_longest_task_ms: sandboxLongest,
    explore_ms_page: Math.round(median(runs.map((r) => r.ms))),
    explore_longest_task_ms: Math.round(Math.max(0, ...during.map((t) => t.ms))),
    explore_page_summary: schedules.trim(),
    sandbox_open_longest_task_cpu_ms: Math.round(longestOf(t.tasksBetween('sb-open', 'sb-opened'))),
    sandbox_edit_longest_task_cpu_ms: Math.round(longestOf(timed.flatMap((m) => t.tasksBetween(m, `${m}-done`)))),
    sandbox_edit_main_cpu_ms: Math.round(median(timed.map((m) => t.tasksBetween(m, `${m}-done`).reduce((a, b) => a + b, 0))) * 10) / 10,
    explore_longest_task_cpu_ms: Math.round(longestOf(t.tasksBetween('sb-explore', 'sb-explored'))),
  };
} finally {
  await browser.close();
  stopServer();
}
console.log(JSON.stringify(out));
