// The scenario's script: the timed actions (crash, restart, cancel, revise ...) as rows
// that can be retimed, removed and added.
// Methods of the sandbox's view (../sandbox.js), kept here by concept; they run with
// `this` the SandboxView, as its own methods do.

import { h, replaceChildren } from '../../dom.js';
import { t, l } from '../../i18n.js';
import { typedNumber } from './shared.js';

export class ScriptPanel {
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
    // No longer than the engine takes a name (vocabulary's limits, in bytes: a name in CJK
    // characters meets the engine's refusal before this bound).
    const maxName = (this.vocab.limits || {}).max_name_bytes || 40;
    const typed = h('input', { type: 'text', class: 'sb-text', value: intents.length ? `${intents[0]}-2` : 'weekly-report', 'aria-label': t('sandbox.newIntent'), maxlength: String(maxName), 'data-fkey': 'new-intent' });
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
}
