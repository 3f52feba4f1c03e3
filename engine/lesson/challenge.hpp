#pragma once
// Challenges (lessons/README.md, "Challenges"): a lesson's closing exercise, checked by the
// engine. `break`: place at most N faults until the run breaks the named invariant.
// `fix`: change at most N knobs until the explorer (engine/explore/) finds no violation in
// any schedule of up to K faults. Safety is the invariants' (engine/invariants/), and the
// knobs are the knob table's (engine/scenario/knobs.hpp): nothing here judges or lists
// them again.
#include <nlohmann/json.hpp>

#include "engine/lesson/lesson.hpp"

namespace idemlab {

/// What `check` found for a challenge: the start with a solution applied.
struct ChallengeSolution {
  Scenario scenario;  ///< break: the start with the faults found; fix: with the changes found
  /// fix: [{"knob": "client.key_scope", "from": "attempt", "to": "intent"}], table order
  nlohmann::json changes = nlohmann::json::array();
  /// {"solution": S, "faults": [Fault JSON]} (break) or {"solution": S, "changes": [...]}
  /// (fix), S as `write_scenario` writes it: what `answers` prints.
  nlohmann::json to_json() const;
};

/// Checks that `lesson`'s challenge (it must have one) is neither solved at its start nor
/// without a solution, and returns the solution found. Break: the start with no fault must
/// not break the goal, and the explorer at K = max_faults must find a schedule that does.
/// Fix: the explorer at K must find a violation at the start, and some change of at most
/// max_changes allowed knobs (searched one knob first, each knob's right setting first, at
/// most limits::kMaxFixCandidates candidates) must leave none, and no schedule unsettled.
/// A search (the break's, the fix's from its start) with an inconclusive schedule (stopped
/// at a limit before it settled: ExploreResult::inconclusive) is refused too. Throws
/// LessonError with paths under /challenge otherwise.
ChallengeSolution solve_challenge(const Lesson& lesson);

/// The challenge as `run` shows it (engine/api/API.md, `run`): {"kind", "prompt", "goal",
/// "goal_text", "max_faults" | "max_changes", "faults" and "knobs" (fix), "hint",
/// "scenario": the start as `write_scenario` writes it}.
nlohmann::json challenge_view(const Challenge& c);

/// Judges a learner's attempt at `lesson`'s challenge (it must have one): `attempt` is a
/// whole scenario object. Returns {"solved", "allowed", "text": L10n, "changes", "faults",
/// and "violations" (break) or "explore" (fix)}; see engine/api/API.md, `challenge`.
/// Throws LessonError, at paths under /attempt, when `attempt` is not a valid scenario.
nlohmann::json judge_attempt(const Lesson& lesson, const nlohmann::json& attempt);

// The work of solve_challenge and judge_attempt, which throws nothing (compiled without
// unwinding in the WASM build: CMakeLists.txt); the two throw from engine/lesson/errors.cpp.
/// solve_challenge's search: true with the solution in `out`, or false with the reason in `why`.
bool find_challenge_solution(const Lesson& lesson, ChallengeSolution& out, LessonProblem& why);
/// Reads a learner's attempt (a scenario object) into `a`, its problems into `r`: false when any.
bool read_attempt(Reader& r, const nlohmann::json& attempt, Scenario& a);
/// judge_attempt on an attempt read without problems.
nlohmann::json judge_read_attempt(const Lesson& lesson, const Scenario& a);

}  // namespace idemlab
