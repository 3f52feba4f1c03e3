// The native CLI as an author uses it: `check` names file, JSON path and reason, and
// refuses two files that share a lesson id; bad arguments get a message, not a crash.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'node:test';
import { REPO } from './engine-node.mjs';

function cli(...args) {
  const r = spawnSync(resolve(REPO, 'build/native/idemlab'), args, { cwd: REPO, encoding: 'utf8' });
  if (r.error) throw r.error;
  return r;
}

test('check passes the shipped lessons together', () => {
  const r = cli('check', 'lessons/lost-receipt.json', 'lessons/retry-duplicates.json');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /lessons\/lost-receipt\.json: ok \(lost-receipt\)/);
});

test('check refuses a second file with a lesson id already used', () => {
  const copy = join(mkdtempSync(join(tmpdir(), 'idemlab-')), 'copy.json');
  copyFileSync(resolve(REPO, 'lessons/lost-receipt.json'), copy);
  const r = cli('check', 'lessons/lost-receipt.json', copy);
  assert.equal(r.status, 1);
  assert.match(r.stderr, new RegExp(`${copy.replace(/[.]/g, '\\.')}: /id: lesson id 'lost-receipt' is used twice \\(also in lessons/lost-receipt\\.json\\)`));
});

test('index lists each lesson, names a broken file\'s problem and still writes the index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-'));
  const broken = join(dir, 'broken.json');
  const lesson = JSON.parse(readFileSync(resolve(REPO, 'lessons/lost-receipt.json'), 'utf8'));
  lesson.id = 'broken';
  delete lesson.summary['zh-CN'];
  writeFileSync(broken, JSON.stringify(lesson));
  const r = cli('index', 'lessons/lost-receipt.json', broken);
  assert.equal(r.status, 0, r.stderr);
  const index = JSON.parse(r.stdout);
  assert.deepEqual(index.lessons.map((e) => [e.file, e.ok]), [['lessons/lost-receipt.json', true], [broken, false]]);
  assert.match(r.stderr, new RegExp(`${broken.replace(/[.]/g, '\\.')}: /summary: missing language 'zh-CN'`));
});

test('compare names a lesson without a compare block', () => {
  const r = cli('compare', 'lessons/lost-receipt.json');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /lessons\/lost-receipt\.json: \/compare: /);
});

test('bad arguments are named', () => {
  const lang = cli('run', 'lessons/lost-receipt.json', '--lang', 'fr');
  assert.equal(lang.status, 2);
  assert.match(lang.stderr, /--lang is en or zh-CN, not 'fr'/);
  const runs = cli('bench', '--runs', 'abc');
  assert.equal(runs.status, 2);
  assert.match(runs.stderr, /--runs is a whole number/);
});
