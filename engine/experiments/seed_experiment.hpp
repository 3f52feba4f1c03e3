#pragma once
// The course's own experiment, reproduced by the engine (../shared/seeds): the service
// commits, the response is lost, and the client either retries with a new key (two
// effects) or keeps UNKNOWN and reconciles by the original key (one effect); a reused key
// with a different payload is refused. Nothing here is a constant: every figure is read
// off a simulated run.
#include <nlohmann/json.hpp>

#include "engine/scenario/scenario.hpp"

namespace idemlab {

/// The lost-response scenario with the right policy: persist the key, time out to
/// UNKNOWN, crash, restart with the database reopened, reconcile by lookup.
Scenario lost_response_reconcile_scenario();

/// The seed lab script (idempotency_recovery.py): intent persisted, service commits,
/// response lost, the caller retries the same operation and gets the original receipt.
/// {"caller_before_recovery": "PENDING", "same_receipt": true, "provider_effects": 1,
///  "caller_after_recovery": "DELIVERED"} — each value read off the run.
nlohmann::json seed_lab();

/// The article's table, one object per case: {"case", "service_deliveries",
/// "client_status_after_timeout" (null where no timeout happens), "client_final_status",
/// "duplicate", "error" (null or the service's reason)}.
nlohmann::json seed_experiment();

}  // namespace idemlab
