// The engine in a Web Worker (dist/engine/worker.js, next to idemlab.js and idemlab.wasm):
// long calls (explore, a challenge's check) run here, so the page keeps answering input.
// Messages in:  {id, method, input}               (input: an object, sent as JSON text)
// Messages out: {id, progress: {depth, max_faults, done, total, schedules}}  while it runs
//               {id, output: "<JSON text>"}                                   when done
//               {id, error: "<reason>"}          the engine could not answer (not loaded,
//                                                 trapped); the page names it in words
// One call at a time; a call is cancelled by terminating the worker (the page then
// starts a new one when it needs it).
// In the offline copy (web/src/bundled.js) the worker is a blob: the engine's glue, then
// this code; its first message is {init: {wasm: <the engine's bytes>}}.

/* global createIdemlab, importScripts */

import { callModule } from '../engine-abi.js';

let current = null; // the id of the call running, for progress

async function start(bytes) {
  if (typeof createIdemlab !== 'function') importScripts('idemlab.js');
  let wasmBinary = bytes;
  if (!wasmBinary) {
    const res = await fetch('idemlab.wasm');
    if (!res.ok) throw new Error(`engine/idemlab.wasm: HTTP ${res.status}`);
    wasmBinary = await res.arrayBuffer();
  }
  return createIdemlab({
    wasmBinary,
    print: () => {},
    printErr: () => {},
    onProgress: (p) => {
      if (current !== null) self.postMessage({ id: current, progress: p });
    },
  });
}

// Served: load at once. From a blob that carries the glue: wait for the bytes.
let ready = typeof createIdemlab === 'function' ? null : start(null);

self.onmessage = async (ev) => {
  const { id, method, input, init } = ev.data || {};
  if (init) {
    ready = start(init.wasm);
    ready.catch(() => {}); // said at the first call
    return;
  }
  let m;
  try {
    if (!ready) throw new Error('no engine bytes were sent');
    m = await ready;
  } catch (e) {
    self.postMessage({ id, error: `the engine did not load in the worker (${(e && e.message) || e})` });
    return;
  }
  current = id;
  try {
    self.postMessage({ id, output: callModule(m, method, JSON.stringify(input)) });
  } catch (e) {
    self.postMessage({ id, error: `${method}: ${(e && e.message) || e}` });
  } finally {
    current = null;
  }
};
