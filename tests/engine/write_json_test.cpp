// write_json (engine/json/write.hpp): the text the engine answers with. A front end, a
// golden file or a cached run compares that text byte for byte, so it must be what
// nlohmann's dump() writes for any value the engine builds, and refuse what dump() refuses.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "engine/api/api.hpp"
#include "engine/json/write.hpp"
#include "lesson_file.hpp"

using nlohmann::json;
using idemlab::write_json;

TEST_CASE("write_json writes what dump() writes, escapes and UTF-8 included") {
  std::string controls;
  for (int c = 0; c < 0x20; ++c) controls += static_cast<char>(c);
  json v = json::object();
  v["controls"] = controls;
  v["quotes"] = "say \"hi\" \\ back/slash \x7f";
  v["zh"] = "客户端持有回执，请求“第 1 次”";
  v["four_bytes"] = "emoji \xF0\x9F\x98\x80 and U+10FFFF \xF4\x8F\xBF\xBF";
  v["ints"] = {0, -1, 42, -9223372036854775807LL - 1, 9223372036854775807LL};
  v["unsigned"] = 18446744073709551615ULL;
  v["empty"] = {{"a", json::array()}, {"b", json::object()}, {"c", ""}, {"d", nullptr}};
  v["bools"] = {true, false};
  v["nested"] = {{{"z", 1}, {"a", {{"y", "é"}}}}};
  v["key with \"quote\" and 中文"] = 1;
  CHECK(write_json(v) == v.dump());
  CHECK(write_json(json("only a string")) == "\"only a string\"");
  CHECK(write_json(json::array()) == "[]");
  // What it leaves to dump() comes out the same too.
  json f = {{"half", 0.5}, {"big", 1e300}};
  CHECK(write_json(f) == f.dump());
}

TEST_CASE("write_json refuses invalid UTF-8 as dump() does") {
  for (std::string bad : {std::string("\xC0\xAF"), std::string("\xED\xA0\x80"), std::string("\xF4\x90\x80\x80"),
                          std::string("cut \xE5\xAE"), std::string("\x80"), std::string("\xE0\x80\xAF")}) {
    json v = {{"text", bad}};
    CHECK_THROWS_AS(v.dump(), json::type_error);
    CHECK_THROWS_AS(write_json(v), json::type_error);
  }
}

TEST_CASE("a lesson's run answer is the same text as its JSON written by dump()") {
  std::string out = idemlab::api::call("run", json{{"file", "lessons/09-retry-layers.json"},
                                                  {"text", read_lesson_text("09-retry-layers.json")}}.dump());
  REQUIRE(out.rfind("{\"ending\"", 0) == 0);
  CHECK(json::parse(out).dump() == out);
}
