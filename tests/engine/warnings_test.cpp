// What `check` warns about in a lesson it accepts (engine/lesson/warnings.hpp).
#include <doctest/doctest.h>

#include "engine/api/api.hpp"
#include "lesson_file.hpp"

using nlohmann::json;

namespace {

json check(const json& lesson) {
  return json::parse(idemlab::api::call("check", json{{"file", "lessons/w.json"}, {"text", lesson.dump()}}.dump()));
}

json base() { return json::parse(read_lesson_text("01-lost-receipt.json")); }

// The engine's right option of question `qid`, asked for as a learner would.
std::string right_option(const json& lesson, const std::string& qid) {
  json out = json::parse(idemlab::api::call(
      "answer", json{{"file", "lessons/w.json"}, {"text", lesson.dump()}, {"question", qid}, {"reveal", true}}.dump()));
  return out["expected"].get<std::string>();
}

// Every option of question `i` labelled `short_label`, the right one `right_label` (one language).
void relabel(json& lesson, std::size_t i, const std::string& lang, const std::string& right_label, const std::string& short_label) {
  std::string right = right_option(lesson, lesson["questions"][i]["id"].get<std::string>());
  for (json& o : lesson["questions"][i]["options"]) o["label"][lang] = o["id"] == right ? right_label : short_label;
}

std::size_t index_of_kind(const json& lesson, const std::string& kind) {
  for (std::size_t i = 0; i < lesson["questions"].size(); ++i) {
    if (lesson["questions"][i]["kind"] == kind) return i;
  }
  FAIL("no " << kind << " question");
  return 0;
}

std::vector<std::string> warning_paths(const json& out) {
  std::vector<std::string> paths;
  for (const json& w : out["warnings"]) paths.push_back(w["path"].get<std::string>());
  return paths;
}

bool has_path_prefix(const json& out, const std::string& prefix) {
  for (const std::string& p : warning_paths(out)) {
    if (p.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("check warns when the right option's label is much longer than every other") {
  for (const std::string kind : {"choose", "predict", "concept"}) {
    CAPTURE(kind);
    json lesson = base();
    std::size_t i = index_of_kind(lesson, kind);
    std::string q = "/questions/" + std::to_string(i) + "/options/";
    // 22 characters against 15: 1.47 times and 7 longer, over the line.
    relabel(lesson, i, "en", "abcdefghijklmnopqrstuv", "abcdefghijklmno");
    json out = check(lesson);
    REQUIRE(out["ok"] == true);  // a warning, not a refusal
    CHECK(has_path_prefix(out, q));
    // 21 against 15 (1.4 times) is not over it.
    relabel(lesson, i, "en", "abcdefghijklmnopqrstu", "abcdefghijklmno");
    CHECK_FALSE(has_path_prefix(check(lesson), q));
    // Nor are short labels a few characters apart: 13 against 9 (1.44 times, 4 longer).
    relabel(lesson, i, "en", "No row at all", "DELIVERED");
    CHECK_FALSE(has_path_prefix(check(lesson), q));
  }
}

TEST_CASE("the give-away rule counts characters in Chinese too, not bytes") {
  json lesson = base();
  std::size_t i = index_of_kind(lesson, "choose");
  std::string q = "/questions/" + std::to_string(i) + "/options/";
  // The same number of characters: no warning, though a CJK character is three UTF-8 bytes.
  relabel(lesson, i, "zh-CN", "用原标识对账", "abcdef");
  relabel(lesson, i, "en", "same", "same");
  CHECK_FALSE(has_path_prefix(check(lesson), q));
  relabel(lesson, i, "zh-CN", "用原来的操作标识去对账查询", "换新标识");
  json out = check(lesson);
  CHECK(has_path_prefix(out, q));
  for (const json& w : out["warnings"]) {
    if (w["path"].get<std::string>().rfind(q, 0) == 0) CHECK(w["reason"].get<std::string>().find("zh-CN") != std::string::npos);
  }
}

TEST_CASE("check warns at the fourth question on one step") {
  json lesson = base();
  // Without the moment table: moved to one step, a knowledge question would ask a cell the
  // table asks too, and check would refuse the lesson for that (engine/lesson/secrecy.hpp).
  json kept = json::array();
  for (const json& q : lesson["questions"]) {
    if (q["kind"] != "table") kept.push_back(q);
  }
  lesson["questions"] = kept;
  // Move every question to the moment of the choose question.
  std::size_t c = index_of_kind(lesson, "choose");
  std::string moment = lesson["questions"][c]["moment"].get<std::string>();
  int at_moment = 0;
  for (const json& q : lesson["questions"]) at_moment += q.value("moment", "") == moment;
  REQUIRE(at_moment <= 3);
  json out = check(lesson);
  for (const std::string& p : warning_paths(out)) CHECK(p.find("/options/") != std::string::npos);
  int moved = 0;
  for (json& q : lesson["questions"]) {
    if (q["kind"] != "knowledge" || q.value("moment", "") == moment) continue;
    q["moment"] = moment;
    ++moved;
  }
  REQUIRE(at_moment + moved >= 4);
  std::vector<std::size_t> there;  // in the lesson's order: the fourth is the one named
  for (std::size_t i = 0; i < lesson["questions"].size(); ++i) {
    if (lesson["questions"][i].value("moment", "") == moment) there.push_back(i);
  }
  std::size_t fourth = there[3];
  out = check(lesson);
  REQUIRE(out["ok"] == true);
  bool crowded = false;
  for (const json& w : out["warnings"]) {
    if (w["path"] == "/questions/" + std::to_string(fourth)) {
      crowded = true;
      CHECK(w["reason"].get<std::string>().find(std::to_string(at_moment + moved) + " questions") != std::string::npos);
    }
  }
  CHECK(crowded);
}

TEST_CASE("check's output always has a warnings list") {
  json out = check(base());
  REQUIRE(out["ok"] == true);
  CHECK(out["warnings"].is_array());
}
