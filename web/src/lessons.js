// The lesson files: lessons/index.json names them; each one is fetched as
// text and run by the engine (`run`, which validates it as `check` does). A lesson that
// fails at any stage becomes an error record naming the file, the JSON path
// and the reason, and the other lessons are unaffected.

import { outputErrors, EngineError } from './engine.js';

const DIR = 'lessons/';

export class IndexError extends Error {
  constructor(file, reason) {
    super(`${file}: ${reason}`);
    this.file = file;
    this.reason = reason;
  }
}

async function fetchText(url) {
  let res;
  try {
    res = await fetch(url, { cache: 'no-cache' });
  } catch (e) {
    return { error: { kind: 'fetch', reason: e.message || String(e) } };
  }
  if (!res.ok) return { error: { kind: 'http', status: res.status } };
  try {
    return { text: await res.text() };
  } catch (e) {
    return { error: { kind: 'fetch', reason: e.message || String(e) } };
  }
}

export class LessonStore {
  constructor(engine) {
    this.engine = engine;
    this.files = null; // names from index.json, in order
    this.records = new Map(); // name -> record
    this.pending = new Map(); // name -> promise
    this.texts = new Map(); // url -> promise of fetchText, so a prefetch is not repeated
  }

  _fetch(url) {
    if (!this.texts.has(url)) this.texts.set(url, fetchText(url));
    return this.texts.get(url);
  }

  /** Start fetching the index and a lesson file while the engine is still loading. */
  prefetch(id) {
    this._fetch(`${DIR}index.json`)
      .then((got) => {
        // Only a file the index names, so a mistyped id costs no failed request.
        const names = got.text ? JSON.parse(got.text).lessons : null;
        if (id && Array.isArray(names) && names.includes(`${id}.json`)) this._fetch(`${DIR}${id}.json`);
      })
      .catch(() => {});
  }

  async loadIndex() {
    const url = `${DIR}index.json`;
    const got = await this._fetch(url);
    this.texts.delete(url);
    if (got.error) {
      throw new IndexError(url, got.error.kind === 'http' ? `HTTP ${got.error.status}` : got.error.reason);
    }
    let data;
    try {
      data = JSON.parse(got.text);
    } catch (e) {
      throw new IndexError(url, `not JSON (${e.message})`);
    }
    if (!data || !Array.isArray(data.lessons) || !data.lessons.every((f) => typeof f === 'string')) {
      throw new IndexError(url, 'expected {"lessons": ["name.json", ...]}');
    }
    this.files = data.lessons;
    return this.files;
  }

  /** Load one lesson file; always resolves to a record {name, file, status, ...}. */
  load(name) {
    if (this.records.has(name)) return Promise.resolve(this.records.get(name));
    if (this.pending.has(name)) return this.pending.get(name);
    const p = this._load(name).then((rec) => {
      this.records.set(name, rec);
      this.pending.delete(name);
      return rec;
    });
    this.pending.set(name, p);
    return p;
  }

  async _load(name) {
    const file = DIR + name;
    const fail = (errors) => ({ name, file, status: 'error', errors });
    const got = await this._fetch(file);
    this.texts.delete(file);
    if (got.error) {
      return fail([{ file, path: '', kind: got.error.kind, status: got.error.status, reason: got.error.reason || '' }]);
    }
    try {
      JSON.parse(got.text);
    } catch (e) {
      return fail([{ file, path: '', kind: 'json', reason: e.message }]);
    }
    try {
      // `run` validates the lesson as `check` does (the same errors), so one call does both.
      const run = this.engine.call('run', { file, text: got.text });
      const runErrors = outputErrors(run, file);
      if (runErrors) return fail(runErrors);
      if (!run || !run.lesson || !Array.isArray(run.steps) || run.steps.length === 0) {
        return fail([{ file, path: '', reason: 'the engine returned a timeline without steps' }]);
      }
      return { name, file, status: 'ok', id: run.lesson.id, text: got.text, run };
    } catch (e) {
      if (e instanceof EngineError) return fail([{ file, path: '', reason: e.reason }]);
      return fail([{ file, path: '', reason: e.message || String(e) }]);
    }
  }

  async loadAll() {
    if (!this.files) await this.loadIndex();
    return Promise.all(this.files.map((f) => this.load(f)));
  }

  /** Find a lesson by id, loading the likely file first. Resolves to a record or null. */
  async find(id) {
    if (!this.files) await this.loadIndex();
    for (const rec of this.records.values()) if (rec.status === 'ok' && rec.id === id) return rec;
    const guess = `${id}.json`;
    if (this.files.includes(guess)) {
      const rec = await this.load(guess);
      if (rec.status === 'ok' && rec.id === id) return rec;
    }
    const all = await this.loadAll();
    return all.find((r) => r.status === 'ok' && r.id === id) || null;
  }

  /** Ask the engine whether an answer is right. Throws EngineError, or returns the verdict. */
  answer(rec, questionId, answer) {
    const out = this.engine.call('answer', { file: rec.file, text: rec.text, question: questionId, answer });
    const errors = outputErrors(out, rec.file);
    if (errors) {
      const e = errors[0];
      throw new EngineError(e.file, `${e.path ? e.path + ': ' : ''}${e.reason}`, 'answer');
    }
    return out;
  }
}
