// A view's notices (a link that asked for a step it could not show, a gated deep link...):
// each an alert with a button that dismisses it. `notices` is the view's own list of
// {key, params, testid}; a dismissed one is taken out of it.

import { h } from '../dom.js';
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

// Per container: the notice list last drawn in it, and the element drawn for each notice.
const drawn = new WeakMap();

/**
 * Draws `notices` into `el`. Each is an alert, as the page's own notices are (main.js,
 * notify): a screen reader says it when it appears. A notice still shown when the view is
 * drawn again (every step) keeps its element, so that it is not said again each time.
 */
export function renderNotices(el, notices) {
  const before = drawn.has(el) ? drawn.get(el).nodes : new Map();
  const nodes = new Map(notices.map((n) => [n, before.get(n) || noticeElement(el, n)]));
  drawn.set(el, { notices, nodes });
  const want = [...nodes.values()];
  for (const child of [...el.children]) if (!want.includes(child)) child.remove();
  want.forEach((node, i) => {
    if (el.children[i] !== node) el.insertBefore(node, el.children[i] || null);
  });
}

function noticeElement(el, n) {
  return h(
    'div',
    { class: 'notice notice-warn', role: 'alert', 'data-testid': n.testid || 'notice' },
    h('p', null, t(n.key, n.params)),
    h('button', {
      type: 'button',
      class: 'btn btn-small',
      'aria-label': t('notice.dismiss'),
      onclick: () => {
        // Taken out of the list last drawn here (the view's own list).
        const { notices } = drawn.get(el);
        const at = notices.indexOf(n);
        if (at >= 0) notices.splice(at, 1);
        renderNotices(el, notices);
      },
    }, '×'),
  );
}
