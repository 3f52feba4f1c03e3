// The space-time diagram: lanes for client, network and service (and the mail
// provider, when the service sends notification emails), time flowing down. Only
// steps up to the current one are drawn, so the diagram never reveals what happens next.
// Its time axis is "by step" (one row per step) or "by virtual time" (rows as far apart
// as the virtual ms between them, a long idle gap squeezed to a fixed height and
// labelled with its length); the learner's choice applies to every diagram and is kept.

import { h, s, keyedChildren, measureNextFrame } from '../dom.js';
import { t, l, sideName, nameOf, worded } from '../i18n.js';
import { createPalette, updatePalette, pickKind, faultKind, kindIcon } from './fault-palette.js';

// Lane positions (x) and the drawing's width. A run whose steps carry `provider` (the
// service notifies a mail provider) gets a fourth lane right of the service's.
const THREE = { width: 640, lanes: { client: 180, network: 360, service: 540 } };
const FOUR = { width: 760, lanes: { client: 170, network: 330, service: 490, provider: 650 } };
const RH = 38; // row height per step
const PAD = 22;
// By virtual time: each step still gets a row (RH) so labels never collide, plus
// PX_PER_MS per virtual ms since the step before. A gap longer than GAP_MS (an idle wait:
// a timeout, a restart delay) is drawn GAP_H high, taller than any shorter gap, with its
// length written beside it, so a 100 ms timeout reads longer than a 10 ms latency without
// a 10-second wait scrolling away the whole run.
const PX_PER_MS = 1.6;
const GAP_MS = 40;
const GAP_H = 76;
const AXES = ['step', 'time'];
const ARROW_COLORS = {
  request: 'var(--c-client)',
  lookup: 'var(--c-client)',
  response: 'var(--c-service)',
  lookup_reply: 'var(--c-service)',
  email: 'var(--c-service)',
  email_ack: 'var(--c-provider)',
};

/** Where each step's row is (y, in drawing units) and which gaps were squeezed, for an axis. */
function layoutOf(steps, axis) {
  const ys = [];
  const gaps = [];
  steps.forEach((st, i) => {
    if (i === 0) return ys.push(PAD);
    const dt = axis === 'time' ? Math.max(0, st.t - steps[i - 1].t) : 0;
    const squeezed = dt > GAP_MS;
    if (squeezed) gaps.push({ step: i, ms: dt });
    return ys.push(ys[i - 1] + RH + (squeezed ? GAP_H : dt * PX_PER_MS));
  });
  if (!ys.length) ys.push(PAD);
  return { ys, gaps, y: (i) => ys[Math.max(0, Math.min(ys.length - 1, i))] };
}

// The page's preference store ({get(name, fallback), set(name, value)}: progress.js's prefs,
// where the truth switch and the play speed are kept too), given once by main.js.
let prefs = null;
let axis = 'step';

/** Read the remembered axis from the page's preference store, and remember changes there. */
export function useAxisPreference(store) {
  prefs = store;
  const saved = store.get('diagramAxis', 'step');
  axis = AXES.includes(saved) ? saved : 'step';
}
const mounted = new Set(); // every diagram drawn, to redraw on an axis change

/** Switch every diagram's time axis ('step' | 'time') and remember the choice. */
export function setDiagramAxis(next) {
  if (!AXES.includes(next) || next === axis) return;
  axis = next;
  if (prefs) prefs.set('diagramAxis', next);
  for (const view of [...mounted]) {
    if (!view.scroller.isConnected) mounted.delete(view);
    else redraw(view);
  }
}
const geometryOf = (run) => (run.steps.length && run.steps[0].provider ? FOUR : THREE);
const laneX = (geo, side) => geo.lanes[side] ?? geo.lanes.network;
// What the run's provider takes in (provider.effect: email, or a credit to a balance), which its words name.
const effectOf = (run) => (run.steps.length && run.steps[0].provider ? run.steps[0].provider.effect : undefined);

function markerDefs(prefix) {
  const mk = (id, color) =>
    s(
      'marker',
      { id: `${prefix}-${id}`, viewBox: '0 0 10 10', refX: '9', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' },
      s('path', { d: 'M0,0 L10,5 L0,10 z', fill: color }),
    );
  return s('defs', null, mk('client', 'var(--c-client)'), mk('service', 'var(--c-service)'), mk('provider', 'var(--c-provider)'), mk('muted', 'var(--c-muted)'));
}

function msgLabel(m, effect) {
  const nth = m.kind === 'email' || m.kind === 'email_ack' ? 'msg.send' : 'msg.attempt';
  return `${nameOf('message', m.kind, undefined, effect)} #${m.id + 1}` + (m.attempt ? ` · ${t(worded(nth, effect), { n: m.attempt })}` : '');
}

function cross(x, yy, size, cls) {
  return s(
    'g',
    { class: cls },
    s('line', { x1: x - size, y1: yy - size, x2: x + size, y2: yy + size }),
    s('line', { x1: x - size, y1: yy + size, x2: x + size, y2: yy - size }),
  );
}

// The shapes an event's mark can take (the engine's events table names one per kind,
// engine/sim/events.hpp, and a step carries it as event.mark): what to draw at (x, y).
const SHAPES = {
  square: (x, y) => [s('rect', { x: x - 7, y: y - 7, width: 14, height: 14, rx: 2 })],
  'square-small': (x, y) => [s('rect', { x: x - 6, y: y - 6, width: 12, height: 12, rx: 2 })],
  'square-cross': (x, y) => [s('rect', { x: x - 6, y: y - 6, width: 12, height: 12, rx: 2 }), cross(x, y, 3.5, 'reject-x')],
  cross: (x, y) => [cross(x, y, 8, 'crash-x')],
  ring: (x, y) => [s('circle', { cx: x, cy: y, r: 7 })],
  clock: (x, y) => [s('circle', { cx: x, cy: y, r: 7 }), s('path', { d: `M${x},${y - 4} L${x},${y} L${x + 3},${y + 2}` })],
  disc: (x, y) => [s('circle', { cx: x, cy: y, r: 5.5 })],
  row: (x, y) => [s('rect', { x: x - 5, y: y - 5, width: 10, height: 10, rx: 1 })],
};

function eventMark(step, i, geo, y) {
  const side = step.event && step.event.side;
  if (!side || side === 'none') return null;
  const x = laneX(geo, side);
  const yy = y(i);
  const mark = step.event.mark;
  if (!mark) return s('circle', { class: 'ev ev-dot', cx: x, cy: yy, r: 4.5 });
  const draw = SHAPES[mark.shape];
  if (!draw) return null; // "none": drawn with its message (a drop), or not at all
  const labelX = side === 'service' ? x + 14 : side === 'client' ? x - 14 : x + 12;
  const anchor = side === 'client' ? 'end' : 'start';
  const label = mark.label ? s('text', { x: labelX, y: yy + 4, 'text-anchor': anchor, class: ['ev-label', `ev-label-${mark.tone}`] }, l(mark.label)) : null;
  return s('g', { class: `ev ev-${mark.look}` }, ...draw(x, yy), label);
}

function messageShape(m, cur, prefix, geo, y, effect) {
  if (!Number.isInteger(m.sent_step) || m.sent_step > cur) return null;
  const x1 = laneX(geo, m.from);
  const y1 = y(m.sent_step);
  const x2 = laneX(geo, m.to);
  const color = ARROW_COLORS[m.kind] || 'var(--c-muted)';
  const markerId = `${prefix}-${m.from === 'service' || m.from === 'provider' ? m.from : 'client'}`;
  const ended = Number.isInteger(m.end_step) && m.end_step <= cur;
  const g = s('g', { class: ['msg', `msg-${m.kind}`], 'data-message': m.id });
  const when = Number.isFinite(m.end_at) && Number.isInteger(m.end_step) && m.end_step <= cur ? `t=${m.sent_at}→${m.end_at}ms` : `t=${m.sent_at}ms→`;
  const title = s('title', null, `${msgLabel(m, effect)} · ${when}`);
  g.appendChild(title);
  let lx;
  let ly;
  if (ended && m.fate === 'delivered') {
    const y2 = y(m.end_step);
    g.appendChild(s('line', { x1, y1, x2: x2 + (x2 > x1 ? -6 : 6), y2, stroke: color, class: 'msg-line', 'marker-end': `url(#${markerId})` }));
    // An email's label sits nearer the provider, clear of the service lane's event labels.
    const f = m.kind === 'email' ? 0.62 : m.kind === 'email_ack' ? 0.38 : 0.5;
    lx = x1 + (x2 - x1) * f;
    ly = y1 + (y2 - y1) * f;
  } else if (ended && m.fate === 'dropped' && m.drop_reason === 'receiver_down') {
    // It crossed the network and reached a process that had crashed: drawn all the way to
    // the receiver's (down) lane, ending at a crossed-out ring, not lost on the way.
    const y2 = y(m.end_step);
    const xe = x2 + (x2 > x1 ? -9 : 9);
    g.classList.add('msg-to-dead');
    g.appendChild(s('line', { x1, y1, x2: xe, y2, stroke: color, class: 'msg-line msg-dropped', 'marker-end': `url(#${markerId})` }));
    g.appendChild(s('g', { class: 'dead-end' }, s('circle', { cx: x2, cy: y2, r: 7 }), s('line', { x1: x2 - 5, y1: y2 + 5, x2: x2 + 5, y2: y2 - 5 })));
    const outward = x2 > x1 ? 1 : -1;
    g.appendChild(s('text', { x: x2 + 13 * outward, y: y2 + 4, 'text-anchor': outward > 0 ? 'start' : 'end', class: 'ev-label ev-label-crash' }, t('diagram.receiverDown')));
    lx = x1 + (xe - x1) * 0.5;
    ly = y1 + (y2 - y1) * 0.5;
  } else if (ended && m.fate === 'dropped') {
    const y2 = y(m.end_step);
    const xd = (x1 + x2) / 2; // the network lane, or midway to the mail provider
    g.appendChild(s('line', { x1, y1, x2: xd, y2, stroke: color, class: 'msg-line msg-dropped' }));
    g.appendChild(cross(xd, y2, 8, 'drop-x'));
    g.appendChild(s('text', { x: xd + 13, y: y2 + 4, class: 'ev-label ev-label-crash' }, t('diagram.lost')));
    lx = (x1 + xd) / 2;
    ly = (y1 + y2) / 2;
  } else {
    // Still travelling as far as the learner can see: draw it up to now, no further.
    const span = Math.max(0, cur - m.sent_step);
    const frac = Math.min(0.42, 0.16 + 0.1 * span);
    const xe = x1 + (x2 - x1) * frac;
    const ye = span === 0 ? y1 + RH * 0.35 : y(cur);
    g.appendChild(s('line', { x1, y1, x2: xe, y2: ye, stroke: color, class: 'msg-line msg-flying' }));
    g.appendChild(s('circle', { cx: xe, cy: ye, r: 3.5, fill: color }));
    lx = (x1 + xe) / 2;
    ly = (y1 + ye) / 2;
  }
  g.appendChild(s('text', { x: lx, y: ly - 5, 'text-anchor': 'middle', class: 'msg-label' }, msgLabel(m, effect)));
  return g;
}

let diagramCount = 0;
const views = new WeakMap(); // container -> the diagram drawn in it

/** Whether a message is drawn at step `cur`, and if so a key for how it looks then. */
function messageKey(m, idx, cur) {
  if (!Number.isInteger(m.sent_step) || m.sent_step > cur) return null;
  const ended = Number.isInteger(m.end_step) && m.end_step <= cur;
  if (ended && (m.fate === 'delivered' || m.fate === 'dropped')) return `m${idx}:${m.fate}:${m.drop_reason || ''}`;
  return `m${idx}:${ended ? 'ended' : 'flying'}@${cur}`; // drawn up to now, so it changes every step
}

// The time-axis switch: two radio buttons (arrow keys move between them), shared by
// every diagram through setDiagramAxis.
function axisControl(prefix) {
  const name = `${prefix}-axis`;
  const option = (value, key) =>
    h(
      'label',
      { class: 'axis-option' },
      h('input', {
        type: 'radio',
        name,
        value,
        'data-testid': `diagram-axis-${value}`,
        onchange: (ev) => {
          if (ev.target.checked) setDiagramAxis(value);
        },
      }),
      ' ',
      t(key),
    );
  return h(
    'fieldset',
    { class: 'diagram-axis', 'data-testid': 'diagram-axis' },
    h('legend', null, t('diagram.axis')),
    option('step', 'diagram.axisStep'),
    option('time', 'diagram.axisTime'),
  );
}

// The layer of fault targets over the drawing, with what its buttons do for the view drawn
// in it last (overlay.view).
function targetOverlay() {
  const overlay = h('div', { class: 'diagram-targets', role: 'group', 'aria-label': t('palette.targets') });
  // A click (a tap, Enter or Space) adds or removes the fault there.
  overlay.addEventListener('click', (ev) => {
    const view = overlay.view;
    const b = ev.target.closest && ev.target.closest('.target');
    const tg = b && view.targetById.get(b.getAttribute('data-target'));
    if (tg && view.onTarget) view.onTarget(tg);
  });
  // A palette chip dropped on an open target places its fault (a placed one stays placed).
  const openTarget = (ev) => {
    const b = ev.target.closest && ev.target.closest('.target-open');
    return b && overlay.view.targetById.get(b.getAttribute('data-target'));
  };
  overlay.addEventListener('dragover', (ev) => {
    if (!openTarget(ev)) return;
    ev.preventDefault();
    if (ev.dataTransfer) ev.dataTransfer.dropEffect = 'copy';
  });
  overlay.addEventListener('drop', (ev) => {
    const tg = openTarget(ev);
    if (!tg) return;
    ev.preventDefault();
    if (overlay.view.onTarget) overlay.view.onTarget(tg);
  });
  // Escape on a target puts the picked kind down, back on the palette.
  overlay.addEventListener('keydown', (ev) => {
    const view = overlay.view;
    if (ev.key !== 'Escape' || !view.palette || !view.kind) return;
    ev.preventDefault();
    pickKind(view.palette, null);
    const first = view.palette.group.querySelector('input');
    if (first && !overlay.contains(document.activeElement)) first.focus();
  });
  return overlay;
}

// The parts that never change for a lesson: built once per container.
function mountDiagram(container, run, label, before = null) {
  diagramCount += 1;
  const prefix = `dg${diagramCount}`;
  const geo = geometryOf(run);
  const W = geo.width;
  const sides = Object.keys(geo.lanes);
  const titleId = `${prefix}-title`;
  const descId = `${prefix}-desc`;

  const header = s(
    'svg',
    { class: 'diagram-head', viewBox: `0 0 ${W} 34`, 'aria-hidden': 'true', preserveAspectRatio: 'xMidYMid meet' },
    sides.map((side) =>
      s('g', { class: `lane-head lane-${side}` },
        s('rect', { x: laneX(geo, side) - 62, y: 4, width: 124, height: 26, rx: 13 }),
        s('text', { x: laneX(geo, side), y: 22, 'text-anchor': 'middle' }, sideName(side, effectOf(run)))),
    ),
  );
  const svg = s('svg', { class: 'diagram-svg', role: 'img', 'aria-labelledby': `${titleId} ${descId}`, 'data-testid': 'diagram', 'data-step': 0, preserveAspectRatio: 'xMidYMin meet' });
  // The sandbox's fault targets: buttons laid over the drawing (placed in % of it, so they
  // keep their CSS size whatever the drawing's scale), in diagram order for the Tab key.
  // Kept from the view before, with a focused target in it: drawTargets hands the focus on.
  const overlay = before ? before.overlay : targetOverlay();
  const canvas = before ? before.canvas : h('div', { class: 'diagram-canvas' }, svg, overlay);
  const control = axisControl(prefix);
  let scroller = before ? before.scroller : null;
  let wrapper;
  if (before) {
    // Everything before the scroller is new but the fault palette (a focused kind keeps its
    // focus); the scroller stays where it is, with the new drawing.
    wrapper = scroller.parentNode;
    for (let n = wrapper.firstChild; n && n !== scroller; ) {
      const next = n.nextSibling;
      if (!n.classList.contains('fault-palette')) wrapper.removeChild(n);
      n = next;
    }
    wrapper.insertBefore(control, scroller);
    wrapper.insertBefore(header, scroller);
    canvas.replaceChild(svg, before.svg);
  } else {
    scroller = h('div', { class: 'diagram-scroll', tabindex: '0', role: 'group', 'aria-label': label || t('diagram.title') }, canvas);
    wrapper = h('div', { class: 'diagram' }, control, header, scroller);
    container.appendChild(wrapper);
  }
  // Its drawing width, below which a narrow screen scrolls it sideways (style.css) rather
  // than shrink its labels past legibility.
  wrapper.style.setProperty('--dg-w', `${W}px`);

  const view = {
    run,
    geo,
    sides,
    prefix,
    svg,
    overlay,
    canvas,
    wrapper,
    scroller,
    control,
    axis: null, // the axis the parts below were drawn for
    layout: null,
    height: 0,
    cur: -1,
    onPick: null,
    fixed: {
      title: s('title', { id: titleId }, t('diagram.title')),
      desc: s('desc', { id: descId }, t(geo === FOUR ? worded('diagram.descMail', effectOf(run)) : 'diagram.desc')),
      defs: markerDefs(prefix),
      rows: s('g', { class: 'rows' }),
      gaps: s('g', { class: 'gaps' }),
      times: s('g', { class: 'times' }),
      messages: s('g', { class: 'messages' }),
      events: s('g', { class: 'events' }),
      // Play's travelling messages and crash flashes (diagram-anim.js), over the rest.
      anim: s('g', { class: 'anim', 'aria-hidden': 'true', 'pointer-events': 'none' }),
    },
    // Keyed children of the svg and of each group, as keyedChildren returned them.
    parts: null,
    rows: null,
    gaps: null,
    times: null,
    messages: null,
    events: null,
    targets: null,
    onTarget: null,
    targetById: new Map(),
    palette: null, // the sandbox's palette of fault kinds, kept from the view before
    kind: null, // the kind picked there: its targets are drawn
  };
  overlay.view = view;
  // Rows are click targets; the text timeline is the keyboard route to the same thing.
  view.fixed.rows.addEventListener('click', (ev) => {
    const row = ev.target.closest && ev.target.closest('.row');
    if (row && view.onPick) view.onPick(Number(row.getAttribute('data-step')));
  });
  views.set(container, view);
  for (const old of [...mounted]) if (!old.scroller.isConnected) mounted.delete(old);
  mounted.add(view);
  return view;
}

/** Lay the view out for the current axis: everything placed by y is drawn afresh. */
function applyAxis(view) {
  if (view.axis === axis) return;
  view.axis = axis;
  view.layout = layoutOf(view.run.steps, axis);
  view.height = view.layout.y(view.run.steps.length - 1) + PAD;
  view.svg.setAttribute('viewBox', `0 0 ${view.geo.width} ${view.height}`);
  view.svg.setAttribute('data-axis', axis);
  for (const input of view.control.querySelectorAll('input')) input.checked = input.value === axis;
  for (const part of ['parts', 'rows', 'gaps', 'times', 'messages', 'events']) view[part] = null;
  for (const g of Object.values(view.fixed)) if (g.tagName === 'g') while (g.firstChild) g.removeChild(g.firstChild);
  while (view.svg.firstChild) view.svg.removeChild(view.svg.firstChild);
}

function redraw(view) {
  draw(view, view.cur);
}

/**
 * Draw the diagram for `run` at step `cur` into `container`. `onPick(i)` is called when a row is
 * clicked (the text timeline is the keyboard route to the same thing). Stepping only adds,
 * removes or redraws what differs from the step drawn before. `label` names the diagram for
 * assistive technology when a page shows more than one.
 */
/**
 * What a fault target's control does, in words: lose or deliver a message, crash or not,
 * answer with an error (a 500 or a 429: the service stays up) or normally, lose the
 * client's row of the intent or keep it.
 */
export function targetAction(tg) {
  const f = tg.fault;
  const [place, undo] = f.drop
    ? ['sandbox.lose', 'sandbox.undoLose']
    : f.service_error
      ? ['sandbox.answerError', 'sandbox.undoAnswerError']
      : f.connect_error
        ? ['sandbox.refuseConnect', 'sandbox.undoRefuseConnect']
        : f.lose_row
          ? ['sandbox.loseRow', 'sandbox.undoLoseRow']
          : ['sandbox.crash', 'sandbox.undoCrash'];
  return t(tg.planned ? undo : place);
}

export function renderDiagram(container, run, cur, onPick, { targets = null, onTarget = null, label = null } = {}) {
  let view = views.get(container);
  if (!view || view.run !== run) {
    const before = view;
    if (view) mounted.delete(view);
    // A new run (a sandbox edit) is drawn in the scroller already there: a focused scroller
    // keeps its focus, and the browser need not lay the page out to move it (removing a
    // focused element, or blurring it, forced a whole layout in the middle of the edit).
    view = mountDiagram(container, run, label, view || null);
    if (before) [view.palette, view.kind] = [before.palette, before.kind];
  }
  view.onPick = onPick || null;
  view.onTarget = onTarget;
  view.targets = targets;
  if (targets) {
    if (!view.palette) {
      view.palette = createPalette(() => {});
      view.wrapper.insertBefore(view.palette.el, view.wrapper.firstChild);
    }
    view.palette.onKind = (kind) => {
      view.kind = kind;
      drawTargets(view, view.targets);
    };
    view.kind = updatePalette(view.palette, targets, view.kind);
  }
  draw(view, cur);
}

function draw(view, cur) {
  applyAxis(view);
  const { run, targets } = view;
  view.cur = cur;
  const { svg, fixed, prefix, height, geo, sides } = view;
  const { y, gaps } = view.layout;
  const W = geo.width;
  const steps = run.steps;
  svg.setAttribute('data-step', cur);

  // Rows: click targets and the current-step band.
  const rowItems = [];
  for (let i = 0; i <= cur; i++) {
    rowItems.push([i === cur ? `${i}:current` : `${i}`, () => s('rect', { x: 0, y: y(i) - RH / 2, width: W, height: RH, class: i === cur ? 'row row-current' : 'row', 'data-step': i })]);
  }
  view.rows = keyedChildren(fixed.rows, view.rows, rowItems);

  // Lanes: faint for the whole lesson, solid up to now, red where the side is down.
  const parts = [
    ['title', () => fixed.title],
    ['desc', () => fixed.desc],
    ['defs', () => fixed.defs],
    ['rows', () => fixed.rows],
  ];
  for (const side of sides) {
    const x = laneX(geo, side);
    parts.push([`future-${side}`, () => s('line', { x1: x, y1: PAD - 12, x2: x, y2: height - 6, class: `lane lane-future lane-${side}` })]);
    parts.push([`past-${side}@${cur}`, () => s('line', { x1: x, y1: PAD - 12, x2: x, y2: y(cur), class: `lane lane-past lane-${side}` })]);
    if (side === 'client' || side === 'service') {
      for (let i = 0; i < cur; i++) {
        const st = steps[i][side];
        if (st && st.alive === false) parts.push([`down-${side}-${i}`, () => s('line', { x1: x, y1: y(i), x2: x, y2: y(i + 1), class: 'lane-down' })]);
      }
    }
  }
  parts.push(['gaps', () => fixed.gaps], ['times', () => fixed.times], ['messages', () => fixed.messages], ['events', () => fixed.events]);
  parts.push(['anim', () => fixed.anim]);
  view.parts = keyedChildren(svg, view.parts, parts);

  // Squeezed gaps (by virtual time) up to now: a break across the lanes and its length.
  const gapItems = gaps
    .filter((g) => g.step <= cur)
    .map((g) => [`${g.step}`, () => gapMark(g, y(g.step - 1), y(g.step), geo, sides)]);
  view.gaps = keyedChildren(fixed.gaps, view.gaps, gapItems);

  // Time labels: shown when the time changes, and always on the current row.
  const timeItems = [];
  for (let i = 0; i <= cur; i++) {
    if (i === 0 || i === cur || steps[i].t !== steps[i - 1].t) {
      timeItems.push([i === cur ? `${i}:current` : `${i}`, () => s('text', { x: 10, y: y(i) + 4, class: i === cur ? 'time time-current' : 'time' }, `t=${steps[i].t}ms`)]);
    }
  }
  view.times = keyedChildren(fixed.times, view.times, timeItems);

  const msgItems = [];
  (run.messages || []).forEach((m, idx) => {
    const key = messageKey(m, idx, cur);
    if (key) msgItems.push([key, () => messageShape(m, cur, prefix, geo, y, effectOf(run))]);
  });
  view.messages = keyedChildren(fixed.messages, view.messages, msgItems);

  // An event's mark depends on its step only, so a mark once drawn is kept.
  const evItems = [];
  for (let i = 0; i <= cur; i++) {
    const cached = view.events && view.events.get(`${i}`);
    const mark = cached || eventMark(steps[i], i, geo, y);
    if (mark) {
      if (!cached) mark.setAttribute('data-step', i);
      evItems.push([`${i}`, () => mark]);
    }
  }
  view.events = keyedChildren(fixed.events, view.events, evItems);

  if (targets) drawTargets(view, targets);

  // Keep the current row in view, measured once the page is laid out for this frame.
  measureNextFrame(view, () => keepRowInView(view));
}

/**
 * For Play's animation (diagram-anim.js): the diagram drawn in `container` — its run, a
 * layer to draw over it, where a step's row and a side's lane are, a message's drawn
 * group, and the arrow a message is drawn with once it has arrived or been lost (null
 * while the run has it still travelling at its end) — or null when none is drawn.
 */
export function diagramFrame(container) {
  const view = views.get(container);
  if (!view || !view.layout) return null;
  const { geo, run } = view;
  const { y } = view.layout;
  return {
    run,
    svg: view.svg,
    scroller: view.scroller,
    layer: view.fixed.anim,
    width: geo.width,
    y,
    laneX: (side) => laneX(geo, side),
    messageEl: (id) => view.fixed.messages.querySelector(`:scope > [data-message="${id}"]`),
    arrow: (m) => {
      if (!Number.isInteger(m.sent_step) || !Number.isInteger(m.end_step)) return null;
      const x1 = laneX(geo, m.from);
      const x2 = laneX(geo, m.to);
      const out = x2 > x1 ? -1 : 1;
      // As messageShape draws it: to the receiver's lane, to its down lane, or lost midway.
      let xe;
      if (m.fate === 'delivered') xe = x2 + 6 * out;
      else if (m.fate === 'dropped' && m.drop_reason === 'receiver_down') xe = x2 + 9 * out;
      else if (m.fate === 'dropped') xe = (x1 + x2) / 2;
      else return null;
      return { x1, y1: y(m.sent_step), x2: xe, y2: y(m.end_step), color: ARROW_COLORS[m.kind] || 'var(--c-muted)' };
    },
  };
}

// A squeezed idle gap: a short zigzag over each lane halfway down it, and "+ N ms".
function gapMark(gap, y0, y1, geo, sides) {
  const mid = (y0 + y1) / 2;
  const zig = (x) => `M${x - 9},${mid - 5} L${x - 3},${mid + 1} L${x + 3},${mid - 5} L${x + 9},${mid + 1}`;
  const text = t('diagram.gap', { ms: gap.ms });
  return s(
    'g',
    { class: 'gap', 'data-testid': 'diagram-gap', 'data-step': gap.step, 'data-ms': gap.ms },
    s('title', null, t('diagram.gapTitle', { ms: gap.ms })),
    sides.map((side) => s('path', { class: 'gap-zig', d: zig(laneX(geo, side)) })),
    s('text', { x: 10, y: mid + 4, class: 'gap-label' }, text),
  );
}

// A target's size on screen (CSS px, style.css's .diagram-targets .target), plus a gap:
// what it keeps clear of the drawing's text and of other targets, whatever the scale.
const TARGET_PX = 26 + 4;

// Where a target may go, best first: along its message's line (a drop), clear of the label
// at the line's middle; or on its side's lane just before the step it precedes (a crash, an
// error, a lost row), then beside it, outward first.
function targetSpots(view, tg, cur, size) {
  const { geo, run } = view;
  const { y } = view.layout;
  if (tg.message !== null && tg.message !== undefined) {
    const m = run.messages[tg.message];
    if (!m || !Number.isInteger(m.sent_step) || m.sent_step > cur) return [];
    const x1 = laneX(geo, m.from);
    const y1 = y(m.sent_step);
    const ended = Number.isInteger(m.end_step) && m.end_step <= cur;
    const lostOnTheWay = ended && m.fate === 'dropped' && m.drop_reason !== 'receiver_down';
    const x2 = lostOnTheWay ? (x1 + laneX(geo, m.to)) / 2 : ended ? laneX(geo, m.to) : x1 + (laneX(geo, m.to) - x1) * 0.42;
    const y2 = ended ? y(m.end_step) : Math.max(y1 + RH * 0.35, y(cur));
    const at = (f, dy = 0) => [x1 + (x2 - x1) * f, y1 + (y2 - y1) * f + dy];
    const fs = [0.25, 0.75, 0.18, 0.82, 0.33, 0.67, 0.12, 0.88, 0.42, 0.58];
    return [...fs.map((f) => at(f)), ...fs.map((f) => at(f, size * 0.6)), ...fs.map((f) => at(f, -size * 0.6))];
  }
  if (tg.step - 1 > cur) return [];
  const x = laneX(geo, tg.side);
  const yy = y(tg.step) - RH / 2;
  const out = tg.side === 'client' ? -1 : 1;
  const spots = [];
  for (const dy of [0, -size * 0.25, size * 0.25]) {
    for (const k of [0, 1, -1, 2, -2, 3, -3, 4]) spots.push([x + out * k * size, yy + dy]);
  }
  return spots;
}

const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

// The drawing's text, as boxes in its units (read from the laid-out drawing, only when
// targets are to be placed).
function textBoxes(svg) {
  const boxes = [];
  for (const el of svg.querySelectorAll('text')) {
    try {
      const b = el.getBBox();
      if (b.width || b.height) boxes.push({ x: b.x, y: b.y, w: b.width, h: b.height });
    } catch (_) {
      /* not laid out */
    }
  }
  return boxes;
}

/** The first spot clear of the text and of targets placed before, else the least crowded. */
function placeTarget(spots, size, taken, width, height) {
  let best = null;
  let bestHits = Infinity;
  for (const [x0, y0] of spots) {
    const x = Math.max(size / 2, Math.min(width - size / 2, x0));
    const yy = Math.max(size / 2, Math.min(height - size / 2, y0));
    const box = { x: x - size / 2, y: yy - size / 2, w: size, h: size };
    const hits = taken.filter((b) => overlaps(b, box)).length;
    if (hits < bestHits) [best, bestHits] = [{ x, y: yy, box }, hits];
    if (hits === 0) break;
  }
  return best;
}

function targetButton(view, tg, at) {
  const kind = faultKind(tg.fault);
  const label = `${targetAction(tg)}: ${l(tg.text)}`;
  return h(
    'button',
    {
      type: 'button',
      class: ['target', tg.planned ? 'target-planned' : 'target-open', `target-${kind}`],
      'data-target': tg.id,
      'data-kind': kind,
      'data-testid': 'diagram-target',
      'aria-pressed': tg.planned ? 'true' : 'false',
      'aria-label': label,
      title: label,
      style: `left:${((at.x / view.geo.width) * 100).toFixed(3)}%;top:${((at.y / view.height) * 100).toFixed(3)}%`,
    },
    h('span', { 'aria-hidden': 'true' }, kindIcon(kind)),
  );
}

// The targets drawn: every fault placed (a click takes it out again) and the picked kind's
// open ones, none on a text label or on each other. Placed in the next frame, where the
// page is laid out anyway: measuring the drawing in the middle of an edit would force a
// layout of its own.
function drawTargets(view, targets) {
  const { overlay, svg } = view;
  view.targetById = new Map((targets || []).map((tg) => [tg.id, tg]));
  measureNextFrame(overlay, () => {
    if (overlay.view !== view || !svg.isConnected) return null;
    const cur = view.cur;
    const shown = (view.targets || []).filter((tg) => tg.planned || (view.kind && faultKind(tg.fault) === view.kind));
    const buttons = [];
    if (shown.length) {
      const scale = svg.getBoundingClientRect().width / view.geo.width || 1;
      const size = TARGET_PX / scale;
      const taken = textBoxes(svg);
      for (const tg of shown) {
        const at = placeTarget(targetSpots(view, tg, cur, size), size, taken, view.geo.width, view.height);
        if (!at) continue;
        taken.push(at.box);
        buttons.push(targetButton(view, tg, at));
      }
    }
    return () => {
      const focused = overlay.contains(document.activeElement) ? document.activeElement.getAttribute('data-target') : null;
      overlay.replaceChildren(...buttons);
      overlay.hidden = buttons.length === 0;
      const again = focused && buttons.find((b) => b.getAttribute('data-target') === focused);
      if (again) again.focus({ preventScroll: true });
    };
  });
}

function keepRowInView(view) {
  const { svg, scroller } = view;
  if (!scroller.isConnected) return null;
  const cur = view.cur;
  const { y } = view.layout;
  const scale = svg.getBoundingClientRect().width / view.geo.width || 1;
  const top = (y(cur) - RH * 1.5) * scale;
  const bottom = (y(cur) + RH * 1.5) * scale;
  const scrollTop = scroller.scrollTop;
  const clientHeight = scroller.clientHeight;
  return () => {
    if (top < scrollTop) scroller.scrollTop = Math.max(0, top);
    else if (bottom > scrollTop + clientHeight) scroller.scrollTop = bottom - clientHeight;
  };
}
