#pragma once
// The client's retry budget (docs/design.md, "retry budget (attempts, deadline, backoff), with
// retry layers that multiply"): how many sends an intent may take, which iteration of
// each retry layer a send is, and how long the client waits before a retry.
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

/// Where one send stands in one layer: iteration `iteration` of `attempts`.
struct LayerIteration {
  std::string layer;
  int iteration = 1;  ///< from 1
  int attempts = 1;
};

/// The iteration of every layer, innermost first, at the `send`-th send (from 1) of an
/// intent: with sdk 3, app 2, scheduler 2 the 4th send is sdk 1/3, app 2/2, scheduler 1/2.
/// Empty without layers.
std::vector<LayerIteration> layer_iterations(const ClientPolicy& policy, long long send);

/// The layer whose retry the `send`-th send is: the outermost layer whose iteration
/// changed since the previous send (the layers inside it start again at 1). "" for the
/// first send and without layers.
std::string retried_by(const ClientPolicy& policy, long long send);

/// The backoff before the automatic retry that is the `send`-th send (send >= 2), in
/// virtual ms: backoff_ms x 2^(send-2), capped at 600000; 0 without backoff_ms.
std::int64_t backoff_before(const ClientPolicy& policy, long long send);

}  // namespace idemlab
