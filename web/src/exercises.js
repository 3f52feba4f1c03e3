// Code mode's exercises (issue 34): lessons/exercises/index.json (written by the build,
// scripts/lib/exercises.mjs) lists each exercise file's id, level and title, or why the
// file is broken; an exercise file itself (lessons/exercises/<id>.json: title, task,
// scenario, faults, skeleton, hints) is fetched when it is opened, and handed whole to the
// code engine's `grade`. Nothing here judges code: the engine does.
// What the learner has of each exercise is kept in this browser (localStorage): the code as
// typed (one key per exercise, written as it is typed) and where they stand (tried, solved,
// how many checks), like a challenge's tries. Storage that is off, full or holds text that
// is not ours never loses the code on screen and never throws: a save says whether it worked.

const INDEX = 'lessons/exercises/index.json';
const EXERCISE_ID = /^[a-z0-9-]+$/;
const CODE_PREFIX = 'idemlab.code.v1.';
const STANDING_KEY = 'idemlab.code.standing.v1';
// The learner's own code put aside when a shared link's code became theirs (an edit or a
// Check of it), per exercise, until they put it back or dismiss it.
const OWN_PREFIX = 'idemlab.code.own.v1.';

const isText = (v) => typeof v === 'string' && v.length > 0;
const isL10n = (v) => !!v && typeof v === 'object' && isText(v['zh-CN']) && isText(v.en);

export class ExerciseError extends Error {
  constructor(file, reason) {
    super(`${file}: ${reason}`);
    this.file = file;
    this.reason = reason;
  }
}

async function fetchJson(url) {
  let res;
  try {
    res = await fetch(url, { cache: 'no-cache' });
  } catch (e) {
    throw new ExerciseError(url, `the file could not be fetched (${(e && e.message) || e})`);
  }
  if (!res.ok) throw new ExerciseError(url, `HTTP ${res.status}`);
  try {
    return await res.json();
  } catch (e) {
    throw new ExerciseError(url, `not JSON (${(e && e.message) || e})`);
  }
}

/** One index entry as the page uses it: {status: 'ok', id, level, title, file} or {status: 'error', file, reason}. */
function readEntry(raw, i) {
  const bad = (reason) => ({ status: 'error', file: (raw && typeof raw.file === 'string' && raw.file) || `${INDEX} /exercises/${i}`, reason });
  if (!raw || typeof raw !== 'object') return bad('expected an object');
  if (raw.ok === false) return bad(Array.isArray(raw.errors) ? raw.errors.map((e) => (e && e.reason) || String(e)).join('; ') : 'the exercise did not validate');
  if (!EXERCISE_ID.test(raw.id || '') || !Number.isInteger(raw.level) || !isL10n(raw.title) || raw.file !== `lessons/exercises/${raw.id}.json`) {
    return bad('expected {"ok": true, "id", "level", "title", "file"}');
  }
  return { status: 'ok', id: raw.id, level: raw.level, title: raw.title, file: raw.file, after: typeof raw.after === 'string' ? raw.after : null };
}

/** Why an exercise file is not one the page can show, or null. */
function exerciseProblem(ex, id) {
  if (!ex || typeof ex !== 'object') return 'not an object';
  if (ex.id !== id) return `its "id" is not ${id}`;
  if (!isL10n(ex.title) || !isL10n(ex.task)) return '"title" and "task" must be text in zh-CN and en';
  if (typeof ex.skeleton !== 'string') return '"skeleton" is not text';
  if (!Array.isArray(ex.hints) || !ex.hints.every(isL10n)) return '"hints" is not a list of texts in zh-CN and en';
  if (!Number.isInteger(ex.faults)) return '"faults" is not a whole number';
  return null;
}

export class ExerciseStore {
  constructor() {
    this.index = null; // promise of the entries
    this.files = new Map(); // id -> promise of the exercise
  }

  /** The index's entries, in the build's order (level, then file name). Rejects with an ExerciseError. */
  loadIndex() {
    if (!this.index) {
      this.index = fetchJson(INDEX).then((data) => {
        if (!data || !Array.isArray(data.exercises)) throw new ExerciseError(INDEX, 'expected {"exercises": [...]}');
        return data.exercises.map(readEntry);
      });
      this.index.catch(() => (this.index = null)); // asked again next time
    }
    return this.index;
  }

  /** The exercise `id` (its file, read), null when the index names none; rejects with an ExerciseError. */
  async find(id) {
    const entries = await this.loadIndex();
    const entry = entries.find((e) => e.status === 'ok' && e.id === id);
    if (!entry) return null;
    if (!this.files.has(id)) {
      const got = fetchJson(entry.file).then((ex) => {
        const why = exerciseProblem(ex, id);
        if (why) throw new ExerciseError(entry.file, why);
        return { ...ex, level: entry.level, file: entry.file };
      });
      got.catch(() => this.files.delete(id));
      this.files.set(id, got);
    }
    return this.files.get(id);
  }
}

function storage() {
  try {
    const s = window.localStorage;
    s.getItem(STANDING_KEY);
    return s;
  } catch (_) {
    return null;
  }
}

/**
 * The learner's code and standing per exercise, in localStorage. Every read falls back
 * (no storage, text that is not ours: nothing kept) and every write returns whether it
 * reached storage; none throws.
 */
export class CodeKeeper {
  constructor() {
    this.store = storage();
  }

  /** The code kept for exercise `id`, or null. */
  code(id) {
    try {
      const v = this.store && this.store.getItem(CODE_PREFIX + id);
      return typeof v === 'string' ? v : null;
    } catch (_) {
      return null;
    }
  }

  /** Keeps `code` for `id`; false when storage refused it (off or full). */
  saveCode(id, code) {
    if (!this.store) return false;
    try {
      this.store.setItem(CODE_PREFIX + id, code);
      return true;
    } catch (_) {
      return false;
    }
  }

  /** The learner's own code put aside for `id` when a link's code replaced it, or null. */
  ownCode(id) {
    try {
      const v = this.store && this.store.getItem(OWN_PREFIX + id);
      return typeof v === 'string' ? v : null;
    } catch (_) {
      return null;
    }
  }

  /** Puts `code` aside for `id` (see ownCode); false when storage refused it. */
  saveOwnCode(id, code) {
    if (!this.store) return false;
    try {
      this.store.setItem(OWN_PREFIX + id, code);
      return true;
    } catch (_) {
      return false;
    }
  }

  forgetOwnCode(id) {
    try {
      if (this.store) this.store.removeItem(OWN_PREFIX + id);
    } catch (_) {
      /* nothing put aside */
    }
  }

  forgetCode(id) {
    try {
      if (this.store) this.store.removeItem(CODE_PREFIX + id);
    } catch (_) {
      /* nothing kept to forget */
    }
  }

  standings() {
    try {
      const all = JSON.parse((this.store && this.store.getItem(STANDING_KEY)) || '{}');
      return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
    } catch (_) {
      return {};
    }
  }

  /** 'none' (not tried), 'tried' or 'solved', and the number of checks, of exercise `id`. */
  standing(id) {
    const s = this.standings()[id];
    const checks = s && Number.isInteger(s.checks) && s.checks > 0 ? s.checks : 0;
    if (!checks) return { state: 'none', checks: 0, solvedAt: null };
    const solvedAt = Number.isInteger(s.solved_at) && s.solved_at >= 1 ? s.solved_at : null;
    return { state: solvedAt ? 'solved' : 'tried', checks, solvedAt };
  }

  /** One check the engine answered: `passed` is its verdict. Returns whether it was kept. */
  recordCheck(id, passed) {
    const all = this.standings();
    const s = all[id] && typeof all[id] === 'object' ? all[id] : {};
    const checks = (Number.isInteger(s.checks) ? s.checks : 0) + 1;
    all[id] = { checks, solved_at: Number.isInteger(s.solved_at) ? s.solved_at : passed ? checks : null };
    if (!this.store) return false;
    try {
      this.store.setItem(STANDING_KEY, JSON.stringify(all));
      return true;
    } catch (_) {
      return false;
    }
  }
}
