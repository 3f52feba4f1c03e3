#include "engine/provider/provider.hpp"

#include <algorithm>

namespace idemlab {

std::unique_ptr<Node> MailProvider::fork(Env& env, bool) {
  auto copy = std::make_unique<MailProvider>(env, contract_);
  copy->inbox_ = inbox_;
  copy->emails_ = emails_;
  return copy;
}

void MailProvider::on_message(const Message& m) {
  auto record = [&](EventKind kind, LocalView&& local, int message) {
    env_.emit(kind, Side::Provider, m.intent, message, std::move(local));
  };
  LocalView received;
  received.message = to_string(m.kind);
  received.email_key = m.email_key;
  received.op_key = m.op_key;
  record(EventKind::Receive, std::move(received), m.id);
  bool known = std::any_of(inbox_.begin(), inbox_.end(), [&](const EmailRow& e) { return e.email_key == m.email_key; });
  bool deliver = !(known && contract_.dedup_by_key);
  if (deliver) {
    inbox_.push_back({static_cast<long long>(inbox_.size()) + 1, m.email_key, m.op_key, m.receipt,
                      static_cast<long long>(env_.now())});
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
  int id = env_.send(ack);
  LocalView local;
  local.email_key = m.email_key;
  if (deliver && known) local.repeat = true;  // no dedup: the same key delivered again
  record(deliver ? EventKind::AcceptEmail : EventKind::DedupEmail, std::move(local), id);
}

}  // namespace idemlab
