// The page's one engine, in a Web Worker (dist/engine/worker.js, next to idemlab.js and
// idemlab.wasm): every engine call of the page runs here, so the main thread never compiles
// or runs the WebAssembly (web/src/engine.js is the page's side).
// Messages in:
//   {init: {module?, wasmBase64?, files?}}  first, always: start the engine. `module`: a
//                                    compiled WebAssembly.Module (a restart: nothing is
//                                    compiled again); `wasmBase64`: the engine's bytes (the
//                                    offline copy); neither: fetch the wasm beside this file.
//                                    `files`: {glue, wasm, factory}, which engine (default
//                                    idemlab.js, idemlab.wasm, createIdemlab; code mode's is
//                                    idemlab-code.js, idemlab-code.wasm, createIdemlabCode)
//   {id, method, input}              one call (input: JSON text, made by the page: engine.js)
//   {trapNext: true}                 the test handle: the next call traps, as a poisoned
//                                    instance does (tests/browser/bad-input.spec.mjs)
//   {fillMemoryBefore: "<method>"}   the test handle: before the next call of that method,
//                                    the module's memory is taken up to its maximum and
//                                    kept, so that the call runs out of memory
// Messages out:
//   {loaded: {ms}, module}           the engine is ready (`module` for the next restart);
//                                    ms: from init to ready, in the worker's clock
//   {loadError: {file, reason, status, kind}}   it is not (kind as EngineError's)
//   {id, progress: {depth, max_faults, done, total, schedules}}  while explore runs
//   {id, output: "<JSON text>"}      the engine's answer
//   {id, error: "<reason>", stopped} the engine could not answer; stopped: it trapped, and
//                                    this instance answers nothing any more
// Calls run one at a time, in the order they came. A call is cancelled by terminating the
// worker (the page starts a new one from the same compiled module).
// In the offline copy (web/src/bundled.js) the worker is a blob: the engine's glue, then
// this code.

/* global importScripts */

import { callModule } from '../engine-abi.js';
import { statusOf } from '../http-status.js';

let current = null; // the id of the call running, for progress
let dead = null; // why this instance answers no more (it trapped)
let trapNext = false;
let fillBefore = null; // the test handle's method (fillMemoryBefore)
let ready = null; // promise of the Emscripten module
// Which engine this worker runs (init's `files`): the page's, unless told otherwise.
let files = { glue: 'idemlab.js', wasm: 'idemlab.wasm', factory: 'createIdemlab' };
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/; // a file beside this one, a factory's name

class LoadError extends Error {
  constructor(file, reason, kind, status = null) {
    super(reason);
    this.file = file;
    this.kind = kind;
    this.status = status;
  }
}

const describe = (e) => (e && (e.message || (typeof e === 'string' ? e : String(e)))) || 'unknown error';


function glue() {
  const file = `engine/${files.glue}`;
  if (typeof self[files.factory] === 'function') return;
  try {
    importScripts(files.glue);
  } catch (e) {
    return statusOf(files.glue).then((status) => {
      if (status) throw new LoadError(file, `HTTP ${status}`, 'http', status);
      if (status === 0) throw new LoadError(file, `the file could not be fetched (${describe(e)})`, 'network');
      throw new LoadError(file, 'the file was fetched but did not run as a script', 'damaged');
    });
  }
  if (typeof self[files.factory] !== 'function') throw new LoadError(file, `the script does not define ${files.factory}`, 'damaged');
}

function fromBase64(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The engine compiled: from the page's module, the offline copy's bytes, or idemlab.wasm. */
async function compile({ module, wasmBase64 }) {
  const file = `engine/${files.wasm}`;
  if (module instanceof WebAssembly.Module) return module;
  try {
    if (wasmBase64) return await WebAssembly.compile(fromBase64(wasmBase64));
  } catch (e) {
    throw new LoadError(file, describe(e), 'damaged');
  }
  let res;
  try {
    res = await fetch(files.wasm, { credentials: 'same-origin' });
  } catch (e) {
    throw new LoadError(file, `the file could not be fetched (${describe(e)})`, 'network');
  }
  if (!res.ok) throw new LoadError(file, `HTTP ${res.status}`, 'http', res.status);
  try {
    // Compiled while it downloads when the server names its type; from the bytes otherwise.
    if (typeof WebAssembly.compileStreaming === 'function' && /^application\/wasm\b/.test(res.headers.get('content-type') || '')) {
      return await WebAssembly.compileStreaming(res);
    }
    return await WebAssembly.compile(await res.arrayBuffer());
  } catch (e) {
    // A body cut off by the network is named as such, not as a damaged file.
    const status = await statusOf(files.wasm);
    if (status === 0) throw new LoadError(file, `the file could not be fetched (${describe(e)})`, 'network');
    throw new LoadError(file, describe(e), 'damaged');
  }
}

async function start(init) {
  const t0 = performance.now();
  if (typeof WebAssembly !== 'object') throw new LoadError(`engine/${files.wasm}`, 'WebAssembly is not available in this browser', 'unsupported');
  const [, module] = await Promise.all([glue(), compile(init)]);
  const messages = [];
  let m;
  try {
    // An instance that cannot be made (a module that does not fit the glue) is said at once,
    // not after the page's load timeout.
    let refuse;
    const refused = new Promise((_, reject) => (refuse = reject));
    m = await Promise.race([
      self[files.factory]({
        instantiateWasm: (imports, receive) => {
          WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), refuse);
          return {};
        },
        print: () => {},
        printErr: (text) => messages.push(String(text)),
        onProgress: (p) => {
          if (current !== null) self.postMessage({ id: current, progress: p });
        },
      }),
      refused,
    ]);
  } catch (e) {
    throw new LoadError(`engine/${files.wasm}`, [describe(e), ...messages.filter((x) => x && !describe(e).includes(x)).slice(-2)].join(' — '), 'damaged');
  }
  for (const name of ['_idemlab_call', '_idemlab_free', '_malloc', '_free', 'UTF8ToString', 'stringToUTF8', 'lengthBytesUTF8']) {
    if (typeof m[name] !== 'function') throw new LoadError(`engine/${files.glue}`, `the module does not export ${name}`, 'damaged');
  }
  let shared = module;
  try {
    self.postMessage({ loaded: { ms: Math.round(performance.now() - t0) }, module });
  } catch (_) {
    shared = null; // a browser that cannot pass a module on: the next start compiles again
  }
  if (!shared) self.postMessage({ loaded: { ms: Math.round(performance.now() - t0) } });
  return m;
}

function call(m, id, method, input) {
  if (dead) {
    self.postMessage({ id, error: dead, stopped: true });
    return;
  }
  current = id;
  try {
    if (fillBefore === method) {
      fillBefore = null;
      for (let size = 1 << 24; size >= 16; ) {
        if (!m._malloc(size)) size >>= 1; // kept on purpose: this instance is to be out of memory
      }
    }
    if (trapNext) {
      trapNext = false;
      throw new WebAssembly.RuntimeError('memory access out of bounds (made to trap by the test handle)');
    }
    self.postMessage({ id, output: callModule(m, method, input) });
  } catch (e) {
    // A trap (or Emscripten's abort) leaves the instance unusable: say so for every later call.
    const stopped = e instanceof WebAssembly.RuntimeError || /abort/i.test(describe(e));
    if (stopped) dead = `the engine stopped (${describe(e)})`;
    self.postMessage({ id, error: `${method}: ${describe(e)}`, stopped });
  } finally {
    current = null;
  }
}

self.onmessage = async (ev) => {
  const msg = ev.data || {};
  if (msg.init) {
    const f = msg.init.files;
    if (f && [f.glue, f.wasm, f.factory].every((x) => typeof x === 'string' && NAME.test(x))) files = { glue: f.glue, wasm: f.wasm, factory: f.factory };
    ready = start(msg.init);
    ready.catch((e) => {
      const err = e instanceof LoadError ? e : new LoadError(`engine/${files.wasm}`, describe(e), 'damaged');
      self.postMessage({ loadError: { file: err.file, reason: err.message, status: err.status, kind: err.kind } });
    });
    return;
  }
  if (msg.trapNext) {
    trapNext = true;
    return;
  }
  if (msg.fillMemoryBefore) {
    fillBefore = msg.fillMemoryBefore;
    return;
  }
  const { id, method, input } = msg;
  let m;
  try {
    if (!ready) throw new Error('the page sent no init message');
    m = await ready;
  } catch (e) {
    self.postMessage({ id, error: `the engine did not load (${describe(e)})`, unloaded: true });
    return;
  }
  call(m, id, method, input);
};
