#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/explore/explore.hpp"
#include "engine/invariants/invariants.hpp"
#include "engine/knowledge/worlds.hpp"
#include "engine/lesson/forks.hpp"
#include "engine/lesson/incident.hpp"
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
    std::string intent = c.counted_intent(p->lesson.scenario);
    CAPTURE(name);
    REQUIRE(c.policies.size() == 2);

    // An incident whose report saw no broken invariant (ubicloud: a refusal, nothing
    // launched) shows its reported outcome instead, held by the test below.
    const bool reported_safe = p->lesson.incident && !p->lesson.incident->violation;
    std::vector<World> wrong = build_worlds(c.policies[0].scenario);
    CHECK_MESSAGE((reported_safe || !failure(wrong[0].run, intent).empty()),
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

TEST_CASE("every shipped lesson asks at least three checked questions (an incident one), one of them run over the fault space") {
  for (const std::string& name : shipped_lessons()) {
    auto p = prepared_lesson(name);
    CAPTURE(name);
    int checked = 0, over_space = 0;
    for (const Question& q : p->lesson.questions) {
      checked += q.kind != "concept";
      over_space += q.kind == "predict" || q.kind == "choose";
    }
    const bool incident = p->lesson.incident.has_value();
    CHECK(checked >= (incident ? 1 : 3));
    CHECK(over_space >= 1);
    CHECK((incident || !p->lesson.self_check.empty()));
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

// The incidents (lessons/README.md, "Incidents"): each replays a public report, so its
// reported behaviour must end with what the report saw, and its fix is a side-by-side fix
// like any other (the first test case above holds it to no failure over the fault space).
TEST_CASE("every shipped incident's reported run ends with what its report saw") {
  int incidents = 0;
  for (const std::string& name : shipped_lessons()) {
    auto p = prepared_lesson(name);
    if (!p->lesson.incident) continue;
    ++incidents;
    CAPTURE(name);
    CHECK(name.rfind("incident-", 0) == 0);
    CHECK(p->lesson.compare.has_value());
    for (const LessonProblem& problem : incident_problems(p->lesson)) FAIL_CHECK(problem.path << ": " << problem.reason);
  }
  MESSAGE(incidents << " incidents");
}

// The bar for an incident's fix: besides its own fault space (the first test case
// above), the explorer's every schedule of up to two faults, of every kind the engine
// injects (lost messages, crashes, 500s and 429s, refused connections), breaks nothing
// about the intent the comparison counts.
TEST_CASE("every shipped incident's fix breaks nothing in any schedule of up to two faults") {
  int explored = 0;
  for (const std::string& name : shipped_lessons()) {
    auto p = prepared_lesson(name);
    if (!p->lesson.incident) continue;
    const Comparison& c = *p->lesson.compare;
    const std::string intent = c.counted_intent(p->lesson.scenario);
    CAPTURE(name);
    ExploreLimits limits;
    limits.max_faults = 2;
    ExploreResult r = explore(c.policies[1].scenario, limits);
    CHECK(r.complete);
    CHECK(r.schedules > 1);
    for (const Counterexample& x : r.counterexamples) {
      CHECK_MESSAGE(x.violation.intent != intent, name << ": policy '" << c.policies[1].id << "' breaks "
                                                       << x.violation.reason.en << " when " << x.plan.describe().en);
    }
    ++explored;
  }
  CHECK(explored >= 9);
}
