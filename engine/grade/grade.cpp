#include "engine/grade/grade.hpp"

#include <set>

#include "engine/explore/explore.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/scenario/limits.hpp"
#include "engine/scenario/scenario_json.hpp"
#include "engine/sim/code_fault.hpp"
#include "engine/sim/schedules.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

// The first schedule (fewest faults, in the explorer's order) whose run the code fails
// in, searched again once a search met the error (the explorer keeps no note of where).
// Sets `fault` to its error; the plan, or nullopt when no schedule of up to K faults
// fails (the error then came from a run the search alone made: it is reported without
// a schedule).
std::optional<FaultPlan> failing_schedule(const Scenario& scenario, int k, CodeFault& fault) {
  FaultSpace space = every_fault(scenario.space.restart_after_ms);
  std::vector<FaultPlan> depth{FaultPlan{}};
  std::set<std::string> seen;
  for (int d = 0; d <= k && !depth.empty(); ++d) {
    std::vector<FaultPlan> next;
    for (const FaultPlan& plan : depth) {
      Run run;
      try {
        run = simulate(scenario, plan);
      } catch (const CodeFault& f) {
        fault = f;
        return plan;
      }
      if (d == k) continue;
      for (const Fault& f : next_searched_faults(run, plan, space, scenario.script)) {
        FaultPlan child = plan;
        child.faults.push_back(f);
        if (seen.insert(child.id()).second) next.push_back(std::move(child));
      }
    }
    depth = std::move(next);
  }
  return std::nullopt;
}

json error_json(const CodeFault& fault, const Scenario& scenario, const std::optional<FaultPlan>& plan) {
  json e = fault.to_json();
  if (plan) {
    Scenario shown = scenario;
    shown.faults = *plan;
    e["faults"] = write_plan(*plan);
    json ids = json::array();
    for (const Fault& f : plan->faults) ids.push_back(f.id());
    e["fault_ids"] = std::move(ids);
    e["plan"] = plan->describe().to_json();
    e["scenario"] = write_scenario(shown);
  } else {
    e["faults"] = nullptr;
    e["fault_ids"] = nullptr;
    e["plan"] = nullptr;
    e["scenario"] = nullptr;
  }
  return e;
}

L10n error_text(const CodeFault& fault) {
  return {"代码没能运行完：" + fault.reason.zh, "The code did not run through: " + fault.reason.en};
}

}  // namespace

Exercise read_exercise(Reader& r, const json& j, const std::string& path) {
  Exercise ex;
  if (!r.object(j, path, {"$schema", "id", "level", "title", "task", "scenario", "faults", "skeleton", "hints"})) return ex;
  ex.id = r.string(j, path, "id", true);
  ex.level = static_cast<int>(r.integer(j, path, "level", false, 1, 1, 3));
  ex.title = r.text(j, path, "title", true);
  ex.task = r.text(j, path, "task", true);
  ex.faults = static_cast<int>(r.integer(j, path, "faults", false, 2, 1, limits::kMaxExploreFaults));
  ex.skeleton = r.string(j, path, "skeleton", true);
  if (ex.skeleton.size() > limits::kMaxCodeBytes) r.problem(Reader::at(path, "skeleton"), "longer than 16 KiB");
  if (const json* hints = r.bounded_array(j, path, "hints", false, 8)) {
    for (std::size_t i = 0; i < hints->size(); ++i) ex.hints.push_back(r.text_value((*hints)[i], Reader::at(Reader::at(path, "hints"), i)));
  }
  if (const json* sc = r.field(j, path, "scenario", true)) {
    std::set<std::string> intents;
    read_scenario(r, *sc, Reader::at(path, "scenario"), ex.scenario, intents);
    if (!ex.scenario.code.empty()) {
      r.problem(Reader::at(Reader::at(path, "scenario"), "code"), "an exercise's scenario holds no code: the learner's code is graded on it");
    }
  }
  return ex;
}

json grade(const Exercise& exercise, const std::string& code, int limit) {
  json out = json::object();
  out["passed"] = false;
  out["faults"] = exercise.faults;
  out["schedules"] = 0;
  out["complete"] = false;
  out["error"] = nullptr;
  out["counterexample"] = nullptr;
  if (!code_client_factory()) {
    CodeFault none("unavailable", 0, 0, {"这个引擎没有代码模式", "this engine has no code mode"});
    out["error"] = error_json(none, exercise.scenario, std::nullopt);
    out["text"] = error_text(none).to_json();
    return out;
  }
  Scenario scenario = exercise.scenario;
  scenario.code = code.empty() ? std::string("-- (no code)\n") : code;
  scenario.faults = FaultPlan{};
  ExploreLimits limits;
  limits.max_faults = exercise.faults;
  limits.max_schedules = limit;
  ExploreResult result;
  try {
    result = explore(scenario, limits);
  } catch (const CodeFault& fault) {
    CodeFault found = fault;
    std::optional<FaultPlan> plan;
    // A code that does not load fails before any schedule: no schedule to name.
    if (fault.kind != "syntax") plan = failing_schedule(scenario, exercise.faults, found);
    out["error"] = error_json(found, scenario, plan);
    out["text"] = error_text(found).to_json();
    return out;
  }
  out["schedules"] = result.schedules;
  out["complete"] = result.complete;
  out["text"] = result.text().to_json();
  if (!result.counterexamples.empty()) out["counterexample"] = result.counterexamples.front().to_json(scenario);
  out["passed"] = result.clean();
  return out;
}

}  // namespace idemlab
