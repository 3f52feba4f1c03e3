// Error cards: a broken lesson, the engine not loading, anything unexpected.
// They name what failed and why, in the learner's language.

import { h } from '../dom.js';
import { t, nameOf } from '../i18n.js';

function reasonText(e) {
  if (e.kind === 'http') return t('err.fetch', { reason: t('err.http', { status: e.status }) });
  if (e.kind === 'fetch') return t('err.fetch', { reason: e.reason });
  if (e.kind === 'json') return t('err.notJson', { reason: e.reason });
  if (e.kind === 'encoding') return t('err.notUtf8', { line: e.line });
  // The index is no lesson file: its reasons (made by the page, in English) get their own intro.
  if (e.kind === 'index') {
    return [h('span', { class: 'error-intro', 'data-testid': 'error-intro' }, t('err.indexReason', { file: e.file || '' })), h('span', { lang: 'en' }, e.reason)];
  }
  if (e.kind === 'duplicate') return t('err.duplicateId', { id: e.id, file: e.file, other: e.other });
  // The engine's reasons are written for authors, in English: introduce them in the
  // learner's language, and keep the reason itself as it is (marked as English).
  return [
    h('span', { class: 'error-intro', 'data-testid': 'error-intro' }, t('err.engineReason', { file: e.file || '', path: e.path || t('err.rootPath') })),
    h('span', { lang: 'en' }, e.reason),
  ];
}

function detailList(e) {
  return h(
    'dl',
    { class: 'error-details' },
    h('dt', null, t('err.file')),
    h('dd', { 'data-testid': 'error-file' }, h('code', null, e.file || '')),
    h('dt', null, t('err.path')),
    h('dd', { 'data-testid': 'error-path' }, e.path ? h('code', null, e.path) : t('err.rootPath')),
    h('dt', null, t('err.reason')),
    h('dd', { 'data-testid': 'error-reason' }, reasonText(e)),
  );
}

/**
 * A lesson file that failed: a card among the list's (`view` false: an h3, said when read),
 * or the view opened for it (`view` true: an alert, under an h2 that takes the keyboard as
 * other views' titles do).
 */
export function lessonErrorCard(rec, { view = false } = {}) {
  return h(
    'article',
    { class: 'card card-error', 'data-testid': 'lesson-error', 'data-file': rec.file, 'aria-label': `${t('err.lessonTitle')}: ${rec.file}`, role: view ? 'alert' : null },
    h(
      view ? 'h2' : 'h3',
      { class: 'card-title', tabindex: view ? '-1' : null, 'data-testid': view ? 'lesson-error-title' : null },
      h('span', { class: 'error-icon', 'aria-hidden': 'true' }, '!'),
      t('err.lessonTitle'),
      ' — ',
      h('code', null, rec.file),
    ),
    rec.errors.map(detailList),
  );
}

export function indexErrorCard(err) {
  return h(
    'article',
    { class: 'card card-error', 'data-testid': 'index-error', role: 'alert' },
    h('h2', { class: 'card-title' }, t('err.indexTitle')),
    detailList({ kind: 'index', file: err.file, path: '', reason: err.reason }),
  );
}

/** The engine card's reason, in the learner's language: what went wrong, never the toolchain's words. */
function engineReason(err) {
  const file = err.file || 'engine/idemlab.wasm';
  if (err.status) return t('err.fetch', { reason: t('err.http', { status: err.status }) });
  const kind = ['network', 'timeout', 'unsupported', 'stopped'].includes(err.kind) ? err.kind : 'damaged';
  return nameOf('engineError', kind, { file });
}

/** The technical detail (English), collapsed: for whoever looks after the site. */
export function technicalDetails(text) {
  return h(
    'details',
    { class: 'tech-details', 'data-testid': 'tech-details' },
    h('summary', null, t('err.details')),
    h('pre', { class: 'error-pre', lang: 'en', 'data-testid': 'tech-text' }, text),
  );
}

/**
 * The engine did not load (or stopped): what failed in the learner's language, what still
 * works, a button to load a fresh engine (onRetry), and the technical detail collapsed.
 */
export function engineErrorCard(err, { onRetry = null, stillWorks = true } = {}) {
  const stopped = err.kind === 'stopped';
  return h(
    'article',
    { class: 'card card-error engine-error', 'data-testid': 'engine-error', 'data-kind': err.kind || 'damaged', role: 'alert' },
    h('h2', { class: 'card-title', tabindex: '-1', 'data-testid': 'engine-error-title' }, t(stopped ? 'err.engineStoppedTitle' : 'err.engineTitle')),
    h(
      'dl',
      { class: 'error-details' },
      h('dt', null, t('err.file')),
      h('dd', { 'data-testid': 'error-file' }, h('code', null, err.file || '')),
      h('dt', null, t('err.reason')),
      h('dd', { 'data-testid': 'error-reason' }, engineReason(err)),
    ),
    stillWorks ? h('p', { 'data-testid': 'engine-still-works' }, t('err.engineStillWorks')) : null,
    err.status ? h('p', { class: 'muted' }, t('err.engineHint')) : null,
    onRetry
      ? h(
          'div',
          { class: 'btn-row' },
          h(
            'button',
            { type: 'button', class: 'btn btn-primary', 'data-testid': 'engine-retry', onclick: onRetry },
            t(stopped ? 'err.engineRestart' : 'err.engineRetry'),
          ),
        )
      : null,
    technicalDetails(`${err.file ? err.file + ': ' : ''}${err.reason || err.message || String(err)}`),
  );
}

export function fatalCard(err) {
  const detail = err && (err.stack || err.message) ? String(err.message || err) : String(err);
  return h(
    'article',
    { class: 'card card-error', 'data-testid': 'fatal-error', role: 'alert' },
    h('h2', { class: 'card-title' }, t('err.unexpected')),
    h('p', null, t('err.unexpectedHint')),
    h('pre', { class: 'error-pre' }, detail),
    h('button', { type: 'button', class: 'btn', onclick: () => window.location.reload() }, t('err.reload')),
  );
}
