#pragma once
// A run as JSON: its steps, messages and injection points, the parts of the engine API's
// answers (`run`, `compare`, the CLI) that know runs, not lessons. The lesson's view of a
// run (`run`'s whole answer) is engine/lesson/lesson_timeline.hpp.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "engine/faults/fault.hpp"
#include "engine/invariants/invariants.hpp"
#include "engine/sim/run.hpp"

namespace idemlab {

/// How the diagram draws an event of a kind whose row has glyph `g` (a step's
/// event.mark, vocabulary's events[].mark): {shape, look, tone, label: {zh-CN, en}} (the
/// credit's label when `credits`), or an empty object for the default dot.
nlohmann::json mark_json(const EventGlyph& g, bool credits);

/// Every message of a run, by id, as `run`'s "messages" (also each `compare` policy's).
/// A dropped message says why: "drop_reason": "fault" (the fault plan lost it in the
/// network) | "receiver_down" (it reached a process that had crashed: drawn arriving at a
/// dead process, not lost on the way).
nlohmann::json messages_json(const Run& run);

/// One step of a run as JSON without knowledge (used by the CLI and experiments too).
/// Its "invariants" are `verdict` (check_invariants(run), computed once per run) as of
/// that step.
nlohmann::json step_json(const Run& run, int step, const RunVerdict& verdict);

/// Every injection point the run passed, once each (its first pass: where a fault there
/// fires), as a target a front end can offer: where it lies, what a fault there does, and
/// whether the scenario's plan has it and it fired (`run`'s "targets").
nlohmann::json targets_json(const Run& run, const FaultPlan& plan, std::int64_t restart_after_ms);

}  // namespace idemlab
