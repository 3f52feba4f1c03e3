// The side-by-side view (`compare`) and the lesson index (`index`) of the engine API.
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
  json j = json::parse(read_lesson_text("retry-duplicates.json"));
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

TEST_CASE("side by side: under one fault plan a new key per attempt duplicates the effect, one key per intent does not") {
  json out = call("compare", lesson_input(json::parse(read_lesson_text("retry-duplicates.json"))));
  REQUIRE_MESSAGE(out.contains("policies"), out.dump());
  REQUIRE(out["policies"].size() == 2);
  const json* per_attempt = policy_with(out, "attempt");
  const json* per_intent = policy_with(out, "intent");
  REQUIRE(per_attempt);
  REQUIRE(per_intent);
  CHECK(out["intent"] == "weekly-report");
  CHECK((*per_attempt)["final"]["effects"].get<int>() > 1);
  CHECK((*per_attempt)["final"]["duplicate_effect"] == true);
  CHECK((*per_intent)["final"]["effects"] == 1);
  CHECK((*per_intent)["final"]["duplicate_effect"] == false);
  for (const json& p : out["policies"]) {
    // The same fault plan: both runs lose the response to attempt 1.
    bool dropped = false;
    int effects = 0;
    std::int64_t t = 0;
    for (const json& s : p["steps"]) {
      dropped = dropped || s["event"]["kind"] == "drop";
      CHECK(s["effects"].get<int>() >= effects);  // an effect, once there, stays
      CHECK(s["t"].get<std::int64_t>() >= t);     // virtual time never goes back
      CHECK(s["effects"] == s["truth"]["by_intent"].value("weekly-report", 0));
      effects = s["effects"].get<int>();
      t = s["t"].get<std::int64_t>();
    }
    CHECK_MESSAGE(dropped, p["id"]);
    CHECK(p["final"]["effects"] == effects);
  }
}

TEST_CASE("side by side: a service override runs the service differently under the same client") {
  json j = json::parse(read_lesson_text("retry-duplicates.json"));
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
  paths = problem_paths([](json& j) { j["compare"]["policies"][0].erase("client"); });
  CHECK(has(paths, "/compare/policies/0"));
  paths = problem_paths([](json& j) { j["compare"]["colour"] = "red"; });
  CHECK(has(paths, "/compare/colour"));
  // A mistake of the scenario itself is named once, at the scenario.
  paths = problem_paths([](json& j) { j["scenario"]["client"]["max_attempts"] = 0; });
  CHECK(paths == std::vector<std::string>{"/scenario/client/max_attempts"});
}

TEST_CASE("side by side: a lesson without a compare block is an error at /compare") {
  json out = call("compare", lesson_input(json::parse(read_lesson_text("lost-receipt.json")), "lessons/lost-receipt.json"));
  REQUIRE(out.contains("error"));
  CHECK(out["error"]["file"] == "lessons/lost-receipt.json");
  CHECK(out["error"]["path"] == "/compare");
}

TEST_CASE("the lesson index: a summary per lesson, problems per broken file, a repeated id refused") {
  json lost = json::parse(read_lesson_text("lost-receipt.json"));
  json broken = lost;
  broken["id"] = "broken";
  broken["title"].erase("en");
  json in = {{"lessons", json::array({
      {{"file", "lessons/lost-receipt.json"}, {"text", lost.dump()}},
      {{"file", "lessons/broken.json"}, {"text", broken.dump()}},
      {{"file", "lessons/zz-copy.json"}, {"text", lost.dump()}},
      {{"file", "lessons/gone.json"}},
      {{"file", "lessons/retry-duplicates.json"}, {"text", read_lesson_text("retry-duplicates.json")}},
  })}};
  json out = call("index", in);
  REQUIRE_MESSAGE(out.contains("lessons"), out.dump());
  const json& l = out["lessons"];
  REQUIRE(l.size() == 5);

  CHECK(l[0]["ok"] == true);
  CHECK(l[0]["file"] == "lessons/lost-receipt.json");
  CHECK(l[0]["id"] == lost["id"]);
  CHECK(l[0]["level"] == lost["level"]);
  CHECK(l[0]["title"] == lost["title"]);
  CHECK(l[0]["summary"] == lost["summary"]);
  CHECK(l[0]["question_count"] == lost["questions"].size());
  REQUIRE(l[0]["question_ids"].size() == lost["questions"].size());
  for (std::size_t i = 0; i < lost["questions"].size(); ++i) CHECK(l[0]["question_ids"][i] == lost["questions"][i]["id"]);
  CHECK(l[0]["compare"] == false);

  CHECK(l[1]["ok"] == false);
  CHECK(l[1]["errors"][0]["file"] == "lessons/broken.json");
  CHECK(l[1]["errors"][0]["path"] == "/title");

  CHECK(l[2]["ok"] == false);
  CHECK(l[2]["errors"][0]["path"] == "/id");
  CHECK(l[2]["errors"][0]["kind"] == "duplicate");
  CHECK(l[2]["errors"][0]["other"] == "lessons/lost-receipt.json");

  CHECK(l[3]["ok"] == false);
  CHECK(l[3]["errors"][0]["reason"] == "cannot read the file");

  CHECK(l[4]["ok"] == true);
  CHECK(l[4]["compare"] == true);
}
