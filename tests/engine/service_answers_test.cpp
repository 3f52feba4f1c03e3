// The service's answers beyond ok and replay (engine/service/service.hpp): HTTP statuses,
// a 500 before or after the commit, a 429 refusal (stored under the key or not), and
// "409 already exists"; and what the client makes of each (ClientPolicy::on_server_error,
// on_already_exists, KeySource, the fallback action).
#include <doctest/doctest.h>

#include "engine/invariants/invariants.hpp"
#include "engine/service/service.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/timeline/describe.hpp"

using namespace idemlab;

namespace {

Fault service_error(ErrorPoint p, int attempt = 1) {
  Fault f;
  f.kind = Fault::Kind::ServiceError;
  f.error_point = p;
  f.intent = "r";
  f.n = attempt;
  return f;
}

// The response of attempt n of intent "r" is lost.
Fault lost_response(int n = 1) {
  Fault f;
  f.kind = Fault::Kind::Drop;
  f.message = MessageKind::Response;
  f.intent = "r";
  f.n = n;
  return f;
}

Scenario one_intent() {
  Scenario s;
  s.script.push_back({ActionKind::Deliver, 0, -1, "r", "payload-1"});
  return s;
}

Run run_with(const Scenario& s, std::vector<Fault> faults) {
  FaultPlan plan;
  plan.faults = std::move(faults);
  return simulate(s, plan);
}

// The client's receive steps, in order: "outcome/http" ("ok/201", "rejected/409", ...).
std::vector<std::string> heard(const Run& run) {
  std::vector<std::string> out;
  for (const Step& st : run.steps) {
    if (st.event.type != EventKind::Receive || st.event.side != Side::Client) continue;
    out.push_back(st.event.local.to_json().value("outcome", "") + "/" + std::to_string(st.event.local.to_json().value("http", 0)));
  }
  return out;
}

const IntentEnding& ending(const Run& run) {
  static RunEnding e;
  e = ending_of(run);
  REQUIRE(!e.intents.empty());
  return e.intents.front();
}

bool broken(const Run& run, Invariant i) {
  for (const Violation& v : check_invariants(run).violations) {
    if (v.invariant == i) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a replayed answer is a 200 marked as a replay; a new effect is a 201") {
  Scenario s = one_intent();
  s.client.retry_layers = {{"sdk", 2}};
  const Fault lost = lost_response();
  Run run = run_with(s, {lost});
  CHECK(heard(run) == std::vector<std::string>{"ok/200"});
  bool marked = false;
  for (const Step& st : run.steps) {
    if (st.event.type == EventKind::Receive && st.event.side == Side::Client) marked = st.event.local.to_json().value("replayed", false);
  }
  CHECK(marked);
  CHECK(heard(run_with(s, {})) == std::vector<std::string>{"ok/201"});
}

TEST_CASE("a 500 after the commit: the effect exists; read as unknown it is retried and replayed, read as failure it is a false failure") {
  Scenario s = one_intent();
  s.client.retry_layers = {{"sdk", 3}};
  Run unknown = run_with(s, {service_error(ErrorPoint::AfterCommit)});
  CHECK(heard(unknown) == std::vector<std::string>{"error/500", "ok/200"});
  CHECK(ending(unknown).status == "DELIVERED");
  CHECK(ending(unknown).effects == 1);
  CHECK(check_invariants(unknown).safe());

  s.client.on_server_error = OnServerError::Fail;
  Run failed = run_with(s, {service_error(ErrorPoint::AfterCommit)});
  CHECK(ending(failed).status == "FAILED");
  CHECK(ending(failed).effects == 1);
  CHECK(broken(failed, Invariant::FalseFailure));
  // Before the commit the same 500 leaves nothing, and FAILED is then true: the client
  // could not tell the two apart.
  Run before = run_with(s, {service_error(ErrorPoint::BeforeCommit)});
  CHECK(ending(before).effects == 0);
  CHECK(check_invariants(before).safe());
}

TEST_CASE("a gateway's 502 is answered in front of the dedup layer: a retry of a committed key gets it too") {
  Scenario s = one_intent();
  s.client.retry_layers = {{"sdk", 3}};
  // Attempt 1 commits and its response is lost; the SDK retries under the same key.
  const std::vector<Fault> faults = {lost_response(1), service_error(ErrorPoint::Gateway, 2)};
  Run run = run_with(s, faults);
  CHECK(heard(run) == std::vector<std::string>{"error/502", "ok/200"});
  CHECK(run.fired.size() == 2);
  // The service never saw attempt 2: it received attempts 1 and 3 only.
  int received = 0;
  for (const Step& st : run.steps) {
    if (st.event.side == Side::Service && st.event.type == EventKind::Receive) ++received;
  }
  CHECK(received == 2);
  // The gateway's step is where attempt 2's request ends (the diagram draws it arriving
  // there, not in flight).
  bool ended = false;
  for (const Step& st : run.steps) {
    if (st.event.type != EventKind::GatewayError) continue;
    const Message& req = run.messages[static_cast<std::size_t>(st.event.message)];
    ended = req.kind == MessageKind::Request && req.n == 2 && req.end_step == st.i;
  }
  CHECK(ended);
  CHECK(ending(run).status == "DELIVERED");
  CHECK(ending(run).effects == 1);
  CHECK(check_invariants(run).safe());
  // The service's own 500 cannot hit that retry: it replays the stored result first, and
  // the fault never fires.
  Run inside = run_with(s, {lost_response(1), service_error(ErrorPoint::AfterCommit, 2)});
  CHECK(inside.fired.size() == 1);

  // Read as a failure, the 502 is a false failure: the effect of attempt 1 exists.
  s.client.on_server_error = OnServerError::Fail;
  Run failed = run_with(s, faults);
  CHECK(ending(failed).status == "FAILED");
  CHECK(ending(failed).effects == 1);
  CHECK(broken(failed, Invariant::FalseFailure));
  bool said = false;
  for (const Step& st : failed.steps) {
    if (st.event.type == EventKind::Record && st.event.local.reason.value_or("") == "bad_gateway") said = true;
  }
  CHECK(said);
}

TEST_CASE("409 already exists: failure is a false failure, a lookup finds the client's own content") {
  Scenario s = one_intent();
  s.service.on_repeat = OnRepeat::AlreadyExists;
  s.client.retry_layers = {{"sdk", 3}};
  s.client.on_already_exists = OnAlreadyExists::Fail;
  Run failed = run_with(s, {service_error(ErrorPoint::AfterCommit)});
  CHECK(heard(failed) == std::vector<std::string>{"error/500", "rejected/409"});
  CHECK(ending(failed).status == "FAILED");
  CHECK(broken(failed, Invariant::FalseFailure));

  s.client.on_already_exists = OnAlreadyExists::Reconcile;
  Run looked = run_with(s, {service_error(ErrorPoint::AfterCommit)});
  CHECK(heard(looked) == std::vector<std::string>{"error/500", "rejected/409", "found/200"});
  CHECK(ending(looked).status == "DELIVERED");
  CHECK(check_invariants(looked).safe());

  // Without a lookup, nobody can say whose the existing content is: a person decides.
  s.service.lookup = false;
  CHECK(ending(run_with(s, {service_error(ErrorPoint::AfterCommit)})).status == "NEEDS_HUMAN");
}

TEST_CASE("a 429 settles the intent only when it answers its only send") {
  Scenario s = one_intent();
  s.client.retry_layers = {{"sdk", 3}};
  Run first = run_with(s, {service_error(ErrorPoint::Refused, 1)});
  CHECK(heard(first) == std::vector<std::string>{"refused/429"});
  CHECK(ending(first).status == "FAILED");
  CHECK(ending(first).effects == 0);
  CHECK(check_invariants(first).safe());
  // After a lost reply the first send may have committed: a 429 on the retry says nothing
  // about it, and the intent must not be recorded FAILED while its effect exists.
  const Fault lost = lost_response();
  Run later = run_with(s, {lost, service_error(ErrorPoint::Refused, 2)});
  CHECK(ending(later).effects == 1);
  CHECK(ending(later).status != "FAILED");
  CHECK(check_invariants(later).safe());
}

TEST_CASE("a stored refusal binds the key to its content: the same content is refused again, changed content gets 422") {
  Scenario s = one_intent();
  s.service.stores_refusal = true;
  s.script.push_back({ActionKind::ResendSameKey, 100, -1, "r", ""});
  Run same = run_with(s, {service_error(ErrorPoint::Refused, 1)});
  CHECK(heard(same) == std::vector<std::string>{"refused/429", "refused/429"});
  CHECK(ending(same).effects == 0);

  Scenario changed = one_intent();
  changed.service.stores_refusal = true;
  changed.script.push_back({ActionKind::Fallback, 100, -1, "r", "payload-2"});
  Run mismatch = run_with(changed, {service_error(ErrorPoint::Refused, 1)});
  CHECK(heard(mismatch) == std::vector<std::string>{"refused/429", "rejected/422"});
  CHECK(ending(mismatch).status == "CONFLICT");
  CHECK(ending(mismatch).effects == 0);

  // Not stored (Stripe's way), the key is still free and the changed content is created.
  changed.service.stores_refusal = false;
  Run free = run_with(changed, {service_error(ErrorPoint::Refused, 1)});
  CHECK(heard(free) == std::vector<std::string>{"refused/429", "ok/201"});
  CHECK(ending(free).status == "DELIVERED");

  // A key derived from the content gives the changed content its own key, stored or not.
  changed.service.stores_refusal = true;
  changed.client.key_source = KeySource::PayloadHash;
  Run own_key = run_with(changed, {service_error(ErrorPoint::Refused, 1)});
  CHECK(heard(own_key) == std::vector<std::string>{"refused/429", "ok/201"});
  CHECK(ending(own_key).effects == 1);
}

TEST_CASE("fallback does nothing unless the intent is FAILED") {
  Scenario s = one_intent();
  s.client.key_source = KeySource::PayloadHash;
  s.script.push_back({ActionKind::Fallback, 100, -1, "r", "payload-2"});
  Run run = run_with(s, {});
  CHECK(heard(run) == std::vector<std::string>{"ok/201"});
  CHECK(ending(run).effects == 1);
  CHECK(check_invariants(run).safe());
}

TEST_CASE("a layer that makes its own key per call: its own retries share it, an outer layer's retry is a new operation") {
  const Fault lost1 = lost_response(1), lost2 = lost_response(2);
  Scenario sdk_owns = one_intent();
  sdk_owns.client.retry_layers = {{"sdk", 3, true}};
  Run one = run_with(sdk_owns, {lost1, lost2});
  CHECK(ending(one).effects == 1);
  CHECK(ending(one).status == "DELIVERED");
  // The SDK's key is not the one the client stored: the send step says which it carries.
  std::vector<std::string> wire, stored;
  for (const Step& st : one.steps) {
    if (st.event.type != EventKind::Send) continue;
    wire.push_back(st.event.local.to_json().value("op_key", ""));
    stored.push_back(st.event.local.to_json().value("stored_key", ""));
  }
  REQUIRE(wire.size() == 3);
  CHECK(wire[0] == wire[2]);
  CHECK(!stored[0].empty());
  CHECK(stored[0] != wire[0]);

  // Stripe's SDK inside an application step that retries: the SDK gives up after its two
  // tries, the application calls it again, and the new call carries a new key.
  Scenario app_retries = one_intent();
  app_retries.client.retry_layers = {{"sdk", 2, true}, {"app", 2}};
  Run two = run_with(app_retries, {lost1, lost2});
  CHECK(ending(two).effects == 2);
  CHECK(broken(two, Invariant::DuplicateEffect));
  // The same layers sending the caller's key: one effect.
  app_retries.client.retry_layers = {{"sdk", 2}, {"app", 2}};
  CHECK(ending(run_with(app_retries, {lost1, lost2})).effects == 1);
}

TEST_CASE("a reply after the timeout: read, it settles the intent; discarded, the intent stays unknown until reconciled") {
  Scenario s = one_intent();
  s.timing.latency_ms = 10;
  s.timing.timeout_ms = 15;  // every reply comes 5 ms after the client stopped waiting
  s.client.max_attempts = 1;
  Run read = run_with(s, {});
  CHECK(ending(read).status == "DELIVERED");
  s.client.late_reply = LateReply::Discard;
  Run dropped = run_with(s, {});
  CHECK(ending(dropped).effects == 1);
  CHECK(ending(dropped).status == "NEEDS_HUMAN");  // one send, spent: a person reconciles
  CHECK(check_invariants(dropped).safe());
  bool said = false;
  for (const Step& st : dropped.steps) {
    if (st.event.type == EventKind::Receive && st.event.side == Side::Client) said = st.event.local.to_json().value("discarded", false);
  }
  CHECK(said);
}

TEST_CASE("the timeline tells a 429 after a lost reply from one that settles the intent") {
  Scenario s = one_intent();
  s.client.retry_layers = {{"sdk", 3}};
  const Fault lost = lost_response();
  Run later = run_with(s, {lost, service_error(ErrorPoint::Refused, 2)});
  std::string refuse, heard_it;
  for (const Step& st : later.steps) {
    if (st.event.type == EventKind::Refuse) refuse = describe(st, later).en;
    if (st.event.type == EventKind::Receive && st.event.side == Side::Client && st.event.local.to_json().value("outcome", "") == "refused") {
      heard_it = describe(st, later).en;
    }
  }
  CHECK(refuse.find("already holds the record of an earlier attempt") != std::string::npos);
  CHECK(heard_it.find("an earlier attempt may have taken effect") != std::string::npos);
  // The only send refused: nothing says an earlier attempt counts.
  Run first = run_with(s, {service_error(ErrorPoint::Refused, 1)});
  for (const Step& st : first.steps) {
    if (st.event.type == EventKind::Refuse || st.event.type == EventKind::Receive) CHECK(describe(st, first).en.find("earlier") == std::string::npos);
  }
}

TEST_CASE("a lookup the client decides on after a 409 spends the layer's budget but is no retry of the layer") {
  Scenario s = one_intent();
  s.service.on_repeat = OnRepeat::AlreadyExists;
  s.client.retry_layers = {{"sdk", 3}};
  Run run = run_with(s, {service_error(ErrorPoint::AfterCommit)});
  std::vector<std::string> by;
  for (const Step& st : run.steps) {
    if (st.event.type == EventKind::Send || st.event.type == EventKind::Lookup) by.push_back(std::string(st.event.name()) + ":" + st.event.local.to_json().value("retried_by", ""));
  }
  // The 500 is retried by the SDK; the lookup after the 409 is the client's own decision.
  CHECK(by == std::vector<std::string>{"send:", "send:sdk", "lookup:"});
}

TEST_CASE("Stripe v1 replays a saved 500 to every retry under its key; v2 completes the work; a lookup still tells") {
  Scenario s = one_intent();
  s.client.retry_layers = {{"sdk", 3}};
  for (ErrorPoint p : {ErrorPoint::BeforeCommit, ErrorPoint::AfterCommit}) {
    CAPTURE(static_cast<int>(p));
    s.service.after_error = AfterError::Complete;
    Run v2 = run_with(s, {service_error(p)});
    CHECK(heard(v2) == std::vector<std::string>{"error/500", p == ErrorPoint::BeforeCommit ? "ok/201" : "ok/200"});
    CHECK(ending(v2).status == "DELIVERED");
    CHECK(ending(v2).effects == 1);

    // v1: the SDK's retries hear the first 500 again and again, and neither do nor learn
    // anything; the intent is left to a person whether or not the effect exists.
    s.service.after_error = AfterError::ReplayError;
    Run v1 = run_with(s, {service_error(p)});
    CHECK(heard(v1) == std::vector<std::string>{"error/500", "error/500", "error/500"});
    int replayed = 0;
    for (const Step& st : v1.steps) {
      if (st.event.type == EventKind::Receive && st.event.side == Side::Client) replayed += st.event.local.to_json().value("replayed", false);
    }
    CHECK(replayed == 2);
    CHECK(ending(v1).status == "NEEDS_HUMAN");
    CHECK(ending(v1).effects == (p == ErrorPoint::AfterCommit ? 1 : 0));
    CHECK(check_invariants(v1).safe());
  }

  // A lookup reads what exists, not the saved answer: after the commit it finds the effect.
  s.client.retry_layers.clear();
  s.client.retry_after_ms = 50;
  Run looked = run_with(s, {service_error(ErrorPoint::AfterCommit)});
  CHECK(heard(looked) == std::vector<std::string>{"error/500", "found/200"});
  CHECK(ending(looked).status == "DELIVERED");
  // Before it there is nothing to find, and a resend under the key only hears the 500 again.
  Run nothing = run_with(s, {service_error(ErrorPoint::BeforeCommit)});
  CHECK(heard(nothing) == std::vector<std::string>{"error/500", "not_found/404", "error/500"});
  CHECK(ending(nothing).effects == 0);
  bool said_why = false;
  for (const Step& st : nothing.steps) {
    if (st.event.type == EventKind::NotFound) said_why = st.event.local.to_json().value("why", "") == Service::kStoredError;
  }
  CHECK(said_why);
  // The timeline tells the learner the second 500 is the first one again.
  std::string second;
  for (const Step& st : nothing.steps) {
    if (st.event.type == EventKind::Receive && st.event.side == Side::Client && st.event.local.to_json().value("replayed", false)) {
      second = describe(st, nothing).en;
    }
  }
  CHECK(second.find("500") != std::string::npos);
  CHECK(second.find("marked as a replay") != std::string::npos);
}

TEST_CASE("on_refused retry: the client waits as the 429's Retry-After asks and sends again; a stored refusal is final") {
  Scenario s = one_intent();
  s.service.refusal_retry_after_ms = 700;
  s.client.on_refused = OnRefused::Retry;
  Run run = run_with(s, {service_error(ErrorPoint::Refused, 1)});
  CHECK(heard(run) == std::vector<std::string>{"refused/429", "ok/201"});
  CHECK(ending(run).status == "DELIVERED");
  CHECK(ending(run).effects == 1);
  CHECK(check_invariants(run).safe());
  // The second send leaves when the header said, not before.
  std::int64_t refused_at = -1, resent_at = -1;
  for (const Step& st : run.steps) {
    if (st.event.type == EventKind::Receive && st.event.side == Side::Client && refused_at < 0) refused_at = st.t;
    if (st.event.type == EventKind::Send && st.event.side == Side::Client && refused_at >= 0 && resent_at < 0) resent_at = st.t;
  }
  CHECK(resent_at - refused_at == 700);

  // With no send left in the budget the refusal stands: FAILED, and true (nothing done).
  s.client.max_attempts = 1;
  CHECK(ending(run_with(s, {service_error(ErrorPoint::Refused, 1)})).status == "FAILED");

  // A refusal the service stored under the key answers every retry under it: not retried.
  s.client.max_attempts = 3;
  s.service.stores_refusal = true;
  Run stored = run_with(s, {service_error(ErrorPoint::Refused, 1)});
  CHECK(heard(stored) == std::vector<std::string>{"refused/429", "refused/429"});
  CHECK(ending(stored).status == "FAILED");
  CHECK(ending(stored).effects == 0);

  // Under fail (the default) the first 429 is the end of it.
  s.service.stores_refusal = false;
  s.client.on_refused = OnRefused::Fail;
  CHECK(heard(run_with(s, {service_error(ErrorPoint::Refused, 1)})) == std::vector<std::string>{"refused/429"});
}

TEST_CASE("a key hashed from the whole request, submit time included, is new on every retry: a lost response makes two effects") {
  Scenario s = one_intent();
  s.client.retry_layers = {{"sdk", 2}};
  s.client.key_source = KeySource::RequestHash;
  Run run = run_with(s, {lost_response()});
  std::vector<std::string> keys;
  for (const Step& st : run.steps) {
    if (st.event.type == EventKind::Send && st.event.side == Side::Client) keys.push_back(st.event.local.to_json().value("op_key", ""));
  }
  REQUIRE(keys.size() == 2);
  CHECK(keys[0] != keys[1]);
  CHECK(ending(run).effects == 2);
  CHECK(broken(run, Invariant::DuplicateEffect));
  // The content alone, hashed, is the same key on the retry: replayed, one effect.
  s.client.key_source = KeySource::PayloadHash;
  Run stable = run_with(s, {lost_response()});
  CHECK(ending(stable).effects == 1);
  CHECK(heard(stable) == std::vector<std::string>{"ok/200"});
}

TEST_CASE("a service that does not compare content answers changed content with the first result: a false success") {
  Scenario s = one_intent();
  s.script.push_back({ActionKind::ResendChangedPayload, 100, -1, "r", "payload-2"});
  Run compared = run_with(s, {});
  CHECK(heard(compared) == std::vector<std::string>{"ok/201", "rejected/422"});
  CHECK(ending(compared).status == "CONFLICT");
  CHECK(check_invariants(compared).safe());

  s.service.compares = Compares::Nothing;
  Run unchecked = run_with(s, {});
  CHECK(heard(unchecked) == std::vector<std::string>{"ok/201", "ok/200"});
  CHECK(ending(unchecked).status == "DELIVERED");
  CHECK(ending(unchecked).effects == 1);
  CHECK(broken(unchecked, Invariant::FalseSuccess));
}

TEST_CASE("a request without its key: 400 and nothing done where the key is required, a second effect on the retry where it is optional") {
  Scenario s = one_intent();
  s.client.retry_layers = {{"sdk", 2}};
  s.client.sends_key = false;
  Run refused = run_with(s, {});
  CHECK(heard(refused) == std::vector<std::string>{"rejected/400"});
  CHECK(ending(refused).status == "FAILED");
  CHECK(ending(refused).effects == 0);
  CHECK(check_invariants(refused).safe());

  // Optional key: each send is a new operation the service names itself.
  s.service.missing_key = MissingKey::Process;
  Run twice = run_with(s, {lost_response()});
  CHECK(heard(twice) == std::vector<std::string>{"ok/201"});
  CHECK(ending(twice).effects == 2);
  CHECK(broken(twice, Invariant::DuplicateEffect));
  const Snapshot& end = twice.steps.back().snap;
  REQUIRE(end.deliveries.size() == 2);
  CHECK(end.deliveries[0].op_key != end.deliveries[1].op_key);
  CHECK(end.deliveries[0].op_key.rfind("nokey-", 0) == 0);
  // The client's row keeps the key it never sent.
  CHECK(end.intents[0].op_key.rfind("op-", 0) == 0);

  // With the key sent, the optional-key service replays the retry: one effect.
  s.client.sends_key = true;
  CHECK(ending(run_with(s, {lost_response()})).effects == 1);
}
