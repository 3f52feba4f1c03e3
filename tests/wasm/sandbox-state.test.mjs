// The sandbox's scenario state (web/src/sandbox/state.js) as a learner meets it, with a
// stand-in engine: Undo after edits, an edit made while another is with the engine, a
// refused edit, and the address that holds the scenario.
import assert from 'node:assert/strict';
import test from 'node:test';
import { SandboxState, decodeState } from '../../web/src/sandbox/state.js';

// A stand-in for the engine's `run`: refuses a negative latency as the engine does (by
// path), otherwise a run of one step per script action, answered when `hold` lets it.
function engine() {
  const calls = [];
  let gate = null;
  const evaluate = async (state) => {
    calls.push(state);
    if (gate) await gate.promise;
    const latency = (state.s.timing || {}).latency_ms;
    if (latency !== undefined && latency < 0) return { errors: [{ path: '/scenario/timing/latency_ms', reason: 'must be at least 0' }] };
    const steps = [{ t: 0 }, ...(state.s.script || []).map((a) => ({ t: a.at }))];
    return { state, run: { steps }, pinRun: null, removed: [] };
  };
  const hold = () => {
    let release;
    gate = { promise: new Promise((r) => (release = r)) };
    return () => {
      gate = null;
      release();
    };
  };
  return { evaluate, calls, hold };
}

const firstState = { v: 1, s: { client: { max_attempts: 1 }, timing: { latency_ms: 10 }, script: [{ at: 0, op: 'pay' }], faults: [] } };

async function open(eng = engine()) {
  const first = await eng.evaluate(firstState);
  return { model: new SandboxState({ first, evaluate: eng.evaluate }), eng };
}

test('Undo after two edits gives back the scenario after the first; Redo the second', async () => {
  const { model } = await open();
  await model.setKnob('client', 'max_attempts', 3);
  await model.setKnob('timing', 'latency_ms', 50);
  assert.equal(model.canUndo(), true);
  await model.undo();
  assert.equal(model.state.s.client.max_attempts, 3);
  assert.equal(model.state.s.timing.latency_ms, 10);
  await model.undo();
  assert.deepEqual(model.state, firstState);
  assert.equal(model.canUndo(), false);
  await model.redo();
  await model.redo();
  assert.equal(model.state.s.timing.latency_ms, 50);
  assert.equal(model.canRedo(), false);
});

test('an edit made while another is with the engine waits its turn and is not lost', async () => {
  const { model, eng } = await open();
  const release = eng.hold();
  const events = [];
  model.subscribe((ev) => events.push(ev.type === 'busy' ? `busy:${ev.busy}` : ev.type));
  const first = model.setKnob('client', 'max_attempts', 3);
  const second = model.addAction({ at: 100, op: 'pay' });
  assert.equal(model.busy, true);
  release();
  assert.equal(await first, true);
  assert.equal(await second, true);
  // The second edit ran on the state the first left: both are in the scenario.
  assert.equal(model.state.s.client.max_attempts, 3);
  assert.equal(model.state.s.script.length, 2);
  assert.equal(model.run.steps.length, 3);
  assert.equal(model.busy, false);
  assert.equal(events.at(-1), 'busy:false');
  // Each is one step of Undo.
  await model.undo();
  assert.equal(model.state.s.script.length, 1);
  assert.equal(model.state.s.client.max_attempts, 3);
});

test('a refused edit leaves the scenario, its run and Undo as they were, and says why', async () => {
  const { model } = await open();
  await model.setKnob('client', 'max_attempts', 2);
  const before = { state: model.state, run: model.run, code: model.code };
  const refusals = [];
  model.subscribe((ev) => ev.type === 'refused' && refusals.push(ev.errors));
  assert.equal(await model.setKnob('timing', 'latency_ms', -5), false);
  assert.deepEqual(model.state, before.state);
  assert.equal(model.run, before.run);
  assert.equal(model.code, before.code);
  assert.equal(refusals.length, 1);
  assert.equal(model.editError[0].path, '/scenario/timing/latency_ms');
  await model.undo(); // the refused edit is no step of Undo: this undoes the accepted one
  assert.deepEqual(model.state, firstState);
  assert.equal(model.editError, null);
});

test('an engine that cannot answer refuses the edit instead of losing the scenario', async () => {
  const eng = engine();
  const { model } = await open(eng);
  model.evaluate = async () => {
    throw Object.assign(new Error('stopped'), { reason: 'the engine stopped' });
  };
  assert.equal(await model.setKnob('client', 'max_attempts', 4), false);
  assert.deepEqual(model.state, firstState);
  assert.equal(model.editError[0].reason, 'the engine stopped');
});

test('the address code holds the whole state: pinned A, faults and script come back', async () => {
  const { model } = await open();
  await model.pin();
  await model.setKnob('client', 'max_attempts', 5);
  await model.toggleFault({ drop: 'response', intent: 'i1' });
  const back = decodeState(model.code);
  assert.deepEqual(back.state, model.state);
  assert.equal(back.state.a.client.max_attempts, 1);
  assert.equal(back.state.s.client.max_attempts, 5);
  assert.deepEqual(back.state.s.faults, [{ drop: 'response', intent: 'i1' }]);
  // The same fault clicked again goes.
  await model.toggleFault({ drop: 'response', intent: 'i1' });
  assert.deepEqual(decodeState(model.code).state.s.faults, []);
});

test('removing a fault twice (a double click, the second waiting) does nothing the second time', async () => {
  const { model, eng } = await open();
  await model.toggleFault({ crash_service: 'after_commit', intent: 'i1' });
  const release = eng.hold();
  const a = model.removeFault({ crash_service: 'after_commit', intent: 'i1' });
  const b = model.removeFault({ crash_service: 'after_commit', intent: 'i1' });
  release();
  assert.equal(await a, true);
  assert.equal(await b, false);
  assert.deepEqual(model.state.s.faults, []);
  await model.undo();
  assert.equal(model.state.s.faults.length, 1);
});

test('code mode: switching to code (the engine fills it in) is one Undo step; a knob with its code is another', async () => {
  const { model } = await open();
  const before = JSON.parse(JSON.stringify(model.state));
  const presetOf = (st) => `-- max_attempts = ${st.s.client.max_attempts}`;
  const finish = async (next) => ({ ...next, s: { ...next.s, code: presetOf(next) } });
  // The script keeps what `keep` allows; the code is the engine's, not the placeholder.
  assert.equal(await model.setCode('-- placeholder', { keep: (a) => a.op !== 'pay', finish }), true);
  assert.equal(model.state.s.code, '-- max_attempts = 1');
  assert.deepEqual(model.state.s.script, []);
  // A knob in code mode: set and its code replaced, in one edit.
  await model.setKnob('client', 'max_attempts', 4, finish);
  assert.equal(model.state.s.code, '-- max_attempts = 4');
  await model.undo();
  assert.equal(model.state.s.code, '-- max_attempts = 1');
  assert.equal(model.state.s.client.max_attempts, 1);
  await model.undo();
  assert.deepEqual(model.state, before);
  // Back to the built-in client: the code goes, one edit; with no code, nothing to do.
  await model.redo();
  assert.equal(await model.setCode(null), true);
  assert.equal(model.state.s.code, undefined);
  assert.equal(await model.setCode(null), false);
});

test('code mode: an engine that cannot write the code refuses the switch; the state stays', async () => {
  const { model } = await open();
  const before = JSON.parse(JSON.stringify(model.state));
  const failing = async () => {
    throw new Error('the code engine did not load');
  };
  assert.equal(await model.setCode('-- placeholder', { finish: failing }), false);
  assert.deepEqual(model.state, before);
  assert.match(model.editError[0].reason, /did not load/);
  assert.equal(model.canUndo(), false);
});
