// Times the page in Debian's chromium: navigation to a lesson's first step until the
// page marks <body data-ready="true">. Each load is a fresh browser context (no cache).
// usage: node page.mjs PORT LOADS  ->  {"page_interactive_ms": median, "first_ms": x, "console_errors": n}
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';
import config from '../../playwright.config.js';
import { REPO } from '../../tests/wasm/engine-node.mjs';

const port = Number(process.argv[2]);
const loads = Number(process.argv[3] || 5);
const origin = `http://127.0.0.1:${port}`;
const url = `${origin}/#/lesson/lost-receipt/step/0`;

const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', 'dist'],
  { cwd: REPO, stdio: 'ignore' });
const stopServer = () => server.kill();
process.on('exit', stopServer);

async function waitForServer() {
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(`${origin}/`)).ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no server on ${origin}`);
}

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

await waitForServer();
const browser = await chromium.launch({ ...config.use.launchOptions, headless: true });
const times = [];
let consoleErrors = 0;
try {
  for (let i = 0; i < loads; i += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors += 1; });
    page.on('pageerror', () => { consoleErrors += 1; });
    await page.addInitScript(markReady);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000, state: 'attached' });
    times.push(await page.evaluate(() => window.__idemlabReadyAt));
    await context.close();
  }
} finally {
  await browser.close();
  stopServer();
}
const sorted = [...times].sort((a, b) => a - b);
console.log(JSON.stringify({
  page_interactive_ms: sorted[Math.floor(sorted.length / 2)], first_ms: times[0], console_errors: consoleErrors,
}));
