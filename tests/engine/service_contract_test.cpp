// The service's contract knobs: each wrong setting shows its failure somewhere in the
// fault space of a small scenario, and the right one prevents it in every run there.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/invariants/invariants.hpp"
#include "engine/timeline/describe.hpp"
#include "engine/knowledge/facts.hpp"
#include "engine/scenario/knobs.hpp"
#include "engine/knowledge/worlds.hpp"
#include "engine/nodes/nodes.hpp"
#include "world_lookup.hpp"

using namespace idemlab;

namespace {

constexpr const char* kIntent = "r";

// One intent; the client waits 100 ms, then retries the same key 20 ms after recording
// UNKNOWN. The fault space: any one message lost, the service crashing at any of its
// points (and restarting 50 ms later).
Scenario retrying(Ordering ordering) {
  Scenario s;
  s.service.ordering = ordering;
  s.client.recovery = Recovery::Resend;
  s.client.retry_after_ms = 20;
  s.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "payload-1"});
  s.space.lose_any_one_message = true;
  s.space.service_crash_points = {ServicePoint::BeforeCommit, ServicePoint::BetweenWrites, ServicePoint::AfterCommit};
  return s;
}

// A fault of that kind on attempt 1 of the intent.
Fault fault(Fault::Kind kind) {
  Fault f;
  f.kind = kind;
  f.intent = kIntent;
  return f;
}

Fault drop(MessageKind message) {
  Fault f = fault(Fault::Kind::Drop);
  f.message = message;
  return f;
}

Fault crash_service(ServicePoint point, std::int64_t restart_after_ms = 50) {
  Fault f = fault(Fault::Kind::CrashService);
  f.service_point = point;
  f.restart_after_ms = restart_after_ms;
  return f;
}

Run run_with(const Scenario& s, std::vector<Fault> faults = {}) {
  FaultPlan plan;
  plan.faults = std::move(faults);
  return simulate(s, plan);
}

int last(const Run& run) { return static_cast<int>(run.steps.size()) - 1; }

std::string final_status(const Run& run, const std::string& intent = kIntent) {
  for (const IntentRow& r : run.steps.back().snap.intents) {
    if (r.intent == intent) return r.status;
  }
  return "NONE";
}

// The client believed DELIVERED at some step where no effect of the intent existed.
bool false_delivered(const Run& run, const std::string& intent = kIntent) {
  for (const Step& s : run.steps) {
    for (const IntentRow& r : s.snap.intents) {
      if (r.intent == intent && r.status == status::kDelivered && effects_for(run, s.i, intent) == 0) return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("the fault space names the service's crash points") {
  std::vector<World> worlds = build_worlds(retrying(Ordering::Atomic));
  for (const char* id : {"crash:service:before_commit:r:1", "crash:service:between_writes:r:1",
                         "crash:service:after_commit:r:1", "drop:request:r:1", "drop:response:r:1"}) {
    CHECK_MESSAGE(world(worlds, id) != nullptr, id);
  }
}

TEST_CASE("effect_first: a crash between the writes and a retry make a second effect") {
  std::vector<World> worlds = build_worlds(retrying(Ordering::EffectFirst));
  const World* w = world(worlds, "crash:service:between_writes:r:1");
  REQUIRE(w != nullptr);
  CHECK(effects_for(w->run, last(w->run), kIntent) == 2);
  CHECK(w->run.steps.back().snap.deliveries.size() == 2);
  CHECK(w->run.steps.back().snap.deliveries[0].op_key == w->run.steps.back().snap.deliveries[1].op_key);
}

TEST_CASE("key_first: a crash between the writes and a retry leave the client DELIVERED with no effect") {
  std::vector<World> worlds = build_worlds(retrying(Ordering::KeyFirst));
  const World* w = world(worlds, "crash:service:between_writes:r:1");
  REQUIRE(w != nullptr);
  CHECK(final_status(w->run) == status::kDelivered);
  CHECK(effects_for(w->run, last(w->run), kIntent) == 0);
  CHECK(false_delivered(w->run));
  CHECK(count_events(w->run, "replay") == 1);
}

TEST_CASE("atomic: exactly one effect and no false DELIVERED in every run of the fault space") {
  std::vector<World> worlds = build_worlds(retrying(Ordering::Atomic));
  CHECK(worlds.size() >= 6);
  for (const World& w : worlds) {
    std::string plan = w.plan.id();
    CHECK_MESSAGE(effects_for(w.run, last(w.run), kIntent) == 1, plan);
    CHECK_MESSAGE(final_status(w.run) == status::kDelivered, plan);
    CHECK_MESSAGE(!false_delivered(w.run), plan);
  }
  SUBCASE("a crash between the writes rolls the open transaction back") {
    const World* w = world(worlds, "crash:service:between_writes:r:1");
    REQUIRE(w != nullptr);
    auto crash = std::find_if(w->run.steps.begin(), w->run.steps.end(),
                              [](const Step& s) { return s.event.type == EventKind::Crash; });
    REQUIRE(crash != w->run.steps.end());
    CHECK(crash->event.side == Side::Service);
    CHECK(crash->event.local.to_json().value("rolled_back", false));
    CHECK(!crash->snap.service_alive);
    CHECK(crash->snap.keys.empty());
    CHECK(crash->snap.deliveries.empty());
  }
}

TEST_CASE("the broken orderings are fine as long as the service never crashes between its writes") {
  for (Ordering o : {Ordering::KeyFirst, Ordering::EffectFirst}) {
    for (const World& w : build_worlds(retrying(o))) {
      if (w.plan.id() == "crash:service:between_writes:r:1") continue;
      CHECK_MESSAGE(effects_for(w.run, last(w.run), kIntent) == 1, w.plan.id());
      CHECK_MESSAGE(!false_delivered(w.run), w.plan.id());
    }
  }
}

TEST_CASE("a message reaching a crashed service is lost; the restarted service keeps its database") {
  Scenario s = retrying(Ordering::Atomic);
  // Down from t=10 until t=160: the first retry (sent at t=120) reaches a dead process,
  // the second (t=240) the restarted one.
  Run run = run_with(s, {crash_service(ServicePoint::AfterCommit, 150)});
  bool lost_to_down = false;
  for (const Step& step : run.steps) {
    if (step.event.type == EventKind::Drop && step.event.local.to_json().value("reason", "") == "receiver_down") {
      lost_to_down = true;
      CHECK(!step.snap.service_alive);
    }
  }
  CHECK(lost_to_down);
  CHECK(count_events(run, "restart") == 1);
  CHECK(run.steps.back().snap.service_alive);
  CHECK(effects_for(run, last(run), kIntent) == 1);
  CHECK(final_status(run) == status::kDelivered);
}

TEST_CASE("retention: once the dedup record is forgotten, a retry with the same key makes a second effect") {
  Scenario s = retrying(Ordering::Atomic);
  s.service.retention_ms = 50;  // made at t=10, forgotten at t=60; the retry comes at t=130
  Run run = run_with(s, {drop(MessageKind::Response)});
  CHECK(count_events(run, "expire") >= 1);
  CHECK(effects_for(run, last(run), kIntent) == 2);

  FactRef passed{"retention_passed", "retention_passed", kIntent, 1};
  CHECK(evaluate(passed, run, 1) == false);
  CHECK(evaluate(passed, run, last(run)) == true);

  s.service.retention_ms = 1000;  // longer than the client retries
  Run kept = run_with(s, {drop(MessageKind::Response)});
  CHECK(effects_for(kept, last(kept), kIntent) == 1);
  CHECK(final_status(kept) == status::kDelivered);
  for (const Step& st : kept.steps) {
    if (st.t < 1010) CHECK(evaluate(passed, kept, st.i) == false);
  }
  CHECK(kept.steps.back().event.type == EventKind::Expire);  // the record is forgotten at t=1010

  // A day's window, as Stripe keeps keys: the record outlives the run, which settles
  // (it does not wait at the horizon for an expiry) with one effect.
  s.service.retention_ms = 24LL * 60 * 60 * 1000;
  Run day = run_with(s, {drop(MessageKind::Response)});
  CHECK(day.stop == StopReason::Settled);
  CHECK(count_events(day, "expire") == 0);
  CHECK(effects_for(day, last(day), kIntent) == 1);
  CHECK(final_status(day) == status::kDelivered);
}

namespace {
// Reconciles by lookup 20 ms after recording UNKNOWN; the response of attempt 1 is lost.
Scenario reconciling(OnNotFound on_not_found) {
  Scenario s;
  s.client.recovery = Recovery::Lookup;
  s.client.retry_after_ms = 20;
  s.client.on_not_found = on_not_found;
  s.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "payload-1"});
  s.faults.faults.push_back(drop(MessageKind::Response));
  return s;
}

// The first lookup's service step and the number of effects then.
const Step* first_lookup_answer(const Run& run) {
  for (const Step& s : run.steps) {
    if (s.event.type == EventKind::Found || s.event.type == EventKind::NotFound) return &s;
  }
  return nullptr;
}
}  // namespace

TEST_CASE("lookup lag: an existing delivery is not found") {
  Scenario s = reconciling(OnNotFound::RetryLookup);
  s.service.lookup_lag_ms = 150;  // the record, made at t=10, reaches the replica at t=160
  Run run = simulate(s, s.faults);
  const Step* answer = first_lookup_answer(run);
  REQUIRE(answer != nullptr);
  CHECK(answer->event.type == EventKind::NotFound);
  CHECK(effects_for(run, answer->i, kIntent) == 1);
  FactRef authoritative{"lookup_authoritative", "lookup_authoritative", kIntent, 1};
  FactRef registered{"key_registered", "key_registered", kIntent, 1};
  CHECK(evaluate(authoritative, run, answer->i) == false);
  CHECK(evaluate(registered, run, answer->i) == true);
  // Asking again once the replica has caught up finds it: one effect, DELIVERED.
  CHECK(count_events(run, "found") == 1);
  CHECK(final_status(run) == status::kDelivered);
  CHECK(effects_for(run, last(run), kIntent) == 1);
  CHECK(evaluate(authoritative, run, last(run)) == true);

  s.service.lookup_lag_ms = 0;
  Run primary = simulate(s, s.faults);
  CHECK(first_lookup_answer(primary)->event.type == EventKind::Found);
}

TEST_CASE("a broken read path: the lookup never finds the record, and waiting does not help as it does for a lag") {
  Scenario s = reconciling(OnNotFound::RetryLookup);
  s.service.read_path = ReadPath::Broken;
  Run run = simulate(s, s.faults);
  const Step* answer = first_lookup_answer(run);
  REQUIRE(answer != nullptr);
  CHECK(answer->event.type == EventKind::NotFound);
  CHECK(answer->event.local.why.value_or("") == reasons::kBrokenRead);
  CHECK(effects_for(run, answer->i, kIntent) == 1);
  // Unlike a lagging replica, asking again finds nothing either: the client gives the
  // intent to a person, with its one effect, and says nothing false.
  CHECK(count_events(run, "found") == 0);
  CHECK(count_events(run, "not_found") >= 2);
  CHECK(final_status(run) == status::kNeedsHuman);
  CHECK(effects_for(run, last(run), kIntent) == 1);
  CHECK(check_invariants(run).safe());
  // The facts agree with the service: such a lookup is not authoritative.
  FactRef authoritative{"lookup_authoritative", "lookup_authoritative", kIntent, 1};
  CHECK(evaluate(authoritative, run, last(run)) == false);
  // A resend under the same key gets the service's record, read by the dedup path itself.
  Scenario resend = reconciling(OnNotFound::Resend);
  resend.service.read_path = ReadPath::Broken;
  Run replayed = simulate(resend, resend.faults);
  CHECK(final_status(replayed) == status::kDelivered);
  CHECK(effects_for(replayed, last(replayed), kIntent) == 1);
  CHECK(count_events(replayed, "replay") == 1);
}

TEST_CASE("on_not_found: resend trusts a lookup that has forgotten the key; retry_lookup does not") {
  Scenario resend = reconciling(OnNotFound::Resend);
  resend.service.retention_ms = 50;
  Run run = simulate(resend, resend.faults);
  REQUIRE(first_lookup_answer(run) != nullptr);
  CHECK(first_lookup_answer(run)->event.type == EventKind::NotFound);
  CHECK(effects_for(run, last(run), kIntent) == 2);

  Scenario ask_again = reconciling(OnNotFound::RetryLookup);
  ask_again.service.retention_ms = 50;
  Run careful = simulate(ask_again, ask_again.faults);
  CHECK(effects_for(careful, last(careful), kIntent) == 1);
  CHECK(final_status(careful) == status::kNeedsHuman);
  CHECK(count_events(careful, "not_found") == 2);
}

TEST_CASE("a concurrent request with a key still in progress is answered in_progress and stays UNKNOWN") {
  Scenario s = retrying(Ordering::Atomic);
  s.service.processing_ms = 150;  // attempt 1 commits at t=160, after the client's timeout
  Run run = simulate(s, s.faults);
  auto answer = std::find_if(run.steps.begin(), run.steps.end(),
                             [](const Step& st) { return st.event.type == EventKind::InProgress; });
  REQUIRE(answer != run.steps.end());
  CHECK(answer->event.side == Side::Service);
  CHECK(run.messages[answer->event.message].n == 2);  // the retry
  REQUIRE(answer->snap.in_progress.size() == 1);
  CHECK(answer->snap.in_progress[0].op_key == run.messages[answer->event.message].op_key);
  CHECK(answer->snap.in_progress[0].until == 160);
  CHECK(effects_for(run, answer->i, kIntent) == 0);
  // The client reads the answer as indefinite: UNKNOWN until the first request's receipt.
  auto received = std::find_if(answer, run.steps.end(), [](const Step& st) {
    return st.event.side == Side::Client && st.event.type == EventKind::Receive &&
           st.event.local.to_json().value("outcome", "") == "in_progress";
  });
  REQUIRE(received != run.steps.end());
  for (auto st = received; st != run.steps.end(); ++st) {
    std::string status = final_status(run);
    for (const IntentRow& r : st->snap.intents) status = r.status;
    if (status == status::kDelivered) break;
    CHECK(status == status::kUnknown);
  }
  CHECK(final_status(run) == status::kDelivered);
  CHECK(effects_for(run, last(run), kIntent) == 1);
  CHECK(!false_delivered(run));
}

TEST_CASE("processing time: a retry after the commit is replayed at once; one during processing gets 409") {
  // Attempt 1 arrives at t=10 and commits at t=210; its response is lost. The client
  // does not retry by itself: the script resends under the same key.
  Scenario s;
  s.service.processing_ms = 200;
  s.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "payload-1"});
  auto resend_at = [&](std::int64_t at) { s.script.push_back({ActionKind::ResendSameKey, at, -1, kIntent, ""}); };
  auto step_of = [](const Run& run, const std::string& kind, int attempt) -> const Step* {
    for (const Step& st : run.steps) {
      if (st.event.name() == kind && st.event.message >= 0 && run.messages[st.event.message].n == attempt) return &st;
    }
    return nullptr;
  };
  SUBCASE("retries after the commit: each replayed as it arrives, no in_progress") {
    resend_at(250);  // arrives at t=260
    resend_at(300);  // arrives at t=310
    Run run = run_with(s, {drop(MessageKind::Response)});
    CHECK(count_events(run, "in_progress") == 0);
    for (int attempt : {2, 3}) {
      const Step* replay = step_of(run, "replay", attempt);
      REQUIRE_MESSAGE(replay != nullptr, attempt);
      CHECK(replay->t == 250 + 50 * (attempt - 2) + 10);  // not processing_ms later
      CHECK(replay->snap.in_progress.empty());
    }
    CHECK(final_status(run) == status::kDelivered);
    CHECK(effects_for(run, last(run), kIntent) == 1);
  }
  SUBCASE("a retry while attempt 1 is still in progress gets in_progress; one after the commit is replayed") {
    resend_at(100);  // arrives at t=110
    resend_at(250);  // arrives at t=260
    Run run = run_with(s, {drop(MessageKind::Response)});
    const Step* busy = step_of(run, "in_progress", 2);
    REQUIRE(busy != nullptr);
    CHECK(busy->t == 110);
    REQUIRE(busy->snap.in_progress.size() == 1);
    CHECK(busy->snap.in_progress[0].until == 210);
    CHECK(count_events(run, "in_progress") == 1);
    const Step* replay = step_of(run, "replay", 3);
    REQUIRE(replay != nullptr);
    CHECK(replay->t == 260);
    CHECK(final_status(run) == status::kDelivered);
    CHECK(effects_for(run, last(run), kIntent) == 1);
  }
}

TEST_CASE("without the in-progress guard the work runs twice at once; check_then_insert also makes two effects") {
  // Attempt 1 arrives at t=10 and is processed until t=210; its response is lost. The
  // script resends the same key at t=100: it arrives at t=110, inside the window.
  Scenario s;
  s.service.processing_ms = 200;
  s.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "payload-1"});
  s.script.push_back({ActionKind::ResendSameKey, 100, -1, kIntent, ""});
  SUBCASE("reject: the retry inside the window gets 409, and one request is processed at a time") {
    Run run = run_with(s, {drop(MessageKind::Response)});
    CHECK(count_events(run, "in_progress") == 1);
    CHECK(effects_for(run, last(run), kIntent) == 1);
    CHECK(check_invariants(run).safe());
  }
  SUBCASE("process_both: no 409; the later commit replays the first's record, but both ran at once") {
    s.service.concurrent_same_key = ConcurrentSameKey::ProcessBoth;
    Run run = run_with(s, {drop(MessageKind::Response)});
    CHECK(count_events(run, "in_progress") == 0);
    CHECK(count_events(run, "replay") == 1);
    CHECK(effects_for(run, last(run), kIntent) == 1);
    CHECK(final_status(run) == status::kDelivered);
    RunVerdict verdict = check_invariants(run);
    REQUIRE(verdict.violations.size() == 1);
    const Violation& v = verdict.violations.front();
    CHECK(v.invariant == Invariant::ConcurrentExecution);
    CHECK(run.steps[v.step].t == 110);  // from the retry's arrival
    CHECK(run.steps[v.step].snap.in_progress.size() == 2);
    CHECK(v.reason.en.find("2 requests of " + std::string(kIntent) + " at once") != std::string::npos);
    // Shown while both run, gone once the first has committed.
    CHECK(!verdict.at_step(run, v.step).empty());
    CHECK(verdict.at_step(run, last(run)).empty());
  }
  SUBCASE("check_then_insert: both requests pass the check on arrival and both commit") {
    s.service.concurrent_same_key = ConcurrentSameKey::CheckThenInsert;
    Run run = run_with(s, {drop(MessageKind::Response)});
    CHECK(count_events(run, "in_progress") == 0);
    CHECK(count_events(run, "replay") == 0);
    CHECK(count_events(run, "commit") == 2);
    CHECK(effects_for(run, last(run), kIntent) == 2);
    RunVerdict verdict = check_invariants(run);
    REQUIRE(!verdict.safe());
    CHECK(std::any_of(verdict.violations.begin(), verdict.violations.end(),
                      [](const Violation& v) { return v.invariant == Invariant::DuplicateEffect; }));
    // The timeline says why: each request was checked once, on arrival, and found nothing.
    int checked = 0;
    for (const Step& st : run.steps) {
      if (st.event.type == EventKind::Receive && st.event.side == Side::Service && st.event.local.to_json().value("checked", "") == "no_record") {
        ++checked;
        CHECK(describe(st, run).en.find("will not look again") != std::string::npos);
      }
    }
    CHECK(checked == 2);
  }
  SUBCASE("check_then_insert: a retry after the commit is still replayed (the race needs the window)") {
    s.service.concurrent_same_key = ConcurrentSameKey::CheckThenInsert;
    s.script.back().at = 250;  // arrives at t=260, after attempt 1's commit at t=210
    Run run = run_with(s, {drop(MessageKind::Response)});
    CHECK(count_events(run, "replay") == 1);
    CHECK(effects_for(run, last(run), kIntent) == 1);
    CHECK(check_invariants(run).safe());
  }
}

TEST_CASE("a lease shorter than the processing hands the request out again while it still runs") {
  // One request, no fault, no retry: processed from t=10 to t=310 under a 100 ms lease.
  Scenario s;
  s.service.processing_ms = 300;
  s.service.lease_ms = 100;
  s.client.max_attempts = 1;
  s.timing.timeout_ms = 1000;
  s.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "payload-1"});
  SUBCASE("a redelivery every lease while the first still runs; the copies replay the first's record") {
    Run run = run_with(s);
    std::vector<std::int64_t> at;
    for (const Step& st : run.steps) {
      if (st.event.type == EventKind::Redeliver) at.push_back(st.t);
    }
    // Each copy has its own lease: t=110 redelivers the first, t=210 the first copy, and so
    // on, up to limits::kMaxLeaseRedeliveries.
    CHECK(at == std::vector<std::int64_t>{110, 210, 310, 410, 510});
    CHECK(effects_for(run, last(run), kIntent) == 1);
    CHECK(count_events(run, "replay") == 5);
    CHECK(final_status(run) == status::kDelivered);
    RunVerdict verdict = check_invariants(run);
    REQUIRE(verdict.violations.size() == 1);
    CHECK(verdict.violations.front().invariant == Invariant::ConcurrentExecution);
    CHECK(run.steps[verdict.violations.front().step].t == 110);
    CHECK(verdict.at_step(run, last(run)).empty());
  }
  SUBCASE("under check_then_insert each copy commits an effect of its own") {
    s.service.concurrent_same_key = ConcurrentSameKey::CheckThenInsert;
    Run run = run_with(s);
    CHECK(effects_for(run, last(run), kIntent) == 6);
    // The verdict counts what the run ends with, as its ending does, not the 2 effects of
    // the step where the invariant first broke.
    RunVerdict verdict = check_invariants(run);
    auto dup = std::find_if(verdict.violations.begin(), verdict.violations.end(),
                            [](const Violation& v) { return v.invariant == Invariant::DuplicateEffect; });
    REQUIRE(dup != verdict.violations.end());
    CHECK(effects_for(run, dup->step, kIntent) == 2);
    CHECK(dup->reason.en.find("6 effects") != std::string::npos);
    CHECK(dup->reason.zh.find("6 条业务效果") != std::string::npos);
  }
  SUBCASE("each redelivery counts the copies of the work running at once") {
    Run run = run_with(s);
    std::vector<std::string> en, zh;
    for (const Step& st : run.steps) {
      if (st.event.type != EventKind::Redeliver) continue;
      en.push_back(describe(st, run).en);
      zh.push_back(describe(st, run).zh);
    }
    REQUIRE(en.size() == 5);
    // t=110: the first and its copy; t=210: a third while both still run (until 310, 410).
    CHECK(en[0].find("two copies of the work run at once") != std::string::npos);
    CHECK(en[1].find("3 copies of the work run at once") != std::string::npos);
    CHECK(zh[1].find("3份工作同时在跑") != std::string::npos);
  }
  SUBCASE("the last redelivery says the model's queue stops there") {
    Run run = run_with(s);
    int last_redelivery = -1;
    for (const Step& st : run.steps) {
      if (st.event.type == EventKind::Redeliver) last_redelivery = st.i;
    }
    REQUIRE(last_redelivery >= 0);
    CHECK(describe(run.steps[last_redelivery], run).en.find("at most 5 times") != std::string::npos);
    CHECK(describe(run.steps[last_redelivery], run).zh.find("最多再交付 5 次") != std::string::npos);
  }
  SUBCASE("the knob table judges the lease against the processing it covers") {
    const Knob* lease = nullptr;
    for (const Knob& k : knob_table()) {
      if (k.path() == "service.lease_ms") lease = &k;
    }
    REQUIRE(lease != nullptr);
    CHECK(lease->setting_of(lease->get(s), &s) == Setting::Wrong);  // 100 < 300
    s.service.lease_ms = 300;
    CHECK(lease->setting_of(lease->get(s), &s) == Setting::Right);
    s.service.lease_ms.reset();
    CHECK(lease->setting_of(lease->get(s), &s) == Setting::Right);
    // On its own a set lease may be wrong: what the vocabulary and the fuzzer ask.
    CHECK(lease->setting_of(nlohmann::json(100)) == Setting::Wrong);
  }
  SUBCASE("a lease longer than the processing never runs out: one execution") {
    s.service.lease_ms = 400;
    Run run = run_with(s);
    CHECK(count_events(run, "redeliver") == 0);
    CHECK(check_invariants(run).safe());
  }
  SUBCASE("a crash during processing forgets the work and its lease") {
    s.space = {};
    Run run = run_with(s, {crash_service(ServicePoint::BeforeCommit, 20)});
    // Crashed at t=310, before the commit of the execution that started at t=10.
    CHECK(count_events(run, "redeliver") == 2);  // t=110, t=210: then the crash at t=310
  }
}

TEST_CASE("dedup none: the same key resent after a lost response makes a second effect; by key it is replayed") {
  Scenario s = retrying(Ordering::Atomic);
  s.service.dedup = Dedup::None;
  Run none = run_with(s, {drop(MessageKind::Response)});
  CHECK(count_events(none, "replay") == 0);
  CHECK(effects_for(none, last(none), kIntent) == 2);
  CHECK(none.steps.back().snap.deliveries[0].op_key == none.steps.back().snap.deliveries[1].op_key);
  RunVerdict verdict = check_invariants(none);
  REQUIRE(!verdict.safe());
  CHECK(verdict.violations.front().invariant == Invariant::DuplicateEffect);

  s.service.dedup = Dedup::Key;
  Run by_key = run_with(s, {drop(MessageKind::Response)});
  CHECK(count_events(by_key, "replay") == 1);
  CHECK(effects_for(by_key, last(by_key), kIntent) == 1);
  CHECK(check_invariants(by_key).safe());
}

TEST_CASE("a crash forgets the requests in progress") {
  Scenario s = retrying(Ordering::Atomic);
  s.service.processing_ms = 30;
  Run run = run_with(s, {crash_service(ServicePoint::BeforeCommit)});
  auto crash = std::find_if(run.steps.begin(), run.steps.end(), [](const Step& st) { return st.event.type == EventKind::Crash; });
  REQUIRE(crash != run.steps.end());
  CHECK(crash->t == 40);
  CHECK(crash->snap.in_progress.empty());
  CHECK(effects_for(run, last(run), kIntent) == 1);  // the retry after the restart
}

TEST_CASE("dedup by fingerprint merges two intents with the same content; by key keeps both") {
  Scenario s;
  s.script.push_back({ActionKind::Deliver, 0, -1, "a", "same content"});
  s.script.push_back({ActionKind::Deliver, 50, -1, "b", "same content"});
  s.service.dedup = Dedup::Fingerprint;
  Run merged = simulate(s, s.faults);
  CHECK(merged.steps.back().snap.deliveries.size() == 1);
  CHECK(effects_for(merged, last(merged), "b") == 0);
  CHECK(final_status(merged, "b") == status::kDelivered);
  CHECK(false_delivered(merged, "b"));

  s.service.dedup = Dedup::Key;
  Run kept = simulate(s, s.faults);
  CHECK(kept.steps.back().snap.deliveries.size() == 2);
  CHECK(effects_for(kept, last(kept), "a") == 1);
  CHECK(effects_for(kept, last(kept), "b") == 1);
}

TEST_CASE("key_registered follows the dedup record of the intent's current key") {
  Scenario s = retrying(Ordering::KeyFirst);
  Run run = run_with(s, {crash_service(ServicePoint::BetweenWrites)});
  FactRef registered{"key_registered", "key_registered", kIntent, 1};
  FactRef authoritative{"lookup_authoritative", "lookup_authoritative", kIntent, 1};
  CHECK(evaluate(registered, run, 0) == false);
  auto reg = std::find_if(run.steps.begin(), run.steps.end(), [](const Step& st) { return st.event.type == EventKind::Register; });
  REQUIRE(reg != run.steps.end());
  CHECK(evaluate(registered, run, reg->i) == true);
  // A key with no effect: a lookup would answer "found" for what never happened.
  CHECK(evaluate(authoritative, run, reg->i) == false);
}
