// Play, watched: the run's virtual time animated on the diagram. Each step to the next is
// a leg: the step shown stays still for a moment (DWELL_MS), then the virtual clock runs
// from this step's t to the next one's while every message that arrives (or is lost) at
// the next step travels along its arrow, as far as the run's own send and arrival times
// say; then the next step lands (the page draws it as Next would) and a crash there
// flashes on its lane. Everything drawn is interpolated from the run's data (a message's
// sent_at/end_at, a step's t and event): this module decides nothing.
//
// One requestAnimationFrame loop and one clock: frame gaps are capped, so a hidden tab
// (no frames) pauses Play instead of jumping ahead; while the diagram is off screen the
// clock runs but nothing is drawn. Per frame only the few travelling markers move (two
// attributes each), never a redraw. prefers-reduced-motion turns travel off: steps land
// at the same pace, without motion. Step, Previous and the scrubber stay instant (the
// view cancels the leg and draws the step).

import { s } from '../dom.js';
import { diagramFrame } from './diagram.js';

/** Play speeds the learner picks from (× the base rate below). */
export const PLAY_SPEEDS = [0.25, 0.5, 1, 2, 4];
// At 1×: a landed step stays DWELL_MS, then each virtual ms takes MS_PER_VMS, so a 10 ms
// latency travels for 400 ms (a step and its message's way: 1.1 s, Play's pace before it
// moved anything). A longer wait (a 100 ms timeout, a 10 s restart delay) is compressed to
// MAX_TRAVEL_MS, as the diagram squeezes long idle gaps.
export const DWELL_MS = 700;
export const MS_PER_VMS = 40;
export const MAX_TRAVEL_MS = 2000;
// How long a crash flashes (real ms, at any speed), and the longest frame gap counted.
const FLASH_MS = 900;
const MAX_FRAME_MS = 100;

let motionQuery = null; // read once, then followed by the browser
function reducedMotion() {
  if (!motionQuery && typeof matchMedia === 'function') motionQuery = matchMedia('(prefers-reduced-motion: reduce)');
  return !!(motionQuery && motionQuery.matches);
}

/** A leg's length at 1× (real ms) and how much of it the virtual clock runs: from step i's t to step i+1's. */
export function legTiming(steps, i) {
  const dt = Math.max(0, steps[i + 1].t - steps[i].t);
  const travel = Math.min(MAX_TRAVEL_MS, dt * MS_PER_VMS);
  return { dwell: DWELL_MS, travel, total: DWELL_MS + travel };
}

/**
 * Where a message ending at the leg's far step is at virtual time v: the fraction of its
 * arrow, from its send time to its arrival (or loss). When the run gives it no length of
 * time, the leg's own progress p (0..1) stands in.
 */
export function travelFraction(m, v, p) {
  const span = m.end_at - m.sent_at;
  const f = Number.isFinite(span) && span > 0 ? (v - m.sent_at) / span : p;
  return Math.max(0, Math.min(1, f));
}

/**
 * Play on the diagram drawn in `container` (renderDiagram's): `step()` is the step shown,
 * `canStep(n)` whether Play may land on n (the end, an open question), `land(n)` draws step
 * n (the view's own go), `onStop()` is called when Play stops by itself.
 */
export class DiagramPlayer {
  constructor(container, { step, canStep, land, onStop, speed = 1 }) {
    this.container = container;
    this.step = step;
    this.canStep = canStep;
    this.land = land;
    this.onStop = onStop;
    this.speed = speed;
    this.playing = false;
    this.leg = null; // {run, from, elapsed (1× ms), timing, messages: [{m, g, trail, dot}]}
    this.flash = null; // {el, left (real ms)}
    this.raf = 0;
    this.run = null; // the run Play was started on
    this.lastNow = null;
    this.onScreen = true;
    this.frame = (now) => this.tick(now);
    this.seen = null;
  }

  /** Start, or resume a paused leg (if the step shown is still the one it left). */
  play() {
    if (this.playing) return;
    if (this.leg && (this.leg.from !== this.step() || !this.current(this.leg.run))) this.dropLeg();
    if (!this.canStep(this.step() + 1)) return;
    const frame = diagramFrame(this.container);
    this.run = frame ? frame.run : null; // a new run (a sandbox edit) stops Play
    this.playing = true;
    this.watchScreen();
    this.schedule();
  }

  /** Stop where it is: a travelling message stays where it is, and play() resumes it. */
  pause() {
    this.playing = false;
    this.lastNow = null;
  }

  /** Stop and take every travelling mark away (Next, Previous, the scrubber, a new run, leaving). */
  cancel() {
    this.playing = false;
    this.lastNow = null;
    this.dropLeg();
    this.endFlash();
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    if (this.seen) this.seen.disconnect();
    this.seen = null;
  }

  /** A new speed, in force at once: the leg keeps how far it has come. */
  setSpeed(v) {
    this.speed = v;
  }

  schedule() {
    if (!this.raf) this.raf = requestAnimationFrame(this.frame);
  }

  // Whether the diagram still shows `run` (a new run, or a view gone, ends the leg).
  current(run) {
    const frame = diagramFrame(this.container);
    return frame && frame.run === run && frame.svg.isConnected ? frame : null;
  }

  // Off screen, nothing is drawn (the clock still runs, so the steps still land on time).
  watchScreen() {
    const frame = diagramFrame(this.container);
    if (this.seen || !frame || typeof IntersectionObserver !== 'function') return;
    this.seen = new IntersectionObserver((entries) => {
      for (const e of entries) this.onScreen = e.isIntersecting;
    });
    this.seen.observe(frame.scroller);
  }

  tick(now) {
    this.raf = 0;
    const gap = this.lastNow === null ? 0 : Math.max(0, Math.min(MAX_FRAME_MS, now - this.lastNow));
    this.lastNow = now;
    if (this.flash) this.fadeFlash(gap);
    if (this.playing) this.advance(gap);
    if (this.playing || this.flash) this.schedule();
    else this.lastNow = null;
  }

  advance(gap) {
    const from = this.step();
    const frame = diagramFrame(this.container);
    if (!frame || !frame.svg.isConnected || frame.run !== this.run || !this.canStep(from + 1)) return this.stopByItself();
    if (!this.leg || this.leg.from !== from) this.startLeg(frame, from);
    const leg = this.leg;
    leg.elapsed += gap * this.speed;
    if (leg.elapsed >= leg.timing.total) {
      this.dropLeg();
      this.land(from + 1);
      if (this.step() === from + 1) this.startFlash(from + 1);
      if (!this.canStep(this.step() + 1)) this.stopByItself();
      return undefined;
    }
    if (this.onScreen && !reducedMotion()) this.drawTravel(frame, leg);
    return undefined;
  }

  stopByItself() {
    this.playing = false;
    this.dropLeg();
    if (this.onStop) this.onStop();
  }

  startLeg(frame, from) {
    this.dropLeg();
    const steps = frame.run.steps;
    const to = from + 1;
    const messages = (frame.run.messages || [])
      .filter((m) => m.end_step === to && Number.isInteger(m.sent_step) && m.sent_step <= from && frame.arrow(m))
      .map((m) => ({ m, g: null, trail: null, dot: null }));
    this.leg = { run: frame.run, from, elapsed: 0, timing: legTiming(steps, from), messages };
  }

  drawTravel(frame, leg) {
    const { timing } = leg;
    const moving = leg.elapsed - timing.dwell;
    if (moving <= 0 || timing.travel <= 0) return;
    const steps = frame.run.steps;
    const p = moving / timing.travel;
    const v = steps[leg.from].t + (steps[leg.from + 1].t - steps[leg.from].t) * p;
    this.drawNow(frame, leg, v, p);
    for (const item of leg.messages) {
      const a = frame.arrow(item.m);
      if (!item.g || !item.g.isConnected) {
        if (item.g) item.g.remove();
        item.trail = s('line', { class: 'anim-trail', stroke: a.color, 'stroke-width': '2', 'stroke-dasharray': '4 3', x1: a.x1, y1: a.y1, x2: a.x1, y2: a.y1 });
        item.dot = s('circle', { class: 'anim-marker', 'data-testid': 'anim-marker', 'data-message': item.m.id, r: '5.5', fill: a.color, stroke: 'var(--paper)', 'stroke-width': '1.5', cx: a.x1, cy: a.y1 });
        item.g = s('g', { class: ['anim-travel', `anim-${item.m.kind}`], 'data-message': item.m.id }, item.trail, item.dot);
        frame.layer.appendChild(item.g);
        // The message's own "still travelling" stub gives way to it while it travels.
        const stub = frame.messageEl(item.m.id);
        if (stub) stub.setAttribute('visibility', 'hidden');
      }
      const f = travelFraction(item.m, v, p);
      const x = a.x1 + (a.x2 - a.x1) * f;
      const y = a.y1 + (a.y2 - a.y1) * f;
      item.trail.setAttribute('x2', x.toFixed(1));
      item.trail.setAttribute('y2', y.toFixed(1));
      item.dot.setAttribute('cx', x.toFixed(1));
      item.dot.setAttribute('cy', y.toFixed(1));
    }
  }

  // The virtual clock itself: "t=15ms" on a faint line across the lanes, going down from
  // the step shown toward the next one's row (a wait with nothing on the way moves too).
  drawNow(frame, leg, v, p) {
    if (!leg.now || !leg.now.g.isConnected) {
      if (leg.now) leg.now.g.remove();
      const line = s('line', { x1: 60, x2: frame.width - 8, stroke: 'var(--c-muted)', 'stroke-width': '1', 'stroke-dasharray': '2 4', 'stroke-opacity': '0.6' });
      const text = s('text', { x: 10, class: 'time time-now', 'data-testid': 'anim-now' });
      leg.now = { g: s('g', { class: 'anim-now' }, line, text), line, text };
      frame.layer.appendChild(leg.now.g);
    }
    const y = (frame.y(leg.from) + (frame.y(leg.from + 1) - frame.y(leg.from)) * p).toFixed(1);
    leg.now.line.setAttribute('y1', y);
    leg.now.line.setAttribute('y2', y);
    leg.now.text.setAttribute('y', (Number(y) + 4).toFixed(1));
    const label = `t=${Math.floor(v)}ms`;
    if (leg.now.text.textContent !== label) leg.now.text.textContent = label;
  }

  dropLeg() {
    const leg = this.leg;
    this.leg = null;
    if (!leg) return;
    if (leg.now) leg.now.g.remove();
    const frame = diagramFrame(this.container);
    for (const item of leg.messages) {
      if (item.g) item.g.remove();
      const stub = frame && frame.run === leg.run ? frame.messageEl(item.m.id) : null;
      if (stub) stub.removeAttribute('visibility');
    }
  }

  // A crash at the step just landed: its lane flashes (held still under reduced motion).
  startFlash(n) {
    this.endFlash();
    const frame = diagramFrame(this.container);
    const st = frame && frame.run.steps[n];
    const ev = st && st.event;
    if (!ev || ev.kind !== 'crash' || !ev.side || ev.side === 'none') return;
    const x = frame.laneX(ev.side);
    const y = frame.y(n);
    const el = s('g', { class: 'anim-flash', 'data-testid': 'diagram-flash', 'data-side': ev.side, 'pointer-events': 'none' },
      s('circle', { cx: x, cy: y, r: '16', fill: 'var(--c-danger)', 'fill-opacity': '0.35', stroke: 'var(--c-danger)', 'stroke-width': '2' }),
      s('rect', { x: x - 4, y: y - 40, width: 8, height: 80, rx: 4, fill: 'var(--c-danger)', 'fill-opacity': '0.25' }));
    frame.layer.appendChild(el);
    this.flash = { el, left: FLASH_MS, still: reducedMotion() };
    this.schedule();
  }

  fadeFlash(gap) {
    const flash = this.flash;
    flash.left -= gap;
    if (flash.left <= 0 || !flash.el.isConnected) return this.endFlash();
    // Two pulses, fading: opacity only, so nothing moves under reduced motion either.
    if (!flash.still) flash.el.setAttribute('opacity', (0.35 + 0.65 * Math.abs(Math.cos((Math.PI * 2 * (FLASH_MS - flash.left)) / FLASH_MS))).toFixed(2));
    return undefined;
  }

  endFlash() {
    if (this.flash) this.flash.el.remove();
    this.flash = null;
  }
}
