// The scenario's knobs: one control per row of the engine's knob table (`vocabulary`),
// drawn as a group per side, each value marked as the engine marks it.
// Methods of the sandbox's view (../sandbox.js), kept here by concept; they run with
// `this` the SandboxView, as its own methods do.

import { h, replaceChildren, rebuildKeepingFocus } from '../../dom.js';
import { t, l, nameOf } from '../../i18n.js';
import { GROUPS, hasCode, placeOf, placed, typedNumber } from './shared.js';

export class KnobsPanel {
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
      // Side by side where the column is wide enough (style.css): a shorter page.
      h('div', { class: 'sb-groups' }, groups),
    );
  }

  /**
   * The drawer: the "now" line, the knob list, the run's injection points and the script
   * editor. On a wide screen (over NARROW) it is part of the page, beside the diagram; on a
   * narrow one it is closed until its button opens it over the page, as a dialog: the focus
   * moves into it, the page behind is inert, Escape or its close button closes it and gives
   * the focus back to the button; it keeps where it was scrolled to.
   */
  buildDrawer() {
    const el = this.el;
    el.drawerTitle = h('h3', { id: 'sb-drawer-h', class: 'section-title sb-drawer-title', tabindex: '-1' }, t('sbDrawer.title'));
    el.drawerClose = h('button', { type: 'button', class: 'btn sb-drawer-close', 'data-testid': 'sb-drawer-close', onclick: () => this.closeDrawer() }, h('span', { 'aria-hidden': 'true' }, '✕ '), t('sbDrawer.close'));
    el.drawerBtn = h(
      'button',
      { type: 'button', class: 'btn sb-drawer-open', 'data-testid': 'sb-drawer-open', 'aria-expanded': 'false', 'aria-controls': 'sb-drawer', 'aria-haspopup': 'dialog', onclick: () => this.openDrawer() },
      h('span', { 'aria-hidden': 'true' }, '⚙ '),
      t('sbDrawer.open'),
    );
    el.drawer = h(
      'div',
      {
        id: 'sb-drawer',
        class: 'sb-drawer',
        'data-testid': 'sb-drawer',
        onkeydown: (ev) => {
          if (ev.key !== 'Escape' || !this.drawerOpen) return;
          // In the code editor Escape is the first half of leaving it (Escape, then Tab).
          if (ev.target && ev.target.classList && ev.target.classList.contains('code-area')) return;
          ev.preventDefault();
          ev.stopPropagation();
          this.closeDrawer();
        },
      },
      h('div', { class: 'sb-drawer-head' }, h('div', { class: 'sb-drawer-bar' }, el.drawerTitle, el.drawerClose), el.now),
      el.client,
      el.knobs,
      el.targets,
      el.script,
    );
    return el.drawer;
  }

  /** Opens the drawer (a narrow screen only: on a wide one it is always shown). */
  openDrawer() {
    if (this.drawerOpen || !window.matchMedia(NARROW).matches) return;
    const d = this.el.drawer;
    this.drawerOpen = true;
    d.classList.add('is-open');
    d.setAttribute('role', 'dialog');
    d.setAttribute('aria-modal', 'true');
    d.setAttribute('aria-labelledby', 'sb-drawer-h');
    this.el.drawerBtn.setAttribute('aria-expanded', 'true');
    this.inerted = inertOutside(d);
    d.scrollTop = this.drawerScroll || 0;
    this.el.drawerTitle.focus({ preventScroll: true });
  }

  /** Closes the drawer; the focus goes back to its button unless `focus` is false. */
  closeDrawer({ focus = true } = {}) {
    if (!this.drawerOpen) return;
    const d = this.el.drawer;
    this.drawerOpen = false;
    this.drawerScroll = d.scrollTop;
    d.classList.remove('is-open');
    for (const name of ['role', 'aria-modal', 'aria-labelledby']) d.removeAttribute(name);
    this.el.drawerBtn.setAttribute('aria-expanded', 'false');
    for (const x of this.inerted || []) x.inert = false;
    this.inerted = null;
    if (focus) this.el.drawerBtn.focus();
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
    const render = KNOB_CONTROLS[k.type] || unknownControl;
    const { control, show, meaningOf = null } = render(k, { id, fixed, valueMeaning, setKnob: (v) => this.setKnob(k.group, k.name, v), refresh: () => this.refreshKnobs() });
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
      // In code mode a client knob is a preset: the learner's code need not follow it, so
      // the engine's judgement of its value says nothing of the client that ran.
      const preset = k.group === 'client' && hasCode(this.state.s);
      const setting = fix || preset ? null : (this.run.settings || {})[`${k.group}.${k.name}`] || null;
      badge.hidden = !setting;
      badge.className = setting ? `badge setting-${setting}` : 'badge';
      badge.textContent = setting ? nameOf('setting', setting) : '';
      badge.title = setting === 'wrong' ? t('sandbox.settingWrongMeaning') : '';
      if (meaningOf) valueMeaning.textContent = meaningOf(setting);
    };
    const el = h('div', { class: ['sb-knob', fixed && 'is-fixed'], 'data-fixed': fixed ? 'true' : null }, h('div', { class: 'sb-knob-head' }, label, ' ', badge), control, refused, valueMeaning, meaning);
    update();
    return { el, update };
  }
}

/** Under this width the sandbox is one column and its knobs are in a closed drawer (style.css says the same). */
export const NARROW = '(max-width: 1000px)';

/** Makes everything on the page but `el` (and the live regions, still heard) inert; gives what it made inert. */
function inertOutside(el) {
  const done = [];
  for (let x = el; x.parentElement && x !== document.body; x = x.parentElement) {
    for (const other of x.parentElement.children) {
      if (other === x || other.inert || other.hasAttribute('aria-live')) continue;
      other.inert = true;
      done.push(other);
    }
  }
  return done;
}

// --- one control per kind of knob ----------------------------------------------------
// Each takes the knob's row of the engine's table (`vocabulary`: its type, range, values
// and texts) and {id, fixed, valueMeaning, setKnob(value), refresh()}, and gives
// {control, show(value), meaningOf?(setting)}: the element, a function that puts the value
// in force into it, and (for a value with no named values) what the engine's judgement of
// it means. A new knob of a kind below needs no page code; a new kind, one entry here.

/** A choice or a boolean: a select of the engine's named values, each with its meaning. */
function choiceControl(k, { id, valueMeaning, setKnob }) {
  const control = h(
    'select',
    { id, 'data-fkey': id, 'aria-describedby': `${id}-v ${id}-m`, 'data-knob': `${k.group}.${k.name}`, onchange: (ev) => setKnob(k.type === 'boolean' ? ev.target.value === 'true' : ev.target.value) },
    (k.values || []).map((v) => h('option', { value: v.name, title: l(v.meaning) }, v.name)),
  );
  const show = (value) => {
    control.value = String(value);
    const v = (k.values || []).find((x) => x.name === String(value));
    valueMeaning.textContent = v ? l(v.meaning) : '';
  };
  return { control, show };
}

/** A whole number in the engine's range, with its unit; an optional one can be unset. */
function integerControl(k, { id, setKnob, refresh }) {
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
      if (v === null) refresh();
      else setKnob(v);
    },
  });
  const unsetBtn = k.optional ? h('button', { type: 'button', class: 'btn btn-small', 'data-fkey': `${id}-unset`, onclick: () => setKnob(undefined) }, t('sandbox.unsetIt')) : null;
  const control = h('span', { class: 'sb-inline' }, input, k.unit ? ` ${k.unit}` : null, unsetBtn);
  const show = (value) => {
    const unset = value === null || value === undefined;
    const text = unset ? '' : String(value);
    if (input.value !== text) input.value = text;
    if (unsetBtn) unsetBtn.hidden = unset;
  };
  return { control, show };
}

/** Retry layers: a row per layer (attempts, own key, timeout, errors retried), add, remove. */
function layersControl(k, { id, fixed, setKnob }) {
  const control = h('div', { class: 'sb-layers', 'data-knob': `${k.group}.${k.name}` });
  let shown = null;
  const show = (value) => {
    const layers = Array.isArray(value) ? value : [];
    const text = JSON.stringify(layers);
    if (text === shown) return;
    shown = text;
    // Layer i with `field` set to `v`, or left out (its default) when v is undefined.
    // Each edit redraws the rows from the value then in force: a refused one (a fraction,
    // 0) shows the layers as they still are, not what was typed.
    const setLayer = (i, field, v) => {
      shown = null;
      setKnob(layers.map((x, j) => {
        if (j !== i) return x;
        const rest = { ...x };
        delete rest[field];
        return v === undefined ? rest : { ...rest, [field]: v };
      }));
    };
    const remove = (i) => setKnob(layers.filter((_, j) => j !== i));
    rebuildKeepingFocus(control, () =>
      replaceChildren(
        control,
        layers.map((ly, i) => layerRow(k, { id, fixed, ly, i, setLayer, remove })),
        layers.length < (k.max_layers || 5)
          ? h('button', { type: 'button', class: 'btn btn-small', id, 'aria-label': t('sandbox.addLayer'), disabled: fixed || null, 'data-fkey': `${id}-add`, onclick: () => setKnob([...layers, { layer: `layer${layers.length + 1}`, attempts: 2 }]) }, t('sandbox.addLayer'))
          : null,
      ),
    );
  };
  // A layers value has no named values: the engine says what its judgement means.
  const meaningOf = (setting) => (setting && k.setting_meanings && k.setting_meanings[setting] ? l(k.setting_meanings[setting]) : '');
  return { control, show, meaningOf };
}

/** One retry layer's row: layer `ly` at `i`. */
function layerRow(k, { id, fixed, ly, i, setLayer, remove }) {
  return h(
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
    h('button', { type: 'button', class: 'btn btn-small', disabled: fixed || null, 'data-fkey': `${id}-rm-${i}`, 'aria-label': t('sandbox.removeLayer', { layer: ly.layer }), onclick: () => remove(i) }, '×'),
  );
}

/** A kind this page has no control for (an engine newer than the page): its value, read only. */
function unknownControl(k, { id }) {
  const control = h('code', { id, 'data-knob': `${k.group}.${k.name}` });
  const show = (value) => {
    control.textContent = value === undefined ? '' : JSON.stringify(value);
  };
  return { control, show };
}

/** The control for each kind of knob (the knob row's `type`). */
const KNOB_CONTROLS = { choice: choiceControl, boolean: choiceControl, integer: integerControl, layers: layersControl };
