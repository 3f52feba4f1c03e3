// What stays hidden while a question is unanswered (engine/lesson/gating.hpp): the engine
// computes it and `run` hands it to the page with every question.
#include <doctest/doctest.h>

#include <set>

#include "engine/api/api.hpp"
#include "engine/lesson/gating.hpp"
#include "lesson_file.hpp"

using namespace idemlab;
using nlohmann::json;

namespace {

const Question& question(const PreparedLesson& p, const std::string& id) {
  const Question* q = p.lesson.question(id);
  REQUIRE_MESSAGE(q, "no question " << id);
  return *q;
}

const Question& first_of_kind(const PreparedLesson& p, const std::string& kind) {
  for (const Question& q : p.lesson.questions) {
    if (q.kind == kind) return q;
  }
  FAIL("no " << kind << " question in " << p.lesson.id);
  throw std::logic_error("unreachable");
}

// The union over the unanswered questions, as the page applies it.
bool narration_hidden(const PreparedLesson& p, int step, const std::set<std::string>& answered) {
  for (const Question& q : p.lesson.questions) {
    if (!answered.count(q.id) && hides_of(p, q).hides_narration(step)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("lost-receipt's choose question keeps its step's narration back until it is answered") {
  auto p = prepared_lesson("01-lost-receipt.json");
  const Question& q = first_of_kind(*p, "choose");
  int step = p->question_step(q);
  // The moment at the card's step says what the client does next: the answer.
  REQUIRE(p->moment_step.at(q.moment) == step);
  Hides h = hides_of(*p, q);
  CHECK(h.hides_narration(step));
  CHECK_FALSE(h.hides_narration(step - 1));
  CHECK(narration_hidden(*p, step, {}));
  std::set<std::string> all_but;
  for (const Question& other : p->lesson.questions) {
    if (p->question_step(other) != step) all_but.insert(other.id);
  }
  // Still hidden while any question at that step is open; shown once all are answered.
  CHECK(narration_hidden(*p, step, all_but));
  std::set<std::string> every;
  for (const Question& other : p->lesson.questions) every.insert(other.id);
  CHECK_FALSE(narration_hidden(*p, step, every));
}

TEST_CASE("a choose or predict question hides the truth from the step after the previous card to the end") {
  auto p = prepared_lesson("01-lost-receipt.json");
  const Question& q = first_of_kind(*p, "choose");
  int step = p->question_step(q);
  Hides h = hides_of(*p, q);
  int last = static_cast<int>(p->run().steps.size()) - 1;
  CHECK(h.hides_truth(step));
  CHECK(h.hides_truth(last));  // the answer is about what happens next
  CHECK(h.cells.empty());      // no grid column tells which action is safe
  // The previous card stands at an earlier step: the truth there belongs to its question.
  int previous = -1;
  for (const Question& o : p->lesson.questions) {
    int s = p->question_step(o);
    if (s < step && s > previous) previous = s;
  }
  REQUIRE(previous >= 0);
  CHECK_FALSE(h.hides_truth(previous));
  CHECK(h.hides_truth(previous + 1));
}

TEST_CASE("a knowledge question hides its own side's column at every step up to its card, and the truth at its step") {
  auto p = prepared_lesson("01-lost-receipt.json");
  // Not the first card: before, its column was hidden only from the previous card on, and
  // the same cell could be read, unchanged, a few steps earlier.
  const Question& q = question(*p, "client-knows-after-reconcile");
  int step = p->question_step(q);
  Hides h = hides_of(*p, q);
  for (int s = 0; s <= step; ++s) CHECK(h.hides_cell(Side::Client, s));
  CHECK_FALSE(h.hides_cell(Side::Service, step));
  CHECK(h.hides_truth(step));
  CHECK_FALSE(h.hides_truth(step - 1));
}

TEST_CASE("a moment table hides both sides at every step up to its card") {
  auto p = prepared_lesson("01-lost-receipt.json");
  const Question& q = first_of_kind(*p, "table");
  Hides h = hides_of(*p, q);
  REQUIRE(q.moments.size() >= 2);
  int step = p->question_step(q);
  // The learner reaches every step up to the card while the table is open: a step between
  // two moments shows the cells of the moment before it, unchanged.
  for (int s = 0; s <= step; ++s) {
    CAPTURE(s);
    CHECK(h.hides_cell(Side::Client, s));
    CHECK(h.hides_cell(Side::Service, s));
  }
  CHECK(h.hides_truth(step));
}

TEST_CASE("a concept question hides no cell and no truth") {
  auto p = prepared_lesson("01-lost-receipt.json");
  Hides h = hides_of(*p, first_of_kind(*p, "concept"));
  CHECK(h.cells.empty());
  CHECK(h.truth.empty());
}

TEST_CASE("stale-pending keeps its last step's narration back while a question there is open") {
  auto p = prepared_lesson("05-stale-pending.json");
  int last = static_cast<int>(p->run().steps.size()) - 1;
  bool moment_at_last = false;
  for (const auto& [id, s] : p->moment_step) moment_at_last = moment_at_last || s == last;
  bool question_at_last = false;
  for (const Question& q : p->lesson.questions) question_at_last = question_at_last || p->question_step(q) == last;
  REQUIRE(moment_at_last);
  REQUIRE(question_at_last);
  CHECK(narration_hidden(*p, last, {}));
}

TEST_CASE("no question hides the narration of a step where no card stands") {
  for (const std::string& name : shipped_lessons()) {
    auto p = prepared_lesson(name);
    std::set<int> card_steps;
    for (const Question& q : p->lesson.questions) card_steps.insert(p->question_step(q));
    for (const auto& entry : p->moment_step) {
      const std::string id = entry.first;  // a plain variable: CAPTURE cannot take a structured binding
      const int s = entry.second;
      CAPTURE(name);
      CAPTURE(id);
      CHECK(narration_hidden(*p, s, {}) == (card_steps.count(s) > 0));
    }
  }
}

TEST_CASE("run gives every question what it hides, as inclusive step ranges") {
  std::string text = read_lesson_text("01-lost-receipt.json");
  json run = json::parse(api::call("run", json{{"file", "lessons/01-lost-receipt.json"}, {"text", text}}.dump()));
  REQUIRE(run.contains("lesson"));
  for (const json& q : run["lesson"]["questions"]) {
    CAPTURE(q["id"]);
    REQUIRE(q.contains("hides"));
    const json& h = q["hides"];
    REQUIRE(h["cells"].is_array());
    REQUIRE(h["truth"].is_array());
    REQUIRE(h["narration"].is_array());
    for (const json& c : h["cells"]) {
      CHECK((c["side"] == "client" || c["side"] == "service"));
      CHECK(c["from"].get<int>() <= c["to"].get<int>());
    }
    if (q["kind"] == "choose" || q["kind"] == "predict") {
      REQUIRE(h["truth"].size() == 1);
      CHECK(h["truth"][0]["to"].is_null());
    }
    if (q["kind"] == "knowledge") {
      REQUIRE(h["cells"].size() == 1);
      CHECK(h["cells"][0]["side"] == q["side"]);
      CHECK(h["cells"][0]["to"] == q["step"]);
      CHECK(h["truth"] == json::array({{{"from", q["step"]}, {"to", q["step"]}}}));
    }
  }
}
