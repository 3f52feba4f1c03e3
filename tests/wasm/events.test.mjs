// The events table (engine/sim/events.hpp) as the page reads it: `vocabulary` lists every
// event kind with its mark, and each step of a run carries its kind's mark, which the
// diagram draws (web/src/views/diagram.js has no list of kinds). A fault the table gained
// late, a gateway's 502, is drawn and worded from the table too. Run after scripts/build.
import assert from 'node:assert/strict';
import test from 'node:test';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadEngine } from './engine-node.mjs';

const REPO = resolve(import.meta.dirname, '../..');
const engine = await loadEngine();
const call = (method, input) => JSON.parse(engine.call(method, JSON.stringify(input)));
const vocab = call('vocabulary', {});
const byName = new Map(vocab.events.map((e) => [e.name, e]));

test('vocabulary names every event kind once, each with a side and a hint in both languages', () => {
  assert.equal(byName.size, vocab.events.length);
  for (const e of vocab.events) {
    assert.ok(['client', 'service', 'network', 'provider', 'none'].includes(e.side), e.name);
    assert.ok(e.hint['zh-CN'] && e.hint.en, e.name);
    if (e.mark.label) assert.ok(e.mark.label['zh-CN'] && e.mark.label.en, `${e.name}: its label in both languages`);
  }
});

test('every step of every shipped lesson is of a listed kind and carries that kind\'s mark', () => {
  const dir = resolve(REPO, 'lessons');
  let marked = 0;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json') && !n.endsWith('.schema.json'))) {
    const run = call('run', { file: `lessons/${f}`, text: readFileSync(resolve(dir, f), 'utf8') });
    const credits = run.steps.some((s) => s.provider && s.provider.effect === 'credit');
    for (const s of run.steps) {
      const row = byName.get(s.event.kind);
      assert.ok(row, `${f}: step ${s.i} is a ${s.event.kind}, which vocabulary does not list`);
      const mark = s.event.mark ?? {};
      assert.equal(mark.shape, row.mark.shape, `${f}: step ${s.i}'s shape`);
      // A credit's words differ where the provider's effect is a credit; the rest is the row's.
      if (!credits) assert.deepEqual(mark, row.mark, `${f}: step ${s.i}'s mark`);
      if (mark.label) marked++;
    }
  }
  assert.ok(marked > 0, 'some step has a labelled mark');
});

test('a gateway\'s 502 hits a retry of a committed key; the step is drawn and worded from the table', () => {
  const scenario = {
    client: { retry_layers: [{ layer: 'sdk', attempts: 3 }] },
    script: [{ at: 0, do: 'deliver', intent: 'r', payload: 'p' }],
    faults: [{ drop: 'response', intent: 'r', attempt: 1 }, { service_error: 'gateway', intent: 'r', attempt: 2 }],
  };
  const run = call('run', { scenario });
  const gateway = run.steps.filter((s) => s.event.kind === 'gateway_error');
  assert.equal(gateway.length, 1);
  assert.equal(gateway[0].event.mark.label.en, byName.get('gateway_error').mark.label.en);
  // The service never saw attempt 2 (its receives: attempts 1 and 3), and the retry
  // after the 502 is replayed: one effect, delivered.
  const received = run.steps.filter((s) => s.event.kind === 'receive' && s.event.side === 'service');
  assert.deepEqual(received.map((s) => run.messages[s.event.message].attempt), [1, 3]);
  assert.deepEqual(run.ending.intents.map((i) => [i.status, i.effects]), [['DELIVERED', 1]]);
});
