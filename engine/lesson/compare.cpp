#include "engine/lesson/compare.hpp"

#include <stdexcept>

#include "engine/knowledge/facts.hpp"
#include "engine/sim/simulation.hpp"
#include "engine/timeline/timeline_json.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

// The client's status for `intent` at `step`, or null before it is decided.
json intent_status(const Step& step, const std::string& intent) {
  for (const IntentRow& r : step.snap.intents) {
    if (r.intent == intent) return r.status;
  }
  return nullptr;
}

json policy_json(const ComparePolicy& policy, const std::string& intent) {
  const Run run = Simulation(policy.scenario, policy.scenario.faults).run();
  json steps = json::array();
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    json step = step_json(run, static_cast<int>(i));
    step["effects"] = effects_for(run, static_cast<int>(i), intent);
    step["status"] = intent_status(run.steps[i], intent);
    steps.push_back(std::move(step));
  }
  json out = json::object();
  out["id"] = policy.id;
  out["label"] = policy.label.to_json();
  out["client"] = policy.client;
  out["service"] = policy.service;
  if (steps.empty()) {
    out["final"] = {{"effects", 0}, {"status", nullptr}, {"duplicate_effect", false}, {"belief_contradicts_truth", false}};
  } else {
    const json& last = steps.back();
    out["final"] = {{"effects", last["effects"]}, {"status", last["status"]},
                    {"duplicate_effect", last["invariants"]["duplicate_effect"]},
                    {"belief_contradicts_truth", last["invariants"]["belief_contradicts_truth"]}};
  }
  out["steps"] = std::move(steps);
  return out;
}

}  // namespace

json compare_json(const PreparedLesson& p) {
  const Lesson& l = p.lesson;
  if (!l.compare) throw std::invalid_argument("the lesson has no \"compare\" block");
  std::string intent = first_intent(l.scenario);
  json policies = json::array();
  for (const ComparePolicy& policy : l.compare->policies) policies.push_back(policy_json(policy, intent));
  json out = json::object();
  out["lesson"] = {{"id", l.id}, {"title", l.title.to_json()}};
  out["intent"] = intent;
  out["faults"] = l.scenario.faults.describe().to_json();
  out["narration"] = l.compare->narration ? l.compare->narration->to_json() : json(nullptr);
  out["policies"] = std::move(policies);
  return out;
}

}  // namespace idemlab
