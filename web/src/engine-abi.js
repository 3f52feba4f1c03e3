// The engine's two C functions (engine/bindings/wasm.cpp) as one JavaScript call: copy the
// method and the input (JSON text) into the module's memory, call idemlab_call, copy the
// answer (JSON text) out and release all three. Used by the page (web/src/engine.js), its
// Web Worker (web/src/worker/engine-worker.js) and the node tests (tests/wasm/engine-node.mjs),
// so all of them talk to the engine the same way.

function cString(m, text) {
  const size = m.lengthBytesUTF8(text) + 1;
  const ptr = m._malloc(size);
  if (!ptr) throw new Error('out of memory');
  m.stringToUTF8(text, ptr, size);
  return ptr;
}

/**
 * idemlab_call(method, inputText) on the Emscripten module `m`: the answer's text. Throws
 * what the module throws (a trap is a WebAssembly.RuntimeError), or an Error when the
 * engine returns no answer (its memory ran out).
 */
export function callModule(m, method, inputText) {
  let mp = 0;
  let ip = 0;
  let out = 0;
  try {
    mp = cString(m, method);
    ip = cString(m, inputText);
    out = m._idemlab_call(mp, ip);
    if (!out) throw new Error('the engine returned no result (out of memory)');
    return m.UTF8ToString(out);
  } finally {
    try {
      if (out) m._idemlab_free(out);
      if (mp) m._free(mp);
      if (ip) m._free(ip);
    } catch (_) {
      /* a module that trapped may fail here too: the error being thrown says why */
    }
  }
}
