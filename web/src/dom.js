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
