// Times code mode's grade (issue 34) for every exercise (lessons/exercises/*.json) with its
// reference solution (tests/exercises/ID/reference.lua): natively through `idemlab grade`
// (the process's whole time, as a teacher runs it) and in the code module in node (the
// module the page's grading worker loads: the call's own time, the module already loaded).
// Medians of `repeats`; the schedules searched beside them. Also the code module's load in
// node (compile and instantiate), part of what a learner waits for at the first Check.
// And the sandbox in code mode: for each course scenario whose knobs the preset carries
// whole (engine `preset`), `run` (what an edit waits for) and `explore` at K = 2 with the
// knobs in the page's engine and with their preset code in the code module.
// usage: node grade.mjs IDEMLAB_CLI REPEATS
//   -> {"grades": [{"exercise": id, "schedules": n, "native_ms": ms, "wasm_ms": ms}],
//       "code_module_load_ms": ms,
//       "sandbox_code": [{"lesson": file, "run_knobs_ms", "run_code_ms", "explore_knobs_ms", "explore_code_ms"}]}
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadEngine, REPO } from '../../tests/wasm/engine-node.mjs';

const [cli, repeatsArg] = process.argv.slice(2);
const repeats = Number(repeatsArg || 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const loadStart = performance.now();
const engine = await loadEngine(resolve(REPO, 'dist/engine'), 'idemlab-code');
const loadMs = performance.now() - loadStart;

const grades = [];
for (const f of readdirSync(resolve(REPO, 'lessons/exercises')).filter((n) => n.endsWith('.json')).sort()) {
  const id = f.replace(/\.json$/, '');
  const file = resolve(REPO, 'lessons/exercises', f);
  const exercise = JSON.parse(readFileSync(file, 'utf8'));
  const solution = resolve(REPO, 'tests/exercises', id, 'reference.lua');
  const code = readFileSync(solution, 'utf8');
  const input = JSON.stringify({ exercise, code });
  const wasm = [];
  const native = [];
  let schedules = 0;
  for (let i = 0; i < repeats; i += 1) {
    let start = performance.now();
    const out = JSON.parse(engine.call('grade', input));
    wasm.push(performance.now() - start);
    if (!out.passed) throw new Error(`${id}: the reference does not pass: ${JSON.stringify(out).slice(0, 300)}`);
    schedules = out.schedules;
    start = performance.now();
    const r = spawnSync(cli, ['grade', file, solution], { encoding: 'utf8' });
    native.push(performance.now() - start);
    if (r.status !== 0) throw new Error(`${id}: idemlab grade: ${r.stderr}`);
  }
  grades.push({ exercise: id, schedules, native_ms: median(native), wasm_ms: median(wasm) });
}
// The sandbox in code mode, against the same scenario with knobs in the page's engine.
const page = await loadEngine(resolve(REPO, 'dist/engine'), 'idemlab');
const withCode = new Set(JSON.parse(page.call('vocabulary', '{}')).actions.filter((a) => a.with_code).map((a) => a.name));
const timed = (e, method, input) => {
  const xs = [];
  for (let i = 0; i < repeats; i += 1) {
    const start = performance.now();
    const out = JSON.parse(e.call(method, input));
    xs.push(performance.now() - start);
    if (out.error || out.ok === false) throw new Error(`${method}: ${JSON.stringify(out).slice(0, 300)}`);
  }
  return median(xs);
};
const sandboxCode = [];
for (const f of readdirSync(resolve(REPO, 'lessons')).filter((n) => n.endsWith('.json')).sort()) {
  const lesson = JSON.parse(readFileSync(resolve(REPO, 'lessons', f), 'utf8'));
  const scenario = lesson.scenario;
  if (!scenario || !(scenario.script || []).every((a) => withCode.has(a.do))) continue;
  scenario.client = { ...(scenario.client || {}), late_reply: 'discard' };
  const preset = JSON.parse(page.call('preset', JSON.stringify({ scenario })));
  if (preset.unexpressed.length) continue;
  const knobs = JSON.stringify({ scenario });
  const coded = JSON.stringify({ scenario: { ...scenario, code: preset.code } });
  sandboxCode.push({
    lesson: f.replace(/\.json$/, ''),
    run_knobs_ms: timed(page, 'run', knobs),
    run_code_ms: timed(engine, 'run', coded),
    explore_knobs_ms: timed(page, 'explore', knobs.replace(/}$/, ', "faults": 2}')),
    explore_code_ms: timed(engine, 'explore', coded.replace(/}$/, ', "faults": 2}')),
  });
}
console.log(JSON.stringify({ grades, code_module_load_ms: loadMs, sandbox_code: sandboxCode }));
