// Code mode's editor: a plain <textarea> (monospace, no wrapping, so a line of the code is a
// line on screen) beside a gutter of line numbers that scrolls with it. Tab inserts two
// spaces; Escape, then Tab, leaves the editor as Tab does anywhere else (Shift+Tab always
// does): a keyboard user is never kept in it. The gutter can mark one line (where the
// engine says an error is), and goToLine puts the caret there.

import { h, replaceChildren } from '../dom.js';

const INDENT = '  ';

function lineCount(text) {
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** The offset of line `line` (1-based), column `column` (1-based, clamped to the line) in `text`. */
export function offsetOf(text, line, column = 1) {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  const end = text.indexOf('\n', at);
  const lineEnd = end < 0 ? text.length : end;
  return Math.min(at + Math.max(0, (column || 1) - 1), lineEnd);
}

/** Inserts `text` at the caret as typing would (the browser's own undo keeps it). */
function insertAtCaret(area, text) {
  let done = false;
  try {
    done = document.execCommand('insertText', false, text);
  } catch (_) {
    done = false;
  }
  if (!done) {
    area.setRangeText(text, area.selectionStart, area.selectionEnd, 'end');
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }
}

/**
 * The editor: {el, area, value(), setValue(text), goToLine(line, column), markLine(line|null)}.
 * `onInput(text)` after every change the learner makes; `labelId`/`hintId`: the ids of its
 * visible label and keyboard hint.
 */
export function codeEditor({ value, labelId, hintId, onInput }) {
  const gutter = h('div', { class: 'code-gutter', 'aria-hidden': 'true', 'data-testid': 'code-gutter' });
  const area = h('textarea', {
    class: 'code-area',
    id: 'code-area',
    'data-testid': 'code-editor',
    'aria-labelledby': labelId,
    'aria-describedby': hintId,
    spellcheck: 'false',
    autocapitalize: 'off',
    autocomplete: 'off',
    autocorrect: 'off',
    wrap: 'off',
    rows: '18',
  });
  area.value = value;
  const ed = { el: h('div', { class: 'code-editor' }, gutter, area), area, marked: null, lines: 0 };
  let escaped = false; // Escape was the last key: the next Tab leaves
  const drawGutter = () => {
    const n = lineCount(area.value);
    if (n !== ed.lines) {
      ed.lines = n;
      const rows = [];
      for (let i = 1; i <= n; i++) rows.push(h('span', { class: ['code-ln', i === ed.marked && 'is-marked'], 'data-line': String(i) }, String(i)));
      replaceChildren(gutter, rows);
    }
    gutter.scrollTop = area.scrollTop;
  };
  area.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      escaped = true;
      return;
    }
    const leave = escaped;
    escaped = false;
    if (ev.key !== 'Tab' || ev.shiftKey || ev.altKey || ev.ctrlKey || ev.metaKey || leave) return;
    ev.preventDefault();
    insertAtCaret(area, INDENT);
  });
  area.addEventListener('blur', () => (escaped = false));
  area.addEventListener('input', () => {
    drawGutter();
    onInput(area.value);
  });
  area.addEventListener('scroll', () => (gutter.scrollTop = area.scrollTop));
  ed.value = () => area.value;
  ed.setValue = (text) => {
    area.value = text;
    drawGutter();
  };
  ed.markLine = (line) => {
    ed.marked = Number.isInteger(line) && line >= 1 ? line : null;
    for (const ln of gutter.children) ln.classList.toggle('is-marked', Number(ln.dataset.line) === ed.marked);
  };
  ed.goToLine = (line, column) => {
    const at = offsetOf(area.value, line, column);
    area.focus({ preventScroll: true });
    area.setSelectionRange(at, at);
    const lh = parseFloat(getComputedStyle(area).lineHeight) || 20;
    const top = (line - 1) * lh;
    if (top < area.scrollTop || top + lh > area.scrollTop + area.clientHeight) area.scrollTop = Math.max(0, top - area.clientHeight / 3);
    gutter.scrollTop = area.scrollTop;
    area.scrollIntoView({ block: 'nearest' });
  };
  drawGutter();
  return ed;
}
