// Loads the built WebAssembly engine (dist/engine/idemlab.js + .wasm) in node and
// exposes the engine API as call(method, input) -> output, both JSON text.
// Used by the wasm tests and by scripts/bench.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { callModule } from '../../web/src/engine-abi.js';

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

// `name`: 'idemlab' (the page's engine) or 'idemlab-code' (the code module, issue 34).
export async function loadEngine(dir = resolve(REPO, 'dist/engine'), name = 'idemlab') {
  const createIdemlab = loadFactory(resolve(dir, `${name}.js`));
  // Emscripten 3.1.6 would fetch() a file path under node 20: hand it the bytes instead.
  const mod = await createIdemlab({ wasmBinary: readFileSync(resolve(dir, `${name}.wasm`)) });

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
