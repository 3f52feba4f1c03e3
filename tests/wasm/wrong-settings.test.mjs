// `run` of a bare scenario in the page's WebAssembly engine names the scenario's
// wrong-alone settings (engine/api/API.md, "wrong_settings"), as the sandbox reads them:
// the same shape and the same judgements as the native engine's doctests
// (tests/engine/reach_test.cpp). Run after scripts/build.
import assert from 'node:assert/strict';
import test from 'node:test';
import { loadEngine } from './engine-node.mjs';

const engine = await loadEngine();
const call = (method, input) => JSON.parse(engine.call(method, JSON.stringify(input)));
const script = [{ at: 0, do: 'deliver', intent: 'weekly-report', payload: 'p' }];

test('key_scope attempt: unreached with no fault, reached once the response of attempt 1 is lost', () => {
  const client = { key_scope: 'attempt', retry_layers: [{ layer: 'sdk', attempts: 3 }] };
  const clean = call('run', { scenario: { client, script } });
  assert.deepEqual(clean.wrong_settings, [{ composes: null, knob: 'client.key_scope', reached: false, value: 'attempt' }]);
  const lost = call('run', { scenario: { client, script, faults: [{ drop: 'response', intent: 'weekly-report', attempt: 1 }] } });
  assert.deepEqual(lost.wrong_settings.map((w) => [w.knob, w.reached]), [['client.key_scope', true]]);
});

test('two retry layers under one key: wrong alone, with the vocabulary\'s condition for why they compose', () => {
  const run = call('run', { scenario: { client: { retry_layers: [{ layer: 'sdk', attempts: 2 }, { layer: 'app', attempts: 2 }] }, script } });
  const vocab = call('vocabulary', {});
  const layers = vocab.knobs.find((k) => k.name === 'retry_layers');
  assert.equal(run.settings['client.retry_layers'], 'wrong');
  assert.deepEqual(run.wrong_settings, [{ composes: layers.composes, knob: 'client.retry_layers', reached: false, value: [{ attempts: 2, layer: 'sdk' }, { attempts: 2, layer: 'app' }] }]);
  assert.ok(layers.composes.en && layers.composes['zh-CN']);
});
