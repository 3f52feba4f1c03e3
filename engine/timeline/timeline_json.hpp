#pragma once
// The `run` answer of the engine API: a prepared lesson as the JSON that front ends
// render (shape in engine/api/API.md). No answer is in it: answers come from `answer`.
#include <nlohmann/json.hpp>

#include "engine/invariants/invariants.hpp"
#include "engine/lesson/prepared.hpp"

namespace idemlab {

/// The whole timeline of the lesson's run: lesson view, worlds, messages and one step
/// per event with snapshot, truth, knowledge grid and invariants, and the run's verdict
/// (why it stopped, every violation).
nlohmann::json timeline_json(const PreparedLesson& lesson);

/// Every message of a run, by id, as `run`'s "messages" (also each `compare` policy's).
nlohmann::json messages_json(const Run& run);

/// One step of a run as JSON without knowledge (used by the CLI and experiments too).
/// Its "invariants" are `verdict` (check_invariants(run), computed once per run) as of
/// that step.
nlohmann::json step_json(const Run& run, int step, const RunVerdict& verdict);

}  // namespace idemlab
