// A code mode exercise (#/code/<id>, issue 34): its title and task, an editor with the
// learner's code (kept in this browser as it is typed), the hint ladder, Check (the code
// engine's `grade`: the explorer over the exercise's fault space with this code, in a Web
// Worker of its own, with its progress and a Cancel), Reset to the skeleton, and a link that
// carries the code (#/code/<id>?c=<code>). A link's code is shown, never run, until the
// learner presses Check. Everything the result says is the engine's (code-result.js).

import { h, replaceChildren } from '../dom.js';
import { t, l } from '../i18n.js';
import { codeHash, codeListHash, replaceHash } from '../router.js';
import { encodeSource } from '../sandbox/codec.js';
import { codeEditor } from './code-editor.js';
import { gradeResult, checkFailed, inputErrors } from './code-result.js';
import { focusWhenLaidOut } from './stepcontrols.js';

const fmt = (n) => Number(n).toLocaleString('en-US');

export class CodeExerciseView {
  /**
   * ex: the exercise (its file, read: exercises.js); code: what the editor starts with;
   * carried: true when that code came from the address (a shared link); code engine:
   * `callCode(method, input, opts)` and `cancelCode()` (main.js); keeper: a CodeKeeper.
   */
  constructor(root, { ex, code, carried = false, own = null, notices = [], callCode, cancelCode, keeper, focus = false }) {
    this.kind = 'code';
    this.root = root;
    this.ex = ex;
    this.id = ex.id;
    this.callCode = callCode;
    this.cancelCode = cancelCode;
    this.keeper = keeper;
    this.code = code;
    this.carried = carried;
    this.own = own; // the learner's own code kept here, when a link's code is shown instead
    this.notices = [...notices];
    this.hintsShown = 0;
    this.check = null; // {running, progress} | {out} | {failed} | {cancelled}
    this.saveFailed = false;
    this.resetFrom = null; // the code before the last Reset, to bring back
    this.mount();
    document.title = `${l(ex.title)} · idemlab`;
    if (focus) focusWhenLaidOut(this.root.querySelector('[data-testid="code-title"]'));
  }

  mount() {
    const el = (this.el = {});
    el.notices = h('div', { class: 'notices', 'data-testid': 'code-notices' });
    el.editor = codeEditor({ value: this.code, labelId: 'code-editor-label', hintId: 'code-editor-hint', onInput: (text) => this.onEdit(text) });
    el.saved = h('p', { class: 'muted small', role: 'status', 'data-testid': 'code-saved' });
    el.check = h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'code-check', onclick: () => this.runCheck() }, t('code.check'));
    el.reset = h('button', { type: 'button', class: 'btn', 'data-testid': 'code-reset', onclick: () => this.reset() }, t('code.reset'));
    el.copy = h('button', { type: 'button', class: 'btn', 'data-testid': 'code-copy', onclick: () => this.copyLink() }, t('code.copyLink'));
    el.status = h('p', { class: 'muted small', role: 'status', 'data-testid': 'code-status' });
    el.hints = h('ol', { class: 'code-hints', 'data-testid': 'code-hints' });
    el.hintBtn = h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'code-hint-next', onclick: () => this.nextHint() });
    el.result = h('section', { class: 'card code-result', 'data-testid': 'code-result', 'aria-labelledby': 'code-result-h', tabindex: '-1', hidden: true });
    replaceChildren(
      this.root,
      h(
        'section',
        { class: 'lesson-view code-view', 'data-testid': 'code-view', 'data-exercise': this.id },
        h('a', { class: 'back-link', href: codeListHash(), 'data-testid': 'back' }, t('code.back')),
        h('h2', { class: 'view-title', 'data-testid': 'code-title', tabindex: '-1' }, l(this.ex.title)),
        el.notices,
        h('p', { class: 'lead', 'data-testid': 'code-task' }, l(this.ex.task)),
        h('p', { class: 'muted small' }, t('code.searchesK', { k: this.ex.faults })),
        h(
          'section',
          { class: 'card code-editor-card', 'aria-labelledby': 'code-editor-label' },
          h('h3', { class: 'section-title' }, h('label', { id: 'code-editor-label', for: 'code-area' }, t('code.editorLabel'))),
          h('p', { class: 'muted small', id: 'code-editor-hint', 'data-testid': 'code-editor-hint' }, t('code.editorKeys')),
          el.editor.el,
          el.saved,
          h('div', { class: 'btn-row', role: 'group', 'aria-label': t('code.actions') }, el.check, el.reset, el.copy),
          el.status,
        ),
        h('section', { class: 'card code-hints-card', 'aria-labelledby': 'code-hints-h' }, h('h3', { id: 'code-hints-h', class: 'section-title' }, t('code.hintsTitle')), el.hints, el.hintBtn),
        el.result,
      ),
    );
    this.renderNotices();
    this.renderHints();
    this.renderCheck();
  }

  // --- the code ---------------------------------------------------------------------

  onEdit(text) {
    this.code = text;
    this.resetFrom = null;
    this.adopt();
    this.markStale();
    const kept = this.keeper.saveCode(this.id, text);
    if (kept === !this.saveFailed) return; // as before: nothing new to say
    this.saveFailed = !kept;
    // Said once when it starts failing, and once when it works again; the code on screen stays.
    this.el.saved.textContent = kept ? t('code.savedAgain') : t('code.notSaved');
    this.el.saved.className = kept ? 'muted small' : 'notice notice-warn small';
  }

  /**
   * The link's code becomes the learner's (an edit, a Check): kept from now on, and the
   * address is the exercise's own, so that a reload shows the code as it is now.
   */
  adopt() {
    if (!this.carried) return;
    this.carried = false;
    // The learner's own code is not lost: put aside (kept under its own key), and the
    // button that puts it back stays until they use it or dismiss it.
    if (this.own !== null) this.keeper.saveOwnCode(this.id, this.own);
    replaceHash(codeHash(this.id));
    this.keeper.saveCode(this.id, this.code);
    this.renderNotices();
  }

  /** The link's code put aside: the learner's own code, as kept, back in the editor. */
  putBackOwn() {
    if (this.own === null) return;
    const own = this.own;
    this.el.editor.setValue(own);
    this.code = own;
    this.carried = false;
    this.own = null;
    this.resetFrom = null;
    this.keeper.saveCode(this.id, own);
    this.keeper.forgetOwnCode(this.id);
    replaceHash(codeHash(this.id));
    this.markStale();
    this.renderNotices();
    this.el.status.textContent = t('code.ownBack');
    this.el.editor.area.focus();
  }

  /** The learner's own code, put aside, is not wanted back: forgotten. */
  dismissOwn() {
    if (this.own === null) return;
    this.own = null;
    this.keeper.forgetOwnCode(this.id);
    this.renderNotices();
    this.el.status.textContent = t('code.ownDismissed');
    this.el.editor.area.focus();
  }

  reset() {
    if (this.code === this.ex.skeleton) return;
    const before = this.code;
    this.el.editor.setValue(this.ex.skeleton);
    this.onEdit(this.ex.skeleton);
    this.resetFrom = before;
    this.el.editor.markLine(null);
    replaceChildren(
      this.el.status,
      t('code.wasReset'),
      ' ',
      h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'code-undo-reset', onclick: () => this.undoReset() }, t('code.undoReset')),
    );
  }

  undoReset() {
    if (this.resetFrom === null) return;
    const back = this.resetFrom;
    this.el.editor.setValue(back);
    this.onEdit(back);
    this.el.status.textContent = t('code.resetUndone');
    this.el.editor.area.focus();
  }

  goTo(line, column) {
    this.el.editor.markLine(line);
    this.el.editor.goToLine(line, column);
  }

  async copyLink() {
    const url = new URL(window.location.href);
    url.hash = codeHash(this.id, encodeSource(this.code));
    try {
      await navigator.clipboard.writeText(url.href);
      this.el.status.textContent = t('code.copied');
    } catch (_) {
      // No clipboard here: the address bar holds the link to copy by hand.
      replaceHash(url.hash);
      this.el.status.textContent = t('code.copyManual');
    }
  }

  // --- hints, notices -----------------------------------------------------------------

  nextHint() {
    if (this.hintsShown >= this.ex.hints.length) return;
    this.hintsShown += 1;
    this.renderHints();
  }

  renderHints() {
    const n = this.ex.hints.length;
    replaceChildren(this.el.hints, this.ex.hints.slice(0, this.hintsShown).map((hint, i) => h('li', { 'data-testid': 'code-hint', tabindex: i === this.hintsShown - 1 ? '-1' : null }, l(hint))));
    this.el.hintBtn.textContent = this.hintsShown >= n ? t('code.noMoreHints') : t(this.hintsShown === 0 ? 'code.firstHint' : 'code.nextHint', { k: this.hintsShown + 1, n });
    this.el.hintBtn.disabled = this.hintsShown >= n;
    if (this.hintsShown === 0 && n === 0) this.el.hintBtn.hidden = true;
  }

  renderNotices() {
    const own = this.own !== null ? h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'code-own', onclick: () => this.putBackOwn() }, t('code.putBackOwn')) : null;
    const carried = this.carried ? h('div', { class: 'notice notice-warn', role: 'note', 'data-testid': 'code-carried-notice' }, h('p', null, t('code.carriedNotice')), own) : null;
    // The link's code is the learner's now; their own code from before is put aside.
    const aside =
      !this.carried && own
        ? h(
            'div',
            { class: 'notice', role: 'note', 'data-testid': 'code-own-notice' },
            h('p', null, t('code.ownAside')),
            h('div', { class: 'btn-row' }, own, h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'code-own-dismiss', onclick: () => this.dismissOwn() }, t('code.ownDismiss'))),
          )
        : null;
    replaceChildren(
      this.el.notices,
      carried,
      aside,
      this.notices.map((n) => h('div', { class: 'notice notice-warn', role: 'status', 'data-testid': n.testid || 'notice' }, h('p', null, t(n.key, n.params)))),
    );
  }

  // --- Check ---------------------------------------------------------------------------

  async runCheck() {
    if (this.check && this.check.running) return;
    const code = this.code;
    this.check = { running: true, progress: null, code };
    this.el.editor.markLine(null);
    this.renderCheck();
    let out;
    try {
      out = await this.callCode('grade', { exercise: this.exerciseInput(), code }, { cancellable: true, onProgress: (p) => this.onProgress(p) });
    } catch (e) {
      if (this.destroyed) return;
      this.check = e && e.cancelled ? { cancelled: true } : { failed: (e && (e.reason || e.message)) || String(e) };
      this.renderCheck();
      return;
    }
    if (this.destroyed) return;
    const problems = inputErrors(out);
    if (problems) {
      this.check = { failed: problems[0].text ? { text: problems[0].text } : problems.map((p) => (p.path ? `${p.path}: ` : '') + p.reason).join('; ') };
    } else {
      this.check = { out, code };
      this.keeper.recordCheck(this.id, out.passed === true);
      // A link's code has now been run by the learner's own choice: it is theirs.
      if (this.carried && this.code === code) this.adopt();
      if (out.error && Number.isInteger(out.error.line)) this.el.editor.markLine(out.error.line);
    }
    this.renderCheck({ focus: true });
  }

  /** The exercise as the engine reads it: the file's own fields (not the page's level and file). */
  exerciseInput() {
    const { file: _f, ...ex } = this.ex;
    return ex;
  }

  cancel() {
    if (!this.check || !this.check.running) return;
    this.cancelCode();
  }

  onProgress(p) {
    if (!this.check || !this.check.running) return;
    this.check.progress = p;
    const line = this.el.result.querySelector('[data-testid="code-progress"]');
    const bar = this.el.result.querySelector('[data-testid="code-progress-bar"]');
    if (line) line.textContent = this.progressText();
    if (bar) bar.value = this.progressPct();
  }

  progressPct() {
    const p = this.check && this.check.progress;
    if (!p || !p.total || !p.max_faults) return 0;
    const per = 100 / p.max_faults;
    return Math.round((p.depth - 1) * per + (per * p.done) / p.total);
  }

  progressText() {
    const p = this.check && this.check.progress;
    if (!p) return t('code.checking');
    return t('code.progress', { depth: p.depth, k: p.max_faults, done: fmt(p.done), total: fmt(p.total), n: fmt(p.schedules) });
  }

  /**
   * Whether the result shown is about code other than the editor's: the code was edited
   * after (or during) its Check. The exercise's standing stays (it records that Check).
   */
  isStale() {
    const c = this.check;
    return !!(c && c.out && c.code !== this.code);
  }

  /** The result marked (dimmed, with a line saying so) as about older code, or not. */
  markStale() {
    const stale = this.isStale();
    this.el.result.classList.toggle('is-stale', stale);
    if (stale) this.el.result.setAttribute('data-stale', 'true');
    else this.el.result.removeAttribute('data-stale');
    if (this.el.stale) this.el.stale.hidden = !stale;
  }

  renderCheck({ focus = false } = {}) {
    const c = this.check;
    const running = !!(c && c.running);
    this.el.check.setAttribute('aria-disabled', running ? 'true' : 'false');
    this.el.check.textContent = t(running ? 'code.checkingShort' : 'code.check');
    const root = this.root.querySelector('[data-testid="code-view"]');
    if (root) root.setAttribute('aria-busy', running ? 'true' : 'false');
    this.el.result.hidden = !c;
    if (!c) return;
    let body;
    if (running) {
      body = [
        h('p', { role: 'status', 'data-testid': 'code-progress' }, this.progressText()),
        h('progress', { max: '100', value: String(this.progressPct()), 'data-testid': 'code-progress-bar', 'aria-label': t('code.checking') }),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'code-cancel', onclick: () => this.cancel() }, t('code.cancel')),
      ];
    } else if (c.cancelled) {
      body = h('p', { role: 'status', 'data-testid': 'code-cancelled' }, t('code.cancelled'));
    } else if (c.failed) {
      body = checkFailed(c.failed);
    } else {
      body = gradeResult(c.out, { goTo: (line, column) => this.goTo(line, column), call: (m, input) => this.callCode(m, input), exercise: this.id });
    }
    const hadFocus = this.el.result.contains(document.activeElement);
    this.el.stale = c.out ? h('p', { class: 'notice notice-warn small code-stale', 'data-testid': 'code-stale', hidden: true }, t('code.stale')) : null;
    replaceChildren(this.el.result, h('h3', { id: 'code-result-h', class: 'section-title' }, t('code.resultTitle')), h('div', { 'aria-live': 'polite' }, this.el.stale, h('div', { class: 'code-result-body' }, body)));
    this.markStale();
    this.el.result.setAttribute('data-outcome', running ? 'running' : c.cancelled ? 'cancelled' : c.failed ? 'failed' : c.out.error ? 'error' : c.out.passed ? 'passed' : c.out.counterexample ? 'counterexample' : 'unsettled');
    // The verdict replaces Cancel, or comes after Check far up the page: the keyboard goes to it.
    if (running && this.el.check === document.activeElement) return;
    if (focus || hadFocus) {
      this.el.result.focus({ preventScroll: true });
      this.el.result.scrollIntoView({ block: 'nearest' });
    }
  }

  // --- the page's hooks ------------------------------------------------------------------

  onKey() {
    return false;
  }

  /** The language changed: the same code, hints, notices and result, relabelled. */
  relabel() {
    this.mount();
    document.title = `${l(this.ex.title)} · idemlab`;
  }

  destroy() {
    this.destroyed = true;
    if (this.check && this.check.running) this.cancelCode();
  }
}
