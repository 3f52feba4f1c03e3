// Hash routes: #/ (lesson list), #/lesson/ID, #/lesson/ID/step/N.
// Following the current step uses replaceState, so stepping never fills the
// browser history.

export function parse(hash) {
  const raw = (hash || '').replace(/^#/, '');
  const parts = raw.split('/').filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch (_) {
      return p;
    }
  });
  if (parts.length === 0) return { name: 'list' };
  if (parts[0] === 'lesson' && parts[1]) {
    let step = null;
    if (parts[2] === 'step' && parts[3] !== undefined && /^\d+$/.test(parts[3])) step = Number(parts[3]);
    return { name: 'lesson', id: parts[1], step };
  }
  return { name: 'list', unknown: raw };
}

export function lessonHash(id, step) {
  const base = `#/lesson/${encodeURIComponent(id)}`;
  return step === null || step === undefined ? base : `${base}/step/${step}`;
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

export function onRoute(fn) {
  window.addEventListener('hashchange', () => fn(parse(window.location.hash)));
}

export function currentRoute() {
  return parse(window.location.hash);
}
