#include "engine/grade/grade.hpp"

#include <algorithm>
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

// The statuses a client may end an intent with: settled, or handed to a person. PENDING,
// UNKNOWN or no row at all at the end of a settled run is work the code left undone.
bool finished(const std::string& status) {
  return status == status::kDelivered || status == status::kFailed || status == status::kConflict ||
         status == status::kNeedsHuman;
}

// The intents of `run` the code left unfinished, as "intent (STATUS)"; with `delivered`,
// also those that did not end DELIVERED (the run with no fault: nothing stood in the way).
std::vector<std::pair<std::string, std::string>> unfinished(const Scenario& scenario, const Run& run, bool delivered) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Action& a : scenario.script) {
    if (a.kind != ActionKind::Deliver) continue;
    std::string status = "NONE";
    for (const IntentRow& r : run.steps.back().snap.intents) {
      if (r.intent == a.intent) status = r.status;
    }
    // No row in a run with faults: the user's deliver reached a crashed client, which never
    // heard of it (an effect without a row is the invariants' forgotten_intent).
    if (delivered ? status != status::kDelivered : status != "NONE" && !finished(status)) out.emplace_back(a.intent, status);
  }
  return out;
}

// The progress a grade asks for besides safety (the invariants judge safety only, and a
// client that does nothing, or records UNKNOWN and stops, breaks none): with no fault every
// intent ends DELIVERED, and in every schedule that settles every intent ends with a
// settled row (DELIVERED, FAILED, CONFLICT) or one handed to a person (NEEDS_HUMAN). The
// first schedule (fewest faults) where it does not, as explore's counterexamples are
// shaped, with "requirement" in place of "invariant"; null when it holds.
json progress_failure(const Scenario& scenario, const ExploreResult& result) {
  std::vector<FaultPlan> plans{FaultPlan{}};
  for (const OutcomeClass& o : result.outcomes) plans.push_back(o.example);
  std::stable_sort(plans.begin() + 1, plans.end(),
                   [](const FaultPlan& a, const FaultPlan& b) { return a.faults.size() < b.faults.size(); });
  for (std::size_t i = 0; i < plans.size(); ++i) {
    Run run = simulate(scenario, plans[i]);
    if (run.stop != StopReason::Settled) continue;  // inconclusive: explore counts it
    auto left = unfinished(scenario, run, i == 0);
    if (left.empty()) continue;
    const auto& [intent, status] = left.front();
    Scenario shown = scenario;
    shown.faults = plans[i];
    json c = json::object();
    c["requirement"] = i == 0 ? "delivered" : "finished";
    c["invariant"] = nullptr;
    c["intent"] = intent;
    c["step"] = static_cast<int>(run.steps.size()) - 1;
    std::string zh = status == "NONE" ? "没有记录" : "停在 " + status;
    std::string en = status == "NONE" ? "has no row" : "ends as " + status;
    c["reason"] = (i == 0 ? L10n{"没有任何故障，" + intent + " 却" + zh + "：代码要把事情做成（DELIVERED）",
                                 "with no fault at all, " + intent + " " + en + ": the code must get the work done (DELIVERED)"}
                          : L10n{"运行结束时 " + intent + " 还停在 " + status + "：客户端不再做任何事，用户永远不知道结果；要么查清楚，要么交给人处理（NEEDS_HUMAN）",
                                 "when the run ends, " + intent + " is still " + status + ": the client does nothing more and the user never learns the outcome; find it out, or hand it to a person (NEEDS_HUMAN)"})
                      .to_json();
    c["faults"] = write_plan(plans[i]);
    json ids = json::array();
    for (const Fault& f : plans[i].faults) ids.push_back(f.id());
    c["fault_ids"] = std::move(ids);
    c["plan"] = plans[i].describe().to_json();
    c["scenario"] = write_scenario(shown);
    return c;
  }
  return nullptr;
}

L10n error_text(const CodeFault& fault) {
  return {"代码没能运行完：" + fault.reason.zh, "The code did not run through: " + fault.reason.en};
}

}  // namespace

Exercise read_exercise(Reader& r, const json& j, const std::string& path) {
  Exercise ex;
  if (!r.object(j, path, {"$schema", "id", "level", "after", "title", "task", "scenario", "faults", "skeleton", "hints"})) return ex;
  ex.id = r.string(j, path, "id", true);
  ex.after = r.string(j, path, "after", false);
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
  if (code.size() > limits::kMaxCodeBytes) {
    std::string n = std::to_string(code.size()), max = std::to_string(limits::kMaxCodeBytes);
    CodeFault long_code("too_long", 0, 0, {"代码有 " + n + " 字节，最多 " + max + " 字节", "the code is " + n + " bytes; at most " + max + " are allowed"});
    out["error"] = error_json(long_code, exercise.scenario, std::nullopt);
    out["text"] = error_text(long_code).to_json();
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
  if (!result.counterexamples.empty()) {
    out["counterexample"] = result.counterexamples.front().to_json(scenario);
    out["passed"] = false;
    return out;
  }
  if (!result.clean()) return out;
  json progress = progress_failure(scenario, result);
  if (!progress.is_null()) {
    out["counterexample"] = progress;
    // What failed first, then what was searched: "no violation" alone would read as a pass.
    out["text"] = L10n::join(L10n{"代码没把事情做完：" + progress["reason"]["zh-CN"].get<std::string>(),
                                  "The code leaves work undone: " + progress["reason"]["en"].get<std::string>()},
                             L10n{"（不变量没有被破坏：" + result.text().zh + "）", "(no invariant broken: " + result.text().en + ")"}, "", " ")
                      .to_json();
    return out;
  }
  out["passed"] = true;
  return out;
}

}  // namespace idemlab
