// The next delivery boundary (ServiceContract::notify): the service owes a notification
// email for each effect. Calling the mail provider directly after the commit loses the
// email when the service crashes in between; an outbox row written with the effect makes
// the relay send it after the restart, and the provider's dedup on the row's email key
// keeps a resend from being a second email.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/knowledge/facts.hpp"
#include "engine/knowledge/knowledge.hpp"
#include "engine/knowledge/worlds.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/timeline/timeline_json.hpp"
#include "world_lookup.hpp"

using namespace idemlab;

namespace {

constexpr const char* kIntent = "r";

// One intent; the client retries the same key 20 ms after recording UNKNOWN. The fault
// space: any one message lost (emails and acks included), the service crashing at any of
// its points and restarting 50 ms later.
Scenario notifying(Notify notify, bool provider_dedup = true) {
  Scenario s;
  s.service.notify = notify;
  s.provider.dedup_by_key = provider_dedup;
  s.client.recovery = Recovery::Resend;
  s.client.retry_after_ms = 20;
  s.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "payload-1"});
  s.space.lose_any_one_message = true;
  s.space.service_crash_points = {ServicePoint::BeforeCommit, ServicePoint::BetweenWrites, ServicePoint::AfterCommit,
                                  ServicePoint::AfterEmailSend};
  return s;
}

int last(const Run& run) { return static_cast<int>(run.steps.size()) - 1; }
int effects(const Run& run) { return effects_for(run, last(run), kIntent); }
int emails(const Run& run) { return emails_for(run, last(run), kIntent); }


int step_of(const Run& run, const std::string& kind, Side side) {
  for (const Step& s : run.steps) {
    if (s.event.name() == kind && s.event.side == side) return s.i;
  }
  return -1;
}

}  // namespace

TEST_CASE("the fault space names the email, its ack and the relay's crash point") {
  std::vector<World> worlds = build_worlds(notifying(Notify::Outbox));
  for (const char* id : {"drop:email:r:1", "drop:email_ack:r:1", "crash:service:after_email_send:r:1",
                         "crash:service:after_commit:r:1"}) {
    CHECK_MESSAGE(world(worlds, id) != nullptr, id);
  }
}

TEST_CASE("direct: a crash after the commit leaves one effect and no email, and nothing owes it") {
  std::vector<World> worlds = build_worlds(notifying(Notify::Direct));
  const World* fault_free = world(worlds, "");
  REQUIRE(fault_free != nullptr);
  CHECK(effects(fault_free->run) == 1);
  CHECK(emails(fault_free->run) == 1);

  const World* crashed = world(worlds, "crash:service:after_commit:r:1");
  REQUIRE(crashed != nullptr);
  CHECK(effects(crashed->run) == 1);
  CHECK(emails(crashed->run) == 0);
  CHECK(count_events(crashed->run, "replay") == 1);  // the client's retry is answered from the record
  CHECK(count_events(crashed->run, "notify") == 0);  // ... and the replay calls no one
  for (const World& w : worlds) CHECK_MESSAGE(w.run.steps.back().snap.outbox.empty(), w.plan.id());

  // Over the fault space: every run where the service crashes after committing ends with
  // its effect and without the email.
  int crash_runs = 0;
  for (const World& w : worlds) {
    bool crash_after_commit = std::any_of(w.plan.faults.begin(), w.plan.faults.end(), [](const Fault& f) {
      return f.kind == Fault::Kind::CrashService && f.service_point == ServicePoint::AfterCommit;
    });
    if (!crash_after_commit) continue;
    ++crash_runs;
    CHECK_MESSAGE(effects(w.run) == 1, w.plan.id());
    CHECK_MESSAGE(emails(w.run) == 0, w.plan.id());
  }
  CHECK(crash_runs >= 1);
}

TEST_CASE("outbox, provider dedups by key: exactly one email in every run of the fault space") {
  std::vector<World> worlds = build_worlds(notifying(Notify::Outbox));
  CHECK(worlds.size() >= 8);
  for (const World& w : worlds) {
    CHECK_MESSAGE(effects(w.run) == 1, w.plan.id());
    CHECK_MESSAGE(emails(w.run) == 1, w.plan.id());
    const Snapshot& end = w.run.steps.back().snap;
    REQUIRE_MESSAGE(end.outbox.size() == 1, w.plan.id());
    CHECK_MESSAGE(end.outbox[0].status == "sent", w.plan.id());
  }
  SUBCASE("a crash after the commit: the row stays pending and the restart's relay sends it") {
    const World* w = world(worlds, "crash:service:after_commit:r:1");
    REQUIRE(w != nullptr);
    int restart = step_of(w->run, "restart", Side::Service);
    REQUIRE(restart >= 0);
    CHECK(w->run.steps[restart].snap.outbox[0].status == "pending");
    CHECK(w->run.steps[restart].snap.outbox[0].attempts == 0);
    CHECK(w->run.steps[restart + 1].event.type == EventKind::Relay);
  }
  SUBCASE("a crash between the send and the mark: sent twice, delivered once") {
    const World* w = world(worlds, "crash:service:after_email_send:r:1");
    REQUIRE(w != nullptr);
    CHECK(count_events(w->run, "relay") == 2);
    CHECK(count_events(w->run, "dedup_email") == 1);
    CHECK(w->run.steps.back().snap.outbox[0].attempts == 2);
  }
  SUBCASE("a lost ack: the relay times out, the outcome unknown, and sends again") {
    const World* w = world(worlds, "drop:email_ack:r:1");
    REQUIRE(w != nullptr);
    int timeout = step_of(w->run, "timeout", Side::Service);
    REQUIRE(timeout >= 0);
    CHECK(w->run.steps[timeout].snap.outbox[0].status == "pending");
    CHECK(count_events(w->run, "relay") == 2);
  }
}

TEST_CASE("outbox, provider without dedup: the relay's resend after a crash is a second email") {
  std::vector<World> worlds = build_worlds(notifying(Notify::Outbox, false));
  const World* crashed = world(worlds, "crash:service:after_email_send:r:1");
  REQUIRE(crashed != nullptr);
  CHECK(effects(crashed->run) == 1);
  CHECK(emails(crashed->run) == 2);
  const World* fault_free = world(worlds, "");
  REQUIRE(fault_free != nullptr);
  CHECK(emails(fault_free->run) == 1);
  // A lost email is resent once and arrives once; a lost ack makes a second copy as well.
  CHECK(emails(world(worlds, "drop:email:r:1")->run) == 1);
  CHECK(emails(world(worlds, "drop:email_ack:r:1")->run) == 2);
}

TEST_CASE("the restarted relay cannot know whether its email arrived; the ack tells it") {
  Scenario s = notifying(Notify::Outbox);
  Fault crash;
  crash.kind = Fault::Kind::CrashService;
  crash.service_point = ServicePoint::AfterEmailSend;
  crash.intent = kIntent;
  s.faults.faults.push_back(crash);
  std::vector<World> worlds = build_worlds(s);
  Knowledge k(worlds);
  FactRef sent{"email_sent", "email_sent", kIntent, 1};
  const Run& run = worlds[0].run;
  int commit = step_of(run, "commit", Side::Service);
  int restart = step_of(run, "restart", Side::Service);
  int marked = step_of(run, "mark_sent", Side::Service);
  REQUIRE((commit >= 0 && restart >= 0 && marked >= 0));
  CHECK(k.cell(Side::Service, commit, sent).verdict() == "knows_false");  // a row is not an email
  Cell doubt = k.cell(Side::Service, restart, sent);
  CHECK(doubt.verdict() == "cannot_know");
  CHECK(doubt.witness_value == false);  // the run where the first email was lost
  CHECK(k.cell(Side::Service, marked, sent).verdict() == "knows_true");
}

TEST_CASE("without notify the timeline has no outbox and no provider") {
  Run run = simulate(notifying(Notify::None), FaultPlan{});
  nlohmann::json step = step_json(run, last(run), check_invariants(run));
  CHECK(!step.contains("provider"));
  CHECK(!step["service"].contains("outbox"));
  CHECK(!step["truth"].contains("emails"));
  CHECK(emails(run) == 0);

  Run outbox = simulate(notifying(Notify::Outbox), FaultPlan{});
  nlohmann::json end = step_json(outbox, last(outbox), check_invariants(outbox));
  CHECK(end["provider"]["emails"].size() == 1);
  CHECK(end["service"]["outbox"][0]["status"] == "sent");
  CHECK(end["truth"]["emails"]["by_intent"][kIntent] == 1);
  CHECK(end["invariants"]["duplicate_notification"] == false);
  CHECK(end["invariants"]["lost_notification"] == false);
  CHECK(!step["invariants"].contains("duplicate_notification"));
}
