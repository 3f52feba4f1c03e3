// The sandbox's client: the built-in one (its knobs decide what it does) or the learner's
// code (code mode: the scenario's `code`, run by the code engine). Switching either way is
// one undoable edit; to code, the engine writes the knobs' policy as code (`preset`) and
// the script keeps only the actions a scenario with code may hold (`vocabulary`'s
// `with_code`). In code mode a client knob is a preset: changing it replaces the code with
// the engine's code for the new knobs, one edit. The editor's text runs on Run (or
// Ctrl+Enter); the engine's refusal of the code is shown beside it, with its line.
// Methods of the sandbox's view (../sandbox.js), kept here by concept; they run with
// `this` the SandboxView, as its own methods do.

import { h, replaceChildren } from '../../dom.js';
import { t, l } from '../../i18n.js';
import { isOfflineCopy } from '../../bundled.js';
import { codeEngineLoaded, markCodeSeen } from '../../code-engine.js';
import { codeEditor } from '../code-editor.js';
import { placeText } from '../code-result.js';
import { hasCode, presetOf } from './shared.js';

// The editor's text not run yet, kept in this tab's sessionStorage with the address it was
// typed at (the sandbox's link code), so that a reload or Back does not lose it. One draft:
// the last sandbox left. Storage that is off or full keeps nothing, and loses no edit.
const DRAFT_KEY = 'idemlab.sandbox.draft';

/** The draft kept for the sandbox at `linkCode`, or null (none, or the code that ran). */
export function loadDraft(linkCode, ran) {
  try {
    const saved = JSON.parse(window.sessionStorage.getItem(DRAFT_KEY) || 'null');
    if (saved && saved.v === 1 && saved.code === linkCode && typeof saved.draft === 'string' && saved.draft !== ran) return saved.draft;
  } catch (_) {
    /* no storage, or not ours */
  }
  return null;
}

export function saveDraft(linkCode, draft) {
  try {
    if (draft === null || draft === undefined) window.sessionStorage.removeItem(DRAFT_KEY);
    else window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify({ v: 1, code: linkCode, draft }));
  } catch (_) {
    /* no storage, or full: the draft stays on screen only */
  }
}

/**
 * An edit's `finish` that makes the edited state's code the engine's code for its knobs
 * (`preset`), counted as seen: the learner's own choice, so a reload runs it.
 */
async function withPreset(next) {
  const got = await presetOf(next.s);
  if (got.errors) throw refusal(got.errors);
  next.s.code = got.code;
  markCodeSeen(got.code);
  return next;
}

/** An engine refusal, thrown out of an edit's `finish` (the state module names it). */
function refusal(errors) {
  const e = new Error(errors.map((x) => x.reason).join('; '));
  e.reason = e.message;
  return e;
}

/** The code's refusal among an edit's problems (at /scenario/code), or null. */
export function codeProblem(errors) {
  return (errors || []).find((e) => e.path === '/scenario/code') || null;
}

export class CodePanel {
  /** Whether the learner may write the client as code here: not offline, not in a challenge. */
  codeOffered() {
    return !isOfflineCopy() && !this.challenge;
  }

  /** The actions of the script a scenario with code may hold (the engine's `with_code`). */
  withCode() {
    return new Set((this.vocab.actions || []).filter((a) => a.with_code === true).map((a) => a.name));
  }

  /** The built-in client's knobs, written as code by the engine, become the client. */
  async switchToCode() {
    if (hasCode(this.state.s)) return;
    const allowed = this.withCode();
    let dropped = [];
    this.codeLoading = !codeEngineLoaded();
    this.markBusy();
    const keep = (a) => allowed.has(a.do);
    // The code is filled in by `finish`; a placeholder marks the edit as one to make.
    const changed = await this.model.setCode('-- preset', { keep: (a) => (keep(a) ? true : (dropped.push(a), false)), finish: withPreset }).finally(() => {
      this.codeLoading = false;
      if (!this.destroyed) this.markBusy();
    });
    if (!changed || this.destroyed) return;
    this.codeDraft = null;
    // The edit's change ran twice (asked, then made): each dropped action is named once.
    const seen = new Set();
    dropped = dropped.filter((a) => !seen.has(JSON.stringify(a)) && seen.add(JSON.stringify(a)));
    this.codeStatus = dropped.length ? { key: 'sbCode.dropped', params: { actions: dropped.map((a) => `${a.do}${a.intent ? ` ${a.intent}` : ''} @${a.at}ms`).join(', ') }, warn: true } : { key: 'sbCode.switched' };
    this.refreshClient({ focus: true });
  }

  /** The learner's code goes; the built-in client (its knobs as they are) is back. */
  async switchToBuiltIn() {
    const changed = await this.model.setCode(null);
    if (!changed || this.destroyed) return;
    this.codeDraft = null;
    this.setAside = null;
    this.codeStatus = { key: 'sbCode.backToBuiltIn' };
    this.refreshClient({ focus: true });
  }

  /**
   * A client knob in code mode is a preset: the knob changes and the code becomes the
   * engine's code for the new knobs, one edit (Undo brings the code before back).
   */
  async setKnobWithCode(group, name, value) {
    const before = this.state.s.code;
    const draft = this.codeDraft;
    const changed = await this.model.setKnob(group, name, value, group === 'client' ? withPreset : null);
    if (!changed || this.destroyed || group !== 'client') return changed;
    this.codeDraft = null;
    // Typed and not run: not lost with the code it replaced (Undo brings back the code that ran).
    const unran = typeof draft === 'string' && draft !== before && this.state.s.code !== before;
    if (unran) this.setAside = draft;
    this.codeStatus = this.state.s.code === before ? { key: 'sbCode.sameCode' } : { key: unran ? 'sbCode.replacedDraft' : 'sbCode.replaced' };
    this.refreshClient();
    return changed;
  }

  /** The editor's text becomes the client's code (one edit): Run, or Ctrl+Enter. */
  async applyCode() {
    const code = this.codeDraft === null || this.codeDraft === undefined ? this.state.s.code : this.codeDraft;
    if (!hasCode(this.state.s)) return;
    if (!code.trim()) {
      this.codeStatus = { key: 'sbCode.empty', warn: true };
      this.refreshClient();
      return;
    }
    markCodeSeen(code);
    if (code === this.state.s.code && !codeProblem(this.editError)) {
      this.codeStatus = { key: 'sbCode.alreadyRan' };
      this.refreshClient();
      return;
    }
    this.codeStatus = null;
    const changed = await this.model.setCode(code);
    if (this.destroyed) return;
    if (changed) {
      if (this.codeDraft === code) this.codeDraft = null;
      this.setAside = null;
      this.codeStatus = { key: 'sbCode.ran' };
      // On a phone the drawer covers the run: take the learner to it. On a wide screen the
      // run is beside the editor and the ending over it: the keyboard stays in the code.
      if (this.narrow && this.narrow.matches) this.showSummary('nearest');
    }
    this.refreshClient();
  }

  /** The edit a knob's preset replaced before it ran goes back in the editor, not run. */
  putBackDraft() {
    const box = this.el.clientBody;
    if (typeof this.setAside !== 'string' || !box || !box.editor) return;
    this.codeDraft = this.setAside;
    this.setAside = null;
    box.editor.setValue(this.codeDraft);
    this.codeStatus = { key: 'sbCode.putBackDone' };
    this.refreshClient();
    box.editor.area.focus();
  }

  /** The client section: built when code mode turns on or off, refreshed otherwise. */
  renderClient() {
    const coded = hasCode(this.state.s);
    const shape = `${coded}`;
    if (this.clientShape === shape && this.el.clientBody) {
      this.refreshClient();
      return;
    }
    this.clientShape = shape;
    const box = (this.el.clientBody = {});
    const heading = h('h3', { id: 'sb-client-h', class: 'section-title' }, t('sbCode.title'));
    if (!coded) {
      // Nothing to offer (offline, a challenge): no section. Else one compact row, so that
      // the drawer (and a wide page) grows by little.
      const offered = this.codeOffered();
      this.el.client.classList.toggle('is-empty', !offered);
      replaceChildren(
        this.el.client,
        offered ? h('div', { class: 'sb-client-row' }, heading, h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'sb-to-code', 'data-fkey': 'sb-to-code', 'aria-describedby': 'sb-client-lead', onclick: () => this.switchToCode() }, t('sbCode.toCode'))) : null,
        offered ? h('p', { class: 'muted small', id: 'sb-client-lead' }, t('sbCode.builtIn')) : null,
        (box.status = h('p', { class: 'small', role: 'status', 'data-testid': 'sb-code-status' })),
      );
      this.refreshClient();
      return;
    }
    this.el.client.classList.remove('is-empty');
    box.editor = codeEditor({
      value: this.codeDraft ?? this.state.s.code,
      labelId: 'sb-code-label',
      hintId: 'sb-code-keys',
      onInput: (text) => {
        this.codeDraft = text;
        this.refreshClient();
      },
    });
    box.editor.area.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
        ev.preventDefault();
        this.applyCode();
      }
    });
    box.stale = h('p', { class: 'notice notice-warn small', 'data-testid': 'sb-code-stale', hidden: true }, t('sbCode.notRun'));
    box.error = h('div', { 'data-testid': 'sb-code-error', hidden: true });
    box.unexpressed = h('div', { 'data-testid': 'sb-code-unexpressed', hidden: true });
    box.status = h('p', { class: 'small', role: 'status', 'data-testid': 'sb-code-status' });
    box.putBack = h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'sb-code-put-back', hidden: true, onclick: () => this.putBackDraft() }, t('sbCode.putBack'));
    replaceChildren(
      this.el.client,
      heading,
      h('p', { class: 'muted small' }, t('sbCode.coded')),
      h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'sb-to-builtin', 'data-fkey': 'sb-to-builtin', onclick: () => this.switchToBuiltIn() }, t('sbCode.toBuiltIn')),
      h('p', { class: 'sb-code-label' }, h('label', { id: 'sb-code-label', for: 'code-area' }, t('sbCode.editorLabel'))),
      h('p', { class: 'muted small', id: 'sb-code-keys' }, t('sbCode.keys')),
      box.editor.el,
      box.stale,
      h('div', { class: 'btn-row' }, h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'sb-code-run', 'data-fkey': 'sb-code-run', onclick: () => this.applyCode() }, t('sbCode.run'))),
      box.error,
      box.status,
      box.putBack,
      box.unexpressed,
    );
    this.refreshClient();
  }

  /** The code, its refusal, what it leaves out and the last word on an edit, as they are now. */
  refreshClient({ focus = false } = {}) {
    const box = this.el.clientBody;
    if (!box) return;
    if (this.clientShape !== `${hasCode(this.state.s)}`) {
      this.renderClient();
      if (focus) this.focusClient();
      return;
    }
    const st = this.codeStatus;
    box.status.textContent = st ? t(st.key, st.params) : '';
    box.status.hidden = !st;
    box.status.className = st && st.warn ? 'notice notice-warn small' : 'small';
    if (!box.editor) {
      if (focus) this.focusClient();
      return;
    }
    const code = this.state.s.code;
    if (this.codeDraft === null || this.codeDraft === undefined) {
      // Code the engine wrote (a switch, a knob, Undo) is read from its top.
      if (box.editor.value() !== code) {
        box.editor.setValue(code);
        box.editor.area.setSelectionRange(0, 0);
        box.editor.area.scrollTop = 0;
      }
    } else if (this.codeDraft === code) {
      this.codeDraft = null;
    }
    const draft = this.codeDraft ?? code;
    // An emptied editor has no line to point at: its last refusal is of code no longer there.
    const problem = draft.trim() ? codeProblem(this.editError) : null;
    box.stale.hidden = draft === code;
    box.putBack.hidden = typeof this.setAside !== 'string';
    // A refusal of a change that kept the code (a fault, a knob, the script): the code did run,
    // the change is what was not made.
    this.drawCodeError(box, problem, draft === code);
    this.drawUnexpressed(box);
    if (focus) this.focusClient();
  }

  focusClient() {
    const box = this.el.clientBody;
    const target = box && box.editor ? box.editor.area : this.el.client.querySelector('[data-testid="sb-to-code"]');
    if (!target) return;
    target.focus({ preventScroll: true });
    if (box && box.editor && box.editor.area === target && this.codeDraft === null) {
      target.setSelectionRange(0, 0);
      target.scrollTop = 0;
    }
    target.scrollIntoView({ block: 'nearest' });
  }

  /** The engine's refusal of the code: its kind, its words, its place and the way there. */
  drawCodeError(box, problem, codeRan = false) {
    box.error.hidden = !problem;
    box.editor.markLine(problem && Number.isInteger(problem.line) ? problem.line : null);
    if (!problem) {
      replaceChildren(box.error);
      return;
    }
    const where = placeText(problem.line, problem.column);
    replaceChildren(
      box.error,
      h(
        'div',
        { class: 'notice notice-warn', role: 'alert', 'data-kind': problem.kind || '' },
        // One block: a notice lays its children side by side.
        h(
          'div',
          null,
          h('p', null, t(codeRan ? 'sbCode.refusedChange' : 'sbCode.refused')),
        h('p', { 'data-testid': 'sb-code-error-reason' }, problem.text ? l(problem.text) : h('span', { lang: 'en' }, problem.reason)),
        where
          ? h(
              'p',
              null,
              h('span', { 'data-testid': 'sb-code-error-where' }, where),
              ' ',
              h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'sb-code-goto', onclick: () => box.editor.goToLine(problem.line, problem.column) }, t('code.goToLine', { line: problem.line })),
            )
          : null,
        ),
      ),
    );
  }

  /** What the knobs' own code does not carry (the engine's `unexpressed`), with each knob's name. */
  drawUnexpressed(box) {
    const p = this.model.preset;
    const list = p && this.state.s.code === p.code ? p.unexpressed : [];
    box.unexpressed.hidden = !list.length;
    if (!list.length) {
      replaceChildren(box.unexpressed);
      return;
    }
    const knobs = this.vocab.knobs || [];
    // Each knob as the knob list names it (group.name), its value, and the engine's meaning of that value.
    const meaning = (u) => {
      const [group, knob] = String(u.knob).split('.');
      const k = knobs.find((x) => x.group === group && x.name === knob);
      const v = k && (k.values || []).find((x) => x.name === String(u.value));
      return v ? l(v.meaning) : '';
    };
    replaceChildren(
      box.unexpressed,
      h('p', { class: 'small' }, t('sbCode.unexpressed')),
      h(
        'ul',
        { class: 'small sb-code-unexpressed' },
        list.map((u) => h('li', null, h('code', null, `${u.knob} = ${typeof u.value === 'string' ? u.value : JSON.stringify(u.value)}`), meaning(u) ? ` (${meaning(u)})` : null)),
      ),
    );
  }
}
