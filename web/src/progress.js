// Progress in localStorage: answers with the engine's verdicts, steps reached,
// completed lessons, self-check ticks. Corrupt data is set aside under another
// key and reported (when there is no room to set it aside, the notice says so and
// offers it as a download); storage that cannot be used falls back to memory, and
// a save that fails is reported (onSaveState). Nothing here decides whether an
// answer is right.

export const PROGRESS_KEY = 'idemlab.progress.v1';
export const CORRUPT_PREFIX = 'idemlab.progress.corrupt.';
const PREFS_KEY = 'idemlab.prefs.v1';

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

/** Why one try is not {answer, correct, expected, explanation, cells, options, hint, revealed, at}, or null. */
function tryProblem(tr) {
  if (!isObject(tr)) return 'is not an object';
  const answerOk = isText(tr.answer) || (isObject(tr.answer) && Object.values(tr.answer).every(isText));
  if (!answerOk) return '"answer" is not an answer';
  if (typeof tr.correct !== 'boolean') return '"correct" is not true or false';
  const expectedOk = tr.expected === undefined || tr.expected === null || isText(tr.expected) || (isObject(tr.expected) && Object.values(tr.expected).every(isText));
  if (!expectedOk) return '"expected" is not an answer';
  if (!isL10nOrNull(tr.explanation)) return '"explanation" is not text';
  if (!isL10nOrNull(tr.hint)) return '"hint" is not text';
  if (tr.revealed !== undefined && typeof tr.revealed !== 'boolean') return '"revealed" is not true or false';
  if (tr.cells !== undefined && tr.cells !== null) {
    if (!isObject(tr.cells) || !Object.values(tr.cells).every((c) => isObject(c) && typeof c.correct === 'boolean')) return '"cells" is not a set of checked cells';
  }
  if (tr.options !== undefined && tr.options !== null) {
    if (!Array.isArray(tr.options) || !tr.options.every((o) => isObject(o) && isText(o.id) && typeof o.safe === 'boolean')) return '"options" is not a list of judged options';
  }
  if (!isTextOrNull(tr.at)) return '"at" is not a time';
  return null;
}

/** Why one lesson's record is not well formed, or null. */
function lessonProblem(lp) {
  if (!isObject(lp)) return 'is not an object';
  if (lp.answers !== undefined && !isObject(lp.answers)) return '"answers" is not an object';
  for (const [qid, a] of Object.entries(lp.answers || {})) {
    if (!isObject(a) || !Array.isArray(a.tries)) return `question ${qid}: no list of tries`;
    for (const [i, tr] of a.tries.entries()) {
      const why = tryProblem(tr);
      if (why) return `question ${qid}, try ${i + 1}: ${why}`;
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
  if (data.version !== 1) return `unknown version ${JSON.stringify(data.version)}`;
  if (!isObject(data.lessons)) return '"lessons" is not an object';
  return null;
}

/** Why `data` is not a progress record, or null if it is one (every record in full). */
export function validate(data) {
  const why = envelopeProblem(data);
  if (why) return why;
  for (const [id, lp] of Object.entries(data.lessons)) {
    const problem = lessonProblem(lp);
    if (problem) return `lesson ${id}: ${problem}`;
  }
  return null;
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
      this.data = parsed;
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

  /** Record one checked answer: what the learner chose and what the engine said. */
  recordTry(lessonId, questionId, answer, verdict) {
    const lp = this.lesson(lessonId);
    const a = lp.answers[questionId] || (lp.answers[questionId] = { tries: [], correct: false });
    a.tries.push({
      answer,
      correct: !!verdict.correct,
      expected: verdict.expected,
      explanation: verdict.explanation || null,
      cells: verdict.cells || null,
      options: verdict.options || null,
      hint: verdict.hint || null,
      revealed: verdict.revealed !== false,
      at: new Date().toISOString(),
    });
    if (verdict.correct) a.correct = true;
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

  /** Of the questions `qids`, how many are answered right, and how many right at the first try. */
  stats(lessonId, qids) {
    let right = 0;
    let first = 0;
    for (const qid of qids) {
      const a = this.answerOf(lessonId, qid);
      if (a && a.correct) right += 1;
      if (a && a.tries.length > 0 && a.tries[0].correct) first += 1;
    }
    return { questions: qids.length, right, first_try_right: first };
  }

  /**
   * The progress as a file. `summary` ({lessonId: stats(...)}) is added for teachers
   * (first-try counts) and dropped again on import.
   */
  exportText(summary = {}) {
    return JSON.stringify({ ...this.data, summary, exported_at: new Date().toISOString(), app: 'idemlab' }, null, 2);
  }

  /**
   * An exported file, read: the progress record it holds (without the export's extras).
   * Throws Error(reason) when it is not one. Nothing changes until replaceWith().
   */
  parseImport(text) {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new Error(`not JSON (${e.message})`);
    }
    const reason = validate(parsed);
    if (reason) throw new Error(reason);
    const { exported_at: _e, app: _a, summary: _s, ...rest } = parsed;
    return rest;
  }

  /** Replace progress (an import the learner confirmed, its answers re-checked). */
  replaceWith(data) {
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
