// What the sandbox page relies on (engine/api/API.md, `run` of a bare scenario): every
// injection point the run passes is a target that, added to the plan, fires; the run's
// ending counts effects per intent the way the invariants do; explore reports progress.
#include <doctest/doctest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "engine/api/api.hpp"
#include "lesson_file.hpp"

using nlohmann::json;
using namespace idemlab;

namespace {

json scenario_of_lesson(const std::string& name) { return json::parse(read_lesson_text(name))["scenario"]; }

json run_scenario(const json& scenario) {
  return json::parse(api::call("run", json{{"scenario", scenario}}.dump()));
}

const json* target(const json& run, const std::string& id) {
  for (const json& t : run["targets"]) {
    if (t["id"] == id) return &t;
  }
  return nullptr;
}

int progress_calls = 0;
int progress_last_depth = 0;
int progress_bad = 0;
void count_progress(int depth, int max_faults, int done, int total, int) {
  ++progress_calls;
  progress_last_depth = depth;
  if (depth < 1 || depth > max_faults || done > total) ++progress_bad;
}

}  // namespace

TEST_CASE("lost-receipt in the sandbox: the lost response is a planned, fired target on its message") {
  json run = run_scenario(scenario_of_lesson("01-lost-receipt.json"));
  REQUIRE(run.contains("targets"));
  const json* lost = target(run, "drop:response:weekly-report:1");
  REQUIRE(lost);
  CHECK((*lost)["planned"] == true);
  CHECK((*lost)["fired"] == true);
  CHECK((*lost)["side"] == "network");
  // It points at the response message that the timeline shows as dropped.
  const json& m = run["messages"][(*lost)["message"].get<int>()];
  CHECK(m["kind"] == "response");
  CHECK(m["fate"] == "dropped");
  // Each point once, even where the run passes it twice.
  std::set<std::string> ids;
  for (const json& t : run["targets"]) CHECK(ids.insert(t["id"].get<std::string>()).second);
  // A crash target sits on its own side's lane, between two steps of the run.
  const json* crash = target(run, "crash:service:after_commit:weekly-report:1");
  REQUIRE(crash);
  CHECK((*crash)["side"] == "service");
  CHECK((*crash)["message"].is_null());
  CHECK((*crash)["step"].get<int>() > 0);
  CHECK((*crash)["step"].get<int>() < static_cast<int>(run["steps"].size()));
}

TEST_CASE("every target of a fault-free run, added to the plan, fires; the ending counts effects per intent") {
  for (const char* name : {"01-lost-receipt.json", "02-retry-duplicates.json", "07-service-ordering.json", "11-outbox.json"}) {
    CAPTURE(name);
    json s = scenario_of_lesson(name);
    s["faults"] = json::array();
    json clean = run_scenario(s);
    REQUIRE(clean.contains("targets"));
    CHECK(clean["targets"].size() >= 5);
    for (const json& t : clean["targets"]) {
      CHECK(t["planned"] == false);
      CHECK(t["fired"] == false);
    }
    // The ending matches the last step's truth and the client's status.
    const json& last = clean["steps"].back();
    for (const json& e : clean["ending"]["intents"]) {
      std::string intent = e["intent"];
      CHECK(e["effects"] == last["truth"]["by_intent"].value(intent, 0));
      CHECK(e["status"] == last["client"]["status"].value(intent, std::string("NONE")));
    }
    int tried = 0;
    for (const json& t : clean["targets"]) {
      if (++tried > 6) break;
      json with = s;
      with["faults"] = json::array({t["fault"]});
      json r = run_scenario(with);
      CAPTURE(t["id"]);
      REQUIRE_FALSE(r.contains("errors"));
      const json* same = target(r, t["id"]);
      REQUIRE(same);
      CHECK((*same)["planned"] == true);
      CHECK((*same)["fired"] == true);
    }
  }
}

TEST_CASE("lost-receipt without its fault: the intent ends DELIVERED with one effect and no violation") {
  json s = scenario_of_lesson("01-lost-receipt.json");
  s["faults"] = json::array();
  json run = run_scenario(s);
  REQUIRE(run["ending"]["intents"].size() == 1);
  CHECK(run["ending"]["intents"][0]["status"] == "DELIVERED");
  CHECK(run["ending"]["intents"][0]["effects"] == 1);
  CHECK(run["verdict"]["violations"].empty());
  // A new key per attempt under a lost response: two effects, and the verdict says so.
  s["client"]["key_scope"] = "attempt";
  s["client"]["recovery"] = "resend";
  s["faults"] = json::array({json{{"drop", "response"}, {"attempt", 1}}});
  json dup = run_scenario(s);
  CHECK(dup["ending"]["intents"][0]["effects"] == 2);
  bool duplicate = false;
  for (const json& v : dup["verdict"]["violations"]) duplicate = duplicate || v["invariant"] == "duplicate_effect";
  CHECK(duplicate);
}

TEST_CASE("explore reports its progress per depth while it runs") {
  progress_calls = 0;
  progress_bad = 0;
  api::set_progress_hook(count_progress);
  json in = {{"scenario", scenario_of_lesson("01-lost-receipt.json")}, {"faults", 2}};
  json out = json::parse(api::call("explore", in.dump()));
  api::set_progress_hook(nullptr);
  CHECK(out["complete"] == true);
  CHECK(progress_calls >= 4);  // at least a start and an end of each of the two depths
  CHECK(progress_last_depth == 2);
  CHECK(progress_bad == 0);
}

TEST_CASE("a planned fault that a knob change stops from firing is taken out of a sandbox run and named") {
  json s = scenario_of_lesson("01-lost-receipt.json");
  s["faults"] = json::array({json{{"drop", "response"}, {"attempt", 1}}, json{{"drop", "lookup"}, {"attempt", 1}}});
  json with_lookup = run_scenario(s);
  REQUIRE(with_lookup.contains("targets"));
  CHECK_FALSE(with_lookup.contains("unfired"));
  // Reconciling by resending: no lookup is ever sent, so there is none to lose.
  s["client"]["recovery"] = "resend";
  json without = run_scenario(s);
  REQUIRE(without.contains("unfired"));
  REQUIRE(without["unfired"].size() == 1);
  CHECK(without["unfired"][0]["id"] == "drop:lookup:weekly-report:1");
  // The run is the one with the fault that still fires.
  CHECK(target(without, "drop:response:weekly-report:1")->at("fired") == true);
  // A lesson file with such a fault is still refused by check.
  json lesson = json::parse(read_lesson_text("01-lost-receipt.json"));
  lesson["scenario"] = s;
  json checked = json::parse(api::call("check", json{{"file", "x.json"}, {"text", lesson.dump()}}.dump()));
  CHECK(checked["ok"] == false);
}

TEST_CASE("vocabulary names the latest time a script action or a restart may take: at it a run is accepted, past it refused") {
  const json vocab = json::parse(api::call("vocabulary", "{}"));
  REQUIRE(vocab.contains("limits"));
  const std::int64_t max = vocab["limits"]["max_virtual_ms"].get<std::int64_t>();
  REQUIRE(max > 0);
  json scenario = scenario_of_lesson("01-lost-receipt.json");
  REQUIRE(scenario["script"].is_array());
  REQUIRE(!scenario["script"].empty());
  scenario["script"].push_back(json{{"at", max}, {"do", "crash_client"}});
  json at_limit = run_scenario(scenario);
  CHECK_FALSE(at_limit.contains("errors"));
  CHECK(at_limit["steps"].is_array());
  scenario["script"].back()["at"] = max + 1;
  json past = run_scenario(scenario);
  REQUIRE(past.contains("errors"));
  CHECK(past["errors"].dump().find("/script/") != std::string::npos);
}
