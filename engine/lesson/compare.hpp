#pragma once
// The side-by-side view of a lesson (docs/design.md, "What idemlab is": the same fault plan under two
// client policies, with an effect counter on each). The lesson's `compare` block names two
// policies; each is the lesson's scenario with some client and service knobs replaced,
// run once under the lesson's own fault plan. Shape: engine/api/API.md, `compare`.
#include <nlohmann/json.hpp>

#include "engine/lesson/prepared.hpp"

namespace idemlab {

/// Both timelines of `lesson`'s comparison, in the order the lesson lists the policies: per
/// policy its id, label, overrides and every step as `run` gives it (without knowledge):
/// virtual time in ms, the event, both sides' rows, and the observer's truth, whose
/// `by_intent` counts the effects of the lesson's first intent under every operation key it
/// used. The lesson must have a `compare` block (the API checks first; std::logic_error).
nlohmann::json compare_json(const PreparedLesson& lesson);

}  // namespace idemlab
