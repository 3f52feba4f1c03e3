// Loads the WASM engine (engine/idemlab.js + engine/idemlab.wasm, relative to
// the page) and wraps its one function: call(method, input) -> output, both
// JSON. Every failure becomes an EngineError naming the file and the reason.

import { callModule } from './engine-abi.js';
import { bundledWasm } from './bundled.js';

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
    // 'timeout', 'unsupported' (no WebAssembly here), 'stopped' (a loaded engine trapped).
    this.kind = kind || (status ? 'http' : null);
  }

  get stopped() {
    return this.kind === 'stopped';
  }
}

const BASE = 'engine/';
const SCRIPT = 'idemlab.js';
const WASM = 'idemlab.wasm';
const LOAD_TIMEOUT_MS = 60000;

function loadClassicScript(src) {
  return new Promise((resolve, reject) => {
    const el = document.createElement('script');
    el.src = src;
    el.async = true;
    el.onload = () => resolve();
    el.onerror = () => reject(new Error('the script could not be loaded'));
    document.head.appendChild(el);
  });
}

/** The HTTP status when `url` cannot be fetched (e.g. 404), or null when it can be. */
async function failedStatus(url) {
  try {
    const res = await fetch(url, { cache: 'no-store' });
    return res.ok ? null : res.status;
  } catch (_) {
    return null;
  }
}

async function whyMissing(url) {
  try {
    const res = await fetch(url, { cache: 'no-store' });
    if (!res.ok) return `HTTP ${res.status} ${res.statusText}`.trim();
    return 'the file was fetched but did not run as a script';
  } catch (e) {
    return `the file could not be fetched (${e.message})`;
  }
}

/** Whether `url` can be fetched at all (false: no answer from the server, e.g. offline). */
async function reachable(url) {
  try {
    const res = await fetch(url, { cache: 'no-store' });
    if (res.body) res.body.cancel().catch(() => {});
    return true;
  } catch (_) {
    return false;
  }
}

/**
 * index.html preloads the wasm; without the script nothing fetches it, and Chromium warns
 * about an unused preload. Take the preloaded response (no new request) and drop it.
 */
function releasePreload(url) {
  const preloaded = [...document.querySelectorAll('link[rel="preload"][as="fetch"]')].some((el) => el.getAttribute('href') === url);
  if (!preloaded) return;
  fetch(url, { credentials: 'same-origin' })
    .then((res) => (res.body ? res.body.cancel() : null))
    .catch(() => {});
}

function describe(err) {
  if (!err) return 'unknown error';
  if (typeof err === 'string') return err;
  return err.message || String(err);
}

/** The loaded engine. Use Engine.load(). */
export class Engine {
  constructor(module) {
    this.m = module;
    this.dead = null;
    this.onStop = null; // called once, with the EngineError, when the instance traps
  }

  static async load(base = BASE) {
    const scriptUrl = base + SCRIPT;
    const wasmUrl = base + WASM;
    if (typeof WebAssembly !== 'object') throw new EngineError(wasmUrl, 'WebAssembly is not available in this browser', null, null, 'unsupported');
    if (typeof globalThis.createIdemlab !== 'function') {
      try {
        await loadClassicScript(scriptUrl);
      } catch (_) {
        releasePreload(wasmUrl);
        const status = await failedStatus(scriptUrl);
        const why = status ? `HTTP ${status}` : await whyMissing(scriptUrl);
        throw new EngineError(scriptUrl, why, null, status, status ? 'http' : /could not be fetched/.test(why) ? 'network' : 'damaged');
      }
    }
    if (typeof globalThis.createIdemlab !== 'function') {
      throw new EngineError(scriptUrl, 'the script does not define createIdemlab', null, null, 'damaged');
    }
    const messages = [];
    let timer;
    let timedOut = false;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new Error(`no answer after ${LOAD_TIMEOUT_MS / 1000} s`));
      }, LOAD_TIMEOUT_MS);
    });
    let module;
    // The offline copy holds the engine's bytes in the page (its glue ran inline already).
    const wasmBinary = bundledWasm();
    try {
      module = await Promise.race([
        globalThis.createIdemlab({
          ...(wasmBinary ? { wasmBinary } : {}),
          locateFile: (f) => base + f,
          print: (text) => console.log('[engine]', text),
          printErr: (text) => {
            messages.push(String(text));
            console.warn('[engine]', text);
          },
        }),
        timeout,
      ]);
    } catch (e) {
      // Emscripten's own message ("Aborted(both async and sync fetching ...)") does not
      // say what is wrong; a missing or refused file is named by its HTTP status.
      const status = wasmBinary ? null : await failedStatus(wasmUrl);
      if (status) throw new EngineError(wasmUrl, `HTTP ${status}`, null, status);
      const detail = messages.filter((m) => m && !describe(e).includes(m)).slice(-2);
      const reason = [describe(e), ...detail].join(' — ');
      const kind = timedOut ? 'timeout' : !wasmBinary && !(await reachable(wasmUrl)) ? 'network' : 'damaged';
      throw new EngineError(wasmUrl, reason, null, null, kind);
    } finally {
      clearTimeout(timer);
    }
    for (const name of ['_idemlab_call', '_idemlab_free', '_malloc', '_free', 'UTF8ToString', 'stringToUTF8', 'lengthBytesUTF8']) {
      if (typeof module[name] !== 'function') {
        throw new EngineError(scriptUrl, `the module does not export ${name}`, null, null, 'damaged');
      }
    }
    return new Engine(module);
  }

  /**
   * Call the engine. Returns the parsed output object (which may itself be an
   * {"error": ...} or {"ok": false, ...} answer: that is data, not an exception).
   * Throws EngineError only when the engine itself could not answer.
   */
  call(method, input) {
    if (this.dead) throw new EngineError('engine/idemlab.wasm', this.dead, method, null, 'stopped');
    let text;
    try {
      text = callModule(this.m, method, JSON.stringify(input));
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError || /abort/i.test(describe(e))) {
        // This instance is no longer usable; a fresh one can be loaded (main.js restarts it).
        this.dead = `the engine stopped (${describe(e)})`;
        const err = new EngineError('engine/idemlab.wasm', `${method}: ${describe(e)}`, method, null, 'stopped');
        if (this.onStop) {
          const fn = this.onStop;
          this.onStop = null;
          try {
            fn(err);
          } catch (_) {
            /* the caller still gets the error below */
          }
        }
        throw err;
      }
      throw new EngineError('engine/idemlab.wasm', `${method}: ${describe(e)}`, method);
    }
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new EngineError('engine/idemlab.wasm', `${method} returned text that is not JSON (${e.message})`, method);
    }
  }
}

/** Errors in an engine output, as a list of {file, path, reason}, or null when there are none. */
export function outputErrors(out, file) {
  if (!out || typeof out !== 'object') return [{ file, path: '', reason: 'the engine returned nothing' }];
  if (out.error) {
    const e = out.error;
    return [{ file: e.file || file, path: e.path || '', reason: e.reason || 'unknown error' }];
  }
  if (out.ok === false) {
    const list = Array.isArray(out.errors) && out.errors.length ? out.errors : [{ reason: 'the lesson did not validate' }];
    return list.map((e) => ({ file: e.file || file, path: e.path || '', reason: e.reason || 'unknown error' }));
  }
  return null;
}
