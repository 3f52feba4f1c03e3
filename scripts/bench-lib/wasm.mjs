// Times the WebAssembly engine in node: `run` of lessons/lost-receipt.json repeated
// (wasm_runs_per_s), and the slowest lesson's `run` (knowledge_ms_max: a run computes
// every side's knowledge at every step).
// usage: node wasm.mjs SECONDS  ->  {"wasm_runs_per_s": x, "knowledge_ms_max": y, "knowledge_lesson": f}
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadEngine, REPO } from '../../tests/wasm/engine-node.mjs';

const seconds = Number(process.argv[2] || 2);
const engine = await loadEngine();
const input = (name) => JSON.stringify({
  file: `lessons/${name}`,
  text: readFileSync(resolve(REPO, 'lessons', name), 'utf8'),
});

function timeRun(text) {
  const start = performance.now();
  const out = engine.call('run', text);
  const ms = performance.now() - start;
  if (out.startsWith('{"error"') || out.startsWith('{"ok":false')) throw new Error(out.slice(0, 300));
  return ms;
}

const main = input('lost-receipt.json');
timeRun(main); // warm up
let runs = 0;
const start = performance.now();
while (performance.now() - start < seconds * 1000) {
  timeRun(main);
  runs += 1;
}
const wasmRunsPerS = runs / ((performance.now() - start) / 1000);

// Per lesson, the median of five timed runs after one warm-up; the slowest lesson counts.
let knowledgeMsMax = 0;
let knowledgeLesson = null;
const lessons = readdirSync(resolve(REPO, 'lessons'))
  .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json')).sort();
for (const name of lessons) {
  const text = input(name);
  timeRun(text);
  const times = Array.from({ length: 5 }, () => timeRun(text)).sort((a, b) => a - b);
  if (times[2] > knowledgeMsMax) [knowledgeMsMax, knowledgeLesson] = [times[2], name];
}
console.log(JSON.stringify({
  wasm_runs_per_s: wasmRunsPerS, knowledge_ms_max: knowledgeMsMax, knowledge_lesson: knowledgeLesson,
}));
