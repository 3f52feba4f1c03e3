// What the run came to and how it was made: the ending and verdicts, policy A beside B, the
// fault plan, the run's injection points, and a lesson's challenge checked by the engine.
// Methods of the sandbox's view (../sandbox.js), kept here by concept; they run with
// `this` the SandboxView, as its own methods do.

import { h, replaceChildren } from '../../dom.js';
import { t, l, nameOf, worded } from '../../i18n.js';
import { outputErrors } from '../../engine.js';
import { postChallengeChecked } from '../../embed.js';
import { targetAction } from '../diagram.js';
import { statusPill } from '../panels.js';
import { unreachedNote } from '../wrongalone.js';
import { faultKey, clone, placed, typedNumber, engineFor } from './shared.js';

// Each target list's rows by what they read (renderTargets), per list element: a view mounted
// again (a language switch) has a new one.
const targetLists = new WeakMap();

export class OutcomePanel {
  renderSummary() {
    const run = this.run;
    const verdict = run.verdict || { violations: [] };
    // Stopped at a limit before it settled: the invariants of its end were not judged, so
    // no ✓ (nothing broke so far is not nothing broke).
    const unsettled = !!verdict.stop && verdict.stop !== 'settled';
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
        : unsettled
          ? h('p', { class: 'inv-unsettled', 'data-testid': 'sb-verdict', 'data-stop': verdict.stop }, '? ', t('sandbox.noViolationUnsettled'))
          : h('p', { class: 'inv-ok', 'data-testid': 'sb-verdict' }, '✓ ', t('sandbox.noViolation')),
      unsettled ? h('p', { class: 'muted', 'data-testid': 'sb-stop' }, l(verdict.stop_text)) : null,
      // Why nothing breaks: no fault of this run reaches a wrong-alone setting (not in a
      // challenge, where naming it would give the answer away).
      this.challenge ? null : unreachedNote(run, () => this.searchUnreached()),
    );
    this.renderNow(unsettled);
  }

  /** The one line over the knobs: each intent's status and effects, and the verdict in short. */
  renderNow(unsettled) {
    const run = this.run;
    const violations = (run.verdict && run.verdict.violations) || [];
    const names = [...new Set(violations.map((v) => v.invariant))].map((n) => this.invariantTitle(n));
    const verdict = names.length
      ? h('span', { class: 'inv-broken', 'data-testid': 'sb-now-verdict', 'data-broken': 'true' }, '⚠ ', names.join(t('list.sep')))
      : unsettled
        ? h('span', { class: 'inv-unsettled', 'data-testid': 'sb-now-verdict', 'data-broken': 'false' }, '? ', t('sandbox.nowUnsettled'))
        : h('span', { class: 'inv-ok', 'data-testid': 'sb-now-verdict', 'data-broken': 'false' }, '✓ ', t('sandbox.nowClean'));
    replaceChildren(
      this.el.now,
      h('span', { class: 'sb-now-label' }, t('sandbox.now')),
      ' ',
      (run.ending.intents || []).map((e, i) => [
        i ? '; ' : null,
        h('span', { 'data-intent': e.intent, 'data-status': e.status, 'data-effects': e.effects }, h('code', null, e.intent), ' ', e.status === 'NONE' ? t('sandbox.noRow') : e.status, ' · ', t(e.effects === 1 ? 'sandbox.effect' : 'sandbox.effects', { n: e.effects })),
      ]),
      ' · ',
      verdict,
      ' ',
      h('button', { type: 'button', class: 'btn-link', 'data-testid': 'sb-now-more', onclick: () => this.showSummary() }, t('sandbox.nowMore')),
    );
  }

  /** The summary of how the run ends, focused and scrolled to `block` ("start": the "now" line's link). */
  showSummary(block = 'start') {
    this.closeDrawer({ focus: false }); // the summary is on the page, under the drawer
    this.el.summary.focus({ preventScroll: true });
    this.el.summary.scrollIntoView({ block });
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
        changed.length ? h('p', { class: 'sb-changed' }, changed) : h('p', { class: 'muted small' }, t('sandbox.samePolicy')),
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
              const crash = Boolean(f.crash_client || f.crash_service || f.lose_row === 'not_saved');
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

  /**
   * The run's injection points as a list. Keyed: a row that reads as it did (same point,
   * same words, same place in the list) is kept and only marked later or not, since an edit
   * or a step changes few of its hundreds of elements (issue 33: an edit within 50 ms).
   */
  renderTargets() {
    const cur = this.step;
    const targets = this.run.targets || [];
    const side = (s) => nameOf('side', s);
    let box = targetLists.get(this.el.targets);
    if (!box) {
      box = { list: h('ul', { class: 'sb-target-list', 'data-testid': 'sb-target-list' }), rows: new Map() };
      targetLists.set(this.el.targets, box);
      replaceChildren(this.el.targets, h('h3', { id: 'sb-targets-h', class: 'section-title' }, t('sandbox.targets')), h('p', { class: 'muted small' }, t('sandbox.targetsHint')), box.list);
    }
    const rows = new Map();
    const items = targets.map((tg, i) => {
      const text = l(tg.text);
      const key = JSON.stringify([tg.id, !!tg.planned, text, tg.side, tg.t, i]);
      let li = box.rows.get(key);
      if (!li) {
        const id = tg.id;
        li = h(
          'li',
          null,
          h(
            'button',
            {
              type: 'button',
              class: ['btn', 'btn-small', 'sb-target', tg.planned && 'is-planned'],
              'aria-pressed': tg.planned ? 'true' : 'false',
              // Several buttons share a name ("Crash here"): each is described by its point.
              'aria-describedby': `sb-target-${i}`,
              'data-target': id,
              'data-fkey': `target-${id}`,
              'data-testid': 'sb-target',
              // The point as the run in force has it (a kept row outlives the run it was built for).
              onclick: () => this.toggleTarget((this.run.targets || []).find((x) => x.id === id) || tg),
            },
            targetAction(tg),
          ),
          ' ',
          h('span', { id: `sb-target-${i}` }, h('span', null, text), h('span', { class: 'muted small' }, ` · ${side(tg.side)} · t=${tg.t}ms`)),
        );
      }
      li.classList.toggle('is-later', tg.step > cur + 1);
      rows.set(key, li);
      return li;
    });
    box.rows = rows;
    const kids = box.list.children;
    if (kids.length !== items.length || items.some((li, i) => kids[i] !== li)) replaceChildren(box.list, items);
  }

  async checkChallenge() {
    if (this.check && this.check.running) return;
    const { rec } = this.challenge;
    this.check = { running: true };
    this.renderChallenge();
    await this.model.settled(); // the attempt is the scenario once the edits before this click are answered
    if (this.destroyed) return;
    try {
      const out = await engineFor(this.app.call, this.state.s)('challenge', { file: rec.file, text: rec.text, attempt: clone(this.state.s) }, { cancellable: true });
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
}
