#include "engine/provider/provider.hpp"

#include <algorithm>

#include "engine/net/network.hpp"
#include "engine/sim/simulation.hpp"

namespace idemlab {

void MailProvider::on_message(const Message& m) {
  auto record = [&](const char* kind, LocalView&& local, int message) {
    sim_.record(kind, Side::Provider, m.intent, message, std::move(local));
  };
  LocalView received;
  received.message = to_string(m.kind);
  received.email_key = m.email_key;
  received.op_key = m.op_key;
  record("receive", std::move(received), m.id);
  bool known = std::any_of(inbox_.begin(), inbox_.end(), [&](const EmailRow& e) { return e.email_key == m.email_key; });
  bool deliver = !(known && sim_.scenario().provider.dedup_by_key);
  if (deliver) {
    inbox_.push_back({static_cast<long long>(inbox_.size()) + 1, m.email_key, m.op_key, m.receipt,
                      static_cast<long long>(sim_.now())});
    emails_ = Rows<EmailRow>(inbox_);
  }
  Message ack;
  ack.kind = MessageKind::EmailAck;
  ack.from = Side::Provider;
  ack.to = Side::Service;
  ack.intent = m.intent;
  ack.n = m.n;
  ack.op_key = m.op_key;
  ack.email_key = m.email_key;
  ack.receipt = m.receipt;
  ack.outcome = "ok";
  int id = sim_.network().send(ack);
  LocalView local;
  local.email_key = m.email_key;
  if (deliver && known) local.repeat = true;  // no dedup: the same key delivered again
  record(deliver ? "accept_email" : "dedup_email", std::move(local), id);
}

}  // namespace idemlab
