// The side-by-side view of the engine API (`compare`).
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>

#include "engine/api/api.hpp"
#include "lesson_file.hpp"

using nlohmann::json;

namespace {

json call(const std::string& method, const json& input) { return json::parse(idemlab::api::call(method, input.dump())); }

json lesson_input(const json& lesson, const std::string& file = "lessons/test.json") {
  return {{"file", file}, {"text", lesson.dump()}};
}

// The paths of every problem `check` finds in retry-duplicates changed by `breakit`.
std::vector<std::string> problem_paths(const std::function<void(json&)>& breakit) {
  json j = json::parse(read_lesson_text("02-retry-duplicates.json"));
  breakit(j);
  json out = call("check", lesson_input(j));
  std::vector<std::string> paths;
  if (out["ok"] == true) return paths;
  for (const json& e : out["errors"]) paths.push_back(e["path"].get<std::string>());
  return paths;
}

const json* policy_with(const json& out, const std::string& key_scope) {
  for (const json& p : out["policies"]) {
    if (p["client"].value("key_scope", "") == key_scope) return &p;
  }
  return nullptr;
}

}  // namespace

// The effects the service holds for the lesson's intent at the end of a policy's run,
// after checking on the way that the count never drops and time never goes back.
int final_effects(const json& out, const json& policy) {
  const std::string intent = out["intent"].get<std::string>();
  int effects = 0;
  std::int64_t t = 0;
  for (const json& s : policy["steps"]) {
    int now = s["truth"]["by_intent"].value(intent, 0);
    CHECK(now >= effects);  // an effect, once there, stays
    CHECK(s["t"].get<std::int64_t>() >= t);
    effects = now;
    t = s["t"].get<std::int64_t>();
  }
  return effects;
}

TEST_CASE("side by side: under one fault plan a new key per attempt duplicates the effect, one key per intent does not") {
  json out = call("compare", lesson_input(json::parse(read_lesson_text("02-retry-duplicates.json"))));
  REQUIRE_MESSAGE(out.contains("policies"), out.dump());
  REQUIRE(out["policies"].size() == 2);
  const json* per_attempt = policy_with(out, "attempt");
  const json* per_intent = policy_with(out, "intent");
  REQUIRE(per_attempt);
  REQUIRE(per_intent);
  CHECK(out["intent"] == "weekly-report");
  CHECK(final_effects(out, *per_attempt) > 1);
  CHECK((*per_attempt)["steps"].back()["invariants"]["duplicate_effect"] == true);
  CHECK(final_effects(out, *per_intent) == 1);
  CHECK((*per_intent)["steps"].back()["invariants"]["duplicate_effect"] == false);
  for (const json& p : out["policies"]) {
    // The same fault plan: both runs lose the response to attempt 1.
    bool dropped = false;
    for (const json& s : p["steps"]) dropped = dropped || s["event"]["kind"] == "drop";
    CHECK_MESSAGE(dropped, p["id"]);
  }
}

TEST_CASE("side by side: a service override runs the service differently under the same client") {
  json j = json::parse(read_lesson_text("02-retry-duplicates.json"));
  j["compare"]["policies"][0]["client"] = {{"key_scope", "intent"}, {"on_timeout", "record_unknown"}, {"recovery", "lookup"}, {"retry_after_ms", 20}};
  j["compare"]["policies"][0]["service"] = {{"lookup", false}};
  j["compare"]["policies"][1]["client"] = {{"key_scope", "intent"}, {"on_timeout", "record_unknown"}, {"recovery", "lookup"}, {"retry_after_ms", 20}};
  j["compare"]["policies"][1].erase("service");
  json out = call("compare", lesson_input(j));
  REQUIRE_MESSAGE(out.contains("policies"), out.dump());
  auto kinds = [](const json& p) {
    std::vector<std::string> k;
    for (const json& s : p["steps"]) k.push_back(s["event"]["kind"].get<std::string>());
    return k;
  };
  CHECK(kinds(out["policies"][0]) != kinds(out["policies"][1]));
}

TEST_CASE("side by side: mistakes in the compare block are named at their JSON path") {
  auto has = [](const std::vector<std::string>& paths, const std::string& p) {
    return std::find(paths.begin(), paths.end(), p) != paths.end();
  };
  auto paths = problem_paths([](json& j) { j["compare"]["policies"][1]["client"]["key_scop"] = "intent"; });
  CHECK(has(paths, "/compare/policies/1/client/key_scop"));
  CHECK(paths.size() == 1);
  paths = problem_paths([](json& j) { j["compare"]["policies"][0]["client"]["key_scope"] = "per_attempt"; });
  CHECK(paths == std::vector<std::string>{"/compare/policies/0/client/key_scope"});
  paths = problem_paths([](json& j) { j["compare"]["policies"][1]["service"]["lookup"] = "yes"; });
  CHECK(paths == std::vector<std::string>{"/compare/policies/1/service/lookup"});
  paths = problem_paths([](json& j) { j["compare"]["policies"].erase(1); });
  CHECK(has(paths, "/compare/policies"));
  paths = problem_paths([](json& j) { j["compare"]["policies"][1]["id"] = j["compare"]["policies"][0]["id"]; });
  CHECK(has(paths, "/compare/policies/1/id"));
  paths = problem_paths([](json& j) { j["compare"]["policies"][1] = j["compare"]["policies"][0]; j["compare"]["policies"][1]["id"] = "copy"; });
  CHECK(paths == std::vector<std::string>{"/compare/policies/1"});
  paths = problem_paths([](json& j) { j["compare"]["policies"][0]["label"].erase("en"); });
  CHECK(has(paths, "/compare/policies/0/label"));
  paths = problem_paths([](json& j) { j["compare"]["colour"] = "red"; });
  CHECK(has(paths, "/compare/colour"));
  // A mistake of the scenario itself is named once, at the scenario.
  paths = problem_paths([](json& j) { j["scenario"]["client"]["max_attempts"] = 0; });
  CHECK(paths == std::vector<std::string>{"/scenario/client/max_attempts"});
}

TEST_CASE("side by side: a policy may name no knob (the lesson's scenario as written) or unset one with null") {
  // retry-duplicates' scenario is the mistake itself: its first policy needs no override.
  json j = json::parse(read_lesson_text("02-retry-duplicates.json"));
  json full = call("compare", lesson_input(j));
  REQUIRE_MESSAGE(full.contains("policies"), full.dump());
  j["compare"]["policies"][0].erase("client");
  j["compare"]["policies"][0].erase("service");
  json bare = call("compare", lesson_input(j));
  REQUIRE_MESSAGE(bare.contains("policies"), bare.dump());
  CHECK(bare["policies"][0]["steps"] == full["policies"][0]["steps"]);
  CHECK(bare["policies"][0]["ending"] == full["policies"][0]["ending"]);

  // The scenario forgets dedup records after a second; a policy that unsets that keeps them.
  j["scenario"]["service"]["retention_ms"] = 1000;
  json kept = call("compare", lesson_input(j));
  REQUIRE_MESSAGE(kept.contains("policies"), kept.dump());
  j["compare"]["policies"][1]["service"]["retention_ms"] = nullptr;
  json unset = call("compare", lesson_input(j));
  REQUIRE_MESSAGE(unset.contains("policies"), unset.dump());
  auto expires = [](const json& p) {
    int n = 0;
    for (const json& s : p["steps"]) n += s["event"]["kind"] == "expire";
    return n;
  };
  CHECK(expires(kept["policies"][1]) >= 1);
  CHECK(expires(unset["policies"][1]) == 0);
  // null on a knob with a default takes the default, like a scenario that never named it.
  j["compare"]["policies"][1]["client"]["max_attempts"] = nullptr;
  CHECK(call("check", lesson_input(j))["ok"] == true);
}

TEST_CASE("side by side: a lesson without a compare block is an error at /compare") {
  json out = call("compare", lesson_input(json::parse(read_lesson_text("01-lost-receipt.json")), "lessons/01-lost-receipt.json"));
  REQUIRE(out.contains("error"));
  CHECK(out["error"]["file"] == "lessons/01-lost-receipt.json");
  CHECK(out["error"]["path"] == "/compare");
}

TEST_CASE("side by side: each policy carries its own run's messages, as run gives them for that policy's scenario") {
  const json lesson = json::parse(read_lesson_text("02-retry-duplicates.json"));
  json out = call("compare", lesson_input(lesson));
  REQUIRE_MESSAGE(out.contains("policies"), out.dump());
  REQUIRE(out["policies"].size() == 2);
  for (const json& p : out["policies"]) {
    json input = lesson_input(lesson);
    input["policy"] = p["id"];
    json scenario = call("scenario", input);
    REQUIRE_MESSAGE(scenario.contains("scenario"), scenario.dump());
    json run = call("run", {{"scenario", scenario["scenario"]}});
    REQUIRE_MESSAGE(run.contains("messages"), run.dump());
    CHECK(p["messages"] == run["messages"]);
    // Every message is sent at a step of this policy's own timeline, at that step's time.
    for (const json& m : p["messages"]) {
      const auto at = m["sent_step"].get<std::size_t>();
      REQUIRE(at < p["steps"].size());
      CHECK(p["steps"][at]["t"] == m["sent_at"]);
    }
  }
  // The two policies retry differently, so their messages differ.
  CHECK(out["policies"][0]["messages"] != out["policies"][1]["messages"]);
}

TEST_CASE("side by side names the script's crash and restart, not just the (empty) fault plan") {
  json lesson = json::parse(read_lesson_text("05-stale-pending.json"));
  // The lesson's story is a scripted crash; its fault plan may be empty.
  std::int64_t crash_at = -1, restart_at = -1;
  for (const json& a : lesson["scenario"]["script"]) {
    if (a["do"] == "crash_client" && crash_at < 0) crash_at = a["at"].get<std::int64_t>();
    if (a["do"] == "restart_client" && restart_at < 0) restart_at = a["at"].get<std::int64_t>();
  }
  REQUIRE(crash_at >= 0);
  REQUIRE(restart_at > crash_at);
  json out = call("compare", lesson_input(lesson));
  REQUIRE_MESSAGE(out.contains("faults"), out.dump());
  std::string en = out["faults"]["en"].get<std::string>(), zh = out["faults"]["zh-CN"].get<std::string>();
  CHECK(en.find("crashes at " + std::to_string(crash_at) + " ms") != std::string::npos);
  CHECK(en.find("restarts at " + std::to_string(restart_at) + " ms") != std::string::npos);
  CHECK(en.find("no fault") == std::string::npos);
  CHECK(zh.find(std::to_string(crash_at) + " ms") != std::string::npos);
  CHECK(out["scripted"]["en"] == out["faults"]["en"].get<std::string>().substr(en.size() - out["scripted"]["en"].get<std::string>().size()));
  CHECK(out["planned"].is_object());

  // A planned crash is named with its restart.
  json send_first = json::parse(read_lesson_text("06-send-first.json"));
  REQUIRE(send_first["scenario"]["faults"].size() == 1);
  std::int64_t after = send_first["scenario"]["faults"][0]["restart_after_ms"].get<std::int64_t>();
  json crash = call("compare", lesson_input(send_first));
  CHECK(crash["faults"]["en"].get<std::string>().find("restarts " + std::to_string(after) + " ms later") != std::string::npos);
  CHECK(crash["scripted"].is_null());
  // An error answer is named without one: the service that answers 500 stays up.
  json azure = call("compare", lesson_input(json::parse(read_lesson_text("incident-azure-blob-409.json"))));
  CHECK(azure["faults"]["en"].get<std::string>().find("answers 500") != std::string::npos);
  CHECK(azure["faults"]["en"].get<std::string>().find("restarts") == std::string::npos);

  // Without the scripted crash, the script adds nothing.
  json plain = json::parse(read_lesson_text("02-retry-duplicates.json"));
  json none = call("compare", lesson_input(plain));
  CHECK(none["scripted"].is_null());
  CHECK(none["faults"] == none["planned"]);
}

TEST_CASE("each side of a comparison carries its ending, the counters the run ends with") {
  json out = call("compare", lesson_input(json::parse(read_lesson_text("02-retry-duplicates.json"))));
  REQUIRE(out["policies"].size() == 2);
  const std::string intent = out["intent"].get<std::string>();
  for (const json& p : out["policies"]) {
    CAPTURE(p["id"]);
    REQUIRE(p.contains("ending"));
    const json& last = p["steps"].back();
    bool found = false;
    for (const json& i : p["ending"]["intents"]) {
      if (i["intent"] != intent) continue;
      found = true;
      CHECK(i["effects"] == last["truth"]["by_intent"].value(intent, 0));
      CHECK(i["status"] == last["client"]["status"].value(intent, std::string("NONE")));
    }
    CHECK(found);
    CHECK(p["ending"]["text"]["en"].is_string());
  }
  // The mistake ends differently from the fix.
  CHECK(out["policies"][0]["ending"]["key"] != out["policies"][1]["ending"]["key"]);
}

TEST_CASE("side by side: a policy may replace timing or the whole script (a longer timeout, a user who does otherwise)") {
  json j = json::parse(read_lesson_text("02-retry-duplicates.json"));
  // The same client on both sides; one waits 250 ms for a reply instead of 100 ms.
  j["compare"]["policies"][1]["client"] = j["compare"]["policies"][0]["client"];
  j["compare"]["policies"][1].erase("service");
  j["compare"]["policies"][1]["timing"] = {{"timeout_ms", 250}};
  json out = call("compare", lesson_input(j));
  REQUIRE_MESSAGE(out.contains("policies"), out.dump());
  auto first_timeout = [](const json& p) {
    for (const json& s : p["steps"]) {
      if (s["event"]["kind"] == "timeout") return s["t"].get<std::int64_t>();
    }
    return std::int64_t{-1};
  };
  // Attempt 1 leaves at 0 ms; its timer fires at its side's timeout.
  CHECK(first_timeout(out["policies"][0]) == 100);
  CHECK(first_timeout(out["policies"][1]) == 250);
  CHECK(out["policies"][1]["timing"] == json{{"timeout_ms", 250}});
  CHECK_FALSE(out["policies"][0].contains("timing"));

  // One side's user never sends version 2 under the old key: a new intent instead.
  json k = json::parse(read_lesson_text("02-retry-duplicates.json"));
  k["compare"]["policies"][1]["script"] = json::array(
      {json{{"at", 0}, {"do", "deliver"}, {"intent", "weekly-report"}, {"payload", "Weekly report, version 1"}},
       json{{"at", 300}, {"do", "deliver"}, {"intent", "weekly-report-v2"}, {"payload", "Weekly report, version 2"}}});
  json two = call("compare", lesson_input(k));
  REQUIRE_MESSAGE(two.contains("policies"), two.dump());
  auto intents = [](const json& p) {
    std::vector<std::string> out;
    for (const json& e : p["ending"]["intents"]) out.push_back(e["intent"].get<std::string>());
    return out;
  };
  CHECK(intents(two["policies"][0]) == std::vector<std::string>{"weekly-report"});
  CHECK(intents(two["policies"][1]) == std::vector<std::string>{"weekly-report", "weekly-report-v2"});
  CHECK(two["policies"][1]["script"].size() == 2);

  // Mistakes in a policy's script or timing are named under that policy.
  auto paths = problem_paths([](json& l) { l["compare"]["policies"][1]["script"] = json::array({json{{"at", 0}, {"do", "deliverr"}, {"intent", "x"}, {"payload", "x"}}}); });
  CHECK(paths == std::vector<std::string>{"/compare/policies/1/script/0/do"});
  paths = problem_paths([](json& l) { l["compare"]["policies"][1]["script"] = "deliver"; });
  CHECK(paths == std::vector<std::string>{"/compare/policies/1/script"});
  paths = problem_paths([](json& l) { l["compare"]["policies"][0]["timing"] = {{"timeout_ms", -5}}; });
  CHECK(paths == std::vector<std::string>{"/compare/policies/0/timing/timeout_ms"});
}

TEST_CASE("side by side with no fault at all says what is slow instead of 'no fault'") {
  json j = json::parse(read_lesson_text("02-retry-duplicates.json"));
  j["scenario"]["faults"] = json::array();
  j["scenario"]["service"]["processing_ms"] = 300;
  j["scenario"]["service"]["lease_ms"] = 120;
  j["moments"] = json::array({j["moments"][0]});
  j["questions"] = json::array();
  json out = call("compare", lesson_input(j));
  REQUIRE_MESSAGE(out.contains("faults"), out.dump());
  const std::string en = out["faults"]["en"].get<std::string>(), zh = out["faults"]["zh-CN"].get<std::string>();
  CHECK(en.find("no fault is injected, but the service's work takes 300 ms, longer than the 100 ms the client waits") == 0);
  CHECK(en.find("lease") != std::string::npos);
  CHECK(zh.find("300 ms") != std::string::npos);
  CHECK(zh.find("120 ms") != std::string::npos);
  CHECK(out["planned"]["en"] == "no fault");

  // A side with a lease that outlasts the work says its own.
  j["compare"]["policies"][1]["service"]["lease_ms"] = 400;
  json sides = call("compare", lesson_input(j));
  REQUIRE_MESSAGE(sides.contains("faults"), sides.dump());
  const std::string both = sides["faults"]["en"].get<std::string>();
  CHECK(both.find("no fault is injected, but on the left the service's work takes 300 ms") == 0);
  CHECK(both.find("120 ms") != std::string::npos);
  CHECK(both.find("; on the right the service's work takes 300 ms, longer than the 100 ms the client waits for a reply") != std::string::npos);
  // The right side's fix is its longer lease: it is named, as one the work fits in.
  CHECK(both.find("within the queue's 400 ms lease") != std::string::npos);
  CHECK(sides["faults"]["zh-CN"].get<std::string>().find("400 ms 租期撑得到它做完") != std::string::npos);
}
