// The self-check list at the end of a lesson: checkboxes, not graded, saved.

import { h } from '../dom.js';
import { t, l } from '../i18n.js';

export function selfCheck(lessonId, items, progress) {
  if (!items || items.length === 0) return null;
  const lp = progress.peek(lessonId);
  const ticked = (lp && lp.self_check) || {};
  return h(
    'section',
    { class: 'card selfcheck', 'data-testid': 'self-check', 'aria-labelledby': 'selfcheck-h' },
    h('h3', { id: 'selfcheck-h', class: 'section-title' }, t('self.title')),
    h('p', { class: 'muted' }, t('self.note')),
    h(
      'ul',
      { class: 'selfcheck-list' },
      items.map((item, i) => {
        const id = `self-${lessonId}-${i}`;
        return h(
          'li',
          null,
          h('input', {
            type: 'checkbox',
            id,
            checked: !!ticked[String(i)],
            'data-testid': 'self-check-item',
            onchange: (ev) => progress.setSelfCheck(lessonId, i, ev.target.checked),
          }),
          h('label', { for: id }, l(item)),
        );
      }),
    ),
  );
}
