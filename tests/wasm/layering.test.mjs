// The dependency order of docs/design.md ("The parts and their dependency order"), held
// to the code: the doc's tables are this test's input. Every `#include "engine/..."` in
// engine/ and every relative `import` in web/src/ must stay in its own tier or go down;
// a folder neither table lists fails (the doc cannot drift from the tree); an upward
// include is allowed only when "Known deviations" names its file and header, and an entry
// there whose include is gone fails too, so that the list empties itself.
// A node test rather than a doctest: it reads sources and a Markdown file, needs no
// build, and runs in scripts/test's wasm part beside the other checks of files.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'node:test';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DESIGN = 'docs/design.md';

// The lines of one section of the doc: from the heading `title` to the next heading.
function section(text, title) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^#{2,4} /.test(l) && l.replace(/^#+ /, '').trim() === title);
  assert.ok(start >= 0, `${DESIGN} has no section "${title}"`);
  const out = [];
  for (let i = start + 1; i < lines.length; i++) {
    if (/^#+ /.test(lines[i])) break;
    out.push({ line: i + 1, text: lines[i] });
  }
  return out;
}

// The rows of the first table in a section: `| tier | `a` `b` | what |` -> {tier, names}.
// Only backticked names in the second column count.
function tierTable(lines, title) {
  const rows = [];
  for (const { line, text } of lines) {
    const m = text.match(/^\|\s*(\d+)\s*\|([^|]*)\|/);
    if (!m) continue;
    const names = [...m[2].matchAll(/`([^`]+)`/g)].map((x) => x[1]);
    assert.ok(names.length > 0, `${DESIGN}:${line}: a row of "${title}" names no part`);
    rows.push({ tier: Number(m[1]), names, line });
  }
  assert.ok(rows.length > 0, `${DESIGN}: "${title}" has no tier table`);
  return rows;
}

// Files under dir (relative to the repository), recursively, that end in one of exts.
function files(dir, exts) {
  const out = [];
  for (const name of readdirSync(resolve(REPO, dir)).sort()) {
    const path = `${dir}/${name}`;
    if (statSync(resolve(REPO, path)).isDirectory()) out.push(...files(path, exts));
    else if (exts.some((e) => name.endsWith(e))) out.push(path);
  }
  return out;
}
const folders = (dir) =>
  readdirSync(resolve(REPO, dir)).filter((n) => statSync(resolve(REPO, dir, n)).isDirectory()).sort();

const design = readFileSync(resolve(REPO, DESIGN), 'utf8');

// ---- engine/ -------------------------------------------------------------------------

const ENGINE_TITLE = 'The parts and their dependency order';
const engineTiers = new Map();  // 'lesson/' -> 10
for (const row of tierTable(section(design, ENGINE_TITLE), ENGINE_TITLE)) {
  for (const name of row.names) {
    assert.match(name, /^[a-z0-9_]+\/$/, `${DESIGN}:${row.line}: "${name}" is not a part (a folder of engine/, as \`sim/\`)`);
    assert.ok(!engineTiers.has(name), `${DESIGN}:${row.line}: ${name} is listed twice`);
    engineTiers.set(name, row.tier);
  }
}

// "Known deviations": each entry is "- `FILE` -> `HEADER`, `HEADER`: why", FILE and
// HEADER relative to engine/. Any other bullet there is refused, so an entry cannot be
// written in a form this test does not read.
function deviations() {
  const allowed = [];
  for (const { line, text } of section(design, 'Known deviations')) {
    if (!/^- /.test(text)) continue;
    const m = text.match(/^- `([^`]+)` -> ((?:`[^`]+`(?:, )?)+):/);
    assert.ok(m, `${DESIGN}:${line}: a known deviation is written "- \`FILE\` -> \`HEADER\`, ...: why" (got: ${text})`);
    for (const h of m[2].matchAll(/`([^`]+)`/g)) allowed.push({ file: m[1], header: h[1], line });
  }
  return allowed;
}

// Every `#include "engine/..."` in engine/: file (relative to engine/), line, header.
function engineIncludes() {
  const out = [];
  for (const path of files('engine', ['.hpp', '.cpp', '.h', '.c'])) {
    const lines = readFileSync(resolve(REPO, path), 'utf8').split('\n');
    lines.forEach((text, i) => {
      const m = text.match(/^\s*#\s*include\s+"engine\/([^"]+)"/);
      if (m) out.push({ file: path.slice('engine/'.length), line: i + 1, header: m[1] });
    });
  }
  return out;
}
const partOf = (path) => `${path.split('/')[0]}/`;

test('the tier table lists every folder of engine/, and nothing that is not one', () => {
  const present = folders('engine').map((n) => `${n}/`);
  const unlisted = present.filter((p) => !engineTiers.has(p));
  assert.deepEqual(unlisted, [], `engine/ folders missing from ${DESIGN}'s tier table ("${ENGINE_TITLE}"): ${unlisted.join(', ')}`);
  const gone = [...engineTiers.keys()].filter((p) => !present.includes(p));
  assert.deepEqual(gone, [], `${DESIGN}'s tier table lists parts engine/ does not have: ${gone.join(', ')}`);
});

test('no engine include goes up a tier, except the known deviations', () => {
  const allowed = deviations();
  const isAllowed = (inc) => allowed.some((a) => a.file === inc.file && a.header === inc.header);
  const problems = [];
  for (const inc of engineIncludes()) {
    const from = partOf(inc.file), to = partOf(inc.header);
    const a = engineTiers.get(from), b = engineTiers.get(to);
    if (a === undefined || b === undefined) continue;  // the folder test names it
    if (b > a && !isAllowed(inc)) {
      problems.push(`engine/${inc.file}:${inc.line} includes engine/${inc.header}: ${to} (tier ${b}) is above ${from} (tier ${a})`);
    }
  }
  if (problems.length) assert.fail(`upward includes (move the code down, or list it under "Known deviations" in ${DESIGN} with why):\n${problems.join('\n')}`);
});

test('every known deviation is still an upward include (the list empties itself)', () => {
  const includes = engineIncludes();
  const problems = [];
  for (const a of deviations()) {
    const found = includes.some((inc) => inc.file === a.file && inc.header === a.header);
    if (!found) {
      problems.push(`${DESIGN}:${a.line}: engine/${a.file} no longer includes engine/${a.header}: remove it from "Known deviations"`);
      continue;
    }
    const from = engineTiers.get(partOf(a.file)), to = engineTiers.get(partOf(a.header));
    if (!(to > from)) {
      problems.push(`${DESIGN}:${a.line}: engine/${a.file} -> engine/${a.header} does not go up a tier (${from} -> ${to}): not a deviation`);
    }
  }
  if (problems.length) assert.fail(problems.join('\n'));
});

// ---- web/src/ ------------------------------------------------------------------------

const WEB_TITLE = "The page's modules";
// Entries: `web/src/main.js` (one file), `web/src/*.js` (the files directly in a folder),
// `web/src/views/` (every file directly in that folder). A file takes its most specific
// entry: its own name, else its folder's.
const webTiers = new Map();
for (const row of tierTable(section(design, WEB_TITLE), WEB_TITLE)) {
  for (const name of row.names) {
    assert.match(name, /^web\/src\/(?:[a-z0-9_.\-/]*\/|[a-z0-9_\-/]*\*\.[a-z]+|[a-z0-9_.\-/]+\.[a-z]+)$|^web\/src\/$/,
      `${DESIGN}:${row.line}: "${name}" is not a file, a folder/ or a folder/*.ext of web/src`);
    assert.ok(!webTiers.has(name), `${DESIGN}:${row.line}: ${name} is listed twice`);
    webTiers.set(name, row.tier);
  }
}
function webTier(path) {
  if (webTiers.has(path)) return { entry: path, tier: webTiers.get(path) };
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  const ext = path.slice(path.lastIndexOf('.'));
  for (const entry of [`${dir}*${ext}`, dir]) {
    if (webTiers.has(entry)) return { entry, tier: webTiers.get(entry) };
  }
  return undefined;
}

const webFiles = files('web/src', ['.js', '.mjs', '.json']);
// Every relative import (static, dynamic, re-export) of a module: line and resolved path.
function webImports(path) {
  const text = readFileSync(resolve(REPO, path), 'utf8');
  const out = [];
  const re = /(?:\bimport\s*\(\s*|\bfrom\s*|^\s*import\s*)(['"])(\.{1,2}\/[^'"]+)\1/gm;
  for (const m of text.matchAll(re)) {
    const line = text.slice(0, m.index).split('\n').length;
    const target = relative(REPO, join(dirname(resolve(REPO, path)), m[2]));
    out.push({ line, spec: m[2], target });
  }
  return out;
}

test("the page's module table places every file of web/src/", () => {
  const unplaced = webFiles.filter((f) => !webTier(f));
  assert.deepEqual(unplaced, [], `web/src files no row of "${WEB_TITLE}" in ${DESIGN} places: ${unplaced.join(', ')}`);
  const used = new Set(webFiles.map((f) => webTier(f).entry));
  const unused = [...webTiers.keys()].filter((e) => !used.has(e));
  assert.deepEqual(unused, [], `"${WEB_TITLE}" in ${DESIGN} lists entries no file of web/src matches: ${unused.join(', ')}`);
});

test('no import in web/src/ goes up a tier', () => {
  const problems = [];
  for (const path of webFiles.filter((f) => !f.endsWith('.json'))) {
    const from = webTier(path);
    for (const imp of webImports(path)) {
      const to = webTier(imp.target);
      if (!to) {
        problems.push(`${path}:${imp.line} imports ${imp.spec}, which no row of "${WEB_TITLE}" places`);
      } else if (from && to.tier > from.tier) {
        problems.push(`${path}:${imp.line} imports ${imp.target}: ${to.entry} (tier ${to.tier}) is above ${from.entry} (tier ${from.tier})`);
      }
    }
  }
  if (problems.length) assert.fail(`upward imports in the page:\n${problems.join('\n')}`);
});
