// Every bad input gets a clear error and loses nothing (issue 9): each case with the
// input that showed it. Big inputs are generated here, never committed.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/api/api.hpp"
#include "engine/scenario/limits.hpp"
#include "lesson_file.hpp"

using nlohmann::json;
using namespace idemlab;

namespace {

json lesson_json(const std::string& name) { return json::parse(read_lesson_text(name)); }

json check_text(const std::string& text, const std::string& file = "lessons/bad.json") {
  return json::parse(api::call("check", json{{"file", file}, {"text", text}}.dump()));
}

// `depth` nested arrays: "[[[...]]]".
std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// The lesson's text with the string value "@@" replaced by `with`.
std::string splice(const json& lesson, const std::string& with) {
  std::string text = lesson.dump();
  std::size_t at = text.find("\"@@\"");
  REQUIRE(at != std::string::npos);
  return text.replace(at, 4, with);
}

bool has(const json& v, const std::string& part) { return v.get<std::string>().find(part) != std::string::npos; }

// A lesson whose script delivers `intents` intents, with every crash point in its fault
// space (the lesson of issue 9 had 133).
json many_intents(int intents) {
  json j = lesson_json("01-lost-receipt.json");
  json script = json::array();
  for (int i = 0; i < intents; ++i) {
    script.push_back({{"at", i}, {"do", "deliver"}, {"intent", "report-" + std::to_string(i)}, {"payload", "v" + std::to_string(i)}});
  }
  j["scenario"]["script"] = script;
  j.erase("sandbox");  // its first experiments are about lost-receipt's own script
  j["scenario"]["fault_space"] = {{"lose_any_one_message", true},
                                  {"client_crash_points", {"after_persist", "after_send", "before_record"}},
                                  {"service_crash_points", {"before_commit", "between_writes", "after_commit", "after_email_send"}}};
  return j;
}

}  // namespace

TEST_CASE("100,000 nested brackets in a moment's `at` or a compare policy: refused at its path, no crash") {
  json lesson = lesson_json("01-lost-receipt.json");
  lesson["moments"][0]["at"]["event"] = "@@";
  json out = check_text(splice(lesson, nested(100000)));
  REQUIRE(out["ok"] == false);
  const json& p = out["errors"][0];
  CHECK(p["path"].get<std::string>().rfind("/moments/0/at/event/0/0/0", 0) == 0);
  CHECK(has(p["reason"], "nest more than " + std::to_string(limits::kMaxJsonDepth) + " levels deep"));
  CHECK(p["line"] == 1);
  CHECK(p["column"].get<int>() > 1);

  json compared = lesson_json("02-retry-duplicates.json");
  compared["compare"]["policies"][0]["client"]["key_scope"] = "@@";
  for (const char* method : {"check", "run", "answers", "compare", "explore", "scenario"}) {
    json o = json::parse(api::call(method, json{{"file", "deep.json"}, {"text", splice(compared, nested(100000))}}.dump()));
    REQUIRE_MESSAGE(o["ok"] == false, method);
    CHECK(o["errors"][0]["path"].get<std::string>().rfind("/compare/policies/0/client/key_scope/0/0", 0) == 0);
  }
}

TEST_CASE("the nesting limit: a lesson at the limit reads, one level more is refused") {
  // The moment's `at` object is at level 4 (lesson, moments, moment, at): an array in it
  // at level 5 nests limit - 4 more levels.
  json lesson = lesson_json("01-lost-receipt.json");
  lesson["moments"][0]["at"]["event"] = "@@";
  json at_limit = check_text(splice(lesson, nested(limits::kMaxJsonDepth - 4)));
  REQUIRE(at_limit["ok"] == false);
  CHECK(at_limit["errors"][0]["path"] == "/moments/0/at/event");  // read: an array is not an event
  json deeper = check_text(splice(lesson, nested(limits::kMaxJsonDepth - 3)));
  CHECK(has(deeper["errors"][0]["reason"], "nest more than"));
}

TEST_CASE("deep nesting in the API's own input, in a bare scenario and in an answer is an error, not a crash") {
  std::string deep = nested(200000);
  json out = json::parse(api::call("run", "{\"scenario\": {\"seed\": " + deep + "}}"));
  CHECK(out["error"]["path"].get<std::string>().rfind("/scenario/seed/0/0", 0) == 0);
  CHECK(has(out["error"]["reason"], "nest more than"));
  out = json::parse(api::call("answer", "{\"file\": \"f\", \"text\": \"{}\", \"answer\": " + deep + "}"));
  CHECK(has(out["error"]["reason"], "nest more than"));
  out = json::parse(api::call("simulate", deep));
  CHECK(out.contains("error"));
}

TEST_CASE("a full-width comma outside a string: file, line, column (in characters) and the character") {
  std::string text = read_lesson_text("01-lost-receipt.json");
  // The comma after the lesson's "level" value, on its own line of the file.
  std::size_t at = text.find("\"level\": \"intro\",");
  REQUIRE(at != std::string::npos);
  at += std::string("\"level\": \"intro\"").size();
  text.replace(at, 1, "，");
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  std::size_t line_start = text.rfind('\n', at) + 1;
  int column = 1 + static_cast<int>(at - line_start);  // the line before it is ASCII

  json out = check_text(text, "lessons/01-lost-receipt.json");
  REQUIRE(out["ok"] == false);
  const json& p = out["errors"][0];
  CHECK(p["file"] == "lessons/01-lost-receipt.json");
  CHECK(p["line"] == line);
  CHECK(p["column"] == column);
  CHECK(has(p["reason"], "unexpected character '，' (U+FF0C)"));
  CHECK(has(p["reason"], "line " + std::to_string(line) + ", column " + std::to_string(column)));

  // Columns count characters: the same slip after Chinese text on its line.
  json out2 = check_text("{\"title\": {\"zh-CN\": \"丢失的回执\"，\"en\": \"x\"}}");
  CHECK(out2["errors"][0]["column"] == 28);
  CHECK(out2["errors"][0]["path"] == "/title");
}

TEST_CASE("a stray comma, a missing one, a literal out of place: the line and column of the character where the text breaks") {
  struct Case {
    std::string text;
    int line, column;
    std::string unexpected;
  };
  for (const Case& c : std::vector<Case>{
           // A trailing comma, the commonest slip: the '}' after it, on the line below.
           {"{\"id\": \"x\",\n  \"level\": \"intro\",\n}", 3, 1, "unexpected '}'"},
           // A comma where a key belongs, after a bracket.
           {"{\"scenario\": {,}}", 1, 15, "unexpected ','"},
           {"{\"moments\": [1,,2]}", 1, 16, "unexpected ','"},
           // A comma missing between two members: the second member's key.
           {"{\"id\": \"x\"\n  \"level\": \"intro\"}", 2, 3, "unexpected string literal"},
           // Two values in a row: the second.
           {"{\"ok\": true false}", 1, 13, "unexpected false literal"},
       }) {
    json out = check_text(c.text);
    REQUIRE_MESSAGE(out["ok"] == false, c.text);
    const json& p = out["errors"][0];
    CHECK_MESSAGE(p["line"] == c.line, c.text);
    CHECK_MESSAGE(p["column"] == c.column, c.text);
    CHECK_MESSAGE(has(p["reason"], c.unexpected), c.text);
  }
}

TEST_CASE("1e400 and other numbers out of range are ordinary problems at their path") {
  json lesson = lesson_json("01-lost-receipt.json");
  lesson["scenario"]["seed"] = "@@";
  json out = check_text(splice(lesson, "1e400"));
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/scenario/seed");
  CHECK(has(out["errors"][0]["reason"], "number out of range: 1e400"));
  // A number that reads but is not an integer of the range: the reader's own problem.
  out = check_text(splice(lesson, "1e300"));
  CHECK(out["errors"][0]["path"] == "/scenario/seed");
  CHECK(has(out["errors"][0]["reason"], "expected an integer"));
}

TEST_CASE("invalid UTF-8 in a lesson file: its line, column and byte") {
  std::string text = read_lesson_text("01-lost-receipt.json");
  std::size_t at = text.find("\"en\"");
  text.insert(at + 2, "\xff");
  try {
    load_lesson("lessons/bad.json", text);
    FAIL("accepted");
  } catch (const LessonError& e) {
    const LessonProblem& p = e.problems().front();
    CHECK(p.reason.find("not valid UTF-8: byte 0xFF") != std::string::npos);
    CHECK(p.line > 1);
    CHECK(p.path == "/title");
  }
  // Through the API, a text is JSON: the bytes arrive in the input itself.
  json out = json::parse(api::call("check", "{\"file\": \"x\", \"text\": \"\xc3(\"}"));
  CHECK(has(out["error"]["reason"], "not valid UTF-8: byte 0xC3"));
  CHECK(out["error"]["column"] == 24);
}

TEST_CASE("the 133-intent lesson and 10,000 scripted delivers are refused by check, before any run") {
  json out = check_text(many_intents(133).dump());
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/scenario/script");
  CHECK(has(out["errors"][0]["reason"], "133 entries; at most " + std::to_string(limits::kMaxScriptActions)));

  // 2,000 deliveries: one problem, not one per action.
  out = check_text(many_intents(2000).dump());
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/scenario/script");
  CHECK(out["errors"].size() == 1);
  // 10,000 deliveries do not fit a lesson file (or the API's input) at all.
  try {
    load_lesson("lessons/bad.json", many_intents(10000).dump());
    FAIL("accepted");
  } catch (const LessonError& e) {
    CHECK(e.problems().front().path == "");
    CHECK(e.problems().front().reason.find("bytes; at most " + std::to_string(limits::kMaxLessonBytes)) != std::string::npos);
  }
  out = check_text(many_intents(10000).dump());
  CHECK(has(out["error"]["reason"], "bytes; at most " + std::to_string(limits::kMaxInputBytes)));

  // Within the script's limit, too many intents.
  out = check_text(many_intents(limits::kMaxIntents + 1).dump());
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/scenario/script");
  CHECK(has(out["errors"][0]["reason"], "delivers " + std::to_string(limits::kMaxIntents + 1) + " intents"));
}

TEST_CASE("an intent's or a layer's name and a payload are bounded: a run holds them on every step") {
  json j = many_intents(1);
  j["scenario"]["script"][0]["intent"] = std::string(limits::kMaxNameBytes, 'n');
  j["scenario"]["script"][0]["payload"] = std::string(limits::kMaxPayloadBytes, 'p');
  j["scenario"]["fault_space"] = json::object();
  j["moments"] = json::array();
  j["questions"] = json::array();
  j["self_check"] = json::array();
  j.erase("challenge");
  CHECK(check_text(j.dump())["ok"] == true);  // at the limits
  j["scenario"]["script"][0]["intent"] = std::string(limits::kMaxNameBytes + 1, 'n');
  j["scenario"]["script"][0]["payload"] = std::string(4000, 'p');
  j["scenario"]["client"]["retry_layers"] = {{{"layer", std::string(1000, 'l')}, {"attempts", 2}}};
  j["scenario"]["client"].erase("max_attempts");
  json out = check_text(j.dump());
  REQUIRE(out["ok"] == false);
  std::map<std::string, std::string> reasons;
  for (const json& p : out["errors"]) reasons[p["path"].get<std::string>()] = p["reason"].get<std::string>();
  CHECK(reasons["/scenario/script/0/intent"] == "an intent's name of 41 bytes; at most 40 are allowed (a run holds it on every step that notes it)");
  CHECK(reasons["/scenario/script/0/payload"] == "a payload of 4000 bytes; at most 100 are allowed (a run holds it on every step that notes it)");
  CHECK(reasons["/scenario/client/retry_layers/0/layer"] == "a layer's name of 1000 bytes; at most 40 are allowed (a run holds it on every step that notes it)");
  // What a front end's fields offer no more than (the sandbox's name field).
  json vocab = json::parse(api::call("vocabulary", "{}"));
  CHECK(vocab["limits"]["max_name_bytes"] == limits::kMaxNameBytes);
  CHECK(vocab["limits"]["max_payload_bytes"] == limits::kMaxPayloadBytes);
}

// A bare lesson of 8 intents named and filled up to the limits, each reapplied `reapplies`
// times under a new key per attempt (each reapply a new operation, with rows of its own).
json heavy_lesson(int reapplies) {
  json j = many_intents(8);
  json& s = j["scenario"];
  for (json& a : s["script"]) {
    a["intent"] = a["intent"].get<std::string>() + std::string(limits::kMaxNameBytes - 8, 'n');
    a["payload"] = std::string(limits::kMaxPayloadBytes, 'p');
  }
  for (int i = 0; i < reapplies; ++i) s["script"].push_back({{"at", 300 + 40 * i}, {"do", "reapply"}, {"intent", s["script"][i % 8]["intent"]}});
  s["client"]["key_scope"] = "attempt";
  s["fault_space"] = {{"lose_any_one_message", true}};
  s["faults"] = json::array();
  j["moments"] = json::array();
  j["questions"] = json::array();
  j["self_check"] = json::array();
  j.erase("challenge");
  return j;
}

TEST_CASE("a fault space that would hold too much memory in the page is refused at /scenario/fault_space") {
  json out = check_text(heavy_lesson(24).dump());
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/scenario/fault_space");
  CHECK(has(out["errors"][0]["reason"], "MiB of memory in the page's engine; at most 20.0 MiB are allowed"));
  CHECK(check_text(heavy_lesson(8).dump())["ok"] == true);
}

TEST_CASE("a run that shows too many table rows over its steps is refused at /scenario/script") {
  // No fault space, so little to hold; but 383 steps showing up to 8 intents, their keys
  // (one per attempt), effects, outbox rows and emails at each.
  json j = heavy_lesson(24);
  j["scenario"]["fault_space"] = {{"lose_any_one_message", false}};
  j["scenario"]["client"]["max_attempts"] = 20;
  j["scenario"]["service"] = {{"processing_ms", 500}, {"notify", "outbox"}};
  json out = check_text(j.dump());
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/scenario/script");
  CHECK(has(out["errors"][0]["reason"], "table rows over its"));
  CHECK(has(out["errors"][0]["reason"], "at most " + std::to_string(limits::kMaxShownRows)));
}

TEST_CASE("a lesson whose questions would simulate too much is refused at /questions, before they are answered") {
  json j = lesson_json("01-lost-receipt.json");
  j["scenario"]["fault_space"] = many_intents(1)["scenario"]["fault_space"];  // every crash point
  json choose;
  for (const json& q : j["questions"]) {
    if (q["kind"] == "choose") choose = q;
  }
  REQUIRE(choose.is_object());
  json options = json::array();
  const char* dos[] = {"reconcile", "resend_same_key", "resend_new_key", "mark_failed", "wait", "crash_client", "restart_client", "reconcile"};
  for (int k = 0; k < limits::kMaxOptions; ++k) {
    options.push_back({{"id", "o" + std::to_string(k)}, {"label", choose["options"][0]["label"]}, {"do", dos[k]}});
  }
  choose["options"] = options;
  const int shipped = static_cast<int>(j["questions"].size());
  for (int i = 0; i < limits::kMaxQuestions - shipped; ++i) {
    choose["id"] = "again-" + std::to_string(i);
    j["questions"].push_back(choose);
  }
  json out = check_text(j.dump());
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/questions");
  CHECK(has(out["errors"][0]["reason"], "steps; at most " + std::to_string(limits::kMaxCheckWork)));
}

TEST_CASE("a file with 20,000 unknown fields gets the first problems and a note that more follow") {
  json lesson = lesson_json("01-lost-receipt.json");
  for (int i = 0; i < 20000; ++i) lesson["x" + std::to_string(i)] = 0;
  json out = check_text(lesson.dump());
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"].size() == static_cast<std::size_t>(limits::kMaxProblems) + 1);
  CHECK(out["errors"].back()["reason"] == "more problems follow: fix these first");
}

TEST_CASE("a lesson file over the size limit is refused before it is parsed") {
  json lesson = lesson_json("01-lost-receipt.json");
  lesson["summary"]["en"] = std::string(limits::kMaxLessonBytes, 'x');
  json out = check_text(lesson.dump());
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "");
  CHECK(has(out["errors"][0]["reason"], "bytes; at most " + std::to_string(limits::kMaxLessonBytes)));
}

TEST_CASE("1,000 bad calls, then a good one: the same bytes as the good call alone") {
  const std::string good = json{{"file", "lessons/01-lost-receipt.json"}, {"text", read_lesson_text("01-lost-receipt.json")}}.dump();
  const std::string alone = api::call("run", good);
  REQUIRE(json::parse(alone).contains("steps"));

  json lesson = lesson_json("01-lost-receipt.json");
  lesson["moments"][0]["at"]["event"] = "@@";
  const std::string deep = json{{"file", "deep.json"}, {"text", splice(lesson, nested(5000))}}.dump();
  lesson["moments"][0]["at"]["event"] = "commit";
  lesson["scenario"]["seed"] = "@@";
  const std::string huge = json{{"file", "huge.json"}, {"text", splice(lesson, "1e400")}}.dump();
  const std::string comma = json{{"file", "comma.json"}, {"text", "{\"id\": \"x\"，\"level\": 1}"}}.dump();
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"run", deep},
      {"answers", huge},
      {"check", comma},
      {"run", "{\"file\": \"u\", \"text\": \"\xff\xfe\"}"},       // invalid UTF-8
      {"compare", "{\"scenario\": " + nested(3500) + "}"},        // the page's RangeError
      {"explore", "\x01\x02garbage{{{"},
      {"answer", "{\"file\": \"f\", \"text\": \"[1e999]\", \"answer\": 1}"},
      {"run", many_intents(133).dump()},
      {"no_such_method", good},
      {"simulate", "{\"runs\": 1e400}"},
  };
  for (int i = 0; i < 1000; ++i) {
    const std::pair<std::string, std::string>& c = bad[static_cast<std::size_t>(i) % bad.size()];
    json out = json::parse(api::call(c.first, c.second));
    REQUIRE_MESSAGE((out.contains("error") || out["ok"] == false), c.first << ": " << out.dump().substr(0, 200));
  }
  CHECK(api::call("run", good) == alone);
}
