#include <doctest/doctest.h>

#include "engine/experiments/seed_experiment.hpp"
#include "engine/nodes/nodes.hpp"

using nlohmann::json;

namespace {
json row_named(const std::string& name) {
  for (const json& r : idemlab::seed_experiment()) {
    if (r["case"] == name) return r;
  }
  FAIL("no row " << name);
  return {};
}
}  // namespace

TEST_CASE("lost response, retry with a new key per attempt: two deliveries and a reported success") {
  json r = row_named("lost_response_retry_new_key");
  CHECK(r["service_deliveries"] == 2);
  CHECK(r["duplicate"] == true);
  CHECK(r["client_status_after_timeout"] == "FAILED");
  CHECK(r["client_final_status"] == "DELIVERED");
  CHECK(r["error"].is_null());
}

TEST_CASE("lost response, same key kept, UNKNOWN, restart and reconcile: one delivery") {
  json r = row_named("lost_response_reconcile_same_key");
  CHECK(r["service_deliveries"] == 1);
  CHECK(r["duplicate"] == false);
  CHECK(r["client_status_after_timeout"] == "UNKNOWN");
  CHECK(r["client_final_status"] == "DELIVERED");

  // The receipt the client stores is the one the service created, and the client did
  // crash and restart in between.
  idemlab::Scenario s = idemlab::lost_response_reconcile_scenario();
  idemlab::Run run = idemlab::simulate(s, s.faults);
  std::string created, stored;
  bool crashed = false, restarted = false;
  for (const idemlab::Step& step : run.steps) {
    if (step.event.type == idemlab::EventKind::Commit) created = step.event.local.to_json()["receipt"];
    if (step.event.type == idemlab::EventKind::Crash) crashed = true;
    if (step.event.type == idemlab::EventKind::Restart) restarted = crashed;
  }
  REQUIRE(run.steps.back().snap.intents.size() == 1);
  stored = run.steps.back().snap.intents[0].receipt.value_or("");
  CHECK(crashed);
  CHECK(restarted);
  CHECK_FALSE(created.empty());
  CHECK(stored == created);
}

TEST_CASE("same key, different payload: rejected, nothing written") {
  json r = row_named("same_key_different_payload");
  CHECK(r["error"] == "same_key_different_payload");
  CHECK(r["service_deliveries"] == 1);
  CHECK(r["client_final_status"] == "CONFLICT");
  CHECK(r["client_status_after_timeout"].is_null());
}

TEST_CASE("seed-lab prints the seed's four keys with the engine's values") {
  json lab = idemlab::seed_lab();
  CHECK(lab.size() == 4);
  CHECK(lab["caller_before_recovery"] == "PENDING");
  CHECK(lab["same_receipt"] == true);
  CHECK(lab["provider_effects"] == 1);
  CHECK(lab["caller_after_recovery"] == "DELIVERED");
}
