#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/invariants/invariants.hpp"
#include "engine/knowledge/worlds.hpp"
#include "engine/lesson/forks.hpp"
#include "engine/lesson/warnings.hpp"
#include "lesson_file.hpp"

using namespace idemlab;

// The course's side-by-side lessons put the mistake first and the fix second. Over the
// whole fault space of the lesson, the fix never ends in a failure a user would notice,
// and the mistake shows its failure in the lesson's own run (docs/design.md, "The model":
// each knob has a right and a wrong setting).
namespace {

// The failures the course names are the invariants' violations (engine/invariants/) about
// the counted intent; "" when there is none, else the first one's reason.
std::string failure(const Run& run, const std::string& intent) {
  std::vector<Violation> broken = check_invariants(run).about(intent);
  return broken.empty() ? "" : broken.front().reason.en;
}

}  // namespace

TEST_CASE("every side-by-side lesson: the mistake fails in the lesson's run, the fix never fails in its fault space") {
  int compared = 0;
  for (const std::string& name : shipped_lessons()) {
    auto p = prepared_lesson(name);
    if (!p->lesson.compare) continue;
    ++compared;
    const Comparison& c = *p->lesson.compare;
    std::string intent = c.intent.empty() ? first_intent(p->lesson.scenario) : c.intent;
    CAPTURE(name);
    REQUIRE(c.policies.size() == 2);

    std::vector<World> wrong = build_worlds(c.policies[0].scenario);
    CHECK_MESSAGE(!failure(wrong[0].run, intent).empty(),
                  name << ": policy '" << c.policies[0].id << "' shows no failure in the lesson's own run");

    std::vector<World> right = build_worlds(c.policies[1].scenario);
    CHECK(right.size() > 1);  // a fault space, not one run
    for (const World& w : right) {
      std::string f = failure(w.run, intent);
      CHECK_MESSAGE(f.empty(), name << ": policy '" << c.policies[1].id << "' fails (" << f << ") in the run where "
                                    << w.plan.describe().en);
    }
  }
  CHECK(compared >= 2);
}

TEST_CASE("every shipped lesson asks at least three checked questions, one of them run over the fault space") {
  for (const std::string& name : shipped_lessons()) {
    auto p = prepared_lesson(name);
    CAPTURE(name);
    int checked = 0, over_space = 0;
    for (const Question& q : p->lesson.questions) {
      checked += q.kind != "concept";
      over_space += q.kind == "predict" || q.kind == "choose";
    }
    CHECK(checked >= 3);
    CHECK(over_space >= 1);
    CHECK(!p->lesson.self_check.empty());
    CHECK((p->lesson.level == "intro" || p->lesson.level == "advanced"));
  }
}

TEST_CASE("no shipped lesson gives an answer away by its option lengths or piles questions on one step") {
  for (const std::string& name : shipped_lessons()) {
    auto p = prepared_lesson(name);
    CAPTURE(name);
    std::vector<LessonProblem> warnings = lesson_warnings(*p);
    for (const LessonProblem& w : warnings) MESSAGE(w.path << ": " << w.reason);
    CHECK(warnings.empty());
  }
}
