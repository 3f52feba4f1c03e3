// Code mode's routes (issue 34): #/code, the exercises by level, and #/code/ID, one exercise
// (?c= a link's code), with the code engine they check with (engine/idemlab-code.wasm, in a
// worker of its own). main.js routes here; what is kept lives here, not in the page's app.

import { h, replaceChildren } from '../dom.js';
import { t } from '../i18n.js';
import { codeCall, cancelCode } from '../code-engine.js';
import { replaceHash, shortText } from '../router.js';
import { ExerciseStore, CodeKeeper } from '../exercises.js';

let exercises = null; // the exercises' store and the learner's code, once code mode is opened
let keeper = null;

/**
 * Code mode: its exercises (#/code), or one exercise (#/code/ID, ?c= a link's code), drawn
 * into `mainEl`; the exercise's view, or null (the list).
 */
export async function showCode(r, isCurrent, { mainEl, setReady, openQuestions = null }) {
  if (!exercises) {
    exercises = new ExerciseStore();
    keeper = new CodeKeeper();
  }
  if (!isCurrent()) return null;
  if (r.name === 'codeList') {
    document.title = `${t('code.title')} · idemlab`;
    const { renderCodeList } = await import('./code-list.js');
    if (!isCurrent()) return null;
    renderCodeList(mainEl, { exercises, keeper, isCurrent });
    setReady(true);
    window.scrollTo(0, 0);
    mainEl.querySelector('.view-title').focus({ preventScroll: true });
    return null;
  }
  replaceChildren(mainEl, h('p', { class: 'loading', 'aria-busy': 'true' }, t('app.loading')));
  let ex = null;
  let problem = null;
  try {
    ex = await exercises.find(r.id);
  } catch (e) {
    problem = e.message || String(e);
  }
  if (!isCurrent()) return null;
  if (!ex) {
    replaceHash('#/code');
    const { renderCodeList } = await import('./code-list.js');
    if (!isCurrent()) return null;
    renderCodeList(mainEl, { exercises, keeper, isCurrent });
    mainEl.querySelector('.list-view').prepend(h('p', { class: 'notice notice-warn', role: 'alert', 'data-testid': 'route-message' }, problem ? t('code.cannotOpen', { reason: problem }) : t('code.unknownExercise', { id: shortText(r.id) })));
    setReady(true);
    return null;
  }
  const opened = await codeToOpen(ex, r);
  // The lesson this exercise follows, with questions still open: its hints and its
  // counterexamples answer some of them. Said, as the sandbox says it of its runs.
  const open = ex.after && openQuestions ? await openQuestions(ex.after) : 0;
  if (!isCurrent()) return null;
  if (open > 0) opened.notices.unshift({ key: open === 1 ? 'code.spoiler.one' : 'code.spoiler', params: { n: open }, testid: 'code-spoiler' });
  const { CodeExerciseView } = await import('./code-exercise.js');
  if (!isCurrent()) return null;
  const view = new CodeExerciseView(mainEl, { ex, ...opened, callCode: codeCall, cancelCode, keeper, focus: true });
  setReady(true);
  return view;
}

/** What the editor starts with: a link's code, else the code kept here, else the skeleton. */
async function codeToOpen(ex, r) {
  const notices = r.extra ? [{ key: 'notice.extraIgnored', params: { extra: shortText(r.extra) }, testid: 'notice-extra-path' }] : [];
  if (r.carried) {
    const { decodeSource } = await import('../sandbox/codec.js');
    const got = decodeSource(r.carried);
    if (!got.error) {
      // Shown, not kept: the learner's own code stays kept until they edit or check the
      // link's (a button in the link's notice puts their own back).
      const own = keeper.code(ex.id);
      return { code: got.source, carried: true, own: own !== null && own !== got.source ? own : null, notices };
    }
    notices.push({ key: 'code.badLink', params: { reason: t(got.error.key, got.error.params) }, testid: 'code-bad-link' });
  }
  const kept = keeper.code(ex.id);
  // The learner's own code, put aside when a link's code became theirs: still offered back.
  let own = keeper.ownCode(ex.id);
  if (own !== null && own === kept) {
    keeper.forgetOwnCode(ex.id);
    own = null;
  }
  return { code: kept === null ? ex.skeleton : kept, carried: false, own, notices };
}

