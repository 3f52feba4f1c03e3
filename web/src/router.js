// Hash routes: #/ (lesson list), #/challenges (every challenge of the course), #/code (code
// mode's exercises), #/code/ID and #/code/ID?c=CODE (an exercise; CODE: the learner's code
// a link carries, web/src/sandbox/codec.js), #/lesson/ID, #/lesson/ID/step/N, the sandbox #/sandbox
// (a default scenario), #/sandbox/CODE, #/sandbox/CODE/step/N (CODE: the whole scenario,
// web/src/sandbox/codec.js), and the lesson's
// side-by-side view #/lesson/ID/compare, #/lesson/ID/compare/step/N (N: a virtual time's
// position, counted from 0). A route names N as a number (`step`) and as written (`stepText`),
// and what follows it that no route reads (`extra`), so that a view can say it was ignored.
// Following the current step uses replaceState, so stepping never fills the
// browser history.

export function parse(hash) {
  const raw = (hash || '').replace(/^#/, '');
  const code = codeRoute(raw);
  if (code) return code;
  const parts = raw.split('/').filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch (_) {
      return p;
    }
  });
  if (parts.length === 0) return { name: 'list' };
  if (parts[0] === 'challenges' && parts.length === 1) return { name: 'challenges' };
  if (parts[0] === 'sandbox') {
    const code = parts[1] && parts[1] !== 'step' ? parts[1] : null;
    const rest = code ? parts.slice(2) : parts.slice(1);
    return { name: 'sandbox', code, ...stepOf(rest) };
  }
  if (parts[0] === 'lesson' && parts[1]) {
    const name = parts[2] === 'compare' ? 'compare' : 'lesson';
    const rest = name === 'compare' ? parts.slice(3) : parts.slice(2);
    return { name, id: parts[1], ...stepOf(rest) };
  }
  return { name: 'list', unknown: raw };
}

/**
 * #/code (the exercises) and #/code/ID?c=CODE (an exercise, with the code a link carries),
 * or null for another address. Anything after the id is `extra`, as for other views.
 */
function codeRoute(raw) {
  const m = /^\/?code(?:\/([^?]*))?(?:\?(.*))?$/.exec(raw);
  if (!m) return null;
  const parts = (m[1] || '').split('/').filter(Boolean);
  if (parts.length === 0) return { name: 'codeList' };
  let id = parts[0];
  try {
    id = decodeURIComponent(id);
  } catch (_) {
    /* as written */
  }
  const carried = new URLSearchParams(m[2] || '').get('c');
  return { name: 'code', id, carried: carried || null, extra: parts.length > 1 ? parts.slice(1).join('/') : null };
}

/**
 * A view's address after its id or code, ['step', N]: `step`, N as a whole number >= 0
 * (null without one, or when N is not one: -3, abc, 1.5), and `stepText`, N as written
 * (null without `step/N`), for a notice that names what the address asked for; `extra`,
 * what follows that the page does not read (step/3/more: "more"), as written, or null.
 */
function stepOf(rest) {
  const named = rest[0] === 'step' && rest[1] !== undefined;
  const stepText = named ? rest[1] : null;
  const more = named ? rest.slice(2) : rest;
  return { step: stepText !== null && /^\d+$/.test(stepText) ? Number(stepText) : null, stepText, extra: more.length ? more.join('/') : null };
}

/** A piece of an address, for a notice: a long one is cut, and shown as text. */
export function shortText(text) {
  const s = String(text || '');
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}

export function lessonHash(id, step) {
  const base = `#/lesson/${encodeURIComponent(id)}`;
  return step === null || step === undefined ? base : `${base}/step/${step}`;
}

export function compareHash(id, step) {
  const base = `#/lesson/${encodeURIComponent(id)}/compare`;
  return step === null || step === undefined ? base : `${base}/step/${step}`;
}

export function sandboxHash(code, step) {
  const base = code ? `#/sandbox/${code}` : '#/sandbox';
  return step === null || step === undefined ? base : `${base}/step/${step}`;
}

export function codeListHash() {
  return '#/code';
}

/** An exercise's address; `carried`: the code a shared link carries (its codec code). */
export function codeHash(id, carried = null) {
  const base = `#/code/${encodeURIComponent(id)}`;
  return carried ? `${base}?c=${carried}` : base;
}

export function challengesHash() {
  return '#/challenges';
}

export function listHash() {
  return '#/';
}

/** Change the hash without a history entry and without a hashchange event. */
export function replaceHash(hash) {
  if (window.location.hash === hash) return;
  try {
    window.history.replaceState(window.history.state, '', hash);
  } catch (_) {
    window.location.replace(hash);
  }
}

// The sandbox writes its whole scenario into the address after every edit and step.
// Chromium's replaceState can take tens of ms on a large page, so those writes are
// coalesced and made after the frame that shows the change (flushed before the page
// goes away, dropped when the learner navigates elsewhere first).
const SOON_MS = 120;
let pendingHash = null;
let pendingFrom = null; // the address when the pending write was asked for
let pendingTimer = null;
const settledWaiters = [];

function flushHash() {
  if (pendingTimer) clearTimeout(pendingTimer);
  pendingTimer = null;
  const hash = pendingHash;
  const from = pendingFrom;
  pendingHash = null;
  pendingFrom = null;
  // Another address by now is one the learner entered, whose hashchange has not been
  // handled yet: writing over it would leave them where they were.
  if (hash !== null && window.location.hash === from) replaceHash(hash);
  while (settledWaiters.length) settledWaiters.shift()();
}

/** replaceHash, a little later: the last of several calls wins. */
export function replaceHashSoon(hash) {
  if (pendingHash === null) pendingFrom = window.location.hash;
  pendingHash = hash;
  if (!pendingTimer) pendingTimer = setTimeout(flushHash, SOON_MS);
}

/** Resolves once no replaceHashSoon write is pending (for tests and before sharing). */
export function hashSettled() {
  if (pendingHash === null) return Promise.resolve();
  return new Promise((resolve) => settledWaiters.push(resolve));
}

/** Writes a pending address now (before copying it, before the page goes away). */
export function flushPendingHash() {
  if (pendingHash !== null) flushHash();
}

window.addEventListener('pagehide', flushPendingHash);

export function onRoute(fn) {
  window.addEventListener('hashchange', () => {
    // The learner went to another address: an older pending write must not undo that.
    if (pendingTimer) clearTimeout(pendingTimer);
    pendingTimer = null;
    pendingHash = null;
    pendingFrom = null;
    while (settledWaiters.length) settledWaiters.shift()();
    fn(parse(window.location.hash));
  });
}

export function currentRoute() {
  return parse(window.location.hash);
}
