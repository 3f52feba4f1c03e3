// The text timeline says what each side could truthfully say: which key a lookup carries,
// and why the service found nothing.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/nodes/nodes.hpp"
#include "engine/timeline/describe.hpp"

using namespace idemlab;

namespace {

constexpr const char* kIntent = "r";

Fault drop(MessageKind message, int n = 1) {
  Fault f;
  f.kind = Fault::Kind::Drop;
  f.message = message;
  f.intent = kIntent;
  f.n = n;
  return f;
}

// One intent, reconciled by lookup 20 ms after it is recorded UNKNOWN (latency 10 ms,
// timeout 100 ms: the first lookup is sent at t=120 and read at t=130).
Scenario reconciling(OnNotFound on_not_found, std::vector<Fault> faults) {
  Scenario s;
  s.client.recovery = Recovery::Lookup;
  s.client.retry_after_ms = 20;
  s.client.on_not_found = on_not_found;
  s.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "payload-1"});
  s.faults.faults = std::move(faults);
  return s;
}

// The en text of the nth step of this kind and side (from 1), or "" if none.
std::string text_of(const Run& run, const std::string& kind, Side side, int nth = 1) {
  for (const Step& s : run.steps) {
    if (s.event.name() == kind && s.event.side == side && --nth == 0) return describe(s, run).en;
  }
  return "";
}

// The op_key of the request of attempt n.
std::string key_of_attempt(const Run& run, int n) {
  for (const Message& m : run.messages) {
    if (m.kind == MessageKind::Request && m.n == n) return m.op_key;
  }
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The service's last replay step, or nullptr.
const Step* last_replay(const Run& run) {
  const Step* out = nullptr;
  for (const Step& st : run.steps) {
    if (st.event.type == EventKind::Replay) out = &st;
  }
  return out;
}

}  // namespace

TEST_CASE("not_found says why: a lagging replica, a forgotten record, or no record") {
  SUBCASE("the record exists but the replica lags") {
    Scenario s = reconciling(OnNotFound::RetryLookup, {drop(MessageKind::Response)});
    s.service.lookup_lag_ms = 300;  // the record, written at t=10, is 120 ms old at t=130
    Run run = simulate(s, s.faults);
    std::string key = key_of_attempt(run, 1);
    CHECK(text_of(run, "not_found", Side::Service) ==
          "not found: the lookup reads a replica 300 ms behind, and the record of " + key +
              ", written 120 ms ago, is younger than that");
  }
  SUBCASE("the record was forgotten when its retention window passed") {
    Scenario s = reconciling(OnNotFound::RetryLookup, {drop(MessageKind::Response)});
    s.service.retention_ms = 50;  // written at t=10, forgotten at t=60
    Run run = simulate(s, s.faults);
    std::string key = key_of_attempt(run, 1);
    CHECK(text_of(run, "not_found", Side::Service) ==
          "not found: the record of " + key + " was forgotten when its retention window passed (at 60 ms)");
  }
  SUBCASE("the request never arrived: no record") {
    Scenario s = reconciling(OnNotFound::RetryLookup, {drop(MessageKind::Request)});
    Run run = simulate(s, s.faults);
    std::string key = key_of_attempt(run, 1);
    CHECK(text_of(run, "not_found", Side::Service) == "not found: no record of " + key);
    // The client's text does not claim the key never existed.
    std::string received;
    for (const Step& st : run.steps) {
      if (st.event.side == Side::Client && st.event.type == EventKind::Receive &&
          st.event.local.to_json().value("outcome", "") == "not_found") {
        received = describe(st, run).en;
        break;
      }
    }
    CHECK(has(received, "not found"));
    CHECK(has(received, "does not say the request never took effect"));
    CHECK(!has(received, "no key"));
  }
}

TEST_CASE("a lookup names the key it carries and the attempt it belongs to") {
  // Request 1 is lost: lookup 1 finds nothing, the client sends again, response 2 is
  // lost, lookup 2 follows.
  Scenario s = reconciling(OnNotFound::Resend, {drop(MessageKind::Request, 1), drop(MessageKind::Response, 2)});
  s.client.max_attempts = 5;  // sends of any kind: attempt 1, lookup 1, attempt 2, lookup 2
  SUBCASE("key per intent: the key every attempt so far carried, and nothing about later ones") {
    Run run = simulate(s, s.faults);
    std::string key = key_of_attempt(run, 1);
    CHECK(key_of_attempt(run, 2) == key);
    CHECK(text_of(run, "lookup", Side::Client, 2) == "the client reconciles: it looks up " + key + " (the key of attempts 1, 2)");
  }
  SUBCASE("key per attempt: the latest attempt's key, not the original one") {
    s.client.key_scope = KeyScope::PerAttempt;
    Run run = simulate(s, s.faults);
    std::string first = key_of_attempt(run, 1), second = key_of_attempt(run, 2);
    REQUIRE(first != second);
    CHECK(text_of(run, "lookup", Side::Client, 1) == "the client reconciles: it looks up " + first + " (the key of attempt 1)");
    std::string later = text_of(run, "lookup", Side::Client, 2);
    CHECK(has(later, "it looks up " + second + " (the key of attempt 2)"));
    CHECK(has(later, "earlier attempts carried other keys"));
    CHECK(!has(later, "original"));
  }
}

TEST_CASE("a spent retry budget of one send reads as one send") {
  // One send in all, and its response is lost: nothing is left to ask with.
  Scenario s = reconciling(OnNotFound::Resend, {drop(MessageKind::Response)});
  s.client.max_attempts = 1;
  Run run = simulate(s, s.faults);
  std::string text;
  for (const Step& st : run.steps) {
    std::string t = describe(st, run).en;
    if (has(t, "retry budget")) text = t;
  }
  CHECK(has(text, "the retry budget (1 send) is spent"));
}

TEST_CASE("a service that never deduplicates does not claim a dedup record in its timeline") {
  // A lost response and a retry under the same key: two effects, and each commit line says
  // that no repeat was looked for (the incidents whose API takes no key read this text).
  Scenario s = reconciling(OnNotFound::Resend, {drop(MessageKind::Response)});
  s.client.recovery = Recovery::Resend;
  s.service.dedup = Dedup::None;
  Run run = simulate(s, s.faults);
  std::string receive = text_of(run, "receive", Side::Service, 2);
  CHECK(has(receive, "never looks for a repeat"));
  for (int nth = 1; nth <= 2; ++nth) {
    std::string commit = text_of(run, "commit", Side::Service, nth);
    CAPTURE(commit);
    CHECK(has(commit, "without having looked for a repeat"));
    CHECK(!has(commit, "dedup record"));
  }
  SUBCASE("by key, the same run commits a dedup record once and replays the retry") {
    s.service.dedup = Dedup::Key;
    Run keyed = simulate(s, s.faults);
    CHECK(has(text_of(keyed, "commit", Side::Service, 1), "the dedup record"));
    CHECK(text_of(keyed, "commit", Side::Service, 2).empty());
    CHECK(!has(text_of(keyed, "receive", Side::Service, 2), "never looks"));
  }
}

TEST_CASE("a replayed saved 500 or 429 says which answer it replays, in both languages, never an empty receipt") {
  // Stripe API v1 (after_error = replay_error): the first request fails with a 500, the
  // SDK's retries under the same key are answered that saved 500 again.
  Scenario s;
  s.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "payload-1"});
  s.client.retry_layers = {{"sdk", 2}};
  s.service.after_error = AfterError::ReplayError;
  Fault error;
  error.kind = Fault::Kind::ServiceError;
  error.error_point = ErrorPoint::AfterCommit;
  error.intent = kIntent;
  error.n = 1;
  Run run = simulate(s, FaultPlan{{error}});
  const Step* replay = last_replay(run);
  REQUIRE(replay != nullptr);
  L10n text = describe(*replay, run);
  CAPTURE(text.en);
  CAPTURE(text.zh);
  CHECK(has(text.en, "500"));
  CHECK(has(text.zh, "500"));
  CHECK(!has(text.en, "receipt"));
  CHECK(!has(text.zh, "回执"));

  SUBCASE("a saved refusal (stores_refusal) replayed to a retry says 429") {
    Scenario r;
    r.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "payload-1"});
    r.service.stores_refusal = true;
    r.service.refusal_retry_after_ms = 50;
    r.client.on_refused = OnRefused::Retry;
    Fault refused = error;
    refused.error_point = ErrorPoint::Refused;
    Run again = simulate(r, FaultPlan{{refused}});
    const Step* second = last_replay(again);
    REQUIRE(second != nullptr);
    L10n said = describe(*second, again);
    CAPTURE(said.en);
    CHECK(has(said.en, "429"));
    CHECK(has(said.zh, "429"));
    CHECK(!has(said.en, "receipt"));
    CHECK(!has(said.zh, "回执"));
  }
}

TEST_CASE("kEventKindCount counts the rows of the events table") {
  // A table indexed by kind (the narration's) is sized by it: a kind added to EventKind
  // and event_table() but not to the count would have no place in it.
  CHECK(event_table().size() == kEventKindCount);
  CHECK(event_table().back().kind == static_cast<EventKind>(kEventKindCount - 1));
}

TEST_CASE("every event kind has a narration of its own, in both languages") {
  // describe() narrates by a table with one function per kind (a kind without one does
  // not compile); this checks that each says something other than the kind's bare name,
  // which is all an unknown kind gets.
  Run run;
  for (const EventRow& row : event_table()) {
    Step step(0, 0, row.kind, row.side, -1, kIntent, LocalView());
    L10n text = describe(step, run);
    CAPTURE(row.name);
    CHECK(!text.zh.empty());
    CHECK(text.en != row.name);
  }
}
