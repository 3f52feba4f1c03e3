#pragma once
// What one simulated run yields: the timeline, one Step per event, each with a snapshot of
// both sides (docs/design.md, "The model"), and every message with its fate.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/faults/fault.hpp"
#include "engine/sim/events.hpp"
#include "engine/sim/local_view.hpp"

namespace idemlab {

/// Client intent statuses. PENDING -> DELIVERED, PENDING -> UNKNOWN -> DELIVERED,
/// CONFLICT (a definite rejection), FAILED (only the wrong on_timeout policy writes it
/// after an indefinite error), NEEDS_HUMAN (budget spent, outcome still unknown).
namespace status {
inline constexpr const char* kPending = "PENDING";
inline constexpr const char* kUnknown = "UNKNOWN";
inline constexpr const char* kDelivered = "DELIVERED";
inline constexpr const char* kFailed = "FAILED";
inline constexpr const char* kConflict = "CONFLICT";
inline constexpr const char* kNeedsHuman = "NEEDS_HUMAN";
}  // namespace status

/// How a client's `record` step classifies the error behind it (its local.error).
/// docs/design.md: only a definite error may end an intent as failed; an indefinite one leaves
/// it UNKNOWN until reconciled.
namespace error_kind {
inline constexpr const char* kDefinite = "definite";      ///< it certainly did not take effect (a rejection)
inline constexpr const char* kIndefinite = "indefinite";  ///< it may have (a timeout, a reply that leaves it open)
}  // namespace error_kind

// Side, EventKind and the event table: engine/sim/events.hpp.

struct Message {
  int id = 0;
  MessageKind kind = MessageKind::Request;
  Side from = Side::Client, to = Side::Service;
  std::string intent;
  /// attempt (request/response), lookup count (lookup/lookup_reply) or the intent's email
  /// send count (email/email_ack)
  int n = 1;
  std::string op_key;  ///< email/email_ack: the operation key of the effect notified about
  std::string email_key;  ///< email/email_ack only: the email's key (provider dedup)
  std::string payload;      ///< request only
  /// request: its payload's fingerprint; an ok response or a found lookup reply: the
  /// fingerprint of the content the receipt is for
  std::string fingerprint;
  /// Replies: "ok" (receipt), "rejected" (reason: same_key_different_payload, 422, or
  /// already_exists, 409), "found" (receipt), "not_found", "in_progress" (the key is still
  /// being processed: an indefinite error), "error" (500: indefinite, the work may have
  /// committed), "refused" (429, reason refused: definite, nothing done).
  std::string outcome;
  std::string receipt;
  std::string reason;
  /// Replies: the HTTP status the answer stands for (Service::http_status).
  int http = 0;
  /// A 429 response: its Retry-After header, how long to wait before sending again
  /// (virtual ms; 0: none).
  std::int64_t retry_after_ms = 0;
  /// An ok response answered from the stored result, not from new work: Stripe's
  /// `Idempotent-Replayed: true` header.
  bool replayed = false;
  /// Request only: whether it carries its operation key (an Idempotency-Key header);
  /// false under ClientPolicy::sends_key = false, when op_key is the client's own record
  /// only and the service never sees it.
  bool key_sent = true;
  /// A keyless request the service handles under a name of its own (op_key "nokey-…",
  /// ServiceContract::missing_key = process).
  bool named_by_service = false;
  std::int64_t sent_at = 0;
  int sent_step = 0;
  enum class Fate { InFlight, Delivered, Dropped } fate = Fate::InFlight;
  std::int64_t end_at = 0;
  int end_step = -1;
};

/// One row of the client's `intents` table.
struct IntentRow {
  std::string intent, op_key, fingerprint, payload, status;
  std::optional<std::string> receipt;
  long long attempts = 0;
  bool operator==(const IntentRow& o) const {
    return intent == o.intent && op_key == o.op_key && fingerprint == o.fingerprint &&
           payload == o.payload && status == o.status && receipt == o.receipt &&
           attempts == o.attempts;
  }
};

/// One row of the client's `earlier_versions` table: content an intent was sent with before
/// resend_changed_payload replaced it, with what the client knew of that content when it
/// was replaced (its status and receipt). Kept, not overwritten: its effect may exist, and
/// its receipt is the client's proof of it. version counts from 1 per intent.
struct EarlierVersionRow {
  std::string intent;
  long long version = 1;
  std::string op_key, fingerprint, payload, status;
  std::optional<std::string> receipt;
  bool operator==(const EarlierVersionRow& o) const {
    return intent == o.intent && version == o.version && op_key == o.op_key && fingerprint == o.fingerprint &&
           payload == o.payload && status == o.status && receipt == o.receipt;
  }
};

/// One row of the service's `deliveries` table: one effect and its receipt. The same
/// op_key appears twice when a broken ordering let a retry make a second effect.
/// created_at in virtual ms.
struct DeliveryRow {
  std::string op_key, fingerprint, receipt;
  long long created_at = 0;
  long long id = 0;  ///< the row's INTEGER PRIMARY KEY (from 1, in insertion order)
  bool operator==(const DeliveryRow& o) const {
    return id == o.id && op_key == o.op_key && fingerprint == o.fingerprint && receipt == o.receipt &&
           created_at == o.created_at;
  }
};

/// One row of the service's `idempotency_keys` table: the dedup record of an operation
/// key (what a repeat of the key is answered from, and what lookup reads). created_at in
/// virtual ms; the record is forgotten ServiceContract::retention_ms after it.
struct KeyRow {
  std::string op_key, fingerprint, receipt;
  long long created_at = 0;
  /// The HTTP status of the stored result: 201 (an effect, `receipt` its receipt) or 429 (a
  /// stored refusal, ServiceContract::stores_refusal: no receipt, no effect).
  long long status = 201;
  bool operator==(const KeyRow& o) const {
    return op_key == o.op_key && fingerprint == o.fingerprint && receipt == o.receipt &&
           created_at == o.created_at && status == o.status;
  }
};

/// One row of the service's `outbox` table (ServiceContract::notify = outbox): an email
/// the service owes, written in the same transaction as the effect. status "pending" until
/// the relay gets the provider's ack, then "sent"; attempts: the relay's sends of it.
/// email_key is the email's idempotency key at the provider. created_at in virtual ms.
struct OutboxRow {
  long long id = 0;
  std::string email_key, op_key, receipt, status;
  long long attempts = 0;
  long long created_at = 0;
  bool operator==(const OutboxRow& o) const {
    return id == o.id && email_key == o.email_key && op_key == o.op_key && receipt == o.receipt &&
           status == o.status && attempts == o.attempts && created_at == o.created_at;
  }
};

/// One email the mail provider holds (delivered to the recipient's inbox): the observer's
/// truth about notifications. id from 1 in arrival order; received_at in virtual ms.
struct EmailRow {
  long long id = 0;
  std::string email_key, op_key, receipt;
  long long received_at = 0;
  bool operator==(const EmailRow& o) const {
    return id == o.id && email_key == o.email_key && op_key == o.op_key && receipt == o.receipt &&
           received_at == o.received_at;
  }
};

/// The rows of one table as of one step (or another list a snapshot holds, such as
/// message ids). Steps share the same rows until a write changes them, so a snapshot per
/// step copies no row; no rows are held as no vector at all, so an empty table costs a
/// step nothing (not even a reference count).
template <typename Row>
class Rows {
 public:
  Rows() = default;
  explicit Rows(std::vector<Row> rows) {
    if (!rows.empty()) rows_ = std::make_shared<const std::vector<Row>>(std::move(rows));
  }
  typename std::vector<Row>::const_iterator begin() const { return get().begin(); }
  typename std::vector<Row>::const_iterator end() const { return get().end(); }
  std::size_t size() const { return rows_ ? rows_->size() : 0; }
  bool empty() const { return !rows_; }
  const Row& operator[](std::size_t i) const { return (*rows_)[i]; }
  bool operator==(const Rows& o) const { return rows_ == o.rows_ || get() == o.get(); }
  /// Becomes the rows of `v` if it differs from them (element by element), and returns
  /// itself: a list kept outside the snapshots is shared again, not copied, on each step
  /// it did not change.
  const Rows& follow(const std::vector<Row>& v) {
    if (get() != v) *this = Rows(v);
    return *this;
  }
  /// The one vector these rows are, shared by every snapshot that holds them (nullptr: no
  /// rows): what an estimate of a run's bytes counts once (Run::heap_bytes).
  const std::vector<Row>* storage() const { return rows_.get(); }

 private:
  const std::vector<Row>& get() const {
    static const std::vector<Row> none;
    return rows_ ? *rows_ : none;
  }
  std::shared_ptr<const std::vector<Row>> rows_;  // null: no rows
};

/// A reply the client is waiting for (volatile: lost when the client crashes).
struct Waiting {
  std::string intent;
  MessageKind for_kind = MessageKind::Response;
  int n = 1;
  std::int64_t deadline = 0;
  bool operator==(const Waiting& o) const {
    return intent == o.intent && for_kind == o.for_kind && n == o.n && deadline == o.deadline;
  }
};

/// A request the service is still processing (volatile: lost when the service crashes).
/// `until`: when it will commit (virtual ms).
struct InProgress {
  std::string op_key, fingerprint;
  std::int64_t until = 0;
  bool operator==(const InProgress& o) const {
    return op_key == o.op_key && fingerprint == o.fingerprint && until == o.until;
  }
};

/// An email the outbox relay sent and awaits the provider's ack for (volatile: lost when
/// the service crashes). n: the intent's email send count; deadline in virtual ms.
struct RelayWait {
  std::string email_key, intent;
  int n = 1;
  std::int64_t deadline = 0;
  bool operator==(const RelayWait& o) const {
    return email_key == o.email_key && intent == o.intent && n == o.n && deadline == o.deadline;
  }
};

struct Snapshot {
  bool client_alive = true;
  bool service_alive = true;
  Rows<IntentRow> intents;             ///< durable, kept across a crash
  Rows<EarlierVersionRow> earlier;     ///< durable: intents' content before it was changed
  Rows<Waiting> waiting;               ///< volatile
  Rows<KeyRow> keys;                   ///< durable: the service's dedup records
  Rows<DeliveryRow> deliveries;        ///< durable: the service's effects
  Rows<InProgress> in_progress;        ///< volatile: the service's requests in progress
  Rows<OutboxRow> outbox;              ///< durable: the emails the service owes (notify = outbox)
  Rows<RelayWait> relay_waiting;       ///< volatile: the relay's sends awaiting an ack
  Rows<EmailRow> emails;               ///< the mail provider's inbox (notify != none)
  Rows<int> in_flight, delivered, dropped;  ///< message ids (Message::id), in send order
};

struct Event {
  Event() = default;
  /// `local` is moved in (constructed from it: cheaper than assigned, LocalView being large).
  Event(EventKind type, Side side, int message, const std::string& intent, LocalView&& local)
      : type(type), side(side), message(message), intent(intent), local(std::move(local)) {}
  EventKind type = EventKind::Start;  ///< its row in event_table()
  /// Its name, as in a step's JSON and a moment's `event` (event_row(type).name).
  const char* name() const { return event_row(type).name; }
  Side side = Side::None;
  int message = -1;  ///< the message sent, received or lost by this event
  std::string intent;
  /// What the side itself observed (op_key, fingerprint, status, receipt, reason, ...).
  /// Together with kind, side and time it forms the side's local view (knowledge).
  LocalView local;
};

struct Step {
  Step() = default;
  /// The step's event built in place (Simulation::emit), from its parts; its snapshot
  /// is then written in place by the nodes.
  Step(int i, std::int64_t t, EventKind kind, Side side, int message, const std::string& intent, LocalView&& local)
      : i(i), t(t), event(kind, side, message, intent, std::move(local)) {}
  int i = 0;
  std::int64_t t = 0;  ///< virtual ms
  Event event;
  Snapshot snap;
};

/// Why a run stopped: nothing left to happen (settled), Simulation::kMaxSteps steps
/// recorded (step_limit), or the next event lay past Simulation::kHorizonMs (horizon).
enum class StopReason { Settled, StepLimit, Horizon };

struct Run {
  std::vector<Step> steps;
  StopReason stop = StopReason::Settled;
  /// Every message sent, by Message::id. A deque: a message stays where it is while later
  /// ones are sent, so a receiver is handed the stored message itself (Simulation::arrive).
  std::deque<Message> messages;
  /// Injection points this run passed, as single faults (for enumerating the fault space),
  /// in the order passed (a point passed twice appears twice).
  std::vector<Fault> points;
  /// Where each of `points` was passed (same index): `step` is the index of the next step
  /// recorded after the pass (the point lies just before it), `t` the virtual time in ms,
  /// `message` the message a drop point is about (-1 for crash points). What a front end
  /// needs to draw a point as a target on the timeline. `work`: which event of the
  /// simulation's queue passed it (0 for the first performed; Simulation::pause_before_work).
  struct PointWhere {
    int step = 0;
    std::int64_t t = 0;
    int message = -1;
    int work = 0;
  };
  std::vector<PointWhere> point_where;
  /// The faults of the plan that fired in this run, in the order they fired (a planned
  /// fault at a point the run never reaches does not fire).
  std::vector<Fault> fired;
  /// op_key -> intent, as the observer knows it (the service does not).
  std::map<std::string, std::string> key_owner;
  /// The service's lookup as the scenario sets it (for the facts about lookup).
  bool lookup_offered = true;
  std::int64_t lookup_lag_ms = 0;
  bool lookup_broken = false;  ///< ServiceContract::read_path is Broken: lookup finds nothing
  /// Whether a lookup at `now` sees a dedup record made at `created_at`, on a replica
  /// lookup_lag_ms behind (virtual ms): only records at least that old are there, and none
  /// on a broken read path. The service answers by the same rule (Service::lookup) and the
  /// facts about lookup judge by it.
  bool lookup_sees(long long created_at, std::int64_t now) const {
    return !lookup_broken && lookup_sees_at(created_at, now, lookup_lag_ms);
  }
  static bool lookup_sees_at(long long created_at, std::int64_t now, std::int64_t lag_ms) {
    return created_at + lag_ms <= now;
  }
  /// The client makes a new operation key per attempt (ClientPolicy::key_scope = attempt):
  /// the timeline texts then name the attempt a looked-up key belongs to.
  bool key_per_attempt = false;
  /// The service notifies a mail provider (notify != none) / through an outbox: the
  /// timeline then shows the provider's inbox / the outbox table.
  bool mail = false;
  bool outbox = false;
  /// Each notice the provider takes in is a credit to a balance (provider.effect = credit):
  /// the texts count credits, not emails.
  bool credits = false;
  /// The service takes time to process a request (processing_ms > 0): only then can two
  /// run at once, and the timeline shows the concurrent_execution flag.
  bool processing = false;

  /// An estimate of the heap bytes the run holds (engine/base/bytes.hpp): its steps with
  /// their events and snapshots, messages, points and faults. Rows shared between
  /// snapshots, of this run or of runs forked from the same one, are counted once:
  /// `counted` holds those already counted (Rows::storage), and gets this run's.
  std::size_t heap_bytes(std::set<const void*>& counted) const;
  /// What the run holds in the page's engine (WASM), counted with the same numbers on every
  /// platform (so that a limit on it refuses the same lessons natively and in WASM): wasm32's
  /// sizes per step, message and point passed, and per table and row of the snapshots with
  /// the rows' texts (rows shared between snapshots once: `counted`, as for heap_bytes).
  long long footprint(std::set<const void*>& counted) const;
  /// The table rows its steps show, summed over the steps (a run's timeline, `run`'s answer,
  /// writes each step's tables out whole).
  long long shown_rows() const;
};

}  // namespace idemlab
