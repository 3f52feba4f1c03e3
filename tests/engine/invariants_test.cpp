// The one definition of safety (engine/invariants/): each invariant caught in a run built
// for it, at the step where it first holds and for the intent it is about, and absent in
// the same run with the right knob.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/invariants/invariants.hpp"
#include "engine/knowledge/facts.hpp"
#include "engine/lesson/compare.hpp"
#include "engine/lesson/lesson_timeline.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/timeline/timeline_json.hpp"
#include "lesson_file.hpp"

using namespace idemlab;

namespace {

constexpr const char* kIntent = "r";

int last(const Run& run) { return static_cast<int>(run.steps.size()) - 1; }

Scenario one_intent() {
  Scenario s;
  s.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "payload-1"});
  return s;
}

Fault on_attempt_1(Fault::Kind kind, const std::string& intent = kIntent) {
  Fault f;
  f.kind = kind;
  f.intent = intent;
  return f;
}

Fault drop(MessageKind message) {
  Fault f = on_attempt_1(Fault::Kind::Drop);
  f.message = message;
  return f;
}

Fault crash_service(ServicePoint point) {
  Fault f = on_attempt_1(Fault::Kind::CrashService);
  f.service_point = point;
  return f;
}

Run run_with(const Scenario& s, std::vector<Fault> faults = {}) {
  FaultPlan plan;
  plan.faults = std::move(faults);
  return simulate(s, plan);
}

// The violations of `inv` in the run's verdict (any intent).
std::vector<Violation> of(const RunVerdict& v, Invariant inv) {
  std::vector<Violation> out;
  for (const Violation& x : v.violations) {
    if (x.invariant == inv) out.push_back(x);
  }
  return out;
}

// The first step where `pick` holds, or -1.
template <typename Pick>
int first_step(const Run& run, Pick pick) {
  for (const Step& s : run.steps) {
    if (pick(s)) return s.i;
  }
  return -1;
}

const IntentRow* row_of(const Step& s, const std::string& intent) {
  for (const IntentRow& r : s.snap.intents) {
    if (r.intent == intent) return &r;
  }
  return nullptr;
}

bool flagged_at(const Run& run, const RunVerdict& v, int step, Invariant inv) {
  std::vector<Violation> now = v.at_step(run, step);
  return std::any_of(now.begin(), now.end(), [&](const Violation& x) { return x.invariant == inv; });
}

// A retry after a lost response: the client resends 20 ms after recording UNKNOWN.
Scenario resending(KeyScope keys) {
  Scenario s = one_intent();
  s.client.key_scope = keys;
  s.client.recovery = Recovery::Resend;
  s.client.retry_after_ms = 20;
  return s;
}

}  // namespace

TEST_CASE("duplicate_effect: a new key per attempt makes a second effect at the second commit; one key per intent does not") {
  Run wrong = run_with(resending(KeyScope::PerAttempt), {drop(MessageKind::Response)});
  RunVerdict v = check_invariants(wrong);
  std::vector<Violation> dup = of(v, Invariant::DuplicateEffect);
  REQUIRE(dup.size() == 1);
  CHECK(dup[0].intent == kIntent);
  int second = first_step(wrong, [&](const Step& s) { return effects_for(wrong, s.i, kIntent) == 2; });
  REQUIRE(second > 0);
  CHECK(dup[0].step == second);
  CHECK(dup[0].reason.en == "duplicate effect: 2 effects for r");
  CHECK(dup[0].reason.zh.find("2 条业务效果") != std::string::npos);
  CHECK_FALSE(flagged_at(wrong, v, second - 1, Invariant::DuplicateEffect));
  CHECK(flagged_at(wrong, v, last(wrong), Invariant::DuplicateEffect));
  CHECK_FALSE(v.safe());

  Run right = run_with(resending(KeyScope::PerIntent), {drop(MessageKind::Response)});
  CHECK(check_invariants(right).safe());
}

TEST_CASE("false_success: a key written before its effect answers a retry 'done' for an effect that never happened") {
  Scenario s = resending(KeyScope::PerIntent);
  s.service.ordering = Ordering::KeyFirst;
  Run wrong = run_with(s, {crash_service(ServicePoint::BetweenWrites)});
  RunVerdict v = check_invariants(wrong);
  std::vector<Violation> lie = of(v, Invariant::FalseSuccess);
  REQUIRE(lie.size() == 1);
  CHECK(lie[0].intent == kIntent);
  int delivered = first_step(wrong, [](const Step& st) {
    const IntentRow* r = row_of(st, kIntent);
    return r && r->status == status::kDelivered;
  });
  CHECK(lie[0].step == delivered);
  CHECK(effects_for(wrong, last(wrong), kIntent) == 0);
  CHECK(lie[0].reason.en.find("no effect of r exists") != std::string::npos);

  s.service.ordering = Ordering::Atomic;
  CHECK(check_invariants(run_with(s, {crash_service(ServicePoint::BetweenWrites)})).safe());
}

TEST_CASE("false_success: DELIVERED for content the service never accepted is flagged, and the client no longer records it") {
  // The reply to attempt 1 (old content, committed at 10 ms) arrives at 20 ms; at 15 ms the
  // client reuses the key for changed content. The reply carries the fingerprint its
  // receipt is for, so the client does not put the old receipt on the new content: the
  // new content is refused (422) and the row ends CONFLICT, which is no false failure
  // (the effect that exists is of the old content).
  Scenario s = one_intent();
  s.script.push_back({ActionKind::ResendChangedPayload, 15, -1, kIntent, "payload-2"});
  Run run = run_with(s);
  const IntentRow* end = row_of(run.steps.back(), kIntent);
  REQUIRE(end != nullptr);
  CHECK(end->status == status::kConflict);
  CHECK(effects_for(run, last(run), kIntent) == 1);
  CHECK(check_invariants(run).safe());

  // The invariant itself: the same run, its last row DELIVERED with the old receipt for
  // the new content (what the client recorded before replies carried a fingerprint).
  std::vector<IntentRow> rows(run.steps.back().snap.intents.begin(), run.steps.back().snap.intents.end());
  for (IntentRow& r : rows) {
    if (r.intent != kIntent) continue;
    r.status = status::kDelivered;
    r.receipt = run.steps.back().snap.deliveries[0].receipt;
  }
  Run lied = run;
  lied.steps.back().snap.intents = Rows<IntentRow>(rows);
  std::vector<Violation> lie = of(check_invariants(lied), Invariant::FalseSuccess);
  REQUIRE(lie.size() == 1);
  CHECK(lie[0].intent == kIntent);
  CHECK(lie[0].step == last(lied));
  CHECK(lie[0].reason.en.find("the service never accepted") != std::string::npos);
  CHECK(lie[0].reason.zh.find("内容哈希") != std::string::npos);
}

TEST_CASE("a lookup that finds the key bound to other content ends the changed row CONFLICT, a definite error") {
  // Attempt 2 (changed content under the same key) is lost; the lookup finds the key
  // holding the old content: the new content will be refused under this key.
  Scenario s = one_intent();
  s.client.retry_after_ms = 50;
  s.script.push_back({ActionKind::ResendChangedPayload, 300, -1, kIntent, "payload-2"});
  Fault lost = drop(MessageKind::Request);
  lost.n = 2;
  Run run = run_with(s, {lost});
  int conflict = first_step(run, [](const Step& st) {
    const IntentRow* r = row_of(st, kIntent);
    return r && r->status == status::kConflict;
  });
  REQUIRE(conflict >= 0);
  CHECK(run.steps[conflict].event.local.to_json().value("error", "") == error_kind::kDefinite);
  CHECK(run.steps[conflict - 1].event.type == EventKind::Receive);
  CHECK(run.messages[run.steps[conflict - 1].event.message].kind == MessageKind::LookupReply);
  CHECK(check_invariants(run).safe());
}

TEST_CASE("false_failure: FAILED after a timeout while the effect exists; reconciling instead ends DELIVERED") {
  Scenario s = one_intent();
  s.script.push_back({ActionKind::MarkFailed, 150, -1, kIntent, ""});
  Run wrong = run_with(s, {drop(MessageKind::Response)});
  RunVerdict v = check_invariants(wrong);
  std::vector<Violation> lie = of(v, Invariant::FalseFailure);
  REQUIRE(lie.size() == 1);
  CHECK(lie[0].intent == kIntent);
  int failed = first_step(wrong, [](const Step& st) {
    const IntentRow* r = row_of(st, kIntent);
    return r && r->status == status::kFailed;
  });
  CHECK(lie[0].step == failed);
  CHECK(lie[0].reason.en.find("says FAILED") != std::string::npos);
  // Still so at the end: said as the run's final state, with no time.
  CHECK(lie[0].reason.en.find("at t=") == std::string::npos);
  CHECK(flagged_at(wrong, v, last(wrong), Invariant::FalseFailure));

  Scenario right = one_intent();
  right.script.push_back({ActionKind::Reconcile, 150, -1, kIntent, ""});
  CHECK(check_invariants(run_with(right, {drop(MessageKind::Response)})).safe());
}

TEST_CASE("false_failure: FAILED on a timeout, then DELIVERED by the resend, is caught at the FAILED step") {
  // One key per intent: the resend is replayed and the row ends DELIVERED with one effect,
  // but the user was told "failed" first, while the effect was already there.
  Scenario s = one_intent();
  s.client.on_timeout = OnTimeout::MarkFailedAndResend;
  Run run = run_with(s, {drop(MessageKind::Response)});
  REQUIRE(run.stop == StopReason::Settled);
  const IntentRow* end = row_of(run.steps.back(), kIntent);
  REQUIRE(end != nullptr);
  CHECK(end->status == status::kDelivered);
  CHECK(effects_for(run, last(run), kIntent) == 1);
  int failed = first_step(run, [](const Step& st) {
    const IntentRow* r = row_of(st, kIntent);
    return r && r->status == status::kFailed;
  });
  REQUIRE(failed > 0);
  REQUIRE(effects_for(run, failed, kIntent) == 1);

  RunVerdict v = check_invariants(run);
  std::vector<Violation> lie = of(v, Invariant::FalseFailure);
  REQUIRE(lie.size() == 1);
  CHECK(lie[0].intent == kIntent);
  CHECK(lie[0].step == failed);
  // Said as of the step it broke at, not as the run's end (where the row says DELIVERED).
  const std::string at = std::to_string(run.steps[static_cast<std::size_t>(failed)].t);
  CHECK(lie[0].reason.en == "false failure: at t=" + at +
                                " ms, the client's row for r says FAILED while 1 effect of the very content it sent exists: "
                                "the user was told it failed while the work was done (no longer so by the end of the run)");
  CHECK(lie[0].reason.zh.find("在 t=" + at + " ms 时") != std::string::npos);
  CHECK(lie[0].reason.zh.find("用户被告知没做成") != std::string::npos);
  // Flagged where the row says FAILED, and no longer once the row is put right; the
  // run's verdict keeps it.
  CHECK_FALSE(flagged_at(run, v, failed - 1, Invariant::FalseFailure));
  CHECK(flagged_at(run, v, failed, Invariant::FalseFailure));
  CHECK_FALSE(flagged_at(run, v, last(run), Invariant::FalseFailure));
  CHECK_FALSE(v.safe());

  // Where the request was lost instead, the row is PENDING again before the resend leaves,
  // and no effect existed while it said FAILED: that run breaks nothing (the client cannot
  // tell it from the run above, which the explorer also tries).
  CHECK(check_invariants(run_with(s, {drop(MessageKind::Request)})).safe());
}

TEST_CASE("false_failure: a definite refusal recorded FAILED is not one, even when the user sends it again later") {
  // A 429 on the only send: nothing was done, and FAILED is true. The user later sends it
  // again under the same key and it is done: the row went back to PENDING before that send.
  Scenario s = one_intent();
  s.script.push_back({ActionKind::ResendSameKey, 200, -1, kIntent, ""});
  Fault refused = on_attempt_1(Fault::Kind::ServiceError);
  refused.error_point = ErrorPoint::Refused;
  Run run = run_with(s, {refused});
  int failed = first_step(run, [](const Step& st) {
    const IntentRow* r = row_of(st, kIntent);
    return r && r->status == status::kFailed;
  });
  REQUIRE(failed > 0);
  CHECK(effects_for(run, failed, kIntent) == 0);
  const IntentRow* end = row_of(run.steps.back(), kIntent);
  REQUIRE(end != nullptr);
  CHECK(end->status == status::kDelivered);
  CHECK(effects_for(run, last(run), kIntent) == 1);
  RunVerdict v = check_invariants(run);
  CHECK(of(v, Invariant::FalseFailure).empty());
  CHECK(v.safe());
}

TEST_CASE("false_failure: a CONFLICT for changed content, with the old content's effect in place, is not one") {
  auto p = prepared_lesson("10-same-key-changed-intent.json");
  const Run& run = p->run();
  const IntentRow* end = row_of(run.steps.back(), "weekly-report");
  REQUIRE(end != nullptr);
  REQUIRE(end->status == status::kConflict);
  REQUIRE(effects_for(run, last(run), "weekly-report") == 1);
  RunVerdict v = check_invariants(run);
  CHECK(of(v, Invariant::FalseFailure).empty());
  CHECK(v.about("weekly-report").empty());
}

TEST_CASE("forgotten_intent: 05-stale-pending and 06-send-first end with an effect the client forgot, at their last step") {
  for (const char* name : {"05-stale-pending.json", "06-send-first.json"}) {
    CAPTURE(name);
    auto p = prepared_lesson(name);
    const Run& run = p->run();
    REQUIRE(run.stop == StopReason::Settled);
    std::string intent = first_intent(p->lesson.scenario);
    RunVerdict v = check_invariants(run);
    std::vector<Violation> lost = of(v, Invariant::ForgottenIntent);
    REQUIRE(lost.size() == 1);
    CHECK(lost[0].intent == intent);
    // From the step the effect appears (the client's row is PENDING or absent then) on.
    int effect = first_step(run, [&](const Step& s) { return effects_for(run, s.i, intent) > 0; });
    CHECK(lost[0].step == effect);
    CHECK(lost[0].reason.en.find("forgotten intent: 1 effect of " + intent + " exists") == 0);

    nlohmann::json timeline = timeline_json(*p);
    const nlohmann::json& steps = timeline["steps"];
    CHECK(steps.back()["invariants"]["forgotten_intent"] == true);
    CHECK(steps.back()["invariants"]["violations"][0]["invariant"] == "forgotten_intent");
    CHECK(steps[effect]["invariants"]["forgotten_intent"] == false);  // only judged at the end
    CHECK(timeline["verdict"]["stop"] == "settled");
    CHECK(timeline["verdict"]["violations"].size() == 1);

    // The lesson's right policy under the same faults: nothing forgotten.
    const ComparePolicy& right = p->lesson.compare->policies.at(1);
    CHECK(check_invariants(run_with(right.scenario, right.scenario.faults.faults)).about(intent).empty());
  }
  // Which of the two ways: no row at all (send first), or a row left PENDING.
  auto send_first = prepared_lesson("06-send-first.json");
  auto stale = prepared_lesson("05-stale-pending.json");
  CHECK(check_invariants(send_first->run()).violations[0].reason.en.find("the client has no row for it") != std::string::npos);
  CHECK(check_invariants(stale->run()).violations[0].reason.en.find("still PENDING") != std::string::npos);
}

TEST_CASE("the side-by-side view of 05-stale-pending: the left policy's verdict names the forgotten intent, the right's none") {
  auto p = prepared_lesson("05-stale-pending.json");
  nlohmann::json c = compare_json(*p);
  const nlohmann::json& left = c["policies"][0];
  const nlohmann::json& right = c["policies"][1];
  REQUIRE(left["verdict"]["violations"].size() == 1);
  CHECK(left["verdict"]["violations"][0]["invariant"] == "forgotten_intent");
  CHECK(left["verdict"]["violations"][0]["intent"] == c["intent"]);
  CHECK(left["steps"].back()["invariants"]["forgotten_intent"] == true);
  CHECK(right["verdict"]["violations"].empty());
  CHECK(right["verdict"]["stop"] == "settled");
  CHECK(right["steps"].back()["invariants"]["forgotten_intent"] == false);
}

namespace {

// One intent, the service notifies; the client retries the same key.
Scenario notifying(Notify notify, bool provider_dedup = true) {
  Scenario s = resending(KeyScope::PerIntent);
  s.service.notify = notify;
  s.provider.dedup_by_key = provider_dedup;
  return s;
}

}  // namespace

TEST_CASE("lost_notification: a direct call after the commit is lost in a crash; the outbox's relay sends it after the restart") {
  Run wrong = run_with(notifying(Notify::Direct), {crash_service(ServicePoint::AfterCommit)});
  RunVerdict v = check_invariants(wrong);
  std::vector<Violation> lost = of(v, Invariant::LostNotification);
  REQUIRE(lost.size() == 1);
  CHECK(lost[0].intent == kIntent);
  CHECK(lost[0].step == first_step(wrong, [&](const Step& s) { return effects_for(wrong, s.i, kIntent) > 0; }));
  CHECK(lost[0].reason.en.find("holds no email for it") != std::string::npos);
  nlohmann::json end = step_json(wrong, last(wrong), v);
  CHECK(end["invariants"]["lost_notification"] == true);

  Run right = run_with(notifying(Notify::Outbox), {crash_service(ServicePoint::AfterCommit)});
  CHECK(check_invariants(right).safe());
  // Without notifications there are no notification invariants at all.
  Run quiet = run_with(notifying(Notify::None), {crash_service(ServicePoint::AfterCommit)});
  CHECK(check_invariants(quiet).safe());
  CHECK_FALSE(step_json(quiet, last(quiet), check_invariants(quiet))["invariants"].contains("lost_notification"));
}

TEST_CASE("duplicate_notification: the relay's resend is a second email unless the provider dedups by the email's key") {
  Run wrong = run_with(notifying(Notify::Outbox, false), {crash_service(ServicePoint::AfterEmailSend)});
  RunVerdict v = check_invariants(wrong);
  std::vector<Violation> dup = of(v, Invariant::DuplicateNotification);
  REQUIRE(dup.size() == 1);
  CHECK(dup[0].intent == kIntent);
  int second = first_step(wrong, [&](const Step& s) { return emails_for(wrong, s.i, kIntent) == 2; });
  CHECK(dup[0].step == second);
  CHECK(dup[0].reason.en == "duplicate notification: 2 emails for r in the mail provider's inbox");
  CHECK(step_json(wrong, second, v)["invariants"]["duplicate_notification"] == true);
  CHECK(step_json(wrong, second - 1, v)["invariants"]["duplicate_notification"] == false);

  CHECK(check_invariants(run_with(notifying(Notify::Outbox, true), {crash_service(ServicePoint::AfterEmailSend)})).safe());
}

TEST_CASE("a run stopped at a limit is judged on its always-invariants only, and says why it stopped") {
  auto p = prepared_lesson("05-stale-pending.json");
  Run cut = p->run();
  REQUIRE_FALSE(check_invariants(cut).safe());
  cut.stop = StopReason::StepLimit;  // the same steps, but more was to come
  RunVerdict v = check_invariants(cut);
  CHECK(v.safe());
  CHECK(v.stop == StopReason::StepLimit);
  CHECK(v.to_json()["stop"] == "step_limit");
  CHECK(v.to_json()["stop_text"]["en"].get<std::string>().find("400 steps") != std::string::npos);

  // A real one: every layer retries a service far slower than the client's patience (a
  // reply comes back after 16 s, the client waits 100 ms), each time under a new key: the
  // 400 steps run out before any reply. The duplicates are still caught.
  Scenario s = one_intent();
  s.timing.latency_ms = 8000;
  s.timing.timeout_ms = 100;
  s.client.key_scope = KeyScope::PerAttempt;
  s.client.retry_layers = {{"sdk", 20}, {"app", 20}};
  Run limited = run_with(s);
  REQUIRE(limited.stop == StopReason::StepLimit);
  RunVerdict lv = check_invariants(limited);
  CHECK(lv.stop == StopReason::StepLimit);
  CHECK_FALSE(of(lv, Invariant::DuplicateEffect).empty());
  for (const Violation& x : lv.violations) CHECK(info(x.invariant).scope == InvariantScope::Always);
}

TEST_CASE("the invariant table: every invariant once, in the header's order, with a meaning in both languages") {
  const auto& table = invariant_table();
  REQUIRE(table.size() == 7);
  std::vector<std::string> names;
  for (const InvariantInfo& i : table) {
    names.push_back(i.name);
    CHECK(!i.meaning.zh.empty());
    CHECK(!i.meaning.en.empty());
    CHECK(std::string(to_string(i.id)) == i.name);
  }
  CHECK(names == std::vector<std::string>{"duplicate_effect", "false_success", "false_failure", "forgotten_intent",
                                          "lost_notification", "duplicate_notification", "concurrent_execution"});
  CHECK(std::string(to_string(StopReason::Horizon)) == "horizon");
  CHECK(!describe(StopReason::Settled).zh.empty());
}
