#include "engine/sim/events.hpp"

#include <stdexcept>

namespace idemlab {

const char* to_string(Side s) {
  switch (s) {
    case Side::None: return "none";
    case Side::Client: return "client";
    case Side::Service: return "service";
    case Side::Network: return "network";
    case Side::Provider: return "provider";
  }
  return "?";
}

const std::vector<EventRow>& event_table() {
  using K = EventKind;
  using S = Side;
  // name, side, observable by another side, its name in a hint, its glyph on the diagram
  // (shape, look, tone, its label, its label for a credit).
  static const std::vector<EventRow> rows = {
      {K::Start, "start", S::None, false, {"启动", "start"}, {"none", "", "", {}, {}}},
      {K::Decide, "decide", S::Client, false, {"决定发送", "decide"}, {"dot", "dot", "", {}, {}}},
      {K::Persist, "persist", S::Client, false, {"写入记录", "persist"}, {"row", "persist", "", {}, {}}},
      {K::Send, "send", S::Client, true, {"发送请求", "send"}, {"dot", "dot", "", {}, {}}},
      {K::Lookup, "lookup", S::Client, true, {"发起对账查询", "lookup"}, {"dot", "dot", "", {}, {}}},
      {K::Receive, "receive", S::Client, false, {"收到消息", "receive"}, {"dot", "dot", "", {}, {}}},
      {K::Timeout, "timeout", S::Client, false, {"超时", "timeout"}, {"clock", "timeout", "timeout", {"超时", "timeout"}, {}}},
      {K::Record, "record", S::Client, false, {"记录", "record"}, {"row", "persist", "", {}, {}}},
      {K::Crash, "crash", S::Client, false, {"崩溃", "crash"}, {"cross", "crash", "crash", {"崩溃", "crash"}, {}}},
      {K::Restart, "restart", S::Client, false, {"重启", "restart"}, {"ring", "restart", "restart", {"重启", "restart"}, {}}},
      {K::Recover, "recover", S::Client, false, {"恢复扫描", "recover"}, {"dot", "dot", "", {}, {}}},
      {K::Commit, "commit", S::Service, false, {"提交", "commit"}, {"square", "commit", "commit", {"提交", "commit"}, {}}},
      {K::Replay, "replay", S::Service, false, {"重放回执", "replay"}, {"square-small", "replay", "commit", {"重放回执", "replayed"}, {}}},
      {K::Reject, "reject", S::Service, false, {"拒绝", "reject"}, {"square-cross", "reject", "crash", {"拒绝", "rejected"}, {}}},
      {K::Found, "found", S::Service, false, {"查到记录", "found"}, {"dot", "dot", "", {}, {}}},
      {K::NotFound, "not_found", S::Service, false, {"查无记录", "not found"}, {"dot", "dot", "", {}, {}}},
      {K::Reply, "reply", S::Service, true, {"答复", "reply"}, {"dot", "dot", "", {}, {}}},
      {K::Drop, "drop", S::Network, false, {"丢失", "drop"}, {"none", "", "", {}, {}}},
      {K::Register, "register", S::Service, false, {"登记幂等键", "register"}, {"square-small", "replay", "commit", {"登记标识", "key stored"}, {}}},
      {K::InProgress, "in_progress", S::Service, false, {"答复“仍在处理”", "in progress"}, {"ring", "timeout", "timeout", {"处理中", "in progress"}, {}}},
      {K::Expire, "expire", S::Service, false, {"遗忘过期的幂等记录", "expire"}, {"square-cross", "reject", "crash", {"过期", "expired"}, {}}},
      {K::Redeliver, "redeliver", S::Service, false, {"租约到期，再交给一个工作者", "redeliver"}, {"ring", "timeout", "timeout", {"再次交付", "redelivered"}, {}}},
      {K::ConnectError, "connect_error", S::Client, false, {"连接被拒绝，请求没发出去", "connection refused"}, {"square-cross", "reject", "crash", {"连接被拒", "connection refused"}, {}}},
      {K::Ignored, "ignored", S::Client, false, {"脚本动作落空", "script action ignored"}, {"dot", "dot", "", {}, {}}},
      {K::Error, "error", S::Service, false, {"答复 500 服务器错误", "answer 500"}, {"dot", "dot", "", {}, {}}},
      {K::Refuse, "refuse", S::Service, false, {"拒绝请求，答复 429", "refuse (429)"}, {"dot", "dot", "", {}, {}}},
      {K::Notify, "notify", S::Service, true, {"发送通知邮件", "notify"}, {"disc", "notify", "commit", {"直接发信", "emails directly"}, {"直接通知", "notifies directly"}}},
      {K::Relay, "relay", S::Service, true, {"中继发送邮件", "relay"}, {"disc", "notify", "commit", {"转发", "relay sends"}, {}}},
      {K::MarkSent, "mark_sent", S::Service, false, {"标记邮件已发", "mark sent"}, {"square-small", "replay", "commit", {"标为已发", "marked sent"}, {}}},
      {K::AcceptEmail, "accept_email", S::Provider, true, {"收下邮件", "accept email"}, {"square", "accept", "provider", {"收进收件箱", "in the inbox"}, {"记一次加值", "credited"}}},
      {K::DedupEmail, "dedup_email", S::Provider, true, {"去重邮件", "dedup email"}, {"square-small", "dedup", "provider", {"重复，不投递", "deduplicated"}, {"重复，不再加值", "deduplicated"}}},
      {K::GatewayError, "gateway_error", S::Service, false, {"网关答复 502", "gateway answers 502"}, {"square-cross", "reject", "crash", {"网关 502", "gateway 502"}, {}}},
  };
  return rows;
}

const EventRow& event_row(EventKind kind) {
  const EventRow& row = event_table()[static_cast<std::size_t>(kind)];
  if (row.kind != kind) throw std::logic_error("event_table() is out of EventKind's order");
  return row;
}

const EventRow* event_row(const std::string& name) {
  for (const EventRow& r : event_table()) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

const std::vector<std::string>& event_kinds() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const EventRow& r : event_table()) out.push_back(r.name);
    return out;
  }();
  return names;
}

}  // namespace idemlab
