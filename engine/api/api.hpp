#pragma once
// The engine API: one set of functions behind both front ends, the CLI
// (engine/cli) and the WASM bindings (engine/bindings). Methods, input and output
// shapes: engine/api/API.md.
#include <string>

namespace idemlab::api {

/// Runs `method` ("check", "run", "answer", "answers", "compare", "explore", "scenario",
/// "challenge", "seed_lab", "seed_experiment", "simulate", "vocabulary")
/// on `input` (JSON text). Always returns JSON text and never throws: a failure is
/// {"error": {"file", "path", "reason"}}, an invalid lesson {"ok": false, "errors": [...]}.
/// Prepared lessons are cached by file name and text, the last used first, within
/// limits::kMaxPreparedCacheBytes as estimated, so `answer` after `run` does not simulate
/// again; a lesson larger than that is prepared for its call and freed after it.
std::string call(const std::string& method, const std::string& input);

/// Progress of a long call (today: `explore`), reported while it runs: the depth being
/// searched (1..max_faults), plans of that depth tried / planned, and distinct schedules
/// simulated so far. The WASM binding forwards it to JavaScript (Module.onProgress), so a
/// Web Worker can post it to the page. nullptr (the default) reports nothing.
using ProgressHook = void (*)(int depth, int max_faults, int done, int total, int schedules);
void set_progress_hook(ProgressHook hook);

}  // namespace idemlab::api
