// The lesson list: one card per entry of the lesson index with the learner's progress,
// or an error card for a file that did not validate. It reads the index alone: no lesson
// file is fetched or run until it is opened.

import { h, replaceChildren } from '../dom.js';
import { t, l, nameOf } from '../i18n.js';
import { lessonHash, compareHash, sandboxHash, challengesHash, codeListHash } from '../router.js';
import { isOfflineCopy } from '../bundled.js';
import { lessonErrorCard, indexErrorCard } from './errors.js';
import { incidentSourceLine } from './incident.js';
import { scoreLine, scoreText, challengeLine, challengeState, challengesSolved } from './score.js';

function lessonCard(rec, progress) {
  // Answered: right, or its answer shown (a wrong first try alone is still open).
  const st = progress.stats(rec.id, rec.questionIds);
  const total = st.questions;
  const pct = total ? Math.round((100 * st.answered) / total) : st.completed ? 100 : 0;
  const action = st.completed ? t('list.review') : st.started ? t('list.continue') : t('list.open');
  const titleId = `lesson-title-${rec.id}`;
  return h(
    'li',
    { class: ['card', 'lesson-card', rec.incident && 'incident-card', st.completed && 'is-completed'], 'data-testid': 'lesson-card', 'data-lesson': rec.id, 'data-incident': rec.incident ? 'true' : null },
    h(
      'div',
      { class: 'lesson-card-head' },
      h('span', { class: ['badge', `level-${rec.level}`] }, nameOf('level', rec.level)),
      st.completed ? h('span', { class: 'badge badge-done', 'data-testid': 'lesson-completed' }, '✓ ', t('list.completed')) : null,
    ),
    h('h3', { class: 'card-title', id: titleId }, l(rec.title)),
    rec.incident ? incidentSourceLine(rec.incident) : null,
    h('p', { class: 'lesson-summary' }, l(rec.summary)),
    h(
      'div',
      { class: 'lesson-progress' },
      h('div', { class: 'bar', 'aria-hidden': 'true' }, h('div', { class: 'bar-fill', style: `width:${pct}%` })),
      h(
        'p',
        { class: 'lesson-progress-text', 'data-testid': 'lesson-progress' },
        total ? t('list.answered', { n: st.answered, total }) : t('list.noQuestions'),
      ),
      // The lesson's one score, as its completion card says it; none before an answer:
      // "0 of 5" would read as a result.
      total && st.answered > 0 ? scoreLine(st, 'lesson-score', 'lesson-score muted') : null,
      rec.challenge ? challengeLine(rec.challenge, challengeState(progress, rec.id), { testid: 'lesson-challenge', cls: 'lesson-challenge muted' }) : null,
    ),
    h(
      'div',
      { class: 'btn-row' },
      h('a', { class: 'btn btn-primary', href: lessonHash(rec.id), 'aria-describedby': titleId, 'data-testid': 'lesson-open' }, action),
      rec.compare ? h('a', { class: 'btn', href: compareHash(rec.id), 'aria-describedby': titleId, 'data-testid': 'lesson-compare' }, t('compare.open')) : null,
    ),
  );
}

/**
 * Per lesson (for the exported file): questions, answered right, right at the first try,
 * and whose answer was shown before the learner found it.
 */
function exportSummary(store, progress) {
  const out = {};
  for (const entry of store.entries || []) {
    if (entry.status === 'ok' && !(entry.id in out)) {
      const { questions, right, first_try_right, revealed } = progress.stats(entry.id, entry.questionIds);
      out[entry.id] = { questions, right, first_try_right, revealed };
    }
  }
  return out;
}

/** Offer `text` as a downloaded file. */
export function downloadText(name, text) {
  const blob = new Blob([text], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The learner's progress as a file (the export button, and the notice when saving fails). */
export function exportProgress(store, progress) {
  downloadText('idemlab-progress.json', progress.exportText(exportSummary(store, progress)));
}

/**
 * One side of a preview row, in the lesson card's words: "answered 3/9 · right at the first
 * try: 2 of 9 · answers shown: 1 · completed", or "no progress".
 */
function progressLine(s) {
  if (!s.started && s.answered === 0 && !s.completed) return t('import.nothing');
  const parts = [s.questions ? t('list.answered', { n: s.answered, total: s.questions }) : t('list.noQuestions')];
  if (s.questions && s.answered > 0) parts.push(scoreText(s));
  parts.push(s.completed ? t('import.completed') : t('import.notCompleted'));
  return parts.join(' · ');
}

/**
 * What an import would change, lesson by lesson, with confirm and cancel (keyboard: Tab
 * to either button, Escape cancels). Nothing changes before "confirm".
 */
function importPreview({ fileName, rows, onConfirm, onCancel }) {
  const changed = rows.filter((r) => r.skipped || JSON.stringify(r.now) !== JSON.stringify(r.after));
  const box = h(
    'section',
    {
      class: 'card import-preview',
      'data-testid': 'import-preview',
      role: 'region',
      'aria-labelledby': 'import-preview-h',
      onkeydown: (ev) => {
        if (ev.key === 'Escape') {
          ev.preventDefault();
          ev.stopPropagation();
          onCancel();
        }
      },
    },
    h('h3', { id: 'import-preview-h', class: 'section-title', tabindex: '-1', 'data-testid': 'import-preview-title' }, t('import.title', { file: fileName })),
    h('p', null, t('import.replaces')),
    h('p', { class: 'muted' }, t('import.rechecked')),
    changed.length === 0
      ? h('p', { 'data-testid': 'import-no-change' }, t('import.noChange'))
      : h(
          'table',
          { class: 'import-table' },
          h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('import.lesson')), h('th', { scope: 'col' }, t('import.now')), h('th', { scope: 'col' }, t('import.after')))),
          h(
            'tbody',
            null,
            changed.map((r) =>
              h(
                'tr',
                { 'data-testid': 'import-row', 'data-lesson': r.id },
                h('th', { scope: 'row' }, r.title ? l(r.title) : h('code', null, r.id)),
                h('td', { 'data-testid': 'import-now' }, progressLine(r.now)),
                h(
                  'td',
                  { 'data-testid': 'import-after' },
                  r.skipped ? nameOf('importSkipped', r.skipped) : progressLine(r.after),
                  !r.skipped && r.claimedCompleted && !r.after.completed ? h('span', { class: 'import-unproven', 'data-testid': 'import-unproven' }, ' ', t('import.unproven')) : null,
                ),
              ),
            ),
          ),
        ),
    h(
      'div',
      { class: 'btn-row' },
      h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'import-confirm', onclick: onConfirm }, t('import.confirm')),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'import-cancel', onclick: onCancel }, t('import.cancel')),
    ),
  );
  return box;
}

function progressTools({ progress, notify, dropGroup, store, recheck }) {
  const slot = h('div', { class: 'import-slot', 'aria-live': 'polite' });
  let importBtn;
  const close = () => {
    replaceChildren(slot);
    importBtn.focus();
  };
  // The file picker the Import button opens: hidden, so that it is no second control of
  // that name (to a screen reader, or to Tab).
  const input = h('input', {
    type: 'file',
    accept: 'application/json,.json',
    hidden: true,
    id: 'import-file',
    'data-testid': 'import-input',
    onchange: async (ev) => {
      const file = ev.target.files && ev.target.files[0];
      ev.target.value = '';
      if (!file) return;
      // A new file replaces the preview and the outcome of the one before, whatever becomes of it.
      replaceChildren(slot);
      dropGroup('import');
      let data;
      try {
        data = progress.parseImport(await file.arrayBuffer());
      } catch (e) {
        // Where a text that is no JSON breaks, in the engine's words (as for a lesson file).
        const errors = typeof e.notJson === 'string' ? await store.jsonErrors(file.name, e.notJson) : null;
        notify({ key: 'notice.importFailed', params: { file: file.name, reason: errors ? errors[0].reason : e.message }, group: 'import' });
        return;
      }
      replaceChildren(slot, h('p', { class: 'loading', 'aria-busy': 'true', 'data-testid': 'import-checking' }, t('import.checking')));
      let plan;
      try {
        plan = await recheck(data);
      } catch (e) {
        replaceChildren(slot);
        notify({ key: e.key || 'notice.importFailed', params: { file: file.name, reason: e.message }, group: 'import' });
        return;
      }
      if (!slot.isConnected) return;
      const preview = importPreview({
        fileName: file.name,
        rows: plan.rows,
        onCancel: close,
        onConfirm: () => {
          replaceChildren(slot);
          const saved = progress.replaceWith(plan.data);
          notify({ key: saved || !progress.store ? 'notice.imported' : 'notice.importedNotSaved', kind: saved ? 'ok' : 'warn', group: 'import' });
        },
      });
      replaceChildren(slot, preview);
      preview.querySelector('[data-testid="import-preview-title"]').focus();
    },
  });
  importBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'import-progress', onclick: () => input.click() }, t('progress.import'));
  return h(
    'section',
    { class: 'progress-tools', 'aria-label': t('progress.tools') },
    h('p', { class: 'muted' }, t('progress.note')),
    h(
      'div',
      { class: 'btn-row' },
      h('button', { type: 'button', class: 'btn', 'data-testid': 'export-progress', onclick: () => exportProgress(store, progress) }, t('progress.export')),
      input,
      importBtn,
    ),
    slot,
  );
}

/**
 * Render the list into `root`. `store` loads lessons; `message` is an optional
 * notice shown above the list (e.g. an unknown lesson id).
 */
export function renderList(root, { store, progress, notify, dropGroup, message, isCurrent, banner = null, recheck }) {
  const items = h('ul', { class: 'lesson-list', 'data-testid': 'lesson-list' });
  // The incidents (lessons that replay a public bug report): a section of their own after
  // the lessons, shown once the index has one.
  const incidentItems = h('ul', { class: 'lesson-list incident-list', 'data-testid': 'incident-list' });
  // Focusable by script only: the jump below moves the reader (and focus) to it. The page's
  // routes live in the hash, so an in-page #anchor link would be read as a route.
  const incidentsHeading = h('h2', { class: 'list-section-title', id: 'incidents-h', tabindex: '-1' }, t('incidents.heading'));
  const incidents = h(
    'section',
    { class: 'incidents-section', 'aria-labelledby': 'incidents-h', 'data-testid': 'incidents-section', hidden: true },
    incidentsHeading,
    h('p', { class: 'lead' }, t('incidents.intro')),
    incidentItems,
  );
  const jumpButton = h('button', {
    type: 'button',
    class: 'btn btn-small',
    'data-testid': 'jump-to-incidents',
    onclick: () => {
      incidentsHeading.scrollIntoView({ block: 'start' });
      incidentsHeading.focus({ preventScroll: true });
    },
  });
  const jump = h('p', { class: 'list-jump', hidden: true }, jumpButton);
  // Every challenge of the course on a page of its own, with how many are solved.
  const challengesLink = h('a', { class: 'btn btn-small', href: challengesHash(), 'data-testid': 'challenges-link' }, t('challenges.title'));
  // Code mode's exercises (#/code): whatever the lessons hold; not in the offline copy or an
  // LMS package, which carry neither the exercises nor the code engine.
  const codeLink = isOfflineCopy() ? null : h('a', { class: 'btn btn-small', href: codeListHash(), 'data-testid': 'code-link' }, t('code.link'));
  const challenges = h('p', { class: 'list-jump' }, h('span', { hidden: true }, challengesLink), ' ', codeLink);
  replaceChildren(
    root,
    h(
      'section',
      { class: 'list-view' },
      message ? h('p', { class: 'notice notice-warn', role: 'alert', 'data-testid': 'route-message', tabindex: '-1' }, message) : null,
      banner,
      h('h2', { class: 'view-title' }, t('list.heading')),
      h('p', { class: 'lead' }, t('list.intro')),
      challenges,
      jump,
      items,
      incidents,
      h(
        'section',
        { class: 'card sandbox-card', 'data-testid': 'sandbox-card', 'aria-labelledby': 'sandbox-card-h' },
        // A heading of the page's sections' rank: it follows the incidents, not part of them.
        h('h2', { id: 'sandbox-card-h', class: 'section-title' }, t('sandbox.listTitle')),
        h('p', null, t('sandbox.listText')),
        h('a', { class: 'btn btn-primary', href: sandboxHash(null), 'data-testid': 'open-sandbox' }, t('sandbox.listOpen')),
      ),
      progressTools({ progress, notify, dropGroup, store, recheck }),
    ),
  );
  // An address that named no lesson or route: the keyboard starts at the message that says so
  // (else focus would be left on the page's body, the view it was on being gone).
  if (message) root.querySelector('[data-testid="route-message"]').focus({ preventScroll: true });
  (async () => {
    let entries;
    try {
      entries = await store.loadIndex();
    } catch (e) {
      if (!isCurrent()) return;
      const errorCard = indexErrorCard(e);
      replaceChildren(items, h('li', null, errorCard));
      // Nothing else on the page can be done first: the keyboard starts at the error, unless
      // it is already somewhere (a route message above, or where the learner moved it).
      const on = document.activeElement;
      if (!on || on === document.body) {
        errorCard.tabIndex = -1;
        errorCard.focus({ preventScroll: true });
      }
      return;
    }
    if (!isCurrent()) return;
    const card = (e) => (e.status === 'ok' ? lessonCard(e, progress) : h('li', { class: 'lesson-error-item' }, lessonErrorCard(e)));
    // A file that did not validate has no index entry to say it is an incident: its error
    // card stays with the lessons.
    const isIncident = (e) => e.status === 'ok' && !!e.incident;
    replaceChildren(
      items,
      entries.length === 0 ? h('li', { class: 'muted' }, t('list.empty')) : null,
      entries.filter((e) => !isIncident(e)).map(card),
    );
    const { all, solved } = challengesSolved(entries, progress);
    replaceChildren(challengesLink, t('challenges.link', { k: solved, n: all.length }));
    challengesLink.parentElement.hidden = all.length === 0;
    const reports = entries.filter(isIncident);
    replaceChildren(incidentItems, reports.map(card));
    incidents.hidden = reports.length === 0;
    jump.hidden = reports.length === 0;
    replaceChildren(jumpButton, t('incidents.jump', { n: reports.length }));
    incidentItems.setAttribute('data-ready', 'true');
    items.setAttribute('data-ready', 'true');
  })();
}
