// The engine as served: dist/engine/idemlab.wasm, its JS glue idemlab.js and the Web
// Worker worker.js, in bytes as they are on disk and as a host sends them compressed.
// A file's precompressed copy beside it (FILE.br, FILE.gz, written by scripts/build) is
// what a host sends, so its size counts; a file without one is compressed here the same
// way (brotli quality 11, gzip level 9). Beside it, the code-mode module (the engine with
// Lua, issue 34: engine/idemlab-code.wasm and its glue), which a visit fetches on the first
// use of code mode only: code_wasm_bytes_* is its wasm, code_bytes_br the transfer it adds
// then (wasm + glue as brotli; the worker is the page's own).
// usage: node engine-size.mjs [DIST]  ->  {"engine_bytes_raw": n, "engine_bytes_gzip": n,
//                                         "engine_bytes_br": n, "engine_files": {file: {raw, gzip, br}},
//                                         "code_wasm_bytes_raw": n, "code_wasm_bytes_gzip": n,
//                                         "code_wasm_bytes_br": n, "code_bytes_br": n,
//                                         "code_files": {file: {raw, gzip, br}}}
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import zlib from 'node:zlib';
import { REPO } from '../../tests/wasm/engine-node.mjs';

const dist = resolve(REPO, process.argv[2] || 'dist');
const FILES = ['engine/idemlab.wasm', 'engine/idemlab.js', 'engine/worker.js'];
const CODE_FILES = ['engine/idemlab-code.wasm', 'engine/idemlab-code.js'];

function size(path, suffix, compress) {
  return existsSync(path + suffix) ? readFileSync(path + suffix).length : compress(readFileSync(path)).length;
}

function sizes(file) {
  const path = resolve(dist, file);
  return {
    raw: readFileSync(path).length,
    gzip: size(path, '.gz', (d) => zlib.gzipSync(d, { level: 9 })),
    br: size(path, '.br', (d) => zlib.brotliCompressSync(d, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })),
  };
}

const out = { engine_bytes_raw: 0, engine_bytes_gzip: 0, engine_bytes_br: 0, engine_files: {} };
for (const file of FILES) {
  const row = sizes(file);
  out.engine_files[file] = row;
  out.engine_bytes_raw += row.raw;
  out.engine_bytes_gzip += row.gzip;
  out.engine_bytes_br += row.br;
}
out.code_files = {};
out.code_bytes_br = 0;
for (const file of CODE_FILES) {
  const row = sizes(file);
  out.code_files[file] = row;
  out.code_bytes_br += row.br;
}
const codeWasm = out.code_files['engine/idemlab-code.wasm'];
out.code_wasm_bytes_raw = codeWasm.raw;
out.code_wasm_bytes_gzip = codeWasm.gzip;
out.code_wasm_bytes_br = codeWasm.br;
console.log(JSON.stringify(out));
