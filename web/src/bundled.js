// The offline copy (dist/idemlab-offline.html, one file that works from file://, written
// by scripts/lib/site-extras.mjs): the files the served site fetches are in the page
// itself, as data blocks the browser never runs:
//   <script type="application/json" id="idemlab-files">  {"lessons/index.json": "<text>", ...,
//                                                          "engine/worker.js": "<text>"}
//   <script type="application/octet-stream" id="idemlab-wasm">  the engine, base64
//   <script type="text/plain" id="idemlab-engine">  the engine's JS glue (createIdemlab), run
//                                                          only in the engine's worker
// On the served site none of these exist and every function here answers null.

let files;
let wasm;
let workerUrl;

export function isOfflineCopy() {
  return !!document.getElementById('idemlab-files');
}

function fileMap() {
  if (files === undefined) {
    const el = document.getElementById('idemlab-files');
    files = el ? JSON.parse(el.textContent) : null;
  }
  return files;
}

/** A file of the site by its path ("lessons/index.json"): its text, null when the copy lacks it, undefined on the served site. */
export function bundledFile(path) {
  const map = fileMap();
  if (!map) return undefined;
  return Object.prototype.hasOwnProperty.call(map, path) ? map[path] : null;
}

/** The engine's WebAssembly bytes as base64 text (the worker decodes them), or null on the served site. */
export function bundledWasmBase64() {
  if (wasm === undefined) {
    const el = document.getElementById('idemlab-wasm');
    wasm = el ? el.textContent.trim() : null;
  }
  return wasm;
}

/**
 * A blob: URL of the engine's worker (its JS glue, then its own bundled code), or null on
 * the served site. The worker gets the engine's bytes (base64) in its first message.
 */
export function bundledWorkerUrl() {
  if (workerUrl === undefined) {
    const glue = document.getElementById('idemlab-engine');
    const code = bundledFile('engine/worker.js');
    workerUrl = glue && code ? URL.createObjectURL(new Blob([glue.textContent, '\n', code], { type: 'text/javascript' })) : null;
  }
  return workerUrl;
}
