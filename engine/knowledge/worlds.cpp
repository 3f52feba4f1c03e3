#include "engine/knowledge/worlds.hpp"

#include <algorithm>
#include <set>

#include "engine/sim/simulation.hpp"

namespace idemlab {
namespace {

template <typename Point>
bool listed(const std::vector<Point>& points, Point p) {
  return std::find(points.begin(), points.end(), p) != points.end();
}

bool in_space(const Fault& f, const FaultSpace& space) {
  switch (f.kind) {
    case Fault::Kind::Drop: return space.lose_any_one_message;
    case Fault::Kind::CrashClient: return listed(space.client_crash_points, f.point);
    case Fault::Kind::CrashService: return listed(space.service_crash_points, f.service_point);
  }
  return false;
}

}  // namespace

std::vector<World> build_worlds(const Scenario& scenario, const std::vector<Action>& extra) {
  std::vector<World> worlds;
  std::set<std::string> seen;
  auto add = [&](const FaultPlan& plan, bool actual) {
    if (!seen.insert(plan.id()).second) return;
    World w;
    w.id = static_cast<int>(worlds.size());
    w.plan = plan;
    w.actual = actual;
    w.run = Simulation(scenario, plan, extra).run();
    worlds.push_back(std::move(w));
  };
  add(scenario.faults, true);
  add(FaultPlan{}, false);
  const World& fault_free = *std::find_if(worlds.begin(), worlds.end(),
                                          [](const World& w) { return w.plan.faults.empty(); });
  std::vector<Fault> points = fault_free.run.points;
  for (const Fault& point : points) {
    if (!in_space(point, scenario.space)) continue;
    FaultPlan plan;
    plan.faults.push_back(point);
    plan.faults.back().restart_after_ms = scenario.space.restart_after_ms;
    add(plan, false);
  }
  // What happened in this run plus any one fault more: a client that crashed must also
  // consider that, say, its request was lost before the crash.
  if (!scenario.faults.faults.empty()) {
    std::vector<Fault> passed = worlds.front().run.points;
    for (const Fault& point : passed) {
      if (!in_space(point, scenario.space)) continue;
      FaultPlan plan = scenario.faults;
      plan.faults.push_back(point);
      plan.faults.back().restart_after_ms = scenario.space.restart_after_ms;
      add(plan, false);
    }
  }
  return worlds;
}

}  // namespace idemlab
