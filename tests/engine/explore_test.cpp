// The explorer (engine/explore/): every fault schedule of up to K faults; counterexamples
// come from engine/invariants/ and reproduce; the course's side-by-side lessons hold.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "engine/api/api.hpp"
#include "engine/explore/explore.hpp"
#include "engine/explore/fuzz.hpp"
#include "engine/scenario/scenario_json.hpp"
#include "engine/nodes/nodes.hpp"
#include "lesson_file.hpp"

using namespace idemlab;

namespace {

ExploreResult explore_k(const Scenario& s, int k) {
  ExploreLimits limits;
  limits.max_faults = k;
  return explore(s, limits);
}

}  // namespace

TEST_CASE("every side-by-side lesson at K = 2: the mistake has a counterexample, the fix has none") {
  int compared = 0;
  for (const std::string& name : shipped_lessons()) {
    auto p = prepared_lesson(name);
    if (!p->lesson.compare) continue;
    ++compared;
    const Comparison& c = *p->lesson.compare;
    CAPTURE(name);
    ExploreResult wrong = explore_k(c.policies[0].scenario, 2);
    CHECK(wrong.complete);
    // An incident whose report saw no broken invariant has no counterexample to find
    // (course_test.cpp holds it to its reported outcome).
    const bool reported_safe = p->lesson.incident && !p->lesson.incident->violation;
    CHECK_MESSAGE((reported_safe || !wrong.counterexamples.empty()), "policy '" << c.policies[0].id << "' has no counterexample");
    ExploreResult right = explore_k(c.policies[1].scenario, 2);
    CHECK(right.complete);
    CHECK(right.schedules > 10);
    for (const Counterexample& x : right.counterexamples) {
      FAIL_CHECK("policy '" << c.policies[1].id << "' breaks " << to_string(x.violation.invariant) << " when "
                            << x.plan.describe().en << ": " << x.violation.reason.en);
    }
  }
  CHECK(compared >= 8);
}

TEST_CASE("no shipped lesson or challenge has a schedule that stops before it settles") {
  // A schedule stopped at the horizon or the step limit is inconclusive (issue 32): check
  // refuses a lesson whose fault space, questions or challenge search has one, and
  // `explore` of its scenario would report it. K = 2 for the lessons (the sandbox's
  // default), the challenge's own K for its start.
  for (const std::string& name : shipped_lessons()) {
    CAPTURE(name);
    nlohmann::json checked = nlohmann::json::parse(
        api::call("check", nlohmann::json{{"file", "lessons/" + name}, {"text", read_lesson_text(name)}}.dump()));
    CHECK_MESSAGE(checked["ok"] == true, checked.dump());
    auto p = prepared_lesson(name);
    std::vector<const Scenario*> scenarios = {&p->lesson.scenario};
    if (p->lesson.compare) {
      for (const ComparePolicy& policy : p->lesson.compare->policies) scenarios.push_back(&policy.scenario);
    }
    for (const Scenario* s : scenarios) {
      ExploreResult r = explore_k(*s, 2);
      CHECK_MESSAGE(r.inconclusive == 0, r.inconclusive_text().en);
    }
    if (const auto& c = p->lesson.challenge) {
      ExploreResult r = explore_k(c->start, c->kind == "break" ? c->max_faults : c->faults);
      CHECK_MESSAGE(r.inconclusive == 0, "challenge: " << r.inconclusive_text().en);
    }
  }
}

TEST_CASE("a counterexample reproduces from its own scenario and cannot lose a fault") {
  auto p = prepared_lesson("07-service-ordering.json");
  const Scenario& key_first = p->lesson.compare->policies[0].scenario;
  ExploreResult r = explore_k(key_first, 2);
  REQUIRE(!r.counterexamples.empty());
  for (const Counterexample& x : r.counterexamples) {
    CAPTURE(x.plan.id());
    Run run = simulate(key_first, x.plan);
    bool again = false;
    for (const Violation& v : check_invariants(run).violations) {
      again = again || (v.invariant == x.violation.invariant && v.intent == x.violation.intent);
    }
    CHECK(again);
    for (std::size_t i = 0; i < x.plan.faults.size(); ++i) {
      FaultPlan fewer = x.plan;
      fewer.faults.erase(fewer.faults.begin() + static_cast<std::ptrdiff_t>(i));
      for (const Violation& v : check_invariants(simulate(key_first, fewer)).violations) {
        CHECK_FALSE((v.invariant == x.violation.invariant && v.intent == x.violation.intent));
      }
    }
  }
  // Fewest faults first: the one-fault crash between the two writes leads.
  CHECK(r.counterexamples.front().plan.faults.size() == 1);
  CHECK(r.counterexamples.front().plan.faults[0].id() == "crash:service:between_writes:weekly-report:1");
  // The JSON's scenario carries the plan: paste it anywhere and the run breaks again.
  nlohmann::json j = r.to_json(key_first);
  CHECK(j["counterexamples"][0]["scenario"]["faults"] == nlohmann::json::array({write_fault(r.counterexamples.front().plan.faults[0])}));
}

TEST_CASE("schedules grow with K, every schedule is counted once, and the same input gives the same result") {
  auto p = prepared_lesson("01-lost-receipt.json");
  ExploreResult k1 = explore_k(p->lesson.scenario, 1), k2 = explore_k(p->lesson.scenario, 2);
  CHECK(k1.schedules > 1);
  CHECK(k2.schedules > k1.schedules);
  int counted = 0;
  for (const OutcomeClass& c : k2.outcomes) counted += c.count;
  CHECK(counted == k2.schedules);
  CHECK(explore_k(p->lesson.scenario, 2).to_json(p->lesson.scenario) == k2.to_json(p->lesson.scenario));
}

TEST_CASE("an outcome class says how many of its schedules break something, not only whether its example does") {
  // In the akash incident, runs that end "DELIVERED, 1 effect" include schedules where two
  // executions overlapped and schedules where nothing broke: one ⚠ on the class read as if
  // all of them broke (a newcomer's finding).
  auto p = prepared_lesson("incident-akash-topup.json");
  ExploreResult r = explore_k(p->lesson.scenario, 2);
  int violating = 0;
  bool mixed = false;
  for (const OutcomeClass& c : r.outcomes) {
    CAPTURE(c.key);
    CHECK(c.violating >= 0);
    CHECK(c.violating <= c.count);
    CHECK((c.violating > 0) == !c.violations.empty());
    violating += c.violating;
    if (c.violating > 0 && c.violating < c.count) mixed = true;
  }
  CHECK(violating == r.violating);
  CHECK(mixed);
  // Each class's count of breaking schedules is what re-judging its schedules gives: the
  // class of the fault-free run breaks nothing there.
  Run clean = simulate(p->lesson.scenario, FaultPlan{});
  const std::string clean_key = ending_of(clean).key();
  for (const OutcomeClass& c : r.outcomes)
    if (c.key == clean_key && check_invariants(clean).safe()) CHECK(c.violating < c.count);
}

TEST_CASE("a limit that cuts the search says so") {
  auto p = prepared_lesson("09-retry-layers.json");
  ExploreLimits limits;
  limits.max_faults = 2;
  limits.max_schedules = 25;
  ExploreResult r = explore(p->lesson.scenario, limits);
  CHECK_FALSE(r.complete);
  CHECK(r.cut == "schedules");
  CHECK(r.schedules == 25);
  CHECK(r.cut_text.en.find("incomplete") != std::string::npos);
  CHECK(!r.cut_text.zh.empty());
}

TEST_CASE("the memory a search keeps is bounded: past it the search is cut and says so") {
  auto p = prepared_lesson("09-retry-layers.json");
  ExploreLimits limits;
  limits.max_faults = 3;
  limits.max_bytes = 64 * 1024;  // the limit's own (limits::kMaxExploreBytes) takes minutes to reach
  ExploreResult r = explore(p->lesson.scenario, limits);
  CHECK_FALSE(r.complete);
  CHECK(r.cut == "memory");
  // Schedules cost a few hundred bytes each as counted: a few hundred fit in 64 KB.
  CHECK(r.schedules > 100);
  CHECK(r.schedules < 1000);
  CHECK(r.cut_text.en == "the search stopped at " + std::to_string(r.schedules) + " schedules (the memory limit): the result is incomplete");
  CHECK(!r.cut_text.zh.empty());
  // The same cut, at the same schedule, every time: the bytes are counted, not measured.
  CHECK(explore(p->lesson.scenario, limits).to_json(p->lesson.scenario) == r.to_json(p->lesson.scenario));
  // Twice the room, more schedules.
  limits.max_bytes *= 2;
  CHECK(explore(p->lesson.scenario, limits).schedules > r.schedules);
}

TEST_CASE("a clean bounded search is named for what it is, and says when retry layers absorb its K faults") {
  // An SDK that makes its own key per call and tries 3 times, inside an app retry: each app
  // retry is a new operation, but only once all 3 of the SDK's sends have failed.
  Reader rd("scenario");
  Scenario s;
  std::set<std::string> intents;
  read_scenario(rd,
                nlohmann::json::parse(R"({"client": {"retry_layers": [{"layer": "sdk", "attempts": 3, "key": "per_call"},
                                                                      {"layer": "app", "attempts": 2}]},
                                          "script": [{"at": 0, "do": "deliver", "intent": "w", "payload": "p"}]})"),
                "", s, intents);
  REQUIRE(rd.problems().empty());
  ExploreResult k2 = explore_k(s, 2);
  nlohmann::json j2 = k2.to_json(s);
  REQUIRE(k2.complete);
  CHECK(k2.violating == 0);
  CHECK_FALSE(j2.contains("safe"));  // never "safe" after a bounded search
  CHECK(j2["no_violation_up_to"] == 2);
  CHECK(j2["text"]["en"].get<std::string>().find("no violation in") == 0);
  CHECK(j2["text"]["en"].get<std::string>().find("up to 2 faults") != std::string::npos);
  REQUIRE(j2["layers_absorb"].is_object());
  CHECK(j2["layers_absorb"]["layer"] == "app");
  CHECK(j2["layers_absorb"]["inner"] == nlohmann::json::array({"sdk"}));
  CHECK(j2["layers_absorb"]["faults"] == 3);
  CHECK(j2["layers_absorb"]["text"]["en"].get<std::string>().find("explore with K = 3") != std::string::npos);
  CHECK(!j2["layers_absorb"]["text"]["zh-CN"].get<std::string>().empty());
  // The K it suggests reaches past the SDK: duplicates, and nothing more to say of the layers.
  nlohmann::json j3 = explore_k(s, 3).to_json(s);
  CHECK(j3["violating"].get<int>() > 0);
  CHECK(j3["no_violation_up_to"].is_null());
  CHECK(j3["layers_absorb"].is_null());
  CHECK(j3["text"]["en"].get<std::string>().find("break an invariant") != std::string::npos);
  // A search cut by a limit claims no K.
  ExploreLimits cut;
  cut.max_faults = 2;
  cut.max_schedules = 5;
  nlohmann::json jc = explore(s, cut).to_json(s);
  CHECK(jc["no_violation_up_to"].is_null());
  CHECK(jc["layers_absorb"].is_null());
  CHECK(jc["text"]["en"].get<std::string>().find("incomplete") != std::string::npos);
}

namespace {

// Lesson 06's send-first client (persist after_send) alone, and with one more script action
// at the horizon (issue 32): that action's request is still on its way when the run reaches
// 600 s, so every schedule stops there, before its end is judged.
Scenario send_first(bool action_at_horizon) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "seed": 29,
    "client": {"key_scope": "intent", "on_timeout": "record_unknown", "recovery": "lookup", "persist": "after_send",
               "recovery_scan": "unknown_and_pending", "max_attempts": 3},
    "service": {"lookup": true},
    "timing": {"latency_ms": 10, "timeout_ms": 100},
    "script": [{"at": 0, "do": "deliver", "intent": "weekly-report", "payload": "Weekly report, version 1"}],
    "fault_space": {"lose_any_one_message": true, "client_crash_points": ["after_send"]}})");
  if (action_at_horizon) {
    j["script"].push_back({{"at", Simulation::kHorizonMs}, {"do", "deliver"}, {"intent", "late-report"}, {"payload", "Weekly report, version 2"}});
  }
  Reader rd("scenario");
  Scenario s;
  std::set<std::string> intents;
  read_scenario(rd, j, "", s, intents);
  REQUIRE(rd.problems().empty());
  return s;
}

}  // namespace

TEST_CASE("a search whose schedules stop at the horizon is inconclusive, never \"no violation\" (issue 32)") {
  // Without the action at the horizon the send-first client forgets its intent when it
  // crashes right after sending: 5 schedules of up to 3 faults show it.
  Scenario settles = send_first(false);
  ExploreResult clean = explore_k(settles, 3);
  CHECK(clean.violating == 5);
  CHECK(clean.inconclusive == 0);
  REQUIRE_FALSE(clean.counterexamples.empty());
  CHECK(clean.counterexamples.front().violation.invariant == Invariant::ForgottenIntent);
  nlohmann::json settled_json = clean.to_json(settles);
  CHECK(settled_json["inconclusive"] == 0);
  CHECK(settled_json["inconclusive_example"].is_null());
  CHECK(settled_json["inconclusive_limit"].is_null());

  // With it, the same schedules stop at 600 s, their end unjudged: before issue 32 this
  // search said "no violation in 270 schedules of up to 3 faults" (no_violation_up_to: 3).
  Scenario horizon = send_first(true);
  ExploreResult r = explore_k(horizon, 3);
  nlohmann::json j = r.to_json(horizon);
  REQUIRE(r.complete);
  CHECK(r.violating == 0);
  CHECK(r.inconclusive > 0);
  CHECK(r.inconclusive < r.schedules);  // one schedule settles: the late request is refused
  CHECK(r.inconclusive_horizon);
  CHECK_FALSE(r.inconclusive_step_limit);
  CHECK_FALSE(r.clean());
  CHECK_FALSE(j.contains("safe"));
  CHECK(j["no_violation_up_to"].is_null());
  CHECK(j["inconclusive"] == r.inconclusive);
  const std::string text = j["text"]["en"].get<std::string>();
  CHECK(text.find("inconclusive") != std::string::npos);
  CHECK(text.find("did not settle within the 600 s virtual-time horizon") != std::string::npos);
  CHECK(text.find("not a proof") == std::string::npos);  // the clean search's words are not used
  CHECK(j["text"]["zh-CN"].get<std::string>().find("没有结论") != std::string::npos);
  CHECK(j["inconclusive_text"]["en"].get<std::string>().find(std::to_string(r.inconclusive) + " schedules did not settle") == 0);
  CHECK(!j["inconclusive_text"]["zh-CN"].get<std::string>().empty());
  CHECK(j["inconclusive_limit"]["en"] == "the 600 s virtual-time horizon");
  // The first of them (the fault-free run) reproduces from its scenario: it stops at the horizon.
  const nlohmann::json& ex = j["inconclusive_example"];
  REQUIRE(ex.is_object());
  CHECK(ex["stop"] == "horizon");
  CHECK(ex["faults"] == nlohmann::json::array());
  CHECK(ex["stop_text"]["en"].get<std::string>().find("horizon") != std::string::npos);
  Run first = simulate(horizon, r.inconclusive_example->plan);
  CHECK(first.stop == StopReason::Horizon);
  CHECK(check_invariants(first).safe());
}

TEST_CASE("fuzz: the right configuration never breaks an invariant; each wrong setting that costs safety is caught") {
  FuzzOptions o;
  o.seed = 20261201;
  // Every other run is a wrong setting's, shared by the 23 of them: 10000 give each ~215,
  // enough for the rarest (service.compares = nothing needs a changed payload under a key
  // the service holds, and a fault that makes the client send it again: about 1 in 200).
  o.runs = 10000;
  nlohmann::json report = fuzz(o);
  CHECK(report["right"]["violations"] == 0);
  CHECK(report["right"]["runs"] == 5000);
  // Runs stopped at a limit before settling are counted apart, never as clean: here the
  // fuzzer's scripts (a few seconds of virtual time) all settle.
  CHECK(report["right"]["inconclusive"] == 0);
  CHECK(report["inconclusive"] == 0);
  for (const nlohmann::json& w : report["wrong_settings"]) {
    CAPTURE(w["knob"].get<std::string>() + "=" + w["value"].get<std::string>());
    CHECK(w["runs"].get<int>() > 0);
    CHECK(w["inconclusive"] == 0);
    // Layers that multiply retries cost load, not safety: no invariant judges load.
    if (w["value"] == "two layers retrying") continue;
    CHECK(w["caught"].get<int>() > 0);
    // Its example reproduces: the scenario it names breaks an invariant when run.
    Reader r("example");
    Scenario s;
    std::set<std::string> intents;
    read_scenario(r, w["example"]["scenario"], "", s, intents);
    CHECK(r.problems().empty());
    CHECK_FALSE(check_invariants(simulate(s, s.faults)).safe());
  }
  // A stored key is wrong for a client that may lose its row: the re-run's new key is a
  // second effect.
  bool stored_seen = false;
  for (const nlohmann::json& w : report["wrong_settings"]) {
    if (w["value"] != "stored, where the client may lose its row") continue;
    stored_seen = true;
    CHECK(w["knob"] == "client.key_source");
    const nlohmann::json& names = w["invariants"];
    CHECK(std::find(names.begin(), names.end(), "duplicate_effect") != names.end());
  }
  CHECK(stored_seen);
  // The same seed, the same report (shown on fewer runs: the draws do not depend on how
  // many follow, and the sanitizer build runs this test too).
  FuzzOptions few = o;
  few.runs = 1500;
  CHECK(fuzz(few) == fuzz(few));
  // Every kind of fault the explorer searches fires somewhere, and so does the gateway's
  // 502 answered in front of the dedup layer (which the explorer leaves out), and the
  // client losing its own row (in the scenarios a re-run follows, with a derived key in the
  // right configuration: 0 violations above).
  for (const char* kind : {"drop:request", "drop:response", "drop:lookup", "crash:client:after_persist",
                           "crash:client:after_send", "crash:client:before_record", "crash:service:before_commit",
                           "crash:service:after_commit", "error:service:before_commit", "error:service:after_commit",
                           "error:service:refused", "error:service:gateway", "connect_error:request",
                           "lose_row:rolled_back", "lose_row:not_saved"}) {
    CAPTURE(kind);
    CHECK(report["faults_fired"].value(kind, 0) > 0);
  }
}
