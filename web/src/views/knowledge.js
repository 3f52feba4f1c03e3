// The knowledge grid: facts x sides, each cell "knows: yes", "knows: no",
// "knows: N" or "cannot know" exactly as the engine computed it. A doubtful
// cell is focusable and shows the engine's witness run on hover and focus.
// The observer's truth is a separate column that is only built when shown.
// A cell an open question would be given away by is hidden, and names that question.

import { h, nextId } from '../dom.js';
import { t, l, sideName, nameOf, worded } from '../i18n.js';

const SIDES = ['client', 'service'];

function valueText(v) {
  if (v === true) return t('bool.true');
  if (v === false) return t('bool.false');
  return String(v);
}

function cellText(cell, fact) {
  if (!cell) return '—';
  if (cell.status === 'cannot_know') return t('grid.cannotKnow');
  if (cell.status === 'knows') {
    if (fact.kind === 'count' || typeof cell.value === 'number') return t('grid.knowsN', { n: cell.value });
    return cell.value ? t('grid.knowsTrue') : t('grid.knowsFalse');
  }
  return String(cell.status);
}

function cellKind(cell) {
  if (!cell) return 'none';
  if (cell.status === 'cannot_know') return 'cannot_know';
  if (typeof cell.value === 'number') return 'knows_n';
  return cell.value ? 'knows_true' : 'knows_false';
}

/**
 * A tooltip is placed in the viewport, beside its cell: below it, or above it when there
 * is no room below, so that no scrolling box (the grid's) cuts it off.
 */
function placeTip(body, tip) {
  const r = body.getBoundingClientRect();
  const tr = tip.getBoundingClientRect();
  const below = r.bottom + 2;
  const top = below + tr.height + 8 > window.innerHeight && r.top - tr.height - 4 >= 0 ? r.top - tr.height - 4 : below;
  tip.style.top = `${Math.round(top)}px`;
  tip.style.left = `${Math.round(Math.max(8, Math.min(r.left, window.innerWidth - tr.width - 8)))}px`;
}

let shownTip = null;
if (typeof window !== 'undefined') {
  window.addEventListener('scroll', () => {
    if (shownTip && shownTip.body.isConnected) placeTip(shownTip.body, shownTip.tip);
  }, { passive: true, capture: true });
}

function showTip(body, tip) {
  shownTip = { body, tip };
  placeTip(body, tip);
}

function knowledgeCell(side, fact, cell, hidden, worlds, nameQuestion) {
  const testid = `kcell-${side}-${fact.id}`;
  if (hidden) {
    // The question that unlocks the cell: by its number here, and with the start of its
    // prompt in the cell's title and once per column under the grid.
    const by = hidden === true ? null : nameQuestion(hidden);
    const full = by ? t('grid.hiddenBy', { question: by }) : t('grid.hidden');
    const short = by ? t('grid.hiddenShort', { n: hidden.number }) : t('grid.hidden');
    return h(
      'td',
      { class: 'kcell kcell-hidden', 'data-testid': testid, 'data-status': 'hidden', 'data-question': by ? hidden.id : null },
      h('span', { class: 'kcell-body', title: full, 'aria-label': full }, h('span', { class: 'kcell-icon', 'aria-hidden': 'true' }, '?'), h('span', { class: 'kcell-note', 'aria-hidden': 'true' }, short)),
    );
  }
  const kind = cellKind(cell);
  const text = cellText(cell, fact);
  if (kind === 'cannot_know' && cell.witness) {
    const tipId = nextId('tip');
    const w = cell.witness;
    const world = (worlds || []).find((x) => x.id === w.world);
    const tip = [
      h('span', { class: 'tip-main' }, t('grid.witness', { text: l(w.text) })),
      // The real run is not named by its faults: that would tell what happens later.
      h('span', { class: 'tip-run' }, world && world.actual
        ? t('grid.witnessThisRun', { step: w.step })
        : t('grid.witnessRun', { world: w.world, world_text: world ? l(world.text) : '—', step: w.step })),
    ];
    const tipEl = h('span', { class: 'tip', role: 'tooltip', id: tipId, 'data-testid': 'witness-tip' }, tip);
    const body = h(
      'span',
      {
        class: 'kcell-body has-tip',
        tabindex: '0',
        'aria-describedby': tipId,
        'data-fkey': `k-${side}-${fact.id}`,
        onmouseenter: () => showTip(body, tipEl),
        onfocus: () => showTip(body, tipEl),
      },
      h('span', { class: 'kcell-icon', 'aria-hidden': 'true' }, '?'),
      text,
    );
    return h(
      'td',
      { class: ['kcell', `kcell-${kind}`], 'data-testid': testid, 'data-status': kind },
      body,
      tipEl,
    );
  }
  return h(
    'td',
    { class: ['kcell', `kcell-${kind}`], 'data-testid': testid, 'data-status': kind },
    h('span', { class: 'kcell-body' }, h('span', { class: 'kcell-icon', 'aria-hidden': 'true' }, kind === 'knows_false' ? '✕' : '✓'), text),
  );
}

/**
 * `step` is the engine's snapshot; `hidden` = {sides: Map side -> question, truth:
 * question | null} from gating (a question is what unlocks it); `showTruth` is the
 * learner's toggle; `nameQuestion(q)` names a question on a hidden cell (`q.number`: its
 * place in the lesson, from 1). Returns the grid, and under it which question unlocks each
 * hidden column.
 */
export function knowledgeGrid(lesson, step, hidden, showTruth, worlds, nameQuestion = () => null) {
  const facts = lesson.facts || [];
  const truthVisible = showTruth && !hidden.truth;
  const k = step.knowledge || {};
  // Each hidden column says once which question unlocks it.
  const notes = SIDES.filter((sd) => hidden.sides.get(sd)).map((sd) =>
    h('li', { 'data-side': sd, 'data-question': hidden.sides.get(sd).id }, t('grid.hiddenColumn', { side: sideName(sd), question: nameQuestion(hidden.sides.get(sd)) })),
  );
  const table = h(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'group', 'aria-label': t('grid.title') },
    h(
      'table',
      { class: 'kgrid', 'data-testid': 'knowledge-grid' },
      h('caption', { class: 'visually-hidden' }, t('grid.title')),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, t('grid.fact')),
          SIDES.map((sd) => h('th', { scope: 'col', class: `col-${sd}` }, sideName(sd))),
          truthVisible ? h('th', { scope: 'col', class: 'col-truth', 'data-testid': 'truth-column' }, sideName('observer')) : null,
        ),
      ),
      h(
        'tbody',
        null,
        facts.map((f) =>
          h(
            'tr',
            null,
            h('th', { scope: 'row' }, l(f.label)),
            SIDES.map((sd) => knowledgeCell(sd, f, k[sd] && k[sd][f.id], hidden.sides.get(sd) || null, worlds, nameQuestion)),
            truthVisible
              ? h('td', { class: 'kcell kcell-truth', 'data-testid': `truth-${f.id}` }, valueText(k.observer ? k.observer[f.id] : '—'))
              : null,
          ),
        ),
      ),
    ),
  );
  return notes.length ? [table, h('ul', { class: 'grid-hidden-note muted small', 'data-testid': 'grid-hidden-note' }, notes)] : table;
}

// The engine's invariants (engine/invariants/), in its order. A step's "invariants" has a
// flag for each one that applies to the run (the notification ones only where the service
// notifies, concurrent_execution only where it takes time to process) and the violations
// behind the flags; the page only shows them.
export const INVARIANTS = ['duplicate_effect', 'false_success', 'false_failure', 'forgotten_intent', 'lost_notification', 'duplicate_notification', 'concurrent_execution'];
// Test ids the browser tests address lines by.
const INVARIANT_TESTIDS = { duplicate_effect: 'inv-duplicate', duplicate_notification: 'inv-duplicate-email' };

/**
 * One line per invariant of the step: held (✓), or broken (⚠ with the engine's reasons).
 * `effect`: the run's provider's (a step's provider.effect), which the notification lines name.
 */
export function invariantLines(inv, effect) {
  const violations = Array.isArray(inv.violations) ? inv.violations : [];
  return INVARIANTS.filter((name) => typeof inv[name] === 'boolean').map((name) => {
    const broken = inv[name];
    const reasons = violations.filter((v) => v.invariant === name).map((v) => l(v.reason)).filter(Boolean);
    const text = broken ? `⚠ ${reasons.length ? reasons.join('; ') : nameOf('invariantBroken', name, undefined, effect)}` : `✓ ${nameOf('invariantOk', name, undefined, effect)}`;
    return h('li', { class: broken ? 'inv-broken' : 'inv-ok', 'data-invariant': name, 'data-testid': INVARIANT_TESTIDS[name] || `inv-${name}` }, text);
  });
}

/** The truth summary (effects, invariants); built only when it may be shown. */
export function truthSummary(step) {
  const truth = step.truth || {};
  const inv = step.invariants || {};
  const effects = Object.entries(truth.effects || {});
  const effect = step.provider && step.provider.effect;
  return h(
    'div',
    { class: 'truth', 'data-testid': 'truth' },
    h('p', { class: 'truth-total' }, t('truth.effects', { n: truth.total ?? effects.reduce((a, [, n]) => a + n, 0) })),
    effects.length ? h('p', { class: 'truth-keys mono' }, effects.map(([key, n]) => h('span', { class: 'chip' }, t('truth.byKey', { key, n })))) : null,
    h('ul', { class: 'invariants' }, invariantLines(inv, effect)),
    truth.emails ? h('p', { class: 'truth-total', 'data-testid': 'truth-emails' }, t(worded('truth.emails', effect), { n: truth.emails.total })) : null,
  );
}

/**
 * The lesson's fault space, folded away: the runs behind every "cannot know".
 * Which of them is the real one is not marked, so nothing is told early.
 */
export function worldList(worlds) {
  if (!worlds || worlds.length === 0) return null;
  return h(
    'details',
    { class: 'worlds', 'data-testid': 'worlds' },
    h('summary', null, t('worlds.summary', { n: worlds.length })),
    h('p', { class: 'muted small' }, t('worlds.note')),
    h(
      'ol',
      { class: 'worlds-list' },
      worlds.map((w) =>
        h('li', null, h('span', { class: 'mono world-id' }, String(w.id)), ' ', l(w.text)),
      ),
    ),
  );
}
