// The sandbox's palette of fault kinds, above its diagram: one chip per kind of fault the
// engine offers in this run (its `targets`, engine/api/API.md), each with an icon and a short
// label. Picking a kind shows that kind's targets on the diagram (diagram.js draws them);
// with none picked only the faults already placed are drawn, so the marks never crowd.
// A group of radio buttons: Tab reaches it, the arrow keys move among the kinds, Escape (here
// or on a target) puts the kind down. The page names a kind from the fault's own field,
// never deciding what it means beyond that.

import { h } from '../dom.js';
import { t } from '../i18n.js';

// Each kind: the fault field it is read from, its icon (a glyph drawn in the page's font)
// and its words. In the order a request meets them.
const KINDS = [
  { id: 'connect', icon: '⊘', words: 'palette.kind.connect' },
  { id: 'drop', icon: '✂', words: 'palette.kind.drop' },
  { id: 'crash_client', icon: '⚡', words: 'palette.kind.crash_client' },
  { id: 'crash_service', icon: '⚡', words: 'palette.kind.crash_service' },
  { id: 'error', icon: '⚠', words: 'palette.kind.error' },
  { id: 'refuse', icon: '↩', words: 'palette.kind.refuse' },
  { id: 'lose_row', icon: '⌫', words: 'palette.kind.lose_row' },
  { id: 'other', icon: '?', words: 'palette.kind.other' },
];
const BY_ID = new Map(KINDS.map((k) => [k.id, k]));

/** The palette kind of a target's fault, read from the fault's own field. */
export function faultKind(fault) {
  if (!fault) return 'other';
  if (fault.drop) return 'drop';
  if (fault.crash_client) return 'crash_client';
  if (fault.crash_service) return 'crash_service';
  if (fault.service_error === 'refused') return 'refuse';
  if (fault.service_error) return 'error';
  if (fault.connect_error) return 'connect';
  if (fault.lose_row) return 'lose_row';
  return 'other';
}

export const kindIcon = (kind) => (BY_ID.get(kind) || BY_ID.get('other')).icon;
export const kindName = (kind) => t((BY_ID.get(kind) || BY_ID.get('other')).words);

/** The kinds that `targets` offer, in palette order. */
export function kindsOf(targets) {
  const present = new Set((targets || []).map((tg) => faultKind(tg.fault)));
  return KINDS.filter((k) => present.has(k.id)).map((k) => k.id);
}

let paletteCount = 0;

/**
 * The palette element, built once per diagram and updated in place (a focused chip keeps its
 * focus while a placed fault changes the run): `onKind(kind | null)` is called on a pick.
 */
export function createPalette(onKind) {
  paletteCount += 1;
  const name = `fault-kind-${paletteCount}`;
  const hint = h('p', { class: 'palette-hint muted small', 'data-testid': 'palette-hint', id: `${name}-hint` });
  const group = h('div', { class: 'palette-kinds', role: 'radiogroup', 'aria-labelledby': `${name}-h`, 'aria-describedby': `${name}-hint` });
  const el = h(
    'div',
    { class: 'fault-palette', 'data-testid': 'fault-palette' },
    h('span', { class: 'palette-title', id: `${name}-h` }, t('palette.title')),
    group,
    hint,
  );
  const palette = { el, group, hint, kinds: [], kind: null, onKind };
  group.addEventListener('change', (ev) => {
    if (ev.target.checked) pickKind(palette, ev.target.value);
  });
  // A click on the chip already picked puts it down (a radio button cannot be unchecked by
  // itself); the keyboard's way is Escape.
  group.addEventListener('click', (ev) => {
    const input = ev.target.closest && ev.target.closest('label') && ev.target.closest('label').querySelector('input');
    if (!input || ev.target !== input) return; // the label's click, before the input's
    if (input.value === palette.kind && palette.wasChecked) pickKind(palette, null);
    palette.wasChecked = false;
  });
  group.addEventListener('pointerdown', (ev) => {
    const label = ev.target.closest && ev.target.closest('label');
    palette.wasChecked = Boolean(label && label.querySelector('input').checked);
  });
  // A chip dragged onto the diagram picks its kind (its targets show) and diagram.js places
  // the fault where it is dropped.
  group.addEventListener('dragstart', (ev) => {
    const label = ev.target.closest && ev.target.closest('label');
    if (!label || !ev.dataTransfer) return;
    ev.dataTransfer.setData('text/plain', label.dataset.kind);
    ev.dataTransfer.effectAllowed = 'copy';
    if (palette.kind !== label.dataset.kind) pickKind(palette, label.dataset.kind);
  });
  el.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && palette.kind) {
      ev.preventDefault();
      pickKind(palette, null);
    }
  });
  return palette;
}

/** Pick `kind` (null: none), as a learner would. */
export function pickKind(palette, kind) {
  palette.kind = kind;
  sayKind(palette);
  for (const input of palette.group.querySelectorAll('input')) input.checked = input.value === kind;
  palette.onKind(kind);
}

/** Show the kinds `targets` offer, `kind` picked (null: none). Returns the kind still offered. */
export function updatePalette(palette, targets, kind) {
  const kinds = kindsOf(targets);
  const picked = kinds.includes(kind) ? kind : null;
  if (kinds.join() !== palette.kinds.join()) {
    const focused = palette.group.contains(document.activeElement) ? document.activeElement.value : null;
    palette.group.replaceChildren(
      ...kinds.map((k) =>
        h(
          'label',
          { class: ['palette-kind', `palette-${k}`], 'data-kind': k, 'data-testid': 'palette-kind', draggable: 'true' },
          h('input', { type: 'radio', name: palette.group.parentNode.querySelector('.palette-title').id, value: k, class: 'palette-input' }),
          h('span', { class: 'palette-icon', 'aria-hidden': 'true' }, kindIcon(k)),
          h('span', { class: 'palette-label' }, kindName(k)),
        ),
      ),
    );
    palette.kinds = kinds;
    const again = focused && palette.group.querySelector(`input[value="${focused}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  palette.kind = picked;
  for (const input of palette.group.querySelectorAll('input')) input.checked = input.value === picked;
  palette.el.hidden = kinds.length === 0;
  sayKind(palette);
  return picked;
}

function sayKind(palette) {
  palette.hint.textContent = palette.kind ? t('palette.hintPicked', { kind: kindName(palette.kind) }) : t('palette.hint');
}
