// Ships code mode's exercises (issue 34): copies each lessons/exercises/<id>.json into
// SITE/lessons/exercises/ and writes SITE/lessons/exercises/index.json, what the page's
// list of exercises reads (web/src/exercises.js):
//   {"exercises": [{"ok": true, "id", "level", "title", "file": "lessons/exercises/<id>.json",
//                   "after": the id of the lesson it follows, when it names one}
//                  | {"ok": false, "file", "errors": [{"reason"}]}, ...]}
// in the order of level, then file name. A file the page could not show is an entry naming
// its problem (printed here too), not a failed build, as the lesson index does. Only these
// files are read: the solutions (tests/exercises/) are test data and never shipped. The
// engine judges the exercise itself when it grades (its `grade` method).
// Usage: node scripts/lib/exercises.mjs SITE

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [site] = process.argv.slice(2);
if (!site) {
  console.error('usage: node scripts/lib/exercises.mjs SITE');
  process.exit(2);
}
const from = 'lessons/exercises';
const to = join(site, 'lessons/exercises');
mkdirSync(to, { recursive: true });
const isText = (v) => typeof v === 'string' && v.length > 0;
const isL10n = (v) => !!v && typeof v === 'object' && isText(v['zh-CN']) && isText(v.en);

/** Why the exercise in `name` cannot be listed, or null. */
function problem(ex, name) {
  if (!ex || typeof ex !== 'object' || Array.isArray(ex)) return 'not a JSON object';
  if (!/^[a-z0-9-]+$/.test(ex.id || '') || `${ex.id}.json` !== name) return `"id" must be the file's name without .json (${name})`;
  if (!Number.isInteger(ex.level) || ex.level < 1) return '"level" is not a whole number from 1';
  if (!isL10n(ex.title) || !isL10n(ex.task)) return '"title" and "task" must be text in zh-CN and en';
  if (typeof ex.skeleton !== 'string') return '"skeleton" is not text';
  if (!Array.isArray(ex.hints) || !ex.hints.every(isL10n)) return '"hints" is not a list of texts in zh-CN and en';
  if (!Number.isInteger(ex.faults) || ex.faults < 0) return '"faults" is not a whole number';
  if (!ex.scenario || typeof ex.scenario !== 'object') return '"scenario" is not an object';
  return null;
}

const names = existsSync(from) ? readdirSync(from).filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json')).sort() : [];
const entries = [];
for (const name of names) {
  const file = `lessons/exercises/${name}`;
  let ex = null;
  let why;
  try {
    ex = JSON.parse(readFileSync(join(from, name), 'utf8'));
    why = problem(ex, name);
  } catch (e) {
    why = `not JSON (${e.message})`;
  }
  if (why) {
    console.warn(`exercises: ${file}: ${why}`);
    entries.push({ ok: false, file, errors: [{ reason: why }], level: Infinity, name });
    continue;
  }
  copyFileSync(join(from, name), join(to, name));
  entries.push({ ok: true, id: ex.id, level: ex.level, title: ex.title, file, name, ...(typeof ex.after === 'string' && ex.after ? { after: ex.after } : {}) });
}
entries.sort((a, b) => a.level - b.level || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const index = entries.map(({ name: _n, ...e }) => (e.ok ? e : { ok: false, file: e.file, errors: e.errors }));
writeFileSync(join(to, 'index.json'), JSON.stringify({ exercises: index }));
console.log(`exercises: ${index.filter((e) => e.ok).length} shipped, ${index.filter((e) => !e.ok).length} with problems`);
