// Hint, then try, then reveal (engine/lesson/feedback.hpp): what the `answer` method shows a
// learner at each try.
#include <doctest/doctest.h>

#include "engine/api/api.hpp"
#include "lesson_file.hpp"

using namespace idemlab;
using nlohmann::json;

namespace {

const char* kLesson = "01-lost-receipt.json";

// A shipped lesson with its authors' hints taken out, so that a wrong try gets the hint the
// engine computes (the shipped lessons give every question its own).
std::string without_hints(const std::string& name) {
  json lesson = json::parse(read_lesson_text(name));
  for (json& q : lesson["questions"]) q.erase("hint");
  return lesson.dump();
}

json call_answer(const std::string& lesson_text, json extra) {
  json in = {{"file", "lessons/lesson.json"}, {"text", lesson_text}};
  for (auto& [k, v] : extra.items()) in[k] = v;
  return json::parse(api::call("answer", in.dump()));
}

json call_answer(json extra) { return call_answer(without_hints(kLesson), std::move(extra)); }

json question_view(const std::string& id, const std::string& name = kLesson) {
  json run = json::parse(api::call("run", json{{"file", "lessons/" + name}, {"text", without_hints(name)}}.dump()));
  for (const json& q : run["lesson"]["questions"]) {
    if (q["id"] == id) return q;
  }
  FAIL("no question " << id);
  return json();
}

// The engine's answer, asked for as a learner would ("show the answer").
json expected_of(const std::string& qid) { return call_answer({{"question", qid}, {"reveal", true}})["expected"]; }

std::string a_wrong_option(const std::string& qid) {
  json expected = expected_of(qid);
  json q = question_view(qid);
  if (q["kind"] == "knowledge") {
    for (std::string a : {"knows_true", "knows_false", "cannot_know"}) {
      if (expected != a) return a;
    }
  }
  for (const json& o : q["options"]) {
    if (o["id"] != expected) return o["id"].get<std::string>();
  }
  FAIL("no wrong option for " << qid);
  return "";
}

void check_l10n(const json& text) {
  REQUIRE(text.is_object());
  CHECK_FALSE(text["zh-CN"].get<std::string>().empty());
  CHECK_FALSE(text["en"].get<std::string>().empty());
}

}  // namespace

TEST_CASE("a wrong first answer gets a hint, not the answer; a second wrong one gets the answer") {
  const std::string qid = "client-knows-request-arrived";
  std::string wrong = a_wrong_option(qid);
  json first = call_answer({{"question", qid}, {"answer", wrong}, {"try", 1}});
  CHECK(first["correct"] == false);
  CHECK(first["revealed"] == false);
  CHECK(first["try"] == 1);
  CHECK_FALSE(first.contains("expected"));
  CHECK_FALSE(first.contains("explanation"));
  check_l10n(first["hint"]);

  json second = call_answer({{"question", qid}, {"answer", wrong}, {"try", 2}});
  CHECK(second["correct"] == false);
  CHECK(second["revealed"] == true);
  CHECK(second["try"] == 2);
  CHECK(second["expected"] == expected_of(qid));
  check_l10n(second["explanation"]);
  CHECK_FALSE(second.contains("hint"));
}

TEST_CASE("without a try number an answer is a first try") {
  const std::string qid = "client-knows-request-arrived";
  json out = call_answer({{"question", qid}, {"answer", a_wrong_option(qid)}});
  CHECK(out["try"] == 1);
  CHECK(out["revealed"] == false);
  CHECK_FALSE(out.contains("expected"));
}

TEST_CASE("a right answer is revealed at once, with its explanation") {
  const std::string qid = "client-knows-request-arrived";
  json out = call_answer({{"question", qid}, {"answer", expected_of(qid)}});
  CHECK(out["correct"] == true);
  CHECK(out["revealed"] == true);
  check_l10n(out["explanation"]);
}

TEST_CASE("asking for the answer reveals it without an answer, and is not counted right") {
  const std::string qid = "status-after-timeout";
  json out = call_answer({{"question", qid}, {"reveal", true}});
  CHECK(out["correct"] == false);
  CHECK(out["revealed"] == true);
  CHECK(out["try"] == 1);
  CHECK(out["expected"].is_string());
  check_l10n(out["explanation"]);
  // With an answer as well, the answer is still judged.
  json with = call_answer({{"question", qid}, {"reveal", true}, {"answer", out["expected"]}});
  CHECK(with["correct"] == true);
}

TEST_CASE("the computed knowledge hint points at the side's own events, not at the answer") {
  const std::string qid = "client-knows-request-arrived";
  json q = question_view(qid);
  json out = call_answer({{"question", qid}, {"answer", a_wrong_option(qid)}});
  std::string en = out["hint"]["en"].get<std::string>();
  CHECK(en.find("client") != std::string::npos);
  CHECK(en.find("step " + std::to_string(q["step"].get<int>())) != std::string::npos);
  CHECK(en.find("send") != std::string::npos);  // the client sent its request by then
  // Names no verdict.
  for (std::string verdict : {"cannot know", "cannot_know", "knows true", "knows false", "it knows"}) {
    CHECK(en.find(verdict) == std::string::npos);
  }
}

TEST_CASE("a question's own hint is the one a wrong try gets") {
  json lesson = json::parse(without_hints(kLesson));
  json hint = {{"zh-CN", "想想超时说明了什么。"}, {"en", "Think about what a timeout tells."}};
  std::string qid;
  for (json& q : lesson["questions"]) {
    if (q["kind"] == "knowledge") {
      q["hint"] = hint;
      qid = q["id"].get<std::string>();
      break;
    }
  }
  std::string wrong = a_wrong_option(qid);
  json out = call_answer(lesson.dump(), {{"question", qid}, {"answer", wrong}});
  CHECK(out["hint"] == hint);
  CHECK_FALSE(out.contains("expected"));
}

namespace {

json flipped(const json& value) { return value == "cannot_know" ? json("knows_true") : json("cannot_know"); }

}  // namespace

TEST_CASE("a wrong first table says how many cells are wrong in each row, not which, until the reveal") {
  json q = question_view("moment-table");
  json expected = expected_of("moment-table");
  REQUIRE(q["sides"].size() == 2);
  REQUIRE(q["facts"].size() >= 2);
  const std::string m0 = q["moments"][0]["id"], m1 = q["moments"][1]["id"];
  const std::string f0 = q["facts"][0]["id"], f1 = q["facts"][1]["id"];
  const std::string client = q["sides"][0], service = q["sides"][1];
  // Three cells wrong: both of one row's, and one of another row's.
  json answer = expected;
  std::vector<std::string> wrong_keys = {m0 + "/" + client + "/" + f0, m0 + "/" + service + "/" + f0, m1 + "/" + service + "/" + f1};
  for (const std::string& key : wrong_keys) {
    REQUIRE(answer.contains(key));
    answer[key] = flipped(answer[key]);
  }
  json out = call_answer({{"question", "moment-table"}, {"answer", answer}});
  CHECK(out["correct"] == false);
  CHECK(out["revealed"] == false);
  CHECK(out["wrong"] == 3);
  CHECK_FALSE(out.contains("expected"));
  // No cell is marked: nothing says which of a row's cells is the wrong one.
  CHECK_FALSE(out.contains("cells"));
  REQUIRE(out["rows"].is_array());
  REQUIRE(out["rows"].size() == q["moments"].size() * q["facts"].size());
  // Rows as the page draws them: moment by moment, each moment's facts in order.
  CHECK(out["rows"][0]["moment"] == m0);
  CHECK(out["rows"][0]["fact"] == f0);
  CHECK(out["rows"][1]["moment"] == m0);
  CHECK(out["rows"][1]["fact"] == f1);
  for (const json& row : out["rows"]) {
    const std::string moment = row["moment"], fact = row["fact"];
    CAPTURE(moment);
    CAPTURE(fact);
    int want = moment == m0 && fact == f0 ? 2 : moment == m1 && fact == f1 ? 1 : 0;
    CHECK(row["wrong"] == want);
    CHECK(row.size() == 3);
  }
  // The computed hint gives the same counts, row by row, and names no side's column.
  std::string en = out["hint"]["en"].get<std::string>();
  CHECK(en.find("3 of " + std::to_string(expected.size()) + " cells are wrong") != std::string::npos);
  CHECK(en.find("2 in the row") != std::string::npos);
  CHECK(en.find("1 in the row") != std::string::npos);
  CHECK(en.find("marked") == std::string::npos);
  check_l10n(out["hint"]);

  // The second try is revealed: each cell marked, with what it should be.
  json second = call_answer({{"question", "moment-table"}, {"answer", answer}, {"try", 2}});
  CHECK(second["revealed"] == true);
  CHECK_FALSE(second.contains("rows"));
  for (const std::string& key : wrong_keys) {
    CHECK(second["cells"][key]["correct"] == false);
    CHECK(second["cells"][key]["expected"] == expected[key]);
  }
  // "Show the answer" with the last try's answer marks that try's cells as well.
  json shown = call_answer({{"question", "moment-table"}, {"answer", answer}, {"reveal", true}});
  CHECK(shown["revealed"] == true);
  CHECK(shown["wrong"] == 3);
  CHECK(shown["cells"][wrong_keys[2]]["correct"] == false);
}

// Every question of the lesson but `qid`: the learner has settled the rest.
json all_settled_but(const std::string& qid) {
  json ids = json::array();
  const json lesson = json::parse(without_hints(kLesson));
  for (const json& q : lesson["questions"]) {
    if (q["id"] != qid) ids.push_back(q["id"]);
  }
  return ids;
}

TEST_CASE("a wrong first choice shows only that option's judgement, with the run where it goes wrong") {
  const std::string qid = "next-step-after-timeout";
  std::string wrong = a_wrong_option(qid);
  json out = call_answer({{"question", qid}, {"answer", wrong}, {"settled", all_settled_but(qid)}});
  CHECK(out["revealed"] == false);
  CHECK_FALSE(out.contains("expected"));
  REQUIRE(out["options"].size() == 1);
  const json& o = out["options"][0];
  CHECK(o["id"] == wrong);
  CHECK(o["safe"] == false);
  CHECK_FALSE(o["witness"].is_null());
  bool a_run_goes_wrong = false;
  for (const json& r : o["runs"]) a_run_goes_wrong = a_run_goes_wrong || !r["problem"].is_null();
  CHECK(a_run_goes_wrong);
  // The hint names the runs the client cannot tell apart there.
  CHECK(out["hint"]["en"].get<std::string>().find("cannot tell apart") != std::string::npos);

  json second = call_answer({{"question", qid}, {"answer", wrong}, {"try", 2}});
  CHECK(second["options"].size() == question_view(qid)["options"].size());
  json revealed = call_answer({{"question", qid}, {"reveal", true}});
  CHECK(revealed["options"].size() == question_view(qid)["options"].size());
}

TEST_CASE("a predict hint says what to follow, a concept hint nudges; neither names the answer") {
  for (const std::string qid : {"status-after-timeout", "uuid-per-retry"}) {
    CAPTURE(qid);
    json q = question_view(qid);
    json expected = expected_of(qid);
    json out = call_answer({{"question", qid}, {"answer", a_wrong_option(qid)}});
    check_l10n(out["hint"]);
    std::string en = out["hint"]["en"].get<std::string>();
    for (const json& o : q["options"]) {
      if (o["id"] == expected) CHECK(en.find(o["label"]["en"].get<std::string>()) == std::string::npos);
    }
  }
  json out = call_answer({{"question", "status-after-timeout"}, {"answer", a_wrong_option("status-after-timeout")}});
  CHECK(out["hint"]["en"].get<std::string>().find("Follow the run") != std::string::npos);
}

TEST_CASE("answer refuses a try number out of range, a reveal that is not a boolean, and no answer at all") {
  const std::string qid = "status-after-timeout";
  json bad_try = call_answer({{"question", qid}, {"answer", "UNKNOWN"}, {"try", 0}});
  CHECK(bad_try["ok"] == false);
  CHECK(bad_try["errors"][0]["path"] == "/try");
  json bad_reveal = call_answer({{"question", qid}, {"reveal", "yes"}});
  CHECK(bad_reveal["ok"] == false);
  CHECK(bad_reveal["errors"][0]["path"] == "/reveal");
  json none = call_answer({{"question", qid}});
  CHECK(none.contains("error"));
}

TEST_CASE("answer refuses a question that is not named by a string, at /question") {
  for (const json& question : {json(5), json(nullptr), json::array({"status-after-timeout"}), json::object()}) {
    json out = call_answer({{"question", question}, {"answer", "UNKNOWN"}});
    REQUIRE_MESSAGE(out["ok"] == false, out.dump());
    CHECK(out["errors"][0]["path"] == "/question");
    CHECK(out["errors"][0]["reason"] == "a question is named by its id, a string");
  }
  json missing = call_answer({{"answer", "UNKNOWN"}});
  REQUIRE(missing["ok"] == false);
  CHECK(missing["errors"][0]["path"] == "/question");
  CHECK(missing["errors"][0]["reason"] == "missing required field 'question'");
}

TEST_CASE("after a restart the knowledge hint lists only what the side has seen since, and says why") {
  const std::string name = "05-stale-pending.json";
  std::string text = without_hints(name);
  json run = json::parse(api::call("run", json{{"file", "lessons/" + name}, {"text", text}}.dump()));
  const json* q = nullptr;
  for (const json& v : run["lesson"]["questions"]) {
    if (v["kind"] == "knowledge" && v["side"] == "client") q = &v;
  }
  REQUIRE(q);
  int step = (*q)["step"].get<int>(), restart = -1, before = -1;
  for (int i = 0; i <= step; ++i) {
    const json& e = run["steps"][i]["event"];
    if (e["side"] != "client") continue;
    if (e["kind"] == "restart") restart = i;
    else if (restart < 0) before = i;
  }
  REQUIRE(restart >= 0);
  REQUIRE(before >= 0);
  json reveal = call_answer(text, {{"question", (*q)["id"]}, {"reveal", true}});
  std::string wrong = reveal["expected"] == "cannot_know" ? "knows_true" : "cannot_know";
  json out = call_answer(text, {{"question", (*q)["id"]}, {"answer", wrong}});
  std::string en = out["hint"]["en"].get<std::string>();
  CHECK(en.find("restarted at step " + std::to_string(restart)) != std::string::npos);
  // The steps it lists start at the restart: a step from before the crash is not among them.
  std::size_t at = en.rfind("(step");
  REQUIRE(at != std::string::npos);
  std::string listed = en.substr(at);
  CHECK((listed.find("(steps " + std::to_string(restart)) == 0 || listed.find("(step " + std::to_string(restart)) == 0));
}
