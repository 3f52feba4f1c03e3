// The incidents: lessons that replay a public bug report (a lesson file's `incident`
// block). The list shows them in a section of their own after the lessons; an incident's
// view shows the report (a link to it, what was expected, what was seen, the team's fix)
// above its run, in the page's language, on a narrow screen, embedded and without the
// engine. The tests serve their own incident (a copy of a shipped lesson with a side-by-side
// block, given a report) so that they stand alone; the index and the runs are the engine's.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, useEnglish, waitReady, sandboxReady, serveLessons, builtLesson, builtLessons, engineIndex, openEmbedded, settleLessons } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';

const ID = 'incident-test-double-charge';
const FILE = `${ID}.json`;
// A shipped lesson whose side-by-side block runs a new key per attempt (first) against one
// key per intent (second): the first ends with the intent's effect twice.
const FROM = 'retry-duplicates';
const REPORT = {
  source: 'example-shop/checkout #4242',
  url: 'https://github.com/example-shop/checkout/issues/4242',
  title: 'Order charged twice when the payment call times out',
  expected: { 'zh-CN': '顾客只被扣款一次', en: 'The customer is charged once' },
  seen: { 'zh-CN': '支付超时后重试，顾客被扣了两次款', en: 'After a timed-out payment was retried, the customer was charged twice' },
  fix: { 'zh-CN': '每笔订单只生成一个幂等键，重试沿用它', en: 'One idempotency key per order, reused by every retry' },
  reported: { violation: 'duplicate_effect' },
};

/** The fixture incident's file: the shipped lesson `FROM` with the report and its own id. */
function incidentLesson(report = REPORT) {
  const lesson = builtLesson(FROM);
  lesson.id = ID;
  lesson.title = { 'zh-CN': '超时后的重复扣款（测试用事故）', en: 'A double charge after a timeout (a test incident)' };
  lesson.incident = report;
  return lesson;
}

/** Serve the site with the fixture incident added; returns its entry of the engine's index. */
async function serveIncident(page) {
  const index = await serveLessons(page, { [FILE]: JSON.stringify(incidentLesson()) });
  const entry = index.lessons.find((e) => e.file === `lessons/${FILE}`);
  expect(entry.ok, JSON.stringify(entry.errors)).toBe(true);
  expect(entry.incident).toEqual({ source: REPORT.source, url: REPORT.url, title: REPORT.title });
  return entry;
}

const listReady = (page) => page.locator('[data-testid="lesson-list"][data-ready="true"]').waitFor();
const report = (page) => page.getByRole('region', { name: /^(The report|原始报告)$/ });

test('the list: the incidents in their own section after the lessons, each card with its report and progress, in keyboard order', async ({ page }) => {
  await useEnglish(page);
  const entry = await serveIncident(page);
  await page.goto('./');
  await listReady(page);

  const section = page.getByTestId('incidents-section');
  await expect(section).toBeVisible();
  await expect(section.getByRole('heading', { level: 2 })).toHaveText('Real incidents');
  // The page's sections, each under a heading of the same rank, in this order.
  const h2 = await page.locator('main h2').allInnerTexts();
  expect(h2.indexOf('Lessons')).toBeGreaterThanOrEqual(0);
  expect(h2.indexOf('Real incidents')).toBe(h2.indexOf('Lessons') + 1);

  const card = section.locator(`[data-testid="lesson-card"][data-lesson="${ID}"]`);
  await expect(card.getByRole('heading', { level: 3 })).toHaveText(entry.title.en);
  await expect(card.locator('.lesson-summary')).toHaveText(entry.summary.en);
  await expect(card.getByTestId('incident-source')).toContainText(REPORT.source);
  await expect(card.getByTestId('lesson-progress')).toContainText(`answered 0/${entry.question_count}`);
  // Every lesson without a report stays in the lessons' list, none in the incidents'.
  const lessons = page.getByTestId('lesson-list');
  await expect(lessons.locator(`[data-lesson="${ID}"]`)).toHaveCount(0);
  // (the built ones, and the fixture, less those in the incidents' section)
  const plain = builtLessons().length + 1 - (await section.getByTestId('lesson-card').count());
  await expect(lessons.getByTestId('lesson-card')).toHaveCount(plain);
  // After the lessons on the page and for the keyboard: Tab from the last lesson card's
  // last link reaches the first incident card.
  const before = await section.evaluate((el) => !!(document.querySelector('[data-testid="lesson-list"]').compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
  expect(before).toBe(true);
  await lessons.getByTestId('lesson-card').last().locator('a').last().focus();
  await page.keyboard.press('Tab');
  const firstIncident = section.getByTestId('lesson-card').first();
  await expect(firstIncident.getByTestId('lesson-open')).toBeFocused();

  // Below a long list of lessons, one control above them skips to the incidents, naming
  // how many there are, and leaves focus on their heading for the keyboard.
  const incidentCount = await section.getByTestId('lesson-card').count();
  const jump = page.getByTestId('jump-to-incidents');
  await expect(jump).toHaveText(`Skip to the ${incidentCount} real incidents below the lessons`);
  await jump.focus();
  await page.keyboard.press('Enter');
  await expect(section.getByRole('heading', { level: 2 })).toBeFocused();
  await expect(section.getByRole('heading', { level: 2 })).toBeInViewport();

  await page.getByTestId('lang-switch').click();
  await expect(section.getByRole('heading', { level: 2 })).toHaveText('真实事故');
  await expect(card.getByRole('heading', { level: 3 })).toHaveText(entry.title['zh-CN']);
  await expect(card.getByTestId('incident-source')).toContainText(REPORT.source);
});

test('without an incident in the index there is no incidents section', async ({ page }) => {
  await useEnglish(page);
  const index = engineIndex(builtLessons().filter((l) => !JSON.parse(l.text).incident));
  await page.route('**/lessons/index.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(index) }));
  await page.goto('./');
  await listReady(page);
  await expect(page.getByTestId('lesson-card').first()).toBeVisible();
  await expect(page.getByTestId('incidents-section')).toBeHidden();
  await expect(page.getByTestId('jump-to-incidents')).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Real incidents' })).toHaveCount(0);
});

test('an incident shows its report above its run: a link to it in a new tab, what was expected, seen and fixed, in the page\'s language; side by side is one click away', async ({ page }) => {
  await useEnglish(page);
  const entry = await serveIncident(page);
  // Side by side shows how both runs end: it opens once the incident's questions are settled.
  await settleLessons(page, [incidentLesson()]);
  await page.goto('./');
  await listReady(page);
  await page.locator(`[data-testid="lesson-card"][data-lesson="${ID}"] [data-testid="lesson-open"]`).click();
  await waitReady(page, ID);

  const panel = report(page);
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading')).toHaveText('The report');
  const link = panel.getByRole('link');
  await expect(link).toHaveAttribute('href', entry.incident.url);
  await expect(link).toHaveAttribute('target', '_blank');
  expect((await link.getAttribute('rel')).split(/\s+/).sort()).toEqual(['noopener', 'noreferrer']);
  await expect(link).toContainText(REPORT.source);
  await expect(link).toContainText(REPORT.title);
  await expect(link).toContainText('opens in a new tab');
  await expect(panel.getByTestId('incident-expected')).toHaveText(REPORT.expected.en);
  await expect(panel.getByTestId('incident-seen')).toHaveText(REPORT.seen.en);
  await expect(panel.getByTestId('incident-fix')).toHaveText(REPORT.fix.en);
  await expect(panel.getByTestId('incident-reproduced')).toContainText('duplicate effect');
  // Under the title and summary, before the run's controls, diagram and timeline.
  const order = await panel.evaluate((el) => {
    const after = (sel) => !!(el.compareDocumentPosition(document.querySelector(sel)) & Node.DOCUMENT_POSITION_FOLLOWING);
    const before = (sel) => !!(el.compareDocumentPosition(document.querySelector(sel)) & Node.DOCUMENT_POSITION_PRECEDING);
    return { title: before('[data-testid="lesson-title"]'), lead: before('.lesson-head .lead'), controls: after('[data-testid="controls"]'), diagram: after('.diagram-card'), timeline: after('.timeline-card') };
  });
  expect(order).toEqual({ title: true, lead: true, controls: true, diagram: true, timeline: true });
  // Text only: nothing in the report became markup.
  expect(await panel.locator('*').evaluateAll((els) => els.map((e) => e.tagName.toLowerCase()).filter((t) => !['h3', 'p', 'a', 'span', 'q', 'dl', 'dt', 'dd'].includes(t)))).toEqual([]);

  await page.getByTestId('lang-switch').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const zh = report(page);
  await expect(zh.getByRole('heading')).toHaveText('原始报告');
  await expect(zh.getByTestId('incident-expected')).toHaveText(REPORT.expected['zh-CN']);
  await expect(zh.getByTestId('incident-seen')).toHaveText(REPORT.seen['zh-CN']);
  await expect(zh.getByTestId('incident-fix')).toHaveText(REPORT.fix['zh-CN']);
  await expect(zh.getByTestId('incident-reproduced')).not.toContainText('duplicate effect');
  // The report's own title is quoted as written, in either language.
  await expect(zh.getByRole('link')).toContainText(REPORT.title);
  await expect(zh.getByRole('link')).toHaveAttribute('href', entry.incident.url);

  await page.getByTestId('tab-compare').click();
  await expect(page.locator(`[data-testid="compare-view"][data-lesson="${ID}"]`)).toBeVisible();
  await expect(page.getByTestId('compare-title')).toHaveText(entry.title['zh-CN']);
  // The side-by-side view names the report its first run replays.
  await expect(page.getByTestId('incident-line').getByRole('link')).toHaveAttribute('href', entry.incident.url);
  await expect(page.getByTestId('incident-line')).toContainText('原始报告');
});

test('on a narrow screen and embedded in a course page the report fits its column', async ({ page }) => {
  await serveIncident(page);
  const { frame } = await openEmbedded(page, `?embed=lesson#/lesson/${ID}`, 360);
  await frame.locator(`[data-testid="lesson-view"][data-lesson="${ID}"]`).waitFor();
  const panel = frame.getByRole('region', { name: 'The report' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('link')).toHaveAttribute('target', '_blank');
  const fit = await panel.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const overflowing = [...el.querySelectorAll('*')].filter((c) => c.getBoundingClientRect().right > r.right + 1).map((c) => c.className || c.tagName);
    return { left: r.left, right: r.right, width: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth, overflowing };
  });
  expect(fit.left).toBeGreaterThanOrEqual(0);
  expect(fit.right).toBeLessThanOrEqual(fit.width);
  expect(fit.scroll).toBeLessThanOrEqual(fit.width);
  expect(fit.overflowing).toEqual([]);
});

test('without the engine the incident\'s text shows its report; an address that is not https is text, not a link', async ({ page, guard }) => {
  guard.allowErrors();
  await useEnglish(page);
  // The index as the engine writes it for the fixture; the file then says another address,
  // read by the page alone (the engine did not load, so nothing checked the file).
  await serveIncident(page);
  const odd = 'javascript:alert(document.domain)';
  await page.route(`**/lessons/${FILE}`, (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(incidentLesson({ ...REPORT, url: odd })) }));
  await page.route('**/engine/idemlab.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`./#/lesson/${ID}`);
  await expect(page.getByTestId('lesson-text')).toBeVisible({ timeout: 20_000 });
  const panel = report(page);
  await expect(panel.getByTestId('incident-expected')).toHaveText(REPORT.expected.en);
  await expect(panel.getByTestId('incident-seen')).toHaveText(REPORT.seen.en);
  await expect(panel).toContainText(REPORT.title);
  await expect(panel).toContainText(odd);
  await expect(panel.locator('a')).toHaveCount(0);
});

test('the offline copy carries every lesson file the site serves, incidents included', () => {
  const html = readFileSync(resolve(REPO, 'dist/idemlab-offline.html'), 'utf8');
  const block = html.match(/<script type="application\/json" id="idemlab-files">([\s\S]*?)<\/script>/);
  expect(block).not.toBeNull();
  const files = JSON.parse(block[1]);
  const index = JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8'));
  expect(JSON.parse(files['lessons/index.json'])).toEqual(index);
  for (const e of index.lessons) expect(files[e.file], e.file).toBe(readFileSync(resolve(REPO, 'dist', e.file), 'utf8'));
});

// Every incident the site ships (read from the built index when the suite is collected):
// its card is among the incidents, and its view links the report the index names.
const shipped = JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8')).lessons.filter((e) => e.ok && e.incident);
for (const e of shipped) {
  test(`the shipped incident ${e.id}: listed among the incidents, its view links ${e.incident.source} and says what the file says`, async ({ page }) => {
    await useEnglish(page);
    const file = JSON.parse(readFileSync(resolve(REPO, 'dist', e.file), 'utf8'));
    await page.goto('./');
    await listReady(page);
    const card = page.getByTestId('incidents-section').locator(`[data-testid="lesson-card"][data-lesson="${e.id}"]`);
    await expect(card.getByTestId('incident-source')).toContainText(e.incident.source);
    await card.getByTestId('lesson-open').click();
    await waitReady(page, e.id);
    const panel = report(page);
    const link = panel.getByRole('link');
    await expect(link).toHaveAttribute('href', e.incident.url);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toContainText(e.incident.title);
    await expect(panel.getByTestId('incident-expected')).toHaveText(file.incident.expected.en);
    await expect(panel.getByTestId('incident-seen')).toHaveText(file.incident.seen.en);
    await expect(panel.getByTestId('incident-fix')).toHaveText(file.incident.fix.en);
    // The engine's replay ends with what the report saw (the file says what that was).
    if (Number.isInteger(file.incident.reported.effects)) {
      await expect(panel.getByTestId('incident-reproduced')).toContainText(`${file.incident.reported.effects} effect`);
    }
    if (file.incident.reported.violation) {
      const en = JSON.parse(readFileSync(resolve(REPO, 'web/src/i18n/en.json'), 'utf8'));
      await expect(panel.getByTestId('incident-reproduced')).toContainText(en[`inv.${file.incident.reported.violation}.broken`]);
    }
    if (file.incident.reported.status) {
      await expect(panel.getByTestId('incident-reproduced')).toContainText(`as ${file.incident.reported.status}`);
    }
    await page.getByTestId('lang-switch').click();
    await expect(report(page).getByTestId('incident-seen')).toHaveText(file.incident.seen['zh-CN']);
  });
}

// Words that place a design on a left or right side: only the side-by-side view has sides.
const SIDES = /\b(on|to) the (left|right)\b|\b(left|right)-hand\b|[左右](边|侧)/i;

test('a shipped incident\'s report, shown on the step-by-step view, points to no left or right side, in either language', async ({ page }) => {
  const incidents = builtLessons().map((l) => JSON.parse(l.text)).filter((l) => l.incident);
  expect(incidents.length).toBeGreaterThan(0);
  for (const lesson of incidents) {
    for (const lang of ['en', 'zh-CN']) {
      await page.goto(`./?lang=${lang}#/lesson/${lesson.id}`);
      await waitReady(page, lesson.id);
      await expect(page.getByTestId('tab-lesson')).toHaveAttribute('aria-current', 'page');
      const text = await page.getByTestId('incident-report').innerText();
      expect(text, `${lesson.id} (${lang})`).not.toMatch(SIDES);
      // The fix is still there, and where it points to the safe design it names the view
      // that shows it.
      expect((await page.getByTestId('incident-fix').innerText()).length).toBeGreaterThan(0);
    }
  }
});

// The akash incident's provider is a stand-in: its lane is the balance ledger a payment
// webhook credits (the engine's `provider.effect` = credit), so nothing the page says of
// that lane may speak of mail; the outbox lesson's provider is a mail provider still.
const MAIL = /\bmail\b|e-?mail|inbox|邮件|收件箱|发信/i;

/** What the page says of the provider at the current step: truth, invariants, panel, diagram. */
function providerTexts(page) {
  return page.evaluate(() => {
    const all = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent.trim()).filter(Boolean);
    return {
      truth: all('[data-testid="truth-emails"]'),
      invariants: all('[data-testid="truth"] .invariants li'),
      panel: all('[data-testid="panel-provider"] h3, [data-testid="panel-provider"] .db-caption, [data-testid="panel-provider"] th'),
      lane: all('[data-testid="lesson-view"] .diagram-head .lane-provider'),
      diagram: all('[data-testid="lesson-view"] [data-testid="diagram"] .ev-label, [data-testid="lesson-view"] [data-testid="diagram"] desc'),
    };
  });
}

/** Every provider text met while stepping the lesson `id` (its questions settled) from its first step to its last, in `lang`. */
async function providerTextsThroughout(page, id, lang) {
  await page.goto(`./?lang=${lang}#/lesson/${id}`);
  await waitReady(page, id);
  const view = page.getByTestId('lesson-view');
  const last = Number(await view.getAttribute('data-last'));
  const seen = { truth: new Set(), invariants: new Set(), panel: new Set(), lane: new Set(), diagram: new Set() };
  for (let at = Number(await view.getAttribute('data-step')); ; at++) {
    for (const [part, texts] of Object.entries(await providerTexts(page))) for (const x of texts) seen[part].add(x);
    if (at >= last) break;
    await page.getByTestId('next').click();
    await expect(view).toHaveAttribute('data-step', String(at + 1));
  }
  return Object.fromEntries(Object.entries(seen).map(([part, set]) => [part, [...set]]));
}

test('the akash incident speaks of credits to the balance ledger, never of mail, in both languages; the outbox lesson still speaks of emails', async ({ page }) => {
  const AKASH = 'incident-akash-topup';
  await settleLessons(page, [AKASH, 'outbox']);
  for (const lang of ['en', 'zh-CN']) {
    const credit = await providerTextsThroughout(page, AKASH, lang);
    for (const [part, texts] of Object.entries(credit)) {
      expect(texts.length, `${lang}: the incident shows its ${part}`).toBeGreaterThan(0);
      expect.soft(texts.filter((x) => MAIL.test(x)), `${lang}: the incident's ${part}`).toEqual([]);
    }
    // What it says instead: the credits, and the ledger they are counted in.
    expect(credit.truth.join(' ')).toMatch(lang === 'en' ? /credit/i : /加值/);
    expect(credit.lane.join(' ')).toMatch(lang === 'en' ? /balance ledger/i : /余额账本/);
    // How the run ends, in the sandbox: credits too.
    await page.getByTestId('open-in-sandbox').click();
    await sandboxReady(page);
    await expect(page.getByTestId('sb-ending')).toContainText(lang === 'en' ? /\b3 credits\b/ : /3 次加值/);
    await expect(page.getByTestId('sb-ending')).not.toContainText(MAIL);

    const mail = await providerTextsThroughout(page, 'outbox', lang);
    expect(mail.truth.join(' '), `${lang}: the outbox lesson's truth line`).toMatch(lang === 'en' ? /email/ : /邮件/);
    expect(mail.lane.join(' '), `${lang}: the outbox lesson's lane`).toMatch(lang === 'en' ? /mail provider/ : /邮件服务商/);
    expect(mail.panel.join(' '), `${lang}: the outbox lesson's provider panel`).toMatch(lang === 'en' ? /inbox/ : /收件箱/);
    expect(mail.invariants.join(' '), `${lang}: the outbox lesson's invariants`).toMatch(lang === 'en' ? /email/ : /邮件/);
    await page.getByTestId('open-in-sandbox').click();
    await sandboxReady(page);
    await expect(page.getByTestId('sb-ending')).toContainText(lang === 'en' ? /\bemails?\b/ : /封邮件/);
  }
});
