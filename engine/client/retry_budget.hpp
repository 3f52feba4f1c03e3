#pragma once
// The client's retry budget (docs/design.md, "retry budget (attempts, deadline, backoff), with
// retry layers that multiply"): how many sends an intent may take and how long the client
// waits before a retry. Which layer retries which error, and where each stands, is the
// client's own state (Client::layers_of, LayerState).
//
// Layers multiply: an SDK that tries 3 times inside an application step that tries twice
// inside a scheduler job that runs twice sends up to 3 x 2 x 2 = 12 requests for one
// intent, although no single layer was configured for more than 3. The usual cure is to
// let one layer own the retry and give the others one attempt each.
// Backoff doubles: the k-th retry waits backoff_ms x 2^(k-1) (capped at 600000 ms).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/scenario/scenario.hpp"

namespace idemlab {

/// Sends of any kind (requests and lookups) one intent may take: the product of the retry
/// layers' attempts, or max_attempts when there are no layers.
long long send_budget(const ClientPolicy& policy);

/// The backoff before the automatic retry that is the `send`-th send (send >= 2), in
/// virtual ms: backoff_ms x 2^(send-2), capped at 600000; 0 without backoff_ms.
std::int64_t backoff_before(const ClientPolicy& policy, long long send);

}  // namespace idemlab
