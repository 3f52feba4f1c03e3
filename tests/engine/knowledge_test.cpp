#include <doctest/doctest.h>

#include <set>

#include "engine/knowledge/knowledge.hpp"
#include "lesson_file.hpp"

using namespace idemlab;

namespace {
Cell cell_at(const PreparedLesson& p, const std::string& moment, Side side, const std::string& fact) {
  return p.knowledge->cell(side, p.moment_step.at(moment), *p.lesson.fact(fact));
}
}  // namespace

TEST_CASE("lost-receipt: what each side knows at the three moments") {
  auto p = prepared_lesson("01-lost-receipt.json");

  SUBCASE("the service knows the effect exists from its commit on") {
    for (const char* m : {"service_commits", "response_lost", "client_retries"}) {
      Cell c = cell_at(*p, m, Side::Service, "effect_exists");
      CHECK_MESSAGE(c.verdict() == "knows_true", m);
    }
  }
  SUBCASE("the service cannot know whether its response arrived") {
    for (const char* m : {"response_lost", "client_retries"}) {
      Cell c = cell_at(*p, m, Side::Service, "response_arrived");
      CHECK_MESSAGE(c.verdict() == "cannot_know", m);
      // The witness is a run where the response did arrive.
      REQUIRE(c.witness_world >= 0);
      CHECK(c.witness_value == true);
    }
  }
  SUBCASE("the client cannot know whether the effect exists until it reconciles") {
    for (const char* m : {"service_commits", "response_lost", "after_timeout", "client_retries"}) {
      Cell c = cell_at(*p, m, Side::Client, "effect_exists");
      CHECK_MESSAGE(c.verdict() == "cannot_know", m);
    }
    Cell after = cell_at(*p, "reconciled", Side::Client, "effect_exists");
    CHECK(after.verdict() == "knows_true");
  }
  SUBCASE("the client's doubt after its timeout is witnessed by a run where the request was lost") {
    Cell c = cell_at(*p, "after_timeout", Side::Client, "effect_exists");
    REQUIRE(c.witness_world > 0);
    const World& w = p->worlds[c.witness_world];
    REQUIRE(w.plan.faults.size() == 1);
    CHECK(w.plan.faults[0].id() == "drop:request:weekly-report:1");
    CHECK(c.witness_value == false);
  }
}

TEST_CASE("the actual run is world 0 and every world is a distinct fault plan") {
  auto p = prepared_lesson("01-lost-receipt.json");
  CHECK(p->worlds[0].actual);
  CHECK(p->worlds[0].plan.id() == "drop:response:weekly-report:1");
  std::set<std::string> ids;
  for (const World& w : p->worlds) CHECK(ids.insert(w.plan.id()).second);
  CHECK(ids.count(""));  // the fault-free run
  CHECK(ids.count("drop:request:weekly-report:1"));
}

TEST_CASE("a side knows its own events: the client knows its response did not arrive") {
  auto p = prepared_lesson("01-lost-receipt.json");
  Cell c = cell_at(*p, "after_timeout", Side::Client, "response_arrived");
  CHECK(c.verdict() == "knows_false");
}

TEST_CASE("a crash wipes the client's memory: after a restart it knows only its durable rows") {
  // send-first: the request leaves before the intent is stored and the client crashes
  // right after sending. Before the crash the client saw itself send; after the restart
  // its table is empty in this run and in the run where the request was lost, so it
  // cannot know whether the effect exists.
  auto p = prepared_lesson("06-send-first.json");
  const Run& run = p->worlds[0].run;
  int sent = -1, restarted = -1;
  for (const Step& s : run.steps) {
    if (s.event.side != Side::Client) continue;
    if (s.event.type == EventKind::Send && sent < 0) sent = s.i;
    if (s.event.type == EventKind::Restart) restarted = s.i;
  }
  REQUIRE(sent >= 0);
  REQUIRE(restarted > sent);
  FactRef effect{"effect_exists", "effect_exists", first_intent(p->lesson.scenario)};
  Cell after = p->knowledge->cell(Side::Client, restarted, effect);
  CHECK(after.verdict() == "cannot_know");
  // The doubt is a run where the request never reached the service.
  REQUIRE(after.witness_world > 0);
  CHECK(p->worlds[after.witness_world].plan.id().find("drop:request:") != std::string::npos);
  // The service, which never crashed, knows the effect exists once it has committed.
  CHECK(p->knowledge->cell(Side::Service, static_cast<int>(run.steps.size()) - 1, effect).verdict() ==
        "knows_true");
}
