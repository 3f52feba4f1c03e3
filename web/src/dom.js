// Tiny DOM helpers. Every string goes in as a text node: nothing from a lesson
// or from the engine is ever parsed as HTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

function append(parent, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(parent, c);
    return;
  }
  if (child instanceof Node) parent.appendChild(child);
  else parent.appendChild(document.createTextNode(String(child)));
}

function applyAttrs(el, attrs, svg) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2).toLowerCase(), v);
    } else if (k === 'style') {
      // Through the CSSOM: the page's Content Security Policy (style-src 'self') refuses a
      // style attribute written as markup, and allows this.
      el.style.cssText = String(v);
    } else if (k === 'class') {
      el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    } else if (!svg && (k === 'value' || k === 'checked' || k === 'selected' || k === 'disabled')) {
      el[k] = v;
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
}

/** h('div', {class: 'x'}, 'text', child, [more]) */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs, false);
  append(el, children);
  return el;
}

/** Same as h for SVG elements. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyAttrs(el, attrs, true);
  append(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replaceChildren(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

let uid = 0;
export function nextId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

/**
 * Rebuild `el` with `build()` and give focus back to the element that had it
 * (matched by its data-fkey), so stepping with the keyboard never loses focus.
 */
export function rebuildKeepingFocus(el, build) {
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.getAttribute('data-fkey') : null;
  build();
  if (key) {
    const again = el.querySelector(`[data-fkey="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

// Layout reads (scroll positions, sizes) wait for the next frame and run together: the
// browser lays the page out once there, as it must before painting anyway, instead of
// once per view in the middle of building the DOM. `read()` may return a function that
// writes (sets scrollTop, ...); all reads run before any write. A later request under
// the same key replaces an earlier one that has not run yet.
const frameTasks = new Map();
let frameRequested = false;

function runFrameTasks() {
  frameRequested = false;
  const reads = [...frameTasks.values()];
  frameTasks.clear();
  const writes = reads.map((read) => read());
  for (const write of writes) if (typeof write === 'function') write();
}

export function measureNextFrame(key, read) {
  frameTasks.set(key, read);
  if (!frameRequested) {
    frameRequested = true;
    requestAnimationFrame(runFrameTasks);
  }
}

/**
 * Hands the keyboard focus from `from` (a control that has just been disabled) to `to`, in
 * the next frame: focus() lays the page out, which that frame does anyway, where in the
 * middle of a rebuild it added a whole forced layout to the task (issue 12: no task over
 * 50 ms). Nothing happens if the learner has focused something else meanwhile.
 */
export function handFocusNextFrame(key, from, to) {
  measureNextFrame(key, () => () => {
    const now = document.activeElement;
    if (to.isConnected && !to.disabled && (now === from || now === document.body || !now)) to.focus({ preventScroll: true });
  });
}

/**
 * Runs `fn` in a task of its own once the browser has drawn the next frame. A view built
 * in stages this way has each stage styled, laid out and painted in a frame of its own,
 * instead of one main-thread task that lays out the whole view (issue 12: no task over
 * 50 ms). A hidden document draws no frames: there `fn` runs in the next task.
 */
export function afterNextPaint(fn) {
  if (document.visibilityState === 'hidden') setTimeout(fn, 0);
  else requestAnimationFrame(() => setTimeout(fn, 0));
}

/**
 * Make `parent`'s children the elements for `items` ([key, make] pairs, in order),
 * reusing the element already there for a key and calling make() only for new keys.
 * `cache` is the Map this returned last time (or null); the new one is returned.
 */
export function keyedChildren(parent, cache, items) {
  const next = new Map();
  let at = parent.firstChild;
  for (const [key, make] of items) {
    const el = (cache && cache.get(key)) || make();
    next.set(key, el);
    if (at === el) at = at.nextSibling;
    else parent.insertBefore(el, at);
  }
  while (at) {
    const gone = at;
    at = at.nextSibling;
    parent.removeChild(gone);
  }
  return next;
}

// Sticky bars (each view's step controls stick to the top of the page): the tallest one
// shown is the page's --sticky-bar-h, which style.css makes the root's scroll-padding-top,
// so what is focused or scrolled into view lands below the bar, not under it. Measured by
// a ResizeObserver, so a bar that wraps (a phone, a longer language) is measured again.
const stickyBars = new Set();
let stickySizer = null;

function sizeStickyBars() {
  let tallest = 0;
  for (const bar of stickyBars) {
    if (!bar.isConnected) {
      stickyBars.delete(bar);
      stickySizer.unobserve(bar);
      continue;
    }
    tallest = Math.max(tallest, bar.getBoundingClientRect().height);
  }
  document.documentElement.style.setProperty('--sticky-bar-h', `${Math.ceil(tallest)}px`);
}

/** `el`, a bar that sticks to the top of the page, kept out of the way of what is scrolled to. */
export function stickyBar(el) {
  if (typeof ResizeObserver !== 'function') return el;
  if (!stickySizer) stickySizer = new ResizeObserver(sizeStickyBars);
  stickyBars.add(el);
  stickySizer.observe(el);
  return el;
}
