#pragma once
// The possible worlds of a lesson: its own run plus one run per fault plan of its fault
// space (docs/design.md, "What each side knows"). World 0 is always the lesson's own run.
#include <optional>
#include <vector>

#include "engine/sim/run.hpp"
#include "engine/scenario/scenario.hpp"
#include "engine/text/l10n.hpp"

namespace idemlab {

struct World {
  int id = 0;
  FaultPlan plan;
  Run run;
  bool actual = false;
};

/// Runs `scenario` under its own fault plan (world 0), then with no fault, then with each
/// single fault of `scenario.space` at an injection point the fault-free run passes
/// (a message it sends, a crash point it reaches), then, when the lesson's own faults
/// include a crash, with those faults plus one fault of the space at a point its own run
/// passes (a restarted process has forgotten what it saw before the crash). Plans already run are not repeated.
/// `extra` actions (a fork) are added to every world.
struct FaultSpaceSize;
/// `known`: the runs fault_space_size(scenario) made, taken over rather than run again
/// (only without `extra`).
std::vector<World> build_worlds(const Scenario& scenario, const std::vector<Action>& extra = {},
                                FaultSpaceSize* known = nullptr);

/// How many plans build_worlds(scenario) runs, at most (before plans whose fired faults
/// coincide are merged), and the steps of the run with no fault: found with two runs, so
/// that a fault space too large to build is refused before it is built. The runs are kept
/// for build_worlds.
struct FaultSpaceSize {
  int plans = 0;
  int fault_free_steps = 0;
  std::optional<Run> fault_free;  ///< the run with no fault
  std::optional<Run> own;         ///< the run under scenario.faults, when they crash a process
};
FaultSpaceSize fault_space_size(const Scenario& scenario);

/// "the run where <plan>" / "“<plan>”的运行"; for world 0 "this run itself (<plan>)";
/// for the plan without faults "the run with no fault".
L10n run_name(const World& world);

}  // namespace idemlab
