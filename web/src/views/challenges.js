// The challenges page (#/challenges): every lesson's challenge across the course, grouped by
// level in the course's order, each with where the learner stands (not tried, tried,
// solved, and the try it was solved at) and the way in. A challenge opens once its lesson's
// questions are settled, as the lesson's own end card offers it then (the challenge's run
// would answer some of them); the first open one not yet solved is marked as the next.
// It reads the lesson index and the learner's progress: a lesson's file is fetched only when
// its challenge is started.

import { h, replaceChildren } from '../dom.js';
import { t, l, nameOf } from '../i18n.js';
import { lessonHash, listHash, sandboxHash } from '../router.js';
import { indexErrorCard } from './errors.js';
import { challengeState, challengesSolved } from './score.js';

const codec = () => import('../sandbox/codec.js');

/** The try a challenge was first solved at (1-based), or null. */
function solvedAt(progress, id) {
  const a = progress.answerOf(id, 'challenge');
  if (!a) return null;
  const i = a.tries.findIndex((tr) => tr.correct);
  return i < 0 ? null : i + 1;
}

/** Whether every question of the lesson is settled: its challenge is open. */
function isOpen(progress, entry) {
  const st = progress.stats(entry.id, entry.questionIds);
  return st.answered >= st.questions;
}

// Opens the lesson's challenge in the sandbox: the scenario is in the lesson's file.
async function startChallenge(store, id, onError) {
  try {
    const rec = await store.find(id);
    const c = rec && rec.status === 'ok' && rec.run && rec.run.lesson.challenge;
    if (!c) throw new Error(`lesson ${id} has no challenge`);
    const { encodeState } = await codec();
    window.location.hash = sandboxHash(encodeState({ v: 1, s: c.scenario, ch: id }));
  } catch (e) {
    onError(e);
  }
}

function challengeItem(entry, { progress, store, next, onError }) {
  const state = challengeState(progress, entry.id);
  // Tried already (from a link): no longer "opens once ...", whatever the lesson's questions.
  const open = isOpen(progress, entry) || state !== 'none';
  const at = solvedAt(progress, entry.id);
  const tries = (progress.answerOf(entry.id, 'challenge') || { tries: [] }).tries.length;
  const standing = state === 'solved' ? `✓ ${t('challenges.solvedAt', { n: at })}` : state === 'tried' ? t('challenges.triedTimes', { n: tries }) : t('challenge.notYet');
  const titleId = `challenge-title-${entry.id}`;
  const action = open
    ? h('button', { type: 'button', class: ['btn', next ? 'btn-primary' : null], 'aria-describedby': titleId, 'data-testid': 'challenge-start', onclick: () => startChallenge(store, entry.id, onError) }, t(state === 'solved' ? 'challenges.again' : 'challenge.start'))
    : h('a', { class: 'btn', href: lessonHash(entry.id), 'aria-describedby': titleId, 'data-testid': 'challenge-lesson' }, t('challenges.openLesson'));
  return h(
    'li',
    { class: ['card', 'challenge-item', state === 'solved' && 'is-completed'], 'data-testid': 'challenge-item', 'data-lesson': entry.id, 'data-state': state, 'data-open': open ? 'true' : 'false', 'data-next': next ? 'true' : null },
    h('p', { class: 'challenge-kind' }, t(entry.challenge === 'break' ? 'challenge.break' : 'challenge.fix'), next ? h('span', { class: 'badge badge-q', 'data-testid': 'challenge-next' }, t('challenges.next')) : null),
    h('h3', { class: 'card-title', id: titleId }, l(entry.title)),
    h('p', { class: 'challenge-standing', 'data-testid': 'challenge-standing' }, standing),
    open ? null : h('p', { class: 'muted small' }, t('challenges.locked')),
    h('div', { class: 'btn-row' }, action),
  );
}

/** Renders the challenges page into `root`. */
export function renderChallenges(root, { store, progress, isCurrent }) {
  const body = h('div', { 'data-testid': 'challenge-levels' });
  const problem = h('div', { role: 'alert' });
  replaceChildren(
    root,
    h(
      'section',
      { class: 'list-view challenges-view', 'data-testid': 'challenges-view' },
      h('a', { class: 'back-link', href: listHash(), 'data-testid': 'back' }, t('nav.back')),
      h('h2', { class: 'view-title', tabindex: '-1' }, t('challenges.title')),
      h('p', { class: 'lead' }, t('challenges.intro')),
      problem,
      body,
    ),
  );
  const onError = (e) => replaceChildren(problem, h('p', { class: 'notice notice-error' }, t('challenges.cannotStart', { reason: (e && e.message) || String(e) })));
  (async () => {
    let entries;
    try {
      entries = await store.loadIndex();
    } catch (e) {
      if (isCurrent()) replaceChildren(body, indexErrorCard(e));
      return;
    }
    if (!isCurrent()) return;
    const withChallenge = challengesSolved(entries, progress).all;
    const nextId = (withChallenge.find((e) => isOpen(progress, e) && challengeState(progress, e.id) !== 'solved') || {}).id;
    const levels = [...new Set(withChallenge.map((e) => e.level))];
    replaceChildren(
      body,
      withChallenge.length === 0 ? h('p', { class: 'muted' }, t('challenges.none')) : null,
      levels.map((level) => {
        const { all: ofLevel, solved } = challengesSolved(withChallenge.filter((e) => e.level === level), progress);
        const headingId = `challenges-${level}`;
        return h(
          'section',
          { class: 'challenge-level', 'aria-labelledby': headingId, 'data-testid': 'challenge-level', 'data-level': level },
          h('h3', { class: 'list-section-title', id: headingId }, nameOf('level', level), ' · ', h('span', { 'data-testid': 'challenge-level-solved' }, t('challenges.solvedOf', { k: solved, n: ofLevel.length }))),
          h('ul', { class: 'lesson-list' }, ofLevel.map((e) => challengeItem(e, { progress, store, next: e.id === nextId, onError }))),
        );
      }),
    );
    body.setAttribute('data-ready', 'true');
  })();
}
