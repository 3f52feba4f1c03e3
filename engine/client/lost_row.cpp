// The client losing its own row of an intent (fault lose_row, engine/faults/fault.hpp) and
// what a re-run starts from then (ClientSetup::desired). The effect may exist while the
// client has no row: the end-invariant forgotten_intent (engine/invariants/) says so,
// unless a later `reapply` decides the intent anew (client_actions.cpp).
#include "engine/client/client.hpp"

namespace idemlab {

bool Client::row_lost_after_send(const std::string& intent) {
  const int n = static_cast<int>(wire_n(intent, 1));
  // The transaction that wrote the row rolls back after the call inside it (a Django view
  // under ATOMIC_REQUESTS that raises after its API call): the process stays up.
  if (env_.lose_row_here(RowPoint::RolledBack, intent, n)) {
    forget_row(intent, RowPoint::RolledBack);
    return true;
  }
  // The process dies before its state is saved (a Terraform run killed mid-apply,
  // hashicorp/terraform#16615): the kernel crashes the client, whose crash() forgets it.
  unsaved_ = intent;
  const bool lost = env_.lose_row_here(RowPoint::NotSaved, intent, n);
  unsaved_.clear();
  return lost;
}

void Client::forget_row(const std::string& intent, RowPoint point) {
  std::optional<IntentRow> r = row(intent);
  db_.query("DELETE FROM intents WHERE intent = ?1", {SqlParam(intent)});
  if (r) abandoned_[intent] += r->attempts;
  // The call that wrote it was abandoned: no reply, timer or retry is about it any more.
  stop_waiting(intent);
  layers_.erase(intent);
  never_left_.erase(intent);
  LocalView local;
  local.reason = to_string(point);
  if (r) local.op_key = r->op_key;
  record(EventKind::LoseRow, intent, std::move(local));
}

bool Client::recreated(const std::string& intent) {
  auto r = db_.query("SELECT recreated FROM intents WHERE intent = ?1", {SqlParam(intent)});
  return !r.empty() && r[0][0].integer != 0;
}

long long Client::wire_n(const std::string& intent, long long attempt) const {
  auto it = abandoned_.find(intent);
  return attempt + (it == abandoned_.end() ? 0 : it->second);
}

const ClientSetup::Desired* Client::desired_now(const std::string& intent) const {
  auto it = setup_.desired.find(intent);
  return it != setup_.desired.end() && it->second.from <= env_.now() ? &it->second : nullptr;
}

}  // namespace idemlab
