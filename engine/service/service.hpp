#pragma once
// The mock service: one SQLite database with two tables,
//   idempotency_keys(op_key TEXT PRIMARY KEY, fingerprint, receipt, created_at, status)
//     the dedup record of each operation key: what a repeat is answered from and what
//     lookup reads; status is the HTTP status of the stored result, 201, or 429 for a
//     stored refusal (stores_refusal, receipt '');
//   deliveries(id INTEGER PRIMARY KEY, op_key, fingerprint, receipt, created_at)
//     one row per effect (the same op_key appears twice when a broken ordering let a
//     retry make a second effect).
//   outbox(id INTEGER PRIMARY KEY, email_key UNIQUE, op_key, receipt, status, attempts,
//          created_at)
//     under notify = outbox, one row per notification email owed, written in the same
//     transaction as the effect; status 'pending' until the relay has the provider's ack,
//     then 'sent'.
//   expired_keys(op_key TEXT PRIMARY KEY, expired_at)
//     a tombstone per dedup record forgotten when its retention window passed, written in
//     the transaction that deletes the record. It answers nothing a request or lookup can
//     see: it lets the service say truthfully, in its not_found step, why a lookup found
//     nothing (not shown in the timeline's tables).
// Times are virtual ms. The contract's knobs are ServiceContract (engine/scenario/scenario.hpp).
//
// submit(op_key, payload), the behaviour of the IETF Idempotency-Key HTTP header draft
// (draft-ietf-httpapi-idempotency-key-header):
//  - a request whose key is still being processed (processing_ms > 0) is answered
//    `in_progress` at once (the draft's 409 Conflict): an indefinite error for the client;
//  - a repeat of a key already committed is answered at once (replay or 422 below), with
//    no processing window: only a key with no dedup record yet is processed for
//    processing_ms (and is in progress meanwhile);
//  - a known key with the same fingerprint replays the stored receipt;
//  - a known key with another fingerprint is rejected `same_key_different_payload` (the
//    draft's 422) and nothing is written;
//  - an unknown key writes the dedup record and the effect, in the contract's ordering:
//    atomic (one transaction), key_first or effect_first (two commits, a crash between
//    them leaves one without the other).
// Under dedup = fingerprint the record is found by the payload fingerprint instead of the
// key: two intents with the same content are merged into one effect (the mistake). Under
// dedup = none no record is ever looked for: every request makes an effect.
// concurrent_same_key (with processing_ms > 0): reject is the 409 above; process_both has
// no in-progress guard (the second request is processed too, and the check at its commit
// replays the first's record); check_then_insert has no guard and looks for the record
// when the request arrives, not at the commit, so two requests with one key inside the
// window both commit an effect (a check-then-insert race, as in a job queue's push).
// Every answer carries the HTTP status it stands for (http_status) and a replay its
// marker (Stripe's `Idempotent-Replayed: true`). Where the contract says so:
//  - on_repeat = already_exists: a repeat is answered "409 already exists" (a create by
//    natural key: no stored result, no receipt, whatever the content);
//  - fault service_error: a 500 before the commit (nothing written) or after it (the
//    effect exists: the service is up, only the answer is an error), or a 429
//    refusal on arrival (nothing done; with stores_refusal stored under the key: a repeat
//    with the same content is refused again, replayed, one with changed content gets the
//    422 above, and lookup answers refused).
// lookup(op_key): found + receipt, not_found, or in_progress. It reads a replica that lags
// lookup_lag_ms behind, and a record forgotten after retention_ms is not found. The
// not_found step's local view says why (local.why): lagging_replica (the record exists,
// younger than lag_ms: local.lag_ms, local.age_ms), expired (forgotten at
// local.expired_at, from expired_keys) or no_record (no record of the key, ever).
//
// The notification email of each new effect (ServiceContract::notify), the course's "next
// delivery boundary": a database row is not an email sent.
//  - direct: after the commit (and the after_commit crash point) the service sends the
//    email to the mail provider itself, then replies. Nothing durable says an email is
//    owed: a crash before the call loses it for good, and a retry is replayed.
//  - outbox (the transactional outbox pattern): the commit also writes an outbox row. A
//    relay, part of the service process, runs after each commit, after a restart and when
//    it times out waiting for an ack (Timing::timeout_ms): it sends every pending row's
//    email under the row's email_key (counting the try in the row first) and, on the
//    provider's ack, marks the row sent. A crash after the send and before the mark leaves
//    the row pending, so the relay sends it again after the restart: the provider sees the
//    same email twice and only its dedup on the key keeps the inbox at one. A row is tried
//    at most kRelayMaxAttempts times, then left pending for a person.
//
// lease_ms (a queue in front of the workers): a request still processed when its lease runs
// out is handed out again (a `redeliver` step) and processed a second time beside the
// first, as the same message (no in-progress answer stops it): the redelivered copy finds
// the first's record at its commit and replays it, or under check_then_insert commits a
// second effect. Either way two executions run at once (concurrent_execution).
//
// A crash (fault crash_service) loses the requests in progress and the relay's waits, and
// keeps the database; an open transaction is rolled back. A message that reaches a crashed
// service is lost.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/scenario/scenario.hpp"
#include "engine/sim/node.hpp"
#include "engine/store/database.hpp"

namespace idemlab {

/// What the service is built with: its own contract and nothing of another side's.
struct ServiceSetup {
  ServiceContract contract;
  /// How long the outbox relay waits for the provider's ack (virtual ms; Timing::timeout_ms).
  std::int64_t relay_timeout_ms = 0;
  /// Its seed for the receipts and names it draws (Scenario::seed).
  std::uint64_t seed = 1;
};

class Service final : public Node {
 public:
  Service(Env& env, ServiceSetup setup);
  /// A copy of `from` working in `env` (Simulation::fork): its own database holding the
  /// same rows, or with `take`, from's own database (`from` is then left without one).
  /// `from` has no transaction open.
  Service(Env& env, Service& from, bool take);
  bool alive() const override { return alive_; }
  /// Handles a request or lookup that reached the (alive) service; records its steps and
  /// replies. An email_ack from the mail provider is recorded, and under notify = outbox
  /// marks its outbox row sent.
  void on_message(const Message& m) override;
  void snapshot(Snapshot& into) override;
  std::unique_ptr<Node> fork(Env& env, bool take) override;
  /// A request with no key (Message::key_sent false): refused 400 under missing_key =
  /// reject, else handled as a new operation under a key the service makes for it.
  void on_keyless(const Message& m);
  /// The process dies: requests in progress are forgotten, an open transaction is rolled
  /// back, the database is kept. Records a `crash` step.
  void crash() override;
  /// The process starts again on its database; records a `restart` step, then forgets the
  /// dedup records whose retention window passed while it was down, and (notify = outbox)
  /// runs the relay over the rows still pending.
  void restart() override;
  /// Every row of `idempotency_keys` / `deliveries`, in insertion order.
  Rows<KeyRow> keys();
  Rows<DeliveryRow> rows();
  /// Every row of `outbox`, by id.
  Rows<OutboxRow> outbox();
  /// The requests in progress (volatile), in arrival order.
  const std::vector<InProgress>& in_progress() const { return in_progress_; }
  /// The relay's sends awaiting the provider's ack (volatile), in send order.
  const std::vector<RelayWait>& relay_waiting() const { return relay_waiting_; }

  /// Whether a lookup at `now` sees a dedup record made at `created_at`, on a replica
  /// `lag_ms` behind (virtual ms): only records at least that old are there.
  static bool lookup_sees(long long created_at, std::int64_t now, std::int64_t lag_ms) {
    return Run::lookup_sees_at(created_at, now, lag_ms);
  }

  // The reasons its answers and steps carry (engine/sim/events.hpp, namespace reasons).
  static constexpr const char* kSameKeyDifferentPayload = reasons::kSameKeyDifferentPayload;
  /// The reason of a "rejected" answer to a repeat under on_repeat = already_exists (409).
  static constexpr const char* kAlreadyExists = reasons::kAlreadyExists;
  /// The reason of a "rejected" answer (400) to a request with no key (missing_key = reject).
  static constexpr const char* kMissingKey = reasons::kMissingKey;
  /// The reason of an "error" answer (500) and of a "refused" one (429).
  static constexpr const char* kInternalError = reasons::kInternalError;
  static constexpr const char* kRefusedReason = reasons::kRefused;
  /// The HTTP status of a refusal (a throttle, no capacity), as stored under a key (stores_refusal).
  static constexpr long long kRefusedStatus = http::kRefused;
  /// The HTTP status of an internal error, as stored under a key (after_error = replay_error).
  static constexpr long long kErrorStatus = http::kError;
  /// The HTTP status an answer stands for (Message::http): ok 201 (200 when `replayed`),
  /// found 200, not_found 404, in_progress 409 (IETF draft), rejected 422 (IETF draft:
  /// same key, different payload), 409 (already_exists) or 400 (missing_key: no key
  /// sent, IETF draft), error 500, refused 429 (a
  /// lookup that finds a stored refusal: 200, answering refused).
  static int http_status(MessageKind kind, const std::string& outcome, const std::string& reason, bool replayed);
  /// local.why of a not_found step (see lookup above).
  static constexpr const char* kLaggingReplica = reasons::kLaggingReplica;
  static constexpr const char* kExpired = reasons::kExpired;
  static constexpr const char* kNoRecord = reasons::kNoRecord;
  /// The key holds a saved 500 from a request that committed nothing (after_error =
  /// replay_error): nothing to find.
  static constexpr const char* kStoredError = reasons::kStoredError;
  /// Sends of one outbox row before the relay leaves it pending for a person.
  static constexpr int kRelayMaxAttempts = 5;

 private:
  bool in_progress(const Message& m) const;
  /// The dedup record a request is a repeat of: (fingerprint, receipt, op_key), found by
  /// its key, or under dedup = fingerprint by its payload fingerprint; empty if none.
  std::vector<SqlRow> dedup_record(const Message& m);
  /// Answers a request from its dedup record, or writes it as new; `look` false: writes it
  /// as new without looking (concurrent_same_key = check_then_insert, whose one look
  /// was on arrival).
  void submit(const Message& m, bool look = true);
  void processed(const Message& m, int epoch);
  /// Schedules the end of processing `m` (processing_ms from now) and, under a lease
  /// shorter than that, its redelivery; `redelivered`: how often the queue has handed it
  /// out again so far.
  void start_processing(const Message& m, int redelivered);
  /// The lease on `m` ran out while it is still processed: a `redeliver` step, and the
  /// same request processed again, as the n-th redelivery.
  void redeliver(const Message& m, int epoch, int n);
  void write_new(const Message& m);
  /// Fault service_error refused: refuses `m` with 429 before looking at its key (and,
  /// with stores_refusal, stores the refusal under it).
  void refuse(const Message& m);
  /// Fault service_error before_commit / after_commit: answers `m` with 500 (`committed`:
  /// the effect was written first).
  void fail(const Message& m, bool committed);
  void lookup(const Message& m);
  /// Schedules expire_due for a record written now, if ServiceContract::retention_ms
  /// says it is forgotten within the run.
  void expire_later();
  void expire_due();
  /// Puts an email about `op_key`'s effect in flight to the mail provider; returns its
  /// message id (its send number is the message's n).
  int send_email(const std::string& intent, const std::string& op_key, const std::string& email_key,
                 const std::string& receipt);
  /// notify = direct: the call right after the commit. False if the service crashed after it.
  bool notify_directly(const std::string& intent, const std::string& op_key, const std::string& email_key,
                       const std::string& receipt);
  void relay();
  void relay_timeout(const std::string& email_key, int n, int epoch);
  void on_email_ack(const Message& m);
  /// The intent label the requests of `op_key` carried (Message::intent), as the service
  /// kept it with its record of the key ("" for none): learned from the messages, as a
  /// real service keeps a request's trace id.
  std::string intent_of(const std::string& op_key) const;
  /// Binds `op_key` to the intent label of `m` where a record of the key is written, and
  /// notes it for the observer (Env::own_key).
  void bind_key(const std::string& op_key, const Message& m);
  int record(EventKind kind, const std::string& intent, LocalView&& local, int message = -1);
  /// `fingerprint`: for an ok response or a found lookup reply, the fingerprint of the
  /// content the receipt is for (as a Stripe or IETF-draft service returns the original
  /// request with a replay), so the client can tell whose receipt it holds.
  void reply(const Message& to, MessageKind kind, const std::string& outcome,
             const std::string& receipt, const std::string& reason, const std::string& fingerprint = "",
             bool replayed = false);

  Env& env_;
  ServiceSetup setup_;
  const ServiceContract& contract() const { return setup_.contract; }
  Database db_;
  // The intent label of each key it holds a record of (intent_of): durable like the
  // records (a crash keeps it), never shown in its tables.
  std::map<std::string, std::string> intent_of_key_;
  bool alive_ = true;
  int epoch_ = 0;  // bumped by a crash: work scheduled in an earlier life does nothing
  std::vector<InProgress> in_progress_;
  std::vector<RelayWait> relay_waiting_;
  // The two volatile lists as the last snapshot shared them (a step that did not change
  // them shares them again).
  Rows<InProgress> in_progress_seen_;
  Rows<RelayWait> relay_waiting_seen_;
  long long begun_at_ = 0;         // db_.changes() when the open transaction began
  Rows<KeyRow> keys_;              // the last read of `idempotency_keys`
  long long keys_read_at_ = -1;    // db_.changes() when keys_ was read
  Rows<DeliveryRow> rows_;         // the last read of `deliveries`
  long long rows_read_at_ = -1;    // db_.changes() when rows_ was read
  Rows<OutboxRow> outbox_;         // the last read of `outbox`
  long long outbox_read_at_ = -1;  // db_.changes() when outbox_ was read
};

}  // namespace idemlab
