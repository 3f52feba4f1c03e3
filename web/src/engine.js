// The page's one engine, in a Web Worker (web/src/worker/engine-worker.js): Engine.load()
// starts it, call(method, input) sends one call and resolves to the engine's output (JSON,
// parsed). The main thread never compiles or runs the WebAssembly. Calls answer in the order
// they were made. Every failure is an EngineError naming the file and the reason.

import { bundledWasmBase64, bundledWorkerUrl } from './bundled.js';
import { statusOf } from './http-status.js';

export class EngineError extends Error {
  constructor(file, reason, method, status = null, kind = null) {
    super(`${file ? file + ': ' : ''}${reason}`);
    this.name = 'EngineError';
    this.file = file;
    this.reason = reason; // technical detail, in English (the toolchain's own words)
    this.method = method || null;
    this.status = status; // the HTTP status when the file could not be fetched
    // What the learner is told (views/errors.js): 'http' (status), 'network' (no answer from
    // the server), 'damaged' (fetched, but not a working engine: truncated, not wasm),
    // 'timeout', 'unsupported' (no WebAssembly here), 'stopped' (a loaded engine trapped),
    // 'cancelled' (a call the page cancelled: nothing to tell), 'memory' (the call needed
    // more memory than the engine has: a fresh engine has taken its place, try again).
    this.kind = kind || (status ? 'http' : null);
  }

  get stopped() {
    return this.kind === 'stopped';
  }

  get cancelled() {
    return this.kind === 'cancelled';
  }
}

const WORKER_URL = 'engine/worker.js';
const LOAD_TIMEOUT_MS = 60000;

/**
 * The engine's files, named as its worker (web/src/worker/engine-worker.js) loads them:
 * its JS glue and wasm beside worker.js, and the factory the glue defines. The page's
 * engine is the default; code mode's engine (the engine with Lua, loaded only when code
 * mode is first used) is CODE_ENGINE.
 */
export const PAGE_ENGINE = { glue: 'idemlab.js', wasm: 'idemlab.wasm', factory: 'createIdemlab' };
export const CODE_ENGINE = { glue: 'idemlab-code.js', wasm: 'idemlab-code.wasm', factory: 'createIdemlabCode' };


/** The loaded engine, in its worker. Use Engine.load(). */
export class Engine {
  constructor(module = null, files = PAGE_ENGINE) {
    this.files = files;
    this.wasmFile = `engine/${files.wasm}`; // how errors name the engine
    this.module = module; // the compiled WebAssembly.Module, when the worker could hand it over
    this.worker = null;
    this.next = 1;
    this.pending = new Map(); // id -> {method, input, resolve, reject, onProgress, cancellable}
    this.dead = null;
    this.onStop = null; // called once, with the EngineError, when the instance traps
    this.loadMs = null; // the worker's own time from start to ready
  }

  /**
   * Starts the engine's worker; resolves to the Engine once it answers calls, rejects with
   * an EngineError when it cannot load. `module`: a compiled module to start from (a
   * restart compiles nothing again).
   */
  static load({ module = null, files = PAGE_ENGINE } = {}) {
    if (typeof WebAssembly !== 'object') return Promise.reject(new EngineError(`engine/${files.wasm}`, 'WebAssembly is not available in this browser', null, null, 'unsupported'));
    const engine = new Engine(module, files);
    return engine._start().then(() => engine);
  }

  _start() {
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this._terminate();
        reject(err);
      };
      const timer = setTimeout(() => fail(new EngineError(this.wasmFile, `no answer after ${LOAD_TIMEOUT_MS / 1000} s`, null, null, 'timeout')), LOAD_TIMEOUT_MS);
      try {
        this._spawn({
          loaded: () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve();
          },
          failed: fail,
        });
      } catch (e) {
        fail(new EngineError(WORKER_URL, `the engine's worker could not start (${(e && e.message) || e})`, null, null, 'damaged'));
      }
    });
  }

  /** A new worker; `on.loaded()` when its engine is ready, `on.failed(EngineError)` when not. */
  _spawn(on) {
    // The offline copy starts the worker from code in the page and hands it the engine's
    // bytes (the page's engine only: it holds no other).
    const inline = this.files === PAGE_ENGINE ? bundledWorkerUrl() : null;
    const w = new Worker(inline || WORKER_URL);
    let loaded = false;
    w.onmessage = (ev) => {
      const msg = ev.data || {};
      if (msg.loaded) {
        loaded = true;
        this.loadMs = msg.loaded.ms;
        if (msg.module) this.module = msg.module;
        on.loaded();
        return;
      }
      if (msg.loadError) {
        const e = msg.loadError;
        on.failed(new EngineError(e.file, e.reason, null, e.status || null, e.kind || 'damaged'));
        return;
      }
      this._answer(msg);
    };
    w.onerror = (ev) => {
      ev.preventDefault();
      if (!loaded) {
        // The worker's own script did not run: name it by its HTTP status when it has one.
        statusOf(WORKER_URL).then((status) => {
          const kind = status ? 'http' : status === 0 ? 'network' : 'damaged';
          on.failed(new EngineError(WORKER_URL, status ? `HTTP ${status}` : ev.message || 'the script did not run', null, status || null, kind));
        });
        return;
      }
      this._stop(`the engine's worker failed (${ev.message || 'no reason given'})`);
    };
    const files = this.files === PAGE_ENGINE ? {} : { files: this.files };
    const init = this.module ? { module: this.module, ...files } : inline ? { wasmBase64: bundledWasmBase64() } : files;
    w.postMessage({ init });
    this.worker = w;
  }

  _answer(msg) {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.progress) {
      if (p.onProgress) p.onProgress(msg.progress);
      return;
    }
    this.pending.delete(msg.id);
    if (msg.error) {
      if (msg.stopped) {
        p.reject(this._stop(`${msg.error}`, p.method));
        return;
      }
      const memory = outOfMemory(msg.error);
      p.reject(new EngineError(this.wasmFile, msg.error, p.method, null, memory ? 'memory' : null));
      if (memory) this._respawn('its memory ran out');
      return;
    }
    let out;
    try {
      out = JSON.parse(msg.output);
    } catch (e) {
      p.reject(new EngineError(this.wasmFile, `${p.method} returned text that is not JSON (${e.message})`, p.method));
      return;
    }
    p.resolve(out);
    if (out && out.error && outOfMemory(out.error.reason)) this._respawn('its memory ran out');
  }

  /** The instance trapped: every call now fails as stopped; onStop is told once. */
  _stop(reason, method = null) {
    const err = new EngineError(this.wasmFile, reason, method, null, 'stopped');
    if (!this.dead) {
      this.dead = reason;
      this._terminate();
      const rest = [...this.pending.values()];
      this.pending.clear();
      for (const p of rest) p.reject(new EngineError(this.wasmFile, reason, p.method, null, 'stopped'));
      if (this.onStop) {
        const fn = this.onStop;
        this.onStop = null;
        try {
          fn(err);
        } catch (_) {
          /* the caller still gets the error */
        }
      }
    }
    return err;
  }

  _terminate() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }

  /**
   * Call the engine: resolves to the parsed output object (which may itself be an
   * {"error": ...} or {"ok": false, ...} answer: that is data, not an exception). Rejects
   * with an EngineError only when the engine itself could not answer, or when the call was
   * cancelled (err.cancelled). `cancellable`: cancel() stops this call (a long one: explore,
   * a challenge's check); `onProgress`: explore's progress reports.
   */
  call(method, input, { onProgress = null, cancellable = false } = {}) {
    if (this.dead) return Promise.reject(new EngineError(this.wasmFile, this.dead, method, null, 'stopped'));
    return new Promise((resolve, reject) => {
      // The input goes as JSON text, made here: a string always crosses to the worker,
      // whose smaller stack could fail to take a deeply nested object, leaving the call
      // unanswered. (The page's inputs are bounded in depth: sandbox/codec.js.)
      const text = JSON.stringify(input);
      const id = this.next++;
      this.pending.set(id, { method, input: text, resolve, reject, onProgress, cancellable });
      this.worker.postMessage({ id, method, input: text });
    });
  }

  /**
   * Stops the cancellable calls (they reject with err.cancelled): the worker is ended and a
   * new one started from the same compiled module; the other calls waiting are sent to it.
   */
  cancel() {
    if (this.dead || ![...this.pending.values()].some((p) => p.cancellable)) return;
    this._terminate();
    const waiting = [];
    for (const [id, p] of this.pending) {
      if (p.cancellable) p.reject(new EngineError(this.wasmFile, 'cancelled', p.method, null, 'cancelled'));
      else waiting.push([id, p]);
    }
    this.pending = new Map(waiting);
    this._respawn('a cancel');
  }

  /**
   * A new worker from the same compiled module, the calls still waiting sent to it: after a
   * cancel, or after an answer that the engine's memory ran out (`after` says which). An
   * instance that ran out may keep what the call had taken (code compiled without
   * unwinding cannot give it back): a fresh one starts with all of its memory free.
   */
  _respawn(after) {
    this._terminate();
    const lost = (err) => this._stop(`the engine did not start again after ${after} (${err.reason})`);
    try {
      this._spawn({ loaded: () => {}, failed: lost });
    } catch (e) {
      lost(new EngineError(WORKER_URL, (e && e.message) || String(e)));
      return;
    }
    for (const [id, p] of this.pending) this.worker.postMessage({ id, method: p.method, input: p.input });
  }

  /** Whether a cancellable call is running or waiting. */
  busy() {
    return [...this.pending.values()].some((p) => p.cancellable);
  }

  /** The test handle: the next call traps, as a poisoned instance does. */
  trapNext() {
    if (this.worker) this.worker.postMessage({ trapNext: true });
  }

  /** The test handle: before the next call of `method`, the memory is taken up to its maximum. */
  fillMemoryBefore(method) {
    if (this.worker) this.worker.postMessage({ fillMemoryBefore: method });
  }
}

/**
 * Whether a reason says a call needed more memory than the engine has: its answer's
 * ("out of memory: ...", engine/api/call.cpp) or the worker's ("answer: out of memory").
 */
function outOfMemory(reason) {
  return typeof reason === 'string' && /\bout of memory\b/.test(reason);
}

/** Errors in an engine output, as a list of {file, path, reason}, or null when there are none. */
export function outputErrors(out, file) {
  if (!out || typeof out !== 'object') return [{ file, path: '', reason: 'the engine returned nothing' }];
  if (out.error) {
    const e = out.error;
    // A code error (code mode) also says where in the code, and in the learner's language.
    const code = e.kind ? { kind: e.kind, line: e.line, column: e.column, text: e.text } : null;
    return [{ file: e.file || file, path: e.path || '', reason: e.reason || 'unknown error', ...code }];
  }
  if (out.ok === false) {
    const list = Array.isArray(out.errors) && out.errors.length ? out.errors : [{ reason: 'the lesson did not validate' }];
    return list.map((e) => ({ file: e.file || file, path: e.path || '', reason: e.reason || 'unknown error' }));
  }
  return null;
}
