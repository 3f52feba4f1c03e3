#include <doctest/doctest.h>

#include "engine/api/api.hpp"
#include "engine/lesson/lesson_timeline.hpp"
#include "lesson_file.hpp"

using nlohmann::json;

TEST_CASE("the same lesson gives the same timeline, byte for byte") {
  for (const char* name : {"01-lost-receipt.json", "02-retry-duplicates.json"}) {
    auto a = prepared_lesson(name);
    auto b = prepared_lesson(name);
    CHECK_MESSAGE(idemlab::timeline_json(*a).dump() == idemlab::timeline_json(*b).dump(), name);
  }
}

TEST_CASE("a different seed changes keys and receipts but not the story") {
  std::string text = read_lesson_text("01-lost-receipt.json");
  json j = json::parse(text);
  j["scenario"]["seed"] = 8;
  auto a = prepared_lesson("01-lost-receipt.json");
  auto b = idemlab::prepare_lesson(idemlab::load_lesson("x.json", j.dump()));
  REQUIRE(a->run().steps.size() == b->run().steps.size());
  for (std::size_t i = 0; i < a->run().steps.size(); ++i) {
    CHECK(a->run().steps[i].event.type == b->run().steps[i].event.type);
  }
  CHECK(a->run().steps.back().snap.intents[0].op_key != b->run().steps.back().snap.intents[0].op_key);
}

TEST_CASE("the API answers run and answer from the same computation") {
  std::string text = read_lesson_text("01-lost-receipt.json");
  json in = {{"file", "lessons/01-lost-receipt.json"}, {"text", text}};
  json run = json::parse(idemlab::api::call("run", in.dump()));
  REQUIRE(run.contains("steps"));
  // The knowledge question's expected answer equals the grid cell at its step.
  for (const json& q : run["lesson"]["questions"]) {
    if (q["kind"] != "knowledge") continue;
    in["question"] = q["id"];
    in["answer"] = "knows_true";
    in["reveal"] = true;  // the expected answer, whether this one is right or not
    json v = json::parse(idemlab::api::call("answer", in.dump()));
    json cell = run["steps"][q["step"].get<int>()]["knowledge"][q["side"].get<std::string>()][q["fact"].get<std::string>()];
    std::string grid = cell["status"] == "cannot_know" ? "cannot_know"
                       : cell["value"] == true        ? "knows_true"
                                                      : "knows_false";
    CHECK(v["expected"] == grid);
    CHECK(v["correct"] == (grid == "knows_true"));
  }
}
