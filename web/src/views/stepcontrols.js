// The step controls both timeline views share (the lesson, side by side): first, previous,
// next and last buttons, the range input over positions 0..last, Play with its speed, and
// moving the focus to the view's title once the page is laid out.

import { h, measureNextFrame, replaceChildren } from '../dom.js';
import { t } from '../i18n.js';
import { icon } from '../icons.js';
import { DiagramPlayer, PLAY_SPEEDS } from './diagram-anim.js';

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

/**
 * Play for a view of one run whose diagram is drawn in `diagram`: the Play/Pause button
 * (`button`, test id "play"), the speed select with its label (`speed`, remembered in the
 * page's preferences `progress`), and the DiagramPlayer behind them. `step()` is the step
 * shown, `canStep(n)` whether Play may land on step n, `land(n)` draws it. The view calls
 * `cancel()` when the learner steps, scrubs or leaves, and `render()` when it has drawn a
 * step (Play's button is enabled while a step is left to play).
 */
export function playControls(diagram, { progress, step, canStep, land }) {
  const saved = progress.getPref('playSpeed', 1);
  const ctl = { speedValue: PLAY_SPEEDS.includes(saved) ? saved : 1 };
  ctl.render = () => {
    const playing = ctl.player.playing;
    const name = playing ? t('lesson.pause') : t('lesson.play');
    replaceChildren(ctl.button, icon(playing ? 'pause' : 'play'), h('span', { class: 'ctl-text' }, name));
    ctl.button.setAttribute('aria-label', name);
    ctl.button.setAttribute('aria-pressed', playing ? 'true' : 'false');
    ctl.button.title = name;
    ctl.button.disabled = !playing && !canStep(step() + 1);
  };
  ctl.player = new DiagramPlayer(diagram, { step, canStep, land, onStop: ctl.render, speed: ctl.speedValue });
  // Pause: a message on its way stays where it is, and Play goes on from there.
  ctl.toggle = () => {
    if (ctl.player.playing) ctl.player.pause();
    else ctl.player.play();
    ctl.render();
  };
  // Stop, and take away what was on its way.
  ctl.cancel = () => {
    ctl.player.cancel();
    ctl.render();
  };
  ctl.button = controlButton('lesson.play', '', ctl.toggle, { testid: 'play', cls: 'btn-play' });
  // A choice the page remembers, in force at once while playing.
  const select = h(
    'select',
    {
      class: 'speed-select',
      id: 'play-speed',
      'data-testid': 'play-speed',
      onchange: (ev) => {
        const v = Number(ev.target.value);
        if (!PLAY_SPEEDS.includes(v)) return;
        ctl.speedValue = v;
        progress.setPref('playSpeed', v);
        ctl.player.setSpeed(v);
      },
    },
    PLAY_SPEEDS.map((v) => h('option', { value: String(v), selected: v === ctl.speedValue }, `${v}×`)),
  );
  ctl.speed = h('label', { class: 'speed-label', for: 'play-speed' }, h('span', { class: 'speed-text' }, t('lesson.speed')), ' ', select);
  return ctl;
}
