// The text timeline: one line per step up to the current one, the current line
// marked with aria-current. It is the keyboard and screen-reader twin of the
// diagram; later steps are not listed until they are reached.

import { h, replaceChildren } from '../dom.js';
import { t, l, sideName } from '../i18n.js';

export function stepLine(step) {
  const side = step.event && step.event.side ? step.event.side : 'none';
  return t('timeline.line', { t: step.t, side: sideName(side), text: l(step.event && step.event.text) });
}

export function renderTimeline(container, run, cur, onPick) {
  let list = container.querySelector('ol.timeline');
  if (!list) {
    const hid = 'timeline-heading';
    replaceChildren(
      container,
      h('h3', { id: hid, class: 'section-title' }, t('timeline.title')),
      h('div', { class: 'timeline-scroll' }, (list = h('ol', { class: 'timeline', 'aria-labelledby': hid, 'data-testid': 'timeline' }))),
      h('p', { class: 'muted timeline-rest', 'data-testid': 'timeline-rest' }),
    );
  }
  const focusedStep = document.activeElement && list.contains(document.activeElement) ? document.activeElement.dataset.step : null;
  const items = [];
  for (let i = 0; i <= cur && i < run.steps.length; i++) {
    const st = run.steps[i];
    const kind = st.event && st.event.kind;
    const side = (st.event && st.event.side) || 'none';
    items.push(
      h(
        'li',
        { class: ['tl-line', `tl-${side}`, kind && `tl-kind-${kind}`, i === cur && 'is-current'], 'aria-current': i === cur ? 'step' : null, 'data-testid': 'timeline-line', 'data-step': i },
        h('button', { type: 'button', class: 'tl-button', 'data-step': i, onclick: () => onPick(i) }, h('span', { class: 'tl-step', 'aria-hidden': 'true' }, String(i)), stepLine(st)),
      ),
    );
  }
  replaceChildren(list, items);
  const rest = run.steps.length - 1 - cur;
  container.querySelector('.timeline-rest').textContent = rest > 0 ? t('timeline.hiddenRest', { n: rest }) : '';
  if (focusedStep !== null) {
    const again = list.querySelector(`button[data-step="${focusedStep}"]`) || list.querySelector('li.is-current button');
    if (again) again.focus({ preventScroll: true });
  }
  const scroller = container.querySelector('.timeline-scroll');
  const currentEl = list.querySelector('li.is-current');
  if (scroller && currentEl) {
    const box = scroller.getBoundingClientRect();
    const item = currentEl.getBoundingClientRect();
    if (item.bottom > box.bottom) scroller.scrollTop += item.bottom - box.bottom + 4;
    else if (item.top < box.top) scroller.scrollTop -= box.top - item.top + 4;
  }
}
