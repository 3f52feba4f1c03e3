// idemlab page: wires the engine, the lesson files, progress and the views.
// The page never decides an answer; it renders what the engine returns.

import { h, replaceChildren, afterNextPaint } from './dom.js';
import { t, getLang, setLang, onLangChange, stringsReady, preloadOtherStrings, unknownLangAsked } from './i18n.js';
import { Engine, EngineError } from './engine.js';
import { LessonStore } from './lessons.js';
import { Progress } from './progress.js';
import { currentRoute, onRoute, listHash, lessonHash, replaceHash, hashSettled, flushPendingHash, shortText } from './router.js';
import { letterKey } from './keys.js';
// The sandbox's link codec (with fflate): loaded for the sandbox, not on a lesson's way.
const codec = () => import('./sandbox/codec.js');
import { isEmbedded, params as embedParams, listenToHost, postReady, newView } from './embed.js';
import { lmsParams } from './lms-launch.js';
import { isOfflineCopy } from './bundled.js';
import { useAxisPreference } from './views/diagram.js';
import { LessonView } from './views/lesson.js';
import { focusWhenLaidOut } from './views/stepcontrols.js';
import { engineErrorCard, fatalCard, lessonErrorCard, technicalDetails } from './views/errors.js';

// Views a lesson does not need to open and step, each a file of its own (the bundler splits
// dynamic imports off; the offline copy's one script holds them all): fetched when first shown.
const listView = () => import('./views/list.js');
const challengesView = () => import('./views/challenges.js');
const sandboxView = () => import('./views/sandbox.js');
const compareView = () => import('./views/compare.js');
const lessonTextView = () => import('./views/lessontext.js');
const importing = () => import('./importing.js');
const codeRoute = () => import('./views/code-route.js');

// When the page's script began to run (its modules' code, after the ones it imports): the
// bench and tests/browser/split.spec.mjs check that the lesson's data was asked for before
// (web/early.js), not after it.
performance.mark('idemlab-app');

const app = {
  engine: null, // the engine, in its Web Worker (engine.js), once loaded
  engineError: null,
  engineReady: null, // settles when the engine has loaded or failed to (null: not started)
  // call(method, input, {onProgress, cancellable}): a promise of the engine's output; starts
  // the engine if nothing has yet. Every engine call of the page goes through it.
  call: (method, input, opts) => withEngine().then((e) => e.call(method, input, opts)),

  store: null,
  progress: null,
  vocab: null, // the engine's vocabulary, asked once
  view: null, // the mounted LessonView, if any
  renderToken: 0,
  globalNotices: [],
};

let mainEl;
let noticeEl;

function setReady(ready) {
  if (ready) document.body.dataset.ready = 'true';
  else delete document.body.dataset.ready;
}

/** Last line of defence: whatever failed, show a message, never a blank page. */
function showFatal(err) {
  setReady(false);
  const target = mainEl || document.getElementById('app') || document.body;
  try {
    if (app.view) app.view.destroy();
  } catch (_) {
    /* ignore */
  }
  app.view = null;
  replaceChildren(target, fatalCard(err));
}

function renderNotices() {
  if (!noticeEl) return;
  replaceChildren(
    noticeEl,
    app.globalNotices.map((n, idx) =>
      h(
        'div',
        { class: ['notice', n.kind === 'ok' ? 'notice-ok' : n.kind === 'error' ? 'notice-error' : 'notice-warn'], role: n.kind === 'ok' ? 'status' : 'alert', 'data-testid': n.testid || 'notice' },
        h(
          'div',
          { class: 'notice-body' },
          h(
            'p',
            null,
            t(n.key, n.params),
            // The reason is the page's own, in English: introduced as such, marked as English.
            n.reason ? h('span', { class: 'muted', 'data-testid': 'notice-reason' }, t('notice.reasonOpen'), h('span', { lang: 'en' }, n.reason), t('notice.reasonClose')) : null,
          ),
          n.actions && n.actions.length
            ? h(
                'div',
                { class: 'btn-row' },
                n.actions.map((a) => h('button', { type: 'button', class: 'btn btn-small', 'data-testid': a.testid, onclick: a.run }, t(a.key))),
              )
            : null,
          n.detail ? technicalDetails(n.detail) : null,
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'btn btn-small',
            'aria-label': t('notice.dismiss'),
            onclick: () => {
              app.globalNotices.splice(idx, 1);
              renderNotices();
            },
          },
          '×',
        ),
      ),
    ),
  );
}

/**
 * A notice for the whole page. One of a `group` (the outcome of a progress import) takes the
 * place of the one before it: the latest file's outcome, not a pile of them.
 */
function notify(n) {
  if (n.group) app.globalNotices = app.globalNotices.filter((m) => m.group !== n.group);
  app.globalNotices.push(n);
  renderNotices();
  if (n.key === 'notice.imported' || n.key === 'notice.importedNotSaved') route();
  // The outcome of something the learner did far down the page (an import): shown where the
  // notices are, and the keyboard taken there, rather than said out of sight.
  if (n.group && noticeEl) {
    const el = noticeEl.lastElementChild;
    el.setAttribute('tabindex', '-1');
    el.scrollIntoView({ block: 'nearest' });
    el.focus({ preventScroll: true });
  }
}

/** Takes away the notices whose `field` is `value`: dropNotices('testid', 'engine-stopped'), dropNotices('group', 'import'). */
function dropNotices(field, value) {
  const before = app.globalNotices.length;
  app.globalNotices = app.globalNotices.filter((n) => n[field] !== value);
  if (app.globalNotices.length !== before) renderNotices();
}

// --- the engine: loaded once, loaded again on request (a failed load, or an instance that trapped)

function loadEngine() {
  app.engineError = null;
  // A restart starts from the module the last instance compiled (nothing is compiled again).
  const module = app.engine ? app.engine.module : null;
  app.engine = null;
  app.engineReady = Engine.load({ module }).then(
    (e) => {
      app.engine = e;
      e.onStop = engineStopped;
    },
    (e) => {
      app.engineError = e instanceof EngineError ? e : new EngineError('engine/idemlab.js', e.message || String(e), null, null, 'damaged');
    },
  );
  return app.engineReady;
}

/** The loaded engine (started now if nothing started it); rejects with the load's EngineError. */
function withEngine() {
  if (!app.engineReady) loadEngine();
  return app.engineReady.then(() => {
    if (app.engineError) throw app.engineError;
    return app.engine;
  });
}

/**
 * After the first view is drawn: start the engine and give it a first call, so its code is
 * compiled (in the worker) before the learner's first click needs it.
 */
function warmEngineAfterPaint() {
  const warm = () =>
    app
      .call('scenario', { scenario: DEFAULT_SCENARIO })
      .then((out) => (out && out.scenario ? app.call('run', { scenario: out.scenario }) : null))
      .catch(() => {}); // a failed load is said by start()
  afterNextPaint(warm);
}

/** The load failed: try again (the list and lesson texts stay as they are meanwhile). */
async function retryEngine() {
  await loadEngine();
  await route();
  if (!app.engineError) notify({ key: 'notice.engineLoaded', kind: 'ok', testid: 'notice-engine-loaded' });
}

/** A loaded engine trapped: say so, keep every view, and offer a fresh instance. */
function engineStopped(err) {
  dropNotices('testid', 'engine-stopped');
  notify({
    key: 'err.engineStoppedNotice',
    kind: 'error',
    testid: 'engine-stopped',
    detail: `${err.file}: ${err.reason}`,
    actions: [{ key: 'err.engineRestart', testid: 'engine-restart', run: restartEngine }],
  });
}

async function restartEngine() {
  dropNotices('testid', 'engine-stopped');
  await loadEngine();
  if (app.engineError) {
    await route();
    return;
  }
  notify({ key: 'notice.engineRestarted', kind: 'ok', testid: 'notice-engine-restarted' });
  if (!app.view) await route();
}

function engineCard(opts = {}) {
  return engineErrorCard(app.engineError, { onRetry: () => retryEngine().catch(showFatal), ...opts });
}

/** An import, checked again by the engine before the learner is asked (views/list.js). */
async function recheck(data) {
  await withEngine().catch(() => {});
  if (!app.engine || app.engineError) {
    const e = new Error('the engine is not loaded');
    e.key = 'notice.importNeedsEngine';
    throw e;
  }
  const { recheckImport } = await importing();
  return recheckImport(data, { store: app.store, progress: app.progress, call: app.call });
}

function listOptions(isCurrent, message) {
  return { store: app.store, progress: app.progress, notify, dropGroup: (group) => dropNotices('group', group), isCurrent, message, recheck, banner: app.engineError ? engineCard() : null };
}

/** Saving failed (storage full, or refused): say so until a save works again. */
function onSaveState(saved) {
  if (saved) {
    dropNotices('testid', 'notice-save-failed');
    return;
  }
  if (app.globalNotices.some((n) => n.testid === 'notice-save-failed')) return;
  notify({
    key: 'notice.saveFailed',
    kind: 'error',
    testid: 'notice-save-failed',
    actions: [{ key: 'progress.export', testid: 'notice-export', run: () => listView().then(({ exportProgress }) => exportProgress(app.store, app.progress)) }],
  });
}

function renderShell(root) {
  document.documentElement.lang = getLang();
  const langBtn = h(
    'button',
    {
      type: 'button',
      class: 'btn btn-lang',
      'data-testid': 'lang-switch',
      lang: getLang() === 'zh-CN' ? 'en' : 'zh-CN',
      'aria-label': `${t('lang.switch')} — ${t('lang.switchLabel')}`,
      // A visit fetches one language's strings: the other's start when the switch is about
      // to be used (pointer over it, a touch, the keyboard on it), so the click rarely waits.
      onpointerenter: preloadOtherStrings,
      onpointerdown: preloadOtherStrings,
      onfocus: preloadOtherStrings,
      onclick: () => setLang(getLang() === 'zh-CN' ? 'en' : 'zh-CN'),
    },
    t('lang.switch'),
  );
  noticeEl = h('div', { class: 'global-notices', 'data-testid': 'global-notices' });
  mainEl = h('main', { id: 'main', class: 'main', tabindex: '-1' });
  replaceChildren(
    root,
    h(
      'header',
      { class: 'app-header' },
      h(
        'h1',
        { class: 'brand-h1' },
        h(
          'a',
          { class: 'brand', href: listHash() },
          h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, h('span'), h('span'), h('span')),
          h('span', { class: 'brand-name' }, t('app.title')),
          h('span', { class: 'brand-tag' }, t('app.tagline')),
        ),
      ),
      langBtn,
    ),
    noticeEl,
    mainEl,
    siteFooter(),
  );
  renderNotices();
}

/** A link to the offline copy (in the offline copy itself: what it is). */
function siteFooter() {
  const note = isOfflineCopy()
    ? h('p', { 'data-testid': 'offline-note' }, t('footer.offlineCopy'))
    : h('p', null, h('a', { href: 'idemlab-offline.html', download: 'idemlab-offline.html', 'data-testid': 'offline-link' }, t('footer.offline')), t('footer.offlineHint'));
  return h('footer', { class: 'site-footer', 'data-testid': 'site-footer' }, note);
}

async function route() {
  const token = ++app.renderToken;
  const isCurrent = () => token === app.renderToken;
  const r = currentRoute();

  if (r.name === 'sandbox' && app.view && app.view.kind === 'sandbox' && app.view.followRoute(r.code, r.step, r.stepText, r.extra)) return;
  const ofLesson = r.name === 'lesson' || r.name === 'compare';
  if (ofLesson && app.view && app.view.kind === r.name && app.view.id === r.id) {
    app.view.followRoute(r.step, r.stepText, r.extra);
    return;
  }
  if (app.view) {
    app.view.destroy();
    app.view = null;
  }
  setReady(false);
  newView();

  if (ofLesson) {
    replaceChildren(mainEl, h('p', { class: 'loading', 'aria-busy': 'true' }, t('app.loading')));
    // A lesson opens from the run the build computed, without waiting for the engine; an
    // engine known not to load leaves the lesson's text under its card.
    if (app.engineError) {
      await showLessonText(r.id, isCurrent);
      return;
    }
    let rec;
    try {
      rec = await app.store.find(r.id);
    } catch (e) {
      // The index could not be read: the list shows its error card; the message above it
      // says which lesson was asked for. The address stays, so a reload tries it again.
      if (!isCurrent()) return;
      await showList(isCurrent, t('err.indexForLesson', { id: shortText(r.id) }));
      return;
    }
    if (!isCurrent()) return;
    if (!rec) {
      await showUnknownLesson(r.id, isCurrent);
      return;
    }
    if (rec.status === 'error' && rec.engineFailed && app.engineError) {
      await showLessonText(r.id, isCurrent);
      return;
    }
    if (rec.status === 'error') {
      showLessonError(rec);
      return;
    }
    if (r.name === 'compare' && !rec.compare) {
      // A side-by-side address for a lesson that has none (typed or from an old link):
      // the lesson itself works, so show it and say why, instead of an error card.
      replaceHash(lessonHash(rec.id));
      const notices = [{ key: 'notice.noCompare', testid: 'notice-no-compare' }];
      app.view = new LessonView(mainEl, { rec, store: app.store, progress: app.progress, initialStep: null, extra: r.extra, focus: true, notices });
      setReady(true);
      return;
    }
    if (r.name === 'compare') {
      if (!app.engine) replaceChildren(mainEl, h('p', { class: 'loading', 'aria-busy': 'true' }, t('app.loadingEngine')));
      const got = await app.store.compare(rec);
      if (!isCurrent()) return;
      if (got.errors && app.engineError) {
        await showLessonText(r.id, isCurrent);
        return;
      }
      if (got.errors) {
        showLessonError({ file: rec.file, errors: got.errors });
        return;
      }
      const { CompareView } = await compareView();
      if (!isCurrent()) return;
      app.view = new CompareView(mainEl, { rec, data: got.data, progress: app.progress, initialStep: r.step, stepText: r.stepText, extra: r.extra, focus: true, call: app.call });
      setReady(true);
      return;
    }
    app.view = new LessonView(mainEl, { rec, store: app.store, progress: app.progress, initialStep: r.step, stepText: r.stepText, extra: r.extra, focus: true });
    setReady(true);
    return;
  }
  if (r.name === 'sandbox') {
    replaceChildren(mainEl, h('p', { class: 'loading', 'aria-busy': 'true' }, t(app.engine ? 'app.loading' : 'app.loadingEngine')));
    if (!app.engineReady) loadEngine();
    await app.engineReady;
    if (!isCurrent()) return;
    if (app.engineError) {
      replaceChildren(mainEl, h('section', null, h('a', { class: 'back-link', href: listHash(), 'data-testid': 'back' }, t('nav.back')), engineCard({ stillWorks: true })));
      // The card is all the view has: the keyboard starts at its title, as on other views.
      mainEl.querySelector('[data-testid="engine-error-title"]').focus({ preventScroll: true });
      return;
    }
    await openSandbox(r, isCurrent);
    return;
  }
  if (r.name === 'codeList' || r.name === 'code') {
    const { showCode } = await codeRoute();
    if (!isCurrent()) return;
    // The questions of the lesson an exercise follows that are still open: its hints and its
    // counterexamples answer some of them (the sandbox says the same of its runs).
    const openQuestions = async (lessonId) => {
      try {
        const rec = await app.store.find(lessonId);
        if (!rec || rec.status !== 'ok' || !rec.run) return 0;
        return (rec.run.lesson.questions || []).filter((q) => !app.progress.isSettled(rec.id, q.id)).length;
      } catch (_) {
        return 0;
      }
    };
    const view = await showCode(r, isCurrent, { mainEl, setReady, openQuestions });
    if (view) app.view = view;
    return;
  }
  if (r.name === 'challenges') {
    document.title = `${t('challenges.title')} · idemlab`;
    const { renderChallenges } = await challengesView();
    if (!isCurrent()) return;
    renderChallenges(mainEl, { store: app.store, progress: app.progress, isCurrent });
    setReady(true);
    window.scrollTo(0, 0);
    mainEl.querySelector('.view-title').focus({ preventScroll: true });
    return;
  }
  document.title = `idemlab — ${t('app.tagline')}`;
  // An address that is no route (#/garbage): say so, and show the list's own address.
  const message = r.unknown ? t('err.unknownRoute', { route: shortText(`#${r.unknown}`) }) : null;
  if (r.unknown) replaceHash(listHash());
  await showList(isCurrent, message);
  window.scrollTo(0, 0);
}

/**
 * An address naming no lesson (#/lesson/nope): the tab's title and the address stop naming
 * the page shown before, and the list is shown under a message that says so.
 */
async function showUnknownLesson(id, isCurrent) {
  document.title = `${t('err.unknownLessonTitle')} · idemlab`;
  replaceHash(listHash());
  await showList(isCurrent, t('err.unknownLesson', { id: shortText(id) }));
  if (isCurrent()) window.scrollTo(0, 0);
}

/** The lesson list (its code fetched the first time), unless another route came meanwhile. */
async function showList(isCurrent, message) {
  const { renderList } = await listView();
  if (isCurrent()) renderList(mainEl, listOptions(isCurrent, message));
}

// The sandbox's default scenario, before the engine fills in every knob's default: one
// intent delivered, no fault (the learner adds them).
const DEFAULT_SCENARIO = { script: [{ at: 0, do: 'deliver', intent: 'weekly-report', payload: 'Weekly report, version 1' }] };

async function defaultState() {
  const out = await app.call('scenario', { scenario: DEFAULT_SCENARIO });
  return { v: 1, s: out.scenario };
}

async function openSandbox(r, isCurrent) {
  if (!app.vocab) app.vocab = await app.call('vocabulary', {});
  if (!isCurrent()) return;
  const notices = [];
  let state = null;
  if (r.code) {
    const { decodeState } = await codec();
    if (!isCurrent()) return;
    const got = decodeState(r.code);
    if (got.error) notices.push({ key: got.error.key, params: got.error.params, testid: 'sb-bad-link', then: true });
    else state = got.state;
  }
  // A lesson the state names (its challenge, or where it came from), or null.
  const lessonOf = async (id) => {
    try {
      const rec = await app.store.find(id);
      return rec && rec.status === 'ok' && rec.run ? rec : null;
    } catch (_) {
      return null;
    }
  };
  // A lesson's questions still open: say so (the sandbox shows how its runs end, which some
  // of them ask to predict), whether it came from the lesson or is the lesson's challenge.
  const warnOpen = (rec) => {
    const open = (rec.run.lesson.questions || []).filter((q) => !app.progress.isSettled(rec.id, q.id)).length;
    if (open > 0 && !notices.some((n) => n.testid === 'sb-spoiler')) notices.push({ key: open === 1 ? 'sandbox.spoiler.one' : 'sandbox.spoiler', params: { n: open }, testid: 'sb-spoiler' });
  };
  let challenge = null;
  if (state && state.ch) {
    const rec = await lessonOf(state.ch);
    if (!isCurrent()) return;
    const view = rec && rec.run.lesson.challenge;
    if (view) {
      challenge = { rec, view };
      warnOpen(rec);
    } else {
      notices.push({ key: 'sandbox.badLesson', params: { id: shortText(state.ch) }, testid: 'sb-bad-link' });
      delete state.ch;
    }
  }
  if (state && state.from) {
    // Opened from a lesson: say so when its questions are still open (the sandbox shows
    // how the run ends, which some of them ask to predict).
    const rec = await lessonOf(state.from);
    if (!isCurrent()) return;
    if (!rec) {
      // No lesson of that id: the scenario opens, its back link goes to the list.
      notices.push({ key: 'sandbox.badFrom', params: { id: shortText(state.from) }, testid: 'sb-bad-link' });
      delete state.from;
      delete state.via;
      delete state.at;
    }
    if (rec) warnOpen(rec);
  }
  // A link's client code runs only once the learner chose to (views/sandbox-gate.js).
  const gate = state && typeof state.s.code === 'string' && state.s.code ? await import('./views/sandbox-gate.js') : null;
  if (gate) state = await gate.passGate(mainEl, state, { setReady });
  const { SandboxView, evaluateState } = await sandboxView();
  if (!isCurrent()) return;
  let view = null;
  if (state) {
    let first;
    try {
      first = await evaluateState(app.call, state);
    } catch (e) {
      if (!gate || !state.s.code) throw e;
      if (isCurrent()) gate.codeEngineFailed(mainEl, e, state, { retry: () => route().catch(showFatal), setReady });
      return;
    }
    if (!isCurrent()) return;
    if (first.errors) {
      const reason = first.errors.map((x) => `${x.path || '/'}: ${x.reason}`).join('; ');
      notices.push({ key: 'sandbox.badScenario', params: { reason: reason.length > 300 ? `${reason.slice(0, 300)}…` : reason }, testid: 'sb-bad-link', then: true });
    } else {
      view = new SandboxView(mainEl, { first, step: r.step, stepText: r.stepText, extra: r.extra, app, challenge, notices: noticeList(notices, r.stepText), focus: true });
    }
  }
  if (!view) {
    const first = await evaluateState(app.call, await defaultState());
    if (!isCurrent()) return;
    if (first.errors) throw new Error(`the default scenario was refused: ${first.errors.map((x) => x.reason).join('; ')}`);
    // #/sandbox/step/N: the default scenario at that step (a link whose scenario did not
    // open names a step of another run: its notice says the default is shown instead).
    const fromLink = notices.some((n) => n.then);
    view = new SandboxView(mainEl, { first, step: fromLink ? null : r.step, stepText: fromLink ? null : r.stepText, extra: r.extra, app, notices: noticeList(notices, r.stepText), focus: true });
  }
  app.view = view;
  setReady(true);
}

/**
 * Notices about a link that did not open say that the default scenario is shown instead;
 * a step the link named (`stepText`) was one of its own run, so the default is shown whole.
 */
function noticeList(notices, stepText) {
  const out = notices.map(({ then: _t, ...n }) => n);
  if (notices.some((n) => n.then)) {
    out.push(stepText === null || stepText === undefined
      ? { key: 'sandbox.showingDefault', testid: 'sb-default-shown' }
      : { key: 'sandbox.showingDefaultNotStep', params: { step: shortText(stepText) }, testid: 'sb-default-shown' });
  }
  return out;
}

/** The engine did not load: the lesson's text from its file, under the engine's card. */
async function showLessonText(id, isCurrent) {
  let got;
  try {
    got = await app.store.readText(id);
  } catch (_) {
    got = null;
  }
  if (!isCurrent()) return;
  if (!got) {
    await showUnknownLesson(id, isCurrent);
    return;
  }
  if (got.error) {
    showLessonError({ file: got.entry.file, errors: [{ file: got.entry.file, path: '', ...got.error, reason: got.error.reason || '' }] });
    return;
  }
  const { renderLessonText } = await lessonTextView();
  if (isCurrent()) renderLessonText(mainEl, { entry: got.entry, lesson: got.lesson, banner: engineCard() });
}

/** A lesson that failed when it was opened (fetched, run or compared): its error card, said, with the keyboard on its title. */
function showLessonError(rec) {
  document.title = `${t('err.lessonTitle')} · idemlab`;
  replaceChildren(
    mainEl,
    h('section', { class: 'lesson-error-view' }, h('a', { class: 'back-link', href: listHash(), 'data-testid': 'back' }, t('nav.back')), lessonErrorCard(rec, { view: true })),
  );
  focusWhenLaidOut(mainEl.querySelector('[data-testid="lesson-error-title"]'));
}

function inFormField(el) {
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || el.isContentEditable;
}

/** A field whose own Ctrl+Z undoes typing (a checkbox, a radio button or a list has none). */
function inTextField(el) {
  if (!el) return false;
  if (el.tagName === 'INPUT') return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(el.type);
  return el.tagName === 'TEXTAREA' || el.isContentEditable;
}

const ARROW_STEP = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

function onKey(ev) {
  if (!app.view) return;
  if (app.view.kind === 'sandbox' && (ev.ctrlKey || ev.metaKey) && !ev.altKey) {
    if (!inTextField(ev.target) && app.view.onUndoKey(ev)) ev.preventDefault();
    return;
  }
  if (inFormField(ev.target)) return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  // Arrows on a question's options move between its options: stepping the lesson from
  // there took the question (and the focus) away.
  const options = ev.target.closest && ev.target.closest('[data-testid="answers"]');
  if (options && ARROW_STEP[ev.key] && !ev.shiftKey) {
    const buttons = [...options.querySelectorAll('button:not([disabled])')];
    const at = buttons.indexOf(ev.target);
    if (at >= 0 && buttons.length > 1) {
      buttons[(at + ARROW_STEP[ev.key] + buttons.length) % buttons.length].focus();
      ev.preventDefault();
      return;
    }
  }
  // Shift does not change a letter shortcut (Shift+N is N, as with Caps Lock); with any
  // other key (Shift+←) the key is not the page's.
  if (ev.shiftKey && letterKey(ev.key) === null) return;
  try {
    if (app.view.onKey(ev)) ev.preventDefault();
  } catch (e) {
    showFatal(e);
  }
}

async function start() {
  // Launched from a SCORM package (?lms=...&lesson=<id>, docs/lms.md): the lesson, unless the address names a view.
  if (lmsParams.lesson && window.location.hash.replace(/^#\/?/, '') === '') window.history.replaceState(null, '', lessonHash(lmsParams.lesson));
  // The network first: the engine and the lesson files load while the page sets up.
  app.store = new LessonStore(app.call);
  const first = currentRoute();
  app.store.prefetch(first.name === 'lesson' || first.name === 'compare' ? first.id : null);
  // The first view's code, when it is a file of its own, loads beside the strings (a failure
  // is said when the view is shown).
  const firstView = { list: listView, sandbox: sandboxView, compare: compareView }[first.name];
  if (firstView) firstView().catch(() => {});

  const root = document.getElementById('app');
  if (isEmbedded()) document.documentElement.classList.add('is-embedded');
  // ?embed=lesson: the view alone, without the site's header, footer and list links.
  if (embedParams.lessonOnly) document.documentElement.classList.add('is-lesson-only');
  listenToHost({ setLang, openLesson: (id, step) => (window.location.hash = lessonHash(id, step)) });
  app.progress = new Progress();
  app.progress.onSaveState(onSaveState);
  // In a SCORM package: the LMS's record of the lesson replaces this browser's, and every
  // change is reported to it; without a working LMS the browser's storage goes on alone.
  if (lmsParams.lesson) {
    // Loaded only on an LMS: off one, never. When it cannot load (a served page whose
    // chunk went missing), the lesson goes on with the browser's storage and says so.
    const link = await import('./lms.js').catch(() => null);
    if (link) {
      app.lms = new link.LmsLink(lmsParams, app.progress, () => app.store.loadIndex().then((entries) => {
        const e = entries.find((x) => x.id === lmsParams.lesson && x.status === 'ok');
        return e ? e.questionIds : [];
      }), notify);
    } else notify({ key: 'notice.lmsMissing', testid: 'notice-lms' });
  }
  useAxisPreference({ get: (name, fallback) => app.progress.getPref(name, fallback), set: (name, value) => app.progress.setPref(name, value) });
  for (const n of app.progress.notices) {
    // Unreadable progress that could not be set aside: offered as a file before it is written over.
    if (n.download) {
      const { name, text } = n.download;
      app.globalNotices.push({ ...n, actions: [{ key: 'notice.downloadUnreadable', testid: 'notice-download-unreadable', run: () => listView().then(({ downloadText }) => downloadText(name, text)) }] });
    } else app.globalNotices.push(n);
  }
  await stringsReady(); // the shown language's strings (a file of their own): the shell is drawn with them
  // ?lang=fr: the address now names the language shown; the learner is told why.
  if (unknownLangAsked() !== null) app.globalNotices.push({ key: 'notice.langUnknown', params: { asked: shortText(unknownLangAsked()) }, testid: 'notice-lang-unknown' });
  renderShell(root);
  onLangChange(() => {
    flushPendingHash(); // views rebuilt from their address need its latest state
    const step = app.view ? app.view.step : null;
    renderShell(root);
    if (app.view && (app.view.kind === 'sandbox' || app.view.kind === 'compare' || app.view.kind === 'code')) {
      // The sandbox keeps its undo history, explore result and check across languages, the
      // side-by-side view its moment and notices (the shell, and so the element they draw
      // into, is new).
      app.view.root = mainEl;
      app.view.relabel();
      setReady(true);
    } else if (app.view && app.view.kind !== 'lesson') {
      // The list is rebuilt from its address.
      app.view.destroy();
      app.view = null;
      route();
    } else if (app.view) {
      const view = app.view;
      // Its notices (a link's step, a gated deep link) are said again in the new language.
      app.view = new LessonView(mainEl, { rec: view.rec, store: app.store, progress: app.progress, initialStep: step, drafts: view.drafts, notices: view.notices });
      view.destroy();
      setReady(true);
    } else {
      route();
    }
    // The whole page was rebuilt: the keyboard stays on the language button.
    root.querySelector('[data-testid="lang-switch"]').focus({ preventScroll: true });
  });
  document.addEventListener('keydown', onKey);
  onRoute(() => route().catch(showFatal));

  // A debugging and test handle: the same engine calls the page makes (each a promise).
  window.__idemlab = {
    call: (method, input) => app.call(method, input),
    engine: () => app.engine,
    // The engine's next call traps, as a poisoned instance does (tests/browser/bad-input.spec.mjs).
    trapNext: () => withEngine().then((e) => e.trapNext()),
    // Before the engine's next call of `method`, its memory is taken up to its maximum: the
    // call runs out (tests/browser/bad-input.spec.mjs).
    fillMemoryBefore: (method) => withEngine().then((e) => e.fillMemoryBefore(method)),
    // Promises (the codec loads when first asked for).
    sandboxCode: (state) => codec().then((m) => m.encodeState(state)),
    sandboxState: (code) => codec().then((m) => m.decodeState(code)),
    // Code mode's engine (loaded on first use), as the exercise view calls it.
    callCode: (method, input) => import('./code-engine.js').then((m) => m.codeCall(method, input)),
    codeLink: (source) => codec().then((m) => m.encodeSource(source)),
    hashSettled: () => hashSettled(),
    lesson: (id) => {
      for (const rec of app.store.records.values()) {
        if (rec.status === 'ok' && rec.id === id) return { file: rec.file, text: rec.text, questions: rec.run.lesson.questions, precomputed: rec.precomputed };
      }
      return null;
    },
  };
  // The first view needs only the index and the lesson's files (its run computed by the
  // build): it shows while the engine is still loading, which starts once it is drawn.
  const shown = route();
  await shown;
  warmEngineAfterPaint();
  if (!app.engineReady) loadEngine();
  await app.engineReady;
  // An engine that did not load is said on whatever page is shown (a lesson opened from its
  // build-time run shows its text instead: its questions cannot be checked).
  if (app.engineError) {
    if (app.view && app.view.kind !== 'sandbox') {
      app.view.destroy();
      app.view = null;
    }
    await route();
  }
  const view = app.view ? app.view.kind : app.engineError ? 'engine-error' : 'list';
  postReady(getLang(), view, app.view && app.view.id ? app.view.id : null);
  registerServiceWorker();
}

/** Served over http(s): sw.js keeps the site working offline after this visit. */
function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !/^https?:$/.test(window.location.protocol) || isOfflineCopy()) return;
  navigator.serviceWorker.register('sw.js').catch((e) => console.warn(`idemlab: the site will not work offline (${(e && e.message) || e})`));
}

window.addEventListener('error', (ev) => {
  // Resource errors (a failed <script>) are handled where they happen.
  if (ev.error) showFatal(ev.error);
});
window.addEventListener('unhandledrejection', (ev) => showFatal(ev.reason));

start().catch(showFatal);
