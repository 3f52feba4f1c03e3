// The client's script actions (engine/scenario/knobs.hpp, action_table()): what a user or
// an operator asks of the client process, each a no-op on a crashed client (except
// restart, in client.cpp with crash).
#include "engine/client/client.hpp"
#include "engine/fingerprint/sha256.hpp"
#include "engine/scenario/knobs.hpp"

namespace idemlab {

void Client::act(const Action& a) {
  const ActionInfo& info = action_info(a.kind);
  // A re-run starts from the user's configuration when the client has no row (reapply).
  const bool starts_over = a.kind == ActionKind::Reapply && desired_now(a.intent);
  if (info.needs_intent && a.kind != ActionKind::Deliver && !a.intent.empty() && alive_ && !has_row(a.intent) && !starts_over) {
    // Said on the timeline, so that a learner who put the action too early sees why
    // nothing happened.
    LocalView ignored;
    ignored.action = info.name;
    ignored.reason = reasons::kUndecided;
    record(EventKind::Ignored, a.intent, std::move(ignored));
    return;
  }
  switch (a.kind) {
    case ActionKind::Deliver: deliver(a.intent, a.payload); break;
    case ActionKind::CrashClient: crash(); break;
    case ActionKind::RestartClient: restart(); break;
    case ActionKind::Reconcile: reconcile(a.intent); break;
    case ActionKind::ResendNewKey: resend_new_key(a.intent); break;
    case ActionKind::ResendChangedPayload: resend_changed_payload(a.intent, a.payload); break;
    case ActionKind::ResendSameKey: resend_same_key(a.intent); break;
    case ActionKind::MarkFailed: mark_failed(a.intent); break;
    case ActionKind::Cancel: cancel(a.intent); break;
    case ActionKind::Fallback: fallback(a.intent, a.payload); break;
    case ActionKind::Reapply: reapply(a.intent); break;
  }
}

void Client::deliver(const std::string& intent, const std::string& payload) { decide(intent, payload, ""); }

void Client::cancel(const std::string& intent) {
  if (!alive_) return;
  std::optional<IntentRow> r = row(intent);
  if (!r) return;
  // A cancel is an operation of its own: it cannot take back an effect that already
  // happened, and the original intent keeps its status until it is reconciled.
  decide(intent + "-cancel", "cancel " + r->op_key, r->op_key);
}

void Client::resend_new_key(const std::string& intent) {
  if (!alive_ || !row(intent)) return;
  send_attempt(intent, KeyChoice::Fresh);
}

void Client::resend_changed_payload(const std::string& intent, const std::string& payload) {
  if (!alive_ || !row(intent)) return;
  // The content it replaces is kept with what the client knew of it (its status, its
  // receipt): that content may have taken effect, and its receipt proves it did.
  long long version = db_.query("SELECT COUNT(*) FROM earlier_versions WHERE intent = ?1", {SqlParam(intent)})[0][0].integer + 1;
  db_.query("INSERT INTO earlier_versions(intent, version, op_key, fingerprint, payload, status, receipt)"
            " SELECT intent, ?2, op_key, fingerprint, payload, status, receipt FROM intents WHERE intent = ?1",
            {SqlParam(intent), SqlParam(version)});
  earlier_stale_ = true;
  // The row now describes the changed content: the old receipt does not vouch for it.
  db_.query("UPDATE intents SET payload = ?1, fingerprint = ?2, status = 'PENDING', receipt = NULL"
            " WHERE intent = ?3",
            {SqlParam(payload), SqlParam(sha256_hex(payload)), SqlParam(intent)});
  send_attempt(intent, KeyChoice::Same);
}

void Client::fallback(const std::string& intent, const std::string& payload) {
  if (!alive_) return;
  std::optional<IntentRow> r = row(intent);
  if (!r || r->status != status::kFailed) return;
  resend_changed_payload(intent, payload);
}

void Client::resend_same_key(const std::string& intent) {
  if (!alive_ || !row(intent)) return;
  send_attempt(intent, KeyChoice::Same);
}

void Client::reapply(const std::string& intent) {
  if (!alive_) return;
  const bool has = row(intent).has_value();
  const ClientSetup::Desired* wanted = has ? nullptr : desired_now(intent);
  if (!has && !wanted) return;
  reapplying_ = true;
  if (has) {
    send_attempt(intent, KeyChoice::ByPolicy);
  } else {
    // Nothing to go on but the configuration: the intent is decided anew (lost_row.cpp).
    decide(intent, wanted->payload, "");
  }
  reapplying_ = false;
}

void Client::mark_failed(const std::string& intent) {
  if (!alive_ || !row(intent)) return;
  stop_waiting(intent);
  record_status(intent, status::kFailed, std::nullopt);
}

}  // namespace idemlab
