// Bad input on the page (issue 9): a broken engine file, an engine that stops, storage that
// refuses to save, a progress import (previewed, re-checked by the engine), a page opened
// from file://, and long or odd addresses. Each test asserts what the learner would notice.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect, LESSON, useEnglish, openLesson, waitReady, questionCard, answerRightly, engineExpected, completeLesson, questionStep } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';

// Every entry of the built index is a card in the list, lessons and incidents alike.
const LESSONS_LISTED = JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8')).lessons.length;

const KEY = 'idemlab.progress.v1';
const Q7 = 'client-knows-request-arrived';
const WASM = readFileSync(resolve(REPO, 'dist/engine/idemlab.wasm'));

/** Serve the first half of the engine's bytes (a download cut short). */
async function truncateWasm(page) {
  await page.route('**/engine/idemlab.wasm', (route) =>
    route.fulfill({ status: 200, contentType: 'application/wasm', body: WASM.subarray(0, Math.floor(WASM.length / 2)) }),
  );
}

const LANG_TEXT = {
  en: { damaged: 'arrived damaged or incomplete', stillWorks: 'can still be read', retry: 'Load the engine again', details: 'Technical details (in English)', back: '← Back' },
  'zh-CN': { damaged: '损坏的或不完整的', stillWorks: '照常可以阅读', retry: '重新加载模拟引擎', details: '技术细节（英文）', back: '← 返回' },
};

for (const lang of ['en', 'zh-CN']) {
  test(`a truncated idemlab.wasm (${lang}): the list and a lesson's text still show, the failure is named in the learner's language, the engine loads again on request`, async ({ page, guard }) => {
    guard.allowErrors();
    const words = LANG_TEXT[lang];
    await page.addInitScript((l) => localStorage.setItem('idemlab.lang', l), lang);
    await truncateWasm(page);
    await page.goto('./');
    // The list, from the index alone.
    await expect(page.locator('[data-testid="lesson-card"]')).toHaveCount(LESSONS_LISTED);
    const card = page.getByTestId('engine-error');
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card.getByTestId('error-reason')).toContainText(words.damaged);
    await expect(card.getByTestId('engine-still-works')).toContainText(words.stillWorks);
    // No toolchain text in sight; it is in the collapsed details, marked as English.
    const visible = await page.locator('body').innerText();
    expect(visible).not.toMatch(/ASSERTIONS|Aborted|CompileError|RuntimeError/);
    await expect(page.locator('[data-testid="lesson-card"]').first()).toBeVisible();
    const details = card.getByTestId('tech-details');
    await expect(details.locator('summary')).toHaveText(words.details);
    await expect(details.getByTestId('tech-text')).toBeHidden();
    await details.locator('summary').click();
    await expect(details.getByTestId('tech-text')).toBeVisible();
    await expect(details.getByTestId('tech-text')).toHaveAttribute('lang', 'en');
    await expect(details.getByTestId('tech-text')).toContainText('engine/idemlab.wasm');

    // A lesson's text: title and summary, with the same card above; its moments and
    // questions wait for the engine (they would tell what an open question asks).
    await page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"] [data-testid="lesson-open"]`).click();
    const view = page.locator(`[data-testid="lesson-text"][data-lesson="${LESSON}"]`);
    await expect(view).toBeVisible();
    const lesson = JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/01-lost-receipt.json'), 'utf8'));
    await expect(view.getByTestId('lesson-text-title')).toHaveText(lesson.title[lang]);
    await expect(view.getByTestId('lesson-text-summary')).toHaveText(lesson.summary[lang]);
    await expect(view.getByTestId('lesson-text-waits')).toContainText(String(lesson.questions.length));
    for (const m of lesson.moments) expect(await view.innerText()).not.toContain(m.narration[lang]);
    for (const q of lesson.questions) expect(await view.innerText()).not.toContain(q.prompt[lang]);
    await expect(view.getByTestId('engine-error').getByTestId('error-reason')).toContainText(words.damaged);
    expect(await page.locator('body').innerText()).not.toMatch(/ASSERTIONS|Aborted|CompileError/);

    // The file is whole again: "load the engine again" brings the lesson itself.
    await page.unroute('**/engine/idemlab.wasm');
    await view.getByTestId('engine-retry').click();
    await waitReady(page, LESSON);
    await expect(page.getByTestId('engine-error')).toHaveCount(0);
    await expect(page.getByTestId('notice-engine-loaded')).toBeVisible();
  });
}

test('a wasm file that is no wasm at all, and a wasm that does not answer: named, the list stays', async ({ page, guard }) => {
  guard.allowErrors();
  await useEnglish(page);
  await page.route('**/engine/idemlab.wasm', (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: '<!doctype html><title>Not found</title>' }));
  await page.goto('./');
  await expect(page.getByTestId('engine-error').getByTestId('error-reason')).toContainText('arrived damaged or incomplete', { timeout: 20_000 });
  await expect(page.locator('[data-testid="lesson-card"]')).toHaveCount(LESSONS_LISTED);
  await page.unroute('**/engine/idemlab.wasm');
  await page.route('**/engine/idemlab.wasm', (route) => route.abort('connectionrefused'));
  await page.getByTestId('engine-retry').click();
  await expect(page.getByTestId('engine-error').getByTestId('error-reason')).toContainText('the server did not answer', { timeout: 20_000 });
  await expect(page.locator('[data-testid="lesson-card"]')).toHaveCount(LESSONS_LISTED);
});

test('the sandbox without an engine: the keyboard starts at the card that says why', async ({ page, guard }) => {
  guard.allowErrors();
  await useEnglish(page);
  await page.route('**/engine/idemlab.wasm', (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: 'not wasm' }));
  await page.goto('./#/sandbox');
  const card = page.getByTestId('engine-error');
  await expect(card.getByTestId('error-reason')).toContainText('arrived damaged or incomplete', { timeout: 20_000 });
  await expect(card.getByTestId('engine-error-title')).toBeFocused();
});

test('without an engine, an import is refused before anything changes (its answers cannot be checked)', async ({ page, guard }) => {
  guard.allowErrors();
  await useEnglish(page);
  await truncateWasm(page);
  await page.goto('./');
  await expect(page.getByTestId('engine-error')).toBeVisible({ timeout: 20_000 });
  await page.evaluate((k) => localStorage.setItem(k, JSON.stringify({ version: 1, lessons: { 'retry-duplicates': { answers: {}, reached: 3 } } })), KEY);
  const before = await page.evaluate((k) => localStorage.getItem(k), KEY);
  await page.getByTestId('import-input').setInputFiles({ name: 'p.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ version: 1, lessons: { [LESSON]: { completed: true } } })) });
  await expect(page.getByTestId('notice')).toContainText('needs the simulation engine');
  await expect(page.getByTestId('import-preview')).toHaveCount(0);
  expect(await page.evaluate((k) => localStorage.getItem(k), KEY)).toBe(before);
});

test('an engine that stops (a trap) is offered a restart: a fresh engine checks the next answer', async ({ page, guard }) => {
  guard.allowErrors();
  await useEnglish(page);
  await openLesson(page, LESSON, questionStep(LESSON, Q7));
  // Make this instance (in its worker) trap on its next call, as a poisoned instance does.
  await page.evaluate(() => window.__idemlab.trapNext());
  const card = questionCard(page, Q7);
  await card.locator('button[data-answer="knows_true"]').click();
  await expect(card.getByTestId('answer-error')).toContainText('Restart the engine');
  await expect(card.getByTestId('answer-error')).not.toContainText('memory access');
  await expect(card).toHaveAttribute('data-answered', 'false');
  const notice = page.getByTestId('engine-stopped');
  await expect(notice).toContainText('Your progress is kept');
  await notice.getByTestId('engine-restart').click();
  await expect(page.getByTestId('notice-engine-restarted')).toBeVisible();
  await expect(page.getByTestId('engine-stopped')).toHaveCount(0);
  // The lesson stays where it was, and the fresh engine checks the answer.
  await expect(page.locator('[data-testid="lesson-view"]')).toHaveAttribute('data-step', String(questionStep(LESSON, Q7)));
  await answerRightly(page, card);
});

test('an engine out of memory says so in words and starts afresh: the next answer is checked', async ({ page, guard }) => {
  guard.allowErrors();
  await useEnglish(page);
  await openLesson(page, LESSON, questionStep(LESSON, Q7));
  // The engine's memory is taken up to its maximum (64 MiB) before it checks the answer, as
  // a call too large for it would.
  await page.evaluate(() => window.__idemlab.fillMemoryBefore('answer'));
  const card = questionCard(page, Q7);
  await card.locator('button[data-answer="knows_true"]').click();
  await expect(card.getByTestId('answer-error')).toContainText('ran out of memory');
  await expect(card.getByTestId('answer-error')).not.toContainText('malloc');
  await expect(card).toHaveAttribute('data-answered', 'false');
  // No restart to ask for: the engine was replaced, and the same answer is now checked.
  await expect(page.getByTestId('engine-stopped')).toHaveCount(0);
  await answerRightly(page, card);
});

test('storage that throws on write: after an answer the learner is told it is not saved and can export it', async ({ page }) => {
  await useEnglish(page);
  await page.addInitScript(() => {
    const real = Storage.prototype.setItem;
    Storage.prototype.setItem = function setItem(key, value) {
      if (String(key).startsWith('idemlab.progress')) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return real.call(this, key, value);
    };
  });
  await page.goto('./');
  await page.locator('[data-testid="lesson-list"][data-ready="true"]').waitFor();
  await expect(page.getByTestId('notice-save-failed')).toHaveCount(0);
  await openLesson(page, LESSON, questionStep(LESSON, Q7));
  await answerRightly(page, questionCard(page, Q7));
  const notice = page.getByTestId('notice-save-failed');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('not saved in this browser');
  await expect(notice).toContainText('export');
  // The export in the notice holds the answer that storage refused.
  const [download] = await Promise.all([page.waitForEvent('download'), notice.getByTestId('notice-export').click()]);
  const data = JSON.parse(Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8'));
  expect(data.lessons[LESSON].answers[Q7].correct).toBe(true);
  // Switching the language keeps the notice (in Chinese).
  await page.getByTestId('lang-switch').click();
  await expect(page.getByTestId('notice-save-failed')).toContainText('没有保存在这个浏览器里');
});

test('unreadable saved progress that cannot be set aside is not claimed kept, and can be downloaded', async ({ page }) => {
  await useEnglish(page);
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('idemlab.progress.v1', 'garbage{');
    }
    const real = Storage.prototype.setItem;
    Storage.prototype.setItem = function setItem(key, value) {
      if (String(key).startsWith('idemlab.progress.corrupt.')) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return real.call(this, key, value);
    };
  });
  await page.goto('./');
  const notice = page.getByTestId('notice-corrupt');
  await expect(notice).toContainText('no room to keep a copy');
  await expect(notice).not.toContainText('set aside');
  await expect(notice).not.toContainText('not deleted');
  const [download] = await Promise.all([page.waitForEvent('download'), notice.getByTestId('notice-download-unreadable').click()]);
  expect(Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8')).toBe('garbage{');
});

/** Choose a progress file in the list's import button. */
async function chooseImport(page, data, name = 'progress.json') {
  await page.getByTestId('import-input').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.isBuffer(data) ? data : Buffer.from(typeof data === 'string' ? data : JSON.stringify(data)) });
}

const listCard = (page, id = LESSON) => page.locator(`[data-testid="lesson-card"][data-lesson="${id}"]`);

for (const lang of ['en', 'zh-CN']) {
  test(`the list has one Import progress control, and it imports by keyboard (${lang})`, async ({ page }) => {
    const name = JSON.parse(readFileSync(resolve(REPO, `web/src/i18n/${lang}.json`), 'utf8'))['progress.import'];
    if (lang === 'en') await useEnglish(page);
    await page.goto('./');
    await page.locator('[data-testid="lesson-list"][data-ready="true"]').waitFor();
    // The file picker behind the button is not a second control of the same name.
    const controls = page.getByRole('button', { name, exact: true });
    await expect(controls).toHaveCount(1);
    // Tab goes from Export to Import, and Enter there opens the file picker. (The chooser is
    // waited for first: Playwright starts catching choosers only once asked to.)
    const choosing = page.waitForEvent('filechooser');
    await page.getByTestId('export-progress').focus();
    await page.keyboard.press('Tab');
    await expect(controls).toBeFocused();
    await page.keyboard.press('Enter');
    const chooser = await choosing;
    await chooser.setFiles({ name: 'p.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ version: 1, lessons: {} })) });
    await expect(page.getByTestId('import-preview')).toBeVisible();
  });
}

test('an import shows what it will change and asks first: Escape or cancel changes nothing, confirm (by keyboard) applies', async ({ page }) => {
  await useEnglish(page);
  await openLesson(page, LESSON, questionStep(LESSON, Q7));
  const { expected } = await engineExpected(page, LESSON, Q7);
  const file = {
    version: 1,
    lessons: { [LESSON]: { answers: { [Q7]: { tries: [{ answer: expected, correct: true }], correct: true } }, reached: questionStep(LESSON, Q7), completed: false } },
  };
  await page.getByTestId('back').click();
  await expect(listCard(page).getByTestId('lesson-progress')).toContainText('answered 0/9');
  const before = await page.evaluate((k) => localStorage.getItem(k), KEY);

  await chooseImport(page, file);
  const preview = page.getByTestId('import-preview');
  await expect(preview).toBeVisible();
  await expect(preview.getByTestId('import-preview-title')).toBeFocused();
  const row = preview.locator(`[data-testid="import-row"][data-lesson="${LESSON}"]`);
  await expect(row.getByTestId('import-now')).toHaveText('answered 0/9 · not completed');
  await expect(row.getByTestId('import-after')).toHaveText('answered 1/9 · right at the first try: 1 of 9 · answers shown: 0 · not completed');
  await page.keyboard.press('Escape');
  await expect(preview).toHaveCount(0);
  await expect(page.getByTestId('import-progress')).toBeFocused();
  expect(await page.evaluate((k) => localStorage.getItem(k), KEY)).toBe(before);
  await expect(listCard(page).getByTestId('lesson-progress')).toContainText('answered 0/9');

  await chooseImport(page, file);
  await page.getByTestId('import-cancel').click();
  await expect(page.getByTestId('import-preview')).toHaveCount(0);
  expect(await page.evaluate((k) => localStorage.getItem(k), KEY)).toBe(before);

  await chooseImport(page, file);
  await expect(page.getByTestId('import-preview-title')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('import-confirm')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('notice')).toContainText('Progress imported');
  // The keyboard is on the outcome, not dropped on the page's body by the list drawn again.
  await expect(page.getByTestId('notice')).toBeFocused();
  await expect(listCard(page).getByTestId('lesson-progress')).toHaveText('answered 1/9');
  await expect(listCard(page).getByTestId('lesson-score')).toHaveText('right at the first try: 1 of 9 · answers shown: 0');
});

test('files that cannot be imported: each outcome names its file and takes the place of the one before; a new file closes the open preview', async ({ page }) => {
  await useEnglish(page);
  await page.goto('./');
  await page.locator('[data-testid="lesson-list"][data-ready="true"]').waitFor();
  // A preview of a good file is open...
  await chooseImport(page, { version: 1, lessons: {} }, 'good.json');
  await expect(page.getByTestId('import-preview')).toBeVisible();
  // ...then a lesson file is chosen by mistake: the preview goes, the notice says what it is.
  await chooseImport(page, readFileSync(resolve(REPO, 'lessons/01-lost-receipt.json'), 'utf8'), '01-lost-receipt.json');
  await expect(page.getByTestId('import-preview')).toHaveCount(0);
  const notices = page.getByTestId('notice');
  await expect(notices).toHaveCount(1);
  await expect(notices).toContainText('Could not import 01-lost-receipt.json');
  await expect(notices).toContainText('lesson file');
  await expect(notices).not.toContainText('undefined');
  // Another bad file: one notice, about that file, and the keyboard on it (it is at the top
  // of the page, far from the Import button).
  await chooseImport(page, 'not json', 'notes.txt');
  await expect(notices).toHaveCount(1);
  await expect(notices).toContainText('Could not import notes.txt: line 1, column 1: not valid JSON');
  await expect(notices).toBeFocused();
  await expect(notices).toBeInViewport();
  // A picture chosen by mistake is called what it is, not quoted as garbled text.
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xd8]);
  await chooseImport(page, png, 'photo.png');
  await expect(notices).toContainText('Could not import photo.png: not a text file');
  await expect(notices).not.toContainText('\ufffd');
  // A file saved as GBK is named as not UTF-8, at its line.
  const gbk = Buffer.concat([Buffer.from('{"version": 1,\n "lessons": {"'), Buffer.from([0xc4, 0xe3]), Buffer.from('": {}}}')]);
  await chooseImport(page, gbk, 'gbk.json');
  await expect(notices).toContainText('Could not import gbk.json: not UTF-8 text (line 2)');
  // A lesson key that is no lesson id (one JavaScript gives a meaning to) is refused by name.
  await chooseImport(page, '{"version": 1, "lessons": {"__proto__": {"completed": true}}}', 'forged.json');
  await expect(notices).toContainText('"__proto__" in "lessons" is not a lesson id');
  // A good file next: its preview, and the error about the file before is gone.
  await chooseImport(page, { version: 1, lessons: {}, note: 'added by hand' }, 'good.json');
  await expect(page.getByTestId('import-preview')).toBeVisible();
  await expect(notices).toHaveCount(0);
  // Imported, it keeps what a progress record holds, not the field added by hand.
  await page.getByTestId('import-confirm').click();
  await expect(notices).toContainText('Progress imported');
  const saved = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), KEY);
  expect(saved.version).toBe(1);
  expect(saved).not.toHaveProperty('note');
});

test('a forged completion: a hand-written file claiming completed (or right answers that are not) does not complete a lesson', async ({ page }) => {
  await useEnglish(page);
  await page.goto('./');
  await page.locator('[data-testid="lesson-list"][data-ready="true"]').waitFor();
  // The four lines the issue found, and one claiming every question right with nonsense answers.
  const index = JSON.parse(readFileSync(resolve(REPO, 'dist/lessons/index.json'), 'utf8'));
  const qids = index.lessons.find((e) => e.id === 'retry-duplicates').question_ids;
  const answers = Object.fromEntries(qids.map((q) => [q, { tries: [{ answer: 'knows_true', correct: true }], correct: true }]));
  const forged = `{"version": 1, "lessons": {
  "${LESSON}": {"completed": true},
  "retry-duplicates": {"completed": true, "reached": 999, "answers": ${JSON.stringify(answers)}}
}}`;
  await chooseImport(page, forged);
  const preview = page.getByTestId('import-preview');
  const row = preview.locator(`[data-testid="import-row"][data-lesson="${LESSON}"]`);
  await expect(row.getByTestId('import-after')).toContainText('not completed');
  await expect(row.getByTestId('import-unproven')).toBeVisible();
  const row2 = preview.locator('[data-testid="import-row"][data-lesson="retry-duplicates"]');
  await expect(row2.getByTestId('import-after')).toContainText('not completed');
  await page.getByTestId('import-confirm').click();
  await expect(page.getByTestId('notice')).toContainText('Progress imported');
  await expect(listCard(page).getByTestId('lesson-completed')).toHaveCount(0);
  await expect(listCard(page, 'retry-duplicates').getByTestId('lesson-completed')).toHaveCount(0);
  // Not one of the claimed verdicts survived the engine's check unless it is right.
  const saved = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), KEY);
  expect(saved.lessons[LESSON].completed).toBe(false);
  expect(saved.lessons['retry-duplicates'].completed).toBe(false);
  const right = qids.filter((q) => saved.lessons['retry-duplicates'].answers[q].correct).length;
  // A wrong first try alone leaves a question open (a hint, not the answer): only the right ones count as answered.
  await expect(listCard(page, 'retry-duplicates').getByTestId('lesson-progress')).toHaveText(`answered ${right}/${qids.length}`);
  expect(right).toBeLessThan(qids.length);
});

test('a real completion survives export and import: the engine re-checks it and it stays completed', async ({ page }) => {
  test.setTimeout(90_000);
  await useEnglish(page);
  await openLesson(page, LESSON, 0);
  await completeLesson(page);
  await expect(page.getByTestId('lesson-completed-banner')).toBeVisible();
  await page.getByTestId('back').click();
  await expect(listCard(page).getByTestId('lesson-completed')).toBeVisible();
  // The preview says the score in the list card's words.
  const score = await listCard(page).getByTestId('lesson-score').innerText();
  expect(score).toBe('right at the first try: 9 of 9 · answers shown: 0');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-progress').click()]);
  const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
  await page.evaluate((k) => localStorage.removeItem(k), KEY);
  await page.reload();
  await expect(listCard(page).getByTestId('lesson-completed')).toHaveCount(0);
  await chooseImport(page, text);
  const row = page.locator(`[data-testid="import-row"][data-lesson="${LESSON}"]`);
  await expect(row.getByTestId('import-after')).toHaveText(`answered 9/9 · ${score} · completed`);
  await page.getByTestId('import-confirm').click();
  await expect(listCard(page).getByTestId('lesson-completed')).toBeVisible();
});

test('opened from file://, dist/index.html explains what to do, in both languages', async ({ page, guard }) => {
  guard.allowErrors(); // the browser refuses app.js from file:// and says so in the console
  const url = pathToFileURL(resolve(REPO, 'dist/index.html')).href;
  await page.goto(url);
  const help = page.getByTestId('file-help');
  await expect(help).toBeVisible();
  await expect(help.locator('section[lang="zh-CN"]')).toContainText('作为文件打开');
  await expect(help.locator('section[lang="en"]')).toContainText('opened as a file');
  await expect(help.getByTestId('file-help-command').first()).toHaveText(`python3 -m http.server 8000 --directory "${resolve(REPO, 'dist')}"`);
  await expect(page.locator('body')).not.toContainText('app.js could not be loaded');
  // The offline copy it names opens from the same folder, with the lessons.
  await help.getByTestId('file-help-offline').first().click();
  await expect(page.locator('[data-testid="lesson-card"]').first()).toBeVisible({ timeout: 20_000 });
});

test('a long or odd address is shown cut, as text, inside the notice box', async ({ page }) => {
  await useEnglish(page);
  const long = `${'x'.repeat(100_000)}<img src=x onerror=alert(1)>`;
  await page.goto(`./#/${long}`);
  const msg = page.getByTestId('route-message');
  await expect(msg).toContainText('…');
  expect((await msg.innerText()).length).toBeLessThan(300);
  await expect(page.locator('main img')).toHaveCount(0);
  const fits = await msg.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= document.documentElement.clientWidth);
  expect(fits).toBe(true);

  await page.goto(`./#/lesson/${'<b>'.repeat(30_000)}`);
  const msg2 = page.getByTestId('route-message');
  await expect(msg2).toContainText('<b><b>');
  await expect(msg2).toContainText('…');
  expect((await msg2.innerText()).length).toBeLessThan(300);
  await expect(page.locator('main b')).toHaveCount(0);
  expect(await msg2.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
});
