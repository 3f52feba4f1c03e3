// Progress in localStorage: answers with the engine's verdicts (each try, and the answer
// shown when the learner asked for it), steps reached, completed lessons, self-check
// ticks, and the learner's seed that orders the options (shuffle.js). Corrupt data is
// set aside under another key and reported (when there is no room to set it aside, the
// notice says so and offers it as a download); storage that cannot be used falls back to
// memory, and a save that fails is reported (onSaveState). Nothing here decides whether
// an answer is right.

import { newLearnerSeed } from './shuffle.js';
import { decodeUtf8, looksBinary } from './utf8.js';

export const PROGRESS_KEY = 'idemlab.progress.v1';
export const CORRUPT_PREFIX = 'idemlab.progress.corrupt.';
const PREFS_KEY = 'idemlab.prefs.v1';
const SEED = /^[0-9a-f]{1,64}$/;
const LESSON_ID = /^[a-z0-9-]+$/; // as lessons.js reads a lesson's id
// What a progress file holds (an export adds exported_at, app and summary, which an import drops).
const FIELDS = ['version', 'lessons', 'learner'];

/** localStorage when it can be read (writes may still fail: full, or refused; save() says so). */
function storage() {
  try {
    const s = window.localStorage;
    s.getItem(PROGRESS_KEY);
    return s;
  } catch (_) {
    return null;
  }
}

function empty() {
  return { version: 1, lessons: {} };
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const isText = (v) => typeof v === 'string';
const isTextOrNull = (v) => v === null || v === undefined || isText(v);
const isL10nOrNull = (v) => isTextOrNull(v) || (isObject(v) && Object.values(v).every(isText));

const isAnswer = (v) => isText(v) || (isObject(v) && Object.values(v).every(isText));

/** Why the fields a try and a shown answer share (what the engine said) are not well formed, or null. */
function verdictProblem(v, cellsChecked) {
  if (!(v.expected === undefined || v.expected === null || isAnswer(v.expected))) return '"expected" is not an answer';
  if (!isL10nOrNull(v.explanation)) return '"explanation" is not text';
  if (v.cells !== undefined && v.cells !== null) {
    const cellOk = (c) => isObject(c) && (cellsChecked ? typeof c.correct === 'boolean' : c.correct === undefined || typeof c.correct === 'boolean');
    if (!isObject(v.cells) || !Object.values(v.cells).every(cellOk)) return '"cells" is not a set of checked cells';
  }
  if (v.options !== undefined && v.options !== null) {
    if (!Array.isArray(v.options) || !v.options.every((o) => isObject(o) && isText(o.id) && typeof o.safe === 'boolean')) return '"options" is not a list of judged options';
  }
  if (!isTextOrNull(v.at)) return '"at" is not a time';
  return null;
}

/**
 * Why one try is not {answer, correct, revealed, try, hint, expected, explanation, cells,
 * rows, wrong, options, at}, or null. Saves from before hints have no revealed, try, hint,
 * wrong; a wrong first table try saved before rows has cells instead of rows.
 */
function tryProblem(tr) {
  if (!isObject(tr)) return 'is not an object';
  if (!isAnswer(tr.answer)) return '"answer" is not an answer';
  if (typeof tr.correct !== 'boolean') return '"correct" is not true or false';
  if (tr.revealed !== undefined && typeof tr.revealed !== 'boolean') return '"revealed" is not true or false';
  if (tr.try !== undefined && !(Number.isInteger(tr.try) && tr.try >= 1)) return '"try" is not a try number';
  if (!isL10nOrNull(tr.hint)) return '"hint" is not text';
  if (tr.wrong !== undefined && tr.wrong !== null && !(Number.isInteger(tr.wrong) && tr.wrong >= 0)) return '"wrong" is not a count';
  if (tr.rows !== undefined && tr.rows !== null) {
    const rowOk = (r) => isObject(r) && isText(r.moment) && isText(r.fact) && Number.isInteger(r.wrong) && r.wrong >= 0;
    if (!Array.isArray(tr.rows) || !tr.rows.every(rowOk)) return '"rows" is not a list of counted rows';
  }
  return verdictProblem(tr, true);
}

/** Why the answer shown on request is not {expected, explanation, cells, options, after, at}, or null. */
function revealProblem(rv) {
  if (!isObject(rv)) return 'is not an object';
  if (!(Number.isInteger(rv.after) && rv.after >= 0)) return '"after" is not a count of tries';
  return verdictProblem(rv, false);
}

/** Why one lesson's record is not well formed, or null. */
export function lessonProblem(lp) {
  if (!isObject(lp)) return 'is not an object';
  if (lp.answers !== undefined && !isObject(lp.answers)) return '"answers" is not an object';
  for (const [qid, a] of Object.entries(lp.answers || {})) {
    if (!isObject(a) || !Array.isArray(a.tries)) return `question ${qid}: no list of tries`;
    for (const [i, tr] of a.tries.entries()) {
      const why = tryProblem(tr);
      if (why) return `question ${qid}, try ${i + 1}: ${why}`;
    }
    if (a.reveal !== undefined) {
      const why = revealProblem(a.reveal);
      if (why) return `question ${qid}, the answer shown: ${why}`;
    }
    // The verdict is the engine's, as recorded with each try: a record may not claim more.
    if (a.correct !== a.tries.some((tr) => tr.correct)) return `question ${qid}: "correct" does not match its tries`;
  }
  if (lp.reached !== undefined && !Number.isInteger(lp.reached)) return '"reached" is not a whole number';
  if (lp.step !== undefined && !Number.isInteger(lp.step)) return '"step" is not a whole number';
  if (lp.completed !== undefined && typeof lp.completed !== 'boolean') return '"completed" is not true or false';
  if (lp.self_check !== undefined && (!isObject(lp.self_check) || !Object.values(lp.self_check).every((v) => typeof v === 'boolean'))) {
    return '"self_check" is not a set of ticks';
  }
  return null;
}

/** Why `data` is not a progress record at all (its envelope), or null. */
function envelopeProblem(data) {
  if (!isObject(data)) return 'not an object';
  // A file a learner may pick by mistake says what it is rather than "version undefined".
  if (data.version === undefined && isObject(data.scenario)) return 'this is a lesson file (it has a "scenario"), not a progress file';
  if (data.version === undefined) return 'no "version": not a progress file exported by idemlab';
  if (data.version !== 1) return `unknown version ${JSON.stringify(data.version)}`;
  if (!isObject(data.lessons)) return '"lessons" is not an object';
  if (data.learner !== undefined && !(isText(data.learner) && SEED.test(data.learner))) return '"learner" is not a learner seed';
  return null;
}

/**
 * A well-formed record brought to today's shape, in place: a try saved before hints
 * (no "revealed", no "try") was shown its expected answer at once, so it counts as
 * revealed, and its number is its place in the list. Returns `data`.
 */
export function migrate(data) {
  for (const lp of Object.values(data.lessons || {})) {
    for (const a of Object.values((lp && lp.answers) || {})) {
      a.tries.forEach((tr, i) => {
        if (tr.revealed === undefined) tr.revealed = true;
        if (tr.try === undefined) tr.try = i + 1;
      });
    }
  }
  return data;
}

/** Why `data` is not a progress record, or null if it is one (every record in full). */
export function validate(data) {
  const why = envelopeProblem(data);
  if (why) return why;
  for (const [id, lp] of Object.entries(data.lessons)) {
    if (!LESSON_ID.test(id)) return `${JSON.stringify(id.slice(0, 40))} in "lessons" is not a lesson id (a-z, 0-9, -)`;
    const problem = lessonProblem(lp);
    if (problem) return `lesson ${id}: ${problem}`;
  }
  return null;
}

/** Whether the engine has shown the answer of this record ({tries, reveal}). */
function isRevealed(a) {
  return !!(a && (a.reveal || a.tries.some((tr) => tr.revealed)));
}

/**
 * One lesson's standing, from its record `lp` (or null) and its question ids `qids`: the
 * one score the page shows wherever it shows one (views/score.js) and the export's summary.
 * {questions, answered: settled (right, or the answer shown), right: right at some try,
 * first_try_right, revealed: answer shown before the learner found it (on request, or a
 * revealed wrong try), completed, started}.
 */
export function lessonSummary(lp, qids) {
  const answers = (lp && lp.answers) || {};
  let answered = 0;
  let right = 0;
  let first = 0;
  let revealed = 0;
  for (const qid of qids) {
    const a = answers[qid];
    if (!a || !Array.isArray(a.tries)) continue;
    if (a.correct === true) right += 1;
    if (a.tries.length > 0 && a.tries[0].correct) first += 1;
    if (a.reveal || a.tries.some((tr) => tr.revealed && !tr.correct)) revealed += 1;
    if (a.correct === true || isRevealed(a)) answered += 1;
  }
  return { questions: qids.length, answered, right, first_try_right: first, revealed, completed: !!(lp && lp.completed === true), started: !!lp };
}

/** One try as progress keeps it: what was given, and what the engine said of it. */
export function tryRecord(answer, verdict, n, at = new Date().toISOString()) {
  const tr = { answer, correct: !!verdict.correct, revealed: !!verdict.revealed, try: n };
  if (verdict.revealed) {
    tr.expected = verdict.expected;
    tr.explanation = verdict.explanation || null;
  } else {
    tr.hint = verdict.hint || null;
  }
  if (verdict.cells) tr.cells = verdict.cells;
  if (verdict.rows) tr.rows = verdict.rows;
  if (Number.isInteger(verdict.wrong)) tr.wrong = verdict.wrong;
  if (verdict.options) tr.options = verdict.options;
  tr.at = at;
  return tr;
}

/**
 * What "show the answer" sends the engine along with the request, after `tries`: a table's
 * last try (the engine then marks that try's cells, which a wrong try was only given counts
 * per row of), else null. The answer's own kind is asked with no answer.
 */
export function shownAgainst(kind, tries) {
  return kind === 'table' && tries && tries.length ? tries[tries.length - 1].answer : null;
}

/** The answer shown on request, after `after` tries, as progress keeps it. */
export function revealRecord(verdict, after, at = new Date().toISOString()) {
  return {
    expected: verdict.expected,
    explanation: verdict.explanation || null,
    cells: verdict.cells || null,
    options: verdict.options || null,
    after,
    at,
  };
}

export class Progress {
  constructor() {
    this.store = storage();
    this.data = empty();
    this.notices = [];
    this.listeners = new Set();
    this.saveListeners = new Set();
    this.saveFailed = false; // the last save did not reach storage
    this.load();
  }

  load() {
    if (!this.store) {
      this.notices.push({ key: 'notice.storageUnavailable' });
      return;
    }
    const raw = this.store.getItem(PROGRESS_KEY);
    if (raw === null) return;
    let parsed;
    let reason = null;
    const bad = [];
    const badIds = [];
    try {
      parsed = JSON.parse(raw);
      reason = envelopeProblem(parsed);
    } catch (e) {
      reason = `not JSON (${e.message})`;
    }
    if (reason === null) {
      // Lessons whose record is not well formed are dropped here; the whole text is
      // kept under the backup key below, so nothing is lost.
      for (const [id, lp] of Object.entries(parsed.lessons)) {
        const problem = lessonProblem(lp);
        if (problem) {
          badIds.push(id);
          bad.push(`lesson ${id}: ${problem}`);
          delete parsed.lessons[id];
        }
      }
      this.data = migrate(parsed);
      if (bad.length === 0) return;
      reason = bad.join('; ');
    }
    const backupKey = `${CORRUPT_PREFIX}${Date.now()}`;
    let kept = false;
    try {
      this.store.setItem(backupKey, raw);
      kept = this.store.getItem(backupKey) === raw;
    } catch (_) {
      kept = false;
    }
    if (kept) {
      try {
        if (this.data === parsed) this.store.setItem(PROGRESS_KEY, JSON.stringify(this.data));
        else this.store.removeItem(PROGRESS_KEY);
      } catch (_) {
        /* the original is set aside under backupKey; the next save tries again */
      }
    }
    const partly = this.data === parsed;
    // Said as it is: set aside under a key only when the copy was written. Otherwise the
    // unreadable text is still where it was, and the next save would write over it: the
    // notice says so and offers the text as a file.
    let key;
    if (kept) key = partly ? 'notice.corruptLessons' : 'notice.corrupt';
    else key = partly ? 'notice.corruptLessonsNotKept' : 'notice.corruptNotKept';
    this.notices.push({
      key,
      params: { key: backupKey, lessons: partly ? badIds.join(', ') : '' },
      reason,
      testid: 'notice-corrupt',
      download: kept ? null : { name: 'idemlab-unreadable-progress.json', text: raw },
    });
  }

  save() {
    let ok = false;
    if (this.store) {
      try {
        const text = JSON.stringify(this.data);
        this.store.setItem(PROGRESS_KEY, text);
        ok = true;
      } catch (_) {
        /* quota or a refused write: kept in memory only, and said so (onSaveState) */
      }
    }
    const failed = !!this.store && !ok;
    if (failed !== this.saveFailed || failed) {
      this.saveFailed = failed;
      for (const fn of this.saveListeners) fn(!failed);
    }
    for (const fn of this.listeners) fn();
    return ok;
  }

  onChange(fn) {
    this.listeners.add(fn);
  }

  /** fn(saved): after a save that failed (false), and after the first save that works again (true). */
  onSaveState(fn) {
    this.saveListeners.add(fn);
  }

  lesson(id) {
    if (!this.data.lessons[id]) this.data.lessons[id] = { answers: {}, reached: 0, completed: false, self_check: {} };
    const lp = this.data.lessons[id];
    lp.answers = lp.answers || {};
    lp.self_check = lp.self_check || {};
    if (!Number.isInteger(lp.reached)) lp.reached = 0;
    return lp;
  }

  peek(id) {
    return this.data.lessons[id] || null;
  }

  /** The learner's seed for the order of options (made once, kept with the progress and its export). */
  learnerSeed() {
    if (!this.data.learner) {
      this.data.learner = newLearnerSeed();
      this.save();
    }
    return this.data.learner;
  }

  /**
   * Record one checked answer: what the learner chose and what the engine said. Until
   * the engine reveals it (a wrong first try) there is a hint and no expected answer.
   */
  recordTry(lessonId, questionId, answer, verdict) {
    const lp = this.lesson(lessonId);
    const a = lp.answers[questionId] || (lp.answers[questionId] = { tries: [], correct: false });
    a.tries.push(tryRecord(answer, verdict, a.tries.length + 1));
    if (verdict.correct) a.correct = true;
    this.save();
    return a;
  }

  /** Record the answer the engine showed when the learner asked for it ("show the answer"). */
  recordReveal(lessonId, questionId, verdict) {
    const lp = this.lesson(lessonId);
    const a = lp.answers[questionId] || (lp.answers[questionId] = { tries: [], correct: false });
    a.reveal = revealRecord(verdict, a.tries.length);
    this.save();
    return a;
  }

  answerOf(lessonId, questionId) {
    const lp = this.peek(lessonId);
    return (lp && lp.answers && lp.answers[questionId]) || null;
  }

  isAnswered(lessonId, questionId) {
    const a = this.answerOf(lessonId, questionId);
    return !!(a && a.tries.length > 0);
  }

  isCorrect(lessonId, questionId) {
    const a = this.answerOf(lessonId, questionId);
    return !!(a && a.correct);
  }

  /** The engine has shown this question's answer (a right try, a second try, or on request). */
  isRevealed(lessonId, questionId) {
    return isRevealed(this.answerOf(lessonId, questionId));
  }

  /**
   * Done with: answered right, or its answer shown. What the timeline waits for, what the
   * engine's "hides" wait for, and what completing a lesson needs of every question.
   */
  isSettled(lessonId, questionId) {
    const a = this.answerOf(lessonId, questionId);
    return !!(a && (a.correct || isRevealed(a)));
  }

  /** Retake: this lesson's answers to its questions, its completion and its steps are cleared (the challenge and self-check stay). */
  resetLesson(lessonId) {
    const lp = this.lesson(lessonId);
    const challenge = lp.answers.challenge;
    lp.answers = challenge ? { challenge } : {};
    lp.completed = false;
    delete lp.completed_at;
    lp.reached = 0;
    lp.step = 0;
    this.save();
  }

  reach(lessonId, step) {
    const lp = this.lesson(lessonId);
    lp.step = step;
    if (step > lp.reached) lp.reached = step;
    this.save();
  }

  /** Mark completed; returns true when this call changed it (for the embed message). */
  markCompleted(lessonId) {
    const lp = this.lesson(lessonId);
    if (lp.completed) return false;
    lp.completed = true;
    lp.completed_at = new Date().toISOString();
    this.save();
    return true;
  }

  setSelfCheck(lessonId, index, checked) {
    const lp = this.lesson(lessonId);
    lp.self_check[String(index)] = !!checked;
    this.save();
  }

  /** This learner's lessonSummary of lesson `lessonId` over its questions `qids`. */
  stats(lessonId, qids) {
    return lessonSummary(this.peek(lessonId), qids);
  }

  /**
   * The progress as a file. `summary` ({lessonId: stats(...)}) is added for teachers
   * (first-try counts) and dropped again on import.
   */
  exportText(summary = {}) {
    return JSON.stringify({ ...this.data, summary, exported_at: new Date().toISOString(), app: 'idemlab' }, null, 2);
  }

  /**
   * An exported file, read from its bytes (ArrayBuffer): the progress record it holds (without the export's extras).
   * Throws Error(reason) when it is not one; when it is no JSON, the error's `notJson` is the
   * file's text. Nothing changes until replaceWith().
   */
  parseImport(bytes) {
    // A picture or an archive chosen by mistake is said to be one, and a file saved in
    // another encoding (GBK) as such, not quoted by the JSON parser as garbled text.
    if (looksBinary(bytes)) throw new Error('not a text file (a progress file is JSON text)');
    const { text, error } = decodeUtf8(bytes);
    if (error) throw new Error(`not UTF-8 text (line ${error.line}): save the file as UTF-8`);
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      // The text goes with the error, so the caller can have the engine's reader say where
      // it breaks (LessonStore.jsonErrors) instead of the browser.
      throw Object.assign(new Error(`not JSON (${e.message})`), { notJson: text });
    }
    const reason = validate(parsed);
    if (reason) throw new Error(reason);
    // Only what a progress record holds is kept: a field added by hand goes.
    return migrate(Object.fromEntries(FIELDS.filter((k) => parsed[k] !== undefined).map((k) => [k, parsed[k]])));
  }

  /**
   * Replace progress (an import the learner confirmed, its answers re-checked). A file
   * without a learner seed (exported before there was one) keeps this browser's.
   */
  replaceWith(data) {
    if (!data.learner && this.data.learner) data.learner = this.data.learner;
    this.data = data;
    return this.save();
  }


  getPref(name, fallback) {
    try {
      const prefs = JSON.parse((this.store && this.store.getItem(PREFS_KEY)) || '{}');
      return name in prefs ? prefs[name] : fallback;
    } catch (_) {
      return fallback;
    }
  }

  setPref(name, value) {
    if (!this.store) return;
    try {
      const prefs = JSON.parse(this.store.getItem(PREFS_KEY) || '{}');
      prefs[name] = value;
      this.store.setItem(PREFS_KEY, JSON.stringify(prefs));
    } catch (_) {
      try {
        this.store.setItem(PREFS_KEY, JSON.stringify({ [name]: value }));
      } catch (__) {
        /* ignore */
      }
    }
  }
}
