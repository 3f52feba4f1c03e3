// The sandbox (#/sandbox/<code>): a scenario of the learner's own. The same diagram,
// panels, knowledge grid, truth and text timeline as a lesson, beside a scenario panel
// whose controls come from the engine's knob table (`vocabulary`), the fault plan, the
// run's targets (every injection point it passed: one click adds or removes a fault
// there), the run's ending and verdicts, undo / redo, a pinned policy A against the
// edited B, the explorer (in the engine's Web Worker) and, for a lesson's challenge, the
// engine's check. The page decides nothing: every run, verdict and check is the engine's.

import { h, replaceChildren, rebuildKeepingFocus, afterNextPaint, measureNextFrame, handFocusNextFrame, stickyBar } from '../dom.js';
import { t, l, nameOf, worded } from '../i18n.js';
import { listHash, lessonHash, compareHash, replaceHashSoon, flushPendingHash, sandboxHash, shortText } from '../router.js';
import { encodeState } from '../sandbox/codec.js';
import { History } from '../sandbox/history.js';
import { outputErrors } from '../engine.js';
import { postChallengeChecked } from '../embed.js';
import { renderDiagram, targetAction } from './diagram.js';
import { clientPanel, servicePanel, networkStrip, providerPanel, statusPill } from './panels.js';
import { knowledgeGrid, truthSummary } from './knowledge.js';
import { renderTimeline, stepLine } from './timeline.js';
import { stepButtons, enableStepButtons, scrubber, focusWhenLaidOut, STEP_KEYS } from './stepcontrols.js';
import { stepKeyTarget } from '../keys.js';
import { linkNotices } from './notices.js';
import { unreachedNote, wrongAloneNotes } from './wrongalone.js';

const GROUPS = ['client', 'service', 'provider', 'timing'];
const NO_HIDDEN = { sides: new Map(), truth: null };

/** The same fault, whatever its restart delay: kind, point, intent, attempt. */
export function faultKey(f) {
  const kind = ['drop', 'crash_client', 'crash_service', 'service_error', 'connect_error'].find((k) => f[k]) || 'drop';
  return `${kind}:${f[kind]}:${f.intent || ''}:${f.attempt || 1}`;
}

const clone = (x) => JSON.parse(JSON.stringify(x));

/**
 * Where a script action drawn at row `index` is in `script` now (-1: gone). An action is
 * the same whatever its time (a time edit may be waiting ahead of this one); of several
 * alike, the one at the drawn row, else the nearest.
 */
function actionIndex(script, action, index) {
  const sameAs = (x) => JSON.stringify({ ...x, at: 0 }) === JSON.stringify({ ...action, at: 0 });
  let best = -1;
  (script || []).forEach((x, i) => {
    if (sameAs(x) && (best < 0 || Math.abs(i - index) < Math.abs(best - index))) best = i;
  });
  return best;
}
/**
 * Where in the scenario an engine problem is, as the sandbox's controls name it: a knob
 * ("timing.latency_ms"), a script action or a fault counted from 1, else the JSON path.
 */
function placeOf(path) {
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
const placed = (e) => (placeOf(e.path) ? `${placeOf(e.path)}: ` : '') + e.reason;

/**
 * A number box's value as typed, for the engine to judge (a fraction, 0 or a value past its
 * limit is refused by name, beside the box: never rounded or clamped here); undefined when an
 * `optional` box was emptied (the value is unset); null when there is nothing to ask: the
 * box is empty, or holds what the browser cannot read as a number (1e309), and `shown`, the
 * value in force, is put back.
 */
function typedNumber(input, shown, optional = false) {
  const raw = input.value.trim();
  const unreadable = input.validity.badInput;
  if (raw === '' && optional && !unreadable) return undefined;
  if (raw !== '' && !unreadable) return Number(raw);
  input.value = shown === undefined || shown === null ? '' : String(shown);
  return null;
}

/** A state without its fault plan (what an explore result depends on). */
const withoutFaults = (state) => JSON.stringify({ ...state.s, faults: [] }) + JSON.stringify(state.a || null);
const fmt = (n) => Number(n).toLocaleString('en-US');

/**
 * Runs a state's scenario (and the pinned policy's) in the engine (`call`: main.js
 * app.call): a promise of {state, run, pinRun, removed} or {errors}. Rejects with an
 * EngineError when the engine cannot answer.
 */
export async function evaluateState(call, state) {
  const next = clone(state);
  const pinned = next.a ? { ...clone(next.s), ...clone(next.a) } : null;
  // Both runs are asked at once: the worker answers them in order.
  const [out, outA] = await Promise.all([call('run', { scenario: next.s }), pinned ? call('run', { scenario: pinned }) : null]);
  const errors = outputErrors(out, 'scenario');
  if (errors) return { errors };
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
  return { state: next, run: out, pinRun, removed };
}

export class SandboxView {
  /**
   * first: the first state, evaluated (evaluateState); a state is {v: 1, s: scenario, from?:
   * lesson id, ch?: lesson id (a challenge), a?: the pinned policy {client, service,
   * provider}}; app: {call, engine, vocab, store, progress}; challenge: the lesson's
   * challenge view ({kind, prompt, ...}) and its rec.
   */
  constructor(root, { first, step, stepText = null, extra = null, app, challenge = null, notices = [], focus = false }) {
    this.kind = 'sandbox';
    this.root = root;
    this.app = app;
    this.vocab = app.vocab;
    this.challenge = challenge; // {rec, view}
    this.notices = [...notices];
    this.editError = null;
    this.explore = null; // {k, running, progress, result, error}
    this.exploreK = 2; // faults per schedule at most, as chosen in the explore card
    this.check = null; // the challenge's last check
    this.showTruth = app.progress.getPref('showTruth', true);
    this.step = -1;
    this.state = null;
    this.queue = Promise.resolve(); // edits, one after the other, each on the state before it
    this.asked = 0; // edits asked for
    this.done = 0; // edits answered
    this.accept(first, { record: false });
    this.history = loadUndo(this.code); // a reload of the tab finds the history it left
    this.notices.push(...linkNotices(this.linkNotice(step, stepText), extra));
    this.mount();
    this.go(step === null || step === undefined ? this.last : step, { force: true, fromLink: true });
    document.title = `${t('sandbox.title')} · idemlab`;
    if (focus) focusWhenLaidOut(this.root.querySelector('[data-testid="sandbox-title"]'));
    // A reload of the tab keeps the undo history, as the address keeps the state.
    this.onPageHide = () => saveUndo(this.code, this.history);
    window.addEventListener('pagehide', this.onPageHide);
  }

  // --- the engine ---------------------------------------------------------------------

  accept(result, { record = true } = {}) {
    if (record && this.state) this.history.push(this.state);
    this.state = result.state;
    this.run = result.run;
    this.pinRun = result.pinRun;
    this.last = this.run.steps.length - 1;
    this.removed = result.removed || [];
    this.code = encodeState(this.state);
  }

  /**
   * Queues a change of the state: `make()` gives the next state from the one in force when
   * its turn comes (null: nothing to do), the engine runs it, `then(result)` takes it in.
   * Only the latest edit's answer is drawn (an answer an edit made since supersedes is
   * taken in but not shown). Resolves to whether the state changed. While edits wait, the
   * view says it is busy (aria-busy).
   */
  enqueue(make, then) {
    const n = ++this.asked;
    this.markBusy();
    const turn = this.queue.then(async () => {
      if (this.destroyed) return false;
      let result = null; // null: nothing to do (what the edit changes is gone)
      try {
        const next = make();
        if (next) result = await evaluateState(this.app.call, next);
      } catch (e) {
        // The engine could not answer (it stopped: its notice offers a restart).
        result = { errors: [{ path: '', reason: e.reason || e.message || String(e) }] };
      }
      if (this.destroyed) return false;
      const latest = n === this.asked;
      const changed = result ? then(result, latest) : false;
      if (changed && !latest) this.undrawn = true;
      // The latest edit draws what the others took in, whether it changed anything or not
      // (a second Remove of one row finds nothing to do, but the first must be drawn).
      if (latest && this.undrawn && !changed) this.remount();
      if (latest) this.undrawn = false;
      return changed;
    });
    this.queue = turn.catch(() => false);
    return turn.finally(() => {
      this.done += 1;
      this.markBusy();
    });
  }

  markBusy() {
    const view = this.root.querySelector('[data-testid="sandbox-view"]');
    if (!view) return;
    const busy = this.done < this.asked || this.later.size;
    if (busy) view.setAttribute('aria-busy', 'true');
    else view.removeAttribute('aria-busy');
    const text = !busy ? '' : t(this.explore && this.explore.running ? 'sandbox.waitingExplore' : 'sandbox.waiting');
    if (this.el.waiting.textContent !== text) this.el.waiting.textContent = text;
  }

  /**
   * An edit: a new state from the current one. Refused edits leave everything as it was.
   * `change(state)` runs on the state in force when the edit's turn comes, which may be
   * newer than the one the control was drawn from (edits wait behind each other and behind
   * an explore): it finds what it changes by identity, never by a drawn row number, and
   * returns false when that is gone (nothing to do).
   */
  edit(change) {
    const nextOf = (st) => {
      const next = clone(st);
      return change(next) === false ? null : next;
    };
    if (this.explore && this.explore.running) {
      const next = nextOf(this.state);
      if (next) this.stopExploreIfScenarioChanges(next);
    }
    return this.enqueue(
      () => nextOf(this.state),
      (result, latest) => {
        if (result.errors) {
          this.editError = result.errors;
          if (latest) this.render();
          return false;
        }
        this.takeIn(result, latest);
        return true;
      },
    );
  }

  undo() {
    return this.restore('undo');
  }

  redo() {
    return this.restore('redo');
  }

  /** Undo or Redo: the state the history holds, taken in as an edit is but not recorded. */
  restore(which) {
    if (this.explore && this.explore.running) {
      const next = this.history.peek(which);
      if (next) this.stopExploreIfScenarioChanges(next);
    }
    return this.enqueue(
      () => this.history[which](this.state),
      (result, latest) => {
        if (result.errors) return false;
        this.takeIn(result, latest, { record: false });
        return true;
      },
    );
  }

  /**
   * A search under way is of the scenario before an edit, and the engine answers one call
   * at a time: an edit or Undo/Redo beyond the fault plan stops it (and says so) instead of
   * waiting for it and then showing, or dropping unsaid, a result of another scenario.
   */
  stopExploreIfScenarioChanges(next) {
    if (withoutFaults(next) !== withoutFaults(this.state)) this.stopExplore();
  }

  /** An answered edit, Undo or Redo becomes the state in force. */
  takeIn(result, latest, { record = true } = {}) {
    this.editError = null;
    const before = this.state;
    this.accept(result, { record });
    // The explorer ignores the scenario's own faults: its result still holds after a change
    // of the fault plan alone (loading a counterexample, placing a fault). After any other
    // change it is of another scenario and goes; a notice that a search was stopped stays.
    const ex = this.explore;
    if (ex && !ex.running && !ex.stale && withoutFaults(before) !== withoutFaults(this.state)) this.explore = null;
    this.check = null;
    if (latest) this.remount();
  }

  // --- edits --------------------------------------------------------------------------

  setKnob(group, name, value) {
    this.edit((st) => {
      st.s[group] = st.s[group] || {};
      if (value === undefined) delete st.s[group][name];
      else st.s[group][name] = value;
      // A scenario with retry layers takes its attempts from them: the reader refuses
      // max_attempts and retry_after_ms beside retry_layers (lessons/README.md).
      if (group === 'client' && name === 'retry_layers') {
        if (Array.isArray(value) && value.length) {
          delete st.s.client.max_attempts;
          delete st.s.client.retry_after_ms;
        } else {
          delete st.s.client.retry_layers;
        }
      }
    });
  }

  toggleTarget(target) {
    this.edit((st) => {
      const key = faultKey(target.fault);
      const faults = st.s.faults || [];
      if (faults.some((f) => faultKey(f) === key)) st.s.faults = faults.filter((f) => faultKey(f) !== key);
      else st.s.faults = [...faults, clone(target.fault)];
    });
  }

  /** Removes a planned fault (as drawn: found by faultKey, whatever its row by then). */
  removeFault(fault) {
    const key = faultKey(fault);
    this.edit((st) => {
      const faults = st.s.faults || [];
      if (!faults.some((f) => faultKey(f) === key)) return false;
      st.s.faults = faults.filter((f) => faultKey(f) !== key);
    });
  }

  /** The latest virtual time (ms) a script action or a restart may name: the engine's limit
   *  (`vocabulary` limits.max_virtual_ms, engine/scenario/limits.hpp). */
  maxMs() {
    return (this.vocab.limits || {}).max_virtual_ms;
  }

  /** A crash's restart delay (virtual ms), for the planned fault drawn (by faultKey). */
  setRestart(fault, ms) {
    const key = faultKey(fault);
    this.edit((st) => {
      const f = (st.s.faults || []).find((x) => faultKey(x) === key);
      if (!f) return false;
      f.restart_after_ms = ms;
    });
  }

  /** A script action's time (virtual ms); `action` and `index` as drawn (actionIndex). */
  setScriptAt(action, index, at) {
    this.edit((st) => {
      const i = actionIndex(st.s.script, action, index);
      if (i < 0) return false;
      st.s.script[i].at = at;
    });
  }

  removeAction(action, index) {
    this.edit((st) => {
      const i = actionIndex(st.s.script, action, index);
      if (i < 0) return false;
      st.s.script = st.s.script.filter((_, j) => j !== i);
    });
  }

  addAction(action) {
    this.edit((st) => {
      st.s.script = [...(st.s.script || []), action];
    });
  }

  pin() {
    this.edit((st) => {
      st.a = {};
      for (const g of ['client', 'service', 'provider']) if (st.s[g]) st.a[g] = clone(st.s[g]);
    });
  }

  unpin() {
    this.edit((st) => {
      delete st.a;
    });
  }

  // --- explore and check (the Web Worker) ---------------------------------------------

  async startExplore(k) {
    if (this.explore && this.explore.running) return; // the button says it is busy (aria-disabled)
    this.exploreK = k;
    this.explore = { k, running: true, progress: null, result: null, error: null };
    this.renderExplore();
    // The scenario the learner sees once the edits made before this click are answered.
    await this.queue;
    if (this.destroyed || !this.explore || !this.explore.running) return;
    const scenario = clone(this.state.s);
    const code = this.code;
    try {
      const out = await this.app.call('explore', { scenario, faults: k }, {
        cancellable: true,
        onProgress: (p) => {
          if (!this.explore || !this.explore.running) return;
          this.explore.progress = p;
          this.renderExploreProgress();
        },
      });
      if (!this.explore || this.code !== code) return; // the scenario changed meanwhile
      const errors = outputErrors(out, 'scenario');
      this.explore = { k, running: false, result: errors ? null : out, error: errors ? errors.map((e) => e.reason).join('; ') : null };
    } catch (e) {
      if (!this.explore) return;
      if (e.cancelled) return; // cancelExplore has said so
      this.explore = { k, running: false, result: null, error: e.reason || e.message };
    }
    this.renderExplore();
  }

  cancelExplore() {
    if (this.app.engine) this.app.engine.cancel();
    this.explore = { cancelled: true };
    this.renderExplore();
  }

  /** The scenario changed under a search: it is stopped, and the card says why. */
  stopExplore() {
    if (this.app.engine) this.app.engine.cancel();
    this.explore = { cancelled: true, stale: true };
    this.renderExplore();
  }

  async loadScenario(scenario) {
    const loaded = await this.edit((st) => {
      st.s = clone(scenario);
    });
    // The changed run is summed up at the top: take the learner there.
    if (loaded) {
      this.el.summary.focus({ preventScroll: true });
      this.el.summary.scrollIntoView({ block: 'nearest' });
    }
  }

  async checkChallenge() {
    if (this.check && this.check.running) return;
    const { rec } = this.challenge;
    this.check = { running: true };
    this.renderChallenge();
    await this.queue; // the attempt is the scenario once the edits before this click are answered
    if (this.destroyed) return;
    try {
      const out = await this.app.call('challenge', { file: rec.file, text: rec.text, attempt: clone(this.state.s) }, { cancellable: true });
      const errors = outputErrors(out, rec.file);
      if (errors) {
        this.check = { error: errors.map((e) => `${e.path ? e.path + ': ' : ''}${e.reason}`).join('; ') };
      } else {
        this.check = { result: out };
        const qid = 'challenge';
        this.app.progress.recordTry(rec.id, qid, this.code, { correct: !!out.solved, explanation: out.text });
        postChallengeChecked(rec.id, this.challenge.view.kind, !!out.solved, !!out.allowed);
      }
    } catch (e) {
      this.check = e.cancelled ? null : { error: e.reason || e.message };
    }
    this.renderChallenge();
  }

  // --- layout -------------------------------------------------------------------------

  mount() {
    this.knobViews = null;
    this.renderedScript = null;
    // The view is built in stages, each drawn in a frame of its own (stageIn): first what a
    // learner reads first (summary, plan, diagram), then each side's rows and the targets,
    // then the knowledge grid and the timeline, then the editors (knobs, script, explore).
    // Built at once, its ~1,900 elements took one ~80 ms task (CPU) to lay out. Until the
    // last stage the view is busy (aria-busy), as it is while the engine answers an edit.
    this.later = new Set(['sides', 'knowledge', 'editors']);
    const el = (this.el = stepButtons(STEP_KEYS, { first: 'first', prev: 'prev', next: 'next', last: 'last' }, this, (n) => this.go(n)));
    el.range = scrubber({ last: this.last, label: t('lesson.scrubber'), testid: 'scrubber', id: 'sb-scrubber', go: (n) => this.go(n) });
    el.stepLabel = h('p', { class: 'step-label', 'data-testid': 'step-label', 'aria-hidden': 'true' });
    el.undo = h('button', { type: 'button', class: 'btn', 'data-testid': 'sb-undo', onclick: () => this.undo() }, '↶ ', t('sandbox.undo'));
    el.redo = h('button', { type: 'button', class: 'btn', 'data-testid': 'sb-redo', onclick: () => this.redo() }, '↷ ', t('sandbox.redo'));
    el.copy = h('button', { type: 'button', class: 'btn', 'data-testid': 'sb-copy', onclick: () => this.copyLink() }, t('sandbox.copyLink'));
    el.copied = h('span', { class: 'muted small', role: 'status', 'data-testid': 'sb-copied' });
    // Shown (style.css) only while the view is busy for longer than a blink: an edit waiting
    // behind an explore can wait seconds.
    el.waiting = h('span', { class: 'sb-waiting muted small', 'data-testid': 'sb-waiting' });
    el.notices = h('div', { class: 'notices', 'data-testid': 'sb-notices' });
    el.challenge = h('div', { class: 'sb-challenge-slot' });
    el.summary = h('section', { class: 'card sb-summary', 'data-testid': 'sb-summary', 'aria-labelledby': 'sb-summary-h' , tabindex: '-1' });
    el.compare = h('div', { class: 'sb-compare-slot' });
    el.knobs = h('section', { class: 'card sb-knobs', 'data-testid': 'sb-knobs', 'aria-labelledby': 'sb-knobs-h' , tabindex: '-1' });
    el.script = h('section', { class: 'card sb-script', 'data-testid': 'sb-script', 'aria-labelledby': 'sb-script-h' , tabindex: '-1' });
    el.plan = h('section', { class: 'card sb-plan', 'data-testid': 'sb-plan', 'aria-labelledby': 'sb-plan-h', tabindex: '-1' });
    el.targets = h('section', { class: 'card sb-targets', 'data-testid': 'sb-targets', 'aria-labelledby': 'sb-targets-h' , tabindex: '-1' });
    el.explore = h('section', { class: 'card sb-explore', 'data-testid': 'sb-explore', 'aria-labelledby': 'sb-explore-h' , tabindex: '-1' });
    el.diagram = h('section', { class: 'card diagram-card', 'aria-labelledby': 'diagram-h' }, h('h3', { id: 'diagram-h', class: 'section-title' }, t('diagram.title')), h('p', { class: 'muted small' }, t('sandbox.diagramHint')));
    el.panels = h('div', { class: 'panels' });
    el.grid = h('div', { class: 'grid-slot' });
    el.truth = h('div', { class: 'truth-slot' });
    el.timeline = h('section', { class: 'card timeline-card' });
    el.live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'step-announce' });
    el.edited = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'sb-announce' });
    const truthToggle = h('input', {
      type: 'checkbox',
      id: 'sb-truth-toggle',
      class: 'switch',
      checked: !!this.showTruth,
      'data-testid': 'truth-toggle',
      onchange: (ev) => {
        this.showTruth = ev.target.checked;
        this.app.progress.setPref('showTruth', this.showTruth);
        this.renderStep();
      },
    });
    el.gridCard = h(
      'section',
      { class: 'card grid-card', 'aria-labelledby': 'grid-h' },
      h('div', { class: 'grid-card-head' }, h('h3', { id: 'grid-h', class: 'section-title' }, t('grid.title')), h('label', { class: 'switch-label', for: 'sb-truth-toggle' }, truthToggle, h('span', null, t('truth.toggle')))),
      el.grid,
      el.truth,
    );
    // Shown as their stage is built (stageIn).
    this.stageEls = { sides: [el.targets, el.panels], knowledge: [el.gridCard, el.timeline], editors: [el.knobs, el.script, el.explore] };
    for (const x of Object.values(this.stageEls).flat()) x.hidden = true;
    const back = this.state.from || this.state.ch;
    // Opened from a side-by-side view (via: 'compare'): back goes there, to its moment (at),
    // not to the lesson's steps.
    const backToCompare = !!(this.state.from && this.state.via === 'compare');
    replaceChildren(
      this.root,
      h(
        'section',
        { class: 'lesson-view sandbox-view', 'data-testid': 'sandbox-view' },
        h(
          'header',
          { class: 'lesson-head' },
          h(
            'a',
            { class: 'back-link', href: backToCompare ? compareHash(back, Number.isInteger(this.state.at) && this.state.at >= 0 ? this.state.at : null) : back ? lessonHash(back) : listHash(), 'data-testid': 'back' },
            backToCompare ? t('sandbox.backToCompare') : back ? t('sandbox.backToLesson') : t('nav.back'),
          ),
          h('div', { class: 'lesson-title-row' }, h('h2', { class: 'view-title', 'data-testid': 'sandbox-title', tabindex: '-1' }, t(this.challenge ? 'sandbox.challengeTitle' : 'sandbox.title'))),
          h('p', { class: 'lead' }, t('sandbox.lead')),
          h('div', { class: 'btn-row sb-actions', role: 'group', 'aria-label': t('sandbox.actions') }, el.undo, el.redo, el.copy, el.copied, el.waiting),
        ),
        el.notices,
        el.challenge,
        stickyBar(
          h(
            'div',
            { class: 'controls', role: 'group', 'aria-label': t('lesson.controls'), 'data-testid': 'controls', tabindex: '-1' },
            h('div', { class: 'btn-row' }, el.first, el.prev, el.next, el.last),
            h('div', { class: 'scrub' }, h('div', { class: 'scrub-track' }, el.range), el.stepLabel),
            h('p', { class: 'keys-hint muted' }, t('sandbox.keys')),
          ),
        ),
        h(
          'div',
          { class: 'lesson-body' },
          h('div', { class: 'col col-a' }, el.summary, el.compare, el.plan, el.targets, el.knobs, el.script, el.explore),
          h(
            'div',
            { class: 'col col-b' },
            el.diagram,
            el.panels,
            el.gridCard,
            el.timeline,
          ),
        ),
        el.live,
        el.edited,
      ),
    );
    this.el.controls = this.root.querySelector('[data-testid="controls"]');
    this.render();
    this.markBusy();
    this.stageIn();
  }

  /** Builds the stages mount() left for later, each after the frame that drew the one before. */
  stageIn() {
    const mounted = (this.mounted = {}); // a newer mount() starts its own stages
    const next = () => {
      if (this.destroyed || this.mounted !== mounted) return;
      const [stage] = this.later;
      this.later.delete(stage);
      for (const x of this.stageEls[stage]) x.hidden = false;
      if (stage === 'sides' && this.step >= 0) this.renderSides();
      if (stage === 'knowledge' && this.step >= 0) this.renderKnowledge();
      if (stage === 'editors') this.renderEditors();
      this.markBusy();
      if (this.later.size) afterNextPaint(next);
    };
    afterNextPaint(next);
  }

  /**
   * After an edit, each side's rows with the targets, then the knowledge grid with the
   * timeline, are drawn again each in a task of its own after the frame before, as when the
   * view opens: the task that takes in the engine's answer draws the summary, the plan and
   * the diagram (issue 12: no task over 50 ms). The view stays aria-busy until they are in.
   */
  redrawLater(stages) {
    const todo = stages.filter((x) => !this.later.has(x));
    if (!todo.length) return;
    for (const x of todo) this.later.add(x);
    const mounted = this.mounted;
    const next = () => {
      // Mounted again meanwhile (a language switch): its own stages draw everything.
      if (this.destroyed || this.mounted !== mounted) return;
      const stage = todo.shift();
      // Drawn meanwhile by the view's opening stages: nothing to do. A run taken in but not
      // drawn yet (an edit's answer that a later edit supersedes) may be shorter than the
      // step shown: the latest answer draws it all again.
      if (this.later.delete(stage) && !this.undrawn && this.step >= 0) {
        if (stage === 'sides') this.renderSides();
        else this.renderKnowledge();
      }
      this.markBusy();
      if (todo.length) afterNextPaint(next);
    };
    afterNextPaint(next);
  }

  /**
   * The step to show once the run in force is drawn: a learner at the end of the run drawn
   * (the scrubber still spans it) stays at the end; elsewhere, at the same step. The run in
   * force may be longer or shorter: an edit, or one answered but not drawn yet (another was
   * asked after it) before a language switch.
   */
  stepToKeep() {
    return this.step >= Number(this.el.range.max) ? this.last : Math.min(this.step, this.last);
  }

  /** After an edit: the run changed length; keep the learner near the step they looked at. */
  remount() {
    const active = document.activeElement;
    const hadFocus = this.root.contains(active);
    const section = hadFocus && active.closest ? active.closest('section.card') : null;
    const keep = this.stepToKeep();
    this.el.range.max = String(this.last);
    this.step = -1;
    this.redrawLater(['sides', 'knowledge']);
    this.render();
    this.go(keep, { force: true });
    this.el.edited.textContent = t('sandbox.recomputed', { text: l(this.run.ending.text) });
    // The control the learner used went away with the edit (a retry layer's field, redrawn;
    // a removed fault's button): the keyboard lands on the same control (data-fkey) when
    // the new run has it, else on its section or the fault plan, not on the top of the page. In the next frame: focus() lays the page out, as that
    // frame does anyway; here it added a whole layout (~30 ms) to this task.
    if (hadFocus && !this.root.contains(document.activeElement)) {
      const fkey = active.getAttribute('data-fkey');
      measureNextFrame('sandbox-refocus', () => () => {
        if (this.destroyed || this.root.contains(document.activeElement)) return; // focused meanwhile
        const again = fkey ? this.root.querySelector(`[data-fkey="${CSS.escape(fkey)}"]`) : null;
        const back = again || (section && section.isConnected ? section : this.el.plan);
        back.focus({ preventScroll: true });
      });
    }
  }

  render() {
    this.renderNotices();
    rebuildKeepingFocus(this.el.challenge, () => this.renderChallenge());
    this.renderSummary();
    rebuildKeepingFocus(this.el.compare, () => this.renderCompare());
    rebuildKeepingFocus(this.el.plan, () => this.renderPlan());
    if (!this.later.has('editors')) this.renderEditors();
    // The keyboard on Undo (or Redo) when it runs out moves to the other one, not to the
    // top of the page (a disabled button loses the focus).
    const on = document.activeElement;
    this.el.undo.disabled = !this.history.canUndo();
    this.el.redo.disabled = !this.history.canRedo();
    if (on === this.el.undo && this.el.undo.disabled && !this.el.redo.disabled) handFocusNextFrame('sandbox-undo', this.el.undo, this.el.redo);
    else if (on === this.el.redo && this.el.redo.disabled && !this.el.undo.disabled) handFocusNextFrame('sandbox-undo', this.el.redo, this.el.undo);
    if (this.step >= 0) this.renderStep();
  }

  /** The knobs, the script and the explorer. */
  renderEditors() {
    // The knob and script controls change only with the knobs and the script (a fault
    // added on the diagram leaves them as they are: not rebuilt, the focus stays put).
    if (!this.knobViews) this.renderKnobs();
    else this.refreshKnobs();
    const shape = this.scriptShape();
    if (shape !== this.renderedScript) {
      this.renderedScript = shape;
      rebuildKeepingFocus(this.el.script, () => this.renderScript());
    } else {
      this.refreshScript();
    }
    rebuildKeepingFocus(this.el.explore, () => this.renderExplore());
  }

  go(n, { force = false, fromLink = false } = {}) {
    const target = Math.max(0, Math.min(this.last, n));
    if (target === this.step && !force) return;
    // A notice about the step a link asked for is about the step it opened: gone on the next
    // move or edit (it would go on naming a step the run no longer shows).
    if (!fromLink && this.notices.some((x) => x.link)) {
      this.notices = this.notices.filter((x) => !x.link);
      this.renderNotices();
    }
    this.step = target;
    replaceHashSoon(sandboxHash(this.code, this.step));
    this.renderStep();
    this.el.live.textContent = t('announce.step', { i: this.step, line: stepLine(this.run.steps[this.step]) });
  }

  renderStep() {
    const i = this.step;
    const st = this.run.steps[i];
    this.el.range.value = String(i);
    this.el.range.setAttribute('aria-valuetext', `${t('lesson.stepOf', { i, last: this.last })}, t=${st.t}ms`);
    this.el.stepLabel.textContent = `${t('lesson.stepOf', { i, last: this.last })} · t=${st.t}ms`;
    enableStepButtons(this.el, i, this.last);
    renderDiagram(this.el.diagram, this.run, i, (n) => this.go(n), { targets: this.run.targets, onTarget: (tg) => this.toggleTarget(tg) });
    if (!this.later.has('sides')) this.renderSides();
    if (!this.later.has('knowledge')) this.renderKnowledge();
  }

  /** The step's rows of each side and the run's injection points as a list. */
  renderSides() {
    const st = this.run.steps[this.step];
    rebuildKeepingFocus(this.el.panels, () =>
      replaceChildren(this.el.panels, clientPanel(st.client), networkStrip(st.network, this.run.messages, st.provider && st.provider.effect), servicePanel(st.service, st.provider && st.provider.effect), st.provider ? providerPanel(st.provider) : null),
    );
    rebuildKeepingFocus(this.el.targets, () => this.renderTargets());
  }

  /** What each side knows at the step, the observer's truth and the text timeline. */
  renderKnowledge() {
    const i = this.step;
    const st = this.run.steps[i];
    rebuildKeepingFocus(this.el.grid, () => replaceChildren(this.el.grid, knowledgeGrid(this.run.lesson, st, NO_HIDDEN, this.showTruth, this.run.worlds)));
    if (!this.showTruth) replaceChildren(this.el.truth, h('p', { class: 'muted truth-note' }, t('truth.hiddenNote')));
    else replaceChildren(this.el.truth, h('h4', { class: 'truth-title' }, t('truth.title')), truthSummary(st));
    renderTimeline(this.el.timeline, this.run, i, (n) => this.go(n));
  }

  renderNotices() {
    const items = [...this.notices];
    for (const u of this.removed) items.push({ key: 'sandbox.unfired', params: { text: l(u.text) }, testid: 'sb-unfired' });
    replaceChildren(
      this.el.notices,
      this.editError
        ? h(
            'div',
            // A knob's refusal is also said beside its box (knobControl), as an alert: here it is
            // a status, so that a screen reader does not hear it twice.
            { class: 'notice notice-warn', role: this.editError.every((e) => /^(client|service|provider|timing)\./.test(placeOf(e.path))) ? 'status' : 'alert', 'data-testid': 'sb-edit-error' },
            h('p', null, t('sandbox.refused')),
            h('ul', null, this.editError.map((e) => h('li', null, h('strong', null, placeOf(e.path)), placeOf(e.path) ? ': ' : '', h('span', { lang: 'en' }, e.reason)))),
          )
        : null,
      items.map((n) => h('div', { class: 'notice notice-warn', role: 'status', 'data-testid': n.testid || 'notice' }, h('p', null, t(n.key, n.params)))),
    );
  }

  renderSummary() {
    const run = this.run;
    const verdict = run.verdict || { violations: [] };
    replaceChildren(
      this.el.summary,
      h('h3', { id: 'sb-summary-h', class: 'section-title' }, t('sandbox.summary')),
      h(
        'ul',
        { class: 'sb-ending', 'data-testid': 'sb-ending' },
        (run.ending.intents || []).map((e) =>
          h(
            'li',
            { 'data-intent': e.intent, 'data-status': e.status, 'data-effects': e.effects },
            h('code', null, e.intent),
            ' ',
            e.status === 'NONE' ? h('span', { class: 'muted' }, t('sandbox.noRow')) : statusPill(e.status),
            ' ',
            t(e.effects === 1 ? 'sandbox.effect' : 'sandbox.effects', { n: e.effects }),
            e.emails !== undefined ? ` · ${t(worded(e.emails === 1 ? 'sandbox.email' : 'sandbox.emails', run.ending.effect), { n: e.emails })}` : null,
          ),
        ),
      ),
      verdict.violations.length
        ? h('ul', { class: 'sb-verdict inv-list', 'data-testid': 'sb-verdict' }, verdict.violations.map((v) => h('li', { class: 'inv-broken', 'data-invariant': v.invariant }, '⚠ ', l(v.reason))))
        : h('p', { class: 'inv-ok', 'data-testid': 'sb-verdict' }, '✓ ', t('sandbox.noViolation')),
      verdict.stop && verdict.stop !== 'settled' ? h('p', { class: 'muted' }, l(verdict.stop_text)) : null,
      // Why nothing breaks: no fault of this run reaches a wrong-alone setting (not in a
      // challenge, where naming it would give the answer away).
      this.challenge ? null : unreachedNote(run, () => this.searchUnreached()),
    );
  }

  /** The unreached note's one click: the explorer, at the K chosen in its card, in view. */
  searchUnreached() {
    this.startExplore(this.exploreK);
    this.el.explore.focus({ preventScroll: true });
    this.el.explore.scrollIntoView({ block: 'nearest' });
  }

  renderCompare() {
    if (!this.state.a) {
      replaceChildren(
        this.el.compare,
        h('p', { class: 'sb-pin-row' }, h('button', { type: 'button', class: 'btn', 'data-testid': 'sb-pin', 'data-fkey': 'pin', onclick: () => this.pin() }, t('sandbox.pin')), ' ', h('span', { class: 'muted small' }, t('sandbox.pinHint'))),
      );
      return;
    }
    const column = (name, run, policy) => {
      if (!run || run.errors) {
        return h('div', { class: 'sb-col', 'data-testid': `sb-col-${name}` }, h('h4', null, name), h('p', { class: 'notice notice-warn' }, t('sandbox.pinRefused'), ' ', h('span', { lang: 'en' }, (run && run.errors ? run.errors : []).map(placed).join('; '))));
      }
      const changed = [];
      for (const g of ['client', 'service', 'provider']) {
        for (const [k, v] of Object.entries(policy[g] || {})) {
          const other = ((name === 'A' ? this.state.s : this.state.a)[g] || {})[k];
          if (JSON.stringify(other) !== JSON.stringify(v)) changed.push(h('code', { class: 'chip' }, `${g}.${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`));
        }
      }
      return h(
        'div',
        { class: 'sb-col', 'data-testid': `sb-col-${name}` },
        h('h4', null, name === 'A' ? t('sandbox.pinnedA') : t('sandbox.editedB')),
        changed.length ? h('p', { class: 'compare-knobs' }, changed) : h('p', { class: 'muted small' }, t('sandbox.samePolicy')),
        h('ul', { class: 'sb-ending' }, (run.ending.intents || []).map((e) => h('li', { 'data-intent': e.intent, 'data-effects': e.effects }, h('strong', { class: 'sb-count' }, String(e.effects)), ' ', t(e.effects === 1 ? 'sandbox.effectOf' : 'sandbox.effectsOf', { intent: e.intent }), ' · ', e.status === 'NONE' ? t('sandbox.noRow') : statusPill(e.status)))),
        run.verdict.violations.length ? h('ul', { class: 'inv-list' }, run.verdict.violations.map((v) => h('li', { class: 'inv-broken' }, '⚠ ', l(v.reason)))) : h('p', { class: 'inv-ok' }, '✓ ', t('sandbox.noViolation')),
        run.unfired && run.unfired.length ? h('p', { class: 'muted small' }, t('sandbox.unfiredIn', { text: run.unfired.map((u) => l(u.text)).join('; ') })) : null,
      );
    };
    replaceChildren(
      this.el.compare,
      h(
        'section',
        { class: 'card sb-compare', 'data-testid': 'sb-compare', 'aria-labelledby': 'sb-compare-h' },
        h('h3', { id: 'sb-compare-h', class: 'section-title' }, t('sandbox.compareTitle')),
        h('p', { class: 'muted small' }, t('sandbox.compareCaption', { faults: this.planText() })),
        h('div', { class: 'sb-cols' }, column('A', this.pinRun, this.state.a), column('B', this.run, this.state.s)),
        h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'sb-unpin', 'data-fkey': 'pin', onclick: () => this.unpin() }, t('sandbox.unpin')),
      ),
    );
  }

  planText() {
    const planned = (this.run.targets || []).filter((tg) => tg.planned);
    return planned.length ? planned.map((tg) => l(tg.text)).join('; ') : t('sandbox.noFault');
  }

  renderPlan() {
    const faults = this.state.s.faults || [];
    const byKey = new Map((this.run.targets || []).map((tg) => [faultKey(tg.fault), tg]));
    replaceChildren(
      this.el.plan,
      h('h3', { id: 'sb-plan-h', class: 'section-title' }, t('sandbox.plan')),
      faults.length === 0
        ? h('p', { class: 'muted', 'data-testid': 'sb-plan-empty' }, t('sandbox.planEmpty'))
        : h(
            'ol',
            { class: 'sb-plan-list', 'data-testid': 'sb-plan-list' },
            faults.map((f, i) => {
              const tg = byKey.get(faultKey(f));
              const crash = Boolean(f.crash_client || f.crash_service);
              return h(
                'li',
                { 'data-fault': faultKey(f) },
                h('span', null, tg ? l(tg.text) : faultKey(f), f.intent ? h('span', { class: 'muted' }, ` (${f.intent})`) : null),
                crash
                  ? h(
                      'label',
                      { class: 'sb-inline' },
                      t('sandbox.restartAfter'),
                      ' ',
                      h('input', { type: 'number', min: '1', max: this.maxMs(), step: '10', value: String(f.restart_after_ms ?? 50), class: 'sb-num', 'data-fkey': `restart-${faultKey(f)}`, 'aria-label': t('sandbox.restartOf', { text: tg ? l(tg.text) : faultKey(f) }), onchange: (ev) => { const ms = typedNumber(ev.target, f.restart_after_ms ?? 50); if (ms !== null) this.setRestart(f, ms); } }),
                      ' ms',
                    )
                  : null,
                ' ',
                h('button', { type: 'button', class: 'btn btn-small', 'data-fkey': `remove-${faultKey(f)}`, 'aria-label': t('sandbox.removeFault', { text: tg ? l(tg.text) : faultKey(f) }), onclick: () => this.removeFault(f) }, t('sandbox.remove')),
              );
            }),
          ),
    );
  }

  renderTargets() {
    const cur = this.step;
    const targets = this.run.targets || [];
    const side = (s) => nameOf('side', s);
    replaceChildren(
      this.el.targets,
      h('h3', { id: 'sb-targets-h', class: 'section-title' }, t('sandbox.targets')),
      h('p', { class: 'muted small' }, t('sandbox.targetsHint')),
      h(
        'ul',
        { class: 'sb-target-list', 'data-testid': 'sb-target-list' },
        targets.map((tg, i) =>
          h(
            'li',
            { class: [tg.step > cur + 1 && 'is-later'] },
            h(
              'button',
              {
                type: 'button',
                class: ['btn', 'btn-small', 'sb-target', tg.planned && 'is-planned'],
                'aria-pressed': tg.planned ? 'true' : 'false',
                // Several buttons share a name ("Crash here"): each is described by its point.
                'aria-describedby': `sb-target-${i}`,
                'data-target': tg.id,
                'data-fkey': `target-${tg.id}`,
                'data-testid': 'sb-target',
                onclick: () => this.toggleTarget(tg),
              },
              targetAction(tg),
            ),
            ' ',
            h('span', { id: `sb-target-${i}` }, h('span', null, l(tg.text)), h('span', { class: 'muted small' }, ` · ${side(tg.side)} · t=${tg.t}ms`)),
          ),
        ),
      ),
    );
  }

  /** What this challenge lets the learner change: 'faults' (break), 'knobs' (fix), or null (free play). */
  editable() {
    if (!this.challenge) return null;
    return this.challenge.view.kind === 'break' ? 'faults' : 'knobs';
  }

  /**
   * The knob controls, built once per mount; an edit updates them in place (a control the
   * learner is leaving with Tab must still be there for the focus to move on from it).
   */
  renderKnobs() {
    const mode = this.editable();
    const fix = mode === 'knobs' ? this.challenge.view : null;
    this.knobViews = [];
    const groups = GROUPS.map((g) => {
      const knobs = (this.vocab.knobs || []).filter((k) => k.group === g);
      if (!knobs.length) return null;
      return h(
        'fieldset',
        { class: 'sb-group', disabled: mode === 'faults' || null },
        h('legend', null, nameOf('knobGroup', g)),
        knobs.map((k) => {
          const view = this.knobControl(k);
          this.knobViews.push(view);
          return view.el;
        }),
      );
    });
    const allowed = fix && Array.isArray(fix.knobs) ? fix.knobs : null;
    replaceChildren(
      this.el.knobs,
      h('h3', { id: 'sb-knobs-h', class: 'section-title' }, t('sandbox.scenario')),
      mode === 'faults' ? h('p', { class: 'muted small' }, t('sandbox.lockedBreak')) : null,
      allowed ? h('p', { class: 'muted small', 'data-testid': 'sb-allowed-knobs' }, t('sandbox.allowedKnobs', { knobs: allowed.join(', ') })) : null,
      // In a fix-it challenge the table's judgement of each value would give the answer away.
      fix ? null : h('p', { class: 'muted small' }, t('sandbox.settingLegend')),
      groups,
    );
  }

  refreshKnobs() {
    for (const view of this.knobViews || []) view.update();
  }

  knobControl(k) {
    // A fix-it challenge names the knobs it lets the learner change: the others stay put.
    const mode = this.editable();
    const fix = mode === 'knobs' ? this.challenge.view : null;
    const fixed = fix && Array.isArray(fix.knobs) && !fix.knobs.includes(`${k.group}.${k.name}`);
    const id = `knob-${k.group}-${k.name}`;
    const current = () => {
      const group = this.state.s[k.group] || {};
      return Object.prototype.hasOwnProperty.call(group, k.name) ? group[k.name] : k.default;
    };
    const badge = h('span', { class: 'badge', 'data-testid': 'knob-setting', hidden: true });
    const label = h('label', { for: id, class: 'sb-knob-name' }, h('code', null, k.name));
    const meaning = h('p', { class: 'muted small sb-knob-meaning', id: `${id}-m` }, l(k.meaning));
    const valueMeaning = h('p', { class: 'small sb-value-meaning', id: `${id}-v` });
    // A value the engine refused, said beside the control (the page's notice is far above).
    const refused = h('p', { class: 'small sb-knob-refused', role: 'alert', 'data-testid': 'sb-knob-refused', hidden: true });
    let control;
    let show; // puts the current value into the control
    if (k.type === 'choice' || k.type === 'boolean') {
      control = h(
        'select',
        { id, 'data-fkey': id, 'aria-describedby': `${id}-v ${id}-m`, 'data-knob': `${k.group}.${k.name}`, onchange: (ev) => this.setKnob(k.group, k.name, k.type === 'boolean' ? ev.target.value === 'true' : ev.target.value) },
        (k.values || []).map((v) => h('option', { value: v.name, title: l(v.meaning) }, v.name)),
      );
      show = (value) => {
        control.value = String(value);
        const v = (k.values || []).find((x) => x.name === String(value));
        valueMeaning.textContent = v ? l(v.meaning) : '';
      };
    } else if (k.type === 'integer') {
      const input = h('input', {
        id,
        'data-fkey': id,
        type: 'number',
        class: 'sb-num',
        min: String(k.min),
        max: String(k.max),
        step: '1',
        placeholder: k.optional ? t('sandbox.unset') : '',
        'aria-describedby': `${id}-m`,
        'data-knob': `${k.group}.${k.name}`,
        onchange: (ev) => {
          // As typed (a fraction or a value out of range is refused by the engine, by name);
          // emptied, an optional knob is unset; otherwise the value still in force is shown.
          const v = typedNumber(ev.target, null, k.optional);
          if (v === null) this.refreshKnobs();
          else this.setKnob(k.group, k.name, v);
        },
      });
      const unsetBtn = k.optional ? h('button', { type: 'button', class: 'btn btn-small', 'data-fkey': `${id}-unset`, onclick: () => this.setKnob(k.group, k.name, undefined) }, t('sandbox.unsetIt')) : null;
      control = h('span', { class: 'sb-inline' }, input, k.unit ? ` ${k.unit}` : null, unsetBtn);
      show = (value) => {
        const unset = value === null || value === undefined;
        const text = unset ? '' : String(value);
        if (input.value !== text) input.value = text;
        if (unsetBtn) unsetBtn.hidden = unset;
      };
    } else if (k.type === 'layers') {
      control = h('div', { class: 'sb-layers', 'data-knob': `${k.group}.${k.name}` });
      let shown = null;
      show = (value) => {
        const layers = Array.isArray(value) ? value : [];
        const text = JSON.stringify(layers);
        if (text === shown) return;
        shown = text;
        // Layer i with `field` set to `v`, or left out (its default) when v is undefined.
        // Each edit redraws the rows from the value then in force: a refused one (a fraction,
        // 0) shows the layers as they still are, not what was typed.
        const setLayer = (i, field, v) => {
          shown = null;
          this.setKnob(k.group, k.name, layers.map((x, j) => {
            if (j !== i) return x;
            const rest = { ...x };
            delete rest[field];
            return v === undefined ? rest : { ...rest, [field]: v };
          }));
        };
        rebuildKeepingFocus(control, () =>
          replaceChildren(
            control,
            layers.map((ly, i) =>
              h(
                'span',
                { class: 'sb-inline sb-layer' },
                h('code', null, ly.layer),
                ' × ',
                h('input', {
                  type: 'number',
                  class: 'sb-num',
                  min: '1',
                  max: String(k.max_attempts || 20),
                  value: String(ly.attempts),
                  disabled: fixed || null,
                  'aria-label': t('sandbox.layerAttempts', { layer: ly.layer }),
                  'data-fkey': `${id}-layer-${i}`,
                  onchange: (ev) => {
                    const n = typedNumber(ev.target, ly.attempts);
                    if (n !== null) setLayer(i, 'attempts', n);
                  },
                }),
                h(
                  'label',
                  { class: 'sb-inline', title: t('sandbox.layerOwnKeyOf', { layer: ly.layer }) },
                  h('input', {
                    type: 'checkbox',
                    checked: ly.key === 'per_call',
                    disabled: fixed || null,
                    'aria-label': t('sandbox.layerOwnKeyOf', { layer: ly.layer }),
                    'data-fkey': `${id}-key-${i}`,
                    onchange: (ev) => setLayer(i, 'key', ev.target.checked ? 'per_call' : undefined),
                  }),
                  ' ',
                  t('sandbox.layerOwnKey'),
                ),
                ' ',
                // Its own timeout for one call (empty: none; it waits as long as what is inside it).
                h(
                  'label',
                  { class: 'sb-inline' },
                  t('sandbox.layerTimeout'),
                  ' ',
                  h('input', {
                    type: 'number',
                    class: 'sb-num',
                    min: '1',
                    max: String(k.max_timeout_ms),
                    value: ly.timeout_ms === undefined ? '' : String(ly.timeout_ms),
                    placeholder: t('sandbox.layerNoTimeout'),
                    disabled: fixed || null,
                    'aria-label': t('sandbox.layerTimeoutOf', { layer: ly.layer }),
                    'data-fkey': `${id}-timeout-${i}`,
                    onchange: (ev) => {
                      // Emptied: no timeout of its own. Otherwise as typed (the engine refuses a fraction or 0).
                      const ms = typedNumber(ev.target, ly.timeout_ms, true);
                      if (ms !== null) setLayer(i, 'timeout_ms', ms);
                    },
                  }),
                  ' ms',
                ),
                ' ',
                // Which errors it retries (the engine's list): all when none is unticked.
                h(
                  'span',
                  { class: 'sb-inline sb-retry-on', role: 'group', 'aria-label': t('sandbox.layerRetriesOf', { layer: ly.layer }) },
                  t('sandbox.layerRetries'),
                  (k.retry_on || []).map((kind) =>
                    h(
                      'label',
                      { class: 'sb-inline' },
                      h('input', {
                        type: 'checkbox',
                        checked: !Array.isArray(ly.retry_on) || ly.retry_on.includes(kind),
                        disabled: fixed || null,
                        'aria-label': t('sandbox.layerRetriesKind', { layer: ly.layer, kind }),
                        'data-fkey': `${id}-retry-${i}-${kind}`,
                        onchange: (ev) => {
                          const was = Array.isArray(ly.retry_on) ? ly.retry_on : k.retry_on;
                          const now = k.retry_on.filter((n) => (n === kind ? ev.target.checked : was.includes(n)));
                          setLayer(i, 'retry_on', now.length === k.retry_on.length ? undefined : now);
                        },
                      }),
                      ' ',
                      kind,
                    ),
                  ),
                ),
                ' ',
                h('button', { type: 'button', class: 'btn btn-small', disabled: fixed || null, 'data-fkey': `${id}-rm-${i}`, 'aria-label': t('sandbox.removeLayer', { layer: ly.layer }), onclick: () => this.setKnob(k.group, k.name, layers.filter((_, j) => j !== i)) }, '×'),
              ),
            ),
            layers.length < (k.max_layers || 5)
              ? h('button', { type: 'button', class: 'btn btn-small', id, 'aria-label': t('sandbox.addLayer'), disabled: fixed || null, 'data-fkey': `${id}-add`, onclick: () => this.setKnob(k.group, k.name, [...layers, { layer: `layer${layers.length + 1}`, attempts: 2 }]) }, t('sandbox.addLayer'))
              : null,
          ),
        );
      };
    }
    if (fixed) {
      for (const el of [control, ...control.querySelectorAll('input, select, button')]) {
        if ('disabled' in el) el.disabled = true;
      }
    }
    const update = () => {
      show(current());
      const mine = (this.editError || []).filter((e) => placeOf(e.path).startsWith(`${k.group}.${k.name}`));
      refused.hidden = !mine.length;
      replaceChildren(refused, mine.length ? [t('sandbox.knobRefused'), ' ', h('span', { lang: 'en' }, mine.map(placed).join('; '))] : null);
      // The engine's judgement of the value in force (run's "settings"); none in a fix-it.
      const setting = fix ? null : (this.run.settings || {})[`${k.group}.${k.name}`] || null;
      badge.hidden = !setting;
      badge.className = setting ? `badge setting-${setting}` : 'badge';
      badge.textContent = setting ? nameOf('setting', setting) : '';
      badge.title = setting === 'wrong' ? t('sandbox.settingWrongMeaning') : '';
      // A layers value has no named values: the engine says what its judgement means.
      if (k.type === 'layers') valueMeaning.textContent = setting && k.setting_meanings && k.setting_meanings[setting] ? l(k.setting_meanings[setting]) : '';
    };
    const el = h('div', { class: ['sb-knob', fixed && 'is-fixed'], 'data-fixed': fixed ? 'true' : null }, h('div', { class: 'sb-knob-head' }, label, ' ', badge), control, refused, valueMeaning, meaning);
    update();
    return { el, update };
  }

  /** The script's shape without its times: while it holds, an edit only updates the times. */
  scriptShape() {
    return JSON.stringify((this.state.s.script || []).map(({ at: _at, ...rest }) => rest));
  }

  refreshScript() {
    const script = this.state.s.script || [];
    this.el.script.querySelectorAll('input[data-at]').forEach((input) => {
      const a = script[Number(input.getAttribute('data-at'))];
      if (a && input.value !== String(a.at)) input.value = String(a.at);
    });
  }

  renderScript() {
    const script = this.state.s.script || [];
    const locked = this.editable() !== null; // a challenge changes faults or knobs, never the script
    const actions = this.vocab.actions || [];
    const intents = [...new Set(script.filter((a) => a.do === 'deliver').map((a) => a.intent).filter(Boolean))];
    const pick = h('select', { 'aria-label': t('sandbox.newAction'), 'data-testid': 'sb-new-action', 'data-fkey': 'new-action' }, actions.map((a) => h('option', { value: a.name, title: l(a.meaning) }, a.name)));
    const pickMeaning = h('p', { class: 'muted small' });
    // A new intent is named when it is delivered; every other action names one the script delivers.
    const typed = h('input', { type: 'text', class: 'sb-text', value: intents.length ? `${intents[0]}-2` : 'weekly-report', 'aria-label': t('sandbox.newIntent'), maxlength: '64', 'data-fkey': 'new-intent' });
    const chosen = h('select', { 'aria-label': t('sandbox.newIntent'), 'data-fkey': 'new-intent-pick' }, intents.map((i) => h('option', { value: i }, i)));
    const intentSlot = h('span', { class: 'sb-inline' });
    const atFirst = script.length ? Math.min(script[script.length - 1].at + 100, this.maxMs() ?? Infinity) : 0;
    const at = h('input', { type: 'number', class: 'sb-num', min: '0', max: this.maxMs(), value: String(atFirst), 'aria-label': t('sandbox.newAt'), 'data-fkey': 'new-at' });
    const spec = () => actions.find((a) => a.name === pick.value);
    const showPick = () => {
      const a = spec();
      pickMeaning.textContent = a ? l(a.meaning) : '';
      const needs = a && a.intent !== 'none';
      replaceChildren(intentSlot, !needs ? null : a.name === 'deliver' || !intents.length ? typed : chosen);
    };
    pick.addEventListener('change', showPick);
    showPick();
    const add = () => {
      const a = spec();
      if (!a) return;
      const action = { at: typedNumber(at, atFirst) ?? atFirst, do: a.name };
      const input = intentSlot.firstChild;
      if (a.intent !== 'none' && input && input.value.trim()) action.intent = input.value.trim();
      if (a.payload) action.payload = `${action.intent || 'payload'} (${t('sandbox.payloadAt', { at: action.at })})`;
      this.addAction(action);
    };
    replaceChildren(
      this.el.script,
      h('h3', { id: 'sb-script-h', class: 'section-title' }, t('sandbox.script')),
      locked ? h('p', { class: 'muted small' }, t('sandbox.lockedScript')) : null,
      h(
        'fieldset',
        { class: 'sb-group', disabled: locked || null },
        h('legend', { class: 'visually-hidden' }, t('sandbox.script')),
        h(
          'ol',
          { class: 'sb-script-list', 'data-testid': 'sb-script-list' },
          script.map((a, i) =>
            h(
              'li',
              null,
              h('label', { class: 'sb-inline' }, 't=', h('input', { type: 'number', class: 'sb-num', min: '0', max: this.maxMs(), value: String(a.at), 'data-at': String(i), 'data-fkey': `at-${i}`, 'aria-label': t('sandbox.actionAt', { n: i + 1 }), onchange: (ev) => { const ms = typedNumber(ev.target, a.at); if (ms !== null) this.setScriptAt(a, i, ms); } }), ' ms'),
              ' ',
              h('code', null, a.do),
              a.intent ? h('span', null, ' ', h('code', null, a.intent)) : null,
              a.payload ? h('span', { class: 'muted small' }, ` “${a.payload}”`) : null,
              ' ',
              h('button', { type: 'button', class: 'btn btn-small', 'data-fkey': `remove-action-${i}`, 'aria-label': t('sandbox.removeAction', { n: i + 1 }), onclick: () => this.removeAction(a, i) }, t('sandbox.remove')),
            ),
          ),
        ),
        h('p', { class: 'sb-inline sb-add' }, pick, ' ', intentSlot, ' ', 't=', at, ' ms ', h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'sb-add-action', 'data-fkey': 'add-action', onclick: add }, t('sandbox.addAction'))),
        pickMeaning,
      ),
    );
  }

  /** The explore card, drawn again with the keyboard focus kept on its control (Enter on
   *  Explore replaces the button it was on). */
  renderExplore() {
    this.markBusy(); // its waiting line names the search while one runs
    if (this.later.has('editors')) return; // its stage draws it
    const had = this.el.explore.contains(document.activeElement);
    rebuildKeepingFocus(this.el.explore, () => this.drawExplore());
    // A control that went (Cancel, once the search ends) hands the focus to Explore.
    if (had && !this.el.explore.contains(document.activeElement)) this.el.explore.querySelector('[data-testid="sb-explore-run"]').focus({ preventScroll: true });
  }

  drawExplore() {
    const ex = this.explore;
    const kSelect = h(
      'select',
      { 'aria-label': t('sandbox.exploreK'), 'data-testid': 'sb-explore-k', 'data-fkey': 'explore-k', 'aria-disabled': ex && ex.running ? 'true' : null },
      [1, 2, 3].map((k) => h('option', { value: String(k), selected: this.exploreK === k || null }, k === 1 ? t('sandbox.upToOne') : t('sandbox.upToK', { k }))),
    );
    // The choice holds across edits, undo and a language switch, as the learner made it.
    kSelect.addEventListener('change', () => { this.exploreK = Number(kSelect.value); });
    const body = [];
    if (ex && ex.running) {
      body.push(
        h('p', { role: 'status', 'data-testid': 'sb-explore-progress' }, this.progressText()),
        h('progress', { max: '100', value: String(this.progressPct()), 'data-testid': 'sb-explore-bar' }),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'sb-explore-cancel', 'data-fkey': 'explore-cancel', onclick: () => this.cancelExplore() }, t('sandbox.cancel')),
      );
    } else if (ex && ex.cancelled) {
      body.push(h('p', { role: 'status', 'data-testid': 'sb-explore-cancelled' }, t(ex.stale ? 'sandbox.exploreStopped' : 'sandbox.exploreCancelled')));
    } else if (ex && ex.error) {
      body.push(h('p', { class: 'notice notice-warn', role: 'alert' }, t('sandbox.exploreFailed'), ' ', h('span', { lang: 'en' }, ex.error)));
    } else if (ex && ex.result) {
      body.push(this.exploreResult(ex.k, ex.result));
    }
    replaceChildren(
      this.el.explore,
      h('h3', { id: 'sb-explore-h', class: 'section-title' }, t('sandbox.explore')),
      h('p', { class: 'muted small' }, t('sandbox.exploreHint')),
      h('p', { class: 'sb-inline' }, kSelect, ' ', h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'sb-explore-run', 'data-fkey': 'explore-run', 'aria-disabled': ex && ex.running ? 'true' : null, onclick: () => this.startExplore(Number(kSelect.value)) }, t('sandbox.exploreRun'))),
      h('div', { class: 'sb-explore-body', 'aria-live': 'polite' }, body),
    );
  }

  /** What an outcome class breaks, and in how many of its runs when not in all (the engine counts). */
  outcomeBreaks(o) {
    if (!o.violations.length) return null;
    const names = o.violations.map((n) => this.invariantTitle(n)).join(t('list.sep'));
    const some = o.violating < o.count;
    return h('span', { 'data-testid': 'sb-outcome-breaks' }, some ? t('sandbox.outcomeSomeBreak', { names, n: fmt(o.violating), count: fmt(o.count) }) : `⚠ ${names}`);
  }

  /** An invariant's name for a learner, from the engine's table. */
  invariantTitle(name) {
    const inv = (this.vocab.invariants || []).find((x) => x.name === name);
    return inv && inv.title ? l(inv.title) : name;
  }

  progressPct() {
    const p = this.explore && this.explore.progress;
    if (!p || !p.total) return 0;
    const perDepth = 100 / p.max_faults;
    return Math.round((p.depth - 1) * perDepth + (perDepth * p.done) / p.total);
  }

  progressText() {
    const p = this.explore && this.explore.progress;
    if (!p) return t('sandbox.exploreStarting');
    return t('sandbox.exploreProgress', { depth: p.depth, k: p.max_faults, done: fmt(p.done), total: fmt(p.total), n: fmt(p.schedules) });
  }

  /** Fast path for progress: only the status line and bar change. */
  renderExploreProgress() {
    const line = this.el.explore.querySelector('[data-testid="sb-explore-progress"]');
    const bar = this.el.explore.querySelector('[data-testid="sb-explore-bar"]');
    if (!line || !bar) {
      this.renderExplore();
      return;
    }
    line.textContent = this.progressText();
    bar.value = this.progressPct();
  }

  exploreResult(k, r) {
    const key = r.complete ? (k === 1 ? 'sandbox.searchedOne' : 'sandbox.searched') : k === 1 ? 'sandbox.searchedCutOne' : 'sandbox.searchedCut';
    const searched = t(key, { n: fmt(r.schedules), k });
    const head =
      r.violating === 0
        ? h('p', { class: 'inv-ok', 'data-testid': 'sb-explore-summary' }, '✓ ', t('sandbox.noneFound', { searched }))
        : h('p', { class: 'inv-broken', 'data-testid': 'sb-explore-summary' }, '⚠ ', t('sandbox.someFound', { v: fmt(r.violating), searched }));
    return h(
      'div',
      null,
      head,
      // Retry layers that absorbed K faults: the engine names them and the K past them.
      r.layers_absorb ? h('p', { class: 'muted', 'data-testid': 'sb-layers-absorb' }, l(r.layers_absorb.text)) : null,
      // Each wrong-alone setting that this clean, complete search covered, and why.
      this.challenge ? null : wrongAloneNotes(this.run, r, k, searched),
      r.cut ? h('p', { class: 'muted' }, l(r.cut.text)) : null,
      h('h4', null, t('sandbox.outcomes')),
      h('ul', { class: 'sb-outcomes', 'data-testid': 'sb-outcomes' }, r.outcomes.map((o) => h('li', { class: o.violations.length ? 'inv-broken' : null }, h('strong', null, fmt(o.count)), ' × ', l(o.text), ' ', this.outcomeBreaks(o)))),
      r.counterexamples.length
        ? [
            h('h4', null, t('sandbox.counterexamples')),
            h(
              'ol',
              { class: 'sb-cex', 'data-testid': 'sb-cex' },
              r.counterexamples.map((c) =>
                h(
                  'li',
                  null,
                  h('p', null, l(c.reason)),
                  h('p', { class: 'muted small' }, t('sandbox.when', { plan: l(c.plan) })),
                  // With no fault, and none in the plan either, its run is the one shown.
                  !c.faults.length && !(this.state.s.faults || []).length
                    ? h('p', { class: 'muted small', 'data-testid': 'sb-cex-shown' }, t('sandbox.cexIsShown'))
                    : h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'sb-cex-load', 'data-fkey': `cex-${c.fault_ids.join(',')}`, onclick: () => this.loadScenario(c.scenario) }, t('sandbox.loadCex')),
                ),
              ),
            ),
          ]
        : null,
    );
  }

  renderChallenge() {
    if (!this.challenge) {
      replaceChildren(this.el.challenge);
      return;
    }
    const v = this.challenge.view;
    const c = this.check;
    let verdict = null;
    if (c && c.running) verdict = h('p', { role: 'status' }, t('sandbox.checking'));
    else if (c && c.error) verdict = h('p', { class: 'notice notice-warn', role: 'alert' }, t('sandbox.checkFailed'), ' ', h('span', { lang: 'en' }, c.error));
    else if (c && c.result) {
      const r = c.result;
      verdict = h('div', { class: ['notice', r.solved ? 'notice-ok' : 'notice-warn'], role: 'status', 'data-testid': 'sb-check-result', 'data-solved': r.solved ? 'true' : 'false' }, h('p', null, r.solved ? '✓ ' : '✕ ', t(r.solved ? 'sandbox.solved' : r.allowed === false ? 'sandbox.notAllowed' : 'sandbox.notSolved')), h('p', null, l(r.text)));
    }
    const goal = v.goal_title ? l(v.goal_title) : this.invariantTitle(v.goal);
    const limits =
      v.kind === 'break'
        ? t(v.max_faults === 1 ? 'sandbox.breakLimitsOne' : 'sandbox.breakLimits', { n: v.max_faults, goal })
        : t(v.max_changes === 1 ? 'sandbox.fixLimitsOne' : 'sandbox.fixLimits', { n: v.max_changes, k: v.faults });
    const solvedBefore = this.app.progress.isCorrect(this.challenge.rec.id, 'challenge');
    replaceChildren(
      this.el.challenge,
      h(
        'section',
        { class: 'card sb-challenge', 'data-testid': 'sb-challenge', 'data-kind': v.kind },
        h('h3', { class: 'section-title' }, t(v.kind === 'break' ? 'challenge.break' : 'challenge.fix'), solvedBefore ? h('span', { class: 'badge badge-ok' }, ' ✓ ', t('challenge.solvedBefore')) : null),
        h('p', { 'data-testid': 'sb-challenge-prompt' }, l(v.prompt)),
        h('p', { class: 'muted small' }, limits),
        v.hint ? h('details', null, h('summary', null, t('challenge.hint')), h('p', null, l(v.hint))) : null,
        h('p', null, h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'sb-check', 'data-fkey': 'check', 'aria-disabled': c && c.running ? 'true' : null, onclick: () => this.checkChallenge() }, t('sandbox.check'))),
        verdict,
      ),
    );
  }

  async copyLink() {
    flushPendingHash();
    const url = window.location.href;
    try {
      await navigator.clipboard.writeText(url);
      this.el.copied.textContent = t('sandbox.copied');
    } catch (_) {
      this.el.copied.textContent = t('sandbox.copyManual');
    }
  }

  /** The language changed: the same state, history, explore result and check, relabelled. */
  relabel() {
    const step = this.stepToKeep();
    this.mount();
    this.step = -1;
    this.go(step, { force: true, fromLink: true }); // the same step: a link's notice stays, relabelled
    document.title = `${t('sandbox.title')} · idemlab`;
  }

  onKey(ev) {
    const n = stepKeyTarget(ev.key, this.step, this.last);
    if (n === null) return false;
    this.go(n);
    return true;
  }

  /** Ctrl/Cmd+Z and Ctrl/Cmd+Shift+Z (or Ctrl+Y), outside form fields. */
  onUndoKey(ev) {
    const key = ev.key.toLowerCase();
    if (key === 'z' && !ev.shiftKey) this.undo();
    else if ((key === 'z' && ev.shiftKey) || key === 'y') this.redo();
    else return false;
    return true;
  }

  /**
   * What the page says about the step a link asked for (`step`: a whole number >= 0 or
   * null; `stepText`: as the address writes it, or null when it names none), or null when
   * the run has it: not a step (-3, abc, 1.5: the run's last step is shown), or past the
   * run's end (named as written, not rounded).
   */
  linkNotice(step, stepText) {
    if (stepText === null || stepText === undefined) return null;
    if (step === null || step === undefined) return { key: 'notice.stepNotANumber', params: { written: shortText(stepText), step: this.last }, testid: 'sb-bad-step', link: true };
    if (step > this.last) return { key: 'sandbox.noSuchStep', params: { step: shortText(stepText), last: this.last }, testid: 'sb-no-step', link: true };
    return null;
  }

  /** The address changed (typed, pasted, or back/forward). */
  followRoute(code, step, stepText = null, extra = null) {
    if (code === this.code) {
      this.notices = [...this.notices.filter((x) => !x.link), ...linkNotices(this.linkNotice(step, stepText), extra)];
      this.renderNotices();
      if (step !== null && step !== undefined) this.go(step, { fromLink: true });
      return true;
    }
    return false; // another scenario: the router mounts a new view
  }

  destroy() {
    this.destroyed = true;
    if (this.explore && this.explore.running && this.app.engine) this.app.engine.cancel();
    window.removeEventListener('pagehide', this.onPageHide);
    saveUndo(this.code, this.history); // Back to this sandbox's address finds it again
  }
}

// The sandbox's undo history outlives its view and a reload of the tab: kept in the tab's
// sessionStorage (this tab only, gone with it) when the view goes or the page is left, and
// taken back by a sandbox opened at the scenario it was kept with (its link code). Kept
// when it is left, not per edit: up to MAX_UNDO states of a few KB each. Storage that is
// off or full loses the history, never an edit.
const UNDO_KEY = 'idemlab.sandbox.undo';

function loadUndo(code) {
  try {
    const saved = JSON.parse(window.sessionStorage.getItem(UNDO_KEY) || 'null');
    if (saved && saved.v === 1 && saved.code === code) return History.from(saved);
  } catch (_) {
    /* no storage, or not ours: a new history */
  }
  return new History();
}

function saveUndo(code, history) {
  try {
    window.sessionStorage.setItem(UNDO_KEY, JSON.stringify({ v: 1, code, ...history.toJSON() }));
  } catch (_) {
    try {
      window.sessionStorage.removeItem(UNDO_KEY); // not an older history under a code met again
    } catch (_) {
      /* no storage */
    }
  }
}

