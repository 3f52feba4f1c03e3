// The sandbox's first screen for a lesson (issue 33, "Start small"): the few knobs that
// decide the lesson (its `sandbox.focus`), presets (the lesson's design, the right design
// and, for an incident, the reported one) and up to three first experiments, each a
// one-line goal with a mark the engine sets: all from the engine's `start` call
// (engine/api/API.md), asked again with the learner's scenario after each change. The page
// decides nothing: which preset is in force and which goal a run reaches are the engine's.
//
// Mounted by the sandbox's view (../sandbox.js) above its knob panel; `.el` is its root.
// A sandbox opened from no lesson, or for a challenge (a preset would be its answer), shows
// nothing here.

import { h, replaceChildren, rebuildKeepingFocus } from '../../dom.js';
import { t, l } from '../../i18n.js';
import { GROUPS, clone, engineFor } from './shared.js';

export class StartPanel {
  /** view: the SandboxView (its state, run, model, app and knob controls). */
  constructor(view) {
    this.view = view;
    this.el = h('section', { class: 'card sb-start', 'data-testid': 'sb-start', 'aria-labelledby': 'sb-start-h', tabindex: '-1', hidden: true });
    this.data = null; // the engine's `start` answer for the scenario in force
    this.asked = null; // the scenario code it was asked for
    this.focusViews = [];
    this.shape = null; // the focus list drawn (controls are kept while it stays the same)
    this.lessonId = view.challenge ? null : view.state.from || null;
    if (!this.lessonId) return;
    this.unsubscribe = view.model.subscribe((ev) => {
      // Mounted again (a language switch) or gone: a newer panel draws the view.
      if (!this.el.isConnected && this.data) {
        this.unsubscribe();
        return;
      }
      if ((ev.type === 'changed' && ev.latest) || ev.type === 'redraw') this.ask();
    });
    this.ask();
  }

  /** Asks the engine about the scenario in force (once per scenario). */
  async ask() {
    const view = this.view;
    const code = view.code;
    if (code === this.asked) return;
    this.asked = code;
    let out = null;
    try {
      const rec = this.rec || (this.rec = await view.app.store.find(this.lessonId));
      if (!rec || rec.status !== 'ok' || typeof rec.text !== 'string') return;
      out = await engineFor(view.app.call, view.state.s)('start', { file: rec.file, text: rec.text, attempt: clone(view.state.s) });
    } catch (_) {
      out = null; // the engine stopped: its notice says so; the block stays as it was
    }
    if (view.destroyed || this.asked !== code || !out || !Array.isArray(out.presets)) return;
    const before = this.data;
    this.data = out;
    this.render(before);
  }

  render(before) {
    const d = this.data;
    this.el.hidden = false;
    const shape = JSON.stringify(d.focus || []);
    if (shape !== this.shape || !this.body) {
      this.shape = shape;
      rebuildKeepingFocus(this.el, () => this.build());
    } else {
      for (const v of this.focusViews) v.update();
    }
    this.renderPresets();
    this.renderExperiments(before);
  }

  /** The block's frame and its focus knobs, built when the focus list changes. */
  build() {
    const view = this.view;
    const focus = this.data.focus || [];
    this.focusViews = [];
    const knobs = focus.map((path) => (view.vocab.knobs || []).find((k) => `${k.group}.${k.name}` === path)).filter(Boolean);
    const controls = knobs.map((k) => {
      const v = view.knobControl(k);
      renameIds(v.el);
      this.focusViews.push(v);
      return v.el;
    });
    this.presets = h('div', { class: 'btn-row sb-start-presets', role: 'group', 'aria-labelledby': 'sb-start-presets-h' });
    this.experiments = h('ol', { class: 'sb-start-experiments', 'data-testid': 'sb-start-experiments' });
    this.announce = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'sb-start-announce' });
    const allKnobs = h(
      'button',
      {
        type: 'button',
        class: 'btn',
        'data-testid': 'sb-start-all-knobs',
        onclick: () => {
          const knobs = view.el.knobs;
          if (!knobs) return;
          // On a narrow screen the full list is in the drawer (knobs.js): it opens there.
          if (view.openDrawer) view.openDrawer();
          knobs.scrollIntoView({ block: 'start' });
          knobs.focus({ preventScroll: true });
        },
      },
      t('start.allKnobs'),
    );
    this.body = h(
      'div',
      null,
      h('h3', { id: 'sb-start-h', class: 'section-title' }, t('start.title')),
      h('h4', { id: 'sb-start-presets-h', class: 'sb-start-sub' }, t('start.presets')),
      this.presets,
      h('h4', { class: 'sb-start-sub' }, t('start.experiments')),
      this.experiments,
      controls.length ? this.focusBox(knobs, controls) : null,
      allKnobs,
      this.announce,
    );
    replaceChildren(this.el, this.body);
  }

  /**
   * The focus knobs, named in one line that opens to their controls (each ~100 px tall, a
   * retry-layers editor ~700: open, they pushed the explorer past three phone screens). Open
   * or closed stays so while the view lives.
   */
  focusBox(knobs, controls) {
    const box = h(
      'details',
      { class: 'sb-start-focus', 'data-testid': 'sb-start-focus', open: this.focusOpen ? '' : null },
      h('summary', { class: 'sb-start-sub' }, t('start.focus'), ' ', knobs.map((k, i) => [i ? ', ' : '', h('code', null, k.name)])),
      h('div', { class: 'sb-start-knobs', 'data-testid': 'sb-start-knobs' }, controls),
    );
    box.addEventListener('toggle', () => {
      this.focusOpen = box.open;
    });
    return box;
  }

  /** One button per preset: pressed when the engine says the knobs in force are its own. */
  renderPresets() {
    rebuildKeepingFocus(this.presets, () =>
      replaceChildren(
        this.presets,
        this.data.presets.map((p) =>
          h(
            'button',
            {
              type: 'button',
              class: 'btn',
              'data-testid': `sb-preset-${p.id}`,
              'data-fkey': `sb-preset-${p.id}`,
              'aria-pressed': p.current ? 'true' : 'false',
              onclick: () => this.apply(p),
            },
            l(p.label),
          ),
        ),
      ),
    );
  }

  /** A preset's knobs written over the scenario in force: one edit, one Undo step. */
  apply(preset) {
    const knobs = preset.knobs || {};
    return this.view.model.edit((next) => {
      for (const g of GROUPS) {
        if (knobs[g]) next.s[g] = clone(knobs[g]);
        else delete next.s[g];
      }
    });
  }

  /** Each goal with the engine's mark; a goal newly reached is said to a screen reader. */
  renderExperiments(before) {
    const list = this.data.experiments || [];
    const was = before && before.experiments ? before.experiments : [];
    replaceChildren(
      this.experiments,
      list.map((x, i) =>
        h(
          'li',
          { class: ['sb-start-exp', x.reached && 'is-reached'], 'data-testid': 'sb-start-experiment', 'data-reached': x.reached ? 'true' : 'false' },
          h('span', { class: 'sb-start-mark', 'aria-hidden': 'true' }, x.reached ? '✓' : String(i + 1)),
          ' ',
          h('span', null, l(x.goal)),
          ' ',
          h('span', { class: ['badge', x.reached ? 'setting-right' : 'setting-neutral'] }, t(x.reached ? 'start.reached' : 'start.notYet')),
        ),
      ),
    );
    const reached = list.filter((x, i) => x.reached && !(was[i] && was[i].reached));
    if (before) this.announce.textContent = reached.map((x) => t('start.announceReached', { goal: l(x.goal) })).join(' ');
  }
}

// The knob panel draws the same knobs with ids of its own (knob-<group>-<name>): the copies
// here take a prefix, so that each label, description and focus key names one control, and
// name their knob in data-start-knob (data-knob stays the knob panel's, one per knob).
function renameIds(el) {
  const re = /\bknob-/g;
  for (const x of [el, ...el.querySelectorAll('[id], [for], [aria-describedby], [data-fkey], [data-knob]')]) {
    for (const a of ['id', 'for', 'aria-describedby', 'data-fkey']) {
      const v = x.getAttribute(a);
      if (v) x.setAttribute(a, v.replace(re, 'start-knob-'));
    }
    const knob = x.getAttribute('data-knob');
    if (knob) {
      x.setAttribute('data-start-knob', knob);
      x.removeAttribute('data-knob');
    }
  }
}
