// Embedding (docs/embedding.md): the example course page, docs/embed-example.html, served
// by this file's own server at another origin (127.0.0.1, another port; Chromium lets only
// a local page frame a local one, so not a routed made-up host) with idemlab in its iframe
// from the test server. Messages are read where the course page keeps them
// (window.idemlabMessages), after its own origin check.

import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, LESSON, builtLesson, engineExpected, questionCard } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';

const EXAMPLE = readFileSync(resolve(REPO, 'docs/embed-example.html'), 'utf8');

// path -> HTML; '/week3.html' is the example, other pages are set by the tests.
const pages = new Map([['/week3.html', EXAMPLE]]);
let server;
let HOST; // http://127.0.0.1:<port>
let OTHER; // the same server as http://localhost:<port>: another origin

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const body = pages.get(new URL(req.url, 'http://x').pathname);
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body || 'not found');
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  HOST = `http://127.0.0.1:${server.address().port}`;
  OTHER = `http://localhost:${server.address().port}`;
});

test.afterAll(async () => {
  await new Promise((ok) => server.close(ok));
});

async function openCourse(page, guard, baseURL) {
  guard.allowOrigin(HOST);
  await page.goto(`${HOST}/week3.html?site=${encodeURIComponent(baseURL)}`);
  const frame = page.frameLocator('iframe');
  await frame.locator('body[data-ready="true"]').waitFor();
  return frame;
}

const messages = (page, type) => page.evaluate((t) => window.idemlabMessages.filter((m) => m.type === t), type);

test('a course page on another origin gets the lesson alone, hears ready, step and answer-checked, and sets the language and the lesson', async ({ page, guard, baseURL }) => {
  const frame = await openCourse(page, guard, baseURL);
  // embed=lesson: the lesson without the site's header or a way to the list.
  await expect(frame.getByTestId('lesson-title')).toBeVisible();
  await expect(frame.locator('.app-header')).toBeHidden();
  await expect(frame.getByTestId('back')).toBeHidden();
  await expect(frame.locator('html')).toHaveAttribute('lang', 'en');

  await expect.poll(() => messages(page, 'ready')).toEqual([{ source: 'idemlab', version: 1, type: 'ready', lang: 'en', view: 'lesson', lesson: LESSON }]);
  const last = Number(await frame.getByTestId('lesson-view').getAttribute('data-last'));
  await expect.poll(() => messages(page, 'step')).toEqual([{ source: 'idemlab', version: 1, type: 'step', lesson: LESSON, step: 0, last, moment: null }]);

  // Step on to the first question; each step is posted, with the moment the narration shows.
  const moments = builtLesson(LESSON).moments;
  const f = { locator: (s) => frame.locator(s), getByTestId: (id) => frame.getByTestId(id), evaluate: (fn, arg) => page.frames()[1].evaluate(fn, arg) };
  while ((await frame.locator('[data-testid="question"]').count()) === 0) await frame.getByTestId('next').click();
  const shown = Number(await frame.getByTestId('lesson-view').getAttribute('data-step'));
  const kicker = await frame.locator('.narration-kicker').innerText();
  const moment = moments.find((m) => kicker.includes(m.label.en));
  expect(moment, 'the narration shows a moment of the lesson').toBeTruthy();
  const steps = await messages(page, 'step');
  expect(steps.map((m) => m.step)).toEqual([...Array(shown + 1).keys()]);
  expect(steps.at(-1).moment).toBe(moment.id);

  // A wrong answer, then the right one: two answer-checked messages, tries 1 and 2; the
  // first got a hint (not revealed), the right one shows the answer with why.
  const card = frame.locator('[data-testid="question"]').first();
  const qid = await card.getAttribute('data-question');
  const { q, expected } = await engineExpected(f, LESSON, qid);
  expect(q.kind).not.toBe('table');
  const ids = q.kind === 'knowledge' ? ['knows_true', 'knows_false', 'cannot_know'] : q.options.map((o) => o.id);
  const wrong = ids.find((id) => id !== expected);
  await card.locator(`button[data-answer="${wrong}"]`).click();
  await card.locator(`button[data-answer="${expected}"]`).click();
  await expect(questionCard(f, qid)).toHaveAttribute('data-solved', 'true');
  await expect.poll(() => messages(page, 'answer-checked')).toEqual([
    { source: 'idemlab', version: 1, type: 'answer-checked', lesson: LESSON, question: qid, answer: wrong, correct: false, try: 1, revealed: false },
    { source: 'idemlab', version: 1, type: 'answer-checked', lesson: LESSON, question: qid, answer: expected, correct: true, try: 2, revealed: true },
  ]);

  // The course page's buttons: the language, then another lesson at a step.
  const title = builtLesson(LESSON).title;
  await page.locator('#lang-zh').click();
  await expect(frame.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(frame.getByTestId('lesson-title')).toHaveText(title['zh-CN']);
  await page.locator('#lang-en').click();
  await expect(frame.getByTestId('lesson-title')).toHaveText(title.en);

  const other = builtLesson('retry-duplicates');
  await page.locator('#lesson').fill('retry-duplicates');
  await page.locator('#step').fill('1');
  await page.locator('#open').click();
  await expect(frame.locator('[data-testid="lesson-view"][data-lesson="retry-duplicates"]')).toHaveAttribute('data-step', '1');
  await expect(frame.getByTestId('lesson-title')).toHaveText(other.title.en);
  await expect.poll(async () => (await messages(page, 'step')).at(-1)).toMatchObject({ lesson: 'retry-duplicates', step: 1 });

  // A command the page cannot follow is answered, not guessed at.
  await page.evaluate(() => window.sendToIdemlab({ type: 'open', lesson: 'Not An Id' }));
  await expect.poll(() => messages(page, 'command-refused')).toEqual([
    { source: 'idemlab', version: 1, type: 'command-refused', command: 'open', reason: 'lesson must be a lesson id (a-z, 0-9, -)' },
  ]);
  await expect(frame.locator('[data-testid="lesson-view"][data-lesson="retry-duplicates"]')).toBeVisible();
});

/** A host page of our own: keeps every message it hears, can send commands. */
function hostPage(src) {
  return `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
    <script>window.heard = []; addEventListener('message', (e) => window.heard.push({ origin: e.origin, data: e.data }));</script>
    <iframe src="${src}" title="idemlab" style="width:900px;height:700px"></iframe>`;
}

test('a course page hears ready first, then the lesson\'s first step, in the order docs/embedding.md gives', async ({ page, guard, baseURL }) => {
  const frame = await openCourse(page, guard, baseURL);
  await expect(frame.getByTestId('lesson-view')).toHaveAttribute('data-step', '0');
  await expect.poll(() => page.evaluate(() => window.idemlabMessages.map((m) => m.type))).toEqual(['ready', 'step']);
  const [ready, step] = await page.evaluate(() => window.idemlabMessages);
  expect(ready).toMatchObject({ type: 'ready', view: 'lesson', lesson: LESSON });
  expect(step).toMatchObject({ type: 'step', lesson: LESSON, step: 0 });
  // A step the learner takes after that follows them.
  await frame.getByTestId('next').click();
  await expect.poll(() => page.evaluate(() => window.idemlabMessages.map((m) => m.type))).toEqual(['ready', 'step', 'step']);
});

test('messages go only to the origin the address names; another origin hears nothing and its commands are ignored', async ({ page, guard, baseURL }) => {
  // A page at localhost:<port> frames idemlab with origin=http://127.0.0.1:<port>.
  guard.allowOrigin(OTHER);
  pages.set('/impostor.html', hostPage(`${baseURL}index.html?lang=en&origin=${encodeURIComponent(HOST)}#/lesson/${LESSON}`));
  await page.goto(`${OTHER}/impostor.html`);
  const frame = page.frameLocator('iframe');
  await frame.locator('body[data-ready="true"]').waitFor();
  await frame.getByTestId('next').click();
  await expect(frame.getByTestId('lesson-view')).toHaveAttribute('data-step', '1');
  await page.evaluate(() => document.querySelector('iframe').contentWindow.postMessage({ target: 'idemlab', version: 1, type: 'set-language', lang: 'zh-CN' }, '*'));
  await page.evaluate(() => document.querySelector('iframe').contentWindow.postMessage({ target: 'idemlab', version: 1, type: 'open', lesson: 'retry-duplicates' }, '*'));
  // The page would have switched within a frame or two; give it many.
  await page.waitForTimeout(500);
  await expect(frame.locator('html')).toHaveAttribute('lang', 'en');
  await expect(frame.getByTestId('lesson-view')).toHaveAttribute('data-lesson', LESSON);
  expect(await page.evaluate(() => window.heard)).toEqual([]);
});

test('with no origin in the address the page posts to any host (as before) and takes no command; ?lang= picks the language without saving it', async ({ page, guard, baseURL }) => {
  guard.allowOrigin(HOST);
  pages.set('/no-origin.html', hostPage(`${baseURL}index.html?lang=en#/lesson/${LESSON}`));
  await page.goto(`${HOST}/no-origin.html`);
  const frame = page.frameLocator('iframe');
  await frame.locator('body[data-ready="true"]').waitFor();
  await expect(frame.locator('html')).toHaveAttribute('lang', 'en');
  // Not embed=lesson: the site's header is there.
  await expect(frame.locator('.app-header')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.heard.map((m) => m.data.type))).toEqual(['ready', 'step']);
  expect((await page.evaluate(() => window.heard))[0]).toEqual({ origin: new URL(baseURL).origin, data: { source: 'idemlab', version: 1, type: 'ready', lang: 'en', view: 'lesson', lesson: LESSON } });
  await page.evaluate(() => document.querySelector('iframe').contentWindow.postMessage({ target: 'idemlab', version: 1, type: 'set-language', lang: 'zh-CN' }, '*'));
  await page.waitForTimeout(500);
  await expect(frame.locator('html')).toHaveAttribute('lang', 'en');

  // The address chose English for this visit; the saved choice (none: Chinese) is kept.
  await page.goto(`${baseURL}#/`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByTestId('lang-switch')).toHaveText('English');
});

test('an origin that is not an http(s) origin: nothing is posted at all', async ({ page, guard, baseURL }) => {
  guard.allowOrigin(HOST);
  pages.set('/star.html', hostPage(`${baseURL}index.html?lang=en&origin=*#/lesson/${LESSON}`));
  await page.goto(`${HOST}/star.html`);
  const frame = page.frameLocator('iframe');
  await frame.locator('body[data-ready="true"]').waitFor();
  await frame.getByTestId('next').click();
  await expect(frame.getByTestId('lesson-view')).toHaveAttribute('data-step', '1');
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => window.heard)).toEqual([]);
});
