// The offline copy, dist/idemlab-offline.html (scripts/lib/offline.mjs): opened from
// file:// with every request refused but file: ones, and the browser offline.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect, LESSON, useEnglish, waitReady, stepThenExplore, settleLessons } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';

const OFFLINE = pathToFileURL(resolve(REPO, 'dist/idemlab-offline.html')).href;

test('the offline copy from file:// with no network: the lesson list, a lesson, the sandbox and explore at K = 1 in its worker', async ({ page, context, baseURL }) => {
  // What the served site lists, to compare with.
  await useEnglish(page);
  await page.goto(baseURL);
  await page.locator('[data-testid="lesson-card"]').first().waitFor();
  // Less the link to code mode: the offline copy carries neither its exercises nor its engine.
  const codeLink = await page.getByTestId('code-link').innerText();
  const servedList = (await page.locator('main').innerText()).replace(` ${codeLink}`, '').replace(codeLink, '');
  // The served page starts its engine after it is drawn: leave it, so that its worker's
  // requests are not counted as the offline copy's.
  await page.goto('about:blank');

  const refused = [];
  await context.route('**', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    refused.push(url);
    return route.abort();
  });
  await context.setOffline(true);

  await page.goto(OFFLINE);
  await page.locator('[data-testid="lesson-card"]').first().waitFor();
  expect(await page.locator('main').innerText()).toBe(servedList);
  await expect(page.getByTestId('offline-note')).toContainText('offline copy');
  await expect(page.getByTestId('offline-link')).toHaveCount(0);
  await expect(page.getByTestId('code-link')).toHaveCount(0);

  // The sandbox opens from a lesson once its questions are settled; a new address only
  // changes the hash, so the page is loaded again to read the settled progress.
  await settleLessons(page, [LESSON]);
  await page.goto(`${OFFLINE}#/lesson/${LESSON}`);
  await page.reload();
  await waitReady(page, LESSON);
  await stepThenExplore(page);
  expect(refused).toEqual([]);
});

test('the served page\'s footer offers the offline copy as a download, in both languages', async ({ page }) => {
  await page.goto('./#/');
  const link = page.getByTestId('offline-link');
  await expect(link).toHaveText('下载离线版（一个文件）');
  await page.getByTestId('lang-switch').click();
  await expect(link).toHaveText('Download the offline copy (one file)');
  await expect(link).toHaveAttribute('download', 'idemlab-offline.html');
  const res = await page.request.get(new URL(await link.getAttribute('href'), page.url()).href);
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('id="idemlab-wasm"');
});
