// The sandbox (#/sandbox/<code>): a scenario of the learner's own. The same diagram,
// panels, knowledge grid, truth and text timeline as a lesson, beside a scenario panel
// whose controls come from the engine's knob table (`vocabulary`), the fault plan, the
// run's targets (every injection point it passed: one click adds or removes a fault
// there), the run's ending and verdicts, undo / redo, a pinned policy A against the
// edited B, the explorer (in the engine's Web Worker) and, for a lesson's challenge, the
// engine's check. The page decides nothing: every run, verdict and check is the engine's.

import { h, replaceChildren, rebuildKeepingFocus, afterNextPaint, measureNextFrame, handFocusNextFrame, stickyBar } from '../dom.js';
import { t, l } from '../i18n.js';
import { listHash, lessonHash, compareHash, codeHash, replaceHashSoon, flushPendingHash, sandboxHash, shortText } from '../router.js';
import { encodeState } from '../sandbox/codec.js';
import { History } from '../sandbox/history.js';
import { SandboxState } from '../sandbox/state.js';
import { renderDiagram } from './diagram.js';
import { clientPanel, servicePanel, networkStrip, providerPanel } from './panels.js';
import { knowledgeGrid, truthSummary } from './knowledge.js';
import { renderTimeline, stepLine } from './timeline.js';
import { stepButtons, enableStepButtons, scrubber, focusWhenLaidOut, playControls, STEP_KEYS } from './stepcontrols.js';
import { stepKeyTarget } from '../keys.js';
import { linkNotices } from './notices.js';
import { NO_HIDDEN, placeOf, withoutFaults, evaluateState } from './sandbox-panels/shared.js';
import { KnobsPanel, NARROW } from './sandbox-panels/knobs.js';
import { ScriptPanel } from './sandbox-panels/script.js';
import { ExplorePanel } from './sandbox-panels/explore.js';
import { OutcomePanel } from './sandbox-panels/outcome.js';
import { StartPanel } from './sandbox-panels/start.js';
import { CodePanel, loadDraft, saveDraft } from './sandbox-panels/code.js';
import { hasCode } from './sandbox-panels/shared.js';

export { faultKey, evaluateState } from './sandbox-panels/shared.js';

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
    this.explore = null; // {k, running, progress, result, error}
    this.exploreK = 2; // faults per schedule at most, as chosen in the explore card
    this.check = null; // the challenge's last check
    this.showTruth = app.progress.getPref('showTruth', true);
    this.step = -1;
    this.codeDraft = null; // code mode: the editor's text while it differs from the code that ran
    this.codeStatus = null; // code mode: what the last edit of the client did ({key, params, warn})
    // The scenario, its runs, edits, Undo / Redo and address code: the view draws them,
    // never keeps a copy (../sandbox/state.js). A reload of the tab finds the history it left.
    this.model = new SandboxState({ first, evaluate: (next) => evaluateState(app.call, next), history: loadUndo(encodeState(first.state)) });
    this.model.subscribe((ev) => this.onModel(ev));
    // Code typed and not run yet outlives a reload of the tab and Back, as the history does.
    if (hasCode(this.state.s)) this.codeDraft = loadDraft(this.code, this.state.s.code);
    this.notices.push(...linkNotices(this.linkNotice(step, stepText), extra));
    this.mount();
    this.go(step === null || step === undefined ? this.last : step, { force: true, fromLink: true });
    document.title = `${t('sandbox.title')} · idemlab`;
    if (focus) focusWhenLaidOut(this.root.querySelector('[data-testid="sandbox-title"]'));
    // A reload of the tab keeps the undo history, as the address keeps the state.
    this.onPageHide = () => {
      saveUndo(this.code, this.history);
      saveDraft(this.code, this.codeDraft);
    };
    window.addEventListener('pagehide', this.onPageHide);
    // Wide again (a turned tablet): the drawer is part of the page, no longer over it.
    this.narrow = window.matchMedia(NARROW);
    this.onNarrow = () => {
      if (!this.narrow.matches) this.closeDrawer({ focus: false });
    };
    this.narrow.addEventListener('change', this.onNarrow);
  }

  // --- the scenario (../sandbox/state.js) ----------------------------------------------

  get state() {
    return this.model.state;
  }

  get run() {
    return this.model.run;
  }

  get pinRun() {
    return this.model.pinRun;
  }

  get last() {
    return this.model.last;
  }

  get removed() {
    return this.model.removed;
  }

  get code() {
    return this.model.code;
  }

  get history() {
    return this.model.history;
  }

  get editError() {
    return this.model.editError;
  }

  /** What the scenario's state says happened, drawn. */
  onModel(ev) {
    if (this.destroyed) return;
    if (ev.type === 'busy') this.markBusy();
    // A search under way is of the scenario before an edit, and the engine answers one call
    // at a time: an edit or Undo/Redo beyond the fault plan stops it (and says so) instead of
    // waiting for it and then showing, or dropping unsaid, a result of another scenario.
    else if (ev.type === 'asking') {
      this.codeStatus = null; // the word on the last edit of the client is about that edit
      if (this.explore && this.explore.running && ev.next && withoutFaults(ev.next) !== withoutFaults(this.state)) this.stopExplore();
    } else if (ev.type === 'refused') {
      if (ev.latest) this.render();
    } else if (ev.type === 'changed') {
      // The explorer ignores the scenario's own faults: its result still holds after a change
      // of the fault plan alone (loading a counterexample, placing a fault). After any other
      // change it is of another scenario and goes; a notice that a search was stopped stays.
      const ex = this.explore;
      if (ex && !ex.running && !ex.stale && withoutFaults(ev.before) !== withoutFaults(this.state)) this.explore = null;
      this.check = null;
      if (ev.latest) this.remount();
    } else if (ev.type === 'redraw') {
      this.remount();
    }
  }

  markBusy() {
    const view = this.root.querySelector('[data-testid="sandbox-view"]');
    if (!view) return;
    const busy = this.model.busy || this.later.size;
    if (busy) view.setAttribute('aria-busy', 'true');
    else view.removeAttribute('aria-busy');
    const text = !busy ? '' : t(this.explore && this.explore.running ? 'sandbox.waitingExplore' : this.codeLoading ? 'sbCode.loading' : 'sandbox.waiting');
    if (this.el.waiting.textContent !== text) this.el.waiting.textContent = text;
  }

  // --- edits: each the state module's, drawn when it answers ----------------------------

  undo() {
    return this.model.undo();
  }

  redo() {
    return this.model.redo();
  }

  setKnob(group, name, value) {
    // In code mode a client knob is a preset: it replaces the code (sandbox-panels/code.js).
    if (hasCode(this.state.s)) return this.setKnobWithCode(group, name, value);
    return this.model.setKnob(group, name, value);
  }

  toggleTarget(target) {
    return this.model.toggleFault(target.fault);
  }

  removeFault(fault) {
    return this.model.removeFault(fault);
  }

  setRestart(fault, ms) {
    return this.model.setRestart(fault, ms);
  }

  setScriptAt(action, index, at) {
    return this.model.setScriptAt(action, index, at);
  }

  removeAction(action, index) {
    return this.model.removeAction(action, index);
  }

  addAction(action) {
    return this.model.addAction(action);
  }

  pin() {
    return this.model.pin();
  }

  unpin() {
    return this.model.unpin();
  }

  /** The latest virtual time (ms) a script action or a restart may name: the engine's limit
   *  (`vocabulary` limits.max_virtual_ms, engine/scenario/limits.hpp). */
  maxMs() {
    return (this.vocab.limits || {}).max_virtual_ms;
  }

  async loadScenario(scenario) {
    const loaded = await this.model.loadScenario(scenario);
    // The changed run is summed up at the top: take the learner there.
    if (loaded && !this.destroyed) this.showSummary('nearest');
  }

  // --- layout -------------------------------------------------------------------------

  mount() {
    // Mounted again (a language switch) with the drawer open: open again once rebuilt.
    const reopen = !!this.drawerOpen;
    if (this.el) this.closeDrawer({ focus: false });
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
    // The client: built in, or the learner's code (code mode), at the top of the drawer.
    el.client = h('section', { class: 'card sb-client', 'data-testid': 'sb-client', 'aria-labelledby': 'sb-client-h', tabindex: '-1' });
    this.clientShape = null;
    el.knobs = h('section', { class: 'card sb-knobs', 'data-testid': 'sb-knobs', 'aria-labelledby': 'sb-knobs-h' , tabindex: '-1' });
    // How the run ends, in one line at the top of the knobs (sticky under the step bar): an
    // edit's result is seen where the edit is made, the full summary a click away.
    el.now = h('div', { class: 'sb-now', 'data-testid': 'sb-now' });
    el.script = h('section', { class: 'card sb-script', 'data-testid': 'sb-script', 'aria-labelledby': 'sb-script-h' , tabindex: '-1' });
    // The start block's place (h-start's StartPanel.el goes in here): above the knobs on a
    // wide screen, under the diagram on a narrow one, outside the drawer.
    el.start = h('div', { class: 'sb-start-slot', 'data-testid': 'sb-start-slot' }, new StartPanel(this).el);
    el.plan = h('section', { class: 'card sb-plan', 'data-testid': 'sb-plan', 'aria-labelledby': 'sb-plan-h', tabindex: '-1' });
    el.targets = h('section', { class: 'card sb-targets', 'data-testid': 'sb-targets', 'aria-labelledby': 'sb-targets-h' , tabindex: '-1' });
    el.explore = h('section', { class: 'card sb-explore', 'data-testid': 'sb-explore', 'aria-labelledby': 'sb-explore-h' , tabindex: '-1' });
    el.diagram = h('section', { class: 'card diagram-card', 'aria-labelledby': 'diagram-h' }, h('h3', { id: 'diagram-h', class: 'section-title' }, t('diagram.title')), h('p', { class: 'muted small' }, t('sandbox.diagramHint')));
    el.panels = h('div', { class: 'panels' });
    el.grid = h('div', { class: 'grid-slot' });
    el.truth = h('div', { class: 'truth-slot' });
    el.timeline = h('section', { class: 'card timeline-card' });
    el.live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'step-announce' });
    // Play animates the run in virtual time on the diagram (diagram-anim.js); a step of the
    // learner's own, an edit or leaving stops it.
    if (this.playing) this.playing.cancel();
    this.playing = playControls(el.diagram, { progress: this.app.progress, step: () => this.step, canStep: (n) => n <= this.last, land: (n) => this.go(n, { playing: true }) });
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
    this.buildDrawer(); // el.drawer and its button el.drawerBtn
    // Shown as their stage is built (stageIn).
    this.stageEls = { sides: [el.targets, el.panels], knowledge: [el.gridCard, el.timeline], editors: [el.client, el.knobs, el.script, el.explore] };
    for (const x of Object.values(this.stageEls).flat()) x.hidden = true;
    const back = this.state.from || this.state.ch;
    // Opened from a side-by-side view (via: 'compare'): back goes there, to its moment (at),
    // not to the lesson's steps.
    const backToCompare = !!(this.state.from && this.state.via === 'compare');
    // Opened from a code exercise's counterexample (ex: its id): back goes to the exercise.
    const backTo = this.state.ex && !back ? { href: codeHash(this.state.ex), text: t('sbCode.backToExercise') } : null;
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
            { class: 'back-link', href: backTo ? backTo.href : backToCompare ? compareHash(back, Number.isInteger(this.state.at) && this.state.at >= 0 ? this.state.at : null) : back ? lessonHash(back) : listHash(), 'data-testid': 'back' },
            backTo ? backTo.text : backToCompare ? t('sandbox.backToCompare') : back ? t('sandbox.backToLesson') : t('nav.back'),
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
            h('div', { class: 'btn-row' }, el.first, el.prev, this.playing.button, el.next, el.last, this.playing.speed),
            h('div', { class: 'scrub' }, h('div', { class: 'scrub-track' }, el.range), el.stepLabel),
            h('p', { class: 'keys-hint muted' }, t('sandbox.keys')),
          ),
        ),
        h(
          'div',
          { class: 'lesson-body' },
          // The knobs, the injection points and the script are in the drawer (knobs.js buildDrawer).
          h('div', { class: 'col col-a' }, el.summary, el.drawerBtn, el.compare, el.plan, el.start, el.drawer, el.explore),
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
    if (reopen) this.openDrawer();
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
        const back = again || (section && section.isConnected ? section : this.drawerOpen ? this.el.drawerTitle : this.el.plan);
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
    this.renderClient();
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

  go(n, { force = false, fromLink = false, playing = false } = {}) {
    if (!playing && this.playing) this.playing.cancel();
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
    this.playing.render();
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
    // In code mode the code's refusal is said beside the editor (code.js), in the learner's
    // language, with its line: not again here.
    const errors = (this.editError || []).filter((e) => !(e.path === '/scenario/code' && hasCode(this.state.s)));
    replaceChildren(
      this.el.notices,
      errors.length
        ? h(
            'div',
            // A knob's refusal is also said beside its box (knobControl), as an alert: here it is
            // a status, so that a screen reader does not hear it twice.
            { class: 'notice notice-warn', role: errors.every((e) => /^(client|service|provider|timing)\.|^code$/.test(placeOf(e.path))) ? 'status' : 'alert', 'data-testid': 'sb-edit-error' },
            h('p', null, t('sandbox.refused')),
            h('ul', null, errors.map((e) => h('li', null, h('strong', null, placeOf(e.path)), placeOf(e.path) ? ': ' : '', h('span', { lang: 'en' }, e.reason)))),
          )
        : null,
      items.map((n) => h('div', { class: 'notice notice-warn', role: 'status', 'data-testid': n.testid || 'notice' }, h('p', null, t(n.key, n.params)))),
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
    if (this.playing) this.playing.cancel();
    this.closeDrawer({ focus: false });
    this.narrow.removeEventListener('change', this.onNarrow);
    this.model.close();
    if (this.explore && this.explore.running) this.cancelSearch();
    window.removeEventListener('pagehide', this.onPageHide);
    saveUndo(this.code, this.history); // Back to this sandbox's address finds it again
    saveDraft(this.code, this.codeDraft);
  }
}

// The panels' methods (./sandbox-panels/), each file one concept of this view, are the
// view's own: the same `this`, the same names, as if written above.
for (const panel of [KnobsPanel, ScriptPanel, ExplorePanel, OutcomePanel, CodePanel]) {
  for (const name of Object.getOwnPropertyNames(panel.prototype)) {
    if (name !== 'constructor') Object.defineProperty(SandboxView.prototype, name, Object.getOwnPropertyDescriptor(panel.prototype, name));
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

