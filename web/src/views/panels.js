// One panel per side: its durable rows (client intents; service dedup records,
// deliveries and, under an outbox, the emails it owes), changed rows highlighted,
// whether it is alive, the client's status per intent and each side's volatile
// memory; a strip for the network; and, when the service sends notification
// emails, the mail provider's inbox.

import { h } from '../dom.js';
import { t, sideName, nameOf, worded } from '../i18n.js';

function shortHex(hex) {
  if (typeof hex !== 'string') return t('value.null');
  return hex.length > 12 ? `${hex.slice(0, 10)}…` : hex;
}

function valueCell(v) {
  if (v === null || v === undefined) return h('td', { class: 'is-null' }, t('value.null'));
  return h('td', null, String(v));
}

/** A client status (PENDING, UNKNOWN, DELIVERED, ...) as a coloured pill; the text is the status itself. */
export function statusPill(status) {
  return h('span', { class: ['status', `status-${String(status).toLowerCase()}`] }, status);
}

function aliveBadge(alive) {
  return h(
    'span',
    { class: ['badge', alive ? 'badge-alive' : 'badge-crashed'], 'data-testid': 'alive' },
    h('span', { class: 'dot', 'aria-hidden': 'true' }),
    alive ? t('panel.alive') : t('panel.crashed'),
  );
}

// `effect`: the provider's (a step's provider.effect), which names the email key column.
function table(caption, columns, rows, rowCells, effect) {
  if (!rows || rows.length === 0) {
    return h('div', { class: 'db' }, h('p', { class: 'db-caption' }, caption), h('p', { class: 'muted db-empty' }, t('panel.noRows')));
  }
  return h(
    'div',
    { class: 'db table-scroll', tabindex: '0', role: 'group', 'aria-label': caption },
    h(
      'table',
      { class: 'rows-table' },
      h('caption', { class: 'db-caption' }, caption),
      h('thead', null, h('tr', null, columns.map((c) => h('th', { scope: 'col' }, nameOf('column', c, undefined, effect))))),
      h(
        'tbody',
        null,
        rows.map((r) =>
          h(
            'tr',
            { class: r.changed ? 'is-changed' : null, 'data-changed': r.changed ? 'true' : 'false' },
            rowCells(r),
          ),
        ),
      ),
    ),
  );
}

function fingerprintCell(hex) {
  return h('td', { class: 'mono' }, h('span', { title: hex || '', 'aria-label': hex || t('value.null') }, shortHex(hex)));
}

function changedMark(r) {
  return r.changed ? h('span', { class: 'changed-mark', title: t('panel.changed') }, h('span', { class: 'visually-hidden' }, ` (${t('panel.changed')})`), '●') : null;
}

// A side's memory, lost when it crashes: one line per item, or a note.
function volatileBlock(items, line, down, emptyKey) {
  return h(
    'div',
    { class: 'volatile' },
    h('p', { class: 'db-caption' }, t('panel.volatile')),
    items.length ? h('ul', null, items.map((x) => h('li', null, line(x)))) : h('p', { class: 'muted' }, down ? '—' : t(emptyKey)),
  );
}

// The cells a dedup record and a delivery share: key, fingerprint, receipt, time.
function recordCells(r, first) {
  return [
    h('td', { class: 'mono' }, first, r.op_key),
    fingerprintCell(r.fingerprint),
    valueCell(r.receipt),
    valueCell(Number.isFinite(r.created_at) ? `t=${r.created_at}ms` : r.created_at),
  ];
}

export function clientPanel(c) {
  const statuses = Object.entries((c && c.status) || {});
  const waiting = (c && c.volatile && c.volatile.waiting) || [];
  return h(
    'section',
    { class: ['panel', 'panel-client', c && c.alive === false && 'is-down'], 'data-testid': 'panel-client', 'aria-labelledby': 'panel-client-h' },
    h('header', { class: 'panel-head' }, h('h3', { id: 'panel-client-h' }, sideName('client')), aliveBadge(!c || c.alive !== false)),
    statuses.length
      ? h(
          'dl',
          { class: 'status-list', 'data-testid': 'client-status' },
          statuses.map(([intent, st]) => [h('dt', null, intent), h('dd', null, statusPill(st))]),
        )
      : null,
    table(t('panel.intents'), ['intent', 'op_key', 'fingerprint', 'status', 'receipt', 'attempts'], c && c.intents, (r) => [
      h('td', null, changedMark(r), r.intent),
      h('td', { class: 'mono' }, r.op_key),
      fingerprintCell(r.fingerprint),
      h('td', null, statusPill(r.status)),
      valueCell(r.receipt),
      valueCell(r.attempts),
    ]),
    // Only once an intent's content was changed and resent: what it was sent with before.
    c && Array.isArray(c.earlier_versions)
      ? table(t('panel.earlierVersions'), ['intent', 'version', 'op_key', 'fingerprint', 'status', 'receipt'], c.earlier_versions, (r) => [
          h('td', null, changedMark(r), r.intent),
          valueCell(r.version),
          h('td', { class: 'mono' }, r.op_key),
          fingerprintCell(r.fingerprint),
          h('td', null, statusPill(r.status)),
          valueCell(r.receipt),
        ])
      : null,
    volatileBlock(
      waiting,
      (w) => t('panel.waiting', { intent: w.intent, attempt: w.attempt, deadline: w.deadline, what: nameOf('message', w.for === 'lookup_reply' ? 'lookup_reply' : 'response') }),
      c && c.alive === false,
      'panel.noWaiting',
    ),
  );
}

/** The service's tables; `effect` is the provider's, which its outbox owes (worded()). */
export function servicePanel(sv, effect) {
  // Not when it will commit: the service's own memory holds the work in hand, and its end
  // is what a predict question may ask.
  const inProgress = ((sv && sv.volatile && sv.volatile.in_progress) || []).map((p) => t('panel.inProgress', { op_key: p.op_key }));
  const relay = ((sv && sv.volatile && sv.volatile.relay_waiting) || []).map((w) => t(worded('panel.relayWaiting', effect), { email_key: w.email_key, send: w.send, deadline: w.deadline }));
  return h(
    'section',
    { class: ['panel', 'panel-service', sv && sv.alive === false && 'is-down'], 'data-testid': 'panel-service', 'aria-labelledby': 'panel-service-h' },
    h('header', { class: 'panel-head' }, h('h3', { id: 'panel-service-h' }, sideName('service')), aliveBadge(!sv || sv.alive !== false)),
    table(t('panel.keys'), ['op_key', 'fingerprint', 'receipt', 'created_at'], sv && sv.keys, (r) => recordCells(r, changedMark(r))),
    table(t('panel.deliveries'), ['id', 'op_key', 'fingerprint', 'receipt', 'created_at'], sv && sv.deliveries, (r) => [
      h('td', null, changedMark(r), r.id === undefined ? t('value.null') : String(r.id)),
      ...recordCells(r, null),
    ]),
    // Only a service with a transactional outbox has this table.
    sv && Array.isArray(sv.outbox)
      ? table(t(worded('panel.outbox', effect)), ['id', 'email_key', 'op_key', 'status', 'attempts', 'created_at'], sv.outbox, (r) => [
          h('td', null, changedMark(r), String(r.id)),
          h('td', { class: 'mono' }, r.email_key),
          h('td', { class: 'mono' }, r.op_key),
          h('td', null, statusPill(r.status)),
          valueCell(r.attempts),
          valueCell(`t=${r.created_at}ms`),
        ], effect)
      : null,
    volatileBlock([...inProgress, ...relay], (line) => line, sv && sv.alive === false, 'panel.noInProgress'),
  );
}

/**
 * The mail provider's inbox: the emails it delivered (it never crashes); or, where its
 * effect is `credit`, the balance ledger it stands in for: the credits.
 */
export function providerPanel(pv) {
  const effect = pv && pv.effect;
  return h(
    'section',
    { class: 'panel panel-provider', 'data-testid': 'panel-provider', 'aria-labelledby': 'panel-provider-h' },
    h('header', { class: 'panel-head' }, h('h3', { id: 'panel-provider-h' }, sideName('provider', effect))),
    table(t(worded('panel.emails', effect)), ['id', 'email_key', 'op_key', 'receipt', 'received_at'], pv && pv.emails, (r) => [
      h('td', null, changedMark(r), String(r.id)),
      h('td', { class: 'mono' }, r.email_key),
      h('td', { class: 'mono' }, r.op_key),
      valueCell(r.receipt),
      valueCell(`t=${r.received_at}ms`),
    ], effect),
  );
}

export function networkStrip(net, messages, effect) {
  const byId = new Map((messages || []).map((m) => [m.id, m]));
  const names = (ids) =>
    (ids || []).length
      ? (ids || []).map((id) => {
          const m = byId.get(id);
          return h('span', { class: 'chip' }, m ? `${nameOf('message', m.kind, undefined, effect)} #${id + 1}` : `#${id + 1}`);
        })
      : h('span', { class: 'muted' }, t('panel.none'));
  return h(
    'section',
    { class: 'panel panel-network', 'data-testid': 'panel-network', 'aria-label': sideName('network') },
    h('h3', null, sideName('network')),
    h(
      'dl',
      { class: 'net-list' },
      h('dt', null, t('panel.inFlight')),
      h('dd', null, names(net && net.in_flight)),
      h('dt', null, t('panel.dropped')),
      h('dd', null, names(net && net.dropped)),
    ),
  );
}
