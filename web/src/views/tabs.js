// The views of one lesson, as links: step by step (the lesson) and side by side (its
// `compare` block, when it has one). Each view has its own address.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { lessonHash, compareHash } from '../router.js';

/** Links to the lesson's views, `active` ('lesson' | 'compare') marked as the current page. */
export function lessonTabs(id, active) {
  const tab = (name, href, label) =>
    h('a', { class: ['tab', name === active && 'is-active'], href, 'aria-current': name === active ? 'page' : null, 'data-testid': `tab-${name}` }, label);
  return h(
    'nav',
    { class: 'tabs', 'aria-label': t('tabs.label') },
    tab('lesson', lessonHash(id), t('tabs.lesson')),
    tab('compare', compareHash(id), t('tabs.compare')),
  );
}
