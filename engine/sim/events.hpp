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

/// One per row of event_table(), in its order.
enum class EventKind : std::uint8_t {
  Start, Decide, Persist, Send, Lookup, Receive, Timeout, Record, Crash, Restart, Recover, Commit,
  Replay, Reject, Found, NotFound, Reply, Drop, Register, InProgress, Expire, Redeliver,
  ConnectError, Ignored, Error, Refuse, Notify, Relay, MarkSent, AcceptEmail, DedupEmail, GatewayError,
};
/// How many kinds there are: the last kind's index + 1 (a kind added after GatewayError
/// moves it; tests/engine/describe_test.cpp checks it against event_table()). What a
/// table indexed by kind is sized by, at compile time.
inline constexpr std::size_t kEventKindCount = static_cast<std::size_t>(EventKind::GatewayError) + 1;

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
