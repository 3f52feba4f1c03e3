#pragma once
// The `run` answer of the engine API: a prepared lesson as the JSON that front ends
// render (shape in engine/api/API.md). No answer is in it: answers come from `answer`.
// The lesson's view of its run: the timeline's steps (engine/timeline/) plus the lesson,
// its worlds, the knowledge grid and what each open question hides.
#include <nlohmann/json.hpp>

#include "engine/lesson/prepared.hpp"

namespace idemlab {

/// The whole timeline of the lesson's run: lesson view, worlds, messages and one step
/// per event with snapshot, truth, knowledge grid and invariants, and the run's verdict
/// (why it stopped, every violation).
nlohmann::json timeline_json(const PreparedLesson& lesson);

}  // namespace idemlab
