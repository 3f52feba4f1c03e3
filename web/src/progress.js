// Progress in localStorage: answers with the engine's verdicts, steps reached,
// completed lessons, self-check ticks. Corrupt data is set aside under another
// key (never deleted) and reported; storage that cannot be used falls back to
// memory. Nothing here decides whether an answer is right.

export const PROGRESS_KEY = 'idemlab.progress.v1';
export const CORRUPT_PREFIX = 'idemlab.progress.corrupt.';
const PREFS_KEY = 'idemlab.prefs.v1';

function storage() {
  try {
    const s = window.localStorage;
    const probe = '__idemlab_probe__';
    s.setItem(probe, '1');
    s.removeItem(probe);
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

/** Why `data` is not a progress record, or null if it is one. */
export function validate(data) {
  if (!isObject(data)) return 'not an object';
  if (data.version !== 1) return `unknown version ${JSON.stringify(data.version)}`;
  if (!isObject(data.lessons)) return '"lessons" is not an object';
  for (const [id, lp] of Object.entries(data.lessons)) {
    if (!isObject(lp)) return `lesson ${id} is not an object`;
    if (lp.answers !== undefined && !isObject(lp.answers)) return `lesson ${id}: "answers" is not an object`;
    for (const [qid, a] of Object.entries(lp.answers || {})) {
      if (!isObject(a) || !Array.isArray(a.tries)) return `lesson ${id}, question ${qid}: no list of tries`;
    }
    if (lp.reached !== undefined && !Number.isInteger(lp.reached)) return `lesson ${id}: "reached" is not a whole number`;
    if (lp.self_check !== undefined && !isObject(lp.self_check)) return `lesson ${id}: "self_check" is not an object`;
  }
  return null;
}

export class Progress {
  constructor() {
    this.store = storage();
    this.data = empty();
    this.notices = [];
    this.listeners = new Set();
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
    try {
      parsed = JSON.parse(raw);
      reason = validate(parsed);
    } catch (e) {
      reason = `not JSON (${e.message})`;
    }
    if (reason === null) {
      this.data = parsed;
      return;
    }
    const backupKey = `${CORRUPT_PREFIX}${Date.now()}`;
    try {
      this.store.setItem(backupKey, raw);
      this.store.removeItem(PROGRESS_KEY);
    } catch (_) {
      /* keep the original where it is if we cannot copy it */
    }
    this.notices.push({ key: 'notice.corrupt', params: { key: backupKey }, reason, testid: 'notice-corrupt' });
  }

  save() {
    if (this.store) {
      try {
        this.store.setItem(PROGRESS_KEY, JSON.stringify(this.data));
      } catch (_) {
        /* quota or privacy mode: keep going in memory */
      }
    }
    for (const fn of this.listeners) fn();
  }

  onChange(fn) {
    this.listeners.add(fn);
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

  exportText() {
    return JSON.stringify({ ...this.data, exported_at: new Date().toISOString(), app: 'idemlab' }, null, 2);
  }

  /** Replace progress with an exported file; throws Error(reason) when it is not one. */
  importText(text) {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new Error(`not JSON (${e.message})`);
    }
    const reason = validate(parsed);
    if (reason) throw new Error(reason);
    const { exported_at: _e, app: _a, ...rest } = parsed;
    this.data = rest;
    this.save();
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
