// Question cards, placed at their moments. Each check goes to the engine's `answer`,
// and the card shows what the engine said: hint, then try, then reveal. A wrong first
// try gets the verdict and the engine's hint (for a table, how many cells are wrong in
// each row, not which; for a choice, that option's judgement only) and another try; the
// expected answer and why come with a second try, or when the learner asks for them.
// Every try stays visible, in order.

import { h, replaceChildren } from '../dom.js';
import { t, l, sideName, nameOf } from '../i18n.js';
import { shuffledFor, keepsOrder } from '../shuffle.js';

const KNOWLEDGE_ANSWERS = ['knows_true', 'knows_false', 'cannot_know'];

function optionLabel(q, id) {
  if (q.kind === 'knowledge') return nameOf('answer', id);
  const o = (q.options || []).find((x) => x.id === id);
  return o ? l(o.label) : String(id);
}

function cellKey(m, side, f) {
  return `${m.id}/${side}/${f.id}`;
}

/** A row of a table question as drawn below (one moment and one fact, a cell per side): the engine's "rows" key it. */
function rowKey(moment, fact) {
  return `${moment}/${fact}`;
}

/** How many cells a table question has. */
function tableSize(q) {
  return (q.moments || []).length * (q.facts || []).length * (q.sides || ['client', 'service']).length;
}

/**
 * A choose question's judgements as the engine gave them: after the reveal every option
 * (safe or unsafe, why, and behind a disclosure how each run the client cannot tell apart
 * ends); before it only the chosen option's, its runs open, with the run where it goes
 * wrong marked.
 */
function judgementsView(q, options, all) {
  return h(
    'div',
    { class: 'judgements', 'data-testid': 'judgements', 'data-all': String(all) },
    h('p', { class: 'judgements-head' }, h('strong', null, t(all ? 'q.choose.heading' : 'q.choose.yours'))),
    h(
      'ul',
      { class: 'judgement-list' },
      options.map((o) => {
        const runs = Array.isArray(o.runs) ? o.runs : [];
        const witness = o.safe ? null : runs.find((r) => r.world === o.witness) || null;
        return h(
          'li',
          { class: ['judgement', o.safe ? 'is-safe' : 'is-unsafe'], 'data-testid': 'judgement', 'data-option': o.id, 'data-safe': String(!!o.safe), 'data-withheld': o.withheld || null },
          h('p', { class: 'judgement-head' },
            h('span', { class: 'verdict-icon', 'aria-hidden': 'true' }, o.safe ? '✓' : '✕'),
            h('strong', null, t(o.safe ? 'q.choose.safe' : 'q.choose.unsafe')),
            ` · ${optionLabel(q, o.id)}`),
          o.explanation ? h('p', { class: 'judgement-why' }, l(o.explanation)) : null,
          witness
            ? h('p', { class: 'judgement-witness', 'data-testid': 'judgement-witness', 'data-world': String(witness.world) },
                t('q.choose.witness', { run: l(witness.run) }),
                witness.problem ? ` — ${nameOf('problem', witness.problem)}` : '')
            : null,
          runs.length
            ? h(
                'details',
                { class: 'judgement-runs', open: !all },
                h('summary', null, t('q.choose.runs', { n: runs.length })),
                h(
                  'ul',
                  null,
                  runs.map((r) =>
                    h(
                      'li',
                      { class: [r.problem ? 'is-unsafe' : null, witness && r.world === witness.world ? 'is-witness' : null], 'data-world': String(r.world) },
                      t('q.choose.run', { run: l(r.run), effects: r.effects, status: r.status }),
                      r.problem ? ` — ${nameOf('problem', r.problem)}` : '',
                    ),
                  ),
                ),
              )
            : null,
        );
      }),
    ),
  );
}

function expectedLine(q, expected) {
  return h('p', { 'data-testid': 'verdict-expected', 'data-expected': typeof expected === 'string' ? expected : JSON.stringify(expected) }, t('q.expected', { a: optionLabel(q, expected) }));
}

/** One try as the engine judged it: the verdict, and either the hint or the answer and why. */
function tryView(q, attempt, n) {
  const right = attempt.correct;
  const revealed = attempt.revealed !== false;
  const parts = [
    h('p', { class: 'verdict-head' }, h('span', { class: 'verdict-icon', 'aria-hidden': 'true' }, right ? '✓' : '✕'), `${t('q.try', { n })} · `, h('strong', null, right ? t('q.right') : t('q.wrong'))),
  ];
  if (q.kind === 'table') {
    const cells = Object.values(attempt.cells || {});
    const total = tableSize(q) || cells.length;
    const wrong = Number.isInteger(attempt.wrong) ? attempt.wrong : cells.filter((c) => !c.correct).length;
    // Revealed, the cells are marked; before, only each row's count is beside it.
    let text;
    if (right) text = t('q.cellsRight', { n: total - wrong, total });
    else if (revealed && cells.length) text = t(wrong === 1 ? 'q.cellWrongOne' : 'q.cellsWrong', { n: wrong, total });
    else text = t(wrong === 1 ? 'q.cellWrongOneRows' : 'q.cellsWrongRows', { n: wrong, total });
    if (total) parts.push(h('p', { 'data-testid': 'verdict-cells', 'data-wrong': String(wrong) }, text));
  } else {
    parts.push(h('p', { 'data-testid': 'verdict-yours' }, t('q.yours', { a: optionLabel(q, attempt.answer) })));
    if (revealed && !right && attempt.expected !== undefined && attempt.expected !== null) parts.push(expectedLine(q, attempt.expected));
  }
  if (revealed && attempt.explanation) parts.push(h('p', { class: 'verdict-why' }, h('strong', null, t('q.why')), l(attempt.explanation)));
  if (!revealed && attempt.hint) parts.push(h('p', { class: 'verdict-hint', 'data-testid': 'verdict-hint' }, h('strong', null, t('q.hint')), l(attempt.hint)));
  return h('div', { class: ['verdict', right ? 'verdict-right' : 'verdict-wrong'], 'data-testid': 'verdict', 'data-correct': String(right), 'data-revealed': String(revealed) }, parts);
}

/** The answer the engine showed when the learner asked for it. */
function revealView(q, rv) {
  const parts = [h('p', { class: 'verdict-head' }, h('span', { class: 'verdict-icon', 'aria-hidden': 'true' }, '↳'), h('strong', null, t('q.shown')))];
  if (q.kind !== 'table' && rv.expected !== undefined && rv.expected !== null) parts.push(expectedLine(q, rv.expected));
  if (q.kind === 'table') parts.push(h('p', null, t('q.shownTable')));
  if (rv.explanation) parts.push(h('p', { class: 'verdict-why' }, h('strong', null, t('q.why')), l(rv.explanation)));
  return h('div', { class: 'verdict verdict-shown', 'data-testid': 'verdict-shown', tabindex: '-1' }, parts);
}

/** What progress keeps of a question, read for the card: its tries, the shown answer, and where it stands. */
function readRecord(rec) {
  const tries = (rec && rec.tries) || [];
  const reveal = (rec && rec.reveal) || null;
  const solved = !!(rec && rec.correct);
  const revealed = !!reveal || tries.some((tr) => tr.revealed !== false);
  // The latest output that holds the answer (a revealed try, or the answer shown on request).
  let shown = null;
  tries.forEach((tr, i) => {
    if (tr.revealed !== false && (!reveal || i >= reveal.after)) shown = tr;
  });
  if (reveal && !shown) shown = reveal;
  return { tries, reveal, solved, revealed, settled: solved || revealed, shown, last: tries[tries.length - 1] || null };
}

/**
 * ctx: { lessonId, number (the question's place in the lesson, from 1), seed (the
 *        learner's, for the order of options), isLast, drafts: Map,
 *        answered: () => record|null, check: (answer) => Promise<verdict>,
 *        reveal: () => Promise<verdict>, afterCheck: () => bool (true: it took the focus) }
 */
export function questionCard(q, ctx) {
  const record = () => readRecord(ctx.answered());
  const verdicts = h('div', { class: 'verdicts', role: 'status', 'aria-live': 'polite', 'data-testid': 'verdicts' });
  const blocked = h('p', { class: 'blocked-note', 'data-testid': 'blocked-note' }, t(ctx.isLast ? 'q.unansweredLast' : 'q.unanswered'));
  const errorBox = h('div', { class: 'q-error', role: 'alert' });
  const optionButtons = [];
  const table = { selects: new Map(), cellMarks: new Map(), rowCounts: new Map(), rowCountHead: null };
  const judgements = h('div', { class: 'judgements-box' });
  const revealButton = h('button', { type: 'button', class: 'btn btn-small btn-reveal', 'data-testid': 'reveal', 'data-fkey': `q-${q.id}-reveal`, onclick: () => reveal() }, t('q.reveal'));
  const invite = h('div', { class: 'try-again', 'data-testid': 'try-again' }, h('p', null, t('q.tryAgain')), revealButton);

  function views(r) {
    const out = [];
    r.tries.forEach((tr, i) => {
      if (r.reveal && r.reveal.after === i) out.push(revealView(q, r.reveal));
      out.push(tryView(q, tr, i + 1));
    });
    if (r.reveal && r.reveal.after >= r.tries.length) out.push(revealView(q, r.reveal));
    return out;
  }

  function refresh(announce) {
    const r = record();
    blocked.hidden = r.tries.length > 0 || r.revealed;
    card.dataset.answered = r.tries.length > 0 ? 'true' : 'false';
    card.dataset.solved = r.solved ? 'true' : 'false';
    card.dataset.revealed = r.revealed ? 'true' : 'false';
    card.dataset.settled = r.settled ? 'true' : 'false';
    for (const b of optionButtons) {
      // Settled (right, or its answer shown): no more tries; a copied answer is not a solved one.
      b.disabled = r.settled;
      b.classList.toggle('is-chosen', !!r.last && r.last.answer === b.dataset.answer);
    }
    if (q.kind === 'table') refreshTable(q, card, r, table);
    if (q.kind === 'choose') {
      const all = r.shown && Array.isArray(r.shown.options) ? r.shown.options : null;
      const mine = !all && r.last && Array.isArray(r.last.options) ? r.last.options : null;
      replaceChildren(judgements, all ? judgementsView(q, all, true) : mine ? judgementsView(q, mine, false) : null);
    }
    if (announce === 'try') verdicts.appendChild(tryView(q, r.last, r.tries.length));
    else if (announce === 'reveal') verdicts.appendChild(revealView(q, r.reveal));
    else replaceChildren(verdicts, views(r));
    // A wrong try not yet revealed: another try, or the answer on request.
    invite.hidden = r.settled || r.tries.length === 0;
    if (r.solved) showSolved(card, invite, r);
  }

  // A second submit while one is being checked, once the question is settled (answered
  // right, or its answer shown), or repeating the last wrong answer (a double click) is
  // ignored: one try each, and none after the answer was shown.
  let checking = false;
  async function submit(answer) {
    const r = record();
    if (checking || r.settled) return;
    if (r.last && JSON.stringify(r.last.answer) === JSON.stringify(answer)) return;
    checking = true;
    card.setAttribute('aria-busy', 'true');
    replaceChildren(errorBox);
    try {
      await ctx.check(answer);
      refresh('try');
      const now = record();
      if (ctx.afterCheck && ctx.afterCheck()) return;
      // The pressed button is disabled once settled: keep the keyboard on the verdict (the
      // solved note, or the try that showed the answer), scrolled into sight.
      const active = document.activeElement;
      if (now.settled && (!active || active === document.body || card.contains(active))) {
        const target = now.solved ? card.querySelector('.solved-note') : verdicts.lastElementChild;
        if (target) {
          if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
          target.focus({ preventScroll: true });
          target.scrollIntoView({ block: 'nearest' });
        }
      }
    } catch (e) {
      showError(e);
    } finally {
      checking = false;
      card.removeAttribute('aria-busy');
    }
  }

  /** "Show the answer": the engine's answer and why, counted as shown. */
  async function reveal() {
    const r = record();
    if (checking || r.settled) return;
    checking = true;
    card.setAttribute('aria-busy', 'true');
    replaceChildren(errorBox);
    try {
      await ctx.reveal();
      refresh('reveal');
      if (ctx.afterCheck && ctx.afterCheck()) return;
      const shown = verdicts.querySelector('[data-testid="verdict-shown"]:last-child');
      if (shown) shown.focus({ preventScroll: false });
    } catch (e) {
      showError(e);
    } finally {
      checking = false;
      card.removeAttribute('aria-busy');
    }
  }

  function showError(e) {
    replaceChildren(errorBox, h('p', { class: 'notice notice-error', 'data-testid': 'answer-error' }, e.stopped ? t('err.engineStopped') : e.kind === 'memory' ? t('err.engineMemory') : t('err.engineCall', { method: 'answer', reason: e.reason || e.message })));
  }

  let answersBox;
  if (OPTION_KINDS.has(q.kind)) answersBox = optionAnswers(q, ctx, submit, optionButtons);
  else if (q.kind === 'table') answersBox = tableAnswers(q, ctx, record(), submit, table);
  else answersBox = h('p', { class: 'muted' }, q.kind);

  const card = h(
    'article',
    { class: ['card', 'qcard', `qcard-${q.kind}`], 'data-testid': 'question', 'data-question': q.id, 'data-kind': q.kind, 'aria-labelledby': `q-${q.id}-prompt` },
    h('p', { class: 'qcard-kind' }, h('span', { class: 'qcard-number', 'data-testid': 'question-number' }, t('q.number', { n: ctx.number })), ' ', h('span', { class: 'badge badge-q' }, nameOf('questionKind', q.kind))),
    h('h3', { class: 'qcard-prompt', id: `q-${q.id}-prompt` }, l(q.prompt)),
    q.kind === 'knowledge'
      ? h('p', { class: 'qcard-about' }, h('span', { class: 'chip' }, t('q.side', { side: sideName(q.side) })), ' ', h('span', { class: 'chip' }, t('q.fact', { fact: l(q.fact_label) || q.fact })))
      : null,
    answersBox,
    blocked,
    errorBox,
    verdicts,
    judgements,
    invite,
  );
  refresh(null);
  return card;
}

/** A table question's cells, row counts and marks for the record `r` (readRecord). */
function refreshTable(q, card, r, table) {
    const check = card.querySelector('[data-testid="table-check"]');
    if (check) check.disabled = r.settled;
    const shownCells = r.shown && r.shown.cells ? r.shown.cells : null;
    // Before the reveal no cell is marked: a wrong try has each row's count beside it.
    const counts = !r.revealed && r.last && Array.isArray(r.last.rows) ? new Map(r.last.rows.map((row) => [rowKey(row.moment, row.fact), row.wrong])) : null;
    if (table.rowCountHead) table.rowCountHead.hidden = !counts;
    for (const [k, td] of table.rowCounts) {
      const n = counts ? counts.get(k) : undefined;
      td.hidden = !counts;
      td.dataset.wrong = Number.isInteger(n) ? String(n) : '';
      td.className = ['row-count', n > 0 ? 'is-wrong' : n === 0 ? 'is-right' : ''].join(' ').trim();
      replaceChildren(td, Number.isInteger(n) ? t('q.rowWrong', { n, total: (q.sides || ['client', 'service']).length }) : '');
    }
    for (const [k, mark] of table.cellMarks) {
      const should = shownCells && shownCells[k] ? shownCells[k] : null;
      // Revealed: the try (or the answer shown against the last try) that says so marks
      // each cell; a save from before rows kept the marks with the last try.
      let c = null;
      if (r.revealed) c = should && typeof should.correct === 'boolean' ? should : (r.last && r.last.cells && r.last.cells[k]) || null;
      let text = '';
      let cls = '';
      if (c && c.correct) [text, cls] = [`✓ ${t('q.cellRight')}`, 'is-right'];
      else if (c && should && should.expected) [text, cls] = [`✕ ${t('q.cellWrong', { a: nameOf('answer', should.expected) })}`, 'is-wrong'];
      else if (c) [text, cls] = [`✕ ${t('q.cellNotRight')}`, 'is-wrong'];
      replaceChildren(mark, text);
      mark.className = `cell-mark ${cls}`;
      mark.dataset.state = c ? (c.correct ? 'right' : 'wrong') : 'none';
      mark.title = c && !c.correct && should && should.explanation ? l(should.explanation) : '';
      const sel = table.selects.get(k);
      if (sel) {
        sel.disabled = r.settled;
        sel.classList.toggle('is-wrong', !!c && !c.correct);
        sel.setAttribute('aria-invalid', c && !c.correct ? 'true' : 'false');
      }
    }
}

/** A solved question's note: right at the first try, or at which. */
function showSolved(card, invite, r) {
  // Right at the first try, or only after wrong tries: teachers tell the two apart.
  const at = r.tries.findIndex((a) => a.correct) + 1;
  card.dataset.firstTry = at === 1 ? 'true' : 'false';
  const text = at === 1 ? t('q.rightFirstTry') : t('q.rightAtTry', { n: at });
  let note = card.querySelector('.solved-note');
  if (!note) {
    note = h('p', { class: 'solved-note', 'data-testid': 'solved-note', tabindex: '-1' });
    invite.after(note);
  }
  replaceChildren(note, '✓ ', text);
}

const OPTION_KINDS = new Set(['knowledge', 'predict', 'choose', 'concept']);

/** The option buttons of a knowledge, predict, choose or concept question. */
function optionAnswers(q, ctx, submit, optionButtons) {
  const given = q.kind === 'knowledge' ? KNOWLEDGE_ANSWERS : (q.options || []).map((o) => o.id);
  // Options in the learner's own stable order; a scale keeps its order.
  const ids = keepsOrder(q) || !ctx.seed ? given : shuffledFor(given, ctx.seed, ctx.lessonId, q.id);
  return h(
    'div',
    { class: ['answers', q.kind === 'knowledge' ? 'answers-knowledge' : 'answers-options'], role: 'group', 'aria-label': l(q.prompt), 'data-testid': 'answers' },
    ids.map((id) => {
      const b = h(
        'button',
        { type: 'button', class: 'btn btn-option', 'data-answer': id, 'data-testid': `answer-${id}`, 'data-fkey': `q-${q.id}-${id}`, onclick: () => submit(id) },
        optionLabel(q, id),
      );
      optionButtons.push(b);
      return b;
    }),
  );
}

/**
 * A table question's grid (a select per moment, side and fact) and its Check button; the
 * selects, marks and row counts go into `table` for refreshTable. `rec`: readRecord's.
 */
function tableAnswers(q, ctx, rec, submit, table) {
  const draft = ctx.drafts.get(q.id) || {};
  ctx.drafts.set(q.id, draft);
  const lastTry = rec && rec.tries && rec.tries[rec.tries.length - 1];
  if (lastTry && lastTry.answer && typeof lastTry.answer === 'object') {
    for (const [k, v] of Object.entries(lastTry.answer)) if (!(k in draft)) draft[k] = v;
  }
  const sides = q.sides || ['client', 'service'];
  const facts = q.facts || [];
  const moments = q.moments || [];
  const hint = h('p', { class: 'muted table-hint', 'aria-live': 'polite' });
  const rows = [];
  for (const m of moments) {
    // On a phone (style.css) the moment is a row of its own above its facts, instead of a
    // column beside them: the two selects then have the width. Each moment is a row group
    // of its own (a tbody), its header's scope.
    const group = [h('tr', { class: 'qt-moment-row' }, h('th', { scope: 'rowgroup', colspan: String(sides.length + 1), class: 'qt-moment' }, l(m.label)))];
    facts.forEach((f, fi) => {
      group.push(
        h(
          'tr',
          { class: fi === 0 ? 'moment-first' : null },
          fi === 0 ? h('th', { scope: 'rowgroup', rowspan: String(facts.length), class: 'qt-moment qt-moment-side' }, l(m.label)) : null,
          h('th', { scope: 'row', class: 'qt-fact' }, l(f.label)),
          sides.map((side) => {
            const k = cellKey(m, side, f);
            const sel = h(
              'select',
              {
                'aria-label': t('q.tableCell', { moment: l(m.label), side: sideName(side), fact: l(f.label) }),
                'data-cell': k,
                'data-testid': 'table-cell',
                'data-fkey': `qt-${q.id}-${k}`,
                onchange: (ev) => {
                  draft[k] = ev.target.value;
                },
              },
              h('option', { value: '' }, `— ${t('q.ans.choose')} —`),
              KNOWLEDGE_ANSWERS.map((a) => h('option', { value: a, selected: draft[k] === a }, nameOf('answer', a))),
            );
            if (draft[k]) sel.value = draft[k];
            table.selects.set(k, sel);
            const mark = h('span', { class: 'cell-mark', 'data-testid': 'cell-mark' });
            table.cellMarks.set(k, mark);
            return h('td', null, sel, mark);
          }),
          (() => {
            const count = h('td', { class: 'row-count', 'data-testid': 'row-wrong', 'data-row': rowKey(m.id, f.id), hidden: true });
            table.rowCounts.set(rowKey(m.id, f.id), count);
            return count;
          })(),
        ),
      );
    });
    rows.push(h('tbody', null, group));
  }
  return h(
    'div',
    { class: 'answers answers-table' },
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'qtable', 'aria-label': l(q.prompt) },
        h('thead', null, h('tr', null, h('td', { class: 'qt-moment-side' }), h('td', null), sides.map((sd) => h('th', { scope: 'col' }, sideName(sd))), (table.rowCountHead = h('th', { scope: 'col', class: 'row-count-head', hidden: true }, t('q.rowWrongHead'))))),
        rows,
      ),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'btn btn-primary',
        'data-testid': 'table-check',
        'data-fkey': `qt-${q.id}-check`,
        onclick: () => {
          const answer = {};
          let missing = 0;
          for (const [k, sel] of table.selects) {
            if (!sel.value) missing += 1;
            answer[k] = sel.value;
          }
          if (missing) {
            hint.textContent = t('q.fillAll');
            return;
          }
          hint.textContent = '';
          submit(answer);
        },
      },
      t('q.check'),
    ),
    hint,
  );
}
