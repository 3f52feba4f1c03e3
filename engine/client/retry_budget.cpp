#include "engine/client/retry_budget.hpp"

namespace idemlab {
namespace {

constexpr long long kCap = 600000;  // no wait and no budget beyond the simulation's horizon

}  // namespace

long long send_budget(const ClientPolicy& policy) {
  if (policy.retry_layers.empty()) return policy.max_attempts;
  long long product = 1;
  for (const RetryLayer& l : policy.retry_layers) {
    product *= l.attempts;
    if (product > kCap) return kCap;
  }
  return product;
}

std::int64_t backoff_before(const ClientPolicy& policy, long long send) {
  if (!policy.backoff_ms || send < 2) return 0;
  std::int64_t wait = *policy.backoff_ms;
  for (long long k = 2; k < send && wait < kCap; ++k) wait *= 2;
  return wait < kCap ? wait : kCap;
}

}  // namespace idemlab
