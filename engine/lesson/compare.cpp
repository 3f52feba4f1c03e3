#include "engine/lesson/compare.hpp"

#include <stdexcept>

#include "engine/invariants/invariants.hpp"
#include "engine/json/fields.hpp"
#include "engine/sim/simulation.hpp"
#include "engine/timeline/timeline_json.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

json policy_json(const ComparePolicy& policy) {
  const Run run = Simulation(policy.scenario, policy.scenario.faults).run();
  const RunVerdict verdict = check_invariants(run);
  json steps = json::array();
  for (std::size_t i = 0; i < run.steps.size(); ++i) steps.push_back(step_json(run, static_cast<int>(i), verdict));
  json out = json::object();
  put(out, "id", policy.id);
  put(out, "label", policy.label.to_json());
  put(out, "client", policy.client);
  put(out, "service", policy.service);
  put(out, "messages", messages_json(run));
  put(out, "steps", std::move(steps));
  put(out, "verdict", verdict.to_json());
  return out;
}

}  // namespace

json compare_json(const PreparedLesson& p) {
  const Lesson& l = p.lesson;
  if (!l.compare) throw std::invalid_argument("the lesson has no \"compare\" block");
  json policies = json::array();
  for (const ComparePolicy& policy : l.compare->policies) policies.push_back(policy_json(policy));
  json out = json::object();
  json lesson = json::object();
  put(lesson, "id", l.id);
  put(lesson, "title", l.title.to_json());
  put(out, "lesson", std::move(lesson));
  put(out, "intent", l.compare->intent.empty() ? first_intent(l.scenario) : l.compare->intent);
  put(out, "faults", l.scenario.faults.describe().to_json());
  put(out, "narration", l.compare->narration ? l.compare->narration->to_json() : json(nullptr));
  put(out, "policies", std::move(policies));
  return out;
}

}  // namespace idemlab
