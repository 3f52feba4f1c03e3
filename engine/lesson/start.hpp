#pragma once
// The sandbox's first screen for a lesson (lessons/README.md, "Sandbox start"; issue 33,
// "Start small"): the few knobs that decide the lesson (its `sandbox.focus`), presets the
// engine computes (the lesson's design, the right design, and an incident's reported
// design), and up to three first experiments whose goal the engine judges on the learner's
// own scenario. `check` and `answers` refuse a block whose example does not reach its goal,
// whose goal the lesson's own run already reaches, or whose right design breaks an
// invariant anywhere in the lesson's fault space.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/invariants/invariants.hpp"
#include "engine/lesson/lesson.hpp"
#include "engine/sim/run.hpp"

namespace idemlab {

/// Whether `run` (judged `verdict`) reaches `reach` (Experiment::reach): an invariant's name,
/// the run breaks it for some intent; "safe", the run settled and breaks nothing;
/// "survive", the same with at least one fault fired.
bool reaches(const std::string& reach, const Run& run, const RunVerdict& verdict);

/// The lesson's scenario with every knob judged wrong in it (Knob::setting_of, within the
/// scenario) moved to its right value (Knob::right_value); the other knobs, the script and
/// the fault plan as the lesson has them.
Scenario right_design(const Lesson& lesson);

/// What the sandbox's first screen shows (engine/api/API.md, `start`): {"focus": [paths],
/// "presets": [{"id": "lesson" | "incident" | "right", "label": L10n, "knobs": {"client",
/// "service", "provider"?, "timing"}, "current"?: bool}], "experiments": [{"goal": L10n,
/// "reached"?: bool}]}. With `attempt` (the learner's scenario, read without problems),
/// each preset says whether the attempt's knobs are its knobs, and each experiment whether
/// the attempt's run reaches its goal.
nlohmann::json start_view(const Lesson& lesson, const Scenario* attempt);

/// The problems of the lesson's `sandbox` block that need the simulation (empty without
/// one): an example whose faults do not all fire or whose run does not reach its goal (at
/// /sandbox/experiments/N/example), a goal the lesson's own run reaches already (at
/// /sandbox/experiments/N/reach), and a right design that breaks an invariant, or does not
/// settle, in a run of the lesson's fault space (at /sandbox).
std::vector<LessonProblem> start_problems(const Lesson& lesson);

}  // namespace idemlab
