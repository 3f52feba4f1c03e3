// A view's notices (a link that asked for a step it could not show, a gated deep link...):
// each a status line with a button that dismisses it. `notices` is the view's own list of
// {key, params, testid}; a dismissed one is taken out of it.

import { h, replaceChildren } from '../dom.js';
import { t } from '../i18n.js';
import { shortText } from '../router.js';

/**
 * A view's notices about the address it was opened at: `notice` (about its step, or null)
 * and one about the part after what the view reads (`extra`, from the router), if any.
 */
export function linkNotices(notice, extra) {
  const ignored = extra ? { key: 'notice.extraIgnored', params: { extra: shortText(extra) }, testid: 'notice-extra-path', link: true } : null;
  return [notice, ignored].filter(Boolean);
}

export function renderNotices(el, notices) {
  replaceChildren(
    el,
    notices.map((n) =>
      h(
        'div',
        { class: 'notice notice-warn', role: 'status', 'data-testid': n.testid || 'notice' },
        h('p', null, t(n.key, n.params)),
        h('button', {
          type: 'button',
          class: 'btn btn-small',
          'aria-label': t('notice.dismiss'),
          onclick: () => {
            const at = notices.indexOf(n);
            if (at >= 0) notices.splice(at, 1);
            renderNotices(el, notices);
          },
        }, '×'),
      ),
    ),
  );
}
