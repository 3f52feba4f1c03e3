// The self-check list at the end of a lesson: the lesson's goals, shown from the start
// ("By the end of this lesson you can…"). The learner ticks them once every question is
// settled (answered right, or its answer shown): before that the boxes are disabled and a
// line says when they open. Not graded; ticks are saved in progress (`self_check`).

import { h, replaceChildren } from '../dom.js';
import { t, l } from '../i18n.js';

/**
 * {el, setOpen(open)} for lesson `lessonId`'s self-check `items` (L10n), or null when it
 * has none. It starts closed; `setOpen(true)` lets the learner tick (the lesson view calls
 * it with whether every question is settled).
 */
export function selfCheck(lessonId, items, progress) {
  if (!items || items.length === 0) return null;
  const lp = progress.peek(lessonId);
  const ticked = (lp && lp.self_check) || {};
  const noteId = `selfcheck-note-${lessonId}`;
  const note = h('p', { class: 'muted selfcheck-note', id: noteId, 'data-testid': 'self-check-note' });
  let open = false;
  const boxes = items.map((item, i) => {
    const id = `self-${lessonId}-${i}`;
    const box = h('input', {
      type: 'checkbox',
      id,
      checked: !!ticked[String(i)],
      disabled: true,
      'aria-describedby': noteId,
      'data-testid': 'self-check-item',
      onchange: (ev) => {
        // Closed, a tick is not taken (the box is disabled; this is in case it was not yet).
        if (!open) {
          ev.target.checked = !ev.target.checked;
          return;
        }
        progress.setSelfCheck(lessonId, i, ev.target.checked);
      },
    });
    return h('li', null, box, h('label', { for: id }, l(item)));
  });
  const el = h(
    'section',
    { class: 'card selfcheck', 'data-testid': 'self-check', 'data-open': 'false', 'aria-labelledby': 'selfcheck-h' },
    h('h3', { id: 'selfcheck-h', class: 'section-title' }, t('self.title')),
    note,
    h('ul', { class: 'selfcheck-list' }, boxes),
  );
  function setOpen(now) {
    open = !!now;
    el.dataset.open = String(open);
    for (const li of boxes) li.firstChild.disabled = !open;
    replaceChildren(note, t(open ? 'self.open' : 'self.locked'));
  }
  setOpen(false);
  return { el, setOpen };
}
