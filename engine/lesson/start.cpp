#include "engine/lesson/start.hpp"

#include "engine/json/fields.hpp"
#include "engine/knowledge/worlds.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/scenario/knobs.hpp"
#include "engine/scenario/scenario_json.hpp"

namespace idemlab {

namespace {

// The knob groups of a scenario as write_scenario writes them: what a preset sets.
nlohmann::json knobs_of(const Scenario& s) {
  const nlohmann::json all = write_scenario(s);
  nlohmann::json out = nlohmann::json::object();
  for (const char* group : {"client", "service", "provider", "timing"}) {
    if (all.contains(group)) out[group] = all[group];
  }
  return out;
}

std::string broken_names(const RunVerdict& v) {
  std::string names;
  for (const InvariantInfo& i : invariant_table()) {
    for (const Violation& x : v.violations) {
      if (x.invariant != i.id) continue;
      names += (names.empty() ? "" : ", ") + std::string(i.name);
      break;
    }
  }
  return names;
}

// Why a run does not reach `reach`, for an author: what it does instead.
std::string what_it_does(const Run& run, const RunVerdict& v) {
  std::string names = broken_names(v);
  std::string out = names.empty() ? "breaks nothing" : "breaks " + names;
  if (run.stop != StopReason::Settled) out += " and does not settle (" + std::string(to_string(run.stop)) + ")";
  if (run.fired.empty()) out += ", with no fault fired";
  return out;
}

}  // namespace

bool reaches(const std::string& reach, const Run& run, const RunVerdict& verdict) {
  if (reach == "safe" || reach == "survive") {
    return run.stop == StopReason::Settled && verdict.safe() && (reach == "safe" || !run.fired.empty());
  }
  for (const Violation& v : verdict.violations) {
    if (reach == info(v.invariant).name) return true;
  }
  return false;
}

Scenario right_design(const Lesson& lesson) {
  Scenario out = lesson.scenario;
  for (const Knob& k : knob_table()) {
    if (k.setting_of(k.get(lesson.scenario), &lesson.scenario) == Setting::Wrong) k.set(out, k.right_value());
  }
  return out;
}

nlohmann::json start_view(const Lesson& lesson, const Scenario* attempt) {
  nlohmann::json out = nlohmann::json::object();
  nlohmann::json focus = nlohmann::json::array();
  if (lesson.sandbox) {
    for (const std::string& f : lesson.sandbox->focus) focus.push_back(f);
  }
  put(out, "focus", std::move(focus));
  const nlohmann::json mine = attempt ? knobs_of(*attempt) : nlohmann::json();
  nlohmann::json presets = nlohmann::json::array();
  auto preset = [&](const char* id, L10n label, const Scenario& s) {
    nlohmann::json p = nlohmann::json::object();
    put(p, "id", id);
    put(p, "label", label.to_json());
    nlohmann::json knobs = knobs_of(s);
    if (attempt) put(p, "current", knobs == mine);
    put(p, "knobs", std::move(knobs));
    presets.push_back(std::move(p));
  };
  // An incident's reported design is most often the lesson's own scenario: one preset,
  // named for the incident, rather than two that set the same knobs.
  const Scenario* reported = lesson.incident && lesson.compare && !lesson.compare->policies.empty()
                                 ? &lesson.compare->policies.front().scenario
                                 : nullptr;
  const bool same = reported && knobs_of(*reported) == knobs_of(lesson.scenario);
  if (!same) preset("lesson", {"课里的设计", "The lesson's design"}, lesson.scenario);
  if (reported) preset("incident", {"事故里的设计", "The incident's design"}, *reported);
  preset("right", {"正确的设计", "The right design"}, right_design(lesson));
  put(out, "presets", std::move(presets));
  nlohmann::json experiments = nlohmann::json::array();
  std::optional<Run> run;
  std::optional<RunVerdict> verdict;
  if (attempt && lesson.sandbox && !lesson.sandbox->experiments.empty()) {
    run = simulate(*attempt, attempt->faults);
    verdict = check_invariants(*run);
  }
  for (const Experiment& x : lesson.sandbox ? lesson.sandbox->experiments : std::vector<Experiment>{}) {
    nlohmann::json e = nlohmann::json::object();
    put(e, "goal", x.goal.to_json());
    if (run) put(e, "reached", reaches(x.reach, *run, *verdict));
    experiments.push_back(std::move(e));
  }
  put(out, "experiments", std::move(experiments));
  return out;
}

std::vector<LessonProblem> start_problems(const Lesson& lesson) {
  std::vector<LessonProblem> out;
  if (!lesson.sandbox) return out;
  const Run own = simulate(lesson.scenario, lesson.scenario.faults);
  const RunVerdict own_verdict = check_invariants(own);
  for (std::size_t i = 0; i < lesson.sandbox->experiments.size(); ++i) {
    const Experiment& x = lesson.sandbox->experiments[i];
    const std::string p = "/sandbox/experiments/" + std::to_string(i);
    if (reaches(x.reach, own, own_verdict)) {
      out.push_back({lesson.file, p + "/reach",
                     "the lesson's own run already reaches '" + x.reach + "': a first experiment asks the learner to change something"});
    }
    const Run run = simulate(x.scenario, x.scenario.faults);
    if (run.fired.size() < x.scenario.faults.faults.size()) {
      out.push_back({lesson.file, p + "/example/faults",
                     "only " + std::to_string(run.fired.size()) + " of the example's " + std::to_string(x.scenario.faults.faults.size()) +
                         " faults fire in its run"});
    }
    const RunVerdict v = check_invariants(run);
    if (!reaches(x.reach, run, v)) {
      out.push_back({lesson.file, p + "/example", "the example does not reach '" + x.reach + "': its run " + what_it_does(run, v)});
    }
  }
  const Scenario right = right_design(lesson);
  for (const World& w : build_worlds(right)) {
    const RunVerdict v = check_invariants(w.run);
    if (w.run.stop == StopReason::Settled && v.safe()) continue;
    out.push_back({lesson.file, "/sandbox",
                   "the right design (every knob judged wrong here at its right value) " + what_it_does(w.run, v) + " in " +
                       run_name(w).en + ": the mistake is in no knob (is it in the script?), so the sandbox has no right design to offer; take the block out"});
    break;
  }
  return out;
}

}  // namespace idemlab
