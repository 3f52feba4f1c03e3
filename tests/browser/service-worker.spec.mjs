// The served site after a first visit: dist/sw.js (web/src/service-worker.js, its list
// written by scripts/lib/service-worker.mjs) answers from its cache when the network is gone.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { test, expect, LESSON, useEnglish, waitReady, stepThenExplore, settleLessons } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';

test.use({ serviceWorkers: 'allow' });

test('after one visit the site works offline: reload, open a lesson, step, explore in the sandbox', async ({ page, context }) => {
  await useEnglish(page);
  await page.goto('./');
  await page.locator('[data-testid="lesson-card"]').first().waitFor();
  // The worker is active once every file is cached (its install fetched and checked them).
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  await context.setOffline(true);
  await settleLessons(page, [LESSON]);
  await page.reload();
  await page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"]`).waitFor();
  await page.locator(`[data-testid="lesson-card"][data-lesson="${LESSON}"] a`).first().click();
  await waitReady(page, LESSON);
  await stepThenExplore(page);

  // Without the service worker the same reload finds nothing.
  const other = await context.browser().newContext({ serviceWorkers: 'block', offline: true });
  const cold = await other.newPage();
  const failed = await cold.goto(page.url()).then(() => false, () => true);
  expect(failed).toBe(true);
  await other.close();
});

function swList(site) {
  const text = readFileSync(join(site, 'sw.js'), 'utf8');
  return JSON.parse(text.slice(text.indexOf('{'), text.indexOf('};') + 1));
}

test('sw.js lists exactly the site\'s files with their hashes, and a changed file changes it', async () => {
  const site = mkdtempSync(join(tmpdir(), 'idemlab-sw-'));
  try {
    cpSync(resolve(REPO, 'dist'), site, { recursive: true });
    const gen = () => spawnSync(process.execPath, [resolve(REPO, 'scripts/lib/service-worker.mjs'), site], { encoding: 'utf8' });
    expect(gen().status).toBe(0);
    const before = swList(site);
    // Every file of the site but sw.js, the offline copy, the code-mode module (fetched on first
    // use of code mode) and precompressed copies, each with its SHA-256.
    const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
    const expected = {};
    for (const full of walk(site)) {
      const path = full.slice(site.length + 1).split(sep).join('/');
      if (path === 'sw.js' || path === 'idemlab-offline.html' || /\.(br|gz)$/.test(path)) continue;
      if (path === 'engine/idemlab-code.js' || path === 'engine/idemlab-code.wasm') continue;
      expected[path] = `sha256-${createHash('sha256').update(readFileSync(full)).digest('base64')}`;
    }
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['index.html', 'app.js', 'style.css', 'engine/idemlab.wasm', 'engine/worker.js', 'lessons/index.json']));
    expect(before.files).toEqual(expected);

    const lesson = join(site, 'lessons', readdirSync(join(site, 'lessons')).find((f) => f !== 'index.json'));
    writeFileSync(lesson, readFileSync(lesson, 'utf8').replace('{', '{ '));
    expect(gen().status).toBe(0);
    const after = swList(site);
    expect(after.version).not.toBe(before.version);
    const changed = Object.keys(after.files).filter((f) => after.files[f] !== before.files[f]);
    expect(changed).toEqual([lesson.slice(site.length + 1)]);
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
});
