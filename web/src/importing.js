// Importing progress: an exported file is read, every answer in it is checked again by
// the engine (a file's own "correct" and "completed" are claims, not verdicts), and the
// learner sees what would change, lesson by lesson, before anything is replaced.
// Nothing here decides an answer: the verdicts are the engine's.

import { decodeState } from './sandbox/codec.js';
import { tryRecord, revealRecord, shownAgainst, lessonSummary } from './progress.js';

const clone = (v) => JSON.parse(JSON.stringify(v));

/** Settled: answered right, or its answer shown by the engine (a second try, or on request). */
const settled = (a) => !!(a && (a.correct || a.reveal || a.tries.some((tr) => tr.revealed)));

const at = (v) => (typeof v === 'string' ? v : null);

/**
 * The engine's verdict on try `n` (after the answer was shown on request when `reveal`),
 * as progress records it (not right, nothing shown, when the engine cannot say).
 */
async function recheckTry(store, rec, qid, tr, n, reveal) {
  let verdict = null;
  try {
    verdict = await store.answer(rec, qid, tr.answer, { tryNumber: n, reveal });
  } catch (_) {
    verdict = null; // an answer the engine refuses (wrong shape, unknown option) is not right
  }
  return tryRecord(tr.answer, verdict || { correct: false, revealed: false }, n, at(tr.at));
}

/**
 * The answer shown on request, asked of the engine again as the page asks it (with a
 * table's last try before it: `against`); null when it cannot say.
 */
async function recheckReveal(store, rec, qid, rv, against) {
  for (const answer of against === null ? [null] : [against, null]) {
    try {
      return revealRecord(await store.answer(rec, qid, answer, { tryNumber: rv.after + 1, reveal: true }), rv.after, at(rv.at));
    } catch (_) {
      // a try the engine refuses (a file changed by hand): the answer shown without it
    }
  }
  return null;
}

/** A challenge try (a sandbox code) judged again by the engine; false when it cannot be. */
async function recheckChallenge(call, rec, tr) {
  if (!tr.correct || typeof tr.answer !== 'string' || !call) return { ...tr, correct: false };
  const got = decodeState(tr.answer);
  if (got.error) return { ...tr, correct: false };
  try {
    const out = await call('challenge', { file: rec.file, text: rec.text, attempt: got.state.s });
    return { ...tr, correct: !!(out && !out.error && out.solved), explanation: (out && out.text) || tr.explanation || null };
  } catch (_) {
    return { ...tr, correct: false };
  }
}

/**
 * The imported record `data` ({version, lessons}) with every lesson re-checked, and the
 * preview rows. A lesson not in this course (or one that cannot be opened) is left out
 * and said so. A lesson counts as completed only when the file says so, every question
 * has a try the engine finds right or an answer the engine showed (the tries re-checked
 * with their numbers, so a wrong first try gets its hint again), and the last step was
 * reached.
 * Returns {data, rows: [{id, title, now, after, skipped}]}.
 */
export async function recheckImport(imported, { store, progress, call }) {
  const entries = await store.loadIndex();
  const out = { ...clone(imported), lessons: {} };
  const rows = [];
  const byId = new Map(entries.filter((e) => e.status === 'ok').map((e) => [e.id, e]));
  const ids = [...byId.keys()];
  for (const id of Object.keys(imported.lessons)) if (!byId.has(id)) ids.push(id);
  for (const id of Object.keys(progress.data.lessons || {})) if (!ids.includes(id)) ids.push(id);

  for (const id of ids) {
    const entry = byId.get(id) || null;
    const qids = entry ? entry.questionIds : [];
    const mine = progress.peek(id);
    const theirs = imported.lessons[id];
    if (!mine && !theirs) continue;
    const row = { id, title: entry ? entry.title : null, now: lessonSummary(mine, qids), after: lessonSummary(null, qids), skipped: null };
    rows.push(row);
    if (!theirs) continue;
    if (!entry) {
      row.skipped = 'notInCourse';
      continue;
    }
    const rec = await store.find(id);
    if (!rec || rec.status !== 'ok') {
      row.skipped = 'cannotOpen';
      continue;
    }
    const lp = clone(theirs);
    const questions = (rec.run.lesson.questions || []).map((q) => q.id);
    const last = rec.run.steps.length - 1;
    const answers = {};
    for (const [qid, a] of Object.entries(lp.answers || {})) {
      let tries;
      if (qid === 'challenge' && rec.run.lesson.challenge) {
        tries = [];
        for (const tr of a.tries) tries.push(await recheckChallenge(call, rec, tr));
      } else if (questions.includes(qid)) {
        const shownAfter = a.reveal ? a.reveal.after : Infinity;
        // Asked all at once: the engine answers them in order.
        tries = await Promise.all(a.tries.map((tr, i) => recheckTry(store, rec, qid, tr, i + 1, i >= shownAfter)));
        const kind = (rec.run.lesson.questions.find((q) => q.id === qid) || {}).kind;
        const reveal = a.reveal ? await recheckReveal(store, rec, qid, a.reveal, shownAgainst(kind, tries.slice(0, a.reveal.after))) : null;
        if (reveal) {
          answers[qid] = { tries, correct: tries.some((tr) => tr.correct), reveal };
          continue;
        }
      } else {
        continue; // no such question in this lesson now
      }
      if (tries.length) answers[qid] = { tries, correct: tries.some((tr) => tr.correct) };
    }
    lp.answers = answers;
    if (Number.isInteger(lp.reached)) lp.reached = Math.max(0, Math.min(lp.reached, last));
    if (Number.isInteger(lp.step)) lp.step = Math.max(0, Math.min(lp.step, last));
    const allDone = questions.every((qid) => settled(answers[qid]));
    const done = lp.completed === true && allDone && Number.isInteger(lp.reached) && lp.reached >= last;
    lp.completed = done;
    if (!done) delete lp.completed_at;
    out.lessons[id] = lp;
    row.after = lessonSummary(lp, qids);
    row.claimedCompleted = theirs.completed === true;
  }
  return { data: out, rows };
}
