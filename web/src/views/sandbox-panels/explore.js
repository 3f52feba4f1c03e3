// The explorer: a search of every fault schedule up to K in the engine's Web Worker, its
// progress and its result (a counterexample loads into the sandbox).
// Methods of the sandbox's view (../sandbox.js), kept here by concept; they run with
// `this` the SandboxView, as its own methods do.

import { h, replaceChildren, rebuildKeepingFocus, measureNextFrame } from '../../dom.js';
import { t, l } from '../../i18n.js';
import { outputErrors } from '../../engine.js';
import { wrongAloneNotes } from '../wrongalone.js';
import { cancelCode } from '../../code-engine.js';
import { clone, fmt, engineFor, hasCode } from './shared.js';

export class ExplorePanel {
  async startExplore(k) {
    if (this.explore && this.explore.running) return; // the button says it is busy (aria-disabled)
    this.exploreK = k;
    this.explore = { k, running: true, progress: null, result: null, error: null };
    this.renderExplore();
    // The scenario the learner sees once the edits made before this click are answered.
    await this.model.settled();
    if (this.destroyed || !this.explore || !this.explore.running) return;
    const scenario = clone(this.state.s);
    const code = this.code;
    try {
      const out = await engineFor(this.app.call, scenario)('explore', { scenario, faults: k }, {
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
    // The verdict is under the button, but a learner who tapped Explore low on a phone's
    // screen saw nothing change: the least scroll that shows where the verdict starts.
    measureNextFrame('explore-verdict', () => {
      const first = this.el.explore.querySelector('.sb-explore-body > *');
      if (this.destroyed || !first) return null;
      const r = first.getBoundingClientRect();
      if (r.top >= 0 && r.top + Math.min(r.height, 80) <= window.innerHeight) return null;
      return () => first.scrollIntoView({ block: 'nearest' });
    });
  }

  /** Ends the search under way, in the engine it runs in (the code engine in code mode). */
  cancelSearch() {
    if (hasCode(this.state.s)) cancelCode();
    else if (this.app.engine) this.app.engine.cancel();
  }

  cancelExplore() {
    this.cancelSearch();
    this.explore = { cancelled: true };
    this.renderExplore();
  }

  /** The scenario changed under a search: it is stopped, and the card says why. */
  stopExplore() {
    this.cancelSearch();
    this.explore = { cancelled: true, stale: true };
    this.renderExplore();
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

  /**
   * Schedules that stopped at a limit before they settled (the engine's `inconclusive`): how
   * many, why (the engine's words: which limit), and the first of them one click away. Null
   * when every schedule settled.
   */
  inconclusiveNote(r) {
    const n = r.inconclusive || 0;
    if (!n) return null;
    const ex = r.inconclusive_example;
    return h(
      'div',
      { class: 'notice notice-warn', 'data-testid': 'sb-explore-inconclusive', 'data-count': String(n) },
      h('p', null, t(n === 1 ? 'sandbox.unsettledOne' : 'sandbox.unsettled', { n: fmt(n), limit: l(r.inconclusive_limit) })),
      !ex
        ? null
        : // With no fault, and none in the plan either, its run is the one shown.
          !ex.faults.length && !(this.state.s.faults || []).length
          ? h('p', { class: 'small', 'data-testid': 'sb-unsettled-shown' }, t('sandbox.unsettledIsShown'))
          : h('p', { class: 'small' }, t('sandbox.when', { plan: l(ex.plan) }), ' ', h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'sb-unsettled-load', 'data-fkey': 'unsettled-load', onclick: () => this.loadScenario(ex.scenario) }, t('sandbox.loadUnsettled'))),
    );
  }

  exploreResult(k, r) {
    const key = r.complete ? (k === 1 ? 'sandbox.searchedOne' : 'sandbox.searched') : k === 1 ? 'sandbox.searchedCutOne' : 'sandbox.searchedCut';
    const searched = t(key, { n: fmt(r.schedules), k });
    // No ✓ while some schedule was not judged to its end: nothing found is not nothing there.
    const unsettled = (r.inconclusive || 0) > 0;
    const head =
      r.violating > 0
        ? h('p', { class: 'inv-broken', 'data-testid': 'sb-explore-summary' }, '⚠ ', t('sandbox.someFound', { v: fmt(r.violating), searched }))
        : unsettled
          ? h('p', { class: 'inv-unsettled', 'data-testid': 'sb-explore-summary' }, '? ', t('sandbox.noneFoundUnsettled', { searched }))
          : h('p', { class: 'inv-ok', 'data-testid': 'sb-explore-summary' }, '✓ ', t('sandbox.noneFound', { searched }));
    return h(
      'div',
      null,
      head,
      this.inconclusiveNote(r),
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
}
