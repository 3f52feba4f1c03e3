// The lessons: lessons/index.json (built by the engine, `idemlab index`) says what the
// list shows of each lesson file (id, level, title, summary, question ids) or why the file
// is broken (file, JSON path, reason). A lesson file itself is fetched and run by the
// engine (`run`, which validates it as `check` does) only when it is opened. The build ran
// every shipped lesson already (scripts/lib/lesson-runs.mjs): lessons/runs.json maps a
// lesson file to {"file": "lessons/<name>.run.json", the engine's `run` output for it, and
// "text_sha256": SHA-256 of the lesson file's bytes it was computed from, hex}; a lesson
// whose text has exactly that hash opens from it without waiting for the engine; any other
// (edited, unhashable, not listed, a run file that cannot be read, no lessons/runs.json) is
// run by the engine. A lesson
// that fails at any stage becomes an error record naming the file, the JSON path and the
// reason, and the other lessons are unaffected.

import { outputErrors, EngineError } from './engine.js';
import { bundledFile } from './bundled.js';
import { decodeUtf8 } from './utf8.js';

const INDEX = 'lessons/index.json';
const RUNS = 'lessons/runs.json';
// Index entries name files in lessons/ only: the page fetches nothing else.
const LESSON_FILE = /^lessons\/[A-Za-z0-9][A-Za-z0-9._-]*\.json$/;
const LESSON_ID = /^[a-z0-9-]+$/;

export class IndexError extends Error {
  constructor(file, reason) {
    super(`${file}: ${reason}`);
    this.file = file;
    this.reason = reason;
  }
}

// The fetches web/early.js started before this code loaded: URL -> promise of {text} or
// {error}. Each is taken once (a later fetch of the same URL asks the network again).
function early(url) {
  const started = globalThis.__idemlabEarly;
  if (!started || typeof started !== 'object' || !Object.prototype.hasOwnProperty.call(started, url)) return null;
  const got = started[url];
  delete started[url];
  return got && typeof got.then === 'function' ? got : null;
}

async function fetchText(url) {
  // The offline copy has every lesson file in the page.
  const local = bundledFile(url);
  if (local === null) return { error: { kind: 'http', status: 404 } };
  if (local !== undefined) return { text: local };
  const started = early(url);
  if (started) return started.then((got) => (got.bytes ? decodeUtf8(got.bytes) : got));
  let res;
  try {
    res = await fetch(url, { cache: 'no-cache' });
  } catch (e) {
    return { error: { kind: 'fetch', reason: e.message || String(e) } };
  }
  if (!res.ok) return { error: { kind: 'http', status: res.status } };
  try {
    return decodeUtf8(await res.arrayBuffer());
  } catch (e) {
    return { error: { kind: 'fetch', reason: e.message || String(e) } };
  }
}

const RUN_FILE = /^lessons\/[A-Za-z0-9][A-Za-z0-9._-]*\.run\.json$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** SHA-256 of the text's UTF-8 bytes, hex; null where the browser offers no digest (not a secure context). */
async function sha256Hex(text) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) return null;
  try {
    const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
    let hex = '';
    for (const b of digest) hex += b.toString(16).padStart(2, '0');
    return hex;
  } catch (_) {
    return null;
  }
}

const isText = (v) => typeof v === 'string' && v.length > 0;
const isL10n = (v) => !!v && typeof v === 'object' && isText(v['zh-CN']) && isText(v.en);

function problem(p, file) {
  const e = p && typeof p === 'object' ? p : {};
  const out = { file: isText(e.file) ? e.file : file, path: typeof e.path === 'string' ? e.path : '', reason: isText(e.reason) ? e.reason : 'unknown error' };
  if (e.kind === 'duplicate' && isText(e.id) && isText(e.other)) Object.assign(out, { kind: 'duplicate', id: e.id, other: e.other });
  return out;
}

/**
 * An index entry's `incident` (the public report a lesson replays): {source, url, title},
 * three texts as the report's people cite it (url as written: the page links it only when
 * it is https). Absent or null: null (a lesson, no report); anything else: false.
 */
function readIncidentRef(v) {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v) || !isText(v.source) || !isText(v.url) || !isText(v.title)) return false;
  return { source: v.source, url: v.url, title: v.title };
}

/**
 * One entry of the index as the page uses it: {status: 'ok', file, id, level, title,
 * summary, questionIds, compare, challenge, incident} (incident: {source, url, title} of
 * the public report the lesson replays, or null) or {status: 'error', file, errors}. An entry the page
 * cannot use is an error naming the index and the entry's JSON path.
 */
function readEntry(raw, i) {
  const here = (reason) => ({ status: 'error', file: INDEX, errors: [{ file: INDEX, path: `/lessons/${i}`, reason, kind: 'index' }] });
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return here('expected an object');
  if (typeof raw.file !== 'string' || !LESSON_FILE.test(raw.file)) return here('"file" is not a file in lessons/');
  const file = raw.file;
  if (raw.ok === false) {
    const errors = Array.isArray(raw.errors) && raw.errors.length ? raw.errors : [{ reason: 'the lesson did not validate' }];
    return { status: 'error', file, errors: errors.map((e) => problem(e, file)) };
  }
  const ids = raw.question_ids;
  const fine =
    raw.ok === true &&
    typeof raw.id === 'string' &&
    LESSON_ID.test(raw.id) &&
    isText(raw.level) &&
    isL10n(raw.title) &&
    isL10n(raw.summary) &&
    Array.isArray(ids) &&
    ids.every(isText);
  if (!fine) return here('expected {"ok": true, "id", "level", "title", "summary", "question_ids"} or {"ok": false, "errors"}');
  const incident = readIncidentRef(raw.incident);
  if (incident === false) return here('"incident" is neither null nor {"source", "url", "title"} (texts)');
  return { status: 'ok', file, id: raw.id, level: raw.level, title: raw.title, summary: raw.summary, questionIds: ids, compare: raw.compare === true, challenge: raw.challenge === 'break' || raw.challenge === 'fix' ? raw.challenge : null, incident };
}

export class LessonStore {
  /** call(method, input): a promise of the engine's output (web/src/engine.js), loading it if need be. */
  constructor(call) {
    this.call = call;
    this.entries = null; // the index, read: entries in order
    this.index = null; // promise of the entries
    this.records = new Map(); // file -> opened record
    this.pending = new Map(); // file -> promise of the record
    this.texts = new Map(); // url -> promise of fetchText, so a prefetch is not repeated
    this.runs = null; // promise of Map: lesson file -> {file, sha256}, the build's runs
  }

  /** The build's runs (lessons/runs.json), fetched once: a Map, empty when there are none. */
  loadRuns() {
    if (!this.runs) {
      this.runs = this._fetch(RUNS).then((got) => {
        this.texts.delete(RUNS);
        const out = new Map();
        let data = null;
        try {
          data = got.error ? null : JSON.parse(got.text);
        } catch (_) {
          data = null;
        }
        const runs = data && data.runs && typeof data.runs === 'object' ? data.runs : {};
        for (const [file, r] of Object.entries(runs)) {
          if (r && typeof r === 'object' && typeof r.file === 'string' && RUN_FILE.test(r.file) && typeof r.text_sha256 === 'string' && SHA256_HEX.test(r.text_sha256)) {
            out.set(file, { file: r.file, sha256: r.text_sha256 });
          }
        }
        return out;
      });
    }
    return this.runs;
  }

  _fetch(url) {
    if (!this.texts.has(url)) this.texts.set(url, fetchText(url));
    return this.texts.get(url);
  }

  /** Start fetching the index, and the lesson `id` opens, while the engine is still loading. */
  prefetch(id) {
    // The list needs no run: the runs are asked for when a lesson is opened or linked to.
    const runs = id ? this.loadRuns() : null;
    this.loadIndex()
      .then((entries) => {
        const entry = id ? entries.find((e) => e.status === 'ok' && e.id === id) : null;
        if (!entry) return;
        this._fetch(entry.file);
        runs.then((map) => {
          const run = map.get(entry.file);
          if (run) this._fetch(run.file);
        });
      })
      .catch(() => {});
  }

  /** The index's entries (fetched once). Throws IndexError when there is no usable index. */
  loadIndex() {
    if (!this.index) this.index = this._loadIndex();
    return this.index;
  }

  async _loadIndex() {
    const got = await this._fetch(INDEX);
    this.texts.delete(INDEX);
    if (got.error) {
      const { kind, status, line, reason } = got.error;
      throw new IndexError(INDEX, kind === 'http' ? `HTTP ${status}` : kind === 'encoding' ? `not UTF-8 text (line ${line})` : reason);
    }
    let data;
    try {
      data = JSON.parse(got.text);
    } catch (e) {
      // The engine's reader names the line and column; the browser's own words differ
      // from one browser to the next and are its last resort.
      const errors = await this.jsonErrors(INDEX, got.text);
      throw new IndexError(INDEX, errors ? errors[0].reason : `not JSON (${e.message})`);
    }
    if (!data || !Array.isArray(data.lessons)) {
      throw new IndexError(INDEX, 'expected {"lessons": [{"file": "lessons/….json", ...}, ...]}');
    }
    // The engine marks a lesson id used twice; an index edited by hand is held to it too.
    const first = new Map();
    this.entries = data.lessons.map(readEntry).map((e) => {
      if (e.status !== 'ok') return e;
      if (!first.has(e.id)) {
        first.set(e.id, e.file);
        return e;
      }
      return { status: 'error', file: e.file, errors: [{ file: e.file, path: '/id', reason: 'duplicate', kind: 'duplicate', id: e.id, other: first.get(e.id) }] };
    });
    return this.entries;
  }

  /**
   * Why a lesson text is not JSON, as the engine's reader says it (`check`): the line, the
   * column and the character, with its code point, so that a full-width comma (，) typed by
   * a Chinese keyboard is named as one, as `idemlab check` names it. The browser's own
   * message (its wording differs from browser to browser) only when the engine cannot answer.
   */
  async _notJson(file, text, parseError) {
    return (await this.jsonErrors(file, text)) || [{ file, path: '', kind: 'json', reason: parseError.message }];
  }

  /**
   * What the engine's reader says of `text`, which JSON.parse refused: its problems
   * ({file, path, reason}, the first naming the line and column), or null when the engine
   * cannot answer (not loaded, stopped). Any JSON file the page reads may ask (the index, a
   * lesson, an imported progress file).
   */
  async jsonErrors(file, text) {
    try {
      return outputErrors(await this.call('check', { file, text }), file);
    } catch {
      return null;
    }
  }

  /** Fetch and run the lesson of an index entry; always resolves to a record {file, status, ...}. */
  open(entry) {
    const { file } = entry;
    if (this.records.has(file)) return Promise.resolve(this.records.get(file));
    if (this.pending.has(file)) return this.pending.get(file);
    const p = this._open(entry).then((rec) => {
      // A lesson the engine could not open (not loaded, stopped) is opened again next time.
      if (!rec.engineFailed) this.records.set(file, rec);
      this.pending.delete(file);
      return rec;
    });
    this.pending.set(file, p);
    return p;
  }

  async _open(entry) {
    const { file } = entry;
    const fail = (errors, more = {}) => ({ file, status: 'error', errors, ...more });
    const about = (await this.loadRuns()).get(file) || null;
    const [got, pre] = await Promise.all([this._fetch(file), about ? this._fetch(about.file) : null]);
    this.texts.delete(file);
    if (about) this.texts.delete(about.file);
    if (got.error) {
      return fail([{ file, path: '', kind: got.error.kind, status: got.error.status, line: got.error.line, reason: got.error.reason || '' }]);
    }
    try {
      JSON.parse(got.text);
    } catch (e) {
      return fail(await this._notJson(file, got.text, e));
    }
    let run = await this._precomputed(about, pre, got.text);
    const precomputed = !!run;
    try {
      // `run` validates the lesson as `check` does (the same errors), so one call does both.
      if (!run) run = await this.call('run', { file, text: got.text });
    } catch (e) {
      // The engine could not answer (not loaded, stopped): no fault of the lesson's, and the
      // record is not kept (main.js shows the lesson's text, or opens it again later).
      const reason = e instanceof EngineError ? e.reason : e.message || String(e);
      return fail([{ file, path: '', reason }], { engineFailed: e instanceof EngineError ? e : new EngineError(file, reason) });
    }
    const runErrors = outputErrors(run, file);
    if (runErrors) return fail(runErrors);
    if (!run || !run.lesson || !Array.isArray(run.steps) || run.steps.length === 0) {
      return fail([{ file, path: '', reason: 'the engine returned a timeline without steps' }]);
    }
    if (run.lesson.id !== entry.id) {
      return fail([{ file, path: '/id', reason: `the file's lesson id is '${run.lesson.id}', the index says '${entry.id}' (rebuild the site)` }]);
    }
    return { file, status: 'ok', id: run.lesson.id, text: got.text, run, compare: entry.compare, precomputed };
  }

  /** The build's run of this exact text (`pre`: its run file, fetched), or null. */
  async _precomputed(about, pre, text) {
    if (!about || !pre || pre.error) return null;
    const hash = await sha256Hex(text);
    if (!hash || hash !== about.sha256) return null;
    try {
      return JSON.parse(pre.text);
    } catch (_) {
      return null;
    }
  }

  /**
   * The lesson `id`'s file, read without the engine (its text shows while the engine cannot
   * run): {entry, lesson} with the parsed file, {entry, error} when it cannot be read, or
   * null when the index has no such lesson.
   */
  async readText(id) {
    const entries = await this.loadIndex();
    const entry = entries.find((e) => e.status === 'ok' && e.id === id);
    if (!entry) return null;
    const got = await this._fetch(entry.file);
    this.texts.delete(entry.file);
    if (got.error) return { entry, error: got.error };
    try {
      const lesson = JSON.parse(got.text);
      return { entry, lesson: lesson && typeof lesson === 'object' && !Array.isArray(lesson) ? lesson : {} };
    } catch (e) {
      return { entry, error: { kind: 'json', reason: e.message } };
    }
  }

  /** The lesson `id`, opened: a record (ok or error), or null when the index has no such lesson. */
  async find(id) {
    const entries = await this.loadIndex();
    const entry = entries.find((e) => e.status === 'ok' && e.id === id);
    return entry ? this.open(entry) : null;
  }

  /**
   * Ask the engine whether an answer is right: `tryNumber` counts this question's tries
   * from 1; `reveal` asks for the answer (then `answer` may be null); `settled` lists the
   * lesson's questions already settled (the engine withholds what an open one asks; without
   * it, every later question counts as open). The engine decides what is shown: a hint, or
   * the expected answer and why. Resolves to the verdict, or rejects with an EngineError.
   */
  async answer(rec, questionId, answer, { tryNumber = 1, reveal = false, settled = null } = {}) {
    const input = { file: rec.file, text: rec.text, question: questionId, try: tryNumber };
    if (answer !== null && answer !== undefined) input.answer = answer;
    if (reveal) input.reveal = true;
    if (Array.isArray(settled)) input.settled = settled;
    const out = await this.call('answer', input);
    const errors = outputErrors(out, rec.file);
    if (errors) {
      const e = errors[0];
      throw new EngineError(e.file, `${e.path ? e.path + ': ' : ''}${e.reason}`, 'answer');
    }
    return out;
  }

  /**
   * The lesson's two side-by-side timelines from the engine (`compare`): {data} or
   * {errors: [{file, path, reason}]}, e.g. for a lesson without a compare block.
   */
  async compare(rec) {
    try {
      const data = await this.call('compare', { file: rec.file, text: rec.text });
      const errors = outputErrors(data, rec.file);
      if (errors) return { errors };
      if (!Array.isArray(data.policies) || data.policies.length !== 2 || !data.policies.every((p) => Array.isArray(p.steps) && p.steps.length)) {
        return { errors: [{ file: rec.file, path: '/compare', reason: 'the engine returned no two timelines' }] };
      }
      return { data };
    } catch (e) {
      return { errors: [{ file: rec.file, path: '', reason: e instanceof EngineError ? e.reason : e.message || String(e) }] };
    }
  }
}
