// Before a sandbox link whose scenario carries client code runs (code mode): the gate. The
// code is shown, read only, with a notice that the link carries code and nothing has run
// yet, and two ways on: run it in the sandbox, or open the same state without the code (the
// built-in client). Code this tab ran or switched to before (code-engine.js codeSeen) opens
// at once: a reload of the learner's own sandbox is not stopped. Also here: what the page
// says when the code engine cannot run a link's code (it did not load).

import { h, replaceChildren } from '../dom.js';
import { t } from '../i18n.js';
import { listHash, replaceHash, sandboxHash } from '../router.js';
import { isOfflineCopy } from '../bundled.js';
import { codeSeen, markCodeSeen } from '../code-engine.js';
import { encodeState } from '../sandbox/codec.js';
import { engineErrorCard } from './errors.js';

/** The state without its code: the built-in client, the rest as it was. */
export function withoutCode(state) {
  const next = JSON.parse(JSON.stringify(state));
  delete next.s.code;
  if (next.a) delete next.a.code;
  return next;
}

/**
 * The state to open: at once when its code was seen in this tab; else after the learner
 * chose at the gate drawn into `root` (the state, or the state without its code, its
 * address then written). Pending while the learner has not chosen.
 */
export function passGate(root, state, { setReady }) {
  if (!isOfflineCopy() && codeSeen(state.s.code)) return Promise.resolve(state);
  return new Promise((resolve) => {
    const loading = () => replaceChildren(root, h('p', { class: 'loading', 'aria-busy': 'true', 'data-testid': 'sb-gate-loading' }, t('sbCode.loading')));
    const run = () => {
      markCodeSeen(state.s.code);
      loading();
      resolve(state);
    };
    const without = () => {
      const next = withoutCode(state);
      replaceHash(sandboxHash(encodeState(next)));
      loading();
      resolve(next);
    };
    drawGate(root, state.s.code, { run: isOfflineCopy() ? null : run, without });
    setReady(true);
  });
}

function drawGate(root, code, { run, without }) {
  const lines = code.replace(/\n$/, '').split('\n').length; // a last newline ends a line, it starts none
  replaceChildren(
    root,
    h(
      'section',
      { class: 'lesson-view sb-gate', 'data-testid': 'sb-gate' },
      h('a', { class: 'back-link', href: listHash(), 'data-testid': 'back' }, t('nav.back')),
      h('h2', { class: 'view-title', tabindex: '-1', 'data-testid': 'sb-gate-title' }, t('sbGate.title')),
      h(
        'div',
        { class: 'notice notice-warn', role: 'note', 'data-testid': 'sb-gate-notice' },
        h('p', null, t('sbGate.notice')),
        run ? null : h('p', null, t('sbGate.offline')),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'sb-gate-code-h' },
        h('h3', { id: 'sb-gate-code-h', class: 'section-title' }, t(lines === 1 ? 'sbGate.codeTitle.one' : 'sbGate.codeTitle', { lines })),
        // Read only, scrolled by keyboard as well (it is focusable).
        h('pre', { class: 'sb-gate-code', tabindex: '0', 'aria-labelledby': 'sb-gate-code-h', 'data-testid': 'sb-gate-code' }, h('code', null, code)),
      ),
      h(
        'div',
        { class: 'btn-row', role: 'group', 'aria-label': t('sbGate.actions') },
        run ? h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'sb-gate-run', onclick: run }, t('sbGate.run')) : null,
        h('button', { type: 'button', class: 'btn', 'data-testid': 'sb-gate-without', onclick: without }, t('sbGate.without')),
      ),
    ),
  );
  document.title = `${t('sbGate.title')} · idemlab`;
  root.querySelector('[data-testid="sb-gate-title"]').focus({ preventScroll: true });
}

/**
 * The code engine could not run the link's code (it did not load, or stopped): said as
 * the page says any engine's failure, with a retry (`retry()`) and the way to the same
 * state without the code.
 */
export function codeEngineFailed(root, err, state, { retry, setReady }) {
  const e = err && err.kind ? err : { kind: 'damaged', file: 'engine/idemlab-code.js', reason: (err && (err.reason || err.message)) || String(err) };
  replaceChildren(
    root,
    h(
      'section',
      { 'data-testid': 'sb-code-engine-failed' },
      h('a', { class: 'back-link', href: listHash(), 'data-testid': 'back' }, t('nav.back')),
      engineErrorCard(e, { onRetry: retry, stillWorks: true }),
      h('p', null, h('a', { href: sandboxHash(encodeState(withoutCode(state))), 'data-testid': 'sb-code-engine-without' }, t('sbGate.without'))),
    ),
  );
  setReady(true);
  const title = root.querySelector('[data-testid="engine-error-title"]');
  if (title) title.focus({ preventScroll: true });
}
