// The lesson list: one card per entry of the lesson index with the learner's progress,
// or an error card for a file that did not validate. It reads the index alone: no lesson
// file is fetched or run until it is opened.

import { h, replaceChildren } from '../dom.js';
import { t, l } from '../i18n.js';
import { lessonHash, compareHash, sandboxHash } from '../router.js';
import { lessonErrorCard, indexErrorCard } from './errors.js';

/** Progress on a lesson of the index ({id, questionIds}). */
export function lessonStats(entry, progress) {
  const qids = entry.questionIds;
  const lp = progress.peek(entry.id);
  const answered = qids.filter((qid) => progress.isAnswered(entry.id, qid)).length;
  const { right, first_try_right: firstTry } = progress.stats(entry.id, qids);
  return { answered, correct: right, firstTry, total: qids.length, completed: !!(lp && lp.completed), started: !!lp };
}

function lessonCard(rec, progress) {
  const st = lessonStats(rec, progress);
  const pct = st.total ? Math.round((100 * st.answered) / st.total) : st.completed ? 100 : 0;
  const action = st.completed ? t('list.review') : st.started ? t('list.continue') : t('list.open');
  const titleId = `lesson-title-${rec.id}`;
  return h(
    'li',
    { class: ['card', 'lesson-card', st.completed && 'is-completed'], 'data-testid': 'lesson-card', 'data-lesson': rec.id },
    h(
      'div',
      { class: 'lesson-card-head' },
      h('span', { class: ['badge', `level-${rec.level}`] }, t(`level.${rec.level}`) || rec.level),
      st.completed ? h('span', { class: 'badge badge-done', 'data-testid': 'lesson-completed' }, '✓ ', t('list.completed')) : null,
    ),
    h('h3', { class: 'card-title', id: titleId }, l(rec.title)),
    h('p', { class: 'lesson-summary' }, l(rec.summary)),
    h(
      'div',
      { class: 'lesson-progress' },
      h('div', { class: 'bar', 'aria-hidden': 'true' }, h('div', { class: 'bar-fill', style: `width:${pct}%` })),
      h(
        'p',
        { class: 'lesson-progress-text', 'data-testid': 'lesson-progress' },
        st.total
          ? [t('list.answered', { n: st.answered, total: st.total }), ' · ', t('list.correct', { n: st.correct })]
          : t('list.noQuestions'),
      ),
      st.total
        ? h('p', { class: 'lesson-first-try muted', 'data-testid': 'lesson-first-try' }, t('lesson.firstTry', { k: st.firstTry, n: st.total }))
        : null,
      rec.challenge
        ? h(
            'p',
            { class: 'lesson-challenge muted', 'data-testid': 'lesson-challenge', 'data-solved': progress.isCorrect(rec.id, 'challenge') ? 'true' : 'false' },
            t(rec.challenge === 'break' ? 'challenge.break' : 'challenge.fix'),
            ' · ',
            progress.isCorrect(rec.id, 'challenge') ? `✓ ${t('challenge.solvedBefore')}` : progress.isAnswered(rec.id, 'challenge') ? t('challenge.tried') : t('challenge.notYet'),
          )
        : null,
    ),
    h(
      'div',
      { class: 'btn-row' },
      h('a', { class: 'btn btn-primary', href: lessonHash(rec.id), 'aria-describedby': titleId, 'data-testid': 'lesson-open' }, action),
      rec.compare ? h('a', { class: 'btn', href: compareHash(rec.id), 'aria-describedby': titleId, 'data-testid': 'lesson-compare' }, t('compare.open')) : null,
    ),
  );
}

/** Per lesson: questions, answered right, right at the first try (for the exported file). */
function exportSummary(store, progress) {
  const out = {};
  for (const entry of store.entries || []) {
    if (entry.status === 'ok' && !(entry.id in out)) out[entry.id] = progress.stats(entry.id, entry.questionIds);
  }
  return out;
}

function progressTools(progress, notify, store) {
  const input = h('input', {
    type: 'file',
    accept: 'application/json,.json',
    class: 'visually-hidden',
    id: 'import-file',
    'aria-label': t('progress.import'),
    tabindex: '-1',
    'data-testid': 'import-input',
    onchange: async (ev) => {
      const file = ev.target.files && ev.target.files[0];
      if (!file) return;
      try {
        progress.importText(await file.text());
        notify({ key: 'notice.imported', kind: 'ok' });
      } catch (e) {
        notify({ key: 'notice.importFailed', params: { reason: e.message } });
      }
      ev.target.value = '';
    },
  });
  return h(
    'section',
    { class: 'progress-tools', 'aria-label': t('progress.tools') },
    h('p', { class: 'muted' }, t('progress.note')),
    h(
      'div',
      { class: 'btn-row' },
      h(
        'button',
        {
          type: 'button',
          class: 'btn',
          'data-testid': 'export-progress',
          onclick: () => {
            const blob = new Blob([progress.exportText(exportSummary(store, progress))], { type: 'application/json' });
            const url = URL.createObjectURL(blob);
            const a = h('a', { href: url, download: 'idemlab-progress.json' });
            document.body.appendChild(a);
            a.click();
            a.remove();
            setTimeout(() => URL.revokeObjectURL(url), 1000);
          },
        },
        t('progress.export'),
      ),
      input,
      h('button', { type: 'button', class: 'btn', 'data-testid': 'import-progress', onclick: () => input.click() }, t('progress.import')),
    ),
  );
}

/**
 * Render the list into `root`. `store` loads lessons; `message` is an optional
 * notice shown above the list (e.g. an unknown lesson id).
 */
export function renderList(root, { store, progress, notify, message, isCurrent }) {
  const items = h('ul', { class: 'lesson-list', 'data-testid': 'lesson-list' });
  replaceChildren(
    root,
    h(
      'section',
      { class: 'list-view' },
      message ? h('p', { class: 'notice notice-warn', role: 'alert', 'data-testid': 'route-message' }, message) : null,
      h('h2', { class: 'view-title' }, t('list.heading')),
      h('p', { class: 'lead' }, t('list.intro')),
      items,
      h(
        'section',
        { class: 'card sandbox-card', 'data-testid': 'sandbox-card', 'aria-labelledby': 'sandbox-card-h' },
        h('h3', { id: 'sandbox-card-h', class: 'section-title' }, t('sandbox.listTitle')),
        h('p', null, t('sandbox.listText')),
        h('a', { class: 'btn btn-primary', href: sandboxHash(null), 'data-testid': 'open-sandbox' }, t('sandbox.listOpen')),
      ),
      progressTools(progress, notify, store),
    ),
  );
  (async () => {
    let entries;
    try {
      entries = await store.loadIndex();
    } catch (e) {
      if (isCurrent()) replaceChildren(items, h('li', null, indexErrorCard(e)));
      return;
    }
    if (!isCurrent()) return;
    replaceChildren(
      items,
      entries.length === 0 ? h('li', { class: 'muted' }, t('list.empty')) : null,
      entries.map((e) => (e.status === 'ok' ? lessonCard(e, progress) : h('li', { class: 'lesson-error-item' }, lessonErrorCard(e)))),
    );
    items.setAttribute('data-ready', 'true');
  })();
}
