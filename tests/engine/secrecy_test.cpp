// Secrecy (engine/lesson/secrecy.hpp): nothing on screen while a question is open gives its
// answer away; `check` refuses a lesson whose asked cells can be read, warns about texts
// that quote an answer, and the engine's own feedback withholds what an open question asks.
#include <doctest/doctest.h>

#include <set>

#include "engine/api/api.hpp"
#include "engine/lesson/gating.hpp"
#include "engine/lesson/secrecy.hpp"
#include "lesson_file.hpp"

using namespace idemlab;
using nlohmann::json;

namespace {

json base() { return json::parse(read_lesson_text("01-lost-receipt.json")); }

json check(const json& lesson) {
  return json::parse(api::call("check", json{{"file", "lessons/leak.json"}, {"text", lesson.dump()}}.dump()));
}

std::shared_ptr<const PreparedLesson> prepared(const json& lesson) {
  return prepare_lesson(load_lesson("lessons/leak.json", lesson.dump()));
}

std::size_t index_of(const json& lesson, const std::string& qid) {
  for (std::size_t i = 0; i < lesson["questions"].size(); ++i) {
    if (lesson["questions"][i]["id"] == qid) return i;
  }
  FAIL("no question " << qid);
  return 0;
}

json text(const std::string& zh, const std::string& en) { return {{"zh-CN", zh}, {"en", en}}; }

std::vector<json> warnings_at(const json& out, const std::string& path) {
  std::vector<json> found;
  for (const json& w : out["warnings"]) {
    if (w["path"] == path) found.push_back(w);
  }
  return found;
}

}  // namespace

TEST_CASE("check refuses a question whose cell an earlier question's answer gives away one step later") {
  json lesson = base();
  // One step after the card of "does the client know whether its request arrived?" the
  // client has seen nothing new: the same question there has the same answer, shown on the
  // earlier card once it is answered.
  const std::size_t first = index_of(lesson, "client-knows-request-arrived");
  lesson["moments"].push_back({{"id", "timed_out"},
                               {"at", {{"event", "timeout"}}},
                               {"label", text("超时", "The timeout")},
                               {"narration", text("客户端等到了超时。", "The client's wait times out.")}});
  json again = lesson["questions"][first];
  again["id"] = "client-knows-request-arrived-again";
  again["moment"] = "timed_out";
  lesson["questions"].push_back(again);
  json out = check(lesson);
  REQUIRE(out["ok"] == false);
  const std::string path = "/questions/" + std::to_string(lesson["questions"].size() - 1);
  REQUIRE(out["errors"][0]["path"] == path);
  std::string reason = out["errors"][0]["reason"].get<std::string>();
  CHECK(reason.find("client-knows-request-arrived'") != std::string::npos);  // names the question that gives it
  CHECK(reason.find("request_arrived") != std::string::npos);
  CHECK(reason.find("cannot_know") != std::string::npos);

  // Without the repeat the lesson is accepted.
  lesson["questions"].erase(lesson["questions"].size() - 1);
  CHECK(check(lesson)["ok"] == true);
}

TEST_CASE("no shipped lesson shows an open knowledge or table question's cells at a step the learner can reach") {
  for (const std::string& name : shipped_lessons()) {
    CAPTURE(name);
    auto p = prepared_lesson(name);
    for (const Question& q : p->lesson.questions) {
      std::vector<AskedCell> asked = asked_cells(*p, q);
      if (asked.empty()) continue;
      CAPTURE(q.id);
      Hides h = hides_of(*p, q);
      const int card = p->question_step(q);
      for (const AskedCell& a : asked) {
        // While q is open the learner reaches steps 0..card and no further.
        for (int s = 0; s <= card; ++s) CHECK(h.hides_cell(a.side, s));
      }
    }
    CHECK(secrecy_problems(*p).empty());
  }
}

TEST_CASE("a self-check line quoting an open question's answer is warned about until an author reviews it") {
  json lesson = base();
  lesson["self_check"][0] = text("我能说出：超时之后客户端只能记 UNKNOWN。", "I can say why the client can only record UNKNOWN after a timeout.");
  json out = check(lesson);
  REQUIRE(out["ok"] == true);
  std::vector<json> found = warnings_at(out, "/self_check/0");
  REQUIRE(found.size() == 1);
  std::string reason = found[0]["reason"].get<std::string>();
  CHECK(reason.find("\"UNKNOWN\"") != std::string::npos);
  CHECK(reason.find("status-after-timeout") != std::string::npos);

  // A reviewed entry says why the words give nothing away: no warning.
  lesson["reviewed"] = json::array({{{"path", "/self_check/0"}, {"question", "status-after-timeout"}, {"why", "a test"}}});
  out = check(lesson);
  CHECK(warnings_at(out, "/self_check/0").empty());
  CHECK(warnings_at(out, "/reviewed/0").empty());

  // Once the text no longer says it, the entry is stale, and check says so.
  lesson["self_check"][0] = base()["self_check"][0];
  out = check(lesson);
  CHECK(warnings_at(out, "/reviewed/0").size() == 1);

  // An entry must name a question of the lesson and say why.
  lesson["reviewed"][0]["question"] = "no-such-question";
  lesson["reviewed"][0]["why"] = "";
  out = check(lesson);
  REQUIRE(out["ok"] == false);
  std::set<std::string> paths;
  for (const json& e : out["errors"]) paths.insert(e["path"].get<std::string>());
  CHECK(paths.count("/reviewed/0/question"));
  CHECK(paths.count("/reviewed/0/why"));
}

TEST_CASE("a moment label before the card that states a predicted status is warned about; one after it is not") {
  json lesson = base();
  const std::size_t q = index_of(lesson, "status-after-timeout");
  const std::string moment = lesson["questions"][q]["moment"];
  std::size_t m = 0;
  while (lesson["moments"][m]["id"] != moment) ++m;
  lesson["moments"][m]["label"] = text("响应丢失，客户端将记下 UNKNOWN", "The response is lost; UNKNOWN follows");
  json out = check(lesson);
  CHECK(warnings_at(out, "/moments/" + std::to_string(m) + "/label").size() == 1);
  // The moment that comes after the card ("Timeout: recorded as UNKNOWN") is out of reach
  // while the question is open.
  for (std::size_t k = 0; k < lesson["moments"].size(); ++k) {
    if (lesson["moments"][k]["id"] == "after_timeout") CHECK(warnings_at(out, "/moments/" + std::to_string(k) + "/label").empty());
  }
}

TEST_CASE("gives_away reads a count beside what it counts, a status as a word, and not an ordinal or an article") {
  auto p = prepared_lesson("01-lost-receipt.json");
  const Question& effects = *p->lesson.question("predict-new-key");      // 2 effects
  const Question& status = *p->lesson.question("status-after-timeout");  // UNKNOWN
  const Question& keys = *p->lesson.question("keys-across-attempts");    // 1 key
  CHECK(gives_away(*p, effects, "the service ends with 2 effects", "en") == "2 effects");
  CHECK(gives_away(*p, effects, "Two duplicate effects appear.", "en") == "Two duplicate effects");
  CHECK(gives_away(*p, effects, "The report is stored twice.", "en") == "twice");
  CHECK(gives_away(*p, effects, "服务端最后有两条业务效果", "zh-CN") == "两条业务效果");
  CHECK(gives_away(*p, effects, "服务端有 2 条业务效果", "zh-CN") == "2 条业务效果");
  CHECK(gives_away(*p, effects, "第二条业务效果出现了", "zh-CN").empty());    // an ordinal
  CHECK(gives_away(*p, effects, "attempt 2. Effects follow", "en").empty());  // across a sentence
  CHECK(gives_away(*p, effects, "send 2 requests", "en").empty());            // another count
  CHECK(gives_away(*p, status, "the client records UNKNOWN", "en") == "UNKNOWN");
  CHECK(gives_away(*p, status, "客户端记为结果未知", "zh-CN") == "结果未知");  // the label's gloss
  CHECK(gives_away(*p, status, "an unknown outcome", "en").empty());
  CHECK(gives_away(*p, keys, "one key for every attempt", "en") == "one key");
  CHECK(gives_away(*p, keys, "生成一个新的操作标识", "zh-CN").empty());  // "一个": an article
  CHECK(gives_away(*p, keys, "只用了 1 个操作标识", "zh-CN") == "1 个操作标识");
}

TEST_CASE("a choice's feedback withholds the run an open predict question at its step asks about") {
  const std::string choose = "next-step-after-timeout", predict = "predict-new-key";
  json in = {{"file", "lessons/01-lost-receipt.json"}, {"text", read_lesson_text("01-lost-receipt.json")},
             {"question", choose}, {"answer", "new-key"}};
  // The learner has not answered "how many effects if it resends under a new key?" yet.
  json out = json::parse(api::call("answer", in.dump()));
  REQUIRE(out["options"].size() == 1);
  const json& o = out["options"][0];
  CHECK(o["withheld"] == predict);
  CHECK(o["runs"].empty());
  CHECK(o["explanation"]["en"].get<std::string>().find("question 4") != std::string::npos);
  CHECK(o["explanation"]["zh-CN"].get<std::string>().find("第 4 题") != std::string::npos);
  CHECK(out.dump().find("2 effects") == std::string::npos);
  CHECK(out.dump().find("\"effects\":2") == std::string::npos);

  // Once it is settled, the option's runs are shown, the duplicate among them.
  in["settled"] = json::array({predict});
  out = json::parse(api::call("answer", in.dump()));
  const json& shown = out["options"][0];
  CHECK_FALSE(shown.contains("withheld"));
  bool two = false;
  for (const json& r : shown["runs"]) two = two || r["effects"] == 2;
  CHECK(two);

  // A right answer's revealed judgements withhold it too while the question is open.
  in.erase("settled");
  in["answer"] = "reconcile";
  out = json::parse(api::call("answer", in.dump()));
  REQUIRE(out["revealed"] == true);
  for (const json& opt : out["options"]) {
    if (opt["id"] == "new-key") CHECK(opt["withheld"] == predict);
  }
  CHECK(out.dump().find("\"effects\":2") == std::string::npos);

  // "settled" names questions by id.
  in["settled"] = json::array({1});
  out = json::parse(api::call("answer", in.dump()));
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/settled/0");
}

TEST_CASE("a choice's runs are withheld while a question asks what the client knows at its step") {
  // cancel-not-undo: "does the client know the original was stored?" and "what next for the
  // original?" stand at one step; a choice's runs are the runs the client cannot tell apart.
  auto p = prepared_lesson("04-cancel-not-undo.json");
  const Question* knows = p->lesson.question("knows-after-cancel");
  const Question* choose = p->lesson.question("what-next-for-the-original");
  REQUIRE(knows);
  REQUIRE(choose);
  REQUIRE(p->question_step(*knows) == p->question_step(*choose));
  json in = {{"file", "lessons/04-cancel-not-undo.json"}, {"text", read_lesson_text("04-cancel-not-undo.json")},
             {"question", choose->id}, {"answer", "mark-failed"}};
  json out = json::parse(api::call("answer", in.dump()));
  REQUIRE(out["options"].size() == 1);
  CHECK(out["options"][0]["withheld"] == knows->id);
  CHECK(out["options"][0]["runs"].empty());
  // Settled, with every other question (as the page says once the learner has answered them).
  json settled = json::array();
  for (const Question& q : p->lesson.questions) {
    if (q.id != choose->id) settled.push_back(q.id);
  }
  in["settled"] = settled;
  out = json::parse(api::call("answer", in.dump()));
  CHECK_FALSE(out["options"][0].contains("withheld"));
  CHECK(out["options"][0]["runs"].size() >= 2);
}
