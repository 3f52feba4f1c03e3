#include "engine/knowledge/worlds.hpp"

#include <algorithm>
#include <set>

#include "engine/sim/schedules.hpp"
#include "engine/nodes/nodes.hpp"

namespace idemlab {
namespace {
FaultPlan without(const FaultPlan& plan, std::size_t i) {
  FaultPlan rest = plan;
  rest.faults.erase(rest.faults.begin() + static_cast<std::ptrdiff_t>(i));
  return rest;
}

bool crashes(const FaultPlan& plan) {
  return std::any_of(plan.faults.begin(), plan.faults.end(),
                     [](const Fault& f) { return f.kind != Fault::Kind::Drop && f.kind != Fault::Kind::ConnectError; });
}
}  // namespace

std::vector<World> build_worlds(const Scenario& scenario, const std::vector<Action>& extra, FaultSpaceSize* known) {
  if (!extra.empty()) known = nullptr;
  // A run fault_space_size made already, taken over once.
  auto take = [](std::optional<Run>& run) {
    Run out = std::move(*run);
    run.reset();
    return out;
  };
  std::vector<World> worlds;
  std::set<std::string> seen;
  // Two plans are the same world when the same faults fire: a fault at a point the run
  // never reaches (the response to a request that was lost) changes nothing.
  auto add = [&](const FaultPlan& plan, bool actual, Run* ready = nullptr) {
    if (!actual && seen.count(plan.id())) return;
    World w;
    if (ready) {
      w.run = std::move(*ready);
    } else if (known && known->own && actual) {
      w.run = take(known->own);
    } else if (known && known->fault_free && plan.faults.empty()) {
      w.run = take(known->fault_free);
    } else {
      w.run = simulate(scenario, plan, extra);
    }
    FaultPlan fired;
    fired.faults = w.run.fired;
    if (!seen.insert(schedule_key(w.run)).second && !actual) return;
    seen.insert(plan.id());
    w.id = static_cast<int>(worlds.size());
    w.plan = actual ? plan : fired;
    w.actual = actual;
    // Kept for as long as the lesson is: without the room its steps grew into (a third of
    // the steps' storage, which is most of a lesson's memory).
    w.run.steps.shrink_to_fit();
    worlds.push_back(std::move(w));
  };

  add(scenario.faults, true);
  add(FaultPlan{}, false);
  // The run where nothing fails (world 0 itself when none of its faults fired).
  const World& fault_free = *std::find_if(worlds.begin(), worlds.end(),
                                          [](const World& w) { return w.run.fired.empty(); });
  // `base` plus each fault of `faults` (in the order `base_run` passes their points).
  auto add_one_more = [&](const FaultPlan& base, const Run& base_run, const std::vector<Fault>& faults) {
    std::vector<Fault> fresh;
    std::vector<FaultPlan> plans;
    for (const Fault& f : faults) {
      FaultPlan plan = base;
      plan.faults.push_back(f);
      if (seen.count(plan.id())) continue;
      fresh.push_back(f);
      plans.push_back(std::move(plan));
    }
    // Simulated before any is added (`base_run` may be a world's), forked from one paused
    // run of `base` (sim/schedules.hpp).
    std::vector<int> works = first_pass_works(base_run, fresh);
    std::vector<Run> runs;
    OneMoreFault forks(scenario, &standard_nodes, base, extra);
    for (std::size_t i = 0; i < fresh.size(); ++i) runs.push_back(forks.run(fresh[i], works[i], i + 1 == fresh.size()));
    for (std::size_t i = 0; i < plans.size(); ++i) add(plans[i], false, &runs[i]);
  };
  add_one_more(FaultPlan{}, fault_free.run, next_faults(fault_free.run, FaultPlan{}, scenario.space));
  // When this run's own faults crash a process, what happened plus any one fault more: a
  // client that crashed and forgot must also consider that, say, its request was lost
  // before the crash. (A process that did not crash remembers what it saw, and the runs
  // with one fault already hold what it must consider.)
  if (crashes(scenario.faults)) {
    add_one_more(scenario.faults, worlds.front().run, next_faults(worlds.front().run, scenario.faults, scenario.space));
  }
  // When this run has several faults, each of them may have been another one: with one
  // fault taken out, any one fault more. Otherwise the runs with one fault cannot look
  // like this one, and a side would "know" by elimination what it never saw (a lost
  // response then a refused connection looks, to the client, just like a lost request
  // then a refused connection).
  for (std::size_t i = 0; scenario.faults.faults.size() > 1 && i < scenario.faults.faults.size(); ++i) {
    FaultPlan rest = without(scenario.faults, i);
    Run run = simulate(scenario, rest, extra);
    add_one_more(rest, run, next_faults(run, rest, scenario.space));
  }
  return worlds;
}

FaultSpaceSize fault_space_size(const Scenario& scenario) {
  FaultSpaceSize out;
  out.fault_free = simulate(scenario, FaultPlan{});
  std::size_t n = 2 + next_faults(*out.fault_free, FaultPlan{}, scenario.space).size();
  if (crashes(scenario.faults)) {
    out.own = simulate(scenario, scenario.faults);
    n += next_faults(*out.own, scenario.faults, scenario.space).size();
  }
  for (std::size_t i = 0; scenario.faults.faults.size() > 1 && i < scenario.faults.faults.size(); ++i) {
    FaultPlan rest = without(scenario.faults, i);
    n += 1 + next_faults(simulate(scenario, rest), rest, scenario.space).size();
  }
  out.plans = static_cast<int>(n);
  out.fault_free_steps = static_cast<int>(out.fault_free->steps.size());
  return out;
}

L10n run_name(const World& world) {
  if (world.actual) {
    L10n plan = world.plan.describe(world.run.credits);
    return {"这次运行本身（" + plan.zh + "）", "this run itself (" + plan.en + ")"};
  }
  if (world.plan.faults.empty()) return {"没有故障的运行", "the run with no fault"};
  L10n plan = world.plan.describe(world.run.credits);
  return {"“" + plan.zh + "”的运行", "the run where " + plan.en};
}

}  // namespace idemlab
