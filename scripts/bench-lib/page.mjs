// Times the page in Debian's chromium: navigation to a lesson's first step until the
// page marks <body data-ready="true">, and navigation to the lesson list until it shows a
// card (or an error card) for every entry of the lesson index. Each load is a fresh browser
// context (no cache). Also names every file of dist/ a visit fetches: the list, then
// opening the lesson from it (scripts/bench sums their gzip sizes), and the critical path:
// the files the first load had asked for when the lesson was ready to step (report.py sums
// their gzip sizes).
// usage: node page.mjs PORT LOADS  ->  {"page_interactive_ms": median, "first_ms": x,
//          "list_interactive_ms": median, "visit_files": ["index.html", ...],
//          "critical_files": ["index.html", ...], "console_errors": n}
import { chromium } from '@playwright/test';
import config from '../../playwright.config.js';
import { serveDist } from './serve.mjs';

const port = Number(process.argv[2]);
const loads = Number(process.argv[3] || 5);
const origin = `http://127.0.0.1:${port}`;
const LESSON = 'lost-receipt';
const url = `${origin}/#/lesson/${LESSON}/step/0`;


// Notes, in page time (ms since navigation start), when <body> gets data-ready="true".
function markReady() {
  const mark = () => {
    if (!window.__idemlabReadyAt && document.body && document.body.dataset.ready === 'true') {
      window.__idemlabReadyAt = performance.now();
    }
  };
  new MutationObserver(mark).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'],
  });
}

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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const stopServer = await serveDist(port);
const entries = (await (await fetch(`${origin}/lessons/index.json`)).json()).lessons.length;
const browser = await chromium.launch({ ...config.use.launchOptions, headless: true });
const times = [];
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

try {
  for (let i = 0; i < loads; i += 1) {
    const { context, page } = await fresh();
    await page.addInitScript(markReady);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000, state: 'attached' });
    times.push(await page.evaluate(() => window.__idemlabReadyAt));
    if (i === 0) {
      // The page itself, then every file whose fetch started before the lesson was ready.
      const urls = await page.evaluate(() => [
        window.location.href,
        ...performance.getEntriesByType('resource').filter((e) => e.startTime <= window.__idemlabReadyAt).map((e) => e.name),
      ]);
      const paths = urls.map((u) => new URL(u)).filter((u) => u.origin === origin);
      critical = [...new Set(paths.map((u) => (u.pathname === '/' ? 'index.html' : decodeURIComponent(u.pathname.slice(1)))))].sort();
    }
    await context.close();
  }
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
  page_interactive_ms: median(times), first_ms: times[0], list_interactive_ms: median(listTimes),
  visit_files: [...visited].sort(), critical_files: critical, console_errors: consoleErrors,
}));
