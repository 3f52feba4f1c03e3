#pragma once
// The mail provider the service notifies (ServiceContract::notify): the far side of the
// next delivery boundary. Kept as simple as stays honest: it never crashes, it holds the
// emails it accepted (its inbox, the observer's truth about notifications), and it answers
// every email it receives with an `email_ack` through the network (so an ack, like the
// email itself, can be lost, and the sender is left with an unknown outcome).
//
// With MailProviderContract::dedup_by_key an email whose key it already holds is
// acknowledged and not delivered again — the provider does for the outbox relay what the
// service's idempotency_keys do for the client (the IETF Idempotency-Key draft's replay,
// draft-ietf-httpapi-idempotency-key-header, one boundary further). Without it every email
// received is one more email in the inbox.
#include <vector>

#include "engine/scenario/scenario.hpp"
#include "engine/sim/node.hpp"

namespace idemlab {

class MailProvider final : public Node {
 public:
  /// Built with its own contract only.
  MailProvider(Env& env, const MailProviderContract& contract) : env_(env), contract_(contract) {}
  /// An email that reached the provider: records `receive`, then `accept_email` (a new
  /// email in the inbox) or `dedup_email` (its key is already there), and acks it.
  void on_message(const Message& m) override;
  void snapshot(Snapshot& into) override { into.emails = emails_; }
  std::unique_ptr<Node> fork(Env& env, bool take) override;
  /// The inbox, in arrival order.
  const Rows<EmailRow>& emails() const { return emails_; }

 private:
  Env& env_;
  MailProviderContract contract_;
  std::vector<EmailRow> inbox_;
  Rows<EmailRow> emails_;  // inbox_ as of the last write, shared by the steps after it
};

}  // namespace idemlab
