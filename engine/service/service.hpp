#pragma once
// The mock service: one SQLite database with the `deliveries` table
// (op_key TEXT PRIMARY KEY, fingerprint, receipt, created_at), i.e. the effect and its
// receipt in one row.
//
// submit(op_key, payload): in one transaction, looks the key up; unknown -> writes the
// effect and receipt (commit); known with the same fingerprint -> replays the original
// receipt; known with another fingerprint -> rejects with `same_key_different_payload`
// and writes nothing. This is the behaviour of the IETF Idempotency-Key HTTP header draft
// (draft-ietf-httpapi-idempotency-key-header): replay the stored response for a repeated
// key, refuse a reused key with a different request payload.
// lookup(op_key): found + receipt, or not found (an authoritative answer here).
#include <vector>

#include "engine/sim/run.hpp"
#include "engine/store/database.hpp"

namespace idemlab {

class Simulation;

class Service {
 public:
  explicit Service(Simulation& sim);
  bool alive() const { return true; }
  /// Handles a request or lookup that reached the service; records its steps and replies.
  void on_message(const Message& m);
  /// Every row of `deliveries`, in insertion order.
  Rows<DeliveryRow> rows();

  static constexpr const char* kSameKeyDifferentPayload = "same_key_different_payload";

 private:
  void submit(const Message& m);
  void lookup(const Message& m);
  void reply(const Message& to, MessageKind kind, const std::string& outcome,
             const std::string& receipt, const std::string& reason);

  Simulation& sim_;
  Database db_;
  Rows<DeliveryRow> rows_;         // the last read of `deliveries`
  long long rows_read_at_ = -1;    // db_.changes() when rows_ was read
};

}  // namespace idemlab
