// The client side of the fault model: the retry budget (layers that multiply, deadline,
// backoff), NEEDS_HUMAN, cancel as a new intent, and definite / indefinite errors.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "engine/api/api.hpp"
#include "engine/client/client.hpp"
#include "engine/client/retry_budget.hpp"
#include "engine/invariants/invariants.hpp"
#include "engine/knowledge/facts.hpp"
#include "engine/knowledge/knowledge.hpp"
#include "engine/knowledge/worlds.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/scenario/knobs.hpp"
#include "engine/timeline/describe.hpp"
#include "lesson_file.hpp"

using namespace idemlab;
using nlohmann::json;

namespace {

Scenario one_intent() {
  Scenario s;
  s.script.push_back({ActionKind::Deliver, 0, -1, "r", "payload-1"});
  return s;
}

// A service slower than the client's patience: a request arrives after 1000 ms, its
// response 1000 ms later, while the client gives up on each call after 100 ms.
Scenario slow_service(std::vector<RetryLayer> layers, KeyScope keys) {
  Scenario s = one_intent();
  s.timing.latency_ms = 1000;
  s.timing.timeout_ms = 100;
  s.client.key_scope = keys;
  s.client.retry_layers = std::move(layers);
  return s;
}

Fault drop(MessageKind kind, int n, const std::string& intent = "r") {
  Fault f;
  f.kind = Fault::Kind::Drop;
  f.message = kind;
  f.intent = intent;
  f.n = n;
  return f;
}

std::vector<const Step*> steps_where(const Run& run, const std::function<bool(const Step&)>& pick) {
  std::vector<const Step*> out;
  for (const Step& s : run.steps) {
    if (pick(s)) out.push_back(&s);
  }
  return out;
}

std::vector<const Step*> sends(const Run& run, const std::string& intent = "r") {
  return steps_where(run, [&](const Step& s) { return s.event.type == EventKind::Send && s.event.intent == intent; });
}

const Step* first_record(const Run& run, const std::string& status) {
  auto found = steps_where(run, [&](const Step& s) {
    return s.event.type == EventKind::Record && s.event.local.to_json().value("status", "") == status;
  });
  return found.empty() ? nullptr : found.front();
}

std::string final_status(const Run& run, const std::string& intent) {
  for (const IntentRow& r : run.steps.back().snap.intents) {
    if (r.intent == intent) return r.status;
  }
  return "NONE";
}

int final_effects(const Run& run, const std::string& intent) {
  return effects_for(run, static_cast<int>(run.steps.size()) - 1, intent);
}

const std::vector<RetryLayer> kThreeLayers = {{"sdk", 3}, {"app", 2}, {"scheduler", 2}};

}  // namespace

TEST_CASE("retry layers multiply: 3 x 2 x 2 layers send 12 requests to a slow service, one owning layer sends 3") {
  Scenario layered = slow_service(kThreeLayers, KeyScope::PerIntent);
  Run run = simulate(layered, layered.faults);
  auto sent = sends(run);
  CHECK(sent.size() == 12);
  // Every send names its iteration of each layer and the layer that retried it.
  CHECK(sent[0]->event.local.to_json()["layers"] ==
        json::parse(R"([{"layer":"sdk","iteration":1,"attempts":3},{"layer":"app","iteration":1,"attempts":2},)"
                    R"({"layer":"scheduler","iteration":1,"attempts":2}])"));
  CHECK_FALSE(sent[0]->event.local.to_json().contains("retried_by"));
  CHECK(sent[1]->event.local.to_json()["retried_by"] == "sdk");
  CHECK(sent[3]->event.local.to_json()["retried_by"] == "app");
  CHECK(sent[6]->event.local.to_json()["retried_by"] == "scheduler");
  CHECK(sent[11]->event.local.to_json()["send"] == 12);
  CHECK(sent[11]->event.local.to_json()["budget"] == 12);
  // A layered timeout resends under the same operation key: the service replays.
  for (const Step* s : sent) CHECK(s->event.local.to_json()["op_key"] == sent[0]->event.local.to_json()["op_key"]);
  CHECK(final_effects(run, "r") == 1);

  // Under a key per attempt each of the 12 is an effect of its own.
  Scenario fresh = slow_service(kThreeLayers, KeyScope::PerAttempt);
  CHECK(final_effects(simulate(fresh, fresh.faults), "r") == 12);

  Scenario owned = slow_service({{"sdk", 1}, {"app", 3}, {"scheduler", 1}}, KeyScope::PerIntent);
  CHECK(sends(simulate(owned, owned.faults)).size() == 3);
}

TEST_CASE("NEEDS_HUMAN is reached while the effect exists: a slow service, and lost responses") {
  Scenario slow = slow_service(kThreeLayers, KeyScope::PerIntent);
  Run run = simulate(slow, slow.faults);
  const Step* human = first_record(run, status::kNeedsHuman);
  REQUIRE(human != nullptr);
  CHECK(human->event.local.to_json()["reason"] == "budget_spent");
  CHECK(human->event.local.to_json()["error"] == error_kind::kIndefinite);
  CHECK(effects_for(run, human->i, "r") == 1);  // the client gave up on an effect that happened
  CHECK(first_record(run, status::kFailed) == nullptr);

  Scenario lossy = one_intent();
  lossy.client.retry_layers = {{"sdk", 2}};
  lossy.faults.faults = {drop(MessageKind::Response, 1), drop(MessageKind::Response, 2)};
  Run lost = simulate(lossy, lossy.faults);
  human = first_record(lost, status::kNeedsHuman);
  REQUIRE(human != nullptr);
  CHECK(effects_for(lost, human->i, "r") == 1);
  CHECK(final_status(lost, "r") == status::kNeedsHuman);
  CHECK(sends(lost).size() == 2);
}

TEST_CASE("a deadline stops sends: none leaves after it, and the intent needs a human") {
  Scenario open = slow_service({{"sdk", 10}}, KeyScope::PerIntent);
  CHECK(sends(simulate(open, open.faults)).size() == 10);

  Scenario bounded = open;
  bounded.client.deadline_ms = 350;
  Run run = simulate(bounded, bounded.faults);
  auto sent = sends(run);
  CHECK(sent.size() == 4);  // at 0, 100, 200 and 300 ms
  for (const Step* s : sent) CHECK(s->t <= 350);
  const Step* human = first_record(run, status::kNeedsHuman);
  REQUIRE(human != nullptr);
  CHECK(human->event.local.to_json()["reason"] == "deadline_passed");
  CHECK(human->event.local.to_json()["deadline_at"] == 350);
}

TEST_CASE("backoff doubles the wait before each retry") {
  Scenario s = slow_service({{"sdk", 4}}, KeyScope::PerIntent);
  s.client.backoff_ms = 50;
  Run run = simulate(s, s.faults);
  auto sent = sends(run);
  REQUIRE(sent.size() == 4);
  std::vector<std::int64_t> waits;  // the gap between sends beyond the timeout
  for (std::size_t i = 1; i < sent.size(); ++i) waits.push_back(sent[i]->t - sent[i - 1]->t - s.timing.timeout_ms);
  CHECK(waits == std::vector<std::int64_t>{50, 100, 200});
  CHECK(sent[3]->event.local.to_json()["backoff_ms"] == 200);
}

TEST_CASE("a cancel is a new intent and a new effect: the original's effect stays, once") {
  Scenario s = one_intent();
  s.faults.faults = {drop(MessageKind::Response, 1)};
  s.script.push_back({ActionKind::Cancel, 150, -1, "r", ""});
  Run run = simulate(s, s.faults);

  CHECK(final_effects(run, "r") == 1);
  CHECK(final_effects(run, "r-cancel") == 1);
  CHECK(run.steps.back().snap.deliveries.size() == 2);
  CHECK(final_status(run, "r") == status::kUnknown);  // unchanged until reconciled
  CHECK(final_status(run, "r-cancel") == status::kDelivered);
  const IntentRow* original = nullptr;
  const IntentRow* cancel = nullptr;
  for (const IntentRow& r : run.steps.back().snap.intents) (r.intent == "r" ? original : cancel) = &r;
  REQUIRE(original != nullptr);
  REQUIRE(cancel != nullptr);
  CHECK(cancel->op_key != original->op_key);
  CHECK(cancel->payload == "cancel " + original->op_key);
  // The cancel travels as its own request, with its own key, to a delivery of its own.
  auto cancel_sends = sends(run, "r-cancel");
  REQUIRE(cancel_sends.size() == 1);
  CHECK(cancel_sends[0]->event.local.to_json()["op_key"] == cancel->op_key);

  // In every run of the fault space the original has the effects it has without the
  // cancel: a cancel takes nothing away and adds nothing to the original.
  s.space.lose_any_one_message = true;
  Scenario without = s;
  without.script.pop_back();
  int runs = 0;
  for (const World& w : build_worlds(s)) {
    Run plain = simulate(without, w.plan);
    CHECK_MESSAGE(final_effects(w.run, "r") == final_effects(plain, "r"), w.plan.id());
    runs += 1;
  }
  CHECK(runs > 3);
}

TEST_CASE("errors are marked definite or indefinite; only a definite one ends an intent as CONFLICT") {
  // The wrong policy: FAILED after a timeout, marked as the indefinite error it was.
  Scenario wrong = one_intent();
  wrong.client.key_scope = KeyScope::PerAttempt;
  wrong.client.on_timeout = OnTimeout::MarkFailedAndResend;
  wrong.faults.faults = {drop(MessageKind::Response, 1)};
  wrong.script.push_back({ActionKind::ResendChangedPayload, 300, -1, "r", "payload-2"});
  Run run = simulate(wrong, wrong.faults);
  const Step* failed = first_record(run, status::kFailed);
  REQUIRE(failed != nullptr);
  CHECK(failed->event.local.to_json()["error"] == error_kind::kIndefinite);
  const Step* conflict = first_record(run, status::kConflict);
  REQUIRE(conflict != nullptr);
  CHECK(conflict->event.local.to_json()["error"] == error_kind::kDefinite);
  CHECK(first_record(run, status::kDelivered)->event.local.to_json().contains("error") == false);

  // Over every run of a fault space, under both on_timeout policies: a definite error is
  // only ever a rejection, and the right policy ends no intent as FAILED.
  for (OnTimeout policy : {OnTimeout::RecordUnknown, OnTimeout::MarkFailedAndResend}) {
    Scenario s = wrong;
    s.client.on_timeout = policy;
    s.client.retry_after_ms = 20;
    s.faults.faults.clear();
    s.space.client_crash_points = {ClientPoint::AfterSend, ClientPoint::BeforeRecord};
    for (const World& w : build_worlds(s)) {
      for (const Step& st : w.run.steps) {
        if (st.event.type != EventKind::Record) continue;
        std::string status = st.event.local.to_json()["status"];
        std::string error = st.event.local.to_json().value("error", "");
        if (status == status::kConflict) CHECK(error == error_kind::kDefinite);
        if (error == error_kind::kDefinite) CHECK(status == status::kConflict);
        if (status == status::kUnknown || status == status::kNeedsHuman || status == status::kFailed) {
          CHECK(error == error_kind::kIndefinite);
        }
        if (policy == OnTimeout::RecordUnknown) CHECK(status != status::kFailed);
      }
    }
  }
}

TEST_CASE("lessons name the new client fields; the engine refuses their mistakes by JSON path") {
  auto edited = [](const std::function<void(json&)>& edit) {
    json j = json::parse(read_lesson_text("01-lost-receipt.json"));
    edit(j);
    return j.dump();
  };
  auto check = [&](const std::function<void(json&)>& edit) {
    return json::parse(api::call("check", json{{"file", "lessons/x.json"}, {"text", edited(edit)}}.dump()));
  };
  Lesson l = load_lesson("lessons/x.json", edited([](json& j) {
    json& c = j["scenario"]["client"];
    c.erase("max_attempts");
    c["retry_layers"] = json::parse(R"([{"layer":"sdk","attempts":3},{"layer":"app","attempts":2}])");
    c["deadline_ms"] = 5000;
    c["backoff_ms"] = 20;
    j["scenario"]["script"].push_back({{"at", 300}, {"do", "cancel"}, {"intent", "weekly-report"}});
    j["facts"] = json::parse(R"([{"fact":"effect_exists"},{"fact":"response_arrived"},{"fact":"request_arrived"},
      {"fact":"client_has_receipt"},{"fact":"intent_durable"},
      {"id":"cancelled","fact":"effect_exists","intent":"weekly-report-cancel"}])");
  }));
  CHECK(send_budget(l.scenario.client) == 6);
  CHECK(l.scenario.client.deadline_ms == 5000);
  CHECK(l.scenario.client.backoff_ms == 20);
  CHECK(l.scenario.script.back().kind == ActionKind::Cancel);
  CHECK(l.fact("cancelled")->intent == "weekly-report-cancel");

  json both = check([](json& j) { j["scenario"]["client"]["retry_layers"] = json::parse(R"([{"layer":"sdk","attempts":3}])"); });
  CHECK(both["errors"][0]["path"] == "/scenario/client/max_attempts");
  json twice = check([](json& j) {
    j["scenario"]["client"].erase("max_attempts");
    j["scenario"]["client"]["retry_layers"] = json::parse(R"([{"layer":"sdk","attempts":3},{"layer":"sdk","attempts":2}])");
  });
  CHECK(twice["errors"][0]["path"] == "/scenario/client/retry_layers/1/layer");
  json clash = check([](json& j) {
    j["scenario"]["script"].push_back({{"at", 300}, {"do", "cancel"}, {"intent", "weekly-report"}});
    j["scenario"]["script"].push_back({{"at", 400}, {"do", "deliver"}, {"intent", "weekly-report-cancel"}, {"payload", "x"}});
  });
  CHECK(clash["errors"][0]["path"] == "/scenario/script/3/intent");
  json unnamed = check([](json& j) { j["scenario"]["script"].push_back({{"at", 300}, {"do", "cancel"}}); });
  CHECK(unnamed["errors"][0]["path"] == "/scenario/script/3/intent");
}

TEST_CASE("intent_durable: the client's row survives its crash, and is missing when it sent first") {
  FactRef durable{"intent_durable", "intent_durable", "r", 1};
  Scenario s = one_intent();
  s.client.persist = PersistWhen::AfterSend;
  Fault crash;
  crash.kind = Fault::Kind::CrashClient;
  crash.point = ClientPoint::AfterSend;
  crash.intent = "r";
  s.faults.faults = {crash};
  Run run = simulate(s, s.faults);
  int last = static_cast<int>(run.steps.size()) - 1;
  CHECK(evaluate(durable, run, last) == false);
  CHECK(effects_for(run, last, "r") == 1);

  s.client.persist = PersistWhen::BeforeSend;
  run = simulate(s, s.faults);
  const Step* crashed = steps_where(run, [](const Step& st) { return st.event.type == EventKind::Crash; }).front();
  CHECK(evaluate(durable, run, crashed->i) == true);
}

TEST_CASE("a read-back after success: a lagging read makes recreate a second effect; keep and off stay at one") {
  Scenario s = one_intent();
  s.service.lookup_lag_ms = 200;  // the read-back comes 20 ms after the commit: not there yet
  s.client.read_back = ReadBack::Recreate;
  Run recreated = simulate(s, s.faults);
  RunEnding e = ending_of(recreated);
  REQUIRE(e.intents.size() == 1);
  CHECK(e.intents[0].effects >= 2);
  bool duplicate = false;
  for (const Violation& v : check_invariants(recreated).violations) duplicate |= v.invariant == Invariant::DuplicateEffect;
  CHECK(duplicate);
  // The read-back is a lookup the timeline names as such, and the second create carries a new key.
  auto lookups = steps_where(recreated, [](const Step& st) { return st.event.type == EventKind::Lookup; });
  REQUIRE(!lookups.empty());
  CHECK(lookups[0]->event.local.to_json().value("read_back", false));
  auto sent = sends(recreated);
  REQUIRE(sent.size() >= 2);
  CHECK(sent[0]->event.local.to_json().value("op_key", "") != sent[1]->event.local.to_json().value("op_key", ""));

  s.client.read_back = ReadBack::Keep;
  Run kept = simulate(s, s.faults);
  CHECK(ending_of(kept).intents[0].effects == 1);
  CHECK(ending_of(kept).intents[0].status == "DELIVERED");
  CHECK(check_invariants(kept).safe());
  CHECK(steps_where(kept, [](const Step& st) { return st.event.type == EventKind::Lookup; }).size() == 1);

  // With a read that sees the record, recreate changes nothing either.
  s.client.read_back = ReadBack::Recreate;
  s.service.lookup_lag_ms = 0;
  CHECK(ending_of(simulate(s, s.faults)).intents[0].effects == 1);
}

TEST_CASE("a re-create uses the configured key: derived from the content it is a replay, a stored key a new effect") {
  Scenario s = one_intent();
  s.service.lookup_lag_ms = 200;  // the read-back finds nothing yet
  s.client.read_back = ReadBack::Recreate;
  s.client.key_source = KeySource::PayloadHash;
  Run derived = simulate(s, s.faults);
  auto sent = sends(derived);
  REQUIRE(sent.size() == 2);  // the create and the re-create
  CHECK(sent[0]->event.local.to_json().value("op_key", "") == sent[1]->event.local.to_json().value("op_key", ""));
  CHECK(ending_of(derived).intents[0].effects == 1);
  CHECK(check_invariants(derived).safe());
  auto replays = steps_where(derived, [](const Step& st) { return st.event.type == EventKind::Replay; });
  CHECK(replays.size() == 1);
  // The knob table says so where the scenario meets the condition, and not under a stored key.
  const Knob* read_back = find_knob("client", "read_back");
  REQUIRE(read_back);
  CHECK(read_back->composes_in("recreate", s) != nullptr);
  s.client.key_source = KeySource::Stored;
  CHECK(read_back->composes_in("recreate", s) == nullptr);
  CHECK(ending_of(simulate(s, s.faults)).intents[0].effects == 2);
}

TEST_CASE("a layer retries only the errors it names; the others pass to the layer outside it, then to the client") {
  // A 500 on the first call, a slow service behind it (a timeout on the second).
  Scenario s = one_intent();
  s.client.retry_layers = {{"sdk", 3, false, kRetryServerError | kRetryThrottled}, {"app", 2, false, kRetryTimeout}};
  Fault error;
  error.kind = Fault::Kind::ServiceError;
  error.error_point = ErrorPoint::BeforeCommit;
  error.intent = "r";
  error.n = 1;
  Run run = simulate(s, FaultPlan{{error, drop(MessageKind::Response, 2)}});
  auto sent = sends(run);
  REQUIRE(sent.size() == 3);
  // The 500 is the SDK's to retry; the lost response after it times out, which only the
  // application retries: its second iteration, with the SDK back at 1.
  CHECK(sent[1]->event.local.to_json().value("retried_by", "") == "sdk");
  CHECK(sent[2]->event.local.to_json().value("retried_by", "") == "app");
  CHECK(sent[2]->event.local.to_json()["layers"][0]["iteration"] == 1);
  CHECK(sent[2]->event.local.to_json()["layers"][1]["iteration"] == 2);
  CHECK(ending_of(run).intents[0].status == "DELIVERED");

  // No layer retries a timeout: it reaches the client, which records UNKNOWN, and with no
  // reconciliation of its own leaves it to a person.
  s.client.retry_layers = {{"interceptor", 2, false, kRetryServerError}};
  Run untouched = simulate(s, FaultPlan{{drop(MessageKind::Response, 1)}});
  CHECK(sends(untouched).size() == 1);
  CHECK(ending_of(untouched).intents[0].status == "NEEDS_HUMAN");
  CHECK(ending_of(untouched).intents[0].effects == 1);
  CHECK(check_invariants(untouched).safe());
  const Step* human = first_record(untouched, "NEEDS_HUMAN");
  REQUIRE(human != nullptr);
  CHECK(human->event.local.to_json().value("reason", "") == Client::kNotRetried);
  CHECK(describe(*human, untouched).en.find("no retry layer retries a timeout") != std::string::npos);
}

TEST_CASE("a 5xx the inner layer does not retry, after the outer layer's last retry, is not a spent budget") {
  // An SDK that retries only timeouts inside an application step that retries a 5xx once:
  // a budget of 3 x 2 = 6 sends, and two 500s in a row.
  Scenario s = one_intent();
  s.client.retry_layers = {{"sdk", 3, false, kRetryTimeout}, {"app", 2, false, kRetryServerError}};
  auto error = [](int n) {
    Fault f;
    f.kind = Fault::Kind::ServiceError;
    f.error_point = ErrorPoint::BeforeCommit;
    f.intent = "r";
    f.n = n;
    return f;
  };
  Run run = simulate(s, FaultPlan{{error(1), error(2)}});
  REQUIRE(sends(run).size() == 2);
  const Step* human = first_record(run, status::kNeedsHuman);
  REQUIRE(human != nullptr);
  L10n text = describe(*human, run);
  CAPTURE(text.en);
  CAPTURE(text.zh);
  // Four of the six sends are left: the budget is not what stopped it.
  CHECK(text.en.find("budget (6 sends) is spent") == std::string::npos);
  CHECK(text.zh.find("已用完，结果仍然未知") == std::string::npos);
  // What did: the only layer that retries a 5xx has used its two attempts.
  CHECK(text.en.find("no layer will retry a 5xx again") != std::string::npos);
  CHECK(text.en.find("app 2/2") != std::string::npos);
  CHECK(text.en.find("Only 2 of the budget's 6 sends are used") != std::string::npos);
  CHECK(text.zh.find("已没有哪一层还会重试5xx") != std::string::npos);
  CHECK(text.zh.find("app 2/2") != std::string::npos);

  SUBCASE("when every layer retries it, the budget really is spent and says so") {
    s.client.retry_layers = {{"sdk", 3, false, kRetryServerError}, {"app", 2, false, kRetryServerError}};
    FaultPlan all;
    for (int n = 1; n <= 6; ++n) all.faults.push_back(error(n));
    Run spent = simulate(s, all);
    REQUIRE(sends(spent).size() == 6);
    const Step* end = first_record(spent, status::kNeedsHuman);
    REQUIRE(end != nullptr);
    CHECK(describe(*end, spent).en.find("the retry budget (6 sends) is spent") != std::string::npos);
  }
}

TEST_CASE("a layer's own timeout gives up on a call the service still runs and starts the next one beside it") {
  // Temporal's start-to-close timeout: 100 ms for an activity the service runs for 250 ms,
  // while the call itself would wait far longer.
  Scenario s = one_intent();
  s.timing.timeout_ms = 5000;
  s.service.processing_ms = 250;
  s.service.concurrent_same_key = ConcurrentSameKey::ProcessBoth;
  RetryLayer temporal{"temporal", 3};
  temporal.timeout_ms = 100;
  s.client.retry_layers = {temporal};
  Run run = simulate(s, s.faults);
  auto layer_timeouts = steps_where(run, [](const Step& st) {
    return st.event.type == EventKind::Timeout && st.event.local.to_json().value("for", "") == "layer";
  });
  REQUIRE(!layer_timeouts.empty());
  CHECK(layer_timeouts[0]->t == 100);
  CHECK(describe(*layer_timeouts[0], run).en.find("temporal layer's timeout (100 ms)") != std::string::npos);
  CHECK(sends(run).size() == 3);
  bool concurrent = false;
  for (const Violation& v : check_invariants(run).violations) concurrent |= v.invariant == Invariant::ConcurrentExecution;
  CHECK(concurrent);
  CHECK(ending_of(run).intents[0].effects == 1);

  // Without the layer's timeout the one call waits for the work: one send, one execution.
  s.client.retry_layers = {{"temporal", 3}};
  Run patient = simulate(s, s.faults);
  CHECK(sends(patient).size() == 1);
  CHECK(check_invariants(patient).safe());
  CHECK(ending_of(patient).intents[0].status == "DELIVERED");
}

namespace {
Fault refused_connection(int n, const std::string& intent = "r") {
  Fault f;
  f.kind = Fault::Kind::ConnectError;
  f.message = MessageKind::Request;
  f.intent = intent;
  f.n = n;
  return f;
}
}  // namespace

TEST_CASE("a refused connection never leaves: the client knows at once, and even a new key per attempt makes one effect") {
  // The wrong key scope: a lost request would make its retry a second operation; a refused
  // connection cannot, because nothing reached the service.
  Scenario s = one_intent();
  s.client.key_scope = KeyScope::PerAttempt;
  Run run = simulate(s, FaultPlan{{refused_connection(1)}});
  auto refused = steps_where(run, [](const Step& st) { return st.event.type == EventKind::ConnectError; });
  REQUIRE(refused.size() == 1);
  CHECK(refused[0]->event.local.to_json().value("attempt", 0) == 1);
  CHECK(describe(*refused[0], run).en.find("never leaves") != std::string::npos);
  CHECK(describe(*refused[0], run).en.find("even under another key, is safe") != std::string::npos);
  // No message for attempt 1: the only request on the wire is attempt 2's, sent at once
  // rather than after the 100 ms timeout a lost request would cost.
  int requests = 0;
  for (const Message& m : run.messages) requests += m.kind == MessageKind::Request;
  CHECK(requests == 1);
  auto sent = sends(run);
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]->event.local.to_json().value("attempt", 0) == 2);
  CHECK(sent[0]->t == refused[0]->t);
  CHECK(final_status(run, "r") == "DELIVERED");
  CHECK(final_effects(run, "r") == 1);
  CHECK(check_invariants(run).safe());

  // The client knows, at the refusal, that its request did not arrive; after a lost
  // request it cannot know.
  s.space.lose_any_one_message = true;
  s.space.connect_errors = true;
  s.faults = FaultPlan{{refused_connection(1)}};
  std::vector<World> worlds = build_worlds(s);
  Knowledge k(worlds);
  FactRef arrived{"a", "request_arrived", "r", 1};
  CHECK(k.cell(Side::Client, refused[0]->i, arrived).verdict() == "knows_false");
  s.faults = FaultPlan{{drop(MessageKind::Request, 1)}};
  std::vector<World> lost_worlds = build_worlds(s);
  Knowledge lost(lost_worlds);
  const Run& lost_run = lost_worlds[0].run;
  auto timeouts = steps_where(lost_run, [](const Step& st) { return st.event.type == EventKind::Timeout; });
  REQUIRE(!timeouts.empty());
  CHECK(lost.cell(Side::Client, timeouts[0]->i, arrived).verdict() == "cannot_know");
}

TEST_CASE("a refused connection no layer retries ends FAILED when nothing ever left, NEEDS_HUMAN when a send may have") {
  Scenario s = one_intent();
  s.client.retry_layers = {{"interceptor", 3, false, kRetryServerError}};
  Run run = simulate(s, FaultPlan{{refused_connection(1)}});
  CHECK(sends(run).empty());
  CHECK(final_status(run, "r") == "FAILED");
  CHECK(final_effects(run, "r") == 0);
  CHECK(check_invariants(run).safe());
  const Step* failed = first_record(run, "FAILED");
  REQUIRE(failed != nullptr);
  CHECK(failed->event.local.to_json().value("reason", "") == Client::kConnectRefused);
  CHECK(failed->event.local.to_json().value("error", "") == "definite");

  // A layer that retries connection errors sends it again.
  s.client.retry_layers = {{"sdk", 3, false, kRetryServerError | kRetryConnect}};
  Run retried = simulate(s, FaultPlan{{refused_connection(1)}});
  CHECK(sends(retried).size() == 1);
  CHECK(sends(retried)[0]->event.local.to_json().value("retried_by", "") == "sdk");
  CHECK(final_status(retried, "r") == "DELIVERED");

  // Attempt 1 committed and its response was lost; attempt 2's connection is refused with
  // no attempt left. The refusal says nothing of attempt 1: FAILED would be a false failure.
  s.client.retry_layers = {{"sdk", 2}};
  Run earlier = simulate(s, FaultPlan{{drop(MessageKind::Response, 1), refused_connection(2)}});
  CHECK(final_status(earlier, "r") == "NEEDS_HUMAN");
  // Its step does not call another key safe: attempt 1 went out.
  auto second = steps_where(earlier, [](const Step& st) { return st.event.type == EventKind::ConnectError; });
  REQUIRE(second.size() == 1);
  CHECK(describe(*second[0], earlier).en.find("only a send under the same key is safe") != std::string::npos);
  CHECK(describe(*second[0], earlier).en.find("another key, is safe") == std::string::npos);
  CHECK(final_effects(earlier, "r") == 1);
  CHECK(check_invariants(earlier).safe());
}

TEST_CASE("a desired-state controller re-applies on a schedule: a replay under the stored key, one more effect per pass under a key per attempt") {
  Scenario s = one_intent();
  for (std::int64_t at : {300, 600, 900}) s.script.push_back({ActionKind::Reapply, at, -1, "r", ""});
  Run run = simulate(s, s.faults);
  CHECK(sends(run).size() == 4);
  CHECK(describe(*sends(run)[1], run).en.find("a desired-state controller applies \"r\" again") == 0);
  CHECK(describe(*sends(run)[0], run).en.find("controller") == std::string::npos);
  CHECK(final_status(run, "r") == "DELIVERED");
  CHECK(final_effects(run, "r") == 1);
  CHECK(check_invariants(run).safe());
  int replays = 0;
  for (const Step& st : run.steps) replays += st.event.type == EventKind::Replay;
  CHECK(replays == 3);
  // Each pass's answer came: the client's memory waits for nothing at the end.
  CHECK(run.steps.back().event.type == EventKind::Receive);
  CHECK(run.steps.back().snap.waiting.empty());

  // The same passes, each under a key of its own: every pass is another effect.
  s.client.key_scope = KeyScope::PerAttempt;
  Run fresh = simulate(s, s.faults);
  CHECK(final_effects(fresh, "r") == 4);
  bool duplicate = false;
  for (const Violation& v : check_invariants(fresh).violations) duplicate |= v.invariant == Invariant::DuplicateEffect;
  CHECK(duplicate);

  // A pass settles what was left open: a lost response, no retry of the client's own.
  s.client.key_scope = KeyScope::PerIntent;
  s.client.max_attempts = 1;
  s.script.resize(2);
  Run open = simulate(s, FaultPlan{{drop(MessageKind::Response, 1)}});
  CHECK(final_status(open, "r") == "DELIVERED");
  CHECK(final_effects(open, "r") == 1);
}

TEST_CASE("a refused connection while an earlier send is still out is retried, not left to an answer for other content") {
  // Changed content goes out under the key while version 1's request is still in flight,
  // and that send's connection is refused. Version 1's response says nothing about the new
  // content, so waiting for it would leave the row PENDING for good.
  Scenario s = one_intent();
  s.script.push_back({ActionKind::ResendChangedPayload, 5, -1, "r", "payload-2"});
  Run run = simulate(s, FaultPlan{{refused_connection(2)}});
  CHECK(sends(run).size() == 2);
  CHECK(final_status(run, "r") != "PENDING");
  CHECK(check_invariants(run).safe());
}

TEST_CASE("with two faults, the client does not know by elimination what it never saw") {
  // A lost response, then the resend's connection refused: the client's budget is spent
  // with nothing learnt. A lost request followed by the same refusal looks the same to it.
  Scenario s = one_intent();
  s.client.max_attempts = 2;
  s.client.retry_after_ms = 50;
  s.client.recovery = Recovery::Resend;
  s.space.lose_any_one_message = true;
  s.faults = FaultPlan{{drop(MessageKind::Response, 1), refused_connection(2)}};
  std::vector<World> worlds = build_worlds(s);
  const Run& run = worlds[0].run;
  REQUIRE(final_status(run, "r") == "NEEDS_HUMAN");
  Knowledge k(worlds);
  const int end = static_cast<int>(run.steps.size()) - 1;
  CHECK(k.cell(Side::Client, end, FactRef{"e", "effect_exists", "r", 1}).verdict() == "cannot_know");
  CHECK(k.cell(Side::Client, end, FactRef{"a", "request_arrived", "r", 1}).verdict() == "cannot_know");
  // The service saw the request arrive and answered it: it does know.
  CHECK(k.cell(Side::Service, end, FactRef{"e", "effect_exists", "r", 1}).verdict() == "knows_true");
}

TEST_CASE("a script action about an intent not decided yet does nothing, and the timeline says why") {
  Scenario s;
  s.script.push_back({ActionKind::Reapply, 0, -1, "r", ""});
  s.script.push_back({ActionKind::Deliver, 100, -1, "r", "payload-1"});
  Run run = simulate(s, s.faults);
  auto ignored = steps_where(run, [](const Step& st) { return st.event.type == EventKind::Ignored; });
  REQUIRE(ignored.size() == 1);
  CHECK(ignored[0]->t == 0);
  CHECK(describe(*ignored[0], run).en == "the script's reapply does nothing: the client has not decided \"r\" yet (it has no row for it)");
  CHECK(sends(run).size() == 1);
  CHECK(final_effects(run, "r") == 1);
}
