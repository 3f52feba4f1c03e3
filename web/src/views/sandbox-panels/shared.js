// What the sandbox's view and its panels (./*.js) share: fault identity, scenario
// places, number boxes, and running a state in the engine.

import { t } from '../../i18n.js';
import { outputErrors } from '../../engine.js';
import { codeCall } from '../../code-engine.js';

export const GROUPS = ['client', 'service', 'provider', 'timing'];
export const NO_HIDDEN = { sides: new Map(), truth: null };

// Pure helpers of the scenario's state (../../sandbox/state.js), named here as before.
export { faultKey, clone, actionIndex, withoutFaults } from '../../sandbox/state.js';
import { faultKey, clone } from '../../sandbox/state.js';

/**
 * Where in the scenario an engine problem is, as the sandbox's controls name it: a knob
 * ("timing.latency_ms"), a script action or a fault counted from 1, else the JSON path.
 */
export function placeOf(path) {
  const p = String(path || '').replace(/^\/scenario\/?/, '');
  if (!p) return '';
  // A knob, or a field of one of its entries: client.retry_layers[0].attempts.
  let m = /^(client|service|provider|timing)\/([a-z_]+)(?:\/(\d+)(?:\/([a-z_]+))?)?/.exec(p);
  if (m) return `${m[1]}.${m[2]}${m[3] === undefined ? '' : `[${m[3]}]`}${m[4] ? `.${m[4]}` : ''}`;
  m = /^script\/(\d+)(?:\/([a-z_]+))?/.exec(p);
  if (m) return t('sandbox.whereAction', { n: Number(m[1]) + 1, field: m[2] || '' }).trim();
  m = /^faults\/(\d+)(?:\/([a-z_]+))?/.exec(p);
  if (m) return t('sandbox.whereFault', { n: Number(m[1]) + 1, field: m[2] || '' }).trim();
  return p;
}

/** An engine problem with its place first, when it has one: "client.key_scope: unknown value ...". */
export const placed = (e) => (placeOf(e.path) ? `${placeOf(e.path)}: ` : '') + e.reason;

/**
 * A number box's value as typed, for the engine to judge (a fraction, 0 or a value past its
 * limit is refused by name, beside the box: never rounded or clamped here); undefined when an
 * `optional` box was emptied (the value is unset); null when there is nothing to ask: the
 * box is empty, or holds what the browser cannot read as a number (1e309), and `shown`, the
 * value in force, is put back.
 */
export function typedNumber(input, shown, optional = false) {
  const raw = input.value.trim();
  const unreadable = input.validity.badInput;
  if (raw === '' && optional && !unreadable) return undefined;
  if (raw !== '' && !unreadable) return Number(raw);
  input.value = shown === undefined || shown === null ? '' : String(shown);
  return null;
}

export const fmt = (n) => Number(n).toLocaleString('en-US');

/** Whether a scenario is in code mode: its client is the learner's code (`code`, Lua). */
export const hasCode = (scenario) => !!(scenario && typeof scenario.code === 'string' && scenario.code.length);

/**
 * The engine that answers for a scenario: the code engine (loaded on first use) for one in
 * code mode, the page's engine (`call`: main.js app.call) for any other.
 */
export const engineFor = (call, scenario) => (hasCode(scenario) ? codeCall : call);

/**
 * The built-in client's policy for a scenario's client knobs, as code: the code engine's
 * `preset` ({code, unexpressed}), or {errors}. Rejects when the code engine cannot answer.
 */
export async function presetOf(scenario) {
  const { code: _c, ...bare } = clone(scenario);
  const out = await codeCall('preset', { scenario: bare });
  const errors = outputErrors(out, 'scenario');
  if (errors) return { errors };
  if (!out || typeof out.code !== 'string') return { errors: [{ path: '', reason: 'preset gave no code' }] };
  return { code: out.code, unexpressed: Array.isArray(out.unexpressed) ? out.unexpressed : [] };
}

/**
 * Runs a state's scenario (and the pinned policy's) in the engine that answers for it
 * (engineFor): a promise of {state, run, pinRun, removed, preset} or {errors}; `preset`, in
 * code mode, is the knobs' own code and what it does not carry (presetOf), or null. Rejects
 * with an EngineError when the engine cannot answer.
 */
export async function evaluateState(call, state) {
  const next = clone(state);
  const pinned = next.a ? { ...clone(next.s), ...clone(next.a) } : null;
  const run = engineFor(call, next.s);
  // Both runs are asked at once: the worker answers them in order.
  const [out, outA] = await Promise.all([run('run', { scenario: next.s }), pinned ? engineFor(call, pinned)('run', { scenario: pinned }) : null]);
  const errors = outputErrors(out, 'scenario');
  if (errors) return { errors };
  // What the knobs' own code leaves out, said under the editor (an engine without
  // `preset` says nothing there).
  let preset = null;
  if (hasCode(next.s)) {
    const got = await presetOf(next.s).catch(() => null);
    preset = got && !got.errors ? got : null;
  }
  const removed = Array.isArray(out.unfired) ? out.unfired : [];
  if (removed.length) {
    const gone = new Set(removed.map((u) => faultKey(u.fault)));
    next.s.faults = (next.s.faults || []).filter((f) => !gone.has(faultKey(f)));
  }
  // A fault written without its intent (as lesson files may write it) takes the intent the
  // engine gave it, from the run's planned targets: the plan then names it as the targets do.
  const planned = (out.targets || []).filter((tg) => tg.planned);
  next.s.faults = (next.s.faults || []).map((f) => {
    if (f.intent) return f;
    const tg = planned.find((p) => faultKey({ ...f, intent: p.fault.intent }) === faultKey(p.fault));
    return tg ? { ...f, intent: tg.fault.intent } : f;
  });
  let pinRun = null;
  if (pinned) {
    const errA = outputErrors(outA, 'scenario A');
    pinRun = errA ? { errors: errA } : outA;
  }
  return { state: next, run: out, pinRun, removed, preset };
}
