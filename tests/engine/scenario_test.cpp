// The scenario as its own part (engine/scenario/): one table of knobs, read and written
// through it; a knob left out takes its right setting.
#include <doctest/doctest.h>

#include <set>

#include "engine/scenario/knobs.hpp"
#include "engine/scenario/scenario_json.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/timeline/timeline_json.hpp"
#include "lesson_file.hpp"

using namespace idemlab;
using nlohmann::json;

namespace {

Scenario read_back(const json& j) {
  Reader r("test");
  Scenario s;
  std::set<std::string> intents;
  read_scenario(r, j, "/scenario", s, intents);
  for (const InputProblem& p : r.problems()) FAIL_CHECK(p.path << ": " << p.reason);
  return s;
}

// The whole timeline of one run, as the page receives it.
std::string timeline_of(const Scenario& s) {
  Run run = simulate(s, s.faults);
  const RunVerdict verdict = check_invariants(run);
  json steps = json::array();
  for (std::size_t i = 0; i < run.steps.size(); ++i) steps.push_back(step_json(run, static_cast<int>(i), verdict));
  return steps.dump();
}

}  // namespace

TEST_CASE("every shipped lesson's scenario, and each side-by-side policy, survives a write and a read unchanged") {
  for (const std::string& name : shipped_lessons()) {
    CAPTURE(name);
    auto p = prepared_lesson(name);
    std::vector<Scenario> scenarios = {p->lesson.scenario};
    if (p->lesson.compare) {
      for (const ComparePolicy& c : p->lesson.compare->policies) scenarios.push_back(c.scenario);
    }
    for (const Scenario& s : scenarios) {
      json written = write_scenario(s);
      Scenario again = read_back(written);
      CHECK(write_scenario(again) == written);
      // Not only the same JSON: the same run, step for step.
      CHECK(timeline_of(again) == timeline_of(s));
    }
  }
}

TEST_CASE("a knob left out takes its right setting: every default is right or neutral, never wrong") {
  Scenario bare = read_back(json::parse(R"({"script": [{"at": 0, "do": "deliver", "intent": "a", "payload": "x"}]})"));
  json written = write_scenario(bare);
  for (const Knob& k : knob_table()) {
    CAPTURE(k.path());
    CHECK(k.setting_of(k.default_value) != Setting::Wrong);
    CHECK(k.get(bare) == k.default_value);
    CHECK(k.get(Scenario{}) == k.default_value);  // code-built scenarios agree with the table
  }
  // The one the issue named: a lesson that never mentions the recovery scan reconciles
  // stale PENDING intents too.
  CHECK(bare.client.recovery_scan == RecoveryScan::UnknownAndStalePending);
}

TEST_CASE("every knob is read from its group, refused with its path and allowed values, and every value is settable") {
  for (const Knob& k : knob_table()) {
    CAPTURE(k.path());
    json j = json::parse(R"({"script": [{"at": 0, "do": "deliver", "intent": "a", "payload": "x"}]})");
    if (k.type == KnobType::Choice) j[k.group][k.name] = "no-such-value";
    else if (k.type == KnobType::Layers) j[k.group][k.name] = 7;
    else j[k.group][k.name] = json::array();
    Reader r("f.json");
    Scenario s;
    std::set<std::string> intents;
    read_scenario(r, j, "/scenario", s, intents);
    REQUIRE(r.problems().size() >= 1);
    CHECK(r.problems()[0].path == "/scenario/" + k.group + "/" + k.name);
    for (const KnobValue& v : k.values) {
      json ok = j;
      ok[k.group][k.name] = k.type == KnobType::Boolean ? json(v.name == "true") : json(v.name);
      Scenario set = read_back(ok);
      CHECK(k.get(set) == ok[k.group][k.name]);
    }
  }
}

TEST_CASE("every injection point kind and every script action of the table is read and written back") {
  for (const InjectionPointKind& kind : injection_point_table()) {
    CAPTURE(kind.id());
    Fault f = kind.make("a", 2, 70);
    CHECK(f.id().rfind(kind.id() + ":", 0) == 0);
    json j = json::parse(R"({"script": [{"at": 0, "do": "deliver", "intent": "a", "payload": "x"}]})");
    j["faults"] = json::array({write_fault(f)});
    Scenario s = read_back(j);
    REQUIRE(s.faults.faults.size() == 1);
    CHECK(s.faults.faults[0].id() == f.id());
  }
  for (const ActionInfo& a : action_table()) {
    CAPTURE(a.name);
    std::string intent = a.kind == ActionKind::Deliver ? "b" : "a";
    Action act{a.kind, 5, -1, a.needs_intent ? intent : "", a.needs_payload ? "y" : ""};
    json j = json::parse(R"({"script": [{"at": 0, "do": "deliver", "intent": "a", "payload": "x"}]})");
    j["script"].push_back(write_action(act));
    Scenario s = read_back(j);
    REQUIRE(s.script.size() == 2);
    CHECK(s.script[1].kind == a.kind);
  }
}
