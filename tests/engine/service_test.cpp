#include <doctest/doctest.h>

#include "engine/nodes/nodes.hpp"

using namespace idemlab;

namespace {
Scenario delivered_then(ActionKind next, const std::string& payload) {
  Scenario s;
  s.script.push_back({ActionKind::Deliver, 0, -1, "r", "payload-1"});
  s.script.push_back({next, 100, -1, "r", payload});
  return s;
}
}  // namespace

TEST_CASE("a conflicting payload writes nothing at the service") {
  Scenario s = delivered_then(ActionKind::ResendChangedPayload, "payload-2");
  Run run = simulate(s, s.faults);
  const Step* reject = nullptr;
  for (const Step& step : run.steps) {
    if (step.event.type == EventKind::Reject) reject = &step;
  }
  REQUIRE(reject != nullptr);
  const Step& before = run.steps[reject->i - 1];
  CHECK(reject->snap.deliveries == before.snap.deliveries);
  REQUIRE(run.steps.back().snap.deliveries.size() == 1);
  // The stored effect is still the first payload's.
  CHECK(run.steps.back().snap.deliveries[0].fingerprint == run.steps[2].snap.intents[0].fingerprint);
}

TEST_CASE("the same key with the same payload replays the original receipt") {
  Scenario s;
  s.client.recovery = Recovery::Resend;
  s.client.retry_after_ms = 10;
  s.script.push_back({ActionKind::Deliver, 0, -1, "r", "payload-1"});
  Fault lost;
  lost.kind = Fault::Kind::Drop;
  lost.message = MessageKind::Response;
  lost.intent = "r";
  s.faults.faults.push_back(lost);
  Run run = simulate(s, s.faults);
  int commits = 0, replays = 0;
  for (const Step& step : run.steps) {
    commits += step.event.type == EventKind::Commit;
    replays += step.event.type == EventKind::Replay;
  }
  CHECK(commits == 1);
  CHECK(replays == 1);
  CHECK(run.steps.back().snap.intents[0].status == "DELIVERED");
  CHECK(run.steps.back().snap.intents[0].receipt == run.steps.back().snap.deliveries[0].receipt);
}

TEST_CASE("a timeout never turns into FAILED under the right policy; the budget ends in NEEDS_HUMAN") {
  Scenario s;
  s.client.recovery = Recovery::Lookup;
  s.client.retry_after_ms = 50;
  s.client.max_attempts = 2;
  s.service.lookup = true;
  s.script.push_back({ActionKind::Deliver, 0, -1, "r", "payload-1"});
  for (MessageKind k : {MessageKind::Response, MessageKind::LookupReply}) {
    Fault f;
    f.kind = Fault::Kind::Drop;
    f.message = k;
    f.intent = "r";
    s.faults.faults.push_back(f);
  }
  Run run = simulate(s, s.faults);
  for (const Step& step : run.steps) {
    for (const IntentRow& r : step.snap.intents) CHECK(r.status != "FAILED");
  }
  CHECK(run.steps.back().snap.intents[0].status == "NEEDS_HUMAN");
  CHECK(run.steps.back().snap.deliveries.size() == 1);
}

namespace {
// The client crashes right after sending attempt 1 and restarts 50 ms later; the response
// reaches a dead process.
Run crash_after_send(PersistWhen persist, RecoveryScan scan) {
  Scenario s;
  s.client.persist = persist;
  s.client.recovery_scan = scan;
  s.script.push_back({ActionKind::Deliver, 0, -1, "r", "payload-1"});
  Fault crash;
  crash.kind = Fault::Kind::CrashClient;
  crash.point = ClientPoint::AfterSend;
  crash.intent = "r";
  crash.restart_after_ms = 50;
  s.faults.faults.push_back(crash);
  return simulate(s, s.faults);
}
}  // namespace

TEST_CASE("a crash before the timeout leaves PENDING: only a scan that includes it reconciles") {
  Run forgotten = crash_after_send(PersistWhen::BeforeSend, RecoveryScan::UnknownOnly);
  REQUIRE(forgotten.steps.back().snap.intents.size() == 1);
  CHECK(forgotten.steps.back().snap.intents[0].status == "PENDING");
  CHECK(forgotten.steps.back().snap.deliveries.size() == 1);

  Run reconciled = crash_after_send(PersistWhen::BeforeSend, RecoveryScan::UnknownAndStalePending);
  CHECK(reconciled.steps.back().snap.intents[0].status == "DELIVERED");
  CHECK(reconciled.steps.back().snap.intents[0].receipt == reconciled.steps.back().snap.deliveries[0].receipt);
  CHECK(reconciled.steps.back().snap.deliveries.size() == 1);
}

TEST_CASE("send first, persist later: a crash in between leaves an effect the client never recorded") {
  Run run = crash_after_send(PersistWhen::AfterSend, RecoveryScan::UnknownAndStalePending);
  CHECK(run.steps.back().snap.intents.empty());
  CHECK(run.steps.back().snap.deliveries.size() == 1);
  Run safe = crash_after_send(PersistWhen::BeforeSend, RecoveryScan::UnknownAndStalePending);
  CHECK(safe.steps.back().snap.intents.size() == 1);
}

TEST_CASE("changed content resent under the same key keeps the client's record of the first content") {
  Scenario s = delivered_then(ActionKind::ResendChangedPayload, "payload-2");
  s.script.push_back({ActionKind::ResendChangedPayload, 200, -1, "r", "payload-3"});
  Run run = simulate(s, s.faults);
  const Snapshot& end = run.steps.back().snap;
  REQUIRE(end.deliveries.size() == 1);
  // The row holds the newest content, refused (422) under the key its first content used.
  REQUIRE(end.intents.size() == 1);
  CHECK(end.intents[0].payload == "payload-3");
  CHECK(end.intents[0].status == "CONFLICT");
  // The first content, delivered, is kept with its receipt: the client's proof of the one
  // effect there is. The second, refused, is kept as the client left it.
  REQUIRE(end.earlier.size() == 2);
  CHECK(end.earlier[0].version == 1);
  CHECK(end.earlier[0].payload == "payload-1");
  CHECK(end.earlier[0].status == "DELIVERED");
  CHECK(end.earlier[0].receipt == end.deliveries[0].receipt);
  CHECK(end.earlier[0].fingerprint == end.deliveries[0].fingerprint);
  CHECK(end.earlier[1].version == 2);
  CHECK(end.earlier[1].payload == "payload-2");
  CHECK(end.earlier[1].status == "CONFLICT");
  CHECK_FALSE(end.earlier[1].receipt.has_value());
}

TEST_CASE("two effects of one key in the same virtual ms each get a receipt and an email of their own") {
  Scenario s;
  s.service.dedup = Dedup::None;
  s.service.notify = Notify::Outbox;
  s.script.push_back({ActionKind::Deliver, 0, -1, "r", "payload-1"});
  s.script.push_back({ActionKind::ResendSameKey, 0, -1, "r", ""});
  Run run = simulate(s, s.faults);
  const Snapshot& end = run.steps.back().snap;
  REQUIRE(end.deliveries.size() == 2);
  CHECK(end.deliveries[0].created_at == end.deliveries[1].created_at);
  CHECK(end.deliveries[0].receipt != end.deliveries[1].receipt);
  CHECK(end.outbox.size() == 2);
  CHECK(end.emails.size() == 2);
}
