#include "engine/lesson/incident.hpp"

#include <stdexcept>

#include "engine/nodes/nodes.hpp"

namespace idemlab {

nlohmann::json Incident::to_json() const {
  nlohmann::json reported = nlohmann::json::object();
  if (effects) put(reported, "effects", *effects);
  if (violation) put(reported, "violation", to_string(*violation));
  if (status) put(reported, "status", *status);
  nlohmann::json out = nlohmann::json::object();
  put(out, "source", source);
  put(out, "url", url);
  put(out, "title", title);
  put(out, "expected", expected.to_json());
  put(out, "seen", seen.to_json());
  put(out, "fix", fix.to_json());
  put(out, "reported", std::move(reported));
  return out;
}

ReportedRun reported_run(const Lesson& lesson) {
  if (!lesson.incident || !lesson.compare || lesson.compare->policies.empty()) {
    throw std::logic_error("reported_run: the lesson is no incident with a compare block");
  }
  const ComparePolicy& policy = lesson.compare->policies.front();
  ReportedRun out;
  out.policy = policy.id;
  out.intent = lesson.compare->counted_intent(lesson.scenario);
  const Run run = simulate(policy.scenario, policy.scenario.faults);
  for (const IntentEnding& e : ending_of(run).intents) {
    if (e.intent != out.intent) continue;
    out.effects = e.effects;
    out.status = e.status;
  }
  const std::vector<Violation> about = check_invariants(run).about(out.intent);
  for (const InvariantInfo& i : invariant_table()) {
    for (const Violation& v : about) {
      if (v.invariant == i.id) {
        out.broken.push_back(i.id);
        break;
      }
    }
  }
  return out;
}

nlohmann::json incident_view(const Lesson& lesson) {
  nlohmann::json out = lesson.incident->to_json();
  const ReportedRun replay = reported_run(lesson);
  nlohmann::json broken = nlohmann::json::array();
  for (Invariant i : replay.broken) broken.push_back(to_string(i));
  nlohmann::json replayed = nlohmann::json::object();
  put(replayed, "policy", replay.policy);
  put(replayed, "intent", replay.intent);
  put(replayed, "effects", replay.effects);
  put(replayed, "status", replay.status);
  put(replayed, "broken", std::move(broken));
  put(out, "replayed", std::move(replayed));
  return out;
}

std::vector<LessonProblem> incident_problems(const Lesson& lesson) {
  std::vector<LessonProblem> out;
  if (!lesson.incident || !lesson.compare) return out;
  const Incident& inc = *lesson.incident;
  const ReportedRun run = reported_run(lesson);
  const std::string where = "the reported run (policy '" + run.policy + "', in the lesson's own run)";
  if (inc.effects && *inc.effects != run.effects) {
    out.push_back({lesson.file, "/incident/reported/effects",
                   where + " ends with " + std::to_string(run.effects) + " effect" + (run.effects == 1 ? "" : "s") +
                       " for " + run.intent + ", not the " + std::to_string(*inc.effects) + " the report saw"});
  }
  if (inc.status && *inc.status != run.status) {
    out.push_back({lesson.file, "/incident/reported/status",
                   where + " ends with " + run.intent + " " + run.status + ", not " + *inc.status + " as the report saw"});
  }
  if (inc.violation) {
    bool found = false;
    std::string names;
    for (Invariant i : run.broken) {
      found = found || i == *inc.violation;
      names += (names.empty() ? "" : ", ") + std::string(to_string(i));
    }
    if (!found) {
      out.push_back({lesson.file, "/incident/reported/violation",
                     where + " does not break " + to_string(*inc.violation) + " for " + run.intent + " (it breaks " +
                         (names.empty() ? std::string("nothing") : names) + ")"});
    }
  }
  return out;
}

}  // namespace idemlab
