// A lesson's text without the engine: its title, summary, an incident's report and its
// goals, read from the lesson file, and how many questions wait. Shown when the engine could
// not load (or stopped), above a card that says why and offers to load it again. The
// moments' labels and narration and the questions are not shown: they tell what happens,
// and only the engine knows which of it an open question would give away.

import { h, replaceChildren } from '../dom.js';
import { t, l, nameOf } from '../i18n.js';
import { listHash } from '../router.js';
import { focusWhenLaidOut } from './stepcontrols.js';
import { incidentPanel } from './incident.js';

const list = (v) => (Array.isArray(v) ? v : []);

/** A card of the text-only lesson: a section titled by `title` (its heading's id `id`). */
function card(id, title, ...body) {
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h3', { id, class: 'section-title' }, title), body);
}

export function renderLessonText(root, { entry, lesson, banner, focus = true }) {
  const moments = list(lesson.moments).filter((m) => m && (m.narration || m.label));
  const questions = list(lesson.questions).filter((q) => q && q.prompt);
  const checks = list(lesson.self_check);
  const title = h('h2', { class: 'lesson-title', tabindex: '-1', 'data-testid': 'lesson-text-title' }, l(entry.title));
  replaceChildren(
    root,
    h(
      'section',
      { class: 'lesson-text-view', 'data-testid': 'lesson-text', 'data-lesson': entry.id },
      h('a', { class: 'back-link', href: listHash(), 'data-testid': 'back' }, t('nav.back')),
      h('p', null, h('span', { class: ['badge', `level-${entry.level}`] }, nameOf('level', entry.level))),
      title,
      h('p', { class: 'lead', 'data-testid': 'lesson-text-summary' }, l(entry.summary)),
      banner,
      // An incident's report, as its file has it.
      incidentPanel(lesson.incident, 'lesson-text-incident'),
      questions.length || moments.length
        ? card('lesson-text-questions', t('textOnly.questions'),
            h('p', { 'data-testid': 'lesson-text-waits' }, t('textOnly.waits', { n: questions.length })),
          )
        : null,
      checks.length
        ? card('lesson-text-self', t('self.title'),
            h('ul', null, checks.map((c) => h('li', null, l(c && typeof c === 'object' && c.text ? c.text : c)))),
          )
        : null,
    ),
  );
  document.title = `${l(entry.title)} · idemlab`;
  if (focus) focusWhenLaidOut(title);
}
