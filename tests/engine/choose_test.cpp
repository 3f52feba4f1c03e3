// Choose questions ("choose the next action"): every option is run in every run the
// client cannot tell apart at the moment, and judged by how those runs end.
#include <doctest/doctest.h>

#include <functional>

#include "engine/api/api.hpp"
#include "engine/lesson/answers.hpp"
#include "engine/lesson/choose.hpp"
#include "lesson_file.hpp"

using namespace idemlab;
using nlohmann::json;

namespace {

const Question& choose_question(const PreparedLesson& p) {
  for (const Question& q : p.lesson.questions) {
    if (q.kind == "choose") return q;
  }
  FAIL("lost-receipt has no choose question");
  throw std::logic_error("unreachable");
}

const OptionJudgement& judged(const std::vector<OptionJudgement>& all, const std::string& does, const Question& q) {
  for (std::size_t i = 0; i < q.options.size(); ++i) {
    if (q.options[i].does == does) return all[i];
  }
  FAIL("no option does " << does);
  throw std::logic_error("unreachable");
}

// lost-receipt with its choose question's options replaced by `options` ({id, do}).
json check_with_options(const std::vector<std::pair<std::string, std::string>>& options, std::size_t* index) {
  json j = json::parse(read_lesson_text("01-lost-receipt.json"));
  for (std::size_t i = 0; i < j["questions"].size(); ++i) {
    json& q = j["questions"][i];
    if (q["kind"] != "choose") continue;
    *index = i;
    q["options"] = json::array();
    for (const auto& [id, does] : options) {
      q["options"].push_back({{"id", id}, {"label", {{"zh-CN", id}, {"en", id}}}, {"do", does}});
    }
  }
  return json::parse(api::call("check", json{{"file", "lessons/choose.json"}, {"text", j.dump()}}.dump()));
}

}  // namespace

TEST_CASE("lost-receipt after the timeout: a new key duplicates, FAILED lies, reconciling is safe") {
  auto p = prepared_lesson("01-lost-receipt.json");
  const Question& q = choose_question(*p);
  std::string unsettled;
  std::vector<OptionJudgement> all = judge_options(*p, q, unsettled);
  REQUIRE(unsettled.empty());

  // The client cannot tell "the request was lost" from "the response was lost" here.
  const OptionJudgement& reconcile = judged(all, "reconcile", q);
  REQUIRE(reconcile.runs.size() >= 2);

  SUBCASE("resending under a new key makes a second effect in the run where only the response was lost") {
    const OptionJudgement& o = judged(all, "resend_new_key", q);
    CHECK_FALSE(o.safe);
    REQUIRE(o.witness >= 0);
    const OptionRun& w = o.runs[o.witness];
    CHECK(w.problem == "duplicate_effect");
    CHECK(w.effects == 2);
    const World& world = p->worlds[w.world];
    REQUIRE(world.plan.faults.size() == 1);
    CHECK(world.plan.faults[0].id() == "drop:response:weekly-report:1");
    CHECK(o.explanation.en.find("the response of attempt 1 is lost") != std::string::npos);
    CHECK(o.explanation.zh.find("第 1 次尝试的响应丢失") != std::string::npos);
  }
  SUBCASE("marking FAILED leaves a false belief where the effect exists") {
    const OptionJudgement& o = judged(all, "mark_failed", q);
    CHECK_FALSE(o.safe);
    const OptionRun& w = o.runs[o.witness];
    CHECK(w.problem == "false_failure");
    CHECK(w.status == "FAILED");
    CHECK(w.effects == 1);
  }
  SUBCASE("reconciling ends with one effect and DELIVERED in every run the client cannot tell apart") {
    CHECK(reconcile.safe);
    for (const OptionRun& r : reconcile.runs) {
      CHECK(r.effects == 1);
      CHECK(r.status == "DELIVERED");
    }
  }
  SUBCASE("a learner who picks the unsafe option is told the run where it duplicates") {
    std::string unsafe = judged(all, "resend_new_key", q).id;
    Verdict v = check_answer(*p, q.id, unsafe);
    CHECK_FALSE(v.correct);
    CHECK(v.expected.answer == reconcile.id);
    CHECK(v.expected.explanation.en.rfind("Unsafe: in this run itself (the response of attempt 1 is lost)", 0) == 0);
    REQUIRE(v.options.size() == q.options.size());
    for (const json& o : v.options) CHECK(o["safe"] == (o["id"] == reconcile.id));
    CHECK(check_answer(*p, q.id, reconcile.id).correct);
  }
}

TEST_CASE("a choose question without exactly one safe option is refused") {
  std::size_t index = 0;
  SUBCASE("two safe options: reconciling, and resending under the same key the service deduplicates") {
    json out = check_with_options({{"lookup", "reconcile"}, {"same-key", "resend_same_key"}, {"new-key", "resend_new_key"}}, &index);
    REQUIRE(out["ok"] == false);
    CHECK(out["errors"][0]["file"] == "lessons/choose.json");
    CHECK(out["errors"][0]["path"] == "/questions/" + std::to_string(index) + "/options");
    CHECK(out["errors"][0]["reason"].get<std::string>().find("options 'lookup', 'same-key' are all safe") != std::string::npos);
  }
  SUBCASE("no safe option: the reason names each option's witness run") {
    json out = check_with_options({{"new-key", "resend_new_key"}, {"give-up", "mark_failed"}}, &index);
    REQUIRE(out["ok"] == false);
    std::string reason = out["errors"][0]["reason"].get<std::string>();
    CHECK(reason.rfind("no option is safe", 0) == 0);
    CHECK(reason.find("'new-key': Unsafe: in this run itself") != std::string::npos);
    CHECK(reason.find("'give-up': Unsafe:") != std::string::npos);
  }
  SUBCASE("an unknown action, and deliver, are refused where they stand") {
    json out = check_with_options({{"a", "retry_forever"}, {"b", "deliver"}}, &index);
    REQUIRE(out["ok"] == false);
    std::string at = "/questions/" + std::to_string(index) + "/options/";
    CHECK(out["errors"][0]["path"] == at + "0/do");
    CHECK(out["errors"][1]["path"] == at + "1/do");
  }
}
