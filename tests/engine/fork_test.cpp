// Forking a paused simulation (Simulation::fork) instead of simulating a question's
// prefix again: every forked run must be the run simulated from t = 0 with the action,
// step for step (what a learner reads in a choose option's verdict depends on it).
#include <doctest/doctest.h>

#include "engine/api/api.hpp"
#include "engine/invariants/invariants.hpp"
#include "engine/lesson/forks.hpp"
#include "engine/sim/schedules.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/store/database.hpp"
#include "engine/timeline/timeline_json.hpp"
#include "lesson_file.hpp"

using nlohmann::json;

namespace {

// Everything a run shows: each step as the timeline draws it, the messages, the points
// passed and the faults fired, and why it stopped.
std::string shown(const idemlab::Run& run) {
  idemlab::RunVerdict verdict = idemlab::check_invariants(run);
  std::string out = idemlab::messages_json(run).dump();
  for (std::size_t i = 0; i < run.steps.size(); ++i) out += "\n" + idemlab::step_json(run, static_cast<int>(i), verdict).dump();
  for (const idemlab::Fault& f : run.points) out += "\npoint " + f.id();
  for (const idemlab::Fault& f : run.fired) out += "\nfired " + f.id();
  out += std::string("\nstop ") + idemlab::to_string(run.stop);
  return out;
}

}  // namespace

TEST_CASE("every choose option's run, forked from the world paused at the question, is the run simulated from the start") {
  int compared = 0;
  for (const std::string& name : shipped_lessons()) {
    auto p = prepared_lesson(name);
    for (const idemlab::Question& q : p->lesson.questions) {
      if (q.kind != "choose" && !(q.kind == "predict" && q.fork)) continue;
      std::vector<std::optional<idemlab::Action>> actions;
      if (q.kind == "choose") {
        for (const idemlab::Option& o : q.options) actions.push_back(o.action);
      } else {
        actions.push_back(q.fork);
      }
      int step = p->question_step(q);
      std::string unsettled;
      auto forks = idemlab::fork_runs(*p, step, actions, unsettled);
      REQUIRE(unsettled.empty());
      REQUIRE(forks.size() == actions.size());
      for (std::size_t k = 0; k < actions.size(); ++k) {
        for (const idemlab::ForkedRun& f : forks[k]) {
          const idemlab::World& world = p->worlds[f.world];
          if (!actions[k]) {
            CHECK(f.run == &world.run);
            continue;
          }
          idemlab::Action a = *actions[k];
          a.after_step = f.from_step;
          idemlab::Run direct = idemlab::simulate(p->lesson.scenario, world.plan, {a});
          CHECK_MESSAGE(shown(*f.run) == shown(direct), name << " " << q.id << " option " << k << " world " << f.world);
          ++compared;
        }
      }
    }
  }
  CHECK(compared > 10);
}

TEST_CASE("a fork after any step of a run, the middle of a step's work included, is the run simulated with that action") {
  for (const char* name : {"01-lost-receipt.json", "07-service-ordering.json", "11-outbox.json"}) {
    auto p = prepared_lesson(name);
    const idemlab::Run& own = p->run();
    std::string intent = own.steps.back().snap.intents[0].intent;
    for (idemlab::ActionKind kind : {idemlab::ActionKind::ResendSameKey, idemlab::ActionKind::CrashClient}) {
      for (int j = 0; j < static_cast<int>(own.steps.size()); ++j) {
        idemlab::Action a;
        a.kind = kind;
        a.intent = intent;
        a.after_step = j;
        idemlab::Simulation paused(p->lesson.scenario, p->lesson.scenario.faults, {}, &idemlab::standard_nodes);
        REQUIRE(paused.pause_after(j));
        idemlab::Run forked = idemlab::Simulation::fork(paused, {a})->run();
        idemlab::Run direct = idemlab::simulate(p->lesson.scenario, p->lesson.scenario.faults, {a});
        CHECK_MESSAGE(shown(forked) == shown(direct), name << " after step " << j);
        // Taking the paused run over gives the same run, and leaves nothing to fork again.
        idemlab::Run taken = idemlab::Simulation::fork(paused, {a}, true)->run();
        CHECK_MESSAGE(shown(taken) == shown(direct), name << " after step " << j << ", taken over");
        CHECK_THROWS_AS(idemlab::Simulation::fork(paused, {a}), std::logic_error);
      }
      // A paused simulation forked without taking it over is left as it was: run on by
      // itself, it is the lesson's run.
      for (int j : {0, static_cast<int>(own.steps.size()) / 2}) {
        idemlab::Simulation paused(p->lesson.scenario, p->lesson.scenario.faults, {}, &idemlab::standard_nodes);
        REQUIRE(paused.pause_after(j));
        idemlab::Action a;
        a.kind = kind;
        a.intent = intent;
        a.after_step = j;
        idemlab::Simulation::fork(paused, {a})->run();
        CHECK(shown(paused.run()) == shown(own));
      }
    }
  }
}

TEST_CASE("a fork cannot be tied to a step the paused run has already gone past") {
  auto p = prepared_lesson("01-lost-receipt.json");
  idemlab::Simulation paused(p->lesson.scenario, p->lesson.scenario.faults, {}, &idemlab::standard_nodes);
  REQUIRE(paused.pause_after(5));
  idemlab::Action a;
  a.kind = idemlab::ActionKind::CrashClient;
  a.after_step = 0;
  CHECK_THROWS_AS(idemlab::Simulation::fork(paused, {a}), std::logic_error);
}

TEST_CASE("a copied database has the same rows and rowids, goes on numbering after them, and is its own") {
  idemlab::Database db = idemlab::Database::with_schema(
      "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL); CREATE TABLE k(name TEXT PRIMARY KEY, n INTEGER)",
      "DELETE FROM t; DELETE FROM k");
  for (const char* v : {"a", "b", "c"}) db.query("INSERT INTO t(v) VALUES (?1)", {idemlab::SqlValue::of(std::string(v))});
  db.query("DELETE FROM t WHERE v = 'a'");
  db.query("INSERT INTO k(name, n) VALUES ('x', NULL), ('y', 2)");
  db.query("DELETE FROM k WHERE name = 'x'");
  db.query("INSERT INTO k(name, n) VALUES ('z', 3)");
  idemlab::Database copy = db.copy();
  const std::string rows_t = "SELECT rowid, id, v FROM t ORDER BY rowid";
  const std::string rows_k = "SELECT rowid, name, n FROM k ORDER BY rowid";
  CHECK(copy.query(rows_t) == db.query(rows_t));
  CHECK(copy.query(rows_k) == db.query(rows_k));
  // Both number the next row alike (after the largest id), and neither sees the other's.
  copy.query("INSERT INTO t(v) VALUES ('d')");
  db.query("INSERT INTO t(v) VALUES ('e')");
  auto in_copy = copy.query("SELECT id, v FROM t ORDER BY id");
  auto in_db = db.query("SELECT id, v FROM t ORDER BY id");
  REQUIRE(in_copy.size() == 3);
  REQUIRE(in_db.size() == 3);
  CHECK(in_copy[2][0].integer == 4);
  CHECK(in_copy[2][1].text == "d");
  CHECK(in_db[2][0].integer == 4);
  CHECK(in_db[2][1].text == "e");
  db.exec("BEGIN");
  CHECK_THROWS_AS(db.copy(), idemlab::DatabaseError);
  db.exec("ROLLBACK");
}

TEST_CASE("simulate's sql_only replays the statements of the same lost-response run") {
  json whole = json::parse(idemlab::api::call("simulate", R"({"runs": 3})"));
  json sql = json::parse(idemlab::api::call("simulate", R"({"runs": 3, "sql_only": true})"));
  CHECK(sql["runs"] == 3);
  CHECK(sql["steps_per_run"] == whole["steps_per_run"]);
  // Each side opens its database and writes its rows: more statements than steps.
  CHECK(sql["statements_per_run"].get<int>() > whole["steps_per_run"].get<int>());
  json bad = json::parse(idemlab::api::call("simulate", R"({"runs": 3, "sql_only": 1})"));
  CHECK(bad.contains("error"));
}

TEST_CASE("every world of every shipped lesson, forked where its fault first applies, is the run simulated from the start") {
  int compared = 0;
  for (const std::string& name : shipped_lessons()) {
    auto p = prepared_lesson(name);
    for (const idemlab::World& w : p->worlds) {
      idemlab::Run direct = idemlab::simulate(p->lesson.scenario, w.plan);
      CHECK_MESSAGE(shown(w.run) == shown(direct), name << " world " << w.id);
      ++compared;
    }
  }
  CHECK(compared > 60);
}

TEST_CASE("a fault added to a run paused before the event that passes its point gives the run planned with it") {
  for (const char* name : {"01-lost-receipt.json", "09-retry-layers.json", "11-outbox.json", "incident-akash-topup.json"}) {
    auto p = prepared_lesson(name);
    const idemlab::Scenario& scenario = p->lesson.scenario;
    idemlab::Run fault_free = idemlab::simulate(scenario, idemlab::FaultPlan{});
    REQUIRE(fault_free.points.size() == fault_free.point_where.size());
    for (std::size_t k = 0; k < fault_free.points.size(); ++k) {
      idemlab::Fault f = fault_free.points[k];
      bool first = true;
      for (std::size_t e = 0; e < k; ++e) first = first && !f.same_point(fault_free.points[e]);
      if (!first) continue;
      idemlab::Simulation paused(scenario, idemlab::FaultPlan{}, {}, &idemlab::standard_nodes);
      REQUIRE(paused.pause_before_work(fault_free.point_where[k].work));
      idemlab::Run forked = idemlab::Simulation::fork_with_fault(paused, f)->run();
      idemlab::Run direct = idemlab::simulate(scenario, idemlab::FaultPlan{{f}});
      CHECK_MESSAGE(shown(forked) == shown(direct), name << " " << f.id());
      // One event later the point has been passed: too late to plan a fault there.
      REQUIRE(paused.pause_before_work(fault_free.point_where[k].work + 1));
      CHECK_THROWS_AS(idemlab::Simulation::fork_with_fault(paused, f), std::logic_error);
    }
  }
}

TEST_CASE("runs with one fault more are the runs planned with it, asked for in the points' order or not") {
  auto p = prepared_lesson("09-retry-layers.json");
  const idemlab::Scenario& scenario = p->lesson.scenario;
  idemlab::Run base = idemlab::simulate(scenario, idemlab::FaultPlan{});
  std::vector<idemlab::Fault> next = idemlab::next_faults(base, idemlab::FaultPlan{}, idemlab::every_fault());
  REQUIRE(next.size() > 5);
  std::vector<int> works = idemlab::first_pass_works(base, next);
  for (int w : works) CHECK(w >= 0);  // each was passed: that is how next_faults found it
  auto direct = [&](const idemlab::Fault& f) { return shown(idemlab::simulate(scenario, idemlab::FaultPlan{{f}})); };
  {
    idemlab::OneMoreFault forks(scenario, &idemlab::standard_nodes, idemlab::FaultPlan{});
    for (std::size_t i = 0; i < next.size(); ++i) {
      CHECK_MESSAGE(shown(forks.run(next[i], works[i], i + 1 == next.size())) == direct(next[i]), next[i].id());
    }
  }
  {
    // Backwards: each paused run has gone past the next fault's point, so it is simulated anew.
    idemlab::OneMoreFault forks(scenario, &idemlab::standard_nodes, idemlab::FaultPlan{});
    for (std::size_t i = next.size(); i-- > 0;) {
      CHECK_MESSAGE(shown(forks.run(next[i], works[i])) == direct(next[i]), next[i].id() << ", backwards");
    }
  }
}
