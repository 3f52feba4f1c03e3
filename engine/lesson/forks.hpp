#pragma once
// Running on from a question's moment in every run the client cannot tell apart there
// (lessons/README.md): the runs predict and choose questions are
// answered over. At the moment the client has seen the same events in each of them, so
// whatever it does next, it does in all of them.
#include <optional>
#include <string>
#include <vector>

#include "engine/lesson/prepared.hpp"

namespace idemlab {

/// One run of the fault space, run on to its end from the question's moment.
struct ForkedRun {
  int world = 0;  ///< index into PreparedLesson::worlds (its plan names the run)
  Run forked;     ///< the run with the action (empty without one)
  const Run* run = nullptr;  ///< the run to judge: &forked, or the world's own run
  int from_step = 0;         ///< the step of `run` that matches the question's moment
};

/// For each world the client cannot tell apart from the lesson's own run at `step`
/// (Knowledge::possible; world 0, the lesson's own run, first), the run on from the
/// matching step: with `action` performed right after it, or as it goes on by itself when
/// `action` is empty. When a run does not settle within Simulation::kMaxSteps steps,
/// `unsettled` says so and the runs are not all there (the lesson is refused).
std::vector<ForkedRun> fork_runs(const PreparedLesson& p, int step, const std::optional<Action>& action,
                                 std::string& unsettled);

/// fork_runs for each of `actions` (the result's [k] for actions[k]): every world is
/// simulated once up to its matching step, and each action's run forks from there
/// (Simulation::fork) instead of simulating that prefix again.
std::vector<std::vector<ForkedRun>> fork_runs(const PreparedLesson& p, int step,
                                              const std::vector<std::optional<Action>>& actions, std::string& unsettled);

/// The first status the client records for the intent after step `from` of `run`
/// ("NONE" if it records none): what a timeout, a reply or a lookup makes it write next.
std::string next_status(const Run& run, int from, const std::string& intent);

/// How many different operation keys the intent's requests carried over the whole run.
int keys_used(const Run& run, const std::string& intent);

/// How many requests (attempts, not lookups) the client sent for the intent in the run.
int requests_sent(const Run& run, const std::string& intent);

/// The intent's status in the client's `intents` table at the run's last step, or "NONE"
/// when the client has no row for it.
std::string final_status(const Run& run, const std::string& intent);

/// Whether the client's row for the intent holds a receipt at the run's last step.
bool final_receipt(const Run& run, const std::string& intent);

}  // namespace idemlab
