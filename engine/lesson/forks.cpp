#include "engine/lesson/forks.hpp"

#include <set>
#include <stdexcept>

#include "engine/sim/simulation.hpp"

namespace idemlab {
namespace {

const IntentRow* final_row(const Run& run, const std::string& intent) {
  for (const IntentRow& r : run.steps.back().snap.intents) {
    if (r.intent == intent) return &r;
  }
  return nullptr;
}

}  // namespace

std::vector<ForkedRun> fork_runs(const PreparedLesson& p, int step, const std::optional<Action>& action) {
  std::vector<ForkedRun> out;
  std::set<int> done;
  for (auto [w, j] : p.knowledge->possible(Side::Client, step)) {
    if (!done.insert(w).second) continue;  // the first matching step of each world
    const World& world = p.worlds[w];
    out.emplace_back();
    ForkedRun& f = out.back();
    f.world = w;
    f.run = &world.run;
    if (action) {
      Action a = *action;
      a.after_step = j;
      f.forked = Simulation(p.lesson.scenario, world.plan, {a}).run();
    }
    if (static_cast<int>((action ? f.forked : world.run).steps.size()) >= Simulation::kMaxSteps) {
      throw std::invalid_argument("the run does not settle within " + std::to_string(Simulation::kMaxSteps) + " steps");
    }
  }
  // Pointers last: `out` no longer grows.
  for (ForkedRun& f : out) {
    if (action) f.run = &f.forked;
  }
  return out;
}

std::string final_status(const Run& run, const std::string& intent) {
  const IntentRow* r = final_row(run, intent);
  return r ? r->status : "NONE";
}

bool final_receipt(const Run& run, const std::string& intent) {
  const IntentRow* r = final_row(run, intent);
  return r && r->receipt.has_value();
}

L10n run_name(const World& world) {
  if (world.actual) {
    L10n plan = world.plan.describe();
    return {"这次运行本身（" + plan.zh + "）", "this run itself (" + plan.en + ")"};
  }
  if (world.plan.faults.empty()) return {"没有故障的运行", "the run with no fault"};
  L10n plan = world.plan.describe();
  return {"“" + plan.zh + "”的运行", "the run where " + plan.en};
}

}  // namespace idemlab
