#include "engine/scenario/knobs.hpp"

#include <algorithm>
#include <stdexcept>

#include "engine/json/fields.hpp"
#include "engine/scenario/limits.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

json opt_ms(const std::optional<std::int64_t>& v) { return v ? json(*v) : json(nullptr); }
std::optional<std::int64_t> to_opt_ms(const json& v) {
  return v.is_null() ? std::nullopt : std::optional<std::int64_t>(v.get<std::int64_t>());
}

// The table is constant rows of plain C strings and captureless functions (data, not
// code): build_table() turns them into Knob values in one loop.
struct ValueRow {
  const char* knob;  // "group.name" of the knob it belongs to
  const char* name;
  Setting setting;
  const char* zh;
  const char* en;
  int index;         // Choice: the enum value it stands for
};

struct KnobRow {
  const char* group;
  const char* name;
  KnobType type;
  const char* zh;
  const char* en;
  long long min, max, typical_min, typical_max;
  bool optional;           // Integer: may be unset (its default)
  long long default_int;   // Integer (not optional): the default
  int (*get_index)(const Scenario&);
  void (*set_index)(Scenario&, int);
  json (*get_value)(const Scenario&);
  void (*set_value)(Scenario&, const json&);
  Setting (*judge)(const json&, const Scenario*);
};

using limits::kMaxVirtualMs;
using S = Setting;
using T = KnobType;

// A Choice knob's accessors over an enum field, as ints.
#define IDEMLAB_ENUM_FIELD(expr)                                   \
  [](const Scenario& s) { return static_cast<int>(s.expr); },      \
  [](Scenario& s, int v) { s.expr = static_cast<decltype(s.expr)>(v); }, nullptr, nullptr, nullptr
// An optional Integer knob's accessors over a std::optional<int64_t> field.
#define IDEMLAB_OPT_MS_FIELD(expr) \
  nullptr, nullptr, [](const Scenario& s) { return opt_ms(s.expr); }, [](Scenario& s, const json& v) { s.expr = to_opt_ms(v); }
// An Integer or Boolean knob's accessors over a plain field.
#define IDEMLAB_FIELD(expr) \
  nullptr, nullptr, [](const Scenario& s) { return json(s.expr); }, [](Scenario& s, const json& v) { s.expr = v.get<decltype(s.expr)>(); }

Setting wrong_when_set(const json& v, const Scenario*) { return v.is_null() ? S::Right : S::Wrong; }
// A queue's lease: right unset or when longer than the processing it covers (the request is
// then done before the queue hands it out again); wrong when shorter. Without the scenario
// (what a value may be, as the vocabulary and the fuzzer ask) any value may be wrong.
Setting lease_outlasts_processing(const json& v, const Scenario* in) {
  if (v.is_null()) return S::Right;
  if (!in) return S::Wrong;
  return v.get<std::int64_t>() < in->service.processing_ms ? S::Wrong : S::Right;
}
// Right: at most one layer retries (attempts > 1), and no layer that makes its own key per
// call sits inside a layer that retries (each outer retry would be a new operation); wrong:
// two or more retrying layers multiply, or an outer retry goes out under a new key.
Setting one_layer_retries(const json& v, const Scenario*) {
  int retrying = 0;
  bool own_key_inside = false;
  if (v.is_array()) {
    for (const json& l : v) {
      bool retries = l.value("attempts", 1) > 1;
      if (retries && own_key_inside) return S::Wrong;
      if (l.value("key", "caller") == "per_call") own_key_inside = true;
      retrying += retries;
    }
  }
  return retrying > 1 ? S::Wrong : S::Right;
}

const KnobRow kKnobs[] = {
    // --- the client's policy (engine/client/client.hpp) ---
    {"client", "key_scope", T::Choice, "操作标识的范围：每个意图一个，还是每次尝试一个", "how far one operation key reaches: one intent, or one attempt",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.key_scope)},
    {"client", "key_source", T::Choice, "操作标识从哪里来：决定时生成并存下，还是由意图和内容算出", "where the operation key comes from: drawn and stored when the intent is decided, or derived from the intent and its content",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.key_source)},
    {"client", "persist", T::Choice, "先把意图存进数据库，还是先发请求", "whether the intent is stored before or after the request leaves",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.persist)},
    {"client", "on_timeout", T::Choice, "超时后客户端记下什么", "what the client records when a reply does not come in time",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.on_timeout)},
    {"client", "recovery", T::Choice, "对账的方式", "how the client settles an unknown outcome",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.recovery)},
    {"client", "recovery_scan", T::Choice, "重启后恢复扫描要对账哪些意图", "which intents the client reconciles after a restart",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.recovery_scan)},
    {"client", "on_not_found", T::Choice, "对账查询答“查不到”之后怎么办", "what a lookup answered \"not found\" leads to",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.on_not_found)},
    {"client", "max_attempts", T::Integer, "每个意图最多发送几次（请求和查询都算）；用完仍不知道结果就转人工",
     "sends per intent, requests and lookups alike; spent with the outcome unknown, a person takes over",
     1, limits::kMaxAttempts, 1, 5, false, 3, IDEMLAB_FIELD(client.max_attempts), nullptr},
    {"client", "retry_after_ms", T::Integer, "记下 UNKNOWN 多久之后自己去对账（虚拟毫秒）；不设则只在重启后或脚本要求时对账",
     "how long after recording UNKNOWN the client reconciles by itself (virtual ms); unset: only after a restart or when the script says so",
     1, kMaxVirtualMs, 20, 300, true, 0, IDEMLAB_OPT_MS_FIELD(client.retry_after_ms), nullptr},
    {"client", "on_server_error", T::Choice, "收到 500 服务器错误后客户端记下什么", "what the client records when the service answers 500",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.on_server_error)},
    {"client", "on_already_exists", T::Choice, "收到“409 已存在”后客户端怎么办", "what the client does with \"409 already exists\"",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.on_already_exists)},
    {"client", "late_reply", T::Choice, "超时之后才到的答复怎么处理", "what the client does with a reply that comes after its timeout",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.late_reply)},
    {"client", "sends_key", T::Boolean, "请求里带不带操作标识（Idempotency-Key 头）", "whether a request carries the operation key (the Idempotency-Key header)",
     0, 0, 0, 0, false, 1, IDEMLAB_FIELD(client.sends_key), nullptr},
    {"client", "read_back", T::Choice, "成功之后客户端要不要按操作标识读回来确认，读不到又怎么办", "whether the client reads a success back by its key, and what a read that finds nothing leads to",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.read_back)},
    {"client", "on_refused", T::Choice, "收到“429 被拒绝”（服务端什么也没做）后客户端怎么办", "what the client does with \"429 refused\" (the service did nothing)",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(client.on_refused)},
    {"client", "deadline_ms", T::Integer, "决定之后多久不再发送（虚拟毫秒）；不设则没有期限", "how long after deciding the client stops sending (virtual ms); unset: no deadline",
     1, kMaxVirtualMs, 100, 2000, true, 0, IDEMLAB_OPT_MS_FIELD(client.deadline_ms), nullptr},
    {"client", "backoff_ms", T::Integer, "每次自动重试前的等待，逐次翻倍（虚拟毫秒）", "the wait before each automatic retry, doubling each time (virtual ms)",
     1, kMaxVirtualMs, 10, 200, true, 0, IDEMLAB_OPT_MS_FIELD(client.backoff_ms), nullptr},
    {"client", "retry_layers", T::Layers, "会重试的各层（由内到外），次数相乘；只该有一层负责重试；某层若每次被调用都自己生成操作标识，它外面的层就不该重试",
     "the layers that retry, innermost first; their attempts multiply, and one layer should own the retry; no layer outside one that makes its own key per call should retry",
     0, 0, 0, 0, false, 0, nullptr, nullptr,
     [](const Scenario& s) {
       json out = json::array();
       for (const RetryLayer& l : s.client.retry_layers) {
         json o = {{"layer", l.layer}, {"attempts", l.attempts}};
         if (l.key_per_call) o["key"] = "per_call";
         if (l.retry_on != kRetryAll) {
           json kinds = json::array();
           for (const auto& [name, bit] : retry_on_names()) {
             if (l.retry_on & bit) kinds.push_back(name);
           }
           o["retry_on"] = std::move(kinds);
         }
         if (l.timeout_ms) o["timeout_ms"] = *l.timeout_ms;
         out.push_back(std::move(o));
       }
       return out;
     },
     [](Scenario& s, const json& v) {
       s.client.retry_layers.clear();
       for (const json& l : v) {
         unsigned retry_on = kRetryAll;
         if (l.contains("retry_on")) {
           retry_on = 0;
           for (const json& k : l.at("retry_on")) retry_on |= retry_on_bit(k.get<std::string>());
         }
         std::optional<std::int64_t> timeout;
         if (l.contains("timeout_ms")) timeout = l.at("timeout_ms").get<std::int64_t>();
         s.client.retry_layers.push_back({l.at("layer").get<std::string>(), l.at("attempts").get<int>(),
                                          l.value("key", "caller") == "per_call", retry_on, timeout});
       }
     },
     one_layer_retries},
    // --- the service's contract (engine/service/service.hpp) ---
    {"service", "lookup", T::Boolean, "服务端是否提供按操作标识查询", "whether the service offers lookup by operation key",
     0, 0, 0, 0, false, 1, IDEMLAB_FIELD(service.lookup), nullptr},
    {"service", "ordering", T::Choice, "服务端写去重记录和业务效果的顺序", "the order in which the service writes the dedup record and the effect",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(service.ordering)},
    {"service", "dedup", T::Choice, "服务端凭什么认出重复请求", "what the service recognises a repeat by",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(service.dedup)},
    {"service", "concurrent_same_key", T::Choice, "服务端正在处理某个操作标识时，又来一个带同一标识的请求怎么办",
     "what the service does with a second request whose key it is still processing",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(service.concurrent_same_key)},
    {"service", "on_repeat", T::Choice, "同一个操作标识再来时，服务端怎么答", "how the service answers a repeat of a key it holds",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(service.on_repeat)},
    {"service", "stores_refusal", T::Boolean, "拒绝（429）是否作为这个操作标识的结果存下来", "whether a refusal (429) is stored as the key's result",
     0, 0, 0, 0, false, 0, IDEMLAB_FIELD(service.stores_refusal), nullptr},
    {"service", "missing_key", T::Choice, "请求没带操作标识时服务端怎么办", "what the service does with a request that carries no key",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(service.missing_key)},
    {"service", "compares", T::Choice, "同一个操作标识再来时，服务端比对什么", "what the service compares when a key it holds comes back",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(service.compares)},
    {"service", "after_error", T::Choice, "第一次请求答了 500 之后，同一个操作标识的重试得到什么",
     "what a retry under a key gets after its first request was answered 500",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(service.after_error)},
    {"service", "refusal_retry_after_ms", T::Integer, "429 答复里的 Retry-After：请客户端过多久再发（虚拟毫秒）；0 表示不给",
     "the Retry-After a 429 carries: how long the client should wait before sending again (virtual ms); 0: none",
     0, kMaxVirtualMs, 0, 2000, false, 0, IDEMLAB_FIELD(service.refusal_retry_after_ms), nullptr},
    {"service", "lookup_lag_ms", T::Integer, "查询读的副本落后多久（虚拟毫秒）：更新的去重记录查不到",
     "how far behind the replica that lookup reads is (virtual ms): a younger dedup record is not found",
     0, kMaxVirtualMs, 0, 500, false, 0, IDEMLAB_FIELD(service.lookup_lag_ms), nullptr},
    {"service", "read_path", T::Choice, "查询的读取路径能不能找到已存的记录", "whether lookup's read path finds what is stored",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(service.read_path)},
    {"service", "retention_ms", T::Integer, "去重记录保留多久（虚拟毫秒）；过期后同一个标识会再做一次",
     "how long a dedup record is kept (virtual ms); after it, the same key makes a new effect",
     1, limits::kMaxRetentionMs, 50, 1000, true, 0, IDEMLAB_OPT_MS_FIELD(service.retention_ms), wrong_when_set},
    {"service", "lease_ms", T::Integer, "请求经队列交给工作者，租约（可见性超时）多长；到期时还在处理的请求会被再交给另一个工作者（虚拟毫秒）；不设则没有队列",
     "how long the queue in front of the service's workers leases a request (visibility timeout, virtual ms); one still being processed when it runs out is handed out again; unset: no queue",
     1, kMaxVirtualMs, 50, 1000, true, 0, IDEMLAB_OPT_MS_FIELD(service.lease_ms), lease_outlasts_processing},
    {"service", "processing_ms", T::Integer, "从收到请求到提交要多久（虚拟毫秒）；其间同一标识的请求被答“处理中”（IETF 草案的 409）",
     "time from receiving a request to committing it (virtual ms); meanwhile the same key is answered in progress (the IETF draft's 409)",
     0, kMaxVirtualMs, 0, 300, false, 0, IDEMLAB_FIELD(service.processing_ms), nullptr},
    {"service", "notify", T::Choice, "每个新业务效果的通知邮件怎么发", "how the service sends the notification email each new effect owes",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(service.notify)},
    // --- the mail provider (engine/provider/provider.hpp) ---
    {"provider", "dedup", T::Choice, "邮件服务商是否按邮件的幂等键去重", "whether the mail provider deduplicates emails by their key",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(provider.dedup_by_key)},
    {"provider", "effect", T::Choice, "邮件服务商收下的每条通知算作什么（只改文字）", "what each notice the mail provider takes in counts as (wording only)",
     0, 0, 0, 0, false, 0, IDEMLAB_ENUM_FIELD(provider.effect)},
    // --- timing ---
    {"timing", "latency_ms", T::Integer, "每条消息单程的网络延迟（虚拟毫秒）", "one-way network latency of every message (virtual ms)",
     limits::kMinLatencyMs, limits::kMaxLatencyMs, 2, 60, false, 10, IDEMLAB_FIELD(timing.latency_ms), nullptr},
    {"timing", "timeout_ms", T::Integer, "客户端等答复多久（虚拟毫秒）", "how long the client waits for a reply (virtual ms)",
     1, kMaxVirtualMs, 20, 300, false, 100, IDEMLAB_FIELD(timing.timeout_ms), nullptr},
};

#undef IDEMLAB_ENUM_FIELD
#undef IDEMLAB_OPT_MS_FIELD
#undef IDEMLAB_FIELD

// The values of every Choice and Boolean knob; a Choice knob's first value is its default
// (and right or neutral) setting.
const ValueRow kValues[] = {
    {"client.key_scope", "intent", S::Right, "每个意图一个操作标识，每次重试都带着它", "one key per intent, carried by every retry", static_cast<int>(KeyScope::PerIntent)},
    {"client.key_scope", "attempt", S::Wrong, "每次尝试换一个新标识：服务端分不清重试和新操作", "a new key per attempt: the service cannot tell a retry from a new operation", static_cast<int>(KeyScope::PerAttempt)},
    {"client.key_source", "stored", S::Neutral, "决定时生成一个，存进意图的记录，之后一直用它", "drawn once when the intent is decided, stored in its row and reused", static_cast<int>(KeySource::Stored)},
    {"client.key_source", "payload_hash", S::Neutral, "由意图和内容算出：内容变了，标识也变，改过的请求是一次新操作", "derived from the intent and its content: changed content gets a new key, so a changed request is a new operation", static_cast<int>(KeySource::PayloadHash)},
    {"client.key_source", "request_hash", S::Wrong, "由整个请求算出，而请求里有每次提交都变的字段（时间戳）：每次重试都是新标识、新操作", "a hash of the whole request, which carries a field that changes with every submit (a timestamp): every retry gets a new key and is a new operation", static_cast<int>(KeySource::RequestHash)},
    {"client.persist", "before_send", S::Right, "先存意图再发送：崩溃后还能找到它", "store the intent, then send: a crash cannot hide it", static_cast<int>(PersistWhen::BeforeSend)},
    {"client.persist", "after_send", S::Wrong, "先发送再存：中间崩溃会留下客户端毫无记录的业务效果", "send, then store: a crash in between leaves an effect the client has no record of", static_cast<int>(PersistWhen::AfterSend)},
    {"client.on_timeout", "record_unknown", S::Right, "记为 UNKNOWN：超时是不确定结果，不是失败", "record UNKNOWN: a timeout is an indefinite error, not a failure", static_cast<int>(OnTimeout::RecordUnknown)},
    {"client.on_timeout", "mark_failed_and_resend", S::Wrong, "记为 FAILED 再重发：业务效果可能已经发生", "record FAILED and send again: the effect may already exist", static_cast<int>(OnTimeout::MarkFailedAndResend)},
    {"client.recovery", "lookup", S::Right, "用原操作标识查询服务端", "look the outcome up by the operation key", static_cast<int>(Recovery::Lookup)},
    {"client.recovery", "resend", S::Neutral, "用同一个操作标识再发一次请求：服务端去重时安全", "send the request again under the same key: safe while the service deduplicates it", static_cast<int>(Recovery::Resend)},
    {"client.recovery_scan", "unknown_and_pending", S::Right, "UNKNOWN 和崩溃前遗留的 PENDING 都对账", "UNKNOWN ones and the PENDING ones a crash left behind", static_cast<int>(RecoveryScan::UnknownAndStalePending)},
    {"client.recovery_scan", "unknown", S::Wrong, "只对账 UNKNOWN：超时前崩溃留下的 PENDING 被遗忘", "UNKNOWN only: a PENDING intent left by a crash before the timeout is forgotten", static_cast<int>(RecoveryScan::UnknownOnly)},
    {"client.on_not_found", "resend", S::Neutral, "用同一个操作标识重发：只在查询权威、去重记录仍在时才对", "resend under the same key: right only while lookup is authoritative and the dedup record is kept", static_cast<int>(OnNotFound::Resend)},
    {"client.on_not_found", "retry_lookup", S::Neutral, "过一会儿再查：查询可能滞后", "look up again later: the lookup may lag", static_cast<int>(OnNotFound::RetryLookup)},
    {"client.on_server_error", "unknown", S::Right, "记为 UNKNOWN：500 可能出在提交之后，和超时一样是不确定结果", "record UNKNOWN: the 500 may come after the commit, an indefinite error like a timeout", static_cast<int>(OnServerError::Unknown)},
    {"client.on_server_error", "fail", S::Wrong, "记为 FAILED 并停止：业务效果可能已经在了", "record FAILED and stop: the effect may already exist", static_cast<int>(OnServerError::Fail)},
    {"client.on_already_exists", "reconcile", S::Right, "按操作标识查一下：已有的是不是自己这份内容", "look the key up: is what exists this intent's own content?", static_cast<int>(OnAlreadyExists::Reconcile)},
    {"client.on_already_exists", "success", S::Neutral, "直接记为 DELIVERED：只在这个标识只属于这个意图、内容没改过时才对", "record DELIVERED at once: right only while the key is this intent's alone and its content unchanged", static_cast<int>(OnAlreadyExists::Success)},
    {"client.on_already_exists", "fail", S::Wrong, "记为 FAILED：重试的这次创建其实已经成功了", "record FAILED: the create it retried did happen", static_cast<int>(OnAlreadyExists::Fail)},
    {"client.sends_key", "true", S::Right, "带上：服务端能认出重试", "sent: the service can tell a retry", 1},
    {"client.sends_key", "false", S::Wrong, "不带：服务端认不出重试，要么答 400，要么再做一次", "not sent: the service cannot tell a retry; it answers 400 or does the work again", 0},
    {"client.read_back", "off", S::Right, "不读回：回执就是证明", "no read-back: the receipt is the proof", static_cast<int>(ReadBack::Off)},
    {"client.read_back", "keep", S::Neutral, "读回来看看；读不到也不改（副本可能落后，记录可能过期），回执照样算数", "read it back; a read that finds nothing changes nothing (a replica may lag, a record may expire): the receipt stands", static_cast<int>(ReadBack::Keep)},
    {"client.read_back", "recreate", S::Wrong, "读不到就再建一次：信了落后的读，不信手里的回执；存下的标识会换新的，做出第二份业务效果", "a read that finds nothing makes it create the intent again: it trusts a lagging read over its receipt, and under a stored key the new create gets a new key and makes a second effect", static_cast<int>(ReadBack::Recreate)},
    {"client.on_refused", "fail", S::Neutral, "记为 FAILED：确实什么也没做，要不要再来由用户决定", "record FAILED: nothing was done, truly; whether to try again is the user's call", static_cast<int>(OnRefused::Fail)},
    {"client.on_refused", "retry", S::Neutral, "按 Retry-After 等一等，在预算和截止时间内再发一次；存下的拒绝不重试", "wait as long as Retry-After says and send again, within the budget and the deadline; a stored refusal is not retried", static_cast<int>(OnRefused::Retry)},
    {"service.read_path", "works", S::Neutral, "能找到：按操作标识查到已存的去重记录（副本落后时除外）", "it works: a lookup by key finds the stored dedup record (unless a replica lags)", static_cast<int>(ReadPath::Works)},
    {"service.read_path", "broken", S::Neutral, "坏了：无论存了什么都查不到（查错了区域、索引没建、按没存的字段查），等多久都一样", "broken: a lookup finds nothing whatever is stored (the wrong region, a missing index, a field never stored); waiting does not help", static_cast<int>(ReadPath::Broken)},
    {"client.late_reply", "record", S::Neutral, "照样读它：迟到的答复也说明了结果", "read it all the same: a late answer still tells the outcome", static_cast<int>(LateReply::Record)},
    {"client.late_reply", "discard", S::Neutral, "丢掉不读（连接在超时时已关闭）：结果仍然未知，只能再对账", "drop it unread (the connection closed at the timeout): the outcome stays unknown until reconciled", static_cast<int>(LateReply::Discard)},
    {"service.lookup", "true", S::Neutral, "提供查询：客户端可以对账", "lookup offered: the client can reconcile", 1},
    {"service.lookup", "false", S::Neutral, "不提供查询：客户端只能用同一个标识重发", "no lookup: the client can only resend under the same key", 0},
    {"service.ordering", "atomic", S::Right, "同一个事务：崩溃后要么都在，要么都不在", "one transaction: a crash leaves both or neither", static_cast<int>(Ordering::Atomic)},
    {"service.ordering", "key_first", S::Wrong, "先写标识：中间崩溃后，重试被答“已完成”，业务效果却没有", "key first: after a crash between, a retry is told \"done\" for an effect that never happened", static_cast<int>(Ordering::KeyFirst)},
    {"service.ordering", "effect_first", S::Wrong, "先写效果：中间崩溃后，重试会再做一次", "effect first: after a crash between, a retry makes a second effect", static_cast<int>(Ordering::EffectFirst)},
    {"service.dedup", "key", S::Right, "凭操作标识", "by operation key", static_cast<int>(Dedup::Key)},
    {"service.dedup", "fingerprint", S::Wrong, "凭内容哈希：内容相同的两个意图被合成一个", "by payload fingerprint: two intents with the same content become one", static_cast<int>(Dedup::Fingerprint)},
    {"service.dedup", "none", S::Wrong, "不去重：服务端从不查重复，每个到达的请求都多做一次业务效果", "none: the service never looks for a repeat, so every request that arrives makes one more effect", static_cast<int>(Dedup::None)},
    {"service.concurrent_same_key", "reject", S::Right, "答“处理中”（IETF 草案的 409）：查重和写入在提交时的同一个事务里", "answer in progress (the IETF draft's 409); the check and the insert share the commit's transaction", static_cast<int>(ConcurrentSameKey::Reject)},
    {"service.concurrent_same_key", "process_both", S::Wrong, "两个都处理：后提交的那个在事务里查到记录并重放，只有一条业务效果，可同一件事的工作同时跑了两遍", "process both: the later commit finds the record in its transaction and replays it, so one effect, but the same work runs twice at once", static_cast<int>(ConcurrentSameKey::ProcessBoth)},
    {"service.concurrent_same_key", "check_then_insert", S::Wrong, "先查后写：到达时查重，处理完才写入；窗口内的两个请求都查不到记录，各做一次业务效果", "check, then insert: the check runs on arrival and the insert after processing, so two requests inside the window both find nothing and both make an effect", static_cast<int>(ConcurrentSameKey::CheckThenInsert)},
    {"service.on_repeat", "replay", S::Right, "重放存下的结果，并标明是重放（Stripe 的 Idempotent-Replayed）", "replay the stored result, marked as a replay (Stripe's Idempotent-Replayed)", static_cast<int>(OnRepeat::Replay)},
    {"service.on_repeat", "already_exists", S::Neutral, "答“409 已存在”：按自然键创建，不存结果，客户端得懂这句话", "answer \"409 already exists\": a create by natural key that stores no result, so the client must know what it means", static_cast<int>(OnRepeat::AlreadyExists)},
    {"service.stores_refusal", "false", S::Neutral, "不存：拒绝后这个标识还是空的（Stripe 的做法）", "not stored: after the refusal the key is still free (as Stripe does)", 0},
    {"service.stores_refusal", "true", S::Neutral, "存下：同内容重试再得 429，改了内容得 422（EC2 客户端令牌的做法）", "stored: a retry with the same content gets the 429 again, changed content a 422 (as EC2's client token does)", 1},
    {"service.missing_key", "reject", S::Right, "答 400，什么也不做（IETF 草案：要求带这个头的操作）", "answer 400 and do nothing (the IETF draft, for an operation that requires the header)", static_cast<int>(MissingKey::Reject)},
    {"service.missing_key", "process", S::Neutral, "当成新操作照做（标识可选的 API，比如 Stripe）：客户端一直带标识时才无害", "do it as a new operation (an API where the key is optional, as Stripe's): harmless only while clients always send one", static_cast<int>(MissingKey::Process)},
    {"service.compares", "payload", S::Right, "比对整份内容（内容哈希）：同一个标识、内容变了，答 422", "the whole content (its fingerprint): the same key with changed content is answered 422", static_cast<int>(Compares::Payload)},
    {"service.compares", "nothing", S::Wrong, "只认标识，不比内容：改过的内容也拿到第一次的结果，客户端以为新内容做成了", "the key alone: changed content is answered the first content's result, and the client believes the new content was done", static_cast<int>(Compares::Nothing)},
    {"service.after_error", "complete", S::Right, "把活做完：没提交就重新做，已提交就答业务效果的结果（Stripe API v2）", "the work is completed: done anew if nothing was committed, answered the effect's result if it was (Stripe API v2)", static_cast<int>(AfterError::Complete)},
    {"service.after_error", "replay_error", S::Neutral, "把 500 存成这个标识的结果，每次重试都再答 500，不管业务效果有没有提交（Stripe API v1）：同一标识的重试什么也问不出，只能按标识查或找人", "the 500 is saved as the key's result and every retry is answered it again, whether the effect was committed or not (Stripe API v1): a retry under that key learns nothing; only a lookup or a person can tell", static_cast<int>(AfterError::ReplayError)},
    {"service.notify", "none", S::Neutral, "不发邮件", "no email", static_cast<int>(Notify::None)},
    {"service.notify", "direct", S::Wrong, "提交后直接调用：中间崩溃，邮件就永远丢了", "a direct call after the commit: a crash in between loses the email for good", static_cast<int>(Notify::Direct)},
    {"service.notify", "outbox", S::Right, "事务性发件箱：邮件欠条和业务效果同一事务写入，由中继发送", "transactional outbox: the email owed is written with the effect, a relay sends it", static_cast<int>(Notify::Outbox)},
    {"provider.dedup", "key", S::Right, "按邮件键去重：中继重发也只收一封", "by email key: a relay's resend is still one email", 1},
    {"provider.dedup", "none", S::Wrong, "不去重：中继每重发一次就多一封", "none: every resend of the relay is one more email", 0},
    {"provider.effect", "email", S::Neutral, "一封通知邮件，进收件箱", "a notification email in an inbox", static_cast<int>(MailProviderContract::Effect::Email)},
    {"provider.effect", "credit", S::Neutral, "余额的一次加值：这条泳道代替余额账本（如支付回调给钱包加值）", "one credit to a balance: the lane stands in for the balance ledger (as a payment webhook credits a wallet)", static_cast<int>(MailProviderContract::Effect::Credit)},
};

// Wrong values known to compose safely under a condition a scenario can meet: the knob,
// whether a scenario meets the condition for a value, and the condition with its reason.
struct ComposesRow {
  const char* knob;
  bool (*holds)(const json& value, const Scenario& in);
  const char* zh;
  const char* en;
};

// Retry layers judged wrong only because two or more of them retry (their attempts
// multiply), while every send goes out under the intent's one key: the service answers a
// repeat of a key it holds from its record, so the extra sends cost load and time, not
// safety (docs/design.md, "Fuzz": the fuzzer never catches this one). Not met when a layer
// makes its own key per call, or the client's key is per attempt, a hash of each request or
// not sent at all: then a retry is a new operation.
bool every_layer_reuses_the_key(const json& v, const Scenario& in) {
  if (!v.is_array() || in.client.key_scope != KeyScope::PerIntent || in.client.key_source == KeySource::RequestHash ||
      !in.client.sends_key) {
    return false;
  }
  for (const json& l : v) {
    if (l.value("key", "caller") == "per_call") return false;
  }
  return true;
}

// A re-create after a read that found nothing, under a key derived from the intent and its
// content (key_source payload_hash, one key per intent, sent): the new create carries the
// same key, so the service replays it; no second effect (name the resource, and a
// re-create is a repeat). Not met under a
// stored key (made anew for the new create), a per-attempt key or a hash of each request.
bool recreate_derives_the_same_key(const json& v, const Scenario& in) {
  return v == "recreate" && in.client.key_source == KeySource::PayloadHash && in.client.key_scope == KeyScope::PerIntent &&
         in.client.sends_key;
}

const ComposesRow kComposes[] = {
    {"client.retry_layers", every_layer_reuses_the_key,
     "这里每一层重试都带着意图的同一个操作标识，服务端对已有的标识按记录作答：次数相乘只多花负载和时间，不损安全",
     "every layer here resends under the intent's one operation key, and the service answers a key it holds from its record: the multiplied sends cost load and time, not safety"},
    {"client.read_back", recreate_derives_the_same_key,
     "这里的操作标识由意图和内容算出：再建一次算出的还是同一个标识，服务端按记录重放，不会多出一份业务效果",
     "the operation key here is derived from the intent and its content: the re-create derives the same key, and the service replays its record instead of making a second effect"},
};

std::vector<Knob> build_table() {
  std::vector<Knob> t;
  for (const KnobRow& r : kKnobs) {
    Knob k;
    k.group = r.group;
    k.name = r.name;
    k.type = r.type;
    k.meaning = {r.zh, r.en};
    k.min = r.min;
    k.max = r.max;
    k.typical_min = r.typical_min;
    k.typical_max = r.typical_max;
    k.optional = r.optional;
    k.get_index = r.get_index;
    k.set_index = r.set_index;
    k.get_value = r.get_value;
    k.set_value = r.set_value;
    k.judge = r.judge;
    for (const ComposesRow& c : kComposes) {
      if (k.path() != c.knob) continue;
      k.composes = c.holds;
      k.composes_text = {c.zh, c.en};
    }
    for (const ValueRow& v : kValues) {
      if (k.path() != v.knob) continue;
      k.values.push_back({v.name, v.setting, {v.zh, v.en}});
      k.indexes.push_back(v.index);
    }
    switch (r.type) {
      case KnobType::Choice: k.default_value = k.values.front().name; break;
      case KnobType::Boolean: k.default_value = r.default_int != 0; break;
      case KnobType::Integer: k.default_value = r.optional ? json(nullptr) : json(r.default_int); break;
      case KnobType::Layers: k.default_value = json::array(); break;
    }
    t.push_back(std::move(k));
  }
  return t;
}

}  // namespace

const char* to_string(Setting s) {
  switch (s) {
    case Setting::Right: return "right";
    case Setting::Wrong: return "wrong";
    case Setting::Neutral: return "neutral";
  }
  return "?";
}

const char* to_string(KnobType t) {
  switch (t) {
    case KnobType::Choice: return "choice";
    case KnobType::Boolean: return "boolean";
    case KnobType::Integer: return "integer";
    case KnobType::Layers: return "layers";
  }
  return "?";
}

json Knob::get(const Scenario& s) const {
  if (type != KnobType::Choice) return get_value(s);
  int v = get_index(s);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (indexes[i] == v) return values[i].name;
  }
  return nullptr;
}

void Knob::set(Scenario& s, const json& value) const {
  if (type != KnobType::Choice) {
    set_value(s, value);
    return;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (value.is_string() && values[i].name == value.get<std::string>()) set_index(s, indexes[i]);
  }
}

Setting Knob::setting_of(const json& value, const Scenario* in) const {
  if (type == KnobType::Choice || type == KnobType::Boolean) {
    std::string name = value.is_string() ? value.get<std::string>() : value.dump();
    for (const KnobValue& v : values) {
      if (v.name == name) return v.setting;
    }
    return Setting::Neutral;
  }
  return judge ? judge(value, in) : Setting::Neutral;
}

const L10n* Knob::composes_in(const json& value, const Scenario& in) const {
  if (!composes || setting_of(value, &in) != Setting::Wrong || !composes(value, in)) return nullptr;
  return &composes_text;
}

json Knob::right_value() const {
  if (type == KnobType::Choice || type == KnobType::Boolean) {
    for (const KnobValue& v : values) {
      if (v.setting != Setting::Right) continue;
      return type == KnobType::Boolean ? json(v.name == "true") : json(v.name);
    }
  }
  return default_value;
}

json Knob::to_json() const {
  json out = json::object();
  put(out, "group", group);
  put(out, "name", name);
  put(out, "type", to_string(type));
  put(out, "meaning", meaning.to_json());
  put(out, "default", default_value);
  if (!values.empty()) {
    json vs = json::array();
    for (const KnobValue& v : values) {
      json o = json::object();
      put(o, "name", v.name);
      put(o, "setting", to_string(v.setting));
      put(o, "meaning", v.meaning.to_json());
      vs.push_back(std::move(o));
    }
    put(out, "values", std::move(vs));
  }
  if (composes) put(out, "composes", composes_text.to_json());
  if (type == KnobType::Integer) {
    put(out, "min", min);
    put(out, "max", max);
    put(out, "typical", json::array({typical_min, typical_max}));
    put(out, "optional", optional);
    if (name.size() > 3 && name.compare(name.size() - 3, 3, "_ms") == 0) put(out, "unit", "ms");
    // How values are judged, for a control to mark them: the setting of the default and
    // of any other value.
    json probe = optional ? json(typical_min) : json(default_value.get<long long>() == min ? max : min);
    put(out, "default_setting", to_string(setting_of(default_value)));
    put(out, "other_setting", to_string(setting_of(probe)));
  }
  if (type == KnobType::Layers) {
    put(out, "max_layers", limits::kMaxRetryLayers);
    put(out, "max_attempts", limits::kMaxAttempts);
    json kinds = json::array();
    for (const auto& [name, bit] : retry_on_names()) kinds.push_back(name);
    put(out, "retry_on", std::move(kinds));
    put(out, "max_timeout_ms", limits::kMaxVirtualMs);
    // What the badge's judgement means (one_layer_retries), for the line under it.
    json meanings = json::object();
    put(meanings, "right", L10n{"至多一层负责重试，而且没有哪层在“自己生成标识”的那层外面重试",
                                "at most one layer retries, and none retries outside a layer that makes its own key"}.to_json());
    put(meanings, "wrong", L10n{"不止一层在重试（次数相乘），或者有一层在“自己生成标识”的那层外面重试（它的每次重试都是新操作）",
                                "more than one layer retries (their attempts multiply), or a layer retries outside one that makes its own key (each of its retries is a new operation)"}.to_json());
    put(out, "setting_meanings", std::move(meanings));
  }
  return out;
}

const std::vector<Knob>& knob_table() {
  static const std::vector<Knob> table = build_table();
  return table;
}

const Knob* find_knob(const std::string& group, const std::string& name) {
  for (const Knob& k : knob_table()) {
    if (k.group == group && k.name == name) return &k;
  }
  return nullptr;
}

std::vector<std::string> knob_names(const std::string& group) {
  std::vector<std::string> out;
  for (const Knob& k : knob_table()) {
    if (k.group == group) out.push_back(k.name);
  }
  return out;
}

// --- injection points ---

Fault InjectionPointKind::make(const std::string& intent, int n, std::int64_t restart_after_ms) const {
  Fault f;
  f.kind = kind;
  if (kind == Fault::Kind::Drop || kind == Fault::Kind::ConnectError) parse(value, f.message);
  if (kind == Fault::Kind::CrashClient) parse(value, f.point);
  if (kind == Fault::Kind::CrashService) parse(value, f.service_point);
  if (kind == Fault::Kind::ServiceError) parse(value, f.error_point);
  if (kind == Fault::Kind::LoseRow) parse(value, f.row_point);
  f.intent = intent;
  f.n = n;
  f.restart_after_ms = restart_after_ms;
  return f;
}

std::string InjectionPointKind::id() const {
  switch (kind) {
    case Fault::Kind::Drop: return "drop:" + value;
    case Fault::Kind::CrashClient: return "crash:client:" + value;
    case Fault::Kind::CrashService: return "crash:service:" + value;
    case Fault::Kind::ServiceError: return "error:service:" + value;
    case Fault::Kind::ConnectError: return "connect_error:" + value;
    case Fault::Kind::LoseRow: return "lose_row:" + value;
  }
  return "?";
}

json InjectionPointKind::to_json() const {
  json out = json::object();
  put(out, "id", id());
  put(out, field.c_str(), value);
  put(out, "counts", counts);
  put(out, "meaning", meaning.to_json());
  return out;
}

const std::vector<InjectionPointKind>& injection_point_table() {
  using K = Fault::Kind;
  // The names are the fault part's own (engine/faults/fault.cpp to_string), not retyped.
  static const std::vector<InjectionPointKind> table = {
      {K::Drop, "drop", to_string(MessageKind::Request), "attempt", {"请求在网络中丢失", "the request is lost in the network"}},
      {K::Drop, "drop", to_string(MessageKind::Response), "attempt", {"响应在网络中丢失（服务端可能已经做了）", "the response is lost in the network (the service may have done the work)"}},
      {K::Drop, "drop", to_string(MessageKind::Lookup), "lookup", {"对账查询丢失", "the lookup is lost"}},
      {K::Drop, "drop", to_string(MessageKind::LookupReply), "lookup", {"对账查询的答复丢失", "the reply to a lookup is lost"}},
      {K::Drop, "drop", to_string(MessageKind::Email), "email send", {"发给邮件服务商的邮件丢失", "an email to the mail provider is lost"}},
      {K::Drop, "drop", to_string(MessageKind::EmailAck), "email send", {"邮件服务商的确认丢失", "the mail provider's ack is lost"}},
      {K::CrashClient, "crash_client", to_string(ClientPoint::AfterPersist), "attempt", {"客户端存下意图后、发送前崩溃", "the client crashes after storing the intent, before sending"}},
      {K::CrashClient, "crash_client", to_string(ClientPoint::AfterSend), "attempt", {"客户端发出请求后崩溃", "the client crashes after sending"}},
      {K::CrashClient, "crash_client", to_string(ClientPoint::BeforeRecord), "attempt", {"客户端收到答复、记下结果前崩溃", "the client crashes after a reply arrives, before recording it"}},
      {K::CrashService, "crash_service", to_string(ServicePoint::BeforeCommit), "attempt", {"服务端写入任何数据前崩溃", "the service crashes before writing anything"}},
      {K::CrashService, "crash_service", to_string(ServicePoint::BetweenWrites), "attempt", {"服务端在两次写入之间崩溃（atomic 下回滚）", "the service crashes between its two writes (rolled back under atomic)"}},
      {K::CrashService, "crash_service", to_string(ServicePoint::AfterCommit), "attempt", {"服务端提交后、回复前崩溃", "the service crashes after committing, before replying"}},
      {K::CrashService, "crash_service", to_string(ServicePoint::AfterEmailSend), "email send", {"服务端把邮件交给邮件服务商后立刻崩溃", "the service crashes right after handing an email to the mail provider"}},
      {K::ServiceError, "service_error", to_string(ErrorPoint::BeforeCommit), "attempt", {"服务端出错，什么也没写，答复 500", "the service fails before writing anything and answers 500"}},
      {K::ServiceError, "service_error", to_string(ErrorPoint::AfterCommit), "attempt", {"服务端提交后出错，答复 500：业务效果已经在了", "the service fails after its commit and answers 500: the effect exists"}},
      {K::ServiceError, "service_error", to_string(ErrorPoint::Refused), "attempt", {"服务端拒绝请求（429：限流或容量不足），什么也没做", "the service refuses the request (429: throttled, or out of capacity) and does nothing"}},
      {K::ServiceError, "service_error", to_string(ErrorPoint::Gateway), "attempt", {"服务端前面的网关答复 502，请求到不了服务端（重试一个已提交的操作标识也一样）", "a gateway in front of the service answers 502 and the request never reaches it (a retry of a committed key too)"}},
      {K::ConnectError, "connect_error", to_string(MessageKind::Request), "attempt", {"连接被拒绝：请求根本没发出去，客户端当场就知道", "the connection is refused: the request never leaves, and the client knows at once"}},
      {K::LoseRow, "lose_row", to_string(RowPoint::RolledBack), "attempt", {"请求发出后，写下意图那一行的事务回滚：客户端没有了这一行，请求却已经走了", "the transaction that wrote the intent's row rolls back after the request left: the client has no row, the request is on its way"}},
      {K::LoseRow, "lose_row", to_string(RowPoint::NotSaved), "attempt", {"客户端发出请求后、把状态存盘前崩溃：重启后那一行没有了", "the client crashes after sending, before its state is saved: at restart the row is gone"}},
  };
  return table;
}

std::vector<std::string> injection_point_names(const std::string& field) {
  std::vector<std::string> out;
  for (const InjectionPointKind& k : injection_point_table()) {
    if (k.field == field) out.push_back(k.value);
  }
  return out;
}

std::vector<std::string> injection_point_fields() {
  std::vector<std::string> out;
  for (const InjectionPointKind& k : injection_point_table()) {
    if (std::find(out.begin(), out.end(), k.field) == out.end()) out.push_back(k.field);
  }
  return out;
}

const InjectionPointKind& injection_point_kind(const Fault& f) {
  for (const InjectionPointKind& k : injection_point_table()) {
    if (k.kind == f.kind && k.make(f.intent, f.n, f.restart_after_ms).same_kind(f)) return k;
  }
  throw std::logic_error("a fault kind missing from the injection point table");
}

// --- actions ---

json ActionInfo::to_json() const {
  json out = json::object();
  put(out, "name", name);
  put(out, "intent", needs_intent ? (intent_required ? "required" : "optional") : "none");
  put(out, "payload", needs_payload);
  put(out, "meaning", meaning.to_json());
  put(out, "with_code", with_code);
  return out;
}

const std::vector<ActionInfo>& action_table() {
  using A = ActionKind;
  static const std::vector<ActionInfo> table = {
      {A::Deliver, "deliver", true, true, true, true, {"决定交付一个新意图", "decide to deliver a new intent"}, true},
      {A::CrashClient, "crash_client", false, false, false, true, {"客户端进程崩溃（数据库保留）", "the client process dies (its database survives)"}, true},
      {A::RestartClient, "restart_client", false, false, false, true, {"客户端重启并做恢复扫描", "the client restarts and scans its database"}, true},
      {A::Reconcile, "reconcile", true, false, false, true, {"现在对账一个未决的意图", "reconcile an unsettled intent now"}},
      {A::ResendNewKey, "resend_new_key", true, false, false, false, {"换一个新操作标识重发（天真的重试）", "resend under a fresh key (the naive retry)"}},
      {A::ResendChangedPayload, "resend_changed_payload", true, false, true, false, {"用原标识发送改过的内容", "send changed content under the intent's key"}},
      {A::ResendSameKey, "resend_same_key", true, false, false, true, {"用同一个操作标识重发", "resend under the intent's own key"}},
      {A::MarkFailed, "mark_failed", true, false, false, false, {"记为 FAILED 并停止", "record FAILED and stop"}},
      {A::Fallback, "fallback", true, false, true, false, {"只在意图已记为 FAILED 时，改换内容再发一次（比如换一种机型）", "only if the intent is FAILED: send it again with changed content (another instance type, say)"}},
      {A::Reapply, "reapply", true, false, false, true, {"期望状态控制器（或用户重跑）再应用一次：不管记成了什么，都按设置给出的操作标识再发一次；客户端没有它的记录时，从头重新决定", "a desired-state controller (or a user's re-run) applies it again: it sends it whatever the client recorded, under the key the settings give; with no row for it, it decides it anew"}},
      {A::Cancel, "cancel", true, true, false, true, {"撤销：一个新意图，不会抹掉已有的业务效果", "cancel: a new intent, which undoes no effect that exists"}},
  };
  return table;
}

const ActionInfo* find_action(const std::string& name) {
  for (const ActionInfo& a : action_table()) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

const ActionInfo& action_info(ActionKind k) {
  for (const ActionInfo& a : action_table()) {
    if (a.kind == k) return a;
  }
  throw std::logic_error("an action kind missing from the action table");
}

}  // namespace idemlab
