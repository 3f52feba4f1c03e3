// Lesson text is data: it is always rendered as text, never parsed as HTML;
// and every UI string exists in both languages.

import { test, expect, LESSON, useEnglish, waitReady, serveLessons, builtLesson, lessonFile } from './helpers.mjs';
import fs from 'node:fs';
import path from 'node:path';

// The catalogue: one file per language, literal keys (web/src/i18n.js).
const catalogue = (lang) => JSON.parse(fs.readFileSync(`web/src/i18n/${lang}.json`, 'utf8'));
function sources(dir = 'web/src') {
  const out = [];
  for (const f of fs.readdirSync(dir)) {
    const p = path.join(dir, f);
    if (fs.statSync(p).isDirectory()) out.push(...sources(p));
    else if (p.endsWith('.js')) out.push({ file: p, text: fs.readFileSync(p, 'utf8') });
  }
  return out;
}

test('every UI string exists in zh-CN and en, and no catalogue entry is empty', () => {
  const zh = catalogue('zh-CN');
  const en = catalogue('en');
  expect(Object.keys(zh).filter((k) => !(k in en))).toEqual([]);
  expect(Object.keys(en).filter((k) => !(k in zh))).toEqual([]);
  for (const table of [zh, en]) expect(Object.entries(table).filter(([, v]) => typeof v !== 'string' || !v.trim())).toEqual([]);
});

test('every catalogue key is written out in the page code, and every key the code names exists', () => {
  const code = sources();
  const all = code.map((s) => s.text).join('\n');
  const keys = Object.keys(catalogue('en'));
  expect(keys.filter((k) => !all.includes(`'${k}'`) && !all.includes(`"${k}"`))).toEqual([]);
  // t('...') and t("...") with a literal first argument; a key built at run time (t(`...`)) is not allowed.
  const named = new Set();
  for (const { text } of code) for (const m of text.matchAll(/\bt\(\s*['"]([\w.-]+)['"]/g)) named.add(m[1]);
  expect([...named].filter((k) => !keys.includes(k))).toEqual([]);
  expect(code.filter((s) => /\bt\(\s*`/.test(s.text)).map((s) => s.file)).toEqual([]);
});

test('markup in a lesson title is shown as text, not inserted as HTML', async ({ page }) => {
  await useEnglish(page);
  const markup = '<img src="x" data-injected="1"><b>bold</b>';
  const lesson = builtLesson();
  lesson.title.en = markup + lesson.title.en;
  await serveLessons(page, { [lessonFile().replace('lessons/', '')]: JSON.stringify(lesson) });
  await page.goto('./');
  const card = page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`);
  await expect(card.locator('h3')).toContainText(markup);
  await card.getByTestId('lesson-open').click();
  await waitReady(page);
  await expect(page.getByTestId('lesson-title')).toContainText(markup);
  await expect(page.locator('[data-injected]')).toHaveCount(0);
  await expect(page.locator('main b')).toHaveCount(0);
});
