// Question cards, placed at their moments. Each check goes to the engine's
// `answer`; the card shows what the engine said (right or wrong, the expected
// answer, the explanation). Every try stays visible, in order.

import { h, replaceChildren } from '../dom.js';
import { t, l, sideName } from '../i18n.js';

const KNOWLEDGE_ANSWERS = ['knows_true', 'knows_false', 'cannot_know'];

function optionLabel(q, id) {
  if (q.kind === 'knowledge') return t(`q.ans.${id}`);
  const o = (q.options || []).find((x) => x.id === id);
  return o ? l(o.label) : String(id);
}

function cellKey(m, side, f) {
  return `${m.id}/${side}/${f.id}`;
}

/**
 * A choose question's judgement of every option, as the engine gave it with the last
 * verdict: safe or unsafe, why (the run where an unsafe one duplicates or lies), and,
 * behind a disclosure, how each run the client cannot tell apart ends.
 */
function judgementsView(q, options) {
  return h(
    'div',
    { class: 'judgements', 'data-testid': 'judgements' },
    h('p', { class: 'judgements-head' }, h('strong', null, t('q.choose.heading'))),
    h(
      'ul',
      { class: 'judgement-list' },
      options.map((o) =>
        h(
          'li',
          { class: ['judgement', o.safe ? 'is-safe' : 'is-unsafe'], 'data-testid': 'judgement', 'data-option': o.id, 'data-safe': String(!!o.safe) },
          h('p', { class: 'judgement-head' },
            h('span', { class: 'verdict-icon', 'aria-hidden': 'true' }, o.safe ? '✓' : '✕'),
            h('strong', null, t(o.safe ? 'q.choose.safe' : 'q.choose.unsafe')),
            ` · ${optionLabel(q, o.id)}`),
          h('p', { class: 'judgement-why' }, l(o.explanation)),
          Array.isArray(o.runs) && o.runs.length
            ? h(
                'details',
                { class: 'judgement-runs' },
                h('summary', null, t('q.choose.runs', { n: o.runs.length })),
                h(
                  'ul',
                  null,
                  o.runs.map((r) =>
                    h(
                      'li',
                      { class: r.problem ? 'is-unsafe' : null, 'data-world': String(r.world) },
                      t('q.choose.run', { run: l(r.run), effects: r.effects, status: r.status }),
                      r.problem ? ` — ${t(`q.choose.problem.${r.problem}`)}` : '',
                    ),
                  ),
                ),
              )
            : null,
        ),
      ),
    ),
  );
}

function verdictView(q, attempt, n) {
  const right = attempt.correct;
  const parts = [
    h('p', { class: 'verdict-head' }, h('span', { class: 'verdict-icon', 'aria-hidden': 'true' }, right ? '✓' : '✕'), `${t('q.try', { n })} · `, h('strong', null, right ? t('q.right') : t('q.wrong'))),
  ];
  if (q.kind === 'table') {
    const cells = Object.values(attempt.cells || {});
    if (cells.length) parts.push(h('p', null, t('q.cellsRight', { n: cells.filter((c) => c.correct).length, total: cells.length })));
  } else {
    parts.push(h('p', { 'data-testid': 'verdict-yours' }, t('q.yours', { a: optionLabel(q, attempt.answer) })));
    if (attempt.expected != null) parts.push(h('p', { 'data-testid': 'verdict-expected', 'data-expected': attempt.expected }, t('q.expected', { a: optionLabel(q, attempt.expected) })));
  }
  // A wrong first try: the engine gives a hint instead of the answer.
  if (attempt.hint) parts.push(h('p', { class: 'verdict-hint', 'data-testid': 'verdict-hint' }, h('strong', null, t('q.hint')), l(attempt.hint)));
  if (attempt.explanation) parts.push(h('p', { class: 'verdict-why' }, h('strong', null, t('q.why')), l(attempt.explanation)));
  if (!right) parts.push(h('p', { class: 'muted' }, t('q.retry')));
  return h('div', { class: ['verdict', right ? 'verdict-right' : 'verdict-wrong'], 'data-testid': 'verdict', 'data-correct': String(right) }, parts);
}

/**
 * ctx: { lessonId, answered: () => record|null, check: (answer) => Promise<verdict>,
 *        drafts: Map, momentLabel(id) }
 */
export function questionCard(q, ctx) {
  const record = () => ctx.answered();
  const verdicts = h('div', { class: 'verdicts', role: 'status', 'aria-live': 'polite', 'data-testid': 'verdicts' });
  const blocked = h('p', { class: 'blocked-note', 'data-testid': 'blocked-note' }, t(ctx.isLast ? 'q.unansweredLast' : 'q.unanswered'));
  const errorBox = h('div', { class: 'q-error', role: 'alert' });
  const optionButtons = [];
  const selects = new Map();
  const cellMarks = new Map();
  const judgements = h('div', { class: 'judgements-box' });

  function refresh(announceLast) {
    const rec = record();
    const tries = (rec && rec.tries) || [];
    blocked.hidden = tries.length > 0;
    const solved = !!(rec && rec.correct);
    card.dataset.answered = tries.length > 0 ? 'true' : 'false';
    card.dataset.solved = solved ? 'true' : 'false';
    for (const b of optionButtons) {
      b.disabled = solved;
      const last = tries[tries.length - 1];
      b.classList.toggle('is-chosen', !!last && last.answer === b.dataset.answer);
    }
    if (q.kind === 'table') {
      const last = tries[tries.length - 1];
      for (const [k, mark] of cellMarks) {
        const c = last && last.cells && last.cells[k];
        const wrong = c && !c.correct ? (c.expected ? t('q.cellWrong', { a: t(`q.ans.${c.expected}`) }) : t('q.cellWrongOnly')) : '';
        replaceChildren(mark, c ? (c.correct ? `✓ ${t('q.cellRight')}` : `✕ ${wrong}`) : '');
        mark.className = `cell-mark ${c ? (c.correct ? 'is-right' : 'is-wrong') : ''}`;
        const sel = selects.get(k);
        if (sel) sel.disabled = solved;
      }
    }
    if (q.kind === 'choose') {
      const last = tries[tries.length - 1];
      replaceChildren(judgements, last && Array.isArray(last.options) ? judgementsView(q, last.options) : null);
    }
    if (!announceLast) replaceChildren(verdicts, tries.map((a, i) => verdictView(q, a, i + 1)));
    else verdicts.appendChild(verdictView(q, tries[tries.length - 1], tries.length));
    if (solved) {
      // Right at the first try, or only after wrong tries: teachers tell the two apart.
      const at = tries.findIndex((a) => a.correct) + 1;
      card.dataset.firstTry = at === 1 ? 'true' : 'false';
      const text = at === 1 ? t('q.rightFirstTry') : t('q.rightAtTry', { n: at });
      let note = card.querySelector('.solved-note');
      if (!note) {
        note = h('p', { class: 'solved-note', 'data-testid': 'solved-note', tabindex: '-1' });
        answersBox.after(note);
      }
      replaceChildren(note, '✓ ', text);
    }
  }

  // A second submit while one is being checked, once the question is answered right,
  // or repeating the last wrong answer (a double click) is ignored: one try each.
  let checking = false;
  async function submit(answer) {
    const rec = record();
    const tries = (rec && rec.tries) || [];
    const last = tries[tries.length - 1];
    if (checking || (rec && rec.correct)) return;
    if (last && JSON.stringify(last.answer) === JSON.stringify(answer)) return;
    checking = true;
    card.setAttribute('aria-busy', 'true');
    replaceChildren(errorBox);
    try {
      await ctx.check(answer);
      refresh(true);
      const now = record();
      // The pressed button is disabled once right: keep the keyboard on the verdict.
      const active = document.activeElement;
      if (now && now.correct && (!active || active === document.body || card.contains(active))) {
        const note = card.querySelector('.solved-note');
        if (note) note.focus({ preventScroll: true });
      }
    } catch (e) {
      replaceChildren(errorBox, h('p', { class: 'notice notice-error', 'data-testid': 'answer-error' }, e.stopped ? t('err.engineStopped') : t('err.engineCall', { method: 'answer', reason: e.reason || e.message })));
    } finally {
      checking = false;
      card.removeAttribute('aria-busy');
    }
  }

  let answersBox;
  if (q.kind === 'knowledge' || q.kind === 'predict' || q.kind === 'choose' || q.kind === 'concept') {
    const ids = q.kind === 'knowledge' ? KNOWLEDGE_ANSWERS : (q.options || []).map((o) => o.id);
    answersBox = h(
      'div',
      { class: ['answers', q.kind === 'knowledge' ? 'answers-knowledge' : 'answers-options'], role: 'group', 'aria-label': l(q.prompt) },
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
  } else if (q.kind === 'table') {
    const draft = ctx.drafts.get(q.id) || {};
    ctx.drafts.set(q.id, draft);
    const rec = record();
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
      facts.forEach((f, fi) => {
        rows.push(
          h(
            'tr',
            { class: fi === 0 ? 'moment-first' : null },
            fi === 0 ? h('th', { scope: 'rowgroup', rowspan: String(facts.length), class: 'qt-moment' }, l(m.label)) : null,
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
                KNOWLEDGE_ANSWERS.map((a) => h('option', { value: a, selected: draft[k] === a }, t(`q.ans.${a}`))),
              );
              if (draft[k]) sel.value = draft[k];
              selects.set(k, sel);
              const mark = h('span', { class: 'cell-mark', 'data-testid': 'cell-mark' });
              cellMarks.set(k, mark);
              return h('td', null, sel, mark);
            }),
          ),
        );
      });
    }
    answersBox = h(
      'div',
      { class: 'answers answers-table' },
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'qtable', 'aria-label': l(q.prompt) },
          h('thead', null, h('tr', null, h('td', null), h('td', null), sides.map((sd) => h('th', { scope: 'col' }, sideName(sd))))),
          h('tbody', null, rows),
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
            for (const [k, sel] of selects) {
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
  } else {
    answersBox = h('p', { class: 'muted' }, q.kind);
  }

  const card = h(
    'article',
    { class: ['card', 'qcard', `qcard-${q.kind}`], 'data-testid': 'question', 'data-question': q.id, 'data-kind': q.kind, 'aria-labelledby': `q-${q.id}-prompt` },
    h('p', { class: 'qcard-kind' }, h('span', { class: 'badge badge-q' }, t(`q.kind.${q.kind}`) || q.kind)),
    h('h3', { class: 'qcard-prompt', id: `q-${q.id}-prompt` }, l(q.prompt)),
    q.kind === 'knowledge'
      ? h('p', { class: 'qcard-about' }, h('span', { class: 'chip' }, t('q.side', { side: sideName(q.side) })), ' ', h('span', { class: 'chip' }, t('q.fact', { fact: l(q.fact_label) || q.fact })))
      : null,
    answersBox,
    blocked,
    errorBox,
    verdicts,
    judgements,
  );
  refresh(false);
  return card;
}
