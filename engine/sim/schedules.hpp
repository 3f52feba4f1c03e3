#pragma once
// Fault schedules: which faults can be added to a run, and when two plans are the same
// schedule. One enumeration, used by the knowledge fault space (engine/knowledge/worlds.cpp)
// and the explorer (engine/explore/explore.hpp), so both consider the same runs.
//
// A new fault is only ever placed at an injection point that the run with the earlier
// faults actually passed (Run::points): a fault elsewhere would never fire. Two plans are
// one schedule when the same faults fire (a planned fault at a point the run never
// reaches changes nothing), whatever the order they were listed in.
#include <memory>
#include <string>
#include <vector>

#include "engine/faults/fault.hpp"
#include "engine/scenario/scenario.hpp"
#include "engine/sim/node.hpp"
#include "engine/sim/run.hpp"

namespace idemlab {

/// Whether the space allows a fault of this kind.
bool in_space(const Fault& f, const FaultSpace& space);

/// A space holding every kind of fault: any message may be lost, either side may crash at
/// any of its points (restart after `restart_after_ms`).
FaultSpace every_fault(std::int64_t restart_after_ms = 50);

/// The faults that extend `plan`: one per injection point `run` passed, allowed by
/// `space`, not already in `plan`, each point once, in the order the run passed them;
/// crashes restart after space.restart_after_ms.
std::vector<Fault> next_faults(const Run& run, const FaultPlan& plan, const FaultSpace& space);

/// Whether `script` has a user's re-run (a `reapply` action): only then do the explorer
/// and the fuzzer place lost rows (Fault::Kind::LoseRow, docs/design.md "Explore").
bool has_rerun(const std::vector<Action>& script);

/// next_faults as a search (the explorer, the fuzzer) takes them from a run of a scenario
/// with `script`: without the lost rows no re-run in `script` answers. One is kept only
/// when the script reapplies its intent at a time after `run` first passed its point
/// (after the restart too, at not_saved). Without a re-run no client design can make the
/// row again: a search placing it would find forgotten_intent under every policy, which
/// says nothing about the policy.
std::vector<Fault> next_searched_faults(const Run& run, const FaultPlan& plan, const FaultSpace& space,
                                        const std::vector<Action>& script);
/// Whether every row `run` lost (a lose_row step) is followed in `run` by a re-run that
/// decides its intent anew. A fault placed later may undo it: a crash that swallows the
/// deliver leaves the re-run the first decision, a crash that spans the re-run leaves it
/// nothing to do. The explorer judges no schedule, and the fuzzer keeps no fault, where a
/// row lost is not answered so.
bool losses_answered(const Run& run);

/// The schedule of a run: the ids of the faults that fired, sorted, joined by ",".
std::string schedule_key(const Run& run);

/// For each of `faults`, which event of the simulation that made `run` first passed its
/// point (Run::PointWhere::work), or -1 when `run` never passed it.
std::vector<int> first_pass_works(const Run& run, const std::vector<Fault>& faults);

class Simulation;

/// The runs of a base plan with one fault more, each forked from one simulation of the
/// base plan paused just before the event that first passes the fault's point
/// (Simulation::fork_with_fault): the steps before it are simulated once for all of them,
/// not once per fault. Ask for them in the order the base run passes their points (the
/// order of next_faults); one asked out of that order, or whose point the base run never
/// passes (`work` < 0), is simulated from t = 0. Either way the run is the one
/// Simulation(scenario, base + fault, extra, nodes) gives.
class OneMoreFault {
 public:
  /// `scenario` must outlive this object; `nodes` builds the sides of every run.
  OneMoreFault(const Scenario& scenario, NodeFactory nodes, FaultPlan base, std::vector<Action> extra = {});
  ~OneMoreFault();
  OneMoreFault(const OneMoreFault&) = delete;
  OneMoreFault& operator=(const OneMoreFault&) = delete;
  /// `work`: first_pass_works' entry for `fault` in the base plan's run. `last`: no run is
  /// asked for after this one (the paused simulation is taken over, not copied).
  Run run(const Fault& fault, int work, bool last = false);

 private:
  const Scenario& scenario_;
  NodeFactory nodes_;
  FaultPlan base_;
  std::vector<Action> extra_;
  std::unique_ptr<Simulation> paused_;
};

}  // namespace idemlab
