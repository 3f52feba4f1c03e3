// The page's side of the engine's Web Worker (web/src/worker/engine-worker.js): calls that
// may run long (explore, a challenge's check) go there, so the main thread stays free.
// call() resolves to the engine's output object (which may be an {"error": ...} answer:
// data); it rejects with a WorkerError when the worker could not answer, or when the call
// was cancelled (err.cancelled).

import { bundledWasm, bundledWorkerUrl } from './bundled.js';

const WORKER_URL = 'engine/worker.js';

export class WorkerError extends Error {
  constructor(reason, { cancelled = false } = {}) {
    super(reason);
    this.name = 'WorkerError';
    this.reason = reason;
    this.cancelled = cancelled;
  }
}

export class EngineWorker {
  constructor(url = WORKER_URL) {
    this.url = url;
    this.worker = null;
    this.next = 1;
    this.pending = new Map(); // id -> {resolve, reject, onProgress}
  }

  _start() {
    if (this.worker) return this.worker;
    let w;
    // The offline copy starts the worker from code in the page and hands it the engine's bytes.
    const inline = bundledWorkerUrl();
    try {
      w = new Worker(inline || this.url);
    } catch (e) {
      throw new WorkerError(`the engine's worker could not start (${e.message || e})`);
    }
    if (inline) w.postMessage({ init: { wasm: bundledWasm() } });
    w.onmessage = (ev) => {
      const msg = ev.data || {};
      const p = this.pending.get(msg.id);
      if (!p) return;
      if (msg.progress) {
        if (p.onProgress) p.onProgress(msg.progress);
        return;
      }
      this.pending.delete(msg.id);
      if (msg.error) {
        p.reject(new WorkerError(msg.error));
        return;
      }
      try {
        p.resolve(JSON.parse(msg.output));
      } catch (e) {
        p.reject(new WorkerError(`the engine answered text that is not JSON (${e.message})`));
      }
    };
    w.onerror = (ev) => {
      ev.preventDefault();
      this._fail(`the engine's worker failed (${ev.message || 'engine/worker.js could not run'})`);
    };
    this.worker = w;
    return w;
  }

  _fail(reason, opts) {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(new WorkerError(reason, opts));
  }

  /** Starts the worker (and its engine) ahead of the first call. */
  warm() {
    try {
      this._start();
    } catch (_) {
      /* said at the first call */
    }
  }

  call(method, input, { onProgress = null } = {}) {
    return new Promise((resolve, reject) => {
      let w;
      try {
        w = this._start();
      } catch (e) {
        reject(e);
        return;
      }
      const id = this.next++;
      this.pending.set(id, { resolve, reject, onProgress });
      w.postMessage({ id, method, input });
    });
  }

  /** Stops every call running or waiting: they reject with err.cancelled. */
  cancel() {
    this._fail('cancelled', { cancelled: true });
  }

  busy() {
    return this.pending.size > 0;
  }
}
