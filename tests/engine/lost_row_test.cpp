// The client losing its own row (fault lose_row): a transaction rolled back after the
// request left, a state file not saved before a crash. The effect exists and the client
// has no row; only a re-run (reapply) that starts from nothing makes one again, and the key
// it makes decides whether that is a replay or a second effect (issue 32, item 3).
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "engine/explore/explore.hpp"
#include "engine/invariants/invariants.hpp"
#include "engine/knowledge/facts.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/scenario/knobs.hpp"
#include "engine/scenario/scenario_json.hpp"
#include "engine/sim/schedules.hpp"
#include "engine/timeline/describe.hpp"

using namespace idemlab;

namespace {

Scenario delivered_once() {
  Scenario s;
  s.script.push_back({ActionKind::Deliver, 0, -1, "r", "payload-1"});
  return s;
}

Fault lose_row(RowPoint point) {
  Fault f;
  f.kind = Fault::Kind::LoseRow;
  f.row_point = point;
  f.intent = "r";
  f.n = 1;
  return f;
}

const IntentRow* final_row(const Run& run) {
  for (const IntentRow& r : run.steps.back().snap.intents) {
    if (r.intent == "r") return &r;
  }
  return nullptr;
}

int final_effects(const Run& run) { return effects_for(run, static_cast<int>(run.steps.size()) - 1, "r"); }

std::set<Invariant> broken(const Run& run) {
  std::set<Invariant> out;
  for (const Violation& v : check_invariants(run).violations) out.insert(v.invariant);
  return out;
}

const Step* first(const Run& run, EventKind kind) {
  for (const Step& s : run.steps) {
    if (s.event.type == kind) return &s;
  }
  return nullptr;
}

int count(const Run& run, EventKind kind) {
  int n = 0;
  for (const Step& s : run.steps) n += s.event.type == kind;
  return n;
}

}  // namespace

TEST_CASE("a row rolled back after the send: the effect exists, the client has no row, forgotten_intent") {
  Scenario s = delivered_once();
  Run run = simulate(s, FaultPlan{{lose_row(RowPoint::RolledBack)}});
  REQUIRE(run.fired.size() == 1);
  CHECK(run.stop == StopReason::Settled);
  CHECK(final_row(run) == nullptr);
  CHECK(final_effects(run) == 1);
  CHECK(broken(run) == std::set<Invariant>{Invariant::ForgottenIntent});
  const Step* lost = first(run, EventKind::LoseRow);
  REQUIRE(lost != nullptr);
  CHECK(lost->event.side == Side::Client);
  CHECK(lost->snap.intents.empty());  // the row is gone at the step that loses it
  CHECK(describe(*lost, run).en.find("rolls back after the request left") != std::string::npos);
  CHECK_FALSE(describe(*lost, run).zh.empty());
  // The client stays up; the response that still comes finds nothing to record into.
  CHECK(first(run, EventKind::Crash) == nullptr);
  CHECK(count(run, EventKind::Record) == 0);
  // What the views say: the fact grid's "the client's database holds the intent" is false.
  const int end = static_cast<int>(run.steps.size()) - 1;
  CHECK(evaluate(FactRef{"d", "intent_durable", "r", 1}, run, end) == false);
  CHECK(fact_statement(FactRef{"d", "intent_durable", "r", 1}, false).en == "the client's database holds no row for the intent");
}

TEST_CASE("a state not saved before a crash: the row is gone at restart, and the scan finds nothing") {
  Scenario s = delivered_once();
  Fault f = lose_row(RowPoint::NotSaved);
  f.restart_after_ms = 70;
  Run run = simulate(s, FaultPlan{{f}});
  REQUIRE(run.fired.size() == 1);
  const Step* lost = first(run, EventKind::LoseRow);
  const Step* crash = first(run, EventKind::Crash);
  const Step* restart = first(run, EventKind::Restart);
  REQUIRE(lost != nullptr);
  REQUIRE(crash != nullptr);
  REQUIRE(restart != nullptr);
  CHECK(crash->i == lost->i + 1);
  CHECK(crash->snap.intents.empty());  // shown while down: the disk never had it
  CHECK(restart->t == crash->t + 70);
  CHECK(describe(*lost, run).en.find("before its state is saved") != std::string::npos);
  const Step* scan = first(run, EventKind::Recover);
  REQUIRE(scan != nullptr);
  CHECK(scan->event.local.found->empty());
  CHECK(final_row(run) == nullptr);
  CHECK(final_effects(run) == 1);
  CHECK(broken(run) == std::set<Invariant>{Invariant::ForgottenIntent});
  // The fault's JSON carries its restart, and reads back to the same fault.
  nlohmann::json written = write_fault(f);
  CHECK(written == nlohmann::json{{"lose_row", "not_saved"}, {"intent", "r"}, {"attempt", 1}, {"restart_after_ms", 70}});
  s.faults = FaultPlan{{f}};
  s.space.row_loss_points = {RowPoint::NotSaved};
  Reader r("scenario");
  Scenario back;
  std::set<std::string> intents;
  read_scenario(r, write_scenario(s), "", back, intents);
  CHECK(r.problems().empty());
  REQUIRE(back.faults.faults.size() == 1);
  CHECK(back.faults.faults[0].id() == "lose_row:not_saved:r:1");
  CHECK(back.faults.faults[0].restart_after_ms == 70);
  CHECK(back.space.row_loss_points == std::vector<RowPoint>{RowPoint::NotSaved});
  CHECK(write_fault(lose_row(RowPoint::RolledBack)) == nlohmann::json{{"lose_row", "rolled_back"}, {"intent", "r"}, {"attempt", 1}});
}

TEST_CASE("a re-run after a lost row starts from nothing: a stored key is drawn anew, a second effect") {
  for (RowPoint point : {RowPoint::RolledBack, RowPoint::NotSaved}) {
    CAPTURE(to_string(point));
    Scenario s = delivered_once();
    s.script.push_back({ActionKind::Reapply, 1000, -1, "r", ""});
    Run run = simulate(s, FaultPlan{{lose_row(point)}});
    const IntentRow* row = final_row(run);
    REQUIRE(row != nullptr);
    CHECK(row->status == "DELIVERED");
    CHECK(final_effects(run) == 2);
    CHECK(broken(run) == std::set<Invariant>{Invariant::DuplicateEffect});
    // The re-run's decision says it starts over, under a key other than the lost one.
    std::vector<const Step*> decides;
    for (const Step& st : run.steps) {
      if (st.event.type == EventKind::Decide) decides.push_back(&st);
    }
    REQUIRE(decides.size() == 2);
    CHECK(decides[1]->event.local.reapply == true);
    CHECK(*decides[1]->event.local.op_key != *decides[0]->event.local.op_key);
    CHECK(describe(*decides[1], run).en.find("has no row for it: it starts from nothing") != std::string::npos);
    CHECK(describe(*decides[1], run).en.find("generates operation key") != std::string::npos);
  }
}

TEST_CASE("a re-run after a lost row under a key derived from the content: the same key, replayed, one effect") {
  for (RowPoint point : {RowPoint::RolledBack, RowPoint::NotSaved}) {
    CAPTURE(to_string(point));
    Scenario s = delivered_once();
    s.client.key_source = KeySource::PayloadHash;
    s.script.push_back({ActionKind::Reapply, 1000, -1, "r", ""});
    Run run = simulate(s, FaultPlan{{lose_row(point)}});
    const IntentRow* row = final_row(run);
    REQUIRE(row != nullptr);
    CHECK(row->status == "DELIVERED");
    CHECK(row->receipt.has_value());
    CHECK(final_effects(run) == 1);
    CHECK(count(run, EventKind::Replay) == 1);
    CHECK(check_invariants(run).safe());
    const Step* anew = nullptr;
    for (const Step& st : run.steps) {
      if (st.event.type == EventKind::Decide && st.event.local.reapply.value_or(false)) anew = &st;
    }
    REQUIRE(anew != nullptr);
    CHECK(describe(*anew, run).en.find("comes out as it did before") != std::string::npos);
  }
}

TEST_CASE("a re-run with the row in place, or before the intent is decided, does what it did before") {
  // Before the deliver: nothing to re-run yet (the configuration has no such intent then).
  Scenario s;
  s.script.push_back({ActionKind::Reapply, 0, -1, "r", ""});
  s.script.push_back({ActionKind::Deliver, 100, -1, "r", "payload-1"});
  Run run = simulate(s, s.faults);
  CHECK(count(run, EventKind::Ignored) == 1);
  CHECK(count(run, EventKind::Decide) == 1);
  // A deliver while the client is down is lost with it; a later re-run decides it.
  Scenario down;
  down.script.push_back({ActionKind::CrashClient, 0, -1, "", ""});
  down.script.push_back({ActionKind::Deliver, 10, -1, "r", "payload-1"});
  down.script.push_back({ActionKind::RestartClient, 20, -1, "", ""});
  down.script.push_back({ActionKind::Reapply, 100, -1, "r", ""});
  Run later = simulate(down, down.faults);
  CHECK(count(later, EventKind::Decide) == 1);
  CHECK(final_effects(later) == 1);
  CHECK(check_invariants(later).safe());
}

TEST_CASE("a lost row is placed where the request of attempt 1 left, and only a re-run after it lets a search place it") {
  Scenario s = delivered_once();
  Run plain = simulate(s, s.faults);
  std::vector<std::string> ids;
  for (const Fault& p : plain.points) {
    if (p.kind == Fault::Kind::LoseRow) ids.push_back(p.id());
  }
  CHECK(ids == std::vector<std::string>{"lose_row:rolled_back:r:1", "lose_row:not_saved:r:1"});
  // Both kinds are rows of the one table: the page's palette and the schema follow from it.
  CHECK(injection_point_names("lose_row") == std::vector<std::string>{"rolled_back", "not_saved"});
  CHECK(injection_point_kind(lose_row(RowPoint::NotSaved)).counts == "attempt");

  FaultSpace space = every_fault();
  space.row_loss_points = {RowPoint::RolledBack, RowPoint::NotSaved};
  std::vector<Fault> next = next_searched_faults(plain, FaultPlan{}, space, s.script);
  for (const Fault& f : next) CHECK(f.kind != Fault::Kind::LoseRow);
  // A re-run of the intent after the point lets both in (the crash's restart comes first).
  s.script.push_back({ActionKind::Reapply, 1000, -1, "r", ""});
  Run rerun = simulate(s, s.faults);
  next = next_searched_faults(rerun, FaultPlan{}, space, s.script);
  int losses = 0;
  for (const Fault& f : next) losses += f.kind == Fault::Kind::LoseRow;
  CHECK(losses == 2);

  // The explorer searches them only then: the stored key's second effect is found, the
  // derived key has none.
  ExploreLimits k1;
  k1.max_faults = 1;
  ExploreResult stored = explore(s, k1);
  bool duplicate = false;
  for (const Counterexample& c : stored.counterexamples) {
    duplicate |= c.violation.invariant == Invariant::DuplicateEffect && c.plan.faults.front().kind == Fault::Kind::LoseRow;
  }
  CHECK(duplicate);
  s.client.key_source = KeySource::PayloadHash;
  CHECK(explore(s, k1).clean());
  // Two faults: a crash that swallows the deliver makes the re-run the first decision, and
  // a row lost there has no re-run after it; such a schedule is outside the space, not a
  // violation of the derived key.
  ExploreLimits k2;
  k2.max_faults = 2;
  ExploreResult two = explore(s, k2);
  CHECK(two.clean());
  CHECK(two.schedules > explore(delivered_once(), k2).schedules);
}
