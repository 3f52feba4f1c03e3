#include "engine/experiments/seed_experiment.hpp"

#include "engine/invariants/invariants.hpp"
#include "engine/json/fields.hpp"
#include "engine/nodes/nodes.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

constexpr const char* kIntent = "task-A/review-1";

Scenario base() {
  Scenario s;
  s.seed = 3;
  s.script.push_back({ActionKind::Deliver, 0, -1, kIntent, "report-v1"});
  return s;
}

Fault drop_response(int attempt) {
  Fault f;
  f.kind = Fault::Kind::Drop;
  f.message = MessageKind::Response;
  f.intent = kIntent;
  f.n = attempt;
  return f;
}

std::string status_of(const Step& s) {
  for (const IntentRow& r : s.snap.intents) {
    if (r.intent == kIntent) return r.status;
  }
  return "NONE";
}

json first_status_after_timeout(const Run& run) {
  for (std::size_t i = 0; i + 1 < run.steps.size(); ++i) {
    if (run.steps[i].event.type == EventKind::Timeout) {
      for (std::size_t j = i + 1; j < run.steps.size(); ++j) {
        if (run.steps[j].event.type == EventKind::Record) return run.steps[j].event.local.to_json()["status"];
      }
    }
  }
  return nullptr;
}

json error_of(const Run& run) {
  for (const Step& s : run.steps) {
    if (s.event.type == EventKind::Reject) return s.event.local.to_json()["reason"];
  }
  return nullptr;
}

json row(const std::string& name, const Run& run) {
  const Step& last = run.steps.back();
  bool duplicate = false;  // as the invariants judge it (engine/invariants/)
  for (const Violation& v : check_invariants(run).about(kIntent)) duplicate = duplicate || v.invariant == Invariant::DuplicateEffect;
  json out = json::object();
  put(out, "case", name);
  put(out, "service_deliveries", last.snap.deliveries.size());
  put(out, "client_status_after_timeout", first_status_after_timeout(run));
  put(out, "client_final_status", status_of(last));
  put(out, "duplicate", duplicate);
  put(out, "error", error_of(run));
  return out;
}

}  // namespace

Scenario lost_response_reconcile_scenario() {
  Scenario s = base();
  s.client.key_scope = KeyScope::PerIntent;
  s.client.on_timeout = OnTimeout::RecordUnknown;
  s.client.recovery = Recovery::Lookup;
  s.script.push_back({ActionKind::CrashClient, 150, -1, "", ""});
  s.script.push_back({ActionKind::RestartClient, 200, -1, "", ""});
  s.faults.faults.push_back(drop_response(1));
  return s;
}

json seed_lab() {
  Scenario s = base();
  s.client.recovery = Recovery::Resend;  // the seed retries the same operation
  s.client.retry_after_ms = 50;
  s.faults.faults.push_back(drop_response(1));
  Run run = simulate(s, s.faults);
  json before = nullptr, first_receipt = nullptr;
  for (const Step& step : run.steps) {
    if (step.event.type == EventKind::Commit && first_receipt.is_null()) first_receipt = step.event.local.to_json()["receipt"];
    if (step.event.type == EventKind::Drop && before.is_null()) before = status_of(step);
  }
  const Step& last = run.steps.back();
  json final_receipt = nullptr;
  for (const IntentRow& r : last.snap.intents) {
    if (r.intent == kIntent && r.receipt) final_receipt = *r.receipt;
  }
  json out = json::object();
  put(out, "caller_before_recovery", std::move(before));
  put(out, "same_receipt", !first_receipt.is_null() && first_receipt == final_receipt);
  put(out, "provider_effects", last.snap.deliveries.size());
  put(out, "caller_after_recovery", status_of(last));
  return out;
}

json seed_experiment() {
  json rows = json::array();

  Scenario new_key = base();
  new_key.client.key_scope = KeyScope::PerAttempt;
  new_key.client.on_timeout = OnTimeout::MarkFailedAndResend;
  new_key.faults.faults.push_back(drop_response(1));
  rows.push_back(row("lost_response_retry_new_key", simulate(new_key, new_key.faults)));

  Scenario reconcile = lost_response_reconcile_scenario();
  rows.push_back(row("lost_response_reconcile_same_key", simulate(reconcile, reconcile.faults)));

  Scenario conflict = base();
  conflict.script.push_back({ActionKind::ResendChangedPayload, 200, -1, kIntent, "report-v2"});
  rows.push_back(row("same_key_different_payload", simulate(conflict, conflict.faults)));
  return rows;
}

}  // namespace idemlab
