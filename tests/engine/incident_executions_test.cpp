// The incidents whose reported failure is work running twice at once (sidekiq/sidekiq #3303,
// dust-tt/dust PR #5045, learningequality/studio #3395): what their texts claim about the
// runs beyond what `check` verifies of the `incident` block (the reported outcome of the
// compare block's first policy): the teams' own fixes and what they give up, and the
// overlaps the narration describes.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/invariants/invariants.hpp"
#include "engine/knowledge/facts.hpp"
#include "engine/knowledge/worlds.hpp"
#include "engine/nodes/nodes.hpp"
#include "lesson_file.hpp"
#include "world_lookup.hpp"

using namespace idemlab;

namespace {

int last(const Run& run) { return static_cast<int>(run.steps.size()) - 1; }

std::string final_status(const Run& run, const std::string& intent) {
  for (const IntentRow& r : run.steps.back().snap.intents) {
    if (r.intent == intent) return r.status;
  }
  return "NONE";
}

// The most copies of the intent's work the service ran at one time.
int most_at_once(const Run& run, const std::string& intent) {
  int most = 0;
  for (const Step& st : run.steps) {
    int n = static_cast<int>(std::count_if(st.snap.in_progress.begin(), st.snap.in_progress.end(),
                                           [&](const InProgress& p) { return run.key_owner.count(p.op_key) && run.key_owner.at(p.op_key) == intent; }));
    most = std::max(most, n);
  }
  return most;
}

bool breaks(const Run& run, const std::string& intent, Invariant which) {
  for (const Violation& v : check_invariants(run).about(intent)) {
    if (v.invariant == which) return true;
  }
  return false;
}

// The statuses the client wrote for the intent, in order.
std::vector<std::string> recorded(const Run& run, const std::string& intent) {
  std::vector<std::string> out;
  for (const Step& st : run.steps) {
    if (st.event.type == EventKind::Record && st.event.intent == intent) out.push_back(st.event.local.to_json().value("status", ""));
  }
  return out;
}

}  // namespace

TEST_CASE("sidekiq #3303: two copies of one JID overlap; switching the driver's resend off trades them for a lost job") {
  auto p = prepared_lesson("incident-sidekiq-push.json");
  const Scenario& reported = p->lesson.scenario;
  const std::string intent = "nightly-export";

  SUBCASE("the resent push starts a second run while the first still runs") {
    std::vector<World> worlds = build_worlds(reported);
    const Run& run = worlds[0].run;
    CHECK(most_at_once(run, intent) == 2);
    CHECK(effects_for(run, last(run), intent) == 2);
  }

  SUBCASE("the team's fix (reconnect_attempts 0: one send) never makes two, but a lost push leaves no job") {
    Scenario fixed = reported;
    REQUIRE(fixed.client.retry_layers.size() == 1);
    fixed.client.retry_layers[0].attempts = 1;
    std::vector<World> worlds = build_worlds(fixed);
    REQUIRE(worlds.size() > 1);
    for (const World& w : worlds) {
      CAPTURE(w.plan.describe().en);
      CHECK(effects_for(w.run, last(w.run), intent) <= 1);
    }
    const World* lost = world(worlds, "drop:request:nightly-export:1");
    REQUIRE(lost != nullptr);
    CHECK(effects_for(lost->run, last(lost->run), intent) == 0);
    CHECK(final_status(lost->run, intent) == "NEEDS_HUMAN");  // the caller is left with an error
  }
}

TEST_CASE("dust #5045: three attempts run at once, the results table shows one, and no attempt is acknowledged") {
  auto p = prepared_lesson("incident-dust-activity.json");
  const std::string intent = "index-documents";
  REQUIRE(p->lesson.compare);

  std::vector<World> reported = build_worlds(p->lesson.compare->policies[0].scenario);
  const Run& run = reported[0].run;
  CHECK(most_at_once(run, intent) == 3);
  CHECK(effects_for(run, last(run), intent) == 1);
  CHECK(breaks(run, intent, Invariant::ConcurrentExecution));
  // The scheduler owns its attempts: a completion from an attempt whose start-to-close
  // timeout passed is turned away (Temporal), so the work done is never a success.
  std::vector<std::string> statuses = recorded(run, intent);
  CHECK(std::find(statuses.begin(), statuses.end(), "DELIVERED") == statuses.end());
  CHECK(final_status(run, intent) == "NEEDS_HUMAN");
  int turned_away = static_cast<int>(std::count_if(run.steps.begin(), run.steps.end(), [](const Step& st) {
    return st.event.type == EventKind::Receive && st.event.side == Side::Client && st.event.local.discarded.value_or(false);
  }));
  CHECK(turned_away == 3);

  SUBCASE("the activity that checks whether it runs already: one copy at a time, the same unacknowledged ending") {
    std::vector<World> guarded = build_worlds(p->lesson.compare->policies[1].scenario);
    const Run& g = guarded[0].run;
    CHECK(most_at_once(g, intent) == 1);
    CHECK(!breaks(g, intent, Invariant::ConcurrentExecution));
    CHECK(effects_for(g, last(g), intent) == 1);
    CHECK(final_status(g, intent) == "NEEDS_HUMAN");
  }
}

TEST_CASE("studio #3395: a 1 h lease hands a 5.5 h task out six times; the team's 4 h lease still hands it out again") {
  auto p = prepared_lesson("incident-studio-lease.json");
  const Scenario& reported = p->lesson.scenario;
  const std::string intent = "publish-channel";

  std::vector<World> worlds = build_worlds(reported);
  const Run& run = worlds[0].run;
  // Six task-received events: the first hand-out and five redeliveries.
  CHECK(count_events(run, "redeliver") == 5);
  CHECK(most_at_once(run, intent) == 6);

  SUBCASE("the 4 h lease (400 virtual ms) is shorter than this task: still redelivered, still concurrent") {
    Scenario four_hours = reported;
    four_hours.service.lease_ms = 400;
    Run longer = simulate(four_hours, FaultPlan{});
    CHECK(count_events(longer, "redeliver") >= 1);
    CHECK(breaks(longer, intent, Invariant::ConcurrentExecution));
    CHECK(effects_for(longer, last(longer), intent) > 1);
  }
}
