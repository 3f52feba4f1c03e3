// Loads the built WebAssembly engine (dist/engine/idemlab.js + .wasm, or the code-mode
// module idemlab-code.js + .wasm) in node and exposes the engine API as
// call(method, input) -> output, both JSON text.
// Used by the wasm tests and by scripts/bench.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { callModule } from '../../web/src/engine-abi.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// idemlab.js is Emscripten's MODULARIZE output, a classic script that defines
// createIdemlab (createIdemlabCode, ...). Run it as CommonJS whatever package.json says about
// module type.
export function loadFactory(jsPath) {
  const wrapper = vm.runInThisContext(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(jsPath, 'utf8')}\n})`,
    { filename: jsPath });
  const module = { exports: {} };
  wrapper(module.exports, createRequire(jsPath), module, jsPath, dirname(jsPath));
  return module.exports;
}

// name: 'idemlab' (the page's engine) or 'idemlab-code' (the engine with Lua, for code mode).
export async function loadEngine(dir = resolve(REPO, 'dist/engine'), name = 'idemlab') {
  const createModule = loadFactory(resolve(dir, `${name}.js`));
  // Emscripten 3.1.6 would fetch() a file path under node 20: hand it the bytes instead.
  const mod = await createModule({ wasmBinary: readFileSync(resolve(dir, `${name}.wasm`)) });

  return {
    /** Bytes of the module's linear memory (it grows and never shrinks). */
    memoryBytes() {
      return mod.HEAP8.length;
    },
    call(method, input) {
      return callModule(mod, method, input);
    },
    /** The module's own malloc and free: a test takes memory with them to bring the engine
     *  near its maximum (malloc answers 0 when it cannot). */
    malloc(bytes) {
      return mod._malloc(bytes);
    },
    free(ptr) {
      mod._free(ptr);
    },
  };
}
