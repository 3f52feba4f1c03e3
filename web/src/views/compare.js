// The side-by-side view of a lesson: the lesson's fault plan run under the two policies
// of its `compare` block. Both runs come from the engine (`compare`): each column has its
// space-time diagram and text timeline, stepped together by virtual time, the effects the
// service holds for the intent (the engine's truth), the requests sent for it, the client's
// status for it, and, once its run is over, the engine's verdict on it. ← → step, Home / End
// jump; on a narrow screen the two columns stack.

import { h, replaceChildren, measureNextFrame, stickyBar } from '../dom.js';
import { t, l, nameOf } from '../i18n.js';
import { compareHash, lessonHash, listHash, replaceHash, sandboxHash, shortText } from '../router.js';
import { renderNotices, linkNotices } from './notices.js';
import { encodeState } from '../sandbox/codec.js';
import { statusPill } from './panels.js';
import { INVARIANTS, invariantLines } from './knowledge.js';
import { renderDiagram } from './diagram.js';
import { stepLine } from './timeline.js';
import { lessonTabs } from './tabs.js';
import { reportLine } from './incident.js';
import { stepKeyTarget } from '../keys.js';
import { stepButtons, enableStepButtons, scrubber, focusWhenLaidOut, COMPARE_KEYS } from './stepcontrols.js';

const NAMES = ['A', 'B'];

/** The index of the last step of `steps` at or before virtual time `time` (-1: none yet). */
function stepAt(steps, time) {
  let k = -1;
  while (k + 1 < steps.length && steps[k + 1].t <= time) k += 1;
  return k;
}

/**
 * A run's invariants at its last step, with every invariant the engine's verdict on the
 * whole run names as broken marked broken too (an always-invariant broken on the way, such
 * as two copies of the work at once, may hold again by the end).
 */
function brokenInRun(last, violations) {
  const out = { ...last };
  const list = Array.isArray(last.violations) ? [...last.violations] : [];
  for (const v of Array.isArray(violations) ? violations : []) {
    if (!v || typeof v.invariant !== 'string') continue;
    if (out[v.invariant] !== true) list.push(v);
    out[v.invariant] = true;
  }
  out.violations = list;
  return out;
}

// A knob's value as a chip reads it: retry layers as "sdk × 3 → app × 2" (innermost first),
// with what each sets besides its attempts; anything else as written.
function chipValue(name, v) {
  if (name === 'retry_layers' && Array.isArray(v)) {
    return v
      .map((ly) => {
        const extra = [ly.key === 'per_call' && t('sandbox.layerOwnKey'), ly.timeout_ms !== undefined && `${t('sandbox.layerTimeout')} ${ly.timeout_ms} ms`, Array.isArray(ly.retry_on) && `${t('sandbox.layerRetries')} ${ly.retry_on.join(', ') || '—'}`].filter(Boolean);
        return `${ly.layer} × ${ly.attempts}${extra.length ? ` (${extra.join('; ')})` : ''}`;
      })
      .join(' → ');
  }
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function knobList(policy) {
  const rows = [];
  for (const side of ['client', 'service', 'provider', 'timing']) {
    const knobs = Object.entries(policy[side] || {});
    if (!knobs.length) continue;
    rows.push(
      h('dt', null, nameOf('knobGroup', side)),
      h('dd', null, knobs.map(([k, v]) => h('code', { class: 'chip' }, `${k}: ${chipValue(k, v)}`))),
    );
  }
  return h('dl', { class: 'compare-knobs', 'data-testid': 'compare-knobs' }, rows);
}

export class CompareView {
  constructor(root, { rec, data, progress, initialStep, stepText = null, extra = null, focus = false, call = null }) {
    this.kind = 'compare';
    this.call = call; // the engine (main.js app.call), for the scenarios the sandbox opens
    this.root = root;
    this.rec = rec;
    this.id = rec.id;
    this.data = data;
    this.progress = progress;
    this.policies = data.policies;
    const times = new Set();
    for (const p of this.policies) for (const s of p.steps) times.add(s.t);
    this.times = [...times].sort((a, b) => a - b);
    this.last = this.times.length - 1;
    this.step = -1;
    this.notices = [];
    // Both runs are shown to their end: while a question of the lesson is open (not
    // answered right, nor its answer shown) the view would answer it, so it stays shut.
    this.locked = this.openQuestions() > 0;
    if (this.locked) {
      this.mountLocked();
    } else {
      this.mount();
      this.followLink(initialStep, stepText, 0, extra);
    }
    if (focus) focusWhenLaidOut(this.root.querySelector('[data-testid="compare-title"]'));
  }

  /** Questions of the lesson not yet settled: this view shows how both runs end. */
  openQuestions() {
    const qs = (this.rec.run && this.rec.run.lesson.questions) || [];
    return qs.filter((q) => !this.progress.isSettled(this.id, q.id)).length;
  }

  /** The view while questions are open: what it would show, why it waits, the way back. */
  mountLocked() {
    const open = this.openQuestions();
    document.title = `${t('compare.title')} · ${l(this.data.lesson.title)} · idemlab`;
    replaceChildren(
      this.root,
      h(
        'section',
        { class: 'compare-view', 'data-testid': 'compare-view', 'data-lesson': this.id, 'data-locked': 'true' },
        h(
          'header',
          { class: 'lesson-head' },
          h('a', { class: 'back-link', href: listHash(), 'data-testid': 'back' }, t('nav.back')),
          h('h2', { class: 'view-title', 'data-testid': 'compare-title', tabindex: '-1' }, l(this.data.lesson.title)),
          lessonTabs(this.id, 'compare'),
        ),
        h(
          'section',
          { class: 'card compare-locked', 'data-testid': 'compare-locked' },
          h('p', null, open === 1 ? t('compare.locked.one') : t('compare.locked.other', { n: open })),
          h('a', { class: 'btn btn-primary', href: lessonHash(this.id), 'data-testid': 'compare-back-to-lesson' }, t('compare.backToLesson')),
        ),
      ),
    );
  }

  mount() {
    const data = this.data;
    const ids = { first: 'compare-first', prev: 'compare-prev', next: 'compare-next', last: 'compare-last' };
    this.el = stepButtons(COMPARE_KEYS, ids, this, (n) => this.go(n));
    this.el.range = scrubber({ last: this.last, label: t('compare.scrubber'), testid: 'compare-scrubber', go: (n) => this.go(n) });
    this.el.timeLabel = h('p', { class: 'step-label', 'data-testid': 'compare-time', 'aria-hidden': 'true' });
    this.el.live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'compare-announce' });
    this.el.notices = h('div', { class: 'notices' });
    this.cols = this.policies.map((p, i) => this.column(p, i));
    const intent = data.intent;

    document.title = `${t('compare.title')} · ${l(data.lesson.title)} · idemlab`;
    replaceChildren(
      this.root,
      h(
        'section',
        { class: 'compare-view', 'data-testid': 'compare-view', 'data-lesson': this.id },
        h(
          'header',
          { class: 'lesson-head' },
          h('a', { class: 'back-link', href: listHash(), 'data-testid': 'back' }, t('nav.back')),
          h('h2', { class: 'view-title', 'data-testid': 'compare-title', tabindex: '-1' }, l(data.lesson.title)),
          lessonTabs(this.id, 'compare'),
          // An incident: the report its first run replays (the whole panel is on the lesson's tab).
          reportLine(this.rec.run && this.rec.run.lesson && this.rec.run.lesson.incident),
          h(
            'div',
            { class: 'compare-caption', 'data-testid': 'compare-caption' },
            h('p', { 'data-testid': 'compare-faults' }, h('strong', null, t('compare.faults')), ' ', l(data.faults)),
            h('p', null, t('compare.caption', { intent })),
            h(
              'ul',
              { class: 'compare-legend' },
              this.policies.map((p, i) =>
                h(
                  'li',
                  null,
                  h('span', { class: 'badge badge-side' }, NAMES[i]),
                  ' ',
                  l(p.label),
                  this.call
                    ? [' ', h('button', { type: 'button', class: 'btn btn-small', 'data-testid': `open-in-sandbox-${NAMES[i]}`, onclick: () => this.openInSandbox(i) }, t('sandbox.openPolicy', { name: NAMES[i] }))]
                    : null,
                ),
              ),
            ),
            data.narration ? h('p', { class: 'compare-narration', 'data-testid': 'compare-narration' }, l(data.narration)) : null,
          ),
          this.el.notices,
        ),
        stickyBar(
          h(
            'div',
            { class: 'controls', role: 'group', 'aria-label': t('compare.controls'), 'data-testid': 'compare-controls', tabindex: '-1' },
            h('div', { class: 'btn-row' }, this.el.first, this.el.prev, this.el.next, this.el.last),
            h('div', { class: 'scrub' }, h('div', { class: 'scrub-track' }, this.el.range), this.el.timeLabel),
            h('p', { class: 'keys-hint muted' }, t('compare.keys')),
          ),
        ),
        h('div', { class: 'compare-cols' }, this.cols.map((c) => c.root)),
        this.el.live,
      ),
    );
  }

  /**
   * One policy's scenario (the engine's), under the lesson's fault plan, in the sandbox, at
   * that policy's step at the virtual time shown here; its back link returns to this view.
   */
  async openInSandbox(index) {
    const policy = this.policies[index];
    const moment = this.step; // as clicked: the engine's answer comes after
    const at = Math.max(0, stepAt(policy.steps, this.times[moment]));
    let out;
    try {
      out = await this.call('scenario', { file: this.rec.file, text: this.rec.text, policy: policy.id });
    } catch (_) {
      return; // the engine's notice says why
    }
    if (!out || !out.scenario || this.destroyed) return;
    window.location.hash = sandboxHash(encodeState({ v: 1, s: out.scenario, from: this.id, via: 'compare', at: moment }), at);
  }

  column(policy, i) {
    const hid = `compare-h-${i}`;
    const col = {
      // What the diagram draws: this policy's steps and messages (the same shapes as `run`'s).
      run: { steps: policy.steps, messages: policy.messages || [] },
      diagram: h('div', { class: 'compare-diagram', 'data-testid': 'compare-diagram' }),
      counter: h('span', { class: 'counter-n' }),
      counterLabel: h('span', { class: 'counter-label' }),
      counterBox: null,
      sends: h('span', { class: 'counter-n counter-n-small' }),
      sendsLabel: h('span', { class: 'counter-label' }),
      sendsBox: null,
      verdict: h('div', { class: 'compare-verdict', 'data-testid': 'compare-verdict', 'aria-live': 'off' }),
      status: h('span', { class: 'compare-status', 'data-testid': 'client-status' }),
      alerts: h('p', { class: 'compare-alerts' }),
      list: h('ol', { class: 'timeline compare-events', 'aria-label': t('compare.events', { name: NAMES[i] }), 'data-testid': 'compare-events' }),
      scroller: null,
    };
    col.counterBox = h('p', { class: 'counter', 'data-testid': 'effect-counter' }, col.counter, col.counterLabel);
    col.sendsBox = h('p', { class: 'counter counter-sends', 'data-testid': 'send-counter' }, col.sends, col.sendsLabel);
    col.scroller = h('div', { class: 'timeline-scroll' }, col.list);
    col.root = h(
      'section',
      { class: 'card compare-col', 'aria-labelledby': hid, 'data-testid': 'compare-timeline', 'data-policy': policy.id },
      h('h3', { id: hid, class: 'section-title' }, h('span', { class: 'badge badge-side' }, NAMES[i]), ' ', l(policy.label)),
      knobList(policy),
      h('div', { class: 'compare-counters' }, col.counterBox, col.sendsBox, h('p', { class: 'compare-status-row' }, t('compare.status'), ' ', col.status)),
      // The diagrams first, so that the two line up; what differs in height comes after.
      col.diagram,
      col.alerts,
      col.verdict,
      col.scroller,
    );
    return col;
  }

  go(n, { force = false, fromLink = false } = {}) {
    const target = Math.max(0, Math.min(this.last, Number.isInteger(n) ? n : 0));
    if (target === this.step && !force) return;
    // A notice about the moment a link asked for is about the moment it opened: gone on the next move.
    if (!fromLink && this.notices.length) {
      this.notices = [];
      renderNotices(this.el.notices, this.notices);
    }
    this.step = target;
    replaceHash(compareHash(this.id, this.step));
    this.update();
  }

  update() {
    const i = this.step;
    const time = this.times[i];
    this.root.firstChild.dataset.step = String(i);
    this.root.firstChild.dataset.last = String(this.last);
    this.el.range.value = String(i);
    const where = t('compare.timeOf', { t: time, i: i + 1, n: this.last + 1 });
    this.el.range.setAttribute('aria-valuetext', where);
    this.el.timeLabel.textContent = where;
    enableStepButtons(this.el, i, this.last);

    const said = [];
    this.policies.forEach((p, k) => {
      const col = this.cols[k];
      const at = stepAt(p.steps, time);
      const st = at >= 0 ? p.steps[at] : null;
      // The engine's truth: effects of the intent under every operation key it used.
      const effects = st ? st.truth.by_intent[this.data.intent] || 0 : 0;
      const status = (st && st.client.status[this.data.intent]) || null;
      col.counter.textContent = String(effects);
      col.counterBox.dataset.effects = String(effects);
      col.counterLabel.textContent = effects === 1 ? t('compare.effects.one', { intent: this.data.intent }) : t('compare.effects.other', { intent: this.data.intent });
      // The requests the client has sent for the intent so far (the engine's messages).
      const sends = col.run.messages.filter((m) => m.kind === 'request' && m.intent === this.data.intent && Number.isInteger(m.sent_step) && m.sent_step <= at).length;
      col.sends.textContent = String(sends);
      col.sendsBox.dataset.sends = String(sends);
      col.sendsLabel.textContent = sends === 1 ? t('compare.sends.one') : t('compare.sends.other');
      const inv = (st && st.invariants) || {};
      const violations = Array.isArray(inv.violations) ? inv.violations : [];
      // The engine says whether the counted intent's effects are a duplicate.
      col.counterBox.classList.toggle(
        'is-duplicate',
        violations.some((v) => v.invariant === 'duplicate_effect' && v.intent === this.data.intent),
      );
      col.status.dataset.status = status || '';
      // Coloured by the engine's verdict at this step, not by the status's name: a CONFLICT
      // that refuses changed content under a used key breaks nothing, and is not drawn as if it did.
      col.status.dataset.verdict = status ? (violations.some((v) => v.intent === this.data.intent) ? 'broken' : 'holds') : '';
      replaceChildren(col.status, status ? statusPill(status) : t('compare.noStatus'));
      // A badge per invariant the engine says is broken at this step, titled with its reasons.
      replaceChildren(
        col.alerts,
        INVARIANTS.filter((name) => inv[name] === true)
          .map((name) =>
            h(
              'span',
              {
                class: 'badge badge-alert',
                'data-invariant': name,
                'data-testid': name === 'duplicate_effect' ? 'compare-duplicate' : `compare-${name}`,
                title: violations.filter((v) => v.invariant === name).map((v) => l(v.reason)).join('; ') || null,
              },
              nameOf('invariantBroken', name, undefined, st && st.provider && st.provider.effect),
            ),
          ),
      );
      replaceChildren(
        col.list,
        p.steps.slice(0, at + 1).map((s) =>
          h(
            'li',
            { class: ['tl-line', `tl-${(s.event && s.event.side) || 'none'}`, s.t === time && 'is-current'], 'aria-current': s.t === time ? 'step' : null },
            h('span', { class: 'tl-text' }, stepLine(s)),
          ),
        ),
      );
      renderDiagram(col.diagram, col.run, Math.max(0, at), (n) => this.goToStepOf(p, n), { label: t('compare.diagram', { name: NAMES[k] }) });
      this.drawVerdict(p, col, at);
      measureNextFrame(col, () => {
        if (!col.scroller.isConnected) return null;
        const end = col.scroller.scrollHeight;
        return () => {
          col.scroller.scrollTop = end;
        };
      });
      const side = { name: NAMES[k], n: effects, status: status || t('compare.noStatus') };
      said.push(effects === 1 ? t('compare.sideSummary.one', side) : t('compare.sideSummary.other', side));
    });
    this.el.live.textContent = `${where}. ${said.join(' ')}`;
  }

  /** A click on a row of policy `p`'s diagram: the moment in time of its step `n`. */
  goToStepOf(p, n) {
    const st = p.steps[n];
    if (st) this.go(this.times.indexOf(st.t));
  }

  /**
   * The engine's verdict on a policy's run (its invariants at the last step, why it stopped,
   * how it ends), once the view has reached that run's end; before, a line saying so.
   */
  drawVerdict(p, col, at) {
    const end = p.steps.length - 1;
    const done = at >= end;
    if (col.verdictShown === done) return;
    col.verdictShown = done;
    col.verdict.dataset.shown = String(done);
    if (!done) {
      replaceChildren(col.verdict, h('p', { class: 'muted small' }, t('compare.verdictLater')));
      return;
    }
    const last = p.steps[end] || {};
    const verdict = p.verdict || {};
    replaceChildren(
      col.verdict,
      h('h4', { class: 'compare-verdict-title' }, t('compare.verdict')),
      p.ending && p.ending.text ? h('p', { class: 'compare-ending', 'data-testid': 'compare-ending' }, l(p.ending.text)) : null,
      // The whole run's verdict: an invariant broken on the way (two copies of the work at
      // once, over before the end) stays broken here.
      h('ul', { class: 'invariants' }, invariantLines(brokenInRun(last.invariants || {}, verdict.violations), last.provider && last.provider.effect)),
      verdict.stop_text ? h('p', { class: 'muted small', 'data-testid': 'compare-stop' }, l(verdict.stop_text)) : null,
    );
  }

  /** Keyboard: ← → step, Home / End jump. Returns true when the key was used. */
  onKey(ev) {
    if (this.locked) return false;
    const n = stepKeyTarget(ev.key, this.step, this.last);
    if (n === null) return false;
    this.go(n);
    return true;
  }

  /**
   * The language changed: the same moment and notices, drawn again in it (the engine's
   * output holds both languages), into the new shell's element (`root`, set by main.js).
   */
  relabel() {
    if (this.locked) {
      this.mountLocked();
      return;
    }
    const step = this.step;
    this.mount();
    renderNotices(this.el.notices, this.notices);
    this.step = -1;
    this.go(step, { force: true, fromLink: true });
  }

  /** The URL changed to another position of this view (typed or pasted). */
  followRoute(step, stepText = null, extra = null) {
    if (this.locked) return;
    this.followLink(step, stepText, this.step, extra);
  }

  /**
   * Shows the moment an address asks for (`step`: a whole number or null; `stepText`: what
   * it wrote, null without step/N). Not a number (-3, abc, 1.5): the moment `keep` stays
   * and a notice says so; past the end: the last moment, and a notice says so. A part of the
   * address after that (`extra`) is said to be ignored.
   */
  followLink(step, stepText, keep, extra = null) {
    const written = shortText(stepText === null || stepText === undefined ? step : stepText);
    const target = step === null || step === undefined ? keep : Math.min(step, this.last);
    let notice = null;
    if ((step === null || step === undefined) && stepText !== null && stepText !== undefined) {
      notice = { key: 'notice.momentNotANumber', params: { written, shown: target, i: target + 1, n: this.last + 1 }, testid: 'notice-bad-step' };
    } else if (step > this.last) {
      notice = { key: 'notice.momentPastEnd', params: { target: written, n: this.last + 1, last: this.last }, testid: 'notice-past-end' };
    }
    this.notices = linkNotices(notice, extra);
    renderNotices(this.el.notices, this.notices);
    this.go(target, { force: true, fromLink: true });
  }

  destroy() {
    this.destroyed = true;
  }
}
