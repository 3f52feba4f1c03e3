// The step controls both timeline views share (the lesson, side by side): first, previous,
// next and last buttons, the range input over positions 0..last, and moving the focus to
// the view's title once the page is laid out.

import { h, measureNextFrame } from '../dom.js';
import { t } from '../i18n.js';
import { icon } from '../icons.js';

/** A control button named by the i18n key `key` (label and tooltip) showing `content`. */
export function controlButton(key, content, onclick, { testid, cls } = {}) {
  return h('button', { type: 'button', class: ['btn', 'btn-ctl', cls], 'aria-label': t(key), title: t(key), 'data-testid': testid, onclick }, content);
}

/**
 * Buttons to the first, previous, next and last position of `view` ({step, last}), named
 * by the catalogue keys `keys` ({first, prev, next, last}: STEP_KEYS or COMPARE_KEYS), with
 * the test ids `ids`; each calls go(position).
 */
export function stepButtons(keys, ids, view, go) {
  const text = (key) => h('span', { class: 'ctl-text' }, t(key));
  return {
    // To the first and the last position: the range input does the same, so a phone, short
    // of room, shows the range input alone for them (style.css).
    first: controlButton(keys.first, icon('first'), () => go(0), { testid: ids.first, cls: 'btn-jump' }),
    prev: controlButton(keys.prev, [icon('prev'), text(keys.prev)], () => go(view.step - 1), { testid: ids.prev }),
    next: controlButton(keys.next, [text(keys.next), icon('next')], () => go(view.step + 1), { testid: ids.next }),
    last: controlButton(keys.last, icon('last'), () => go(view.last), { testid: ids.last, cls: 'btn-jump' }),
  };
}

/**
 * Enables the step buttons `el` ({first, prev, next, last}) for position `i` of 0..last.
 * A button that had the keyboard focus and is now disabled hands it to the button facing
 * the other way (prev/first -> next, next/last -> prev), so that a keyboard or
 * screen-reader user is not dropped on the page's body at either end.
 */
export function enableStepButtons(el, i, last) {
  const active = document.activeElement;
  el.first.disabled = el.prev.disabled = i <= 0;
  el.next.disabled = el.last.disabled = i >= last;
  const other = active === el.first || active === el.prev ? el.next : active === el.next || active === el.last ? el.prev : null;
  if (other && active.disabled && !other.disabled) other.focus();
}

/** Step buttons of a lesson or the sandbox: steps of one run. */
export const STEP_KEYS = { first: 'lesson.first', prev: 'lesson.prev', next: 'lesson.next', last: 'lesson.last' };
/** Step buttons of the side-by-side view: moments of virtual time over two runs. */
export const COMPARE_KEYS = { first: 'compare.first', prev: 'compare.prev', next: 'compare.next', last: 'compare.last' };

/** The range input over positions 0..last, named `label`; moving it calls go(position). */
export function scrubber({ last, label, testid, id = null, go }) {
  return h('input', {
    type: 'range',
    min: '0',
    max: String(last),
    step: '1',
    value: '0',
    class: 'scrubber',
    id,
    'data-testid': testid,
    'aria-label': label,
    oninput: (ev) => go(Number(ev.target.value)),
  });
}

/**
 * Focus `title` in the frame that lays the page out anyway, unless something else took
 * the focus in the meantime.
 */
export function focusWhenLaidOut(title) {
  measureNextFrame(title, () => () => {
    const active = document.activeElement;
    if (title.isConnected && (!active || active === document.body)) title.focus({ preventScroll: true });
  });
}
