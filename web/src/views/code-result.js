// What code mode's Check says: the engine's `grade` answer, drawn (the page decides
// nothing). Passed: what was searched, in the engine's words. A code error: its kind, the
// engine's reason, "line L, column C" and a button that puts the caret there. A
// counterexample: the invariant it breaks, the plan in words, and its run (the engine's
// `run` of `counterexample.scenario`, which carries the code) drawn with the lesson's own
// diagram, panels and text timeline, opened at the step where the invariant breaks.

import { h, replaceChildren } from '../dom.js';
import { t, l, nameOf } from '../i18n.js';
import { outputErrors } from '../engine.js';
import { isOfflineCopy } from '../bundled.js';
import { markCodeSeen } from '../code-engine.js';
import { sandboxHash } from '../router.js';
import { encodeState } from '../sandbox/codec.js';
import { renderDiagram } from './diagram.js';
import { clientPanel, servicePanel, networkStrip, providerPanel } from './panels.js';
import { renderTimeline, stepLine } from './timeline.js';
import { stepButtons, enableStepButtons, STEP_KEYS } from './stepcontrols.js';

const fmt = (n) => Number(n).toLocaleString('en-US');

// The engine's error kinds, each with its catalogue key written out (a newer kind: "other").
const KINDS = {
  syntax: 'code.kind.syntax',
  runtime: 'code.kind.runtime',
  budget: 'code.kind.budget',
  memory: 'code.kind.memory',
  forbidden: 'code.kind.forbidden',
  too_long: 'code.kind.too_long',
  encoding: 'code.kind.encoding',
};

/** "line 3, column 7", "line 3", or null when the engine names no line (null, or 0: none). */
export function placeText(line, column) {
  if (!Number.isInteger(line) || line < 1) return null;
  return Number.isInteger(column) && column >= 1 ? t('code.lineColumn', { line, column }) : t('code.line', { line });
}

function passed(out) {
  return h(
    'div',
    { class: 'code-verdict', 'data-testid': 'code-pass' },
    h('p', { class: 'inv-ok code-verdict-head' }, '✓ ', t('code.passed')),
    h('p', { 'data-testid': 'code-text' }, l(out.text)),
    h('p', { class: 'muted small', 'data-testid': 'code-searched' }, t('code.searched', { n: fmt(out.schedules), k: out.faults })),
  );
}

/** A code error: kind, reason, where, and the way to that line (`goTo(line, column)`). */
function codeError(out, goTo) {
  const e = out.error;
  const where = placeText(e.line, e.column);
  return h(
    'div',
    { class: 'code-verdict', 'data-testid': 'code-error', 'data-kind': e.kind || '' },
    h('p', { class: 'inv-broken code-verdict-head' }, '⚠ ', t(Object.prototype.hasOwnProperty.call(KINDS, e.kind) ? KINDS[e.kind] : 'code.kind.other')),
    // The engine's own words, whatever the kind (a kind this page does not know included).
    h('p', { 'data-testid': 'code-error-reason' }, l(e.reason) || l(out.text) || String(e.kind || '')),
    where
      ? h(
          'p',
          null,
          h('span', { 'data-testid': 'code-error-where' }, where),
          ' ',
          h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'code-goto-line', onclick: () => goTo(e.line, e.column) }, t('code.goToLine', { line: e.line })),
        )
      : h('p', { class: 'muted small' }, t('code.noLine')),
    // The schedule the code failed in, when it needed one (a syntax error needs none).
    e.plan ? h('p', { class: 'muted small', 'data-testid': 'code-error-plan' }, t('code.when', { plan: l(e.plan) })) : null,
    out.text ? h('p', { class: 'muted small', 'data-testid': 'code-text' }, l(out.text)) : null,
  );
}

/** Not passed, with neither error nor counterexample (a search cut short): the engine's words. */
function notPassed(out) {
  return h('div', { class: 'code-verdict', 'data-testid': 'code-unsettled' }, h('p', { class: 'inv-unsettled code-verdict-head' }, '? ', t('code.notPassed')), h('p', { 'data-testid': 'code-text' }, l(out.text)));
}

/**
 * The grade's answer `out`, drawn. `goTo(line, column)`: caret to a line of the editor;
 * `call`: the code engine's call, for the counterexample's run.
 */
export function gradeResult(out, { goTo, call, exercise = null }) {
  if (out.error) return codeError(out, goTo);
  if (out.passed) return passed(out);
  if (!out.counterexample) return notPassed(out);
  const c = out.counterexample;
  const runSlot = h('div', { class: 'code-cex-run', 'data-testid': 'code-cex-run', 'aria-busy': 'true' }, h('p', { class: 'loading' }, t('code.runLoading')));
  const el = h(
    'div',
    { class: 'code-verdict', 'data-testid': 'code-cex' },
    h('p', { class: 'inv-broken code-verdict-head' }, '✗ ', c.invariant ? t('code.broken', { name: nameOf('invariantBroken', c.invariant) }) : t(c.requirement === 'delivered' ? 'code.notDelivered' : 'code.unfinished')),
    h('p', { 'data-testid': 'code-cex-reason' }, l(c.reason)),
    h('p', { 'data-testid': 'code-cex-plan' }, t('code.when', { plan: l(c.plan) })),
    out.text ? h('p', { class: 'muted small', 'data-testid': 'code-text' }, l(out.text)) : null,
    sandboxLink(c, exercise),
    runSlot,
  );
  showRun(runSlot, c, call);
  return el;
}

/**
 * "Open in the sandbox": the counterexample's scenario (with the learner's code) at the step
 * where it breaks; its back link returns to the exercise. The code is the learner's own:
 * counted as seen, so the sandbox runs it without its gate.
 */
function sandboxLink(c, exercise) {
  if (!c.scenario || typeof c.scenario !== 'object' || isOfflineCopy()) return null;
  const state = { v: 1, s: c.scenario };
  if (exercise) state.ex = exercise;
  if (typeof c.scenario.code === 'string') markCodeSeen(c.scenario.code);
  const step = Number.isInteger(c.step) && c.step >= 0 ? c.step : undefined;
  return h('p', null, h('a', { class: 'btn btn-small', href: sandboxHash(encodeState(state), step), 'data-testid': 'code-cex-sandbox' }, t('sbCode.openInSandbox')));
}

async function showRun(slot, c, call) {
  let run;
  try {
    run = await call('run', { scenario: c.scenario });
  } catch (e) {
    if (e && e.cancelled) return;
    replaceChildren(slot, h('p', { class: 'notice notice-warn', role: 'alert' }, t('code.runFailed'), ' ', h('span', { lang: 'en' }, (e && (e.reason || e.message)) || String(e))));
    slot.removeAttribute('aria-busy');
    return;
  }
  const errors = outputErrors(run, 'scenario');
  if (errors || !run || !Array.isArray(run.steps) || !run.steps.length) {
    replaceChildren(slot, h('p', { class: 'notice notice-warn', role: 'alert' }, t('code.runFailed'), ' ', h('span', { lang: 'en' }, errors ? errors.map((x) => x.reason).join('; ') : 'no steps')));
    slot.removeAttribute('aria-busy');
    return;
  }
  new CexRun(slot, run, Number.isInteger(c.step) ? c.step : run.steps.length - 1, !c.invariant && !!c.requirement);
}

/** A counterexample's run, stepped: diagram, each side's rows and the text timeline. */
class CexRun {
  /** `open`: the run breaks no invariant, it ends with the work still open (a requirement). */
  constructor(slot, run, step, open = false) {
    this.run = run;
    this.open = open;
    this.last = run.steps.length - 1;
    this.broken = Math.max(0, Math.min(this.last, step));
    this.step = -1;
    const el = (this.el = stepButtons(STEP_KEYS, { first: 'cex-first', prev: 'cex-prev', next: 'cex-next', last: 'cex-last' }, this, (n) => this.go(n)));
    el.label = h('p', { class: 'step-label', 'data-testid': 'cex-step-label', role: 'status' });
    el.toBroken = h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'cex-to-broken', onclick: () => this.go(this.broken) }, t(open ? 'code.toOpenEnd' : 'code.toBroken', { step: this.broken }));
    el.diagram = h('section', { class: 'card diagram-card', 'aria-labelledby': 'cex-diagram-h' }, h('h4', { id: 'cex-diagram-h', class: 'section-title' }, t('diagram.title')));
    el.panels = h('div', { class: 'panels' });
    el.timeline = h('section', { class: 'card timeline-card' });
    replaceChildren(
      slot,
      h('h4', { class: 'section-title', id: 'cex-run-h' }, t('code.runTitle')),
      h('p', { class: 'muted small' }, t(open ? 'code.runLeadOpen' : 'code.runLead', { step: this.broken })),
      h('div', { class: 'controls', role: 'group', 'aria-labelledby': 'cex-run-h', 'data-testid': 'cex-controls' }, h('div', { class: 'btn-row' }, el.first, el.prev, el.next, el.last, el.toBroken), el.label),
      el.diagram,
      el.panels,
      el.timeline,
    );
    slot.removeAttribute('aria-busy');
    slot.setAttribute('data-ready', 'true');
    this.go(this.broken);
  }

  go(n) {
    const i = Math.max(0, Math.min(this.last, n));
    if (i === this.step) return;
    this.step = i;
    const st = this.run.steps[i];
    const effect = st.provider && st.provider.effect;
    enableStepButtons(this.el, i, this.last);
    const stepOf = t('lesson.stepOf', { i, last: this.last });
    this.el.label.textContent = i === this.broken ? t('code.stepLabel', { step: stepOf, here: t(this.open ? 'code.openHere' : 'code.brokenHere'), line: stepLine(st) }) : `${stepOf}: ${stepLine(st)}`;
    this.el.label.setAttribute('data-step', String(i));
    renderDiagram(this.el.diagram, this.run, i, (k) => this.go(k), { label: t('code.runTitle') });
    replaceChildren(this.el.panels, clientPanel(st.client), networkStrip(st.network, this.run.messages, effect), servicePanel(st.service, effect), st.provider ? providerPanel(st.provider) : null);
    renderTimeline(this.el.timeline, this.run, i, (k) => this.go(k));
  }
}

/**
 * A check the engine could not answer (it did not load, stopped, or refused the input).
 * `reason`: the engine's words (English), or {text} already in the page's language.
 */
export function checkFailed(reason) {
  const said = reason && typeof reason === 'object' ? h('span', null, reason.text) : h('span', { lang: 'en' }, reason);
  return h('div', { class: 'notice notice-warn', role: 'alert', 'data-testid': 'code-check-failed' }, h('p', null, t('code.checkFailed'), ' ', said));
}

/**
 * The grade's answer when it is an input error of the engine's (not the code's): its
 * reasons (each `reason` a string, in the engine's words), or null. An answer with no
 * verdict at all: {text} in the page's language. A code error of any kind, one this page
 * does not name included, is the code's (gradeResult shows it with the engine's reason).
 */
export function inputErrors(out) {
  if (out && ((out.error && typeof out.error === 'object' && !out.error.kind) || out.ok === false)) return outputErrors(out, 'exercise').map((p) => ({ ...p, reason: l(p.reason) || String(p.reason) }));
  if (!out || typeof out !== 'object' || (typeof out.passed !== 'boolean' && !out.error)) return [{ text: t('code.noVerdict') }];
  return null;
}
