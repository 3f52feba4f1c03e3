// The text timeline: one line per step up to the current one, the current line
// marked with aria-current. It is the keyboard and screen-reader twin of the
// diagram; later steps are not listed until they are reached.

import { h, replaceChildren, measureNextFrame } from '../dom.js';
import { t, l, sideName, getLang } from '../i18n.js';

export function stepLine(step) {
  const side = step.event && step.event.side ? step.event.side : 'none';
  return t('timeline.line', { t: step.t, side: sideName(side, step.provider && step.provider.effect), text: l(step.event && step.event.text) });
}

const views = new WeakMap(); // container -> the timeline listed in it

function mountTimeline(container, run) {
  const hid = 'timeline-heading';
  const view = {
    run,
    list: h('ol', { class: 'timeline', 'aria-labelledby': hid, 'data-testid': 'timeline' }),
    rest: h('p', { class: 'muted timeline-rest', 'data-testid': 'timeline-rest' }),
    scroller: null,
    lines: [], // the <li> of steps 0..cur, in order
    keys: [], // what each of them shows (lineKey)
    lang: getLang(),
    cur: -1,
    onPick: null,
  };
  view.scroller = h('div', { class: 'timeline-scroll' }, view.list);
  replaceChildren(container, h('h3', { id: hid, class: 'section-title' }, t('timeline.title')), view.scroller, view.rest);
  views.set(container, view);
  return view;
}

/** What a step's line shows: a line with the same text and kind is kept when the run changes. */
function lineKey(st) {
  return `${(st.event && st.event.side) || 'none'}|${(st.event && st.event.kind) || ''}|${stepLine(st)}`;
}

/**
 * A new run in the same view (an edit in the sandbox): the lines up to the first step that
 * reads differently stay as they are (an edit usually changes the run from the step its
 * fault lands on), the rest go and are listed again from the new run.
 */
function keepSameLines(view, run) {
  view.run = run;
  const { lines, keys } = view;
  let same = 0;
  while (same < lines.length && same < run.steps.length && keys[same] === lineKey(run.steps[same])) same++;
  if (view.cur >= 0 && view.cur < lines.length) markCurrent(lines[view.cur], false);
  while (lines.length > same) lines.pop().remove();
  keys.length = same;
  view.cur = -1;
}

function lineFor(view, st, i) {
  const kind = st.event && st.event.kind;
  const side = (st.event && st.event.side) || 'none';
  return h(
    'li',
    { class: ['tl-line', `tl-${side}`, kind && `tl-kind-${kind}`], 'data-testid': 'timeline-line', 'data-step': i },
    h('button', { type: 'button', class: 'tl-button', 'data-step': i, onclick: () => view.onPick(i) }, h('span', { class: 'tl-step', 'aria-hidden': 'true' }, String(i)), stepLine(st)),
  );
}

function markCurrent(li, current) {
  li.classList.toggle('is-current', current);
  if (current) li.setAttribute('aria-current', 'step');
  else li.removeAttribute('aria-current');
}

/** List steps 0..cur, the current one marked; stepping adds or removes lines at the end. */
export function renderTimeline(container, run, cur, onPick) {
  let view = views.get(container);
  if (!view || view.lang !== getLang() || !container.contains(view.list)) view = mountTimeline(container, run);
  else if (view.run !== run) keepSameLines(view, run);
  view.onPick = onPick;
  const { list, lines } = view;
  const focusedStep = document.activeElement && list.contains(document.activeElement) ? document.activeElement.dataset.step : null;

  const end = Math.min(cur, run.steps.length - 1);
  if (view.cur >= 0 && view.cur < lines.length && view.cur !== cur) markCurrent(lines[view.cur], false);
  while (lines.length > end + 1) lines.pop().remove();
  view.keys.length = lines.length;
  if (lines.length < end + 1) {
    const added = document.createDocumentFragment();
    for (let i = lines.length; i <= end; i++) {
      const li = lineFor(view, run.steps[i], i);
      lines.push(li);
      view.keys.push(lineKey(run.steps[i]));
      added.appendChild(li);
    }
    list.appendChild(added);
  }
  if (cur <= end) markCurrent(lines[cur], true);
  view.cur = cur;

  const rest = run.steps.length - 1 - cur;
  const restText = rest > 0 ? t('timeline.hiddenRest', { n: rest }) : '';
  if (view.rest.textContent !== restText) view.rest.textContent = restText;
  if (focusedStep !== null && !list.contains(document.activeElement)) {
    // The focused line went away (stepping back past it): focus moves to the current one.
    const again = list.querySelector('li.is-current button');
    if (again) again.focus({ preventScroll: true });
  }
  measureNextFrame(view, () => keepLineInView(view));
}

function keepLineInView(view) {
  const { scroller, lines } = view;
  const currentEl = lines[view.cur];
  if (!scroller.isConnected || !currentEl) return null;
  const box = scroller.getBoundingClientRect();
  const item = currentEl.getBoundingClientRect();
  return () => {
    if (item.bottom > box.bottom) scroller.scrollTop += item.bottom - box.bottom + 4;
    else if (item.top < box.top) scroller.scrollTop -= box.top - item.top + 4;
  };
}
