// Which wrong-alone settings a run's faults reach (engine/explore/reach.hpp), as `run` of a
// bare scenario returns them ("wrong_settings", engine/api/API.md): what the sandbox says
// under an ending that breaks nothing, and what it says why after a clean search.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "engine/api/api.hpp"

using nlohmann::json;
using namespace idemlab;

namespace {

json run_scenario(const json& scenario) { return json::parse(api::call("run", json{{"scenario", scenario}}.dump())); }

// One intent; the client retries its own timeouts in one layer (right), under a key per
// attempt (wrong alone).
json key_per_attempt(json faults) {
  return {{"client", {{"key_scope", "attempt"}, {"retry_layers", {{{"layer", "sdk"}, {"attempts", 3}}}}}},
          {"script", {{{"at", 0}, {"do", "deliver"}, {"intent", "weekly-report"}, {"payload", "p"}}}},
          {"faults", std::move(faults)}};
}

const json* wrong_setting(const json& run, const std::string& knob) {
  for (const json& w : run["wrong_settings"]) {
    if (w["knob"] == knob) return &w;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("key_scope attempt: no fault leaves it unreached; the response of attempt 1 lost reaches it") {
  json clean = run_scenario(key_per_attempt(json::array()));
  REQUIRE(clean["wrong_settings"].size() == 1);
  const json& w = clean["wrong_settings"][0];
  CHECK(w["knob"] == "client.key_scope");
  CHECK(w["value"] == "attempt");
  CHECK(w["reached"] == false);
  CHECK(w["composes"].is_null());
  CHECK(clean["verdict"]["violations"].empty());  // nothing breaks, and now the run says why

  json lost = run_scenario(key_per_attempt({{{"drop", "response"}, {"intent", "weekly-report"}, {"attempt", 1}}}));
  const json* reached = wrong_setting(lost, "client.key_scope");
  REQUIRE(reached);
  CHECK((*reached)["reached"] == true);
  // The layer's retry went out under a new key: a second effect.
  CHECK(lost["ending"]["intents"][0]["effects"] == 2);

  // Only a bare scenario's run (the sandbox's) names them; a lesson's does not.
  json lesson = {{"id", "x"}, {"level", "intro"}, {"title", {{"en", "x"}, {"zh-CN", "x"}}},
                 {"summary", {{"en", "x"}, {"zh-CN", "x"}}}, {"scenario", key_per_attempt(json::array())},
                 {"moments", json::array()}, {"questions", json::array()}};
  json lesson_run = json::parse(api::call("run", json{{"file", "x.json"}, {"text", lesson.dump()}}.dump()));
  REQUIRE(lesson_run.contains("steps"));
  CHECK(!lesson_run.contains("wrong_settings"));
}

TEST_CASE("a right or neutral scenario has no wrong setting to name") {
  json s = key_per_attempt(json::array());
  s["client"].erase("key_scope");
  json run = run_scenario(s);
  REQUIRE(run.contains("wrong_settings"));
  CHECK(run["wrong_settings"].empty());
}

TEST_CASE("two retry layers under the intent's one key: wrong alone, with the table's reason it composes safely") {
  json s = {{"client", {{"retry_layers", {{{"layer", "sdk"}, {"attempts", 2}}, {{"layer", "app"}, {"attempts", 2}}}}}},
            {"script", {{{"at", 0}, {"do", "deliver"}, {"intent", "weekly-report"}, {"payload", "p"}}}}};
  json run = run_scenario(s);
  CHECK(run["settings"]["client.retry_layers"] == "wrong");
  const json* w = wrong_setting(run, "client.retry_layers");
  REQUIRE(w);
  REQUIRE((*w)["composes"].is_object());
  CHECK((*w)["composes"]["en"].get<std::string>().find("one operation key") != std::string::npos);
  CHECK(!(*w)["composes"]["zh-CN"].get<std::string>().empty());
  // With no fault nothing retries: as with no layers, step for step.
  CHECK((*w)["reached"] == false);

  // An SDK that makes its own key per call, inside a retrying layer: each outer retry is a
  // new operation, and the table knows no condition that makes that safe.
  s["client"]["retry_layers"][0]["key"] = "per_call";
  s["client"]["retry_layers"][0]["attempts"] = 1;
  json own = run_scenario(s);
  const json* w2 = wrong_setting(own, "client.retry_layers");
  REQUIRE(w2);
  CHECK((*w2)["composes"].is_null());
  // So does a key per attempt, whatever the layers' keys.
  s["client"]["retry_layers"][0].erase("key");
  s["client"]["retry_layers"][0]["attempts"] = 2;
  s["client"]["key_scope"] = "attempt";
  json per_attempt = run_scenario(s);
  CHECK((*wrong_setting(per_attempt, "client.retry_layers"))["composes"].is_null());
}

TEST_CASE("vocabulary: retry_layers and read_back carry their conditions in both languages; other knobs carry none") {
  json v = json::parse(api::call("vocabulary", "{}"));
  std::vector<std::string> with;
  for (const json& k : v["knobs"]) {
    if (!k.contains("composes")) continue;
    with.push_back(k["name"].get<std::string>());
    CHECK(!k["composes"]["en"].get<std::string>().empty());
    CHECK(!k["composes"]["zh-CN"].get<std::string>().empty());
  }
  CHECK(with == std::vector<std::string>{"read_back", "retry_layers"});
}
