// Two builds of the site timed against each other, load by load: each pair opens the same
// lesson from A's server and from B's (in alternating order, a fresh browser context each),
// so both loads of a pair meet the same machine load. On a shared machine whose load swings
// from run to run, the median of the pairs' differences says which is faster when medians of
// separate runs cannot (it showed Rollup's one-file app.js ~40 ms sooner than esbuild's
// app.js and 9 chunks when separate runs of page.mjs could not tell them apart).
// Times as page.mjs takes them: ready (<body data-ready="true">) and drawn (the frame that
// paints the diagram), ms from navigation.
// usage: node scripts/bench-lib/page-ab.mjs DIST_A DIST_B [PAIRS=30] [LESSON=lost-receipt]
//   -> {"pairs", "a_ready_ms", "b_ready_ms", "a_drawn_ms", "b_drawn_ms" (medians),
//       "ready_a_minus_b_ms", "drawn_a_minus_b_ms" (medians of the pairs' differences:
//       > 0, B is sooner), "b_sooner_pairs"}
import { chromium } from '@playwright/test';
import config from '../../playwright.config.js';
import { serveDist } from './serve.mjs';

const [distA, distB, pairsArg, lesson = 'lost-receipt'] = process.argv.slice(2);
if (!distA || !distB) {
  console.error('usage: node scripts/bench-lib/page-ab.mjs DIST_A DIST_B [PAIRS] [LESSON]');
  process.exit(2);
}
const pairs = Number(pairsArg || 30);
const PORTS = { A: 8861, B: 8862 };
await serveDist(PORTS.A, distA);
await serveDist(PORTS.B, distB);

// In the page: when it is ready to step and when the diagram's frame is painted.
function markReady() {
  const mark = () => {
    if (!window.__readyAt && document.body && document.body.dataset.ready === 'true') window.__readyAt = performance.now();
    if (!window.__seen && document.querySelector('svg[data-testid="diagram"]')) {
      window.__seen = true;
      requestAnimationFrame(() => { window.__drawnAt = performance.now(); });
    }
  };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
}

const browser = await chromium.launch({ ...config.use.launchOptions, headless: true });
async function load(which) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(markReady);
  await page.goto(`http://127.0.0.1:${PORTS[which]}/#/lesson/${lesson}/step/0`, { waitUntil: 'commit' });
  const t0 = Date.now();
  while (!(await page.evaluate(() => window.__readyAt && window.__drawnAt))) {
    if (Date.now() - t0 > 30_000) throw new Error(`${which}: the lesson was not ready in 30 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const got = await page.evaluate(() => ({ ready: window.__readyAt, drawn: window.__drawnAt }));
  await context.close();
  return got;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r1 = (x) => Math.round(x * 10) / 10;
await load('A');
await load('B'); // the first load of each warms the browser and the server: not counted
const rows = [];
for (let i = 0; i < pairs; i += 1) {
  const got = {};
  for (const which of i % 2 ? ['B', 'A'] : ['A', 'B']) got[which] = await load(which);
  rows.push(got);
}
await browser.close();
console.log(JSON.stringify({
  pairs,
  a_ready_ms: r1(median(rows.map((r) => r.A.ready))),
  b_ready_ms: r1(median(rows.map((r) => r.B.ready))),
  a_drawn_ms: r1(median(rows.map((r) => r.A.drawn))),
  b_drawn_ms: r1(median(rows.map((r) => r.B.drawn))),
  ready_a_minus_b_ms: r1(median(rows.map((r) => r.A.ready - r.B.ready))),
  drawn_a_minus_b_ms: r1(median(rows.map((r) => r.A.drawn - r.B.drawn))),
  b_sooner_pairs: rows.filter((r) => r.B.ready < r.A.ready).length,
}));
process.exit(0);
