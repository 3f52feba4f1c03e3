// lessons/schema/lesson.schema.json lets an editor flag a lesson's mistakes while it is typed.
// It must agree with the engine's own structural checks (engine/lesson/parse.cpp):
// whatever the engine accepts the schema accepts, and each author's mistake below is
// refused by both, at the same JSON path. Run after scripts/build (it uses dist/engine).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import test from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import { loadEngine, REPO } from './engine-node.mjs';

const read = (file) => readFileSync(resolve(REPO, file), 'utf8');

// strictTypes would want "type": "object" beside every if/then; the other strict checks
// (unknown keywords, bad formats, ...) stay on.
const ajv = new Ajv2020({ allErrors: true, strictTypes: false });
const validate = ajv.compile(JSON.parse(read('lessons/schema/lesson.schema.json')));
const engine = await loadEngine();

// The schema's errors as JSON paths of the offending field: a missing or unknown field
// is named by its own path, as the engine names it.
function schemaErrors(lesson) {
  if (validate(lesson)) return [];
  return validate.errors.map((e) => {
    const field = e.params.missingProperty ?? e.params.additionalProperty;
    return field === undefined ? e.instancePath : `${e.instancePath}/${field}`;
  });
}

function engineErrors(lesson, file = 'lessons/test.json') {
  const out = JSON.parse(engine.call('check', JSON.stringify({ file, text: JSON.stringify(lesson) })));
  return out.ok ? [] : out.errors.map((e) => e.path);
}

const shipped = readdirSync(resolve(REPO, 'lessons'))
  .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
  .sort()
  .map((f) => `lessons/${f}`);

// The ```json block under "## A complete small lesson" in the authoring guide.
function readmeExample() {
  const readme = read('lessons/README.md');
  const section = readme.slice(readme.indexOf('## A complete small lesson'));
  const block = /```json\n([\s\S]*?)\n```/.exec(section);
  assert.ok(block, 'lessons/README.md has a ```json block under "A complete small lesson"');
  return JSON.parse(block[1]);
}

// The schema's knobs are the engine's knob table (engine/scenario/knobs.hpp), as the API's
// `vocabulary` gives it: the same names in each group, the same values in the same order,
// the same ranges, and the same default (the right setting), so an editor's completion
// and the engine never disagree.
test('the schema describes exactly the knobs of the engine\'s table, with their values, ranges and defaults', () => {
  const schema = JSON.parse(read('lessons/schema/lesson.schema.json'));
  const vocab = JSON.parse(engine.call('vocabulary', '{}'));
  const property = (p) => (p.$ref ? { ...schema.$defs[p.$ref.split('/').pop()], ...p } : p);
  for (const group of ['client', 'service', 'provider', 'timing']) {
    const props = schema.$defs.scenario.properties[group].properties;
    const knobs = vocab.knobs.filter((k) => k.group === group);
    assert.deepEqual(Object.keys(props).sort(), knobs.map((k) => k.name).sort(), `the knobs of ${group}`);
    for (const k of knobs) {
      const p = property(props[k.name]);
      const where = `${group}.${k.name}`;
      if (k.type === 'choice') assert.deepEqual(p.enum, k.values.map((v) => v.name), where);
      if (k.type === 'boolean') assert.equal(p.type, 'boolean', where);
      if (k.type === 'integer') assert.deepEqual([p.type, p.minimum, p.maximum], ['integer', k.min, k.max], where);
      if (k.type === 'layers') assert.deepEqual([p.type, p.maxItems], ['array', k.max_layers], where);
      if (k.type !== 'layers') assert.deepEqual(p.default, k.default ?? undefined, `${where}: the default`);
    }
  }
  // Injection points and actions: the same names as the engine's tables.
  const names = (field) => vocab.injection_points.filter((k) => field in k).map((k) => k[field]);
  assert.deepEqual(schema.$defs.message.enum, names('drop'));
  assert.deepEqual(schema.$defs.crashPoint.enum, names('crash_client'));
  assert.deepEqual(schema.$defs.serviceCrashPoint.enum, names('crash_service'));
  assert.deepEqual(schema.$defs.serviceErrorPoint.enum, names('service_error'));
  assert.deepEqual(schema.$defs.rowLossPoint.enum, names('lose_row'));
  // A moment's event is any row of the engine's events table.
  assert.deepEqual([...schema.$defs.momentAt.properties.event.enum].sort(), vocab.events.map((e) => e.name).sort());
  assert.deepEqual(schema.$defs.do.enum, vocab.actions.map((a) => a.name));
  // A challenge's goal is one of the engine's invariants.
  assert.deepEqual(schema.$defs.challenge.properties.goal.enum, vocab.invariants.map((i) => i.name));
  // A first experiment's goal is one of them, or an ending the engine judges (safe, survive).
  assert.deepEqual(schema.$defs.sandbox.properties.experiments.items.properties.reach.enum, ['safe', 'survive', ...vocab.invariants.map((i) => i.name)]);
  // So is the invariant an incident's report saw.
  assert.deepEqual(schema.$defs.incident.properties.reported.properties.violation.enum, vocab.invariants.map((i) => i.name));
});

test('there are lessons to validate', () => {
  assert.ok(shipped.length >= 2, `found ${shipped.join(', ')}`);
});

for (const file of shipped) {
  test(`${file} validates against the schema`, () => {
    const lesson = JSON.parse(read(file));
    assert.equal(lesson.$schema, './schema/lesson.schema.json');
    assert.deepEqual(schemaErrors(lesson), []);
    assert.deepEqual(engineErrors(lesson, file), []);
  });
}

test('the complete example in lessons/README.md validates against the schema', () => {
  const lesson = readmeExample();
  assert.deepEqual(schemaErrors(lesson), []);
  assert.deepEqual(engineErrors(lesson), []);
});

const clone = (x) => structuredClone(x);
// Without its sandbox block: its first experiments are about the lesson's own scenario,
// which the cases below change (the cases about the block add one of their own).
const base = () => {
  const lesson = JSON.parse(read('lessons/01-lost-receipt.json'));
  delete lesson.sandbox;
  return lesson;
};
const questionOf = (lesson, kind) => lesson.questions.find((q) => q.kind === kind);
// lost-receipt's choose question, and where it stands (the paths below name it).
const chooseOf = (lesson) => questionOf(lesson, 'choose');
const CQ = `/questions/${base().questions.findIndex((q) => q.kind === 'choose')}`;
// A side-by-side block (a shipped lesson's) added to a lesson; returns the block.
const addCompare = (lesson) => {
  lesson.compare = JSON.parse(read('lessons/02-retry-duplicates.json')).compare;
  return lesson.compare;
};
// An incident block (lessons/README.md, "Incidents") on a lesson with a compare block;
// returns the incident block.
const addIncident = (lesson) => {
  addCompare(lesson);
  lesson.incident = {
    source: 'example/example #1',
    url: 'https://github.com/example/example/issues/1',
    title: 'A retry made two',
    expected: { 'zh-CN': '一条', en: 'One' },
    seen: { 'zh-CN': '两条', en: 'Two' },
    fix: { 'zh-CN': '一个键', en: 'One key' },
    reported: { effects: 2 },
  };
  return lesson.incident;
};

// Optional fields and lenient spots of parse.cpp: the schema must not be stricter.
const accepted = {
  'every optional field at once': () => {
    const l = readmeExample();
    l.$schema = './schema/lesson.schema.json';
    l.scenario.seed = 2 ** 53;
    l.scenario.client.persist = 'before_send';
    l.scenario.client.recovery_scan = 'unknown_and_pending';
    l.scenario.client.max_attempts = 20;
    l.scenario.client.on_not_found = 'retry_lookup';
    l.scenario.service = { lookup: false, ordering: 'key_first', dedup: 'fingerprint', lookup_lag_ms: 0, retention_ms: 600000, processing_ms: 0 };
    // (A timeout up to 600000 ms is a valid knob value, but this lesson's run would then
    // wait past the 600 s horizon, and check refuses a lesson whose run does not settle.)
    l.scenario.timing = { latency_ms: 2, timeout_ms: 1000 };
    l.scenario.fault_space.client_crash_points = ['after_persist', 'before_record'];
    l.scenario.fault_space.service_crash_points = ['before_commit', 'between_writes', 'after_commit'];
    l.scenario.fault_space.restart_after_ms = 1;
    l.facts = [
      { fact: 'effect_exists' },
      { fact: 'key_registered' },
      { id: 'honest', fact: 'lookup_authoritative', intent: 'note' },
      { fact: 'retention_passed' },
      { id: 'arrived', fact: 'request_arrived', intent: 'note', attempt: 1 },
    ];
    l.questions[0].fact = 'arrived';
    // The table asks other cells than the knowledge question at the same moment: a cell
    // both asked would be given away by whichever is answered first (check refuses that).
    l.questions.push(
      { id: 'grid', kind: 'table', prompt: l.title, moments: ['timed_out'], sides: ['client', 'service'],
        facts: ['effect_exists', 'honest'] },
      { id: 'why', kind: 'concept', prompt: l.title, answer: 'a',
        options: [{ id: 'a', label: l.title }, { id: 'b', label: l.summary }], explanation: l.summary });
    l.self_check = [l.summary];
    return l;
  },
  'an incident block (its reported run, the first policy of the compare block, makes two effects)': () => {
    const l = base();
    addIncident(l);
    return l;
  },
  'a crash fault with its restart delay': () => {
    const l = base();
    // Attempt 1's response is lost, so this point is passed by the reply to lookup 1 (a
    // planned fault must fire in the lesson's own run, or check refuses the lesson).
    l.scenario.faults.push({ crash_client: 'before_record', intent: 'weekly-report', attempt: 1, restart_after_ms: 70 });
    return l;
  },
  'a service crash fault with its restart delay, and a moment at a separate key write': () => {
    const l = base();
    l.scenario.service = { ordering: 'effect_first' };
    // A second intent, later, takes the crash: the lesson's own run up to it is unchanged.
    l.scenario.script.push({ at: 400, do: 'deliver', intent: 'other', payload: 'another report' });
    l.scenario.faults.push({ crash_service: 'between_writes', intent: 'other', attempt: 1, restart_after_ms: 40 });
    l.moments[0].at = { event: 'register', side: 'service' };
    return l;
  },
  'a choose question naming its intent, with a payload where the action needs one': () => {
    const l = base();
    const q = chooseOf(l);
    q.intent = 'weekly-report';
    // Sending changed content under the same key is refused where the first request took
    // effect (CONFLICT, one effect) and takes effect where it was lost: the one safe option.
    q.options = q.options.filter((o) => o.do !== 'reconcile');
    q.options.push({ id: 'changed', label: l.title, do: 'resend_changed_payload', payload: 'Weekly report, version 2' });
    return l;
  },
  'the new actions in a script: resend under the same key, mark failed': () => {
    const l = readmeExample();
    l.scenario.script.push({ at: 400, do: 'resend_same_key', intent: 'note' }, { at: 500, do: 'mark_failed', intent: 'note' });
    return l;
  },
  'a layered retry budget with a deadline and backoff, a cancel, and the intent it makes': () => {
    const l = base();
    l.scenario.client = {
      key_scope: 'intent', deadline_ms: 600000, backoff_ms: 1,
      retry_layers: [{ layer: 'sdk', attempts: 3 }, { layer: 'app', attempts: 2 }, { layer: 'scheduler', attempts: 20 }],
    };
    l.scenario.script.push({ at: 400, do: 'cancel', intent: 'weekly-report' },
      { at: 500, do: 'reconcile', intent: 'weekly-report-cancel' });
    l.scenario.faults.push({ drop: 'request', intent: 'weekly-report-cancel' });
    l.facts = [{ fact: 'effect_exists' }, { fact: 'response_arrived' }, { fact: 'request_arrived' },
      { fact: 'client_has_receipt' }, { fact: 'intent_durable' },
      { id: 'cancel_effect', fact: 'effect_exists', intent: 'weekly-report-cancel' }];
    // The next-step question is about the lesson's own policy, not this one; so is the
    // question of what the client knows after reconciling (here the cancel's lookup leaves
    // it as unsure as the moment table's cells, and check would refuse the repeat).
    l.questions = l.questions.filter((q) => q.kind !== 'choose' && q.id !== 'client-knows-after-reconcile');
    return l;
  },
  'a compare block that replaces a service knob in one policy and a client knob in the other': () => {
    const l = base();
    const c = addCompare(l);
    delete c.narration;
    c.policies[0] = { id: 'no-lookup', label: l.title, service: { lookup: false } };
    c.policies[1] = { id: 'resend', label: l.summary, client: { recovery: 'resend', max_attempts: 20 } };
    return l;
  },
  'a day\'s retention, a compare policy that names no knob and one that unsets retention with null': () => {
    const l = base();
    l.scenario.service = { ...(l.scenario.service || {}), retention_ms: 86400000 };
    const c = addCompare(l);
    c.policies[0] = { id: 'as-written', label: l.title };
    c.policies[1] = { id: 'kept', label: l.summary, service: { retention_ms: null } };
    return l;
  },
  'the notification email: notify, the provider, its messages, the relay crash point and the email facts': () => {
    const l = base();
    l.scenario.service = { lookup: true, notify: 'outbox' };
    l.scenario.provider = { dedup: 'none' };
    // Without the provider's dedup, every option of the choose question may end with a
    // duplicated email (an invariant): no option is safe, so the question goes.
    l.questions = l.questions.filter((q) => q.kind !== 'choose');
    l.scenario.faults.push({ drop: 'email_ack', attempt: 1 });
    l.scenario.fault_space.service_crash_points = ['after_commit', 'after_email_send'];
    l.facts = ['effect_exists', 'effect_count', 'request_arrived', 'response_arrived', 'client_has_receipt', 'email_sent', 'email_count']
      .map((fact) => ({ fact }));
    l.moments.push({ id: 'accepted', at: { event: 'accept_email', side: 'provider', message: 'email_ack', attempt: 1 },
      label: l.title, narration: l.summary });
    const options = ['0', '1', '2', '3'].map((id) => ({ id, label: { 'zh-CN': id, en: id } }));
    l.questions.push(
      { id: 'emails', kind: 'predict', moment: 'after_timeout', ask: 'emails', options, prompt: l.title },
      { id: 'mail-known', kind: 'knowledge', moment: 'accepted', side: 'service', fact: 'email_sent', prompt: l.title });
    return l;
  },
  'a direct notification, and a crash right after an email is sent': () => {
    const l = base();
    l.scenario.service = { notify: 'direct' };
    l.scenario.script.push({ at: 400, do: 'deliver', intent: 'other', payload: 'another report' });
    l.scenario.faults.push({ crash_service: 'after_email_send', intent: 'other', attempt: 1, restart_after_ms: 30 });
    // A direct call can lose the email in every option's runs: no option is safe.
    l.questions = l.questions.filter((q) => q.kind !== 'choose');
    l.scenario.fault_space.service_crash_points = ['after_email_send'];
    l.moments.push({ id: 'notified', at: { event: 'notify', side: 'service', message: 'email' }, label: l.title, narration: l.summary });
    return l;
  },
  'reconcile names its intent, and a moment matches on every field': () => {
    const l = base();
    l.scenario.script.push({ at: 400, do: 'reconcile', intent: 'weekly-report' });
    l.moments[0].at = { event: 'commit', side: 'service', message: 'request', attempt: 1, intent: 'weekly-report', nth: 1 };
    return l;
  },
};

for (const [name, make] of Object.entries(accepted)) {
  test(`accepted by engine and schema: ${name}`, () => {
    const lesson = make();
    assert.deepEqual(engineErrors(lesson), [], 'the engine accepts it');
    assert.deepEqual(schemaErrors(lesson), [], 'the schema accepts it');
  });
}

// Mistakes an author makes, each with the JSON path both must name (the engine names a
// text with a missing language by the text's own path, given third).
const refused = {
  'the title has no "en"': ['/title/en', (l) => { delete l.title.en; }, '/title'],
  'a language tag the engine does not know': ['/summary/zh', (l) => { l.summary.zh = l.summary['zh-CN']; delete l.summary['zh-CN']; }],
  'an empty narration': ['/moments/0/narration/en', (l) => { l.moments[0].narration.en = ''; }],
  'an unknown script action': ['/scenario/script/1/do', (l) => { l.scenario.script[1].do = 'crash'; }],
  'a script action without its time': ['/scenario/script/1/at', (l) => { delete l.scenario.script[1].at; }],
  'deliver without a payload': ['/scenario/script/0/payload', (l) => { delete l.scenario.script[0].payload; }],
  'an unknown question kind': ['/questions/0/kind', (l) => { l.questions[0].kind = 'quiz'; }],
  'a knowledge question without its side': ['/questions/0/side', (l) => { delete questionOf(l, 'knowledge').side; }],
  'a field of another question kind': ['/questions/0/options', (l) => { l.questions[0].options = clone(questionOf(l, 'concept').options); }],
  'a predict question with one option': ['/questions/2/options', (l) => {
    const q = questionOf(l, 'predict');
    assert.equal(l.questions.indexOf(q), 2);
    q.options = q.options.slice(0, 1);
  }],
  'a choose option without its action': [`${CQ}/options/0/do`, (l) => { delete chooseOf(l).options[0].do; }],
  'deliver as a next action (the intent is already delivered)': [`${CQ}/options/1/do`, (l) => { chooseOf(l).options[1].do = 'deliver'; }],
  'a changed payload resent with no payload': [`${CQ}/options/2/payload`, (l) => { chooseOf(l).options[2].do = 'resend_changed_payload'; }],
  'a choose question without its moment': [`${CQ}/moment`, (l) => { delete chooseOf(l).moment; }],
  'an action on a predict option': ['/questions/2/options/0/do', (l) => { questionOf(l, 'predict').options[0].do = 'wait'; }],
  'an unknown ask': ['/questions/2/ask', (l) => { questionOf(l, 'predict').ask = 'receipts'; }],
  'an extra field in a moment': ['/moments/0/note', (l) => { l.moments[0].note = 'remember to explain this'; }],
  'an unknown event kind in a moment': ['/moments/0/at/event', (l) => { l.moments[0].at.event = 'committed'; }],
  'a status in lower case': ['/moments/0/at/status', (l) => { l.moments[0].at.status = 'unknown'; }],
  'an id with capitals and spaces': ['/id', (l) => { l.id = 'Lost Receipt'; }],
  'an unknown client knob value': ['/scenario/client/on_timeout', (l) => { l.scenario.client.on_timeout = 'retry'; }],
  'a knob value from another knob': ['/scenario/client/persist', (l) => { l.scenario.client.persist = 'after_persist'; }],
  'a latency below the minimum': ['/scenario/timing/latency_ms', (l) => { l.scenario.timing.latency_ms = 1; }],
  'max_attempts given as a string': ['/scenario/client/max_attempts', (l) => { l.scenario.client.max_attempts = '3'; }],
  'an unknown crash point': ['/scenario/fault_space/client_crash_points/0', (l) => { l.scenario.fault_space.client_crash_points = ['before_send']; }],
  'a fault that both drops and crashes': ['/scenario/faults/0', (l) => { l.scenario.faults[0].crash_client = 'after_send'; }],
  'an attempt on a fact that takes none': ['/facts/0/attempt', (l) => { l.facts = [{ fact: 'effect_exists', attempt: 1 }]; }],
  'an attempt on a service-contract fact': ['/facts/0/attempt', (l) => { l.facts = [{ fact: 'key_registered', attempt: 1 }]; }],
  'an unknown ordering': ['/scenario/service/ordering', (l) => { l.scenario.service.ordering = 'keys_first'; }],
  'an unknown dedup': ['/scenario/service/dedup', (l) => { l.scenario.service.dedup = 'payload'; }],
  'a negative lookup lag': ['/scenario/service/lookup_lag_ms', (l) => { l.scenario.service.lookup_lag_ms = -5; }],
  'a retention window of zero': ['/scenario/service/retention_ms', (l) => { l.scenario.service.retention_ms = 0; }],
  'a retention window of a year': ['/scenario/service/retention_ms', (l) => { l.scenario.service.retention_ms = 365 * 24 * 3600 * 1000; }],
  'a processing time given as a string': ['/scenario/service/processing_ms', (l) => { l.scenario.service.processing_ms = '20'; }],
  'a client knob under service': ['/scenario/service/on_not_found', (l) => { l.scenario.service.on_not_found = 'resend'; }],
  'an unknown on_not_found': ['/scenario/client/on_not_found', (l) => { l.scenario.client.on_not_found = 'give_up'; }],
  'an unknown service crash point': ['/scenario/faults/0/crash_service', (l) => { l.scenario.faults[0] = { crash_service: 'after_send' }; }],
  'a fault that crashes both sides': ['/scenario/faults/0', (l) => { l.scenario.faults[0] = { crash_client: 'after_send', crash_service: 'after_commit' }; }],
  'a service crash that never restarts': ['/scenario/faults/0/restart_after_ms', (l) => { l.scenario.faults[0] = { crash_service: 'after_commit', restart_after_ms: 0 }; }],
  'a client point among the service crash points': ['/scenario/fault_space/service_crash_points/0', (l) => { l.scenario.fault_space.service_crash_points = ['after_send']; }],
  'a top-level field misspelt': ['/self_checks', (l) => { l.self_checks = []; }],
  'max_attempts beside retry_layers': ['/scenario/client/max_attempts', (l) => {
    l.scenario.client.retry_layers = [{ layer: 'sdk', attempts: 3 }];
  }],
  'retry_after_ms beside retry_layers': ['/scenario/client/retry_after_ms', (l) => {
    delete l.scenario.client.max_attempts;
    l.scenario.client.retry_after_ms = 50;
    l.scenario.client.retry_layers = [{ layer: 'sdk', attempts: 3 }];
  }],
  'a retry layer that never runs': ['/scenario/client/retry_layers/0/attempts', (l) => {
    delete l.scenario.client.max_attempts;
    l.scenario.client.retry_layers = [{ layer: 'sdk', attempts: 0 }];
  }],
  'a retry layer without its name': ['/scenario/client/retry_layers/0/layer', (l) => {
    delete l.scenario.client.max_attempts;
    l.scenario.client.retry_layers = [{ attempts: 2 }];
  }],
  'no retry layer at all': ['/scenario/client/retry_layers', (l) => {
    delete l.scenario.client.max_attempts;
    l.scenario.client.retry_layers = [];
  }],
  'a deadline of zero': ['/scenario/client/deadline_ms', (l) => { l.scenario.client.deadline_ms = 0; }],
  'a backoff given as a string': ['/scenario/client/backoff_ms', (l) => { l.scenario.client.backoff_ms = '100'; }],
  'a cancel that names no intent': ['/scenario/script/1/intent', (l) => { l.scenario.script[1] = { at: 400, do: 'cancel' }; }],
  'an unknown knob in a compare policy': ['/compare/policies/1/client/key_scop', (l) => { addCompare(l).policies[1].client.key_scop = 'intent'; }],
  'an unknown value of a compare policy\'s knob': ['/compare/policies/0/client/on_timeout', (l) => { addCompare(l).policies[0].client.on_timeout = 'retry'; }],
  'a service knob of a compare policy given as a string': ['/compare/policies/1/service/lookup', (l) => { addCompare(l).policies[1].service = { lookup: 'yes' }; }],
  'a compare block with one policy': ['/compare/policies', (l) => { addCompare(l).policies.pop(); }],
  'a compare policy without its label': ['/compare/policies/0/label', (l) => { delete addCompare(l).policies[0].label; }],
  'a compare policy label without "en"': ['/compare/policies/1/label/en', (l) => { delete addCompare(l).policies[1].label.en; }, '/compare/policies/1/label'],
  'an unknown field in the compare block': ['/compare/colour', (l) => { addCompare(l).colour = 'red'; }],
  'an unknown action in a compare policy\'s own script': ['/compare/policies/1/script/0/do', (l) => {
    addCompare(l).policies[1].script = [{ at: 0, do: 'deliverr', intent: 'weekly-report', payload: 'x' }];
  }],
  'a compare policy\'s timing given as a string': ['/compare/policies/0/timing/timeout_ms', (l) => { addCompare(l).policies[0].timing = { timeout_ms: 'long' }; }],
  'an unknown notify': ['/scenario/service/notify', (l) => { l.scenario.service.notify = 'email'; }],
  'a provider dedup by fingerprint': ['/scenario/provider/dedup', (l) => { l.scenario.provider = { dedup: 'fingerprint' }; }],
  'a provider knob it does not have': ['/scenario/provider/retries', (l) => { l.scenario.provider = { retries: 2 }; }],
  'notify under the client': ['/scenario/client/notify', (l) => { l.scenario.client.notify = 'outbox'; }],
  'a relay crash point among the client crash points': ['/scenario/fault_space/client_crash_points/0', (l) => { l.scenario.fault_space.client_crash_points = ['after_email_send']; }],
  'an email ack misspelt in a drop': ['/scenario/faults/0/drop', (l) => { l.scenario.faults[0].drop = 'email_reply'; }],
  'an attempt on an email fact': ['/facts/0/attempt', (l) => { l.facts = [{ fact: 'email_count', attempt: 1 }]; }],
  'an unknown ask about mail': ['/questions/2/ask', (l) => { questionOf(l, 'predict').ask = 'mails'; }],
  'an unknown side in a moment': ['/moments/0/at/side', (l) => { l.moments[0].at.side = 'mailer'; }],
  'an unknown challenge goal': ['/challenge/goal', (l) => { l.challenge.goal = 'double_effect'; }],
  'a break challenge with four faults': ['/challenge/max_faults', (l) => { l.challenge.max_faults = 4; }],
  'a fix field in a break challenge': ['/challenge/knobs', (l) => { l.challenge.knobs = ['client.key_scope']; }],
  'a challenge without its prompt': ['/challenge/prompt', (l) => { delete l.challenge.prompt; }],
  'an unknown knob in a challenge policy': ['/challenge/policy/client/key_scop', (l) => { l.challenge.policy = { client: { key_scop: 'intent' } }; }],
  'a knob in the sandbox block\'s focus without its group': ['/sandbox/focus/0', (l) => { l.sandbox = { focus: ['key_scope'] }; }],
  'a first experiment with an unknown goal': ['/sandbox/experiments/0/reach', (l) => { l.sandbox = { focus: ['client.key_scope'], experiments: [{ goal: { 'zh-CN': '试试', en: 'Try' }, reach: 'double_effect', example: { client: { key_scope: 'attempt' } } }] }; }],
  'an incident linking to a plain http address': ['/incident/url', (l) => { addIncident(l).url = 'http://example.com/1'; }],
  'an incident that says nothing about what the report saw': ['/incident/reported', (l) => { addIncident(l).reported = {}; }],
  'an incident whose report broke an unknown invariant': ['/incident/reported/violation', (l) => { addIncident(l).reported = { violation: 'double_charge' }; }],
  'an incident whose report saw an unknown status': ['/incident/reported/status', (l) => { addIncident(l).reported = { status: 'LOST' }; }],
  'an incident without the team\'s fix': ['/incident/fix', (l) => { delete addIncident(l).fix; }],
};

for (const [name, [path, spoil, enginePath = path]] of Object.entries(refused)) {
  test(`refused by engine and schema at ${path}: ${name}`, () => {
    const lesson = base();
    spoil(lesson);
    assert.ok(engineErrors(lesson).includes(enginePath), `the engine names ${enginePath}: ${engineErrors(lesson)}`);
    assert.ok(schemaErrors(lesson).includes(path), `the schema names ${path}: ${schemaErrors(lesson)}`);
  });
}
