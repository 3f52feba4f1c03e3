// Code mode's exercises (#/code): every exercise of lessons/exercises/, grouped by level in
// the build's order, each with where the learner stands (not tried, tried, solved and at
// which check: views/../exercises.js CodeKeeper) and the way in. The next one not yet solved
// is marked. It reads the exercise index only: an exercise's file is fetched when it opens.

import { h, replaceChildren } from '../dom.js';
import { t, l } from '../i18n.js';
import { codeHash, listHash } from '../router.js';

function standingText(s) {
  if (s.state === 'solved') return `✓ ${t('code.solvedAt', { n: s.solvedAt })}`;
  if (s.state === 'tried') return t(s.checks === 1 ? 'code.triedOnce' : 'code.triedTimes', { n: s.checks });
  return t('code.notTried');
}

function exerciseItem(entry, keeper, next) {
  const s = keeper.standing(entry.id);
  const titleId = `code-title-${entry.id}`;
  return h(
    'li',
    { class: ['card', 'challenge-item', s.state === 'solved' && 'is-completed'], 'data-testid': 'code-item', 'data-exercise': entry.id, 'data-state': s.state, 'data-next': next ? 'true' : null },
    next ? h('p', { class: 'challenge-kind' }, h('span', { class: 'badge badge-q', 'data-testid': 'code-next' }, t('challenges.next'))) : null,
    h('h3', { class: 'card-title', id: titleId }, l(entry.title)),
    h('p', { class: 'challenge-standing', 'data-testid': 'code-standing' }, standingText(s)),
    h('div', { class: 'btn-row' }, h('a', { class: ['btn', next && 'btn-primary'], href: codeHash(entry.id), 'aria-describedby': titleId, 'data-testid': 'code-open' }, t(s.state === 'none' ? 'code.start' : s.state === 'solved' ? 'code.again' : 'code.continue'))),
  );
}

function brokenItem(entry) {
  return h('li', { class: 'card card-error', 'data-testid': 'code-item-error' }, h('p', null, t('code.brokenExercise', { file: entry.file })), h('p', { class: 'muted small', lang: 'en' }, entry.reason));
}

/** Renders the exercises' page into `root`; `exercises`: an ExerciseStore, `keeper`: a CodeKeeper. */
export function renderCodeList(root, { exercises, keeper, isCurrent }) {
  const body = h('div', { 'data-testid': 'code-levels' });
  replaceChildren(
    root,
    h(
      'section',
      { class: 'list-view challenges-view', 'data-testid': 'code-list-view' },
      h('a', { class: 'back-link', href: listHash(), 'data-testid': 'back' }, t('nav.back')),
      h('h2', { class: 'view-title', tabindex: '-1' }, t('code.title')),
      h('p', { class: 'lead' }, t('code.intro')),
      body,
    ),
  );
  (async () => {
    let entries;
    try {
      entries = await exercises.loadIndex();
    } catch (e) {
      if (isCurrent()) replaceChildren(body, h('p', { class: 'notice notice-error', role: 'alert', 'data-testid': 'code-index-error' }, t('code.indexError'), ' ', h('span', { lang: 'en' }, e.message || String(e))));
      return;
    }
    if (!isCurrent()) return;
    const ok = entries.filter((e) => e.status === 'ok');
    const nextId = (ok.find((e) => keeper.standing(e.id).state !== 'solved') || {}).id;
    const levels = [...new Set(ok.map((e) => e.level))];
    replaceChildren(
      body,
      ok.length === 0 ? h('p', { class: 'muted' }, t('code.none')) : null,
      levels.map((level) => {
        const ofLevel = ok.filter((e) => e.level === level);
        const solved = ofLevel.filter((e) => keeper.standing(e.id).state === 'solved').length;
        const headingId = `code-level-${level}`;
        return h(
          'section',
          { class: 'challenge-level', 'aria-labelledby': headingId, 'data-testid': 'code-level', 'data-level': String(level) },
          h('h3', { class: 'list-section-title', id: headingId }, t('code.level', { n: level }), ' · ', h('span', { 'data-testid': 'code-level-solved' }, t('challenges.solvedOf', { k: solved, n: ofLevel.length }))),
          h('ul', { class: 'lesson-list' }, ofLevel.map((e) => exerciseItem(e, keeper, e.id === nextId))),
        );
      }),
      entries.filter((e) => e.status !== 'ok').length ? h('ul', { class: 'lesson-list' }, entries.filter((e) => e.status !== 'ok').map(brokenItem)) : null,
    );
    body.setAttribute('data-ready', 'true');
  })();
}
