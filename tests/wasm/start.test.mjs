// `start` in the page's WebAssembly engine (engine/api/API.md): what the sandbox's start
// block draws for every shipped lesson, and the engine's judgement of the learner's
// scenario against it, as web/src/views/sandbox-panels/start.js asks. Run after scripts/build.
import assert from 'node:assert/strict';
import test from 'node:test';
import { readFileSync, readdirSync } from 'node:fs';
import { loadEngine } from './engine-node.mjs';

const engine = await loadEngine();
const call = (method, input) => JSON.parse(engine.call(method, JSON.stringify(input)));
const dir = new URL('../../lessons/', import.meta.url);
const shipped = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.includes('.schema.')).sort();
const lesson = (name) => ({ file: `lessons/${name}`, text: readFileSync(new URL(name, dir), 'utf8') });

test('every shipped lesson: its focus is its file\'s, and its right design, run as the sandbox runs it, breaks nothing', () => {
  for (const name of shipped) {
    const file = JSON.parse(lesson(name).text);
    const out = call('start', lesson(name));
    assert.deepEqual([...out.focus].sort(), [...(file.sandbox ? file.sandbox.focus : [])].sort(), name);
    assert.equal(out.experiments.length, file.sandbox && file.sandbox.experiments ? file.sandbox.experiments.length : 0, name);
    // The lesson's examples stay in the engine: a goal is shown, never how to reach it.
    for (const x of out.experiments) assert.deepEqual(Object.keys(x), ['goal'], name);
    const right = out.presets.find((p) => p.id === 'right');
    const scenario = { ...call('scenario', lesson(name)).scenario, ...right.knobs };
    const run = call('run', { scenario });
    assert.deepEqual(run.verdict.violations, [], `${name}: ${JSON.stringify(run.verdict.violations)}`);
  }
});

test('the learner\'s scenario: the preset in force, and an experiment reached only once the run does what it asks', () => {
  const scenario = call('scenario', lesson('01-lost-receipt.json')).scenario;
  const before = call('start', { ...lesson('01-lost-receipt.json'), attempt: scenario });
  assert.deepEqual(before.presets.map((p) => [p.id, p.current]), [['lesson', true], ['right', true]]);
  assert.deepEqual(before.experiments.map((x) => x.reached), [false, false, false]);
  // Persist after sending, and crash right after the send: the service holds a report the
  // client has no row for (the run's own verdict says so, and the goal is marked).
  const forgot = { ...scenario, client: { ...scenario.client, persist: 'after_send' }, faults: [{ crash_client: 'after_send', intent: 'weekly-report', attempt: 1, restart_after_ms: 50 }] };
  const run = call('run', { scenario: forgot });
  assert.ok(run.verdict.violations.some((v) => v.invariant === 'forgotten_intent'), JSON.stringify(run.verdict));
  const after = call('start', { ...lesson('01-lost-receipt.json'), attempt: forgot });
  assert.equal(after.experiments.filter((x) => x.reached).length, 1);
  assert.deepEqual(after.presets.map((p) => p.current), [false, false]);
  const bad = call('start', { ...lesson('01-lost-receipt.json'), attempt: { client: { persist: 'later' } } });
  assert.equal(bad.ok, false);
  assert.equal(bad.errors[0].path, '/attempt/client/persist');
});
