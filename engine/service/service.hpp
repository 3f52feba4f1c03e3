#pragma once
// The mock service: one SQLite database with two tables,
//   idempotency_keys(op_key TEXT PRIMARY KEY, fingerprint, receipt, created_at)
//     the dedup record of each operation key: what a repeat is answered from and what
//     lookup reads;
//   deliveries(id INTEGER PRIMARY KEY, op_key, fingerprint, receipt, created_at)
//     one row per effect (the same op_key appears twice when a broken ordering let a
//     retry make a second effect).
// Times are virtual ms. The contract's knobs are ServiceContract (engine/sim/scenario.hpp).
//
// submit(op_key, payload), the behaviour of the IETF Idempotency-Key HTTP header draft
// (draft-ietf-httpapi-idempotency-key-header):
//  - a request whose key is still being processed (processing_ms > 0) is answered
//    `in_progress` at once (the draft's 409 Conflict): an indefinite error for the client;
//  - a known key with the same fingerprint replays the stored receipt;
//  - a known key with another fingerprint is rejected `same_key_different_payload` (the
//    draft's 422) and nothing is written;
//  - an unknown key writes the dedup record and the effect, in the contract's ordering:
//    atomic (one transaction), key_first or effect_first (two commits, a crash between
//    them leaves one without the other).
// Under dedup = fingerprint the record is found by the payload fingerprint instead of the
// key: two intents with the same content are merged into one effect (the mistake).
// lookup(op_key): found + receipt, not_found, or in_progress. It reads a replica that lags
// lookup_lag_ms behind, and a record forgotten after retention_ms is not found.
//
// A crash (fault crash_service) loses the requests in progress and keeps the database; an
// open transaction is rolled back. A message that reaches a crashed service is lost.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/sim/run.hpp"
#include "engine/store/database.hpp"

namespace idemlab {

class Simulation;

class Service {
 public:
  explicit Service(Simulation& sim);
  bool alive() const { return alive_; }
  /// Handles a request or lookup that reached the (alive) service; records its steps and replies.
  void on_message(const Message& m);
  /// The process dies: requests in progress are forgotten, an open transaction is rolled
  /// back, the database is kept. Records a `crash` step.
  void crash();
  /// The process starts again on its database; records a `restart` step, then forgets the
  /// dedup records whose retention window passed while it was down.
  void restart();
  /// Every row of `idempotency_keys` / `deliveries`, in insertion order.
  Rows<KeyRow> keys();
  Rows<DeliveryRow> rows();
  /// The requests in progress (volatile), in arrival order.
  const std::vector<InProgress>& in_progress() const { return in_progress_; }

  /// Whether a lookup at `now` sees a dedup record made at `created_at`, on a replica
  /// `lag_ms` behind (virtual ms): only records at least that old are there.
  static bool lookup_sees(long long created_at, std::int64_t now, std::int64_t lag_ms) {
    return created_at + lag_ms <= now;
  }

  static constexpr const char* kSameKeyDifferentPayload = "same_key_different_payload";

 private:
  bool in_progress(const Message& m) const;
  void submit(const Message& m);
  void write_new(const Message& m);
  void lookup(const Message& m);
  void expire_due();
  int record(const std::string& kind, const std::string& intent, nlohmann::json local, int message = -1);
  void reply(const Message& to, MessageKind kind, const std::string& outcome,
             const std::string& receipt, const std::string& reason);

  Simulation& sim_;
  Database db_;
  bool alive_ = true;
  int epoch_ = 0;  // bumped by a crash: work scheduled in an earlier life does nothing
  std::vector<InProgress> in_progress_;
  long long begun_at_ = 0;         // db_.changes() when the open transaction began
  Rows<KeyRow> keys_;              // the last read of `idempotency_keys`
  long long keys_read_at_ = -1;    // db_.changes() when keys_ was read
  Rows<DeliveryRow> rows_;         // the last read of `deliveries`
  long long rows_read_at_ = -1;    // db_.changes() when rows_ was read
};

}  // namespace idemlab
