// An incident is a lesson that replays a public bug report (the lesson file's `incident`
// block, lessons/README.md). This draws what the page shows of the report: in the lesson
// list, the card's source line; in the lesson view and its text-only fallback, the panel
// "The report": a link to it, what was expected, what was seen, what the team changed, and
// how the engine's replay of it ends (`replayed`; absent in the text-only fallback). Everything here is text from the
// lesson file or the engine, put in as text nodes (web/src/dom.js); the address is a link
// only when it is https.

import { h } from '../dom.js';
import { t, l, nameOf } from '../i18n.js';

const isText = (v) => typeof v === 'string' && v.length > 0;
const isL10n = (v) => !!v && typeof v === 'object' && isText(v['zh-CN']) && isText(v.en);

/** `url` when it is an https address the page may link to, else null (shown as text). */
export function reportHref(url) {
  if (typeof url !== 'string' || !url.startsWith('https://')) return null;
  try {
    return new URL(url).protocol === 'https:' ? url : null;
  } catch (_) {
    return null;
  }
}

/** "sidekiq/sidekiq #3303: “Same job (identical JID) runs twice”", a link to the report when its address is https. */
export function reportLink(ref) {
  const body = [h('span', { class: 'incident-source' }, ref.source), ': ', h('q', { class: 'incident-title' }, ref.title)];
  const href = reportHref(ref.url);
  if (!href) {
    // Not an address to follow: the reader sees where it says the report is.
    return h('span', { class: 'incident-ref', 'data-testid': 'incident-ref' }, body, ' ', h('span', { class: 'muted incident-url' }, `(${ref.url})`));
  }
  return h(
    'a',
    { class: 'incident-ref', href, target: '_blank', rel: 'noopener noreferrer', 'data-testid': 'incident-link' },
    body,
    h('span', { class: 'visually-hidden' }, ` (${t('incident.newTab')})`),
  );
}

/** The card line of an incident in the lesson list: "Public report: sidekiq/sidekiq #3303". */
export function incidentSourceLine(ref) {
  return h('p', { class: 'incident-card-source', 'data-testid': 'incident-source' }, t('incident.sourceLine', { source: ref.source }));
}

/** "The report: sidekiq/sidekiq #3303: “…”" in one line (the side-by-side view), or null. */
export function reportLine(incident) {
  if (!incident || typeof incident !== 'object' || !isText(incident.source) || !isText(incident.title)) return null;
  const ref = { source: incident.source, title: incident.title, url: isText(incident.url) ? incident.url : '' };
  return h('p', { class: 'incident-ref-line', 'data-testid': 'incident-line' }, h('strong', null, t('incident.reportLabel')), ' ', reportLink(ref));
}

/**
 * "2 effects for job-5fe3 · concurrent execution": how the engine's replay of the report
 * ends (`replayed`, from the engine's `run`; the page never counts it itself).
 */
function replayedText(replayed, reported) {
  const parts = [];
  // The count only where the report gave one (a report without a count is about
  // something else, and the count may be a question's answer).
  if (Number.isInteger(replayed.effects) && reported && Number.isInteger(reported.effects)) {
    parts.push(t(replayed.effects === 1 ? 'incident.effects.one' : 'incident.effects.other', { n: replayed.effects, intent: String(replayed.intent || '') }));
  }
  // The invariant the report saw, when the replay breaks it (a stand-in such as an outbox
  // for a webhook may break others the report is not about).
  if (Array.isArray(replayed.broken) && reported && isText(reported.violation) && replayed.broken.includes(reported.violation)) {
    parts.push(nameOf('invariantBroken', reported.violation));
  }
  // The client's final status, where the report named one (a refusal breaks no invariant).
  if (reported && isText(reported.status) && replayed.status === reported.status) {
    parts.push(t('incident.status', { intent: String(replayed.intent || ''), status: reported.status }));
  }
  return parts.join(' · ');
}

/**
 * The panel "The report" for a lesson's `incident` block ({source, url, title, expected,
 * seen, fix, reported}, as the engine's `run` returns it or as the file has it), or null
 * when there is no block with at least a source and a title to show. `idPrefix` keeps its
 * heading's id unique on the page.
 */
export function incidentPanel(incident, idPrefix = 'incident') {
  if (!incident || typeof incident !== 'object' || !isText(incident.source) || !isText(incident.title)) return null;
  const ref = { source: incident.source, title: incident.title, url: isText(incident.url) ? incident.url : '' };
  const headingId = `${idPrefix}-report-h`;
  const rows = [];
  const row = (key, testid, text) => {
    rows.push(h('dt', null, t(key)), h('dd', { 'data-testid': testid }, text));
  };
  if (isL10n(incident.expected)) row('incident.expected', 'incident-expected', l(incident.expected));
  if (isL10n(incident.seen)) row('incident.seen', 'incident-seen', l(incident.seen));
  const replayed = incident.replayed && typeof incident.replayed === 'object' ? replayedText(incident.replayed, incident.reported) : '';
  if (replayed) row('incident.reproduced', 'incident-reproduced', replayed);
  if (isL10n(incident.fix)) row('incident.fix', 'incident-fix', l(incident.fix));
  return h(
    'section',
    { class: 'card incident-report', 'aria-labelledby': headingId, 'data-testid': 'incident-report' },
    h('h3', { id: headingId, class: 'section-title' }, t('incident.report')),
    h('p', { class: 'incident-ref-line' }, reportLink(ref)),
    rows.length ? h('dl', { class: 'incident-facts' }, rows) : null,
  );
}
