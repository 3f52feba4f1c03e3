// Loads the built WebAssembly engine (dist/engine/idemlab.js + .wasm) in node and
// exposes the engine API as call(method, input) -> output, both JSON text.
// Used by the wasm tests and by scripts/bench.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// idemlab.js is Emscripten's MODULARIZE output, a classic script that defines
// createIdemlab. Run it as CommonJS whatever package.json says about module type.
function loadFactory(jsPath) {
  const wrapper = vm.runInThisContext(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(jsPath, 'utf8')}\n})`,
    { filename: jsPath });
  const module = { exports: {} };
  wrapper(module.exports, createRequire(jsPath), module, jsPath, dirname(jsPath));
  return module.exports;
}

export async function loadEngine(dir = resolve(REPO, 'dist/engine')) {
  const createIdemlab = loadFactory(resolve(dir, 'idemlab.js'));
  // Emscripten 3.1.6 would fetch() a file path under node 20: hand it the bytes instead.
  const mod = await createIdemlab({ wasmBinary: readFileSync(resolve(dir, 'idemlab.wasm')) });

  function withCString(text, use) {
    const size = mod.lengthBytesUTF8(text) + 1;
    const ptr = mod._malloc(size);
    try {
      mod.stringToUTF8(text, ptr, size);
      return use(ptr);
    } finally {
      mod._free(ptr);
    }
  }

  return {
    /** Bytes of the module's linear memory (it grows and never shrinks). */
    memoryBytes() {
      return mod.HEAP8.length;
    },
    call(method, input) {
      return withCString(method, (m) => withCString(input, (i) => {
        const out = mod._idemlab_call(m, i);
        try {
          return mod.UTF8ToString(out);
        } finally {
          mod._idemlab_free(out);
        }
      }));
    },
  };
}
