#pragma once
// Grading the client's code (code mode, issue 34): an exercise (lessons/exercises/*.json,
// lessons/exercises/README.md) and a learner's code, judged as a model checker judges: the
// explorer (engine/explore/) runs every fault schedule of up to the exercise's K faults
// with the code as the client, and the invariants (engine/invariants/) judge each run. A
// pass is "no violation in N schedules of up to K faults": what was searched, not a proof.
// A failure carries the first counterexample (fewest faults, shrunk), whose scenario holds
// the code: `run` it to watch the run. An error in the code carries its kind, line and
// column, and the schedule (fewest faults) it happened in.
//
// The same function behind the page's `grade` call and `idemlab grade EXERCISE DIR`, so a
// file gets the same answer from both. It needs an engine with code mode (the client's
// factory set, engine/nodes/nodes.hpp): the CLI, the doctests and the page's second
// module; elsewhere it answers that code mode is not there.
#include <string>

#include <nlohmann/json.hpp>

#include "engine/scenario/reader.hpp"
#include "engine/scenario/scenario.hpp"
#include "engine/text/l10n.hpp"

namespace idemlab {

/// An exercise as its file gives it (lessons/exercises/README.md).
struct Exercise {
  std::string id;
  int level = 1;
  std::string after;  ///< the id of the lesson it follows ("" for none): its end card links here
  L10n title, task;
  Scenario scenario;
  int faults = 2;  ///< K: the faults per schedule the grade searches (1..3)
  std::string skeleton;
  std::vector<L10n> hints;
};

/// Reads an exercise object at `path`, every problem reported to `r` (never throws).
Exercise read_exercise(Reader& r, const nlohmann::json& j, const std::string& path);

/// Grades `code` on `exercise`, simulating at most `limit` schedules:
/// {"passed": bool, "faults": K, "schedules": N, "complete": bool, "text": L10n,
///  "error": null | {"kind", "line", "column", "reason": L10n, "faults": [Fault JSON],
///                   "fault_ids": [...], "plan": L10n, "scenario": S},
///  "counterexample": null | explore's counterexample ({"invariant", "intent", "step",
///                   "reason", "faults", "fault_ids", "plan", "scenario"})}
/// `passed` only when no schedule broke an invariant, none was inconclusive, the search
/// was complete, the code raised no error, and the code made progress: with no fault every
/// intent ends DELIVERED, and every schedule that settles ends every intent with a settled
/// row (DELIVERED, FAILED, CONFLICT) or one handed to a person (NEEDS_HUMAN). The
/// invariants judge safety only: a client that does nothing breaks none. A run that fails
/// progress comes back as the counterexample, with "requirement": "delivered" | "finished"
/// and "invariant": null.
nlohmann::json grade(const Exercise& exercise, const std::string& code, int limit);

}  // namespace idemlab
