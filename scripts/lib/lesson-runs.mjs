// Runs every lesson of the built site at build time, so the page opens a lesson without
// waiting for the engine (web/src/lessons.js): for each entry of SITE/lessons/index.json
// that is a working lesson, writes SITE/lessons/<name>.run.json (the engine's `run` output
// for the lesson file, exactly as `idemlab run FILE --json` prints it: the same bytes the
// page's WebAssembly engine answers), and lists them all in SITE/lessons/runs.json:
//   {"runs": {"lessons/<name>.json": {"file": "lessons/<name>.run.json",
//                                     "text_sha256": "<SHA-256 of the lesson file, hex>"}, ...}}
// (beside the index, which stays the engine's own output). The page uses a run only for a
// lesson text with exactly that hash; anything else is run by the engine in the page.
// It also names each run lesson's file on web/early.js's tag in SITE/index.html
// (data-lessons="ID=NAME;...", the file lessons/NAME.json, its run lessons/NAME.run.json), so
// that a lesson's address starts fetching both beside the index instead of after it.
// Usage: node scripts/lib/lesson-runs.mjs SITE IDEMLAB   (IDEMLAB: the native CLI)

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [site, cli] = process.argv.slice(2);
if (!site || !cli) {
  console.error('usage: node scripts/lib/lesson-runs.mjs SITE IDEMLAB');
  process.exit(2);
}
const indexPath = join(site, 'lessons/index.json');
const index = JSON.parse(readFileSync(indexPath, 'utf8'));
const runs = {};
for (const entry of index.lessons) {
  if (entry.ok !== true || !/^lessons\/[A-Za-z0-9][A-Za-z0-9._-]*\.json$/.test(entry.file)) continue;
  const bytes = readFileSync(join(site, entry.file));
  // Run from SITE with the path the page gives ("lessons/<name>.json"): the run names it.
  const got = spawnSync(resolve(cli), ['run', entry.file, '--json'], { cwd: site, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (got.status !== 0) {
    // The index says the lesson works: a run that fails is a bug, not a lesson problem.
    console.error(`lesson-runs: ${entry.file}: idemlab run failed (exit ${got.status}): ${got.stderr.trim()}`);
    process.exit(1);
  }
  const out = got.stdout.replace(/\n$/, '');
  const run = JSON.parse(out);
  if (run.error || run.ok === false || !Array.isArray(run.steps) || !run.lesson || run.lesson.id !== entry.id) {
    console.error(`lesson-runs: ${entry.file}: the run is not the lesson the index names`);
    process.exit(1);
  }
  const file = entry.file.replace(/\.json$/, '.run.json');
  writeFileSync(join(site, file), out);
  runs[entry.file] = { file, text_sha256: createHash('sha256').update(bytes).digest('hex') };
}
writeFileSync(join(site, 'lessons/runs.json'), JSON.stringify({ runs }));

// Only names early.js can take as they are (no character to escape in an attribute).
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const named = index.lessons
  .filter((e) => runs[e.file])
  .map((e) => [e.id, e.file.replace(/^lessons\/(.*)\.json$/, '$1')])
  .filter(([id, name]) => typeof id === 'string' && NAME.test(id) && NAME.test(name))
  .map(([id, name]) => `${id}=${name}`);
const htmlPath = join(site, 'index.html');
const html = readFileSync(htmlPath, 'utf8');
const earlyTag = '<script src="early.js" defer';
if (html.split(earlyTag).length !== 2) throw new Error(`lesson-runs: index.html: expected one ${earlyTag}`);
writeFileSync(htmlPath, html.replace(earlyTag, () => `${earlyTag} data-lessons="${named.join(';')}"`));
console.log(`lesson runs: ${Object.keys(runs).length} of ${index.lessons.length} lessons run at build time`);
