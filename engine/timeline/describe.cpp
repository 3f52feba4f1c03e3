#include "engine/timeline/describe.hpp"

#include <array>
#include <cstddef>

#include "engine/scenario/limits.hpp"
#include "engine/text/provider_words.hpp"

namespace idemlab {
namespace {

std::string str(const std::optional<std::string>& v) { return v.value_or(""); }

L10n message_name(const Message& m, bool credits) {
  std::string n = std::to_string(m.n);
  const ProviderWords w = provider_words(credits);
  switch (m.kind) {
    case MessageKind::Request: return {"第 " + n + " 次尝试的请求", "the request of attempt " + n};
    case MessageKind::Response: return {"第 " + n + " 次尝试的响应", "the response to attempt " + n};
    case MessageKind::Lookup: return {"第 " + n + " 次对账查询", "lookup " + n};
    case MessageKind::LookupReply: return {"第 " + n + " 次对账查询的答复", "the reply to lookup " + n};
    case MessageKind::Email: return {"第 " + n + " 次发出的" + w.item.zh, w.item.en + " send " + n};
    case MessageKind::EmailAck: return {w.provider.zh + "对第 " + n + " 次" + w.item.zh + "的确认", w.provider.en + "'s ack of " + w.item.en + " send " + n};
  }
  return {"?", "?"};
}

// What a send under the retry budget adds: the backoff it waited, and under retry layers
// which iteration of each layer it is and which layer retried ("" / "" when neither).
L10n send_note(const LocalView& local) {
  L10n out;
  if (local.backoff_ms) {
    std::string ms = std::to_string(*local.backoff_ms);
    out = {"，此前退避等待 " + ms + " ms", " after a backoff of " + ms + " ms"};
  }
  if (!local.layers) return out;
  std::string send = std::to_string(local.send.value());
  std::string budget = std::to_string(local.budget.value());
  L10n layers;
  for (const LayerAt& l : *local.layers) {
    std::string one = l.layer + " " + std::to_string(l.iteration) + "/" + std::to_string(l.attempts);
    layers = layers.en.empty() ? L10n{one, one} : L10n::join(layers, {one, one}, "，", ", ");
  }
  out.zh += "——预算 " + budget + " 次中的第 " + send + " 次（" + layers.zh + "）";
  out.en += " — send " + send + " of a budget of " + budget + " (" + layers.en + ")";
  std::string by = str(local.retried_by);
  if (!by.empty()) {
    out.zh += "，由 " + by + " 层重试";
    out.en += ", a retry by the " + by + " layer";
  }
  return out;
}

// What a NEEDS_HUMAN `record` step says about the limit it reached, or nothing.
std::optional<L10n> limit_note(const LocalView& local) {
  std::string st = str(local.status);
  std::string reason = str(local.reason);
  if (st != status::kNeedsHuman) return std::nullopt;
  if (reason == reasons::kBudgetSpent) {
    std::string n = std::to_string(local.budget.value_or(0));
    return L10n{"——重试预算（" + n + " 次发送）已用完，结果仍然未知：需要人工对账",
                " — the retry budget (" + n + (n == "1" ? " send" : " sends") + ") is spent and the outcome is still unknown: a person must reconcile it"};
  }
  if (reason == reasons::kDeadlinePassed) {
    std::string at = std::to_string(local.deadline_at.value_or(0));
    return L10n{"——截止时间（" + at + " ms）前已来不及再发送，结果仍然未知：需要人工对账",
                " — the deadline (" + at + " ms) leaves no time for another send and the outcome is still unknown: a person must reconcile it"};
  }
  std::string kind = str(local.error_kind);
  L10n what = kind == "timeout"   ? L10n{"超时", "a timeout"}
              : kind == "connect" ? L10n{"连接失败", "a refused connection"}
                                  : L10n{kind, "a " + kind};
  if (reason == reasons::kLayersSpent && local.layers) {
    // Not the budget: sends of it are left, but no layer that retries this error has an
    // attempt left.
    std::string names;
    for (const LayerAt& l : *local.layers) {
      names += (names.empty() ? "" : ", ") + l.layer + " " + std::to_string(l.iteration) + "/" + std::to_string(l.attempts);
    }
    bool one = local.layers->size() == 1;
    std::string send = std::to_string(local.send.value_or(0));
    std::string budget = std::to_string(local.budget.value_or(0));
    return L10n{"——已没有哪一层还会重试" + what.zh + "：会重试它的层（" + names + "）已用完次数。预算 " + budget + " 次发送只用了 " + send +
                    " 次，结果仍然未知：需要人工对账",
                " — no layer will retry " + what.en + " again: the " + (one ? "layer" : "layers") + " that retr" + (one ? "ies" : "y") +
                    " it (" + names + ") " + (one ? "has used its" : "have used their") + " attempts. Only " + send + " of the budget's " +
                    budget + " sends " + (send == "1" ? "is" : "are") + " used, and the outcome is still unknown: a person must reconcile it"};
  }
  if (reason == reasons::kNotRetried) {
    return L10n{"——没有哪一层重试会重试" + what.zh + "：它一路传到应用，结果仍然未知，又没有谁去对账：需要人工",
                " — no retry layer retries " + what.en + ": it reaches the application with the outcome unknown, and nothing reconciles it: a person must"};
  }
  return std::nullopt;
}

// What a `record` step says about the reply's reason behind it (a 409, a 429, ...), or nothing.
std::optional<L10n> reason_note(const LocalView& local) {
  std::string st = str(local.status);
  std::string reason = str(local.reason);
  if (reason == reasons::kAlreadyExists && st == status::kFailed) {
    return L10n{"——可在 500 之后，“已存在”的很可能正是它自己第一次的创建：它并不知道自己失败了", " — yet after a 500, what \"already exists\" may well be its own first try: it records a failure it does not know of"};
  }
  if (reason == reasons::kAlreadyExists && st == status::kDelivered) {
    return L10n{"——凭“409 已存在”，没有回执：它认定已有的就是自己这份", " — on \"409 already exists\", with no receipt: it takes what exists to be its own"};
  }
  if (reason == reasons::kAlreadyExists && st == status::kNeedsHuman) {
    return L10n{"——“409 已存在”，又没有查询可以确认是谁的：需要人工核对", " — \"409 already exists\", and no lookup to learn whose it is: a person must check"};
  }
  if (st == status::kFailed && reason == reasons::kConnectRefused) {
    return L10n{"——确定失败：它的请求一次也没发出去，服务端什么也不可能做", " — a definite error: none of its requests ever left, so the service cannot have done anything"};
  }
  if (st == status::kFailed && reason == reasons::kMissingKey) {
    return L10n{"——确定失败：什么也没做；不带标识，同样的请求还会被拒绝", " — a definite error: nothing was done, and without a key the same request would be refused again"};
  }
  if (st == status::kPending && reason == reasons::kReadBackMissing) {
    return L10n{"——它自己的读回查不到，它就信了这次读、不信手里的回执：用新的操作标识再建一次（读可能只是落后）",
                " — its own read-back found nothing, and it believes the read over the receipt in hand: it creates the intent again under a new key (the read may only lag)"};
  }
  if (st == status::kPending && reason == reasons::kRefused) {
    std::string at = std::to_string(local.retry_at.value_or(0));
    return L10n{"——429 说这次什么也没做；它照 Retry-After 等到 " + at + " ms 再发一次",
                " — the 429 says nothing was done; as its Retry-After asks, it will send again at " + at + " ms"};
  }
  if (st == status::kFailed && reason == reasons::kBadGateway) {
    return L10n{"——可 502 只说网关没把请求交给服务端：这一次没做，之前的尝试做没做成，它什么也没说",
                " — yet a 502 only says the gateway did not pass this request on: it says nothing of whether an earlier attempt took effect"};
  }
  if (st == status::kFailed && reason == reasons::kInternalError) {
    return L10n{"——可 500 是不确定结果：服务端可能在出错前已经提交了", " — yet a 500 is an indefinite error: the service may have committed before it failed"};
  }
  return std::nullopt;
}

// What a `record` step says about the error behind it (local.error): definite or not.
L10n error_note(const LocalView& local) {
  std::string st = str(local.status);
  std::string error = str(local.error);
  std::string reason = str(local.reason);
  if (st == status::kFailed && error == error_kind::kIndefinite) {
    return {"——可这是不确定结果（没等到答复不等于被拒绝），却被当成了确定失败：请求可能已经生效",
            " — yet the error was indefinite (no reply is not a refusal) and is treated as definite: the request may well have taken effect"};
  }
  if (st == status::kUnknown && error == error_kind::kIndefinite) {
    return {"——不确定结果：请求可能生效了，也可能没有", " — an indefinite error: the request may or may not have taken effect"};
  }
  if (error == error_kind::kDefinite && reason == reasons::kSameKeyDifferentPayload) {
    return {"——确定失败：服务端拒绝了这份内容，没为它做任何事（这个标识下已有的，是另一份内容的结果）",
            " — a definite error: the service refused this content and did nothing for it (what the key already holds is another content's result)"};
  }
  if (error == error_kind::kDefinite) {
    return {"——确定失败：服务端什么都没做就拒绝了", " — a definite error: the service refused before doing anything"};
  }
  if (error == error_kind::kIndefinite) return {"——不确定结果", " — an indefinite error"};
  return {};
}

// What a `record` step says about the error behind it (local.error) and, for
// NEEDS_HUMAN, which limit was reached. The limits and the reasons each name one reason,
// so which is asked first changes nothing; the error comes after both.
L10n record_note(const LocalView& local) {
  if (std::optional<L10n> note = limit_note(local)) return *note;
  if (std::optional<L10n> note = reason_note(local)) return *note;
  return error_note(local);
}

// Which key a lookup step carries, from the requests of `intent` sent before step `at`: the
// key of attempt(s) N and whether earlier attempts carried other keys that this lookup does
// not ask about. Only what has happened: never what later attempts will carry (a lesson
// asks that at the lookup, and the text would answer it).
L10n looked_up_key(const Run& run, const std::string& intent, const std::string& key, int at) {
  std::vector<int> carried;  // the attempts whose request carried `key`
  bool others = false;       // an attempt carried another key
  for (const Message& m : run.messages) {
    if (m.kind != MessageKind::Request || m.intent != intent || m.sent_step < 0 || m.sent_step >= at) continue;
    if (m.op_key == key) carried.push_back(m.n);
    else others = true;
  }
  if (carried.empty()) {
    return {"操作标识 " + key + "（还没有哪次尝试发出过它）", key + " (a key no attempt has sent yet)"};
  }
  std::string zh, en;
  for (std::size_t i = 0; i < carried.size(); ++i) {
    zh += (i ? "、" : "") + std::to_string(carried[i]);
    en += (i ? ", " : "") + std::to_string(carried[i]);
  }
  L10n out = {"第 " + zh + " 次尝试的操作标识 " + key, key + " (the key of attempt" + (carried.size() > 1 ? "s " : " ") + en + ")"};
  if (others) {
    out.zh += "；之前的尝试用的是别的操作标识，这次查询问不到它们";
    out.en += "; earlier attempts carried other keys, which this lookup does not ask about";
  }
  return out;
}

// What every kind's text may name, worked out once per step.
struct Names {
  std::string key;      ///< the step's operation key (local.op_key)
  std::string receipt;  ///< local.receipt
  std::string email;    ///< local.email_key
  const Message* m;     ///< the message the step sends, receives or loses, or nullptr
  L10n msg;             ///< its name ("a message" when there is none)
  ProviderWords pw;     ///< the provider's lane, in words
  int step;             ///< the step's index
};

// A send's text and what its send under the retry budget adds.
L10n with_send_note(const L10n& head, const LocalView& local) { return L10n::join(head, send_note(local), "", ""); }

// One function per row of event_table(), in its order; narrators() below lists them.

L10n describe_start(const Event&, const Run&, const Names&) {
  return {"开始：客户端与服务端各有一个空数据库", "start: client and service each have an empty database"};
}

// A re-run (reapply) that finds no row of the intent starts from the user's configuration.
L10n decide_anew(const Event& e, const Names& n) {
  const std::string& intent = e.intent;
  const std::string& key = n.key;
  L10n head{"期望状态控制器再应用一次“" + intent + "”，客户端却没有它的记录：只好从头来，按配置重新决定交付",
            "a desired-state controller applies \"" + intent + "\" again and the client has no row for it: it starts from nothing and decides it anew from the configuration"};
  if (str(e.local.key_source) == "payload_hash") {
    return L10n::join(head, {"，由意图和内容算出操作标识 " + key + "——和上次算出的一样，服务端认得它",
                             "; the key derived from the intent and its content, " + key + ", comes out as it did before, and the service knows it"},
                      "", "");
  }
  if (str(e.local.key_source) == "request_hash") {
    return L10n::join(head, {"，用整个请求（含提交时间）算出新的操作标识 " + key, "; the whole request, submit time included, hashes to a new key, " + key}, "", "");
  }
  return L10n::join(head, {"，重新生成操作标识 " + key + "——上次生成的那个随记录一起丢了，服务端会把这次当成新操作",
                           "; it generates operation key " + key + " anew, since the one it drew before was lost with the row: the service will take this for a new operation"},
                    "", "");
}

L10n describe_decide(const Event& e, const Run&, const Names& n) {
  const std::string& intent = e.intent;
  const std::string& key = n.key;
  if (e.local.cancels.has_value()) {
    std::string original = intent.substr(0, intent.size() - std::string("-cancel").size());
    std::string cancels = str(e.local.cancels);
    return {"客户端决定撤销“" + original + "”：新建意图“" + intent + "”，有自己的操作标识 " + key + "，内容指向原操作标识 " +
                cancels + "。撤销是一次新的操作，抹不掉已经发生的业务效果",
            "the client decides to cancel \"" + original + "\": a new intent \"" + intent + "\" with its own operation key " +
                key + ", whose payload names the original key " + cancels +
                "; a cancel is a new operation and cannot erase an effect that already happened"};
  }
  if (e.local.reapply.value_or(false)) return decide_anew(e, n);
  std::string source = str(e.local.key_source);
  if (source == "request_hash") return {"客户端决定交付“" + intent + "”，用整个请求（含提交时间）算出操作标识 " + key + "：下一次提交时间变了，标识也会变", "the client decides to deliver \"" + intent + "\" and hashes the whole request, submit time included, into operation key " + key + ": the next submit has another time, so another key"};
  if (source == "payload_hash") return {"客户端决定交付“" + intent + "”，由意图和内容算出操作标识 " + key + "：内容变了，标识也会变", "the client decides to deliver \"" + intent + "\" and derives operation key " + key + " from the intent and its content: other content would get another key"};
  // A client running the learner's code (engine/code/): what it does next is the code's.
  if (key.empty()) return {"客户端决定交付“" + intent + "”：接下来怎么做由它的代码决定", "the client decides to deliver \"" + intent + "\": its code decides what comes next"};
  return {"客户端决定交付“" + intent + "”，生成操作标识 " + key, "the client decides to deliver \"" + intent + "\" and generates operation key " + key};
}

L10n describe_persist(const Event& e, const Run&, const Names& n) {
  // The built-in client stores PENDING; the learner's code may store another status, or no key.
  std::string status = e.local.status ? *e.local.status : std::string(status::kPending);
  if (n.key.empty()) return {"客户端把意图“" + e.intent + "”存为 " + status + "（没有存操作标识）", "the client stores intent \"" + e.intent + "\" as " + status + " (no key stored)"};
  return {"客户端把意图“" + e.intent + "”存为 " + status + "（操作标识 " + n.key + "）", "the client stores intent \"" + e.intent + "\" as " + status + " (key " + n.key + ")"};
}

L10n describe_send(const Event& e, const Run&, const Names& n) {
  const std::string& key = n.key;
  const L10n& msg = n.msg;
  if (!str(e.local.stored_key).empty()) {
    std::string stored = str(e.local.stored_key);
    return with_send_note({"客户端发出" + msg.zh + "，带的却是重试层自己生成的操作标识 " + key + "，不是它存下的 " + stored,
                           "the client sends " + msg.en + " under key " + key + ", which a retry layer made itself, not the key it stored, " + stored},
                          e.local);
  }
  if (!e.local.key_sent.value_or(true)) {
    return with_send_note({"客户端发出" + msg.zh + "，却没带操作标识（" + key + " 只记在它自己的表里）",
                           "the client sends " + msg.en + " without its operation key (" + key + " is only in its own table)"},
                          e.local);
  }
  if (e.local.reapply.value_or(false)) {
    return with_send_note({"期望状态控制器再应用一次“" + e.intent + "”，不管客户端记成了什么：客户端发出" + msg.zh + "（操作标识 " + key + "）",
                           "a desired-state controller applies \"" + e.intent + "\" again, whatever the client recorded: the client sends " + msg.en + " (key " + key + ")"},
                          e.local);
  }
  return with_send_note({"客户端发出" + msg.zh + "（操作标识 " + key + "）", "the client sends " + msg.en + " (key " + key + ")"}, e.local);
}

L10n describe_lookup(const Event& e, const Run& run, const Names& n) {
  if (e.local.read_back.value_or(false)) {
    return {"客户端读回确认：已经记了 DELIVERED，再用操作标识 " + n.key + " 查一次，看服务端那边是不是也有",
            "the client reads it back to confirm: it has recorded DELIVERED, and looks up key " + n.key + " to see the service holds it too"};
  }
  L10n which = looked_up_key(run, e.intent, n.key, n.step);
  return with_send_note({"客户端对账：用" + which.zh + "查询服务端", "the client reconciles: it looks up " + which.en}, e.local);
}

// A reply the client receives: what its outcome tells the client.
L10n client_receives(const Event& e, const Names& n) {
  const L10n& msg = n.msg;
  const std::string& key = n.key;
  const std::string& receipt = n.receipt;
  if (e.local.discarded.value_or(false)) {
    return {"客户端等" + msg.zh + "已经超时、关掉了连接：这个迟到的答复被丢掉，没有读",
            "the client stopped waiting for " + msg.en + " at its timeout and closed the connection: this late answer is dropped unread"};
  }
  std::string outcome = str(e.local.outcome);
  if (outcome == "ok" && e.local.replayed.value_or(false)) return {"客户端收到" + msg.zh + "：成功（200，标着“这是重放”），回执 " + receipt, "the client receives " + msg.en + ": done (200, marked as a replay), receipt " + receipt};
  if (outcome == "ok") return {"客户端收到" + msg.zh + "：成功，回执 " + receipt, "the client receives " + msg.en + ": done, receipt " + receipt};
  if (outcome == "error" && e.local.replayed.value_or(false)) return {"客户端收到" + msg.zh + "：500 服务器错误，标着“这是重放”——服务端只是把第一次请求存下的错误再答一遍，这次重试什么也没做成、什么也没问到", "the client receives " + msg.en + ": 500 Internal Server Error, marked as a replay — the service only repeats the error it saved for the first request, so this retry neither did nor learned anything"};
  if (outcome == "error" && str(e.local.reason) == reasons::kBadGateway) return {"客户端收到" + msg.zh + "：502 网关错误——这次请求没到服务端；之前的尝试有没有生效，这个答复不知道，结果仍未知", "the client receives " + msg.en + ": 502 Bad Gateway — this request never reached the service; whether an earlier attempt took effect, this answer cannot say, so the outcome is still unknown"};
  if (outcome == "error") return {"客户端收到" + msg.zh + "：500 服务器错误——服务端出错前可能已经提交，结果未知", "the client receives " + msg.en + ": 500 Internal Server Error — the service may have committed before it failed, so the outcome is unknown"};
  if (outcome == "refused" && n.m && n.m->kind == MessageKind::LookupReply) return {"客户端收到" + msg.zh + "：这个操作标识存着的是一次拒绝（429），什么也没做过", "the client receives " + msg.en + ": what the key holds is a refusal (429); nothing was ever done under it"};
  if (outcome == "refused" && e.local.earlier.value_or(false)) return {"客户端收到" + msg.zh + "：429 被拒绝——这一次请求什么也没做，可更早一次尝试也许已经生效，结果仍然未知", "the client receives " + msg.en + ": 429, refused — this request did nothing, but an earlier attempt may have taken effect, so the outcome is still unknown"};
  if (outcome == "refused" && e.local.retry_after_ms.value_or(0) > 0) {
    std::string after = std::to_string(e.local.retry_after_ms.value_or(0));
    return {"客户端收到" + msg.zh + "：429 被拒绝（限流或容量不足），Retry-After " + after + " ms——这一次请求什么也没做", "the client receives " + msg.en + ": 429, refused (throttled, or out of capacity), Retry-After " + after + " ms — this request did nothing"};
  }
  if (outcome == "refused") return {"客户端收到" + msg.zh + "：429 被拒绝（限流或容量不足）——这一次请求什么也没做", "the client receives " + msg.en + ": 429, refused (throttled, or out of capacity) — this request did nothing"};
  if (outcome == "rejected" && str(e.local.reason) == reasons::kMissingKey) return {"客户端收到" + msg.zh + "：400 请求有误——没带操作标识，服务端什么也没做", "the client receives " + msg.en + ": 400 Bad Request — it carried no key, and the service did nothing"};
  if (outcome == "rejected" && str(e.local.reason) == reasons::kAlreadyExists) return {"客户端收到" + msg.zh + "：409 已存在——操作标识 " + key + " 下已经有东西了，但答复没说是谁的、哪份内容", "the client receives " + msg.en + ": 409 already exists — something exists under key " + key + ", but the answer does not say whose, or which content"};
  if (outcome == "found") return {"客户端收到" + msg.zh + "：找到，回执 " + receipt, "the client receives " + msg.en + ": found, receipt " + receipt};
  // Only "this lookup saw no record now": a lagging replica or a forgotten record
  // answers the same (the service's not_found step says which).
  if (outcome == "not_found") {
    return {"客户端收到" + msg.zh + "：查不到操作标识 " + key + " 的记录——这只说明这次查询没看到，不说明请求从未生效",
            "the client receives " + msg.en + ": not found for key " + key +
                " — this lookup saw no record, which does not say the request never took effect"};
  }
  if (outcome == "in_progress") return {"客户端收到" + msg.zh + "：仍在处理中（409），结果未知", "the client receives " + msg.en + ": still in progress (409), the outcome is unknown"};
  std::string reason = str(e.local.reason);
  if (reason == reasons::kSameKeyDifferentPayload) return {"客户端收到" + msg.zh + "：422——这个操作标识已经用于别的内容", "the client receives " + msg.en + ": 422 — the key is already used for other content"};
  return {"客户端收到" + msg.zh + "：被拒绝（" + reason + "）", "the client receives " + msg.en + ": rejected (" + reason + ")"};
}

// A request (or the provider's ack) the service receives, and how it checks the key.
L10n service_receives(const Event& e, const Names& n) {
  const L10n& msg = n.msg;
  const std::string& key = n.key;
  if (n.m && n.m->kind == MessageKind::EmailAck) return {"服务端收到" + msg.zh + "（" + n.pw.key.zh + " " + n.email + "）", "the service receives " + msg.en + " (" + n.pw.key.en + " " + n.email + ")"};
  if (e.side == Side::Service && !e.local.key_sent.value_or(true)) {
    if (key.empty()) return {"服务端收到" + msg.zh + "：没带操作标识", "the service receives " + msg.en + ": it carries no key"};
    return {"服务端收到" + msg.zh + "：没带操作标识，它就当成一次新操作，自己起名 " + key + "——没有什么能和它比对",
            "the service receives " + msg.en + ": it carries no key, so the service takes it for a new operation and names it " + key + " itself — nothing can match it"};
  }
  std::string checked = str(e.local.checked);
  if (checked == "no_record") {
    return {"服务端收到" + msg.zh + "（操作标识 " + key + "）：此刻查不到去重记录，开始处理；处理完写入时不会再查一次",
            "the service receives " + msg.en + " (key " + key + "): it finds no dedup record now and starts processing; the insert at the end will not look again"};
  }
  if (checked == "never") {
    return {"服务端收到" + msg.zh + "（操作标识 " + key + "）：它从不查重复，这个标识不会拿去和任何记录比对",
            "the service receives " + msg.en + " (key " + key + "): it never looks for a repeat, so the key is compared with nothing"};
  }
  return {"服务端收到" + msg.zh + "（操作标识 " + key + "）", "the service receives " + msg.en + " (key " + key + ")"};
}

L10n describe_receive(const Event& e, const Run&, const Names& n) {
  if (e.side == Side::Client) return client_receives(e, n);
  if (e.side == Side::Provider) return {n.pw.provider.zh + "收到" + n.msg.zh + "（" + n.pw.key.zh + " " + n.email + "）", n.pw.provider.en + " receives " + n.msg.en + " (" + n.pw.key.en + " " + n.email + ")"};
  return service_receives(e, n);
}

L10n describe_timeout(const Event& e, const Run& run, const Names& n) {
  const ProviderWords& pw = n.pw;
  if (e.side == Side::Service) return {"转发器等" + pw.provider.zh + "的确认超时：" + pw.item.zh + " " + n.email + " 送到没有，结果未知；这一行仍是 pending", "the relay times out waiting for " + pw.provider.en + "'s ack: whether " + pw.item.en + " " + n.email + " arrived is unknown; its row stays pending"};
  if (str(e.local.awaited) == "layer") {
    std::string layer = str(e.local.layer);
    std::string ms = std::to_string(e.local.timeout_ms.value_or(0));
    return {"“" + layer + "”这一层的时限（" + ms + " ms）到了：它放弃这次调用——服务端可能还在做——结果未知",
            "the " + layer + " layer's timeout (" + ms + " ms) passes: it gives up on the call, which the service may still be running, and the outcome is unknown"};
  }
  // The reply it waited for: local.awaited names its kind, local.n its attempt or lookup.
  Message awaited;
  bool known = e.local.n.has_value() && parse(str(e.local.awaited), awaited.kind);
  if (!known) return {"客户端等答复超时", "the client times out waiting for a reply"};
  awaited.n = static_cast<int>(*e.local.n);
  L10n what = message_name(awaited, run.credits);
  return {"客户端等" + what.zh + "超时", "the client times out waiting for " + what.en};
}

L10n describe_record(const Event& e, const Run&, const Names& n) {
  std::string st = str(e.local.status);
  std::string extra_zh = n.receipt.empty() ? "" : "，回执 " + n.receipt;
  std::string extra_en = n.receipt.empty() ? "" : ", receipt " + n.receipt;
  std::string reason = str(e.local.reason);
  bool limit = reason == reasons::kBudgetSpent || reason == reasons::kDeadlinePassed || reason == reasons::kNotRetried ||
               reason == reasons::kLayersSpent;
  bool explained = reason == reasons::kAlreadyExists || reason == reasons::kInternalError || reason == reasons::kBadGateway || reason == reasons::kRefused ||
                   reason == reasons::kMissingKey || reason == reasons::kConnectRefused ||
                   reason == reasons::kReadBackMissing;
  if (reason == reasons::kSameKeyDifferentPayload) {
    extra_zh += "（422：同一个标识，内容不同）";
    extra_en += " (422: same key, different payload)";
    explained = true;
  }
  if (!reason.empty() && !limit && !explained) { extra_zh += "（" + reason + "）"; extra_en += " (" + reason + ")"; }
  L10n note = record_note(e.local);
  return {"客户端记下“" + e.intent + "”：" + st + extra_zh + note.zh,
          "the client records \"" + e.intent + "\": " + st + extra_en + note.en};
}

L10n describe_crash(const Event& e, const Run&, const Names&) {
  if (e.side != Side::Service) return {"客户端崩溃：内存状态丢失，数据库保留", "the client crashes: its memory is lost, its database is kept"};
  if (e.local.rolled_back.value_or(false)) {
    return {"服务端崩溃：未提交的事务被回滚，什么也没写下；内存中的处理状态丢失，数据库保留",
            "the service crashes: its open transaction is rolled back, so nothing of it is written; its memory (requests in progress) is lost, its database is kept"};
  }
  return {"服务端崩溃：内存中的处理状态丢失，数据库保留", "the service crashes: its memory (requests in progress) is lost, its database is kept"};
}

L10n describe_restart(const Event& e, const Run&, const Names&) {
  if (e.side == Side::Service) return {"服务端重启，重新打开数据库", "the service restarts and reopens its database"};
  return {"客户端重启，重新打开数据库", "the client restarts and reopens its database"};
}

L10n describe_recover(const Event& e, const Run&, const Names&) {
  std::string found;
  if (e.local.found) {
    for (const std::string& f : *e.local.found) found += (found.empty() ? "" : ", ") + f;
  }
  // A client running the learner's code: its on_restart decides what to look at.
  if (str(e.local.scan) == "code") return {"恢复：客户端的代码（on_restart）查看数据库里留下了什么", "recovery: the client's code (on_restart) looks at what its database holds"};
  bool pending = str(e.local.scan) == "unknown_and_pending";
  L10n what = pending ? L10n{"UNKNOWN 或遗留 PENDING 的意图", "UNKNOWN or stale PENDING intent"}
                      : L10n{"UNKNOWN 的意图", "UNKNOWN intent"};
  if (found.empty()) return {"恢复扫描：没有" + what.zh, "recovery scan: no " + what.en};
  return {"恢复扫描：发现" + what.zh + " " + found, "recovery scan: " + what.en + "s found: " + found};
}

L10n commit_text(const Event& e, const Names& n) {
  const std::string& key = n.key;
  const std::string& receipt = n.receipt;
  std::string ordering = str(e.local.ordering);
  if (ordering == "key_first") return {"服务端写入业务效果和回执 " + receipt + "（操作标识 " + key + "），去重记录已先行提交", "the service commits the effect and receipt " + receipt + " for key " + key + "; its dedup record was committed before"};
  if (ordering == "effect_first") return {"服务端先写入业务效果和回执 " + receipt + "（操作标识 " + key + "），去重记录还没写", "the service commits the effect and receipt " + receipt + " for key " + key + "; its dedup record is not written yet"};
  if (e.local.named_by_service.value_or(false)) return {"服务端在一个事务里写入业务效果和回执 " + receipt + "，记在它自己起的名字 " + key + " 下：下一个不带标识的请求，没有什么能和它对上", "the service commits the effect and receipt " + receipt + " under the name it gave it, " + key + ": nothing a later keyless request carries can match it"};
  if (str(e.local.dedup) == "none") return {"服务端没有查过重复，就在一个事务里写入业务效果和回执 " + receipt + "（操作标识 " + key + "）：每个到达的请求都会多一条业务效果", "the service commits the effect and receipt " + receipt + " for key " + key + " in one transaction, without having looked for a repeat: every request that reaches it makes one more effect"};
  return {"服务端在一个事务里写入去重记录、业务效果和回执 " + receipt + "（操作标识 " + key + "）", "the service commits the dedup record, the effect and receipt " + receipt + " for key " + key + " in one transaction"};
}

L10n describe_commit(const Event& e, const Run&, const Names& n) {
  // Under notify = outbox the effect's transaction also writes the email it owes.
  L10n owed = n.email.empty() ? L10n{"", ""}
                              : L10n{"；同一事务还写下一行 outbox：欠" + n.pw.one.zh + "（" + n.pw.key.zh + " " + n.email + "）",
                                     "; the same transaction writes an outbox row: " + n.pw.one.en + " owed (" + n.pw.key.en + " " + n.email + ")"};
  return L10n::join(commit_text(e, n), owed, "", "");
}

// A saved 429 or 500 replayed (stores_refusal, after_error = replay_error): no receipt to name.
L10n describe_replay(const Event& e, const Run&, const Names& n) {
  const std::string& key = n.key;
  const std::string& receipt = n.receipt;
  if (e.local.stored_status.value_or(0) == http::kRefused) return {"服务端在操作标识 " + key + " 下存着一次拒绝，内容相同：再答一次 429", "the service holds a refusal under key " + key + ", same payload: it answers 429 again"};
  if (e.local.stored_status.value_or(0) == http::kError) return {"服务端在操作标识 " + key + " 下存着第一次请求的 500，内容相同：原样再答 500，不看业务效果在不在，也不再做", "the service holds the 500 of the first request under key " + key + ", same payload: it answers that 500 again, whether or not the effect exists, and does no work"};
  std::string matched = str(e.local.matched_key);
  if (e.local.unchecked.value_or(false)) return {"服务端已有操作标识 " + key + "，却不比对内容：这次请求的内容和第一次不同，它照样重放第一次的回执 " + receipt + "，什么也不写——客户端会以为新内容做成了", "the service already has key " + key + " and does not compare content: this request's content differs from the first, yet it replays the first's receipt " + receipt + " and writes nothing — the client will take it for its new content done"};
  if (!matched.empty()) return {"服务端按内容哈希找到操作标识 " + matched + " 的记录，把这次请求当成重复：重放回执 " + receipt + "，不写业务效果", "the service finds the record of key " + matched + " by the payload fingerprint and treats this request as a repeat: it replays receipt " + receipt + " and writes no effect"};
  return {"服务端已有操作标识 " + key + "，内容相同：重放原回执 " + receipt, "the service already has key " + key + " with the same payload: it replays receipt " + receipt};
}

L10n describe_reject(const Event& e, const Run&, const Names& n) {
  const std::string& key = n.key;
  std::string reason = str(e.local.reason);
  if (reason == reasons::kMissingKey) return {"服务端拒绝，答复 400：这个操作要求带操作标识，请求却没带；什么也不做", "the service refuses with 400: this operation requires an operation key and the request has none; it does nothing"};
  if (reason == reasons::kAlreadyExists) return {"服务端按自然键创建：操作标识 " + key + " 已存在，答复“409 已存在”。它凭唯一键拒绝，不查存下的结果：答复里没有回执、没有内容（尽管它都有），什么也不写", "the service creates by natural key: key " + key + " already exists, so it answers 409 already exists. Its unique key refuses the insert without reading any stored result, so the answer carries no receipt and no content (though it holds both), and nothing is written"};
  return {"服务端拒绝，答复 422：操作标识 " + key + " 已用于不同内容，什么也不写", "the service rejects key " + key + " with 422: same key, different payload; it writes nothing"};
}

L10n describe_found(const Event& e, const Run&, const Names& n) {
  if (e.local.stored_status.value_or(0) == http::kRefused) return {"服务端查到操作标识 " + n.key + "：存着的是一次拒绝（429），没有业务效果", "the service finds key " + n.key + ": what it holds is a refusal (429), no effect"};
  return {"服务端查到操作标识 " + n.key + "：回执 " + n.receipt, "the service finds key " + n.key + ": receipt " + n.receipt};
}

L10n describe_not_found(const Event& e, const Run&, const Names& n) {
  const std::string& key = n.key;
  // local.why, from the service's own tables (engine/service/service.hpp).
  std::string why = str(e.local.why);
  if (why == reasons::kLaggingReplica) {
    std::string lag = std::to_string(e.local.lag_ms.value_or(0));
    std::string age = std::to_string(e.local.age_ms.value_or(0));
    return {"查不到：查询读的是落后 " + lag + " ms 的副本，而操作标识 " + key + " 的记录才写下 " + age + " ms，副本上还没有",
            "not found: the lookup reads a replica " + lag + " ms behind, and the record of " + key +
                ", written " + age + " ms ago, is younger than that"};
  }
  if (why == reasons::kExpired) {
    std::string at = std::to_string(e.local.expired_at.value_or(0));
    return {"查不到：操作标识 " + key + " 的记录在去重保留期过后（" + at + " ms 时）被删除了",
            "not found: the record of " + key + " was forgotten when its retention window passed (at " + at + " ms)"};
  }
  if (why == reasons::kBrokenRead) {
    return {"查不到：查询的读取路径坏了，无论服务端存着什么（包括操作标识 " + key + " 的记录），它都找不到",
            "not found: the lookup's read path is broken and finds nothing, whatever the service holds (the record of " +
                key + " included)"};
  }
  if (why == reasons::kStoredError) {
    return {"查不到：操作标识 " + key + " 下只存着一次 500，那次请求什么也没提交",
            "not found: key " + key + " holds only a saved 500, from a request that committed nothing"};
  }
  return {"查不到：服务端没有操作标识 " + key + " 的任何记录", "not found: no record of " + key};
}

L10n describe_reply(const Event&, const Run&, const Names& n) { return {"服务端发出" + n.msg.zh, "the service sends " + n.msg.en}; }

L10n describe_drop(const Event& e, const Run&, const Names& n) {
  if (str(e.local.reason) == reasons::kReceiverDown) return {n.msg.zh + "丢失：接收方已崩溃", n.msg.en + " is lost: the receiver is down"};
  return {"网络丢失了" + n.msg.zh, "the network loses " + n.msg.en};
}

L10n describe_register(const Event& e, const Run&, const Names& n) {
  if (str(e.local.ordering) == "key_first") return {"服务端先提交操作标识 " + n.key + " 的去重记录（回执 " + n.receipt + "），业务效果还没写", "the service commits the dedup record of key " + n.key + " (receipt " + n.receipt + "); the effect is not written yet"};
  return {"服务端补写操作标识 " + n.key + " 的去重记录（回执 " + n.receipt + "）", "the service commits the dedup record of key " + n.key + " (receipt " + n.receipt + ") after the effect"};
}

L10n describe_in_progress(const Event&, const Run&, const Names& n) {
  return {"服务端仍在处理操作标识 " + n.key + "：答复“处理中”（409）", "the service is still processing key " + n.key + ": it answers in progress (409)"};
}

L10n describe_expire(const Event&, const Run&, const Names& n) {
  return {"去重保留期已过：服务端删除操作标识 " + n.key + " 的去重记录（业务效果仍在）", "the retention window has passed: the service forgets the dedup record of key " + n.key + " (the effect stays)"};
}

L10n describe_redeliver(const Event& e, const Run&, const Names& n) {
  std::string lease = e.local.lease_ms.has_value() ? std::to_string(*e.local.lease_ms) : "?";
  const long long running = e.local.running.value_or(2);
  const std::string copies = std::to_string(running);
  L10n out{"队列给操作标识 " + n.key + " 的请求的租约（" + lease + " 毫秒）到期，而它还在处理中：队列把同一个请求再交给另一个工作者，" +
               (running == 2 ? std::string("两") : copies) + "份工作同时在跑",
           "the queue's lease (" + lease + " ms) on the request with key " + n.key + " runs out while it is still being processed: the queue hands the same request to another worker, and " +
               (running == 2 ? std::string("two") : copies) + " copies of the work run at once"};
  if (e.local.last.value_or(false)) {
    std::string times = std::to_string(limits::kMaxLeaseRedeliveries);
    out.zh += "。这是第 " + times + " 次再交付：idemlab 的队列最多再交付 " + times + " 次，之后不再交出（真实的队列可能一直交下去）";
    out.en += ". This is redelivery " + times + ", the last: idemlab's queue hands a request out again at most " + times +
              " times (a real queue may go on)";
  }
  return out;
}

L10n describe_connect_error(const Event& e, const Run&, const Names& n) {
  const std::string& intent = e.intent;
  std::string attempt = std::to_string(e.local.attempt.value_or(0));
  L10n who = e.local.reapply.value_or(false)
                 ? L10n{"期望状态控制器再应用一次“" + intent + "”，可", "a desired-state controller applies \"" + intent + "\" again, but "}
                 : L10n{"", ""};
  L10n head = with_send_note(L10n::join(who, {"客户端连不上服务端（连接被拒绝）：第 " + attempt + " 次尝试的请求（操作标识 " + n.key + "）根本没有发出去",
                                              "the client cannot connect (connection refused): the request of attempt " + attempt + " (key " + n.key + ") never leaves"},
                                        "", ""),
                             e.local);
  if (e.local.earlier.value_or(false)) {
    return L10n::join(head, {"。这一次是确定的错误，可客户端是从头重来的：之前那一轮也许已经发出过请求、已经生效，它无从知道，只有用同一个操作标识再发才安全",
                             ". A definite error about this request only: the client started over from nothing, and an earlier run may have sent the intent and taken effect for all it knows, so only a send under the same key is safe"},
                      "", "");
  }
  if (e.local.earlier_sent.value_or(false)) {
    return L10n::join(head, {"。这一次是确定的错误，可更早的尝试已经发出去了，也许已经生效：只有用同一个操作标识再发才安全",
                             ". A definite error about this request only: an earlier attempt did go out and may have taken effect, so only a send under the same key is safe"},
                      "", "");
  }
  return L10n::join(head, {"。这是确定的错误：它的请求一次也没发出去，服务端什么也不可能做，再发一次（哪怕换个标识）也是安全的",
                           ". A definite error: none of its requests has gone out, so the service cannot have done anything, and sending again, even under another key, is safe"},
                    "", "");
}

L10n describe_ignored(const Event& e, const Run&, const Names&) {
  std::string action = str(e.local.action);
  return {"脚本里的 " + action + " 什么也没做：此刻客户端还没有决定“" + e.intent + "”（它还没有这条记录）",
          "the script's " + action + " does nothing: the client has not decided \"" + e.intent + "\" yet (it has no row for it)"};
}

L10n describe_error(const Event& e, const Run&, const Names& n) {
  const std::string& key = n.key;
  bool stored = e.local.stored.value_or(false);
  bool committed = e.local.committed.value_or(false);
  if (stored && committed) return {"服务端已经提交了操作标识 " + key + " 的业务效果，随后出错：答复 500，并把这个 500 存成这个标识的结果（业务效果留着）", "the service has committed the effect for key " + key + ", then fails: it answers 500 and saves that 500 as the key's result (the effect stays)"};
  if (stored) return {"服务端处理操作标识 " + key + " 时出错，什么也没写成：答复 500，并把这个 500 存成这个标识的结果", "the service fails handling key " + key + " before writing any effect: it answers 500 and saves that 500 as the key's result"};
  if (committed) return {"服务端已经提交了操作标识 " + key + " 的业务效果，随后出错：答复 500，业务效果留着", "the service has committed the effect for key " + key + ", then fails: it answers 500, and the effect stays"};
  return {"服务端处理操作标识 " + key + " 时出错，什么也没写：答复 500", "the service fails handling key " + key + " before writing anything: it answers 500"};
}

L10n describe_refuse(const Event& e, const Run&, const Names& n) {
  const std::string& key = n.key;
  if (e.local.stored.value_or(false)) return {"服务端拒绝请求（429：限流或容量不足），什么也没做，但把这次拒绝连同内容存在操作标识 " + key + " 下——这个标识从此绑定了这份内容", "the service refuses the request (429: throttled, or out of capacity) and does nothing, but stores the refusal and its content under key " + key + " — the key is now bound to this content"};
  if (e.local.held.value_or(false)) return {"服务端拒绝请求（429：限流或容量不足），这一次什么也没做；操作标识 " + key + " 下已经有更早一次尝试留下的记录，这次拒绝碰不到它", "the service refuses the request (429: throttled, or out of capacity) and does nothing this time; key " + key + " already holds the record of an earlier attempt, which this refusal leaves as it is"};
  return {"服务端拒绝请求（429：限流或容量不足），什么也没做，操作标识 " + key + " 仍是空的", "the service refuses the request (429: throttled, or out of capacity), does nothing, and key " + key + " stays free"};
}

L10n describe_notify(const Event&, const Run&, const Names& n) {
  const ProviderWords& pw = n.pw;
  return {"服务端提交之后亲自调用" + pw.provider.zh + "，发出" + pw.item.zh + " " + n.email + "；没有任何持久的记录说它欠着这一条", "after its commit the service calls " + pw.provider.en + " itself and sends " + pw.item.en + " " + n.email + "; nothing durable records that it is owed"};
}

L10n describe_relay(const Event& e, const Run&, const Names& n) {
  const ProviderWords& pw = n.pw;
  std::string attempt = e.local.attempt.has_value() ? std::to_string(*e.local.attempt) : "?";
  return {"转发器取出 outbox 里 pending 的一行，记下第 " + attempt + " 次尝试，把" + pw.item.zh + " " + n.email + " 发给" + pw.provider.zh, "the relay takes the pending outbox row, counts try " + attempt + " in it, and sends " + pw.item.en + " " + n.email + " to " + pw.provider.en};
}

L10n describe_mark_sent(const Event&, const Run&, const Names& n) {
  return {"转发器收到确认，把" + n.pw.item.zh + " " + n.email + " 那一行 outbox 标为 sent", "the relay has the ack and marks the outbox row of " + n.pw.item.en + " " + n.email + " sent"};
}

// provider.effect = credit: the provider's lane stands in for a balance ledger.
L10n describe_accept_email(const Event& e, const Run& run, const Names& n) {
  const std::string& email = n.email;
  bool repeat = e.local.repeat.value_or(false);
  if (run.credits && repeat) return {"余额账本不按通知标识去重：通知 " + email + " 又记了一次，余额多加一次值，并回复确认", "the balance ledger does not deduplicate by key: notice " + email + " is credited again, one more credit to the balance, and it acks"};
  if (run.credits) return {"余额账本收下通知 " + email + "：余额加值一次，并回复确认", "the balance ledger takes notice " + email + ": one credit to the balance, and it acks"};
  if (repeat) return {"邮件服务商不按邮件标识去重：把 " + email + " 又投递了一次，收件人收到第二封同样的邮件，并回复确认", "the mail provider does not deduplicate by key: it delivers " + email + " again, the recipient gets a second copy, and it acks"};
  return {"邮件服务商把邮件 " + email + " 投进收件箱，并回复确认", "the mail provider puts email " + email + " in the inbox and acks it"};
}

L10n describe_dedup_email(const Event&, const Run& run, const Names& n) {
  if (run.credits) return {"余额账本已有通知标识 " + n.email + "：不再加值，只再回复一次确认", "the balance ledger already holds notice key " + n.email + ": it credits nothing more and acks again"};
  return {"邮件服务商已有邮件标识 " + n.email + "：不再投递，只再回复一次确认", "the mail provider already holds email key " + n.email + ": it delivers nothing new and acks again"};
}

L10n describe_gateway_error(const Event&, const Run&, const Names& n) {
  return {"服务端前面的网关答复 502（操作标识 " + n.key + "）：请求没交给服务端，它的去重层没看到，也就谈不上重放", "the gateway in front of the service answers 502 (key " + n.key + "): the request is not passed on, so the service's dedup layer never sees it, and nothing is replayed"};
}

L10n describe_lose_row(const Event& e, const Run&, const Names& n) {
  const std::string& intent = e.intent;
  if (str(e.local.reason) == to_string(RowPoint::NotSaved)) {
    return {"客户端在把状态存盘之前崩溃：意图“" + intent + "”那一行（操作标识 " + n.key + "）从没写到磁盘，重启后就没有了。请求却已经发出去了，业务效果可能已经发生",
            "the client crashes before its state is saved: the row for \"" + intent + "\" (key " + n.key +
                ") never reached the disk and is gone at restart. The request has left, and the effect may exist"};
  }
  return {"写下意图“" + intent + "”那一行的事务在请求发出之后回滚了：客户端没有了这一行（操作标识 " + n.key + " 也随之丢了），也不再等答复。请求却已经走了，业务效果可能已经发生",
          "the transaction that wrote the row for \"" + intent + "\" rolls back after the request left: the client has no row (key " + n.key +
              " is lost with it) and no longer waits for an answer. The request is on its way, and the effect may exist"};
}

using Narrator = L10n (*)(const Event&, const Run&, const Names&);
using Narrators = std::array<Narrator, kEventKindCount>;

// Each kind's narration, at its kind's index: set by name, so that no kind takes another's
// place, and checked below, so that a new kind without one does not compile.
constexpr Narrators narrators() {
  Narrators t{};
  auto at = [&t](EventKind kind) -> Narrator& { return t[static_cast<std::size_t>(kind)]; };
  at(EventKind::Start) = describe_start;
  at(EventKind::Decide) = describe_decide;
  at(EventKind::Persist) = describe_persist;
  at(EventKind::Send) = describe_send;
  at(EventKind::Lookup) = describe_lookup;
  at(EventKind::Receive) = describe_receive;
  at(EventKind::Timeout) = describe_timeout;
  at(EventKind::Record) = describe_record;
  at(EventKind::Crash) = describe_crash;
  at(EventKind::Restart) = describe_restart;
  at(EventKind::Recover) = describe_recover;
  at(EventKind::Commit) = describe_commit;
  at(EventKind::Replay) = describe_replay;
  at(EventKind::Reject) = describe_reject;
  at(EventKind::Found) = describe_found;
  at(EventKind::NotFound) = describe_not_found;
  at(EventKind::Reply) = describe_reply;
  at(EventKind::Drop) = describe_drop;
  at(EventKind::Register) = describe_register;
  at(EventKind::InProgress) = describe_in_progress;
  at(EventKind::Expire) = describe_expire;
  at(EventKind::Redeliver) = describe_redeliver;
  at(EventKind::ConnectError) = describe_connect_error;
  at(EventKind::Ignored) = describe_ignored;
  at(EventKind::Error) = describe_error;
  at(EventKind::Refuse) = describe_refuse;
  at(EventKind::Notify) = describe_notify;
  at(EventKind::Relay) = describe_relay;
  at(EventKind::MarkSent) = describe_mark_sent;
  at(EventKind::AcceptEmail) = describe_accept_email;
  at(EventKind::DedupEmail) = describe_dedup_email;
  at(EventKind::GatewayError) = describe_gateway_error;
  at(EventKind::LoseRow) = describe_lose_row;
  return t;
}

constexpr Narrators kNarrators = narrators();

constexpr bool every_kind_narrated(const Narrators& t) {
  for (Narrator f : t) {
    if (f == nullptr) return false;
  }
  return true;
}
static_assert(every_kind_narrated(kNarrators), "an EventKind has no narration: add its describe_* to narrators()");

}  // namespace

L10n describe(const Step& s, const Run& run) {
  const Event& e = s.event;
  const auto index = static_cast<std::size_t>(e.type);
  if (index >= kNarrators.size()) return {e.name(), e.name()};
  const Message* m = e.message >= 0 ? &run.messages[e.message] : nullptr;
  const Names names{str(e.local.op_key), str(e.local.receipt), str(e.local.email_key), m,
                    m ? message_name(*m, run.credits) : L10n{"消息", "a message"}, provider_words(run.credits), s.i};
  return kNarrators[index](e, run, names);
}

}  // namespace idemlab
