// The knobs as presets (issue 34), in the modules the page loads: the page's engine (no Lua)
// writes a scenario's knobs as code, the code module writes the same text and runs it, and
// the run ends as the knobs' run ends in the page's engine. The sandbox's code mode rests on
// these three. (tests/engine/preset_test.cpp checks the preset over every schedule
// natively.) Run after scripts/build.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';
import { loadEngine, REPO } from './engine-node.mjs';

const code = await loadEngine(resolve(REPO, 'dist/engine'), 'idemlab-code');
const page = await loadEngine();
const lesson = (id) => JSON.parse(readFileSync(resolve(REPO, 'lessons', `${id}.json`), 'utf8'));
const call = (engine, method, input) => JSON.parse(engine.call(method, JSON.stringify(input)));

test('both modules write the same preset; the code module runs it to the knobs\' ending', () => {
  for (const id of ['01-lost-receipt', '05-stale-pending', '06-send-first']) {
    const scenario = { ...lesson(id).scenario };
    scenario.client = { ...scenario.client, late_reply: 'discard' };
    const preset = call(page, 'preset', { scenario });
    assert.equal(typeof preset.code, 'string', id);
    assert.deepEqual(preset.unexpressed, [], id);
    assert.equal(call(code, 'preset', { scenario }).code, preset.code, `${id}: the same text in both modules`);
    const knobs = call(page, 'run', { scenario });
    const coded = call(code, 'run', { scenario: { ...scenario, code: preset.code } });
    assert.ok(coded.ending, `${id}: ${JSON.stringify(coded).slice(0, 300)}`);
    assert.equal(coded.ending.key, knobs.ending.key, id);
    assert.deepEqual(coded.verdict.violations.map((v) => v.invariant), knobs.verdict.violations.map((v) => v.invariant), id);
  }
});

test('a knob the code cannot carry is named with its value; a bad knob is refused by path', () => {
  const scenario = lesson('09-retry-layers').scenario;
  const preset = call(page, 'preset', { scenario });
  assert.ok(preset.unexpressed.some((u) => u.knob === 'client.retry_layers' && u.value.includes('sdk')), JSON.stringify(preset.unexpressed));
  const bad = call(page, 'preset', { scenario: { client: { on_timeout: 'shrug' } } });
  assert.equal(bad.ok, false);
  assert.equal(bad.errors[0].path, '/scenario/client/on_timeout');
});
