// One score per lesson, in the same words wherever the page shows one: the completion card
// at the lesson's end (and the banner above a completed lesson), the lesson's card in the
// list, and the import preview. The numbers are lessonSummary's (progress.js), counted from
// the engine's recorded verdicts; nothing here decides an answer.

import { h } from '../dom.js';
import { t } from '../i18n.js';

/** "right at the first try: k of n · answers shown: r" for a lessonSummary `s`. */
export function scoreText(s) {
  return t('score.line', { k: s.first_try_right, n: s.questions, r: s.revealed });
}

/** The score as a paragraph (`testid` names where it stands; `cls` its look). */
export function scoreLine(s, testid, cls = 'lesson-score') {
  return h(
    'p',
    { class: cls, 'data-testid': testid, 'data-first-try': String(s.first_try_right), 'data-questions': String(s.questions), 'data-revealed': String(s.revealed) },
    scoreText(s),
  );
}

/** Where the learner stands with lesson `lessonId`'s challenge: 'solved', 'tried' or 'none'. */
export function challengeState(progress, lessonId) {
  if (progress.isCorrect(lessonId, 'challenge')) return 'solved';
  return progress.isAnswered(lessonId, 'challenge') ? 'tried' : 'none';
}

/** Of the index entries `entries`, those ending with a challenge, and how many of them are solved. */
export function challengesSolved(entries, progress) {
  const all = entries.filter((e) => e.status === 'ok' && e.challenge);
  return { all, solved: all.filter((e) => challengeState(progress, e.id) === 'solved').length };
}

/**
 * "Challenge: fix it · not tried yet" for a challenge of `kind` ('break' | 'fix') in `state`
 * (challengeState), as a paragraph: `testid` names where it stands, `cls` its look, `after`
 * what follows the words (a link to start it).
 */
export function challengeLine(kind, state, { testid, cls = 'lesson-challenge', after = null }) {
  const said = state === 'solved' ? `✓ ${t('challenge.solvedBefore')}` : state === 'tried' ? t('challenge.tried') : t('challenge.notYet');
  return h(
    'p',
    { class: cls, 'data-testid': testid, 'data-state': state, 'data-solved': state === 'solved' ? 'true' : 'false' },
    h('span', { 'data-testid': 'challenge-state' }, t(kind === 'break' ? 'challenge.break' : 'challenge.fix'), ' · ', said),
    after,
  );
}
