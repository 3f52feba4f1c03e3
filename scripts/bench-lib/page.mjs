// Times the page in Debian's chromium, each load a fresh browser context (no cache):
// - page_interactive_ms: navigation to a lesson's first step until the page marks <body
//   data-ready="true"> (the lesson ready to step), median of LOADS;
// - first_drawn_ms: navigation until the frame that paints the lesson's diagram (the first
//   requestAnimationFrame callback after the diagram's <svg> is in the page: the frame it
//   is drawn in), median; fcp_ms: the browser's first contentful paint, median (that is the
//   "Loading…" text of index.html, so it says when the page starts, not when it is useful);
// - open_longest_task_ms: the longest main-thread task (Long Tasks API: the browser reports
//   tasks over 50 ms) from navigation until the lesson is ready, the largest over the loads;
//   0 when there was none;
// - use_longest_task_ms: the same, over stepping through the lesson (Next, End, Home) and
//   checking an answer (the lesson's first question, an answer sent and its verdict shown,
//   on the first load: the engine's first call after the page opened);
// - open_longest_task_cpu_ms, use_longest_task_cpu_ms, open_main_cpu_ms: the same two
//   longest tasks, and the main thread's whole CPU time until the lesson is ready (median),
//   in CPU time of the page's main thread (Chromium's trace: each task's thread time), over
//   TRACED further loads: on a shared machine a task's wall time counts the time the
//   system gave to others, its thread time does not;
// - list_interactive_ms: navigation to the lesson list until it shows a card (or an error
//   card) for every entry of the lesson index, median;
// - the request chain (issue 33): over the traced loads, whether every one asked for the
//   lesson's file, its run and the lesson index before app.js began to run
//   (lesson_data_before_app_js), and how long before it the last of them was sent
//   (lesson_data_lead_ms, median; negative: after it);
// - language_chunks: how many language strings files (chunks/en-*, chunks/zh-CN-*) the
//   visit (the list, then the lesson opened from it, until the network is idle) fetched.
// Also names every file of dist/ a visit fetches: the list, then opening the lesson from it
// (scripts/bench sums their gzip sizes), and the critical path: the files the first load had
// asked for when the lesson was ready to step (report.py sums their gzip sizes).
// usage: node page.mjs PORT LOADS  ->  {"page_interactive_ms": median, "first_ms": x,
//          "first_drawn_ms", "fcp_ms", "open_longest_task_ms", "use_longest_task_ms",
//          "open_longest_task_cpu_ms", "use_longest_task_cpu_ms", "open_main_cpu_ms",
//          "list_interactive_ms": median, "lesson_data_before_app_js", "lesson_data_lead_ms",
//          "language_chunks", "visit_files": ["index.html", ...],
//          "critical_files": ["index.html", ...], "console_errors": n}
import { chromium } from '@playwright/test';
import config from '../../playwright.config.js';
import { serveDist } from './serve.mjs';
import { startTrace, longestOf } from './trace.mjs';

const port = Number(process.argv[2]);
const loads = Number(process.argv[3] || 5);
const origin = `http://127.0.0.1:${port}`;
const LESSON = 'lost-receipt';
const url = `${origin}/#/lesson/${LESSON}/step/0`;


// Notes, in page time (ms since navigation start), when <body> gets data-ready="true", the
// frame that draws the diagram first, and every long task.
function markReady() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const mark = () => {
    if (!window.__idemlabReadyAt && document.body && document.body.dataset.ready === 'true') {
      window.__idemlabReadyAt = performance.now();
    }
    if (!window.__idemlabDiagramSeen && document.querySelector('svg[data-testid="diagram"]')) {
      window.__idemlabDiagramSeen = true;
      requestAnimationFrame(() => { window.__idemlabDrawnAt = performance.now(); });
    }
  };
  new MutationObserver(mark).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'],
  });
}

// The longest long task (ms) that overlaps [from, to] in page time; 0 when none did.
const longest = (tasks, from, to) => Math.round(Math.max(0, ...tasks.filter((t) => t.start + t.ms >= from && t.start <= to).map((t) => t.ms)));

// Notes, in page time, when the list shows one card per entry of the lesson index and no
// card is still loading.
function markListed(entries) {
  const mark = () => {
    if (window.__idemlabListedAt || !document.body) return;
    const cards = document.querySelectorAll('[data-testid="lesson-card"], [data-testid="lesson-error"]').length;
    if (cards === entries && !document.querySelector('.lesson-card.is-loading')) window.__idemlabListedAt = performance.now();
  };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true });
}

const TRACED = 5; // medians of 5
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const stopServer = await serveDist(port);
const index = (await (await fetch(`${origin}/lessons/index.json`)).json()).lessons;
const entries = index.length;
const lessonFile = index.find((e) => e.id === LESSON).file; // lessons/01-lost-receipt.json
const browser = await chromium.launch({ ...config.use.launchOptions, headless: true });
const times = [];
const drawn = [];
const fcps = [];
let openLongest = 0;
let useLongest = 0;
const traced = [];
const listTimes = [];
const visited = new Set();
let critical = [];
let consoleErrors = 0;

async function fresh() {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors += 1; });
  page.on('pageerror', () => { consoleErrors += 1; });
  return { context, page };
}

/** Waits until `fn` (run in the page) is truthy. */
async function until(page, fn) {
  const t0 = Date.now();
  while (!(await page.evaluate(fn))) {
    if (Date.now() - t0 > 30_000) throw new Error('the page did not get ready in 30 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Steps through the open lesson and checks an answer, as a learner does; the longest task meanwhile.
async function useLesson(page) {
  const from = await page.evaluate(() => performance.now());
  for (const key of ['ArrowRight', 'ArrowRight', 'End', 'Home']) {
    await page.focus('[data-testid="controls"]');
    await page.keyboard.press(key);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  }
  // The first question: its step (a deep link past it stops there), one answer, the verdict.
  await page.keyboard.press('End');
  const card = page.locator('[data-testid="question"][data-settled="false"]').first();
  await card.waitFor({ timeout: 30_000 });
  const button = card.locator('button[data-answer]').first();
  if (await button.count()) {
    await button.click();
    await card.locator('[data-testid="verdict"]').first().waitFor({ timeout: 30_000 });
  }
  await page.waitForTimeout(100);
  const to = await page.evaluate(() => performance.now());
  return longest(await page.evaluate(() => window.__longTasks), from, to);
}

// One fresh load traced (Chromium's trace, the page's main thread): its tasks' thread
// times until the lesson is ready, then while it is stepped and an answer checked.
async function tracedLoad() {
  const { context, page } = await fresh();
  const trace = await startTrace(page);
  await page.addInitScript(markReady);
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (!window.__idemlabMarked && document.body && document.body.dataset.ready === 'true') {
        window.__idemlabMarked = true;
        performance.mark('idemlab-ready');
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
  });
  await page.goto(url, { waitUntil: 'commit' });
  await until(page, () => window.__idemlabMarked && window.__idemlabDrawnAt);
  await useLesson(page);
  await page.evaluate(() => performance.mark('idemlab-used'));
  const t = await trace.stop();
  const chain = requestChain(t.events);
  await context.close();
  const open = t.tasksBetween(null, 'idemlab-ready');
  const use = t.tasksBetween('idemlab-ready', 'idemlab-used');
  return { open: longestOf(open), use: longestOf(use), openCpu: open.reduce((a, b) => a + b, 0), ...chain };
}

// The lesson's data requests beside app.js, from the trace: the last of the lesson's file,
// its run and the index to be sent (ResourceSendRequest) against the start of app.js's
// evaluation (the page's first module evaluated: app.js is the entry, and imports nothing
// before it runs). `lead`: how many ms before app.js ran the last of them was asked for
// (negative: after it, a request chain).
function requestChain(events) {
  const thread = events.find((e) => e.name === 'thread_name' && e.args && e.args.name === 'CrRendererMain');
  const app = events.find((e) => thread && e.pid === thread.pid && e.tid === thread.tid && e.name === 'v8.evaluateModule');
  const urls = ['lessons/index.json', lessonFile, lessonFile.replace(/\.json$/, '.run.json')].map((f) => `${origin}/${f}`);
  const sent = urls.map((u) => events.find((e) => e.name === 'ResourceSendRequest' && e.args.data && e.args.data.url === u));
  if (!app || sent.some((e) => !e)) return { lead: null };
  return { lead: (app.ts - Math.max(...sent.map((e) => e.ts))) / 1000 };
}

try {
  for (let i = 0; i < loads; i += 1) {
    const { context, page } = await fresh();
    await page.addInitScript(markReady);
    await page.goto(url, { waitUntil: 'commit' });
    // Polled with plain evaluations: Playwright's selector engine, injected on its first use,
    // is a long task of its own in the page.
    await until(page, () => window.__idemlabReadyAt && window.__idemlabDrawnAt);
    const at = await page.evaluate(() => ({
      ready: window.__idemlabReadyAt,
      drawn: window.__idemlabDrawnAt,
      fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null,
    }));
    times.push(at.ready);
    drawn.push(at.drawn);
    if (at.fcp !== null) fcps.push(at.fcp);
    // Long tasks are reported after they end: a moment for the last ones to arrive.
    await page.waitForTimeout(100);
    openLongest = Math.max(openLongest, longest(await page.evaluate(() => window.__longTasks), 0, at.ready));
    if (i === 0) {
      // The page itself, then every file whose fetch started before the lesson was ready.
      const urls = await page.evaluate(() => [
        window.location.href,
        ...performance.getEntriesByType('resource').filter((e) => e.startTime <= window.__idemlabReadyAt).map((e) => e.name),
      ]);
      const paths = urls.map((u) => new URL(u)).filter((u) => u.origin === origin);
      critical = [...new Set(paths.map((u) => (u.pathname === '/' ? 'index.html' : decodeURIComponent(u.pathname.slice(1)))))].sort();
      useLongest = await useLesson(page);
    }
    await context.close();
  }
  for (let i = 0; i < TRACED; i += 1) traced.push(await tracedLoad());
  for (let i = 0; i < loads; i += 1) {
    const { context, page } = await fresh();
    if (i === 0) {
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (u.origin === origin) visited.add(u.pathname === '/' ? 'index.html' : decodeURIComponent(u.pathname.slice(1)));
      });
    }
    await page.addInitScript(markListed, entries);
    await page.goto(`${origin}/#/`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__idemlabListedAt, null, { timeout: 30_000 });
    listTimes.push(await page.evaluate(() => window.__idemlabListedAt));
    if (i === 0) {
      await page.waitForLoadState('networkidle');
      await page.click(`[data-lesson="${LESSON}"] [data-testid="lesson-open"]`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000, state: 'attached' });
      await page.waitForLoadState('networkidle');
    }
    await context.close();
  }
} finally {
  await browser.close();
  stopServer();
}
console.log(JSON.stringify({
  page_interactive_ms: median(times), first_ms: times[0],
  first_drawn_ms: Math.round(median(drawn)), fcp_ms: fcps.length ? Math.round(median(fcps)) : null,
  open_longest_task_ms: openLongest, use_longest_task_ms: useLongest,
  open_longest_task_cpu_ms: Math.round(Math.max(...traced.map((x) => x.open))),
  use_longest_task_cpu_ms: Math.round(Math.max(...traced.map((x) => x.use))),
  open_main_cpu_ms: Math.round(median(traced.map((x) => x.openCpu))),
  list_interactive_ms: median(listTimes),
  lesson_data_before_app_js: traced.every((x) => x.lead !== null && x.lead > 0),
  lesson_data_lead_ms: traced.every((x) => x.lead !== null) ? Math.round(median(traced.map((x) => x.lead)) * 10) / 10 : null,
  language_chunks: [...visited].filter((f) => /^chunks\/(en|zh-CN)-[a-z0-9]+\.js$/.test(f)).length,
  visit_files: [...visited].sort(), critical_files: critical, console_errors: consoleErrors,
}));
