// The engine as the browser gets it from scripts/serve (scripts/lib/static-server.mjs): the
// brotli copy scripts/build wrote, decoded by the browser and run, in the page and in the
// engine's Web Worker; what crossed the wire is the compressed size.

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, LESSON, useEnglish, openLesson, stepThenExplore, settleLessons } from './helpers.mjs';
import { REPO } from '../wasm/engine-node.mjs';

test('the engine arrives as brotli with its own type, and the lesson and the worker run it', async ({ page }) => {
  await useEnglish(page);
  const engine = [];
  page.on('response', async (res) => {
    if (!/\/engine\/(idemlab\.(wasm|js)|worker\.js)$/.test(res.url())) return;
    // The first download of each file; the worker's later requests revalidate it (a 304
    // for the same ETag, no body).
    if ((await res.request().allHeaders())['if-none-match']) return;
    const headers = await res.allHeaders();
    const sizes = await res.request().sizes();
    engine.push({ url: res.url(), headers, sizes, from: res.fromServiceWorker() });
  });
  await settleLessons(page, [LESSON]);
  await openLesson(page, LESSON);
  await stepThenExplore(page);

  const wasm = engine.filter((e) => e.url.endsWith('/idemlab.wasm'));
  expect(wasm.length).toBeGreaterThan(0);
  expect(engine.some((e) => e.url.endsWith('/worker.js'))).toBe(true);
  for (const e of engine) {
    expect(e.headers['content-encoding'], e.url).toBe('br');
    expect(e.headers.vary, e.url).toMatch(/accept-encoding/i);
  }
  const onDisk = statSync(resolve(REPO, 'dist/engine/idemlab.wasm')).size;
  const sent = statSync(resolve(REPO, 'dist/engine/idemlab.wasm.br')).size;
  for (const e of wasm) {
    expect(e.headers['content-type']).toBe('application/wasm');
    // What crossed the wire is the brotli copy, well under half the engine's bytes.
    expect(e.sizes.responseBodySize).toBe(sent);
    expect(sent).toBeLessThan(onDisk / 2);
  }
});
