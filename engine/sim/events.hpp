#pragma once
// Every kind of event a run's step can have, as ONE table (like the knob table,
// engine/scenario/knobs.hpp): its name, the side that performs it, whether the other side
// can observe it, its name in a hint (zh-CN and en), and how the diagram draws it. The
// timeline's narration (engine/timeline/describe.cpp: one function per row), the
// feedback, the API's `vocabulary` and the page's diagram read this table; none of them
// lists event kinds of its own.
//
// The reasons and statuses events carry (LocalView::reason, ::why, a reply's status)
// are named here too, so that the texts of a run need no node's header.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/text/l10n.hpp"

namespace idemlab {

/// Provider: the mail provider the service notifies (engine/provider/provider.hpp).
enum class Side { None, Client, Service, Network, Provider };
inline constexpr int kSideCount = 5;
const char* to_string(Side s);

// THE events table, one X(...) per kind: X(Kind, "name", side, observable by another side,
// its name in a hint {zh-CN, en}, its mark on the diagram {shape, look, tone, label,
// label for a credit}) (see EventRow below; S is Side). EventKind, kEventKindCount and
// event_table() are all made from it, so they cannot disagree: a new event is one line
// here and its narration (engine/timeline/describe.cpp).
// clang-format off
#define IDEMLAB_EVENTS(X) \
  X(Start, "start", S::None, false, {"启动", "start"}, {"none", "", "", {}, {}}) \
  X(Decide, "decide", S::Client, false, {"决定发送", "decide"}, {"dot", "dot", "", {}, {}}) \
  X(Persist, "persist", S::Client, false, {"写入记录", "persist"}, {"row", "persist", "", {}, {}}) \
  X(Send, "send", S::Client, true, {"发送请求", "send"}, {"dot", "dot", "", {}, {}}) \
  X(Lookup, "lookup", S::Client, true, {"发起对账查询", "lookup"}, {"dot", "dot", "", {}, {}}) \
  X(Receive, "receive", S::Client, false, {"收到消息", "receive"}, {"dot", "dot", "", {}, {}}) \
  X(Timeout, "timeout", S::Client, false, {"超时", "timeout"}, {"clock", "timeout", "timeout", {"超时", "timeout"}, {}}) \
  X(Record, "record", S::Client, false, {"记录", "record"}, {"row", "persist", "", {}, {}}) \
  X(Crash, "crash", S::Client, false, {"崩溃", "crash"}, {"cross", "crash", "crash", {"崩溃", "crash"}, {}}) \
  X(Restart, "restart", S::Client, false, {"重启", "restart"}, {"ring", "restart", "restart", {"重启", "restart"}, {}}) \
  X(Recover, "recover", S::Client, false, {"恢复扫描", "recover"}, {"dot", "dot", "", {}, {}}) \
  X(Commit, "commit", S::Service, false, {"提交", "commit"}, {"square", "commit", "commit", {"提交", "commit"}, {}}) \
  X(Replay, "replay", S::Service, false, {"重放回执", "replay"}, {"square-small", "replay", "commit", {"重放回执", "replayed"}, {}}) \
  X(Reject, "reject", S::Service, false, {"拒绝", "reject"}, {"square-cross", "reject", "crash", {"拒绝", "rejected"}, {}}) \
  X(Found, "found", S::Service, false, {"查到记录", "found"}, {"dot", "dot", "", {}, {}}) \
  X(NotFound, "not_found", S::Service, false, {"查无记录", "not found"}, {"dot", "dot", "", {}, {}}) \
  X(Reply, "reply", S::Service, true, {"答复", "reply"}, {"dot", "dot", "", {}, {}}) \
  X(Drop, "drop", S::Network, false, {"丢失", "drop"}, {"none", "", "", {}, {}}) \
  X(Register, "register", S::Service, false, {"登记幂等键", "register"}, {"square-small", "replay", "commit", {"登记标识", "key stored"}, {}}) \
  X(InProgress, "in_progress", S::Service, false, {"答复“仍在处理”", "in progress"}, {"ring", "timeout", "timeout", {"处理中", "in progress"}, {}}) \
  X(Expire, "expire", S::Service, false, {"遗忘过期的幂等记录", "expire"}, {"square-cross", "reject", "crash", {"过期", "expired"}, {}}) \
  X(Redeliver, "redeliver", S::Service, false, {"租约到期，再交给一个工作者", "redeliver"}, {"ring", "timeout", "timeout", {"再次交付", "redelivered"}, {}}) \
  X(ConnectError, "connect_error", S::Client, false, {"连接被拒绝，请求没发出去", "connection refused"}, {"square-cross", "reject", "crash", {"连接被拒", "connection refused"}, {}}) \
  X(Ignored, "ignored", S::Client, false, {"脚本动作落空", "script action ignored"}, {"dot", "dot", "", {}, {}}) \
  X(Error, "error", S::Service, false, {"答复 500 服务器错误", "answer 500"}, {"dot", "dot", "", {}, {}}) \
  X(Refuse, "refuse", S::Service, false, {"拒绝请求，答复 429", "refuse (429)"}, {"dot", "dot", "", {}, {}}) \
  X(Notify, "notify", S::Service, true, {"发送通知邮件", "notify"}, {"disc", "notify", "commit", {"直接发信", "emails directly"}, {"直接通知", "notifies directly"}}) \
  X(Relay, "relay", S::Service, true, {"中继发送邮件", "relay"}, {"disc", "notify", "commit", {"转发", "relay sends"}, {}}) \
  X(MarkSent, "mark_sent", S::Service, false, {"标记邮件已发", "mark sent"}, {"square-small", "replay", "commit", {"标为已发", "marked sent"}, {}}) \
  X(AcceptEmail, "accept_email", S::Provider, true, {"收下邮件", "accept email"}, {"square", "accept", "provider", {"收进收件箱", "in the inbox"}, {"记一次加值", "credited"}}) \
  X(DedupEmail, "dedup_email", S::Provider, true, {"去重邮件", "dedup email"}, {"square-small", "dedup", "provider", {"重复，不投递", "deduplicated"}, {"重复，不再加值", "deduplicated"}}) \
  X(GatewayError, "gateway_error", S::Service, false, {"网关答复 502", "gateway answers 502"}, {"square-cross", "reject", "crash", {"网关 502", "gateway 502"}, {}}) \
  X(LoseRow, "lose_row", S::Client, false, {"丢了自己的记录", "lose its own row"}, {"square-cross", "reject", "crash", {"记录丢失", "row lost"}, {}})
// clang-format on

#define IDEMLAB_EVENT_KIND(kind, ...) kind,
/// One per row of IDEMLAB_EVENTS, in its order.
enum class EventKind : std::uint8_t { IDEMLAB_EVENTS(IDEMLAB_EVENT_KIND) };
#undef IDEMLAB_EVENT_KIND
#define IDEMLAB_EVENT_ONE(...) +1
/// How many kinds there are: what a table indexed by kind is sized by, at compile time.
inline constexpr std::size_t kEventKindCount = 0 IDEMLAB_EVENTS(IDEMLAB_EVENT_ONE);
#undef IDEMLAB_EVENT_ONE

/// How the diagram draws an event's mark (web/src/views/diagram.js draws each shape; a
/// step's JSON carries it as event.mark, timeline/timeline_json.cpp): the shape, the
/// mark's colour class, its label's colour class and the label's words.
struct EventGlyph {
  const char* shape;  ///< "square" | "square-small" | "square-cross" | "cross" | "ring" | "clock" | "disc" | "row" | "dot" | "none"
  const char* look;   ///< the mark's class, ev-<look>
  const char* tone;   ///< the label's class, ev-label-<tone>; "" for no label
  L10n word;          ///< the label on the diagram (empty: none)
  L10n credit_word;   ///< the label when the provider's effect is a credit (empty: `word`)
};

struct EventRow {
  EventKind kind;
  const char* name;  ///< as in a step's JSON, a moment's `event`, the vocabulary
  /// The side whose event it is (None: the run's start; an event some sides share, such as
  /// receive, names the side that performs it most often, Client).
  Side side;
  /// Whether another side can observe that it happened: it puts a message on the wire
  /// that another side may receive. Everything else is known only to its own side.
  bool observable;
  L10n hint_name;  ///< the event named in a hint ("记录" / "record")
  EventGlyph glyph;
};

const std::vector<EventRow>& event_table();
const EventRow& event_row(EventKind kind);
/// The row named `name`, or nullptr.
const EventRow* event_row(const std::string& name);
/// Every event name, in the table's order (a moment's `event` is one of them).
const std::vector<std::string>& event_kinds();

/// Why a step happened as it did (LocalView::reason, ::why; a reply's Message::reason).
namespace reasons {
// The client's (engine/client/client.hpp).
inline constexpr const char* kBudgetSpent = "budget_spent";        ///< NEEDS_HUMAN: the sends are used up
inline constexpr const char* kDeadlinePassed = "deadline_passed";  ///< NEEDS_HUMAN: no time for another send
inline constexpr const char* kReadBackMissing = "read_back_missing";  ///< PENDING again: a read-back found nothing
inline constexpr const char* kNotRetried = "not_retried";  ///< NEEDS_HUMAN: no retry layer retries the error
inline constexpr const char* kLayersSpent = "layers_spent";  ///< NEEDS_HUMAN: the layers that retry it are spent
inline constexpr const char* kConnectRefused = "connect_refused";  ///< FAILED: no send of it ever left
inline constexpr const char* kUndecided = "undecided";  ///< ignored: an action before its intent was decided
// The service's (engine/service/service.hpp).
inline constexpr const char* kSameKeyDifferentPayload = "same_key_different_payload";  ///< 422 (IETF draft)
inline constexpr const char* kAlreadyExists = "already_exists";  ///< 409 on a natural key
inline constexpr const char* kMissingKey = "missing_key";        ///< 400 (IETF draft): no key sent
inline constexpr const char* kInternalError = "internal_error";  ///< 500
inline constexpr const char* kBadGateway = "bad_gateway";  ///< 502 from a gateway in front of the service
inline constexpr const char* kRefused = "refused";               ///< 429
inline constexpr const char* kLaggingReplica = "lagging_replica";  ///< not_found: the replica lags
inline constexpr const char* kExpired = "expired";                 ///< not_found: retention passed
inline constexpr const char* kNoRecord = "no_record";              ///< not_found: never stored
inline constexpr const char* kBrokenRead = "broken_read_path";     ///< not_found: lookup reads nowhere
inline constexpr const char* kStoredError = "stored_error";        ///< not_found: only a saved 500
// The network's (a drop's reason).
inline constexpr const char* kFault = "fault";                  ///< the fault plan loses it
inline constexpr const char* kReceiverDown = "receiver_down";   ///< it reached a crashed process
}  // namespace reasons

/// The HTTP statuses a service stores under a key (KeyRow::status).
namespace http {
inline constexpr long long kRefused = 429;  ///< a refusal: throttled, or no capacity
inline constexpr long long kError = 500;    ///< an internal error
inline constexpr long long kBadGateway = 502;  ///< a gateway in front of the service (never stored)
}  // namespace http

}  // namespace idemlab
