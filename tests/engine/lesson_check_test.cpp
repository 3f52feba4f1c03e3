#include <doctest/doctest.h>

#include <functional>

#include "engine/api/api.hpp"
#include "lesson_file.hpp"

using nlohmann::json;

namespace {
// Checks a broken variant of lost-receipt and returns its first problem.
json first_problem(const std::function<void(json&)>& breakit) {
  json j = json::parse(read_lesson_text("lost-receipt.json"));
  breakit(j);
  json out = json::parse(idemlab::api::call("check", json{{"file", "lessons/broken.json"}, {"text", j.dump()}}.dump()));
  REQUIRE(out["ok"] == false);
  return out["errors"][0];
}
}  // namespace

TEST_CASE("the shipped lessons pass check") {
  for (const char* name : {"lost-receipt.json", "retry-duplicates.json"}) {
    json out = json::parse(idemlab::api::call("check", json{{"file", name}, {"text", read_lesson_text(name)}}.dump()));
    CHECK_MESSAGE(out["ok"] == true, name << ": " << out.dump());
  }
}

TEST_CASE("a broken lesson is refused with file, JSON path and reason") {
  json p = first_problem([](json& j) { j["questions"][0]["fact"] = "effect_happened"; });
  CHECK(p["file"] == "lessons/broken.json");
  CHECK(p["path"] == "/questions/0/fact");
  CHECK(p["reason"].get<std::string>().find("unknown fact 'effect_happened'") != std::string::npos);

  p = first_problem([](json& j) { j["questions"][1]["moment"] = "nowhere"; });
  CHECK(p["path"] == "/questions/1/moment");

  p = first_problem([](json& j) { j["title"].erase("en"); });
  CHECK(p["path"] == "/title");
  CHECK(p["reason"] == "missing language 'en'");

  p = first_problem([](json& j) { j["scenario"]["script"][0]["do"] = "teleport"; });
  CHECK(p["path"] == "/scenario/script/0/do");

  p = first_problem([](json& j) { j["scenario"]["faults"][0] = {{"drop", "carrier_pigeon"}}; });
  CHECK(p["path"] == "/scenario/faults/0/drop");

  p = first_problem([](json& j) { j["questions"][2]["id"] = j["questions"][0]["id"]; });
  CHECK(p["path"] == "/questions/2/id");
  CHECK(p["reason"].get<std::string>().find("used twice") != std::string::npos);
}

TEST_CASE("a question whose computed answer is not among its options is refused") {
  json p = first_problem([](json& j) {
    for (json& q : j["questions"]) {
      if (q["kind"] == "predict") q["options"] = json::array({{{"id", "0"}, {"label", {{"zh-CN", "0"}, {"en", "0"}}}},
                                                               {{"id", "1"}, {"label", {{"zh-CN", "1"}, {"en", "1"}}}}});
    }
  });
  CHECK(p["reason"].get<std::string>().find("not among the options") != std::string::npos);
}

TEST_CASE("a moment no step matches is refused") {
  json p = first_problem([](json& j) { j["moments"][0]["at"] = {{"event", "commit"}, {"nth", 5}}; });
  CHECK(p["path"] == "/moments/0/at");
}

TEST_CASE("text that is not JSON is refused, not thrown") {
  json out = json::parse(idemlab::api::call("check", json{{"file", "lessons/x.json"}, {"text", "{ nope"}}.dump()));
  CHECK(out["ok"] == false);
  CHECK(out["errors"][0]["reason"].get<std::string>().rfind("not valid JSON", 0) == 0);
}
