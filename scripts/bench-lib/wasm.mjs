// Times the WebAssembly engine in node: the lost-response scenario simulated repeatedly
// through the API's `simulate` (wasm_runs_per_s: the same work `idemlab bench` times
// natively), and the slowest lesson's `run` from its text (knowledge_ms_max: every world of
// the fault space run and every side's knowledge at every step computed; the file name
// changes with each call so that the engine's cache of prepared lessons never answers).
// Per lesson it also reports the number of runs (worlds) in its fault space, beside that
// lesson's time.
// It also times `explore` at K = 2 (every schedule of up to two faults, each judged by the
// invariants) for every lesson; the lesson with the most schedules counts (explore_ms, the
// median of five calls, beside its schedule count).
// wasm_sql_runs_per_s: the SQL those runs execute, executed alone (simulate's sql_only), and
// wasm_run_over_sql the whole run's time over it.
// usage: node wasm.mjs SECONDS  ->  {"wasm_runs_per_s": x, "wasm_sql_runs_per_s": x2, "wasm_run_over_sql": r,
//                                    "knowledge_ms_max": y, "knowledge_lesson": f,
//                                    "lessons": [{"lesson": f, "worlds": n, "knowledge_ms": ms,
//                                                 "explore_schedules": n}],
//                                    "explore_ms": ms, "explore_lesson": f, "explore_schedules": n}
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadEngine, REPO } from '../../tests/wasm/engine-node.mjs';

const seconds = Number(process.argv[2] || 2);
const engine = await loadEngine();

let calls = 0;
const worlds = {};  // lesson file -> runs in its fault space
function timeRun(name) {
  calls += 1;
  const text = JSON.stringify({ file: `lessons/${calls}/${name}`, text: readFileSync(resolve(REPO, 'lessons', name), 'utf8') });
  const start = performance.now();
  const out = engine.call('run', text);
  const ms = performance.now() - start;
  if (out.startsWith('{"error"') || out.startsWith('{"ok":false')) throw new Error(out.slice(0, 300));
  worlds[name] = JSON.parse(out).worlds.length;
  return ms;
}

// The same runs' SQL alone (simulate's sql_only: the statements one run executes, executed
// by themselves), in turns with the whole runs so that the machine's load weighs on both.
const batch = 100;
const simulate = (sqlOnly) => {
  const start = performance.now();
  const out = JSON.parse(engine.call('simulate', JSON.stringify({ runs: batch, sql_only: sqlOnly })));
  if (out.runs !== batch) throw new Error(JSON.stringify(out));
  return performance.now() - start;
};
simulate(false); simulate(true); // warm up
let runs = 0;
let wholeMs = 0;
let sqlMs = 0;
while (wholeMs + sqlMs < 2 * seconds * 1000) {
  wholeMs += simulate(false);
  sqlMs += simulate(true);
  runs += batch;
}
const wasmRunsPerS = runs / (wholeMs / 1000);
const wasmSqlRunsPerS = runs / (sqlMs / 1000);

// Per lesson, the median of seven timed runs; the slowest lesson counts.
let knowledgeMsMax = 0;
let knowledgeLesson = null;
const perLesson = [];
const lessons = readdirSync(resolve(REPO, 'lessons'))
  .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json')).sort();
// Warm up first: V8 runs new WASM code on its baseline compiler until it tiers up.
for (let i = 0; i < 3; i += 1) lessons.forEach(timeRun);
for (const name of lessons) {
  const times = Array.from({ length: 7 }, () => timeRun(name)).sort((a, b) => a - b);
  perLesson.push({ lesson: name, worlds: worlds[name], knowledge_ms: times[3] });
  if (times[3] > knowledgeMsMax) [knowledgeMsMax, knowledgeLesson] = [times[3], name];
}
// Explore at K = 2: the schedule count of each lesson, then the largest one timed.
function explore(name) {
  calls += 1;
  const text = JSON.stringify({ file: `lessons/${calls}/${name}`, text: readFileSync(resolve(REPO, 'lessons', name), 'utf8'), faults: 2 });
  const start = performance.now();
  const out = JSON.parse(engine.call('explore', text));
  const ms = performance.now() - start;
  if (out.error || out.ok === false) throw new Error(JSON.stringify(out).slice(0, 300));
  return { ms, schedules: out.schedules };
}
let largest = null;
for (const row of perLesson) {
  row.explore_schedules = explore(row.lesson).schedules;
  if (!largest || row.explore_schedules > largest.explore_schedules) largest = row;
}
const exploreTimes = Array.from({ length: 5 }, () => explore(largest.lesson).ms).sort((a, b) => a - b);
console.log(JSON.stringify({
  wasm_runs_per_s: wasmRunsPerS, wasm_sql_runs_per_s: wasmSqlRunsPerS, wasm_run_over_sql: wasmSqlRunsPerS / wasmRunsPerS,
  knowledge_ms_max: knowledgeMsMax, knowledge_lesson: knowledgeLesson,
  lessons: perLesson,
  explore_ms: exploreTimes[2], explore_lesson: largest.lesson, explore_schedules: largest.explore_schedules,
}));
